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

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tritium {

class Module;

/// The compute capabilities the backend emits code for: those LLVM 16's
/// NVPTX backend knows, from Volta (sm_70) to Hopper (sm_90).
llvm::ArrayRef<unsigned> supportedCudaArchs();

/// Reads the architecture of a CUDA target, the text after "cuda:": "90",
/// "sm_90", "sm90" or "90a". Sets \p Arch and returns "", or returns what is
/// wrong and what is accepted.
std::string parseCudaArch(llvm::StringRef Text, unsigned &Arch);

/// "" if the backend supports sm_<\p Arch>, else an error naming the
/// supported ones.
std::string checkCudaArch(unsigned Arch);

struct NVPTXOptions {
  unsigned Arch = 90;
  unsigned NumWarps = 4;
  unsigned NumStages = 3;
  /// The most registers a thread may use (PTX's .maxnreg); 0: ptxas decides.
  unsigned MaxNReg = 0;
  bool Debug = false;
  /// LLVM's default<O3> instead of the backend's short pipeline.
  bool LLVMO3 = false;
  /// libdevice.10.bc; empty: findLibdevice().
  std::string LibdevicePath;
};

/// The pipeline string of the tgir stage.
std::string getGPUPipeline(const NVPTXOptions &Opts);

/// "" if \p Opts can be compiled for, else why not (the architecture, the
/// warp count, the register limit). Every stage below checks it.
std::string checkOptions(const NVPTXOptions &Opts);

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
