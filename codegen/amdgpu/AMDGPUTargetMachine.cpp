//===- AMDGPUTargetMachine.cpp - LLVM's AMDGPU target for a Target --------===//

#include "codegen/amdgpu/AMDGPUTargetMachine.h"
#include "codegen/lowering/LLVMOptimize.h"

#include "ir/Diagnostics.h"

#include "llvm/MC/TargetRegistry.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"

#include <mutex>

extern "C" {
void LLVMInitializeAMDGPUTargetInfo();
void LLVMInitializeAMDGPUTarget();
void LLVMInitializeAMDGPUTargetMC();
void LLVMInitializeAMDGPUAsmPrinter();
void LLVMInitializeAMDGPUAsmParser();
}

using namespace tritium;

const llvm::Target &tritium::amdgpuTarget() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeAMDGPUTargetInfo();
    LLVMInitializeAMDGPUTarget();
    LLVMInitializeAMDGPUTargetMC();
    LLVMInitializeAMDGPUAsmPrinter();
    LLVMInitializeAMDGPUAsmParser();
    applyDefaultLLVMFlags();
  });
  std::string Err;
  const llvm::Target *T = llvm::TargetRegistry::lookupTarget(AMDGPUTriple, Err);
  if (!T)
    reportError({}, "LLVM has no AMDGPU target: " + Err);
  return *T;
}

std::string tritium::amdgpuFeatures(const Target &GPU) {
  return GPU.getWarpSize() == 64 ? "+wavefrontsize64" : "+wavefrontsize32";
}

std::unique_ptr<llvm::TargetMachine> tritium::createAMDGPUTargetMachine(const Target &GPU,
                                                                        bool FPFusion) {
  llvm::TargetOptions Opts;
  Opts.AllowFPOpFusion = FPFusion ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Strict;
  return std::unique_ptr<llvm::TargetMachine>(amdgpuTarget().createTargetMachine(
      AMDGPUTriple, GPU.getArchName(), amdgpuFeatures(GPU), Opts, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOpt::Aggressive));
}
