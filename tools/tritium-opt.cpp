//===- tritium-opt.cpp - Run passes on Tritium IR text --------------------===//
//
//   tritium-opt FILE [-p pass1,pass2] [--verify-each] [--print-after-all]
//               [--print-before-all] [--print-locs] [--remarks] [--list-passes]
//               [-o OUT]
//
// Parses FILE ("-" for stdin), verifies it, runs the pipeline and prints the
// result. Errors go to stderr as "file:line:col: error: ..." with the source
// line and a caret, and the exit status is 1.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "ir/Context.h"
#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "ir/Printer.h"
#include "ir/Verifier.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <string>

using namespace tritium;

namespace {
int usage(const char *Argv0) {
  llvm::errs() << "usage: " << Argv0
               << " FILE [-p PASS[,PASS...]] [--verify-each] "
                  "[--print-after-all] [--print-before-all] [--print-locs] [--remarks] "
                  "[-o OUT]\n       "
               << Argv0 << " --list-passes\n";
  return 2;
}
} // namespace

int main(int Argc, char **Argv) {
  std::string Input, Output = "-", Pipeline;
  bool VerifyEach = false, PrintAfterAll = false, PrintBeforeAll = false,
       PrintLocs = false, Remarks = false, ListPasses = false;
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    bool TakesValue = A == "-p" || A == "--passes" || A == "-passes" || A == "-o";
    if (TakesValue && I + 1 == Argc) {
      llvm::errs() << "tritium-opt: option '" << A << "' needs a value"
                   << (A == "-o" ? " (a file)" : " (a pass pipeline such as dce,cse)") << '\n';
      return usage(Argv[0]);
    }
    if (A == "-p" || A == "--passes" || A == "-passes")
      Pipeline = Argv[++I];
    else if (A.consume_front("-passes=") || A.consume_front("--passes="))
      Pipeline = A.str();
    else if (A == "-o")
      Output = Argv[++I];
    else if (A == "--verify-each" || A == "-verify-each")
      VerifyEach = true;
    else if (A == "--print-after-all" || A == "-print-after-all")
      PrintAfterAll = true;
    else if (A == "--print-before-all" || A == "-print-before-all")
      PrintBeforeAll = true;
    else if (A == "--print-locs")
      PrintLocs = true;
    else if (A == "--remarks") // why a pass left something alone, to stderr
      Remarks = true;
    else if (A == "--list-passes")
      ListPasses = true;
    else if (A == "-h" || A == "--help") {
      usage(Argv[0]);
      return 0;
    } else if (!A.startswith("-") || A == "-") {
      if (!Input.empty()) {
        llvm::errs() << "tritium-opt: more than one input file: '" << Input << "' and '" << A
                     << "'\n";
        return usage(Argv[0]);
      }
      Input = A.str();
    } else {
      llvm::errs() << "tritium-opt: unknown option '" << A << "'\n";
      return usage(Argv[0]);
    }
  }

  PassRegistry &Registry = PassRegistry::global();
  registerAllPasses(Registry);
  if (ListPasses) {
    for (const PassRegistry::Entry *E : Registry.entries())
      llvm::outs() << "  " << E->Name << " - " << E->Description << '\n';
    return 0;
  }
  if (Input.empty()) {
    llvm::errs() << "tritium-opt: no input file\n";
    return usage(Argv[0]);
  }

  auto Buf = llvm::MemoryBuffer::getFileOrSTDIN(Input);
  if (!Buf) {
    llvm::errs() << "tritium-opt: cannot read '" << Input
                 << "': " << Buf.getError().message() << '\n';
    return 1;
  }
  llvm::StringRef Text = (*Buf)->getBuffer();

  Context Ctx;
  std::unique_ptr<Module> M;
  try {
    M = parseModule(Text, Ctx, Input == "-" ? "<stdin>" : Input);
    verifyModuleOrThrow(*M);
    PassManagerOptions Opts;
    Opts.VerifyEach = VerifyEach;
    Opts.PrintAfterAll = PrintAfterAll;
    Opts.PrintBeforeAll = PrintBeforeAll;
    Opts.PrintStream = &llvm::errs();
    if (Remarks)
      Opts.RemarkStream = &llvm::errs();
    PassManager PM(Opts);
    Registry.parsePipeline(Pipeline, PM);
    PM.run(*M);
  } catch (const CompileError &E) {
    llvm::errs() << formatError(E, Text, Input == "-" ? "<stdin>" : Input);
    return 1;
  }

  std::error_code EC;
  llvm::raw_fd_ostream OS(Output, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    llvm::errs() << "tritium-opt: cannot write '" << Output
                 << "': " << EC.message() << '\n';
    return 1;
  }
  PrintOptions PO;
  PO.PrintLocs = PrintLocs;
  printModule(*M, OS, PO);
  return 0;
}
