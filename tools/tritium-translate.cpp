//===- tritium-translate.cpp - Tritium IR to LLVM IR, PTX or a cubin ------===//
//
//   tritium-translate FILE [--target cuda:90] [--emit tgir|llvm|ptx|cubin]
//                     [--num-warps N] [--maxnreg N] [--passes] [--debug] [-o OUT]
//
// Parses FILE (Tritium IR), optionally runs the machine-independent default
// pipeline (--passes), then the GPU stages up to the one asked for, and
// writes it. For inspection and for tests; the Python compiler runs the same
// stages.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/nvptx/NVPTXBackend.h"
#include "codegen/nvptx/PTXEmitter.h"
#include "ir/Context.h"
#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace tritium;

namespace {
const char *Usage = "usage: tritium-translate FILE [--target cuda:NN] "
                    "[--emit tgir|llvm|ptx|cubin] [--num-warps N] [--maxnreg N] "
                    "[--passes] [--debug] [-o OUT]\n";

/// A bad command line: what is wrong, then the usage line; exit status 2.
int badUsage(const llvm::Twine &Why) {
  llvm::errs() << "tritium-translate: " << Why << '\n' << Usage;
  return 2;
}

/// "" if \p Text names a target this tool compiles for (setting \p GPU).
std::string parseTarget(llvm::StringRef Text, Target &GPU) {
  std::string Err = Target::parse(Text, GPU);
  if (!Err.empty())
    return "bad --target '" + Text.str() + "': " + Err;
  if (!GPU.isNVIDIA())
    return "bad --target '" + Text.str() +
           "': the AMDGPU backend is not built yet; tritium-translate compiles for cuda:NN";
  return "";
}
} // namespace

int main(int Argc, char **Argv) {
  std::string Input, Output = "-", Emit = "ptx", TargetText = "cuda:90";
  NVPTXOptions Opts;
  // The knob the Python package reads as knobs.nvidia.llvm_o3.
  if (const char *O3 = std::getenv("TRITIUM_LLVM_O3"))
    Opts.LLVMO3 = llvm::StringRef(O3).equals_insensitive("1") ||
                  llvm::StringRef(O3).equals_insensitive("true") ||
                  llvm::StringRef(O3).equals_insensitive("on");
  bool RunPasses = false;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A == "-h" || A == "--help") {
      llvm::outs() << Usage;
      return 0;
    }
    bool TakesValue = A == "--target" || A == "--emit" || A == "--num-warps" ||
                      A == "--maxnreg" || A == "-o";
    if (TakesValue && I + 1 == Argc)
      return badUsage("option '" + A + "' needs a value");
    if (A == "--target") {
      TargetText = Argv[++I];
    } else if (A == "--emit") {
      Emit = Argv[++I];
      if (Emit != "tgir" && Emit != "llvm" && Emit != "ptx" && Emit != "cubin")
        return badUsage("unknown --emit '" + Emit + "': expected tgir, llvm, ptx or cubin");
    } else if (A == "--num-warps" || A == "--maxnreg") {
      llvm::StringRef V = Argv[++I];
      unsigned &Field = A == "--num-warps" ? Opts.NumWarps : Opts.MaxNReg;
      if (V.getAsInteger(10, Field))
        return badUsage("option '" + A + "' expects a number, got '" + V + "'");
    } else if (A == "--passes") {
      RunPasses = true;
    } else if (A == "--debug") {
      Opts.Debug = true;
    } else if (A == "-o") {
      Output = Argv[++I];
    } else if (!A.startswith("-") || A == "-") {
      if (!Input.empty())
        return badUsage("more than one input file: '" + Input + "' and '" + A + "'");
      Input = A.str();
    } else {
      return badUsage("unknown option '" + A + "'");
    }
  }
  if (Input.empty())
    return badUsage("no input file");
  std::string Err = parseTarget(TargetText, Opts.GPU);
  if (Err.empty())
    Err = checkOptions(Opts);
  if (!Err.empty())
    return badUsage(Err);

  auto Buf = llvm::MemoryBuffer::getFileOrSTDIN(Input);
  if (!Buf) {
    llvm::errs() << "tritium-translate: cannot read '" << Input
                 << "': " << Buf.getError().message() << '\n';
    return 1;
  }
  llvm::StringRef Text = (*Buf)->getBuffer();
  std::string Result;
  try {
    Context Ctx;
    std::unique_ptr<Module> M = parseModule(Text, Ctx, Input == "-" ? "<stdin>" : Input);
    verifyModuleOrThrow(*M);
    if (RunPasses) {
      PassRegistry &R = PassRegistry::global();
      registerAllPasses(R);
      PassManager PM;
      R.parsePipeline(getDefaultPipeline(), PM);
      PM.run(*M);
    }
    runGPUPipeline(*M, Opts);
    verifyModuleOrThrow(*M);
    if (Emit == "tgir") {
      Result = M->str();
    } else {
      LLVMIRResult LL = lowerToLLVMIR(*M, Opts);
      if (Emit == "llvm") {
        Result = LL.IR;
      } else {
        std::string PTX = compileToPTX(LL.IR, Opts.GPU);
        if (Emit == "ptx") {
          Result = PTX;
        } else {
          std::string Ptxas = findPtxas();
          if (Ptxas.empty())
            throw CompileError("ptxas not found (set TRITIUM_PTXAS_PATH)");
          CubinResult C = assembleCubin(PTX, Opts.GPU, Ptxas);
          if (!C.Error.empty())
            throw CompileError(C.Error);
          Result = C.Cubin;
        }
      }
    }
  } catch (const CompileError &E) {
    llvm::errs() << formatError(E, Text, Input == "-" ? "<stdin>" : Input);
    return 1;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(Output, EC, Emit == "cubin" ? llvm::sys::fs::OF_None
                                                      : llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "tritium-translate: cannot write '" << Output << "'\n";
    return 1;
  }
  OS << Result;
  return 0;
}
