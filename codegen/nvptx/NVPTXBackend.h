//===- NVPTXBackend.h - Tritium IR to a cubin -------------------*- C++ -*-===//
//
// The stages of the NVIDIA backend, each usable on its own (the Python
// compiler runs them one by one so every stage can be dumped and overridden):
//
//   tgir   runGPUPipeline: layouts (assign-layouts, remove-layout-conversions),
//          cleanup, then shared memory barriers (insert-barriers) on the
//          Tritium IR, in place
//   llir   lowerToLLVMIR: lowering, libdevice, LLVM's O3, as LLVM IR text
//   ptx    compileToPTX: LLVM's NVPTX backend
//   cubin  assembleCubin (PTXEmitter.h): ptxas
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_NVPTX_NVPTXBACKEND_H
#define TRITIUM_CODEGEN_NVPTX_NVPTXBACKEND_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tritium {

class Module;

struct NVPTXOptions {
  unsigned Arch = 90;
  unsigned NumWarps = 4;
  unsigned NumStages = 3;
  bool Debug = false;
  /// LLVM's default<O3> instead of the backend's short pipeline.
  bool LLVMO3 = false;
  /// libdevice.10.bc; empty: findLibdevice().
  std::string LibdevicePath;
};

/// The pipeline string of the tgir stage.
std::string getGPUPipeline(const NVPTXOptions &Opts);

/// Runs the tgir pipeline on \p M. Throws CompileError.
void runGPUPipeline(Module &M, const NVPTXOptions &Opts);

struct LLVMIRResult {
  std::string IR;
  unsigned SharedBytes = 0;
};

/// Lowers layout-level \p M to optimized LLVM IR for sm_<Arch> with libdevice
/// linked. Throws CompileError.
LLVMIRResult lowerToLLVMIR(Module &M, const NVPTXOptions &Opts);

/// LLVM IR text to PTX for sm_<Arch>. Throws CompileError.
std::string compileToPTX(llvm::StringRef LLVMIR, unsigned Arch);

} // namespace tritium

#endif // TRITIUM_CODEGEN_NVPTX_NVPTXBACKEND_H
