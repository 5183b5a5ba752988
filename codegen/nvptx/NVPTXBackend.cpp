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

#include <mutex>

using namespace tritium;

namespace {
/// The module the llir stage just printed, kept for the ptx stage that
/// usually follows with exactly that text: it then skips re-parsing the
/// LLVM IR. Edited text (TRITIUM_KERNEL_OVERRIDE), or another compile in
/// between, simply parses. One entry; the mutex covers threads compiling
/// at once.
struct LoweredModule {
  std::string IR;
  std::unique_ptr<llvm::LLVMContext> Ctx;
  std::unique_ptr<llvm::Module> M; // lives in *Ctx: always released first
  void clear() {
    M.reset();
    Ctx.reset();
    IR.clear();
  }
  ~LoweredModule() { clear(); }
};
std::mutex LastLoweredMutex;
// Never destroyed: at exit LLVM's own statics may already be gone.
LoweredModule &LastLowered = *new LoweredModule;
} // namespace

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
  auto CtxOwner = std::make_unique<llvm::LLVMContext>();
  llvm::LLVMContext &Ctx = *CtxOwner;
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
  OS.flush();
  std::lock_guard<std::mutex> Lock(LastLoweredMutex);
  LastLowered.clear();
  LastLowered.IR = Result.IR;
  LastLowered.M = std::move(LLM);
  LastLowered.Ctx = std::move(CtxOwner);
  return Result;
}

std::string tritium::compileToPTX(llvm::StringRef LLVMIR, unsigned Arch) {
  // M is declared after its context, so it is destroyed first.
  std::unique_ptr<llvm::LLVMContext> Ctx;
  std::unique_ptr<llvm::Module> M;
  {
    std::lock_guard<std::mutex> Lock(LastLoweredMutex);
    if (LastLowered.M && LastLowered.IR == LLVMIR) {
      Ctx = std::move(LastLowered.Ctx);
      M = std::move(LastLowered.M);
    }
    LastLowered.clear();
  }
  llvm::SMDiagnostic Diag;
  if (!M) {
    Ctx = std::make_unique<llvm::LLVMContext>();
    M = llvm::parseAssemblyString(LLVMIR, Diag, *Ctx);
  }
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
