//===- PyModule.h - The Python handle of an IR module -----------*- C++ -*-===//
//
// tritium._C.ir.Module: a Module together with the Context it lives in (which must outlive it) and
// the text it was parsed from (which error messages quote). Shared by the bindings of the IR
// (Binding.cpp) and of the frontend (FrontendBinding.cpp), which builds into an empty one.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_PYTHON_PYMODULE_H
#define TRITIUM_PYTHON_PYMODULE_H

#include "codegen/DebugOptions.h"
#include "codegen/Passes.h"
#include "ir/Context.h"
#include "ir/Module.h"
#include "ir/PassManager.h"
#include "ir/Verifier.h"

#include <memory>
#include <string>
#include <utility>

namespace pybind11 {
class dict;
}

namespace tritium {

/// The debugging options a Python dict of compile options asks (BackendBinding.cpp; keys as
/// DebugOptions' fields: dump_ir, kernel, pass_timing, dump_path, reproducer, ...).
DebugOptions debugOptionsOf(const pybind11::dict &D);

class PyModule {
public:
  PyModule(std::unique_ptr<Context> Ctx, std::unique_ptr<Module> M, std::string Text,
           std::string Name)
      : Ctx(std::move(Ctx)), M(std::move(M)), Text(std::move(Text)), Name(std::move(Name)) {}
  /// An empty module (no text), for the frontend to build into.
  explicit PyModule(std::string Name = "<frontend>")
      : Ctx(std::make_unique<Context>()), M(std::make_unique<Module>(*Ctx)), Name(std::move(Name)) {
  }

  std::string str() const { return M->str(); }
  void verify() const { verifyModuleOrThrow(*M); }

  /// Passes may assume verified IR: text parsed from Python is checked
  /// first, as tritium-opt checks it.
  void runPasses(const std::string &Pipeline, bool VerifyEach,
                 const std::string &ReproducerPath = "") {
    verifyModuleOrThrow(*M);
    PassManagerOptions Opts;
    Opts.VerifyEach = VerifyEach;
    Opts.ReproducerPath = ReproducerPath;
    PassManager PM(std::move(Opts));
    PassRegistry::global().parsePipeline(Pipeline, PM);
    PM.run(*M);
  }
  /// The same as the compile's stage \p Stage, with its dumps, timings and
  /// reproducer (runStagePipeline).
  void runStage(const std::string &Stage, const std::string &Pipeline, bool VerifyEach,
                const DebugOptions &Debug) {
    verifyModuleOrThrow(*M);
    runStagePipeline(*M, Stage, Pipeline, VerifyEach, Debug);
  }

  Module &getModule() { return *M; }
  Context &getContext() { return *Ctx; }
  const std::string &getText() const { return Text; }
  const std::string &getName() const { return Name; }

private:
  std::unique_ptr<Context> Ctx;
  std::unique_ptr<Module> M;
  std::string Text;
  std::string Name;
};

} // namespace tritium

#endif // TRITIUM_PYTHON_PYMODULE_H
