//===- TransformTestUtils.h - Running passes on IR text ---------*- C++ -*-===//
//
// The tests of codegen/transforms parse a module from a string, run a
// pipeline with the verifier after every pass, and compare what prints.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_TESTS_UNIT_TRANSFORMTESTUTILS_H
#define TRITIUM_TESTS_UNIT_TRANSFORMTESTUTILS_H

#include "codegen/Passes.h"
#include "ir/Context.h"
#include "ir/Module.h"
#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "ir/Verifier.h"

#include "llvm/ADT/StringRef.h"

#include <string>

namespace tritium::test {

/// Runs \p Pipeline on \p M, verifying after every pass.
inline void runPipeline(Module &M, llvm::StringRef Pipeline) {
  PassRegistry &R = PassRegistry::global();
  registerAllPasses(R);
  PassManagerOptions Opts;
  Opts.VerifyEach = true;
  PassManager PM(Opts);
  R.parsePipeline(Pipeline, PM);
  PM.run(M);
}

/// Parses and verifies \p IR, runs \p Pipeline on it and returns the
/// printed result.
inline std::string runPipeline(llvm::StringRef IR, llvm::StringRef Pipeline) {
  Context Ctx;
  std::unique_ptr<Module> M = parseModule(IR, Ctx);
  verifyModuleOrThrow(*M);
  runPipeline(*M, Pipeline);
  return M->str();
}

/// In printed IR, what defines the value of the first `ret %v`: the text
/// after "%v = " on its line ("constant 3 : i32"), or "%v" itself when it
/// is an argument.
inline std::string returnedDef(llvm::StringRef Printed) {
  size_t Ret = Printed.find("  ret %");
  if (Ret == llvm::StringRef::npos)
    return "<no ret>";
  llvm::StringRef Name =
      Printed.substr(Ret + 6).take_until([](char C) { return C == '\n'; });
  size_t Def = Printed.find("  " + Name.str() + " = ");
  if (Def == llvm::StringRef::npos)
    return Name.str();
  return Printed.substr(Def + 2 + Name.size() + 3)
      .take_until([](char C) { return C == '\n'; })
      .str();
}

} // namespace tritium::test

#endif // TRITIUM_TESTS_UNIT_TRANSFORMTESTUTILS_H
