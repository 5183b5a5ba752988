//===- PTXEmitter.cpp - LLVM IR to PTX to cubin ---------------------------===//

#include "codegen/nvptx/PTXEmitter.h"
#include "codegen/lowering/LLVMOptimize.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/IRReader/IRReader.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <cstdlib>
#include <mutex>

using namespace tritium;

namespace {
void initNVPTX() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    applyDefaultLLVMFlags();
  });
}

std::string envOr(const char *Name) {
  const char *V = std::getenv(Name);
  return V ? V : "";
}
} // namespace

std::unique_ptr<llvm::TargetMachine> tritium::createNVPTXTargetMachine(const Target &GPU,
                                                                       bool FPFusion) {
  initNVPTX();
  std::string Triple = "nvptx64-nvidia-cuda", Err;
  const llvm::Target *T = llvm::TargetRegistry::lookupTarget(Triple, Err);
  if (!T)
    return nullptr;
  unsigned Known = std::min(GPU.getNumber(), 90u);
  std::string CPU = "sm_" + std::to_string(Known);
  llvm::TargetOptions Opts;
  // Triton contracts a*b+c into fma unless enable_fp_fusion=False; NVPTX
  // then prints mul.rn/add.rn, which ptxas does not fuse either.
  Opts.AllowFPOpFusion = FPFusion ? llvm::FPOpFusion::Fast : llvm::FPOpFusion::Strict;
  return std::unique_ptr<llvm::TargetMachine>(T->createTargetMachine(
      Triple, CPU, "+ptx78", Opts, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOpt::Aggressive));
}

void tritium::prepareNVPTXModule(llvm::Module &M, llvm::TargetMachine &TM) {
  M.setTargetTriple(TM.getTargetTriple().str());
  M.setDataLayout(TM.createDataLayout());
}

std::string tritium::findLibdevice() {
  llvm::SmallVector<std::string, 4> Candidates;
  if (std::string P = envOr("TRITIUM_LIBDEVICE_PATH"); !P.empty())
    Candidates.push_back(P);
  for (const char *Var : {"CUDA_HOME", "CUDA_PATH"})
    if (std::string H = envOr(Var); !H.empty())
      Candidates.push_back(H + "/nvvm/libdevice/libdevice.10.bc");
  Candidates.push_back("/usr/local/cuda/nvvm/libdevice/libdevice.10.bc");
  for (const std::string &C : Candidates)
    if (llvm::sys::fs::exists(C))
      return C;
  return "";
}

/// libdevice rounds to nearest even with llvm.nvvm.round.{f,ftz.f,d}
/// (cvt.rni), but LLVM 16's NVPTX InstCombine hook rewrites those into
/// llvm.round — ties away from zero — so rint(2.5) became 3. Calling
/// llvm.roundeven, which NVPTX also selects as cvt.rni, keeps the meaning.
void tritium::upgradeNVVMRound(llvm::Module &M) {
  for (const char *Name : {"llvm.nvvm.round.f", "llvm.nvvm.round.ftz.f", "llvm.nvvm.round.d"}) {
    llvm::Function *Old = M.getFunction(Name);
    if (!Old)
      continue;
    llvm::Function *Even = llvm::Intrinsic::getDeclaration(
        &M, llvm::Intrinsic::roundeven, {Old->getReturnType()});
    Old->replaceAllUsesWith(Even);
    Old->eraseFromParent();
  }
}

/// libdevice asks __nvvm_reflect("__CUDA_ARCH") and ("__CUDA_FTZ") to pick
/// code paths; the answers are constants here, so the optimizer drops the
/// paths not taken. (LLVM's NVVMReflect pass does the same inside its O3
/// pipeline; the lean pipeline has no slot for the SM version.)
void tritium::resolveNVVMReflect(llvm::Module &M, const Target &GPU, bool FlushDenormals) {
  llvm::Function *Reflect = M.getFunction("__nvvm_reflect");
  if (!Reflect)
    return;
  for (llvm::User *U : llvm::make_early_inc_range(Reflect->users())) {
    auto *Call = llvm::dyn_cast<llvm::CallInst>(U);
    if (!Call || Call->getCalledFunction() != Reflect)
      continue;
    llvm::StringRef Name;
    auto *GV = llvm::dyn_cast<llvm::GlobalVariable>(
        Call->getArgOperand(0)->stripPointerCasts());
    if (GV && GV->hasInitializer())
      if (auto *Str = llvm::dyn_cast<llvm::ConstantDataSequential>(GV->getInitializer()))
        if (Str->isCString())
          Name = Str->getAsCString();
    int Value = Name == "__CUDA_ARCH" ? int(GPU.getNumber()) * 10
                : Name == "__CUDA_FTZ" ? int(FlushDenormals)
                                       : 0;
    Call->replaceAllUsesWith(llvm::ConstantInt::get(Call->getType(), Value));
    Call->eraseFromParent();
  }
}

namespace {
/// Why \p M cannot be emitted: a function it calls that neither it, LLVM
/// (intrinsics) nor the CUDA driver (printf and assert's system calls)
/// defines. ptxas would otherwise fail on PTX that names it, or the driver
/// when it loads the module.
std::string undefinedFunction(const llvm::Module &M) {
  for (const llvm::Function &F : M.functions()) {
    if (!F.isDeclaration() || F.isIntrinsic() || F.use_empty())
      continue;
    llvm::StringRef Name = F.getName();
    if (Name == "vprintf" || Name == "__assertfail")
      continue;
    return "undefined function '" + Name.str() + "': " +
           (Name.startswith("__nv_") ? "libdevice has no such function"
                                     : "no library linked here defines it");
  }
  return "";
}
} // namespace

std::string tritium::linkLibdevice(llvm::Module &M, const Target &GPU, bool FlushDenormals,
                                   llvm::StringRef LibdevicePath) {
  bool Needed = llvm::any_of(M.functions(), [](llvm::Function &F) {
    return F.isDeclaration() && F.getName().startswith("__nv_");
  });
  // libdevice asks __nvvm_reflect("__CUDA_FTZ"); the NVVMReflect pass of the
  // NVPTX backend answers from this module flag.
  M.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", FlushDenormals);
  if (!Needed)
    return undefinedFunction(M);
  std::string Path = LibdevicePath.empty() ? findLibdevice() : LibdevicePath.str();
  if (Path.empty())
    return "libdevice.10.bc not found (set TRITIUM_LIBDEVICE_PATH or CUDA_HOME)";
  llvm::SMDiagnostic Diag;
  // Lazy loading materializes only the functions the linker pulls in.
  std::unique_ptr<llvm::Module> Lib =
      llvm::getLazyIRFileModule(Path, Diag, M.getContext());
  if (!Lib)
    return "cannot read " + Path + ": " + Diag.getMessage().str();
  Lib->setTargetTriple(M.getTargetTriple());
  Lib->setDataLayout(M.getDataLayout());
  if (llvm::Linker::linkModules(M, std::move(Lib),
                                llvm::Linker::LinkOnlyNeeded))
    return "linking " + Path + " failed";
  upgradeNVVMRound(M);
  resolveNVVMReflect(M, GPU, FlushDenormals);
  // Keep only the kernels visible; libdevice bodies become internal so the
  // optimizer can inline and drop them.
  llvm::internalizeModule(M, [](const llvm::GlobalValue &G) {
    return !G.isDeclaration() && !G.getName().startswith("__nv_") &&
           G.hasExternalLinkage() && llvm::isa<llvm::Function>(G);
  });
  return undefinedFunction(M);
}

std::string tritium::emitPTX(llvm::Module &M, llvm::TargetMachine &TM,
                             std::string &Error) {
  llvm::SmallString<0> Buf;
  llvm::raw_svector_ostream OS(Buf);
  llvm::legacy::PassManager PM;
  if (TM.addPassesToEmitFile(PM, OS, nullptr, llvm::CGFT_AssemblyFile)) {
    Error = "the NVPTX target cannot emit assembly";
    return "";
  }
  PM.run(M);
  return std::string(Buf.str());
}

std::string tritium::patchPTXHeader(llvm::StringRef PTX, llvm::StringRef Version,
                                    llvm::StringRef Target) {
  std::string Out;
  Out.reserve(PTX.size() + 16);
  llvm::SmallVector<llvm::StringRef, 0> Lines;
  PTX.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    llvm::StringRef L = Lines[I];
    if (L.startswith(".version ") && !Version.empty())
      Out += (".version " + Version).str();
    else if (L.startswith(".target ") && !Target.empty())
      Out += (".target " + Target).str();
    else
      Out += L.str();
    if (I + 1 < Lines.size())
      Out += '\n';
  }
  return Out;
}

std::string tritium::findPtxas() {
  if (std::string P = envOr("TRITIUM_PTXAS_PATH"); !P.empty())
    return llvm::sys::fs::can_execute(P) ? P : "";
  for (const char *Var : {"CUDA_HOME", "CUDA_PATH"})
    if (std::string H = envOr(Var); !H.empty())
      if (llvm::sys::fs::can_execute(H + "/bin/ptxas"))
        return H + "/bin/ptxas";
  if (llvm::sys::fs::can_execute("/usr/local/cuda/bin/ptxas"))
    return "/usr/local/cuda/bin/ptxas";
  if (auto P = llvm::sys::findProgramByName("ptxas"))
    return *P;
  return "";
}

void tritium::parsePtxasLog(llvm::StringRef Log, CubinResult &R) {
  // ptxas -v prints "Used N registers" and "A bytes spill stores, B bytes
  // spill loads". Parsed by hand: std::regex crashes when the process has
  // loaded torch (its libstdc++ regex/locale state is not ours).
  auto NumberBefore = [&](llvm::StringRef Text, llvm::StringRef Marker) {
    size_t At = Text.find(Marker);
    if (At == llvm::StringRef::npos)
      return -1;
    llvm::StringRef Head = Text.take_front(At).rtrim();
    llvm::StringRef Digits = Head.drop_front(Head.find_last_not_of("0123456789") + 1);
    unsigned N;
    return Digits.getAsInteger(10, N) ? -1 : int(N);
  };
  size_t Used = Log.find("Used ");
  if (Used != llvm::StringRef::npos) {
    unsigned N;
    llvm::StringRef After = Log.drop_front(Used + 5);
    if (!After.take_while(llvm::isDigit).getAsInteger(10, N))
      R.Registers = int(N);
  }
  if (int N = NumberBefore(Log, " bytes spill stores"); N >= 0)
    R.SpillStores = N;
  if (int N = NumberBefore(Log, " bytes spill loads"); N >= 0)
    R.SpillLoads = N;
}

namespace {
/// One ptxas run on \p PTX with \p Extra options after -v -O3.
CubinResult runPtxas(llvm::StringRef PTX, const Target &GPU, llvm::StringRef Ptxas,
                     llvm::ArrayRef<llvm::StringRef> Extra) {
  CubinResult R;
  llvm::SmallString<128> In, Out, Log;
  if (llvm::sys::fs::createTemporaryFile("tritium", "ptx", In) ||
      llvm::sys::fs::createTemporaryFile("tritium", "cubin", Out) ||
      llvm::sys::fs::createTemporaryFile("tritium", "log", Log)) {
    R.Error = "cannot create temporary files for ptxas";
    return R;
  }
  auto Cleanup = [&] {
    llvm::sys::fs::remove(In);
    llvm::sys::fs::remove(Out);
    llvm::sys::fs::remove(Log);
  };
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(In, EC);
    if (EC) {
      R.Error = "cannot write " + In.str().str();
      Cleanup();
      return R;
    }
    OS << PTX;
  }
  std::string Gpu = "--gpu-name=" + GPU.getArchName();
  llvm::SmallVector<llvm::StringRef, 10> Args = {Ptxas, "-v", "-O3"};
  Args.append(Extra.begin(), Extra.end());
  Args.append({Gpu, In.str(), "-o", Out.str()});
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, Log.str(), Log.str()};
  std::string ExecErr;
  int RC = llvm::sys::ExecuteAndWait(Ptxas, Args, std::nullopt, Redirects, 0, 0,
                                     &ExecErr);
  if (auto Buf = llvm::MemoryBuffer::getFile(Log))
    R.Log = (*Buf)->getBuffer().str();
  if (RC != 0) {
    R.Error = "ptxas failed" + (ExecErr.empty() ? "" : " (" + ExecErr + ")") +
              ":\n" + R.Log;
    Cleanup();
    return R;
  }
  if (auto Buf = llvm::MemoryBuffer::getFile(Out, /*IsText=*/false))
    R.Cubin = (*Buf)->getBuffer().str();
  Cleanup();
  parsePtxasLog(R.Log, R);
  if (R.Cubin.empty())
    R.Error = "ptxas produced no cubin";
  return R;
}
} // namespace

CubinResult tritium::assembleCubin(llvm::StringRef PTX, const Target &GPU,
                                   llvm::StringRef Ptxas, bool FPFusion,
                                   llvm::StringRef Options) {
  // PTX with source lines (.loc, LineTable.h) keeps them in the cubin.
  llvm::SmallVector<llvm::StringRef, 4> Extra;
  if (PTX.contains("\t.loc\t"))
    Extra.push_back("-lineinfo");
  if (!FPFusion)
    Extra.push_back("--fmad=false");
  Options.split(Extra, ' ', -1, /*KeepEmpty=*/false);
  CubinResult R = runPtxas(PTX, GPU, Ptxas, Extra);
  if (!R.Error.empty() || R.SpillStores <= 0)
    return R;
  // ptxas's default register-usage level (5) lets its scheduler lengthen
  // live ranges for latency even where that spills: at 255 registers it
  // spilled attention's causal kernels (D128 64x64/4 and 128x128/8) that
  // fit at level 2. So a kernel that spills is assembled once more at
  // level 2, and the result that spills fewer bytes is kept.
  Extra.append({"--register-usage-level", "2"});
  CubinResult Low = runPtxas(PTX, GPU, Ptxas, Extra);
  if (!Low.Error.empty() || Low.SpillStores < 0 || Low.SpillStores >= R.SpillStores)
    return R;
  Low.Log = "ptxas -v -O3 spilled " + std::to_string(R.SpillStores) +
            " bytes; kept --register-usage-level 2:\n" + Low.Log;
  return Low;
}
