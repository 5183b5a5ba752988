//===- LLVMOptimize.h - LLVM's passes on a lowered module --------*- C++ -*-===//
//
// The LLVM pipeline every GPU target runs on the module the lowering made,
// with its device library linked.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_LOWERING_LLVMOPTIMIZE_H
#define TRITIUM_CODEGEN_LOWERING_LLVMOPTIMIZE_H

#include "codegen/DebugOptions.h"

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Module;
class TargetLibraryInfoImpl;
class TargetMachine;
} // namespace llvm

namespace tritium {

/// Optimizes \p M for \p TM: a short pipeline (inline the device library,
/// scalar cleanup, LICM, GVN, DCE) or the target's own \p Pipeline (in
/// LLVM's text), or LLVM's default<O3> with \p UseO3; \p Library, where
/// given, says which library functions exist (and their vector forms);
/// none with Debug.DisableLLVMOpt; each pass dumped or timed as \p Debug
/// asks, after Debug.LLVMFlags are applied.
void optimizeModule(llvm::Module &M, llvm::TargetMachine &TM, bool UseO3 = false,
                    const DebugOptions &Debug = {}, llvm::StringRef Pipeline = "",
                    const llvm::TargetLibraryInfoImpl *Library = nullptr);

/// Sets LLVM's command-line options from \p Flags ("-disable-lsr
/// -debug-only=isel"; a leading '-' may be left out), once per distinct
/// string: they are the process's. Throws CompileError for a flag LLVM
/// does not have.
void applyLLVMFlags(llvm::StringRef Flags);

/// The LLVM options every code generation of the process runs with, set
/// when a target initializes: loop strength reduction off. LSR folded the
/// pipelined copies' per-element pointers into invariant bases plus one
/// offset, which ptxas rebuilt as IMAD.WIDE in the loop; without it the
/// tutorial matmul ran 2-9 % faster on the H100 (docs/performance.md).
void applyDefaultLLVMFlags();

} // namespace tritium

#endif // TRITIUM_CODEGEN_LOWERING_LLVMOPTIMIZE_H
