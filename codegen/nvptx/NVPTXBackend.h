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

#include "codegen/Backend.h"
#include "ir/Target.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tritium {

class Module;

struct NVPTXOptions {
  /// An NVIDIA target (ir/Target.h); sm_90 unless set.
  Target GPU;
  unsigned NumWarps = 4;
  unsigned NumStages = 3;
  /// The most registers a thread may use (PTX's .maxnreg); 0: ptxas decides.
  unsigned MaxNReg = 0;
  bool Debug = false;
  /// LLVM's default<O3> instead of the backend's short pipeline.
  bool LLVMO3 = false;
  /// sm_90a's descriptor loads through TMA (knobs.nvidia.tma): off until
  /// it has run on a GPU.
  bool TMA = false;
  /// libdevice.10.bc; empty: findLibdevice().
  std::string LibdevicePath;
};

/// The pipeline string of the tgir stage.
std::string getGPUPipeline(const NVPTXOptions &Opts);

/// "" if \p Opts can be compiled for, else why not (a target that is not
/// NVIDIA's, the warp count, the register limit). Every stage below checks
/// it.
std::string checkOptions(const NVPTXOptions &Opts);

/// Runs the tgir pipeline on \p M. Throws CompileError.
void runGPUPipeline(Module &M, const NVPTXOptions &Opts);

/// Lowers layout-level \p M to optimized LLVM IR for Opts.GPU with libdevice
/// linked. Throws CompileError.
LLVMIRResult lowerToLLVMIR(Module &M, const NVPTXOptions &Opts);

/// LLVM IR text to PTX for \p GPU (its PTX version and architecture in the
/// header, sm_90a included). Throws CompileError.
std::string compileToPTX(llvm::StringRef LLVMIR, const Target &GPU);

} // namespace tritium

#endif // TRITIUM_CODEGEN_NVPTX_NVPTXBACKEND_H
