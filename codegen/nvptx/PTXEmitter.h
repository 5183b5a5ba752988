//===- PTXEmitter.h - LLVM IR to PTX to cubin --------------------*- C++ -*-===//
//
// The NVPTX end of the pipeline: link libdevice (only the functions used),
// optimize the LLVM module, let LLVM's NVPTX backend print PTX for the
// device's sm_XX, and assemble it with ptxas into a cubin whose register and
// spill counts are read back from `ptxas -v`.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_CODEGEN_NVPTX_PTXEMITTER_H
#define TRITIUM_CODEGEN_NVPTX_PTXEMITTER_H

#include "codegen/lowering/LLVMOptimize.h"
#include "ir/Target.h"

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <optional>
#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace tritium {

/// The NVPTX target machine for \p GPU (LLVM 16 knows up to sm_90 and
/// PTX 7.8; newer architectures are emitted as sm_90 and patched), which
/// contracts a*b+c into fma where \p FPFusion.
std::unique_ptr<llvm::TargetMachine> createNVPTXTargetMachine(const Target &GPU,
                                                              bool FPFusion = true);

/// Sets the module's triple and data layout for \p TM.
void prepareNVPTXModule(llvm::Module &M, llvm::TargetMachine &TM);

/// Where libdevice.10.bc is: TRITIUM_LIBDEVICE_PATH, then CUDA_HOME,
/// CUDA_PATH, /usr/local/cuda; empty if none exists.
std::string findLibdevice();

/// Links the libdevice functions \p M calls (only those) and internalizes
/// them; answers their __nvvm_reflect queries for \p GPU and
/// \p FlushDenormals. Returns an error message, or "" on success (also when
/// nothing needs linking); a call left to a function that nothing defines
/// (not libdevice, not an intrinsic, not vprintf or __assertfail) is an
/// error naming it.
std::string linkLibdevice(llvm::Module &M, const Target &GPU, bool FlushDenormals = false,
                          llvm::StringRef LibdevicePath = "");

/// Prints PTX for \p M. Returns "" and sets \p Error on failure.
std::string emitPTX(llvm::Module &M, llvm::TargetMachine &TM,
                    std::string &Error);

/// Rewrites the `.version` and `.target` lines of \p PTX (for targets or
/// instructions newer than LLVM 16 knows).
std::string patchPTXHeader(llvm::StringRef PTX, llvm::StringRef Version,
                           llvm::StringRef Target);

/// Answers libdevice's __nvvm_reflect queries: __CUDA_ARCH is 10 times the
/// compute capability of \p GPU,
/// __CUDA_FTZ is \p FlushDenormals, anything else 0.
void resolveNVVMReflect(llvm::Module &M, const Target &GPU, bool FlushDenormals);

/// Replaces libdevice's llvm.nvvm.round.* (round half to even) with
/// llvm.roundeven before LLVM 16 can misread them as llvm.round.
void upgradeNVVMRound(llvm::Module &M);

/// Where ptxas is: TRITIUM_PTXAS_PATH, CUDA_HOME/bin, /usr/local/cuda/bin,
/// PATH; empty if none is found.
std::string findPtxas();

struct CubinResult {
  std::string Cubin;    ///< the ELF image; empty on failure
  std::string Log;      ///< ptxas's output (errors or -v info)
  int Registers = -1;   ///< per thread, from ptxas -v
  int SpillStores = -1; ///< bytes
  int SpillLoads = -1;  ///< bytes
  std::string Error;    ///< why it failed
};

/// Fills \p R's registers and spill bytes from ptxas -v output \p Log
/// ("Used N registers", "A bytes spill stores, B bytes spill loads").
void parsePtxasLog(llvm::StringRef Log, CubinResult &R);

/// Assembles \p PTX for \p GPU (--gpu-name=sm_90a for sm_90a) with \p Ptxas
/// (-v, -O3; -lineinfo where the PTX has source lines; --fmad=false
/// unless \p FPFusion; then \p Options, space-separated).
CubinResult assembleCubin(llvm::StringRef PTX, const Target &GPU,
                          llvm::StringRef Ptxas, bool FPFusion = true,
                          llvm::StringRef Options = "");

} // namespace tritium

#endif // TRITIUM_CODEGEN_NVPTX_PTXEMITTER_H
