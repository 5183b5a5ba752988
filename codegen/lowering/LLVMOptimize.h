//===- LLVMOptimize.h - LLVM's passes on a lowered module --------*- C++ -*-===//
//
// The LLVM pipeline every GPU target runs on the module the lowering made,
// with its device library linked.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_LOWERING_LLVMOPTIMIZE_H
#define TRITIUM_CODEGEN_LOWERING_LLVMOPTIMIZE_H

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace tritium {

/// Optimizes \p M for \p TM: a short pipeline (inline the device library,
/// scalar cleanup, LICM, GVN, DCE), or LLVM's default<O3> with \p UseO3.
void optimizeModule(llvm::Module &M, llvm::TargetMachine &TM, bool UseO3 = false);

} // namespace tritium

#endif // TRITIUM_CODEGEN_LOWERING_LLVMOPTIMIZE_H
