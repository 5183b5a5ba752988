//===- tritium-translate.cpp - Tritium IR to LLVM IR and GPU binaries -----===//
//
//   tritium-translate FILE [--target cuda:90|hip:gfx90a] [--emit STAGE]
//                     [--num-warps N] [--num-stages N] [--maxnreg N]
//                     [--waves-per-eu N]
//                     [--passes] [--debug] [--verify-each] [-o OUT]
//
// Parses FILE (Tritium IR), optionally runs the machine-independent default
// pipeline (--passes), then the target's stages up to the one asked for, and
// writes it: tgir, llvm, ptx or cubin for cuda targets (ptx by default);
// tgir, llvm, amdgcn or hsaco for hip targets (amdgcn by default), through
// compileStages (codegen/Backend.h), the stages the Python compiler runs.
//
//===----------------------------------------------------------------------===//

#include "codegen/Backend.h"
#include "codegen/Passes.h"
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
                    "[--waves-per-eu N] [--passes] [--debug] [--verify-each] [-o OUT]\n";

/// A bad command line: what is wrong, then the usage line; exit status 2.
int badUsage(const llvm::Twine &Why) {
  llvm::errs() << "tritium-translate: " << Why << '\n' << Usage;
  return 2;
}

/// A bool knob read as knobs.py reads it: unset, \p Default; set, whether
/// it is one of 1, true, yes, on, y (any case, spaces around).
bool knob(const char *Env, bool Default) {
  const char *V = std::getenv(Env);
  if (!V)
    return Default;
  llvm::StringRef S = llvm::StringRef(V).trim();
  for (const char *True : {"1", "true", "yes", "on", "y"})
    if (S.equals_insensitive(True))
      return true;
  return false;
}

/// What the command line asks for.
struct Request {
  std::string Input, Output = "-", Emit;
  CompileOptions Opts;
  bool RunPasses = false;
};

/// "" if \p R names a stage of its target and options the target takes,
/// else why not. The stage after LLVM IR unless --emit says (ptx for cuda
/// targets, amdgcn for hip targets).
std::string checkRequest(Request &R) {
  R.Opts.LLVMO3 = knob("TRITIUM_LLVM_O3", false);          // knobs.compilation.llvm_o3
  R.Opts.TMA = knob("TRITIUM_TMA", true);                  // knobs.nvidia.tma
  R.Opts.VerifyEach |= knob("TRITIUM_VERIFY_EACH", false); // knobs.compilation.verify_each
  const Backend *B = getBackend(R.Opts.GPU);
  if (!B)
    return "no backend compiles for " + R.Opts.GPU.str();
  std::vector<std::string> Stages = B->getStages(R.Opts);
  for (std::string &S : Stages)
    if (S == "llir")
      S = "llvm"; // the command line's name for it
  if (R.Emit.empty())
    R.Emit = Stages.size() > 2 ? Stages[2] : Stages.back();
  if (!llvm::is_contained(Stages, R.Emit))
    return "--emit " + R.Emit + " is not a stage of " + R.Opts.GPU.str() + ": expected " +
           llvm::join(Stages, ", ");
  return B->checkOptions(R.Opts);
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
    } else if (A == "--num-warps" || A == "--num-stages" || A == "--maxnreg" ||
               A == "--waves-per-eu") {
      llvm::StringRef V = Argv[++I];
      unsigned &Field = A == "--num-warps"    ? R.Opts.NumWarps
                        : A == "--num-stages" ? R.Opts.NumStages
                        : A == "--maxnreg"    ? R.Opts.MaxNReg
                                              : R.Opts.WavesPerEU;
      if (V.getAsInteger(10, Field))
        return badUsage("option '" + A + "' expects a number, got '" + V + "'");
    } else if (A == "--passes") {
      R.RunPasses = true;
    } else if (A == "--debug") {
      R.Opts.Debug = true;
    } else if (A == "--verify-each") {
      R.Opts.VerifyEach = true;
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
  std::string Err = Target::parse(TargetText, R.Opts.GPU);
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
  bool Binary = false;
  try {
    Context Ctx;
    std::unique_ptr<Module> M = parseModule(Text, Ctx, Name);
    verifyModuleOrThrow(*M);
    if (R.RunPasses) // the tir stage, as the Python package runs it
      runStagePipeline(*M, "tir", getDefaultPipeline(), R.Opts.VerifyEach);
    // LLVM IR is the llir stage; --emit says llvm.
    auto Stages = compileStages(*M, R.Opts, R.Emit == "llvm" ? "llir" : R.Emit);
    Result = std::move(Stages.back().second.Data);
    Binary = Stages.back().second.Binary;
  } catch (const CompileError &E) {
    llvm::errs() << formatError(E, Text, Name);
    return 1;
  }
  std::error_code EC;
  llvm::raw_fd_ostream OS(R.Output, EC, Binary ? llvm::sys::fs::OF_None : llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "tritium-translate: cannot write '" << R.Output << "'\n";
    return 1;
  }
  OS << Result;
  return 0;
}
