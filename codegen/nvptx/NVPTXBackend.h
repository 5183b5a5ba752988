//===- NVPTXBackend.h - Tritium IR to a cubin -------------------*- C++ -*-===//
//
// The stages of the NVIDIA backend (registered for "cuda" targets, see
// codegen/Backend.h), each usable on its own:
//
//   tgir   runNVPTXPipeline: layouts (assign-layouts, remove-layout-conversions),
//          cleanup, then shared memory barriers (insert-barriers) on the
//          Tritium IR, in place
//   llir   lowerNVPTXToLLVMIR: lowering, libdevice, LLVM's O3, as LLVM IR text
//   ptx    compileToPTX: LLVM's NVPTX backend
//   cubin  assembleCubin (PTXEmitter.h): ptxas
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_NVPTX_NVPTXBACKEND_H
#define TRITIUM_CODEGEN_NVPTX_NVPTXBACKEND_H

#include "codegen/Backend.h"
#include "codegen/Passes.h"
#include "ir/Target.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tritium {

class Module;

/// What the NVIDIA target puts into the layout pipeline of the tgir stage,
/// and that pipeline's string.
LayoutPipelineOptions getNVPTXLayoutOptions(const CompileOptions &Opts);
std::string getNVPTXPipeline(const CompileOptions &Opts);

/// "" if \p Opts can be compiled for, else why not (a target that is not
/// NVIDIA's, the warp count, the register limit, an option of hip's). Every
/// stage below checks it.
std::string checkNVPTXOptions(const CompileOptions &Opts);

/// Runs the tgir pipeline on \p M. Throws CompileError.
void runNVPTXPipeline(Module &M, const CompileOptions &Opts);

/// Lowers layout-level \p M to optimized LLVM IR for Opts.GPU with libdevice
/// linked. Throws CompileError.
LLVMIRResult lowerNVPTXToLLVMIR(Module &M, const CompileOptions &Opts);

/// LLVM IR text to PTX for \p GPU (its PTX version and architecture in the
/// header, sm_90a included), a*b+c in one fma where \p FPFusion. Throws
/// CompileError.
std::string compileToPTX(llvm::StringRef LLVMIR, const Target &GPU, bool FPFusion = true);

} // namespace tritium

#endif // TRITIUM_CODEGEN_NVPTX_NVPTXBACKEND_H
