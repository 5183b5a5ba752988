//===- tritium-translate.cpp - Tritium IR to LLVM IR and GPU binaries -----===//
//
//   tritium-translate FILE [--target cuda:90|hip:gfx90a] [--emit STAGE]
//                     [--num-warps N] [--num-stages N] [--maxnreg N]
//                     [--waves-per-eu N]
//                     [--passes] [--debug] [-o OUT]
//
// Parses FILE (Tritium IR), optionally runs the machine-independent default
// pipeline (--passes), then the target's stages up to the one asked for, and
// writes it: tgir, llvm, ptx or cubin for cuda targets (ptx by default);
// tgir, llvm, amdgcn or hsaco for hip targets (amdgcn by default). For
// inspection and for tests; the Python compiler runs the same stages.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/amdgpu/AMDGPUBackend.h"
#include "codegen/nvptx/NVPTXBackend.h"
#include "codegen/nvptx/PTXEmitter.h"
#include "ir/Context.h"
#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace tritium;

namespace {
const char *Usage = "usage: tritium-translate FILE [--target cuda:NN|hip:gfxNNN] "
                    "[--emit tgir|llvm|ptx|cubin|amdgcn|hsaco] [--num-warps N] [--num-stages N] "
                    "[--maxnreg N] "
                    "[--waves-per-eu N] [--passes] [--debug] [-o OUT]\n";

/// A bad command line: what is wrong, then the usage line; exit status 2.
int badUsage(const llvm::Twine &Why) {
  llvm::errs() << "tritium-translate: " << Why << '\n' << Usage;
  return 2;
}

bool isOn(const char *Env) {
  const char *V = std::getenv(Env);
  return V && (llvm::StringRef(V).equals_insensitive("1") ||
               llvm::StringRef(V).equals_insensitive("true") ||
               llvm::StringRef(V).equals_insensitive("on"));
}

/// What the command line asks for.
struct Request {
  std::string Input, Output = "-", Emit;
  Target GPU;
  unsigned NumWarps = 4, NumStages = NVPTXOptions().NumStages, MaxNReg = 0, WavesPerEU = 0;
  bool RunPasses = false, Debug = false;
};

/// \p R's options for an NVIDIA target.
NVPTXOptions nvptxOptions(const Request &R) {
  NVPTXOptions Opts;
  Opts.GPU = R.GPU;
  Opts.NumWarps = R.NumWarps;
  Opts.NumStages = R.NumStages;
  Opts.MaxNReg = R.MaxNReg;
  Opts.Debug = R.Debug;
  Opts.LLVMO3 = isOn("TRITIUM_LLVM_O3"); // knobs.compilation.llvm_o3
  Opts.TMA = isOn("TRITIUM_TMA");        // knobs.nvidia.tma
  return Opts;
}

/// The NVIDIA stages after tgir: llvm, ptx, cubin.
std::string translateNVIDIA(Module &M, const Request &R) {
  NVPTXOptions Opts = nvptxOptions(R);
  runGPUPipeline(M, Opts);
  verifyModuleOrThrow(M);
  if (R.Emit == "tgir")
    return M.str();
  LLVMIRResult LL = lowerToLLVMIR(M, Opts);
  if (R.Emit == "llvm")
    return LL.IR;
  std::string PTX = compileToPTX(LL.IR, Opts.GPU);
  if (R.Emit == "ptx")
    return PTX;
  std::string Ptxas = findPtxas();
  if (Ptxas.empty())
    throw CompileError("ptxas not found (set TRITIUM_PTXAS_PATH)");
  CubinResult C = assembleCubin(PTX, Opts.GPU, Ptxas);
  if (!C.Error.empty())
    throw CompileError(C.Error);
  return C.Cubin;
}

/// The AMD stages after tgir: llvm, amdgcn, hsaco.
std::string translateAMD(Module &M, const Request &R) {
  AMDGPUOptions Opts;
  Opts.GPU = R.GPU;
  Opts.NumWarps = R.NumWarps;
  Opts.WavesPerEU = R.WavesPerEU;
  Opts.Debug = R.Debug;
  Opts.LLVMO3 = isOn("TRITIUM_LLVM_O3");
  runGPUPipeline(M, Opts);
  verifyModuleOrThrow(M);
  if (R.Emit == "tgir")
    return M.str();
  LLVMIRResult LL = lowerToLLVMIR(M, Opts);
  if (R.Emit == "llvm")
    return LL.IR;
  std::string Asm = compileToAMDGCN(LL.IR, Opts.GPU);
  if (R.Emit == "amdgcn")
    return Asm;
  return assembleHsaco(Asm, Opts.GPU).Hsaco;
}

/// "" if \p R's options fit its target, else why not.
std::string checkRequest(Request &R) {
  static const llvm::StringRef NVIDIA[] = {"tgir", "llvm", "ptx", "cubin"};
  static const llvm::StringRef AMD[] = {"tgir", "llvm", "amdgcn", "hsaco"};
  llvm::ArrayRef<llvm::StringRef> Stages = R.GPU.isNVIDIA() ? NVIDIA : AMD;
  if (R.Emit.empty())
    R.Emit = R.GPU.isNVIDIA() ? "ptx" : "amdgcn";
  if (!llvm::is_contained(Stages, llvm::StringRef(R.Emit)))
    return "--emit " + R.Emit + " is not a stage of " + R.GPU.str() + ": expected " +
           llvm::join(Stages, ", ");
  if (R.GPU.isNVIDIA()) {
    if (R.WavesPerEU)
      return "--waves-per-eu is for hip targets";
    return checkOptions(nvptxOptions(R));
  }
  if (R.MaxNReg)
    return "--maxnreg is for cuda targets (hip targets take --waves-per-eu)";
  AMDGPUOptions O;
  O.GPU = R.GPU;
  O.NumWarps = R.NumWarps;
  O.WavesPerEU = R.WavesPerEU;
  return checkOptions(O);
}
} // namespace

int main(int Argc, char **Argv) {
  Request R;
  std::string TargetText = "cuda:90";
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "-h" || A == "--help") {
      llvm::outs() << Usage;
      return 0;
    }
    bool TakesValue = A == "--target" || A == "--emit" || A == "--num-warps" ||
                      A == "--num-stages" ||
                      A == "--maxnreg" || A == "--waves-per-eu" || A == "-o";
    if (TakesValue && I + 1 == Argc)
      return badUsage("option '" + A + "' needs a value");
    if (A == "--target") {
      TargetText = Argv[++I];
    } else if (A == "--emit") {
      R.Emit = Argv[++I];
      static const llvm::StringRef All[] = {"tgir", "llvm", "ptx", "cubin", "amdgcn", "hsaco"};
      if (!llvm::is_contained(All, llvm::StringRef(R.Emit)))
        return badUsage("unknown --emit '" + R.Emit +
                        "': expected tgir, llvm, ptx or cubin (cuda), amdgcn or hsaco (hip)");
    } else if (A == "--num-warps" || A == "--num-stages" || A == "--maxnreg" ||
               A == "--waves-per-eu") {
      llvm::StringRef V = Argv[++I];
      unsigned &Field = A == "--num-warps"    ? R.NumWarps
                        : A == "--num-stages" ? R.NumStages
                        : A == "--maxnreg"    ? R.MaxNReg
                                              : R.WavesPerEU;
      if (V.getAsInteger(10, Field))
        return badUsage("option '" + A + "' expects a number, got '" + V + "'");
    } else if (A == "--passes") {
      R.RunPasses = true;
    } else if (A == "--debug") {
      R.Debug = true;
    } else if (A == "-o") {
      R.Output = Argv[++I];
    } else if (!A.startswith("-") || A == "-") {
      if (!R.Input.empty())
        return badUsage("more than one input file: '" + R.Input + "' and '" + A + "'");
      R.Input = A.str();
    } else {
      return badUsage("unknown option '" + A + "'");
    }
  }
  if (R.Input.empty())
    return badUsage("no input file");
  std::string Err = Target::parse(TargetText, R.GPU);
  if (!Err.empty())
    return badUsage("bad --target '" + TargetText + "': " + Err);
  Err = checkRequest(R);
  if (!Err.empty())
    return badUsage(Err);

  auto Buf = llvm::MemoryBuffer::getFileOrSTDIN(R.Input);
  if (!Buf) {
    llvm::errs() << "tritium-translate: cannot read '" << R.Input
                 << "': " << Buf.getError().message() << '\n';
    return 1;
  }
  llvm::StringRef Text = (*Buf)->getBuffer();
  std::string Name = R.Input == "-" ? "<stdin>" : R.Input;
  std::string Result;
  try {
    Context Ctx;
    std::unique_ptr<Module> M = parseModule(Text, Ctx, Name);
    verifyModuleOrThrow(*M);
    if (R.RunPasses) {
      PassRegistry &Reg = PassRegistry::global();
      registerAllPasses(Reg);
      PassManager PM;
      Reg.parsePipeline(getDefaultPipeline(), PM);
      PM.run(*M);
    }
    Result = R.GPU.isNVIDIA() ? translateNVIDIA(*M, R) : translateAMD(*M, R);
  } catch (const CompileError &E) {
    llvm::errs() << formatError(E, Text, Name);
    return 1;
  }
  bool Binary = R.Emit == "cubin" || R.Emit == "hsaco";
  std::error_code EC;
  llvm::raw_fd_ostream OS(R.Output, EC, Binary ? llvm::sys::fs::OF_None : llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "tritium-translate: cannot write '" << R.Output << "'\n";
    return 1;
  }
  OS << Result;
  return 0;
}
