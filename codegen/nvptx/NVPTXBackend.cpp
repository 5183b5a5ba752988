//===- NVPTXBackend.cpp - Tritium IR to a cubin ---------------------------===//

#include "codegen/nvptx/NVPTXBackend.h"
#include "codegen/Passes.h"
#include "codegen/lowering/Lowering.h"
#include "codegen/nvptx/PTXEmitter.h"
#include "ir/Diagnostics.h"
#include "ir/Module.h"
#include "ir/PassManager.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace tritium;

std::string tritium::getGPUPipeline(const NVPTXOptions &Opts) {
  // Layouts first, then drop the conversions that are cheaper to recompute,
  // then clean up what that left behind; barriers last, once the shared
  // memory users are final.
  return "assign-layouts{num-warps=" + std::to_string(Opts.NumWarps) +
         "},remove-layout-conversions,cse,dce,insert-barriers";
}

void tritium::runGPUPipeline(Module &M, const NVPTXOptions &Opts) {
  PassRegistry &R = PassRegistry::global();
  registerAllPasses(R);
  PassManager PM;
  R.parsePipeline(getGPUPipeline(Opts), PM);
  PM.run(M);
}

LLVMIRResult tritium::lowerToLLVMIR(Module &M, const NVPTXOptions &Opts) {
  llvm::LLVMContext Ctx;
  LoweringOptions LO;
  LO.NumWarps = Opts.NumWarps;
  LO.Arch = Opts.Arch;
  LO.Debug = Opts.Debug;
  NVPTXTargetInfo Target(Opts.Arch);
  LLVMIRResult Result;
  std::unique_ptr<llvm::Module> LLM = lowerToLLVM(M, Ctx, LO, Target, Result.SharedBytes);
  std::unique_ptr<llvm::TargetMachine> TM = createNVPTXTargetMachine(Opts.Arch);
  if (!TM)
    reportError({}, "LLVM has no NVPTX target");
  prepareNVPTXModule(*LLM, *TM);
  std::string Err = linkLibdevice(*LLM, Opts.Arch, /*FlushDenormals=*/false, Opts.LibdevicePath);
  if (!Err.empty())
    reportError({}, Err);
  optimizeModule(*LLM, *TM, Opts.LLVMO3);
  llvm::raw_string_ostream OS(Result.IR);
  LLM->print(OS, nullptr);
  return Result;
}

std::string tritium::compileToPTX(llvm::StringRef LLVMIR, unsigned Arch) {
  llvm::LLVMContext Ctx;
  llvm::SMDiagnostic Diag;
  std::unique_ptr<llvm::Module> M = llvm::parseAssemblyString(LLVMIR, Diag, Ctx);
  if (!M) {
    std::string S;
    llvm::raw_string_ostream OS(S);
    Diag.print("llir", OS);
    reportError({}, "cannot parse the LLVM IR: " + OS.str());
  }
  std::unique_ptr<llvm::TargetMachine> TM = createNVPTXTargetMachine(Arch);
  prepareNVPTXModule(*M, *TM);
  std::string Err;
  std::string PTX = emitPTX(*M, *TM, Err);
  if (!Err.empty())
    reportError({}, Err);
  // LLVM 16 stops at sm_90 / PTX 7.8: newer targets get their own header.
  if (Arch > 90)
    PTX = patchPTXHeader(PTX, "8.4", "sm_" + std::to_string(Arch));
  return PTX;
}
