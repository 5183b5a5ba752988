//===- Binding.cpp - The tritium._C extension module ----------------------===//
//
// The thin layer between Python and the C++ core. For now it exposes the IR,
// in the submodule _C.ir (and, for short, at the top of _C):
//
//   m = tritium._C.parse_module(text, name="<input>")   # -> Module
//   str(m); m.verify(); m.run_passes("verify,print", verify_each=False)
//   tritium._C.list_passes()                            # [(name, description)]
//   tritium._C.ir.default_pipeline()                    # "inline,...,dce"
//
// A later layer (the frontend, the runtime) adds its own submodule from its
// own bindX(py::module_ &) function.
//
// Every CompileError thrown by the core becomes tritium.CompilationError
// (python/tritium/errors.py), with the location split into fields and the message formatted against
// the source text (line and caret) when the text is known. Nothing here aborts on bad input.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "ir/Context.h"
#include "ir/Diagnostics.h"
#include "ir/Module.h"
#include "ir/Parser.h"
#include "ir/PassManager.h"
#include "ir/Target.h"
#include "PyModule.h"

#include <pybind11/pybind11.h>
#include <llvm/Support/Signals.h>
#include <cstdlib>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace py = pybind11;
using namespace tritium;

// _C.frontend (FrontendBinding.cpp).
void bindFrontend(py::module_ &M);
// _C.backend_stages, _C.run_stage, _C.nvptx, _C.amdgpu (BackendBinding.cpp).
void bindBackends(py::module_ &M);
// _C.runtime (RuntimeBinding.cpp).
void bindRuntime(py::module_ &M);

namespace {

/// Sets tritium.CompilationError(message, file, line, col, detail) for \p E
/// as the pending Python error. \p Text, when given, is the source parsed
/// under \p Name; the detail then quotes the offending line under a caret.
void setCompilationError(const CompileError &E, const std::string *Text,
                         const std::string &Name = "") {
  py::object Cls = py::module_::import("tritium.errors").attr("CompilationError");
  Loc L = E.getLoc();
  py::object File = py::none(), Line = py::none(), Col = py::none();
  if (L.isKnown()) {
    File = py::str(L.File.str());
    Line = py::int_(L.Line);
    Col = py::int_(L.Col);
  }
  std::string Detail = E.describe();
  if (L.isKnown() && Text) {
    Detail = formatError(E, *Text, Name);
    while (!Detail.empty() && Detail.back() == '\n')
      Detail.pop_back();
  }
  py::object Err = Cls(std::string(E.what()), File, Line, Col, Detail);
  PyErr_SetObject(Cls.ptr(), Err.ptr());
}

/// Calls \p F, turning a CompileError into CompilationError formatted
/// against \p Text, the source parsed under \p Name.
template <typename FnT>
auto withSource(const std::string &Text, const std::string &Name, FnT F) -> decltype(F()) {
  try {
    return F();
  } catch (const CompileError &E) {
    setCompilationError(E, &Text, Name);
    throw py::error_already_set();
  }
}

/// The str \p Text as UTF-8; ValueError if it cannot be (a lone surrogate),
/// instead of pybind11's "incompatible function arguments".
std::string utf8Text(py::handle Text, const char *What) {
  if (!PyUnicode_Check(Text.ptr()))
    throw py::type_error(std::string(What) + " must be a str, got " +
                         std::string(Py_TYPE(Text.ptr())->tp_name));
  Py_ssize_t Size = 0;
  const char *Data = PyUnicode_AsUTF8AndSize(Text.ptr(), &Size);
  if (!Data) {
    PyErr_Clear();
    throw py::value_error(std::string(What) + " is not valid UTF-8 (it holds a lone surrogate)");
  }
  return std::string(Data, size_t(Size));
}

/// _C.ir: modules of IR text, the verifier and the pass pipeline.
void bindIR(py::module_ &M) {
  py::class_<PyModule>(M, "Module", "A module of Tritium IR")
      .def(py::init<std::string>(), py::arg("name") = "<frontend>",
           "An empty module, for the frontend to build into")
      .def("__str__", &PyModule::str, "The module in the text form of the IR")
      .def("__repr__",
           [](const PyModule &Mod) { return "<tritium Module '" + Mod.getName() + "'>"; })
      .def_property_readonly("name", &PyModule::getName, "The buffer name given to parse_module")
      .def(
          "verify",
          [](const PyModule &Mod) {
            withSource(Mod.getText(), Mod.getName(), [&] { Mod.verify(); });
          },
          "Checks the module's invariants; raises CompilationError listing "
          "every violation")
      .def(
          "run_passes",
          [](PyModule &Mod, const std::string &Pipeline, bool VerifyEach,
             const std::string &Reproducer) {
            withSource(Mod.getText(), Mod.getName(),
                       [&] { Mod.runPasses(Pipeline, VerifyEach, Reproducer); });
          },
          py::arg("pipeline"), py::arg("verify_each") = false, py::arg("reproducer") = "",
          "Runs a comma-separated pipeline such as \"verify,print\" on the "
          "module in place (writing a reproducer to the file `reproducer`)")
      .def(
          "run_stage_passes",
          [](PyModule &Mod, const std::string &Stage, const std::string &Pipeline, bool VerifyEach,
             const py::dict &Debug) {
            DebugOptions D = debugOptionsOf(Debug);
            withSource(Mod.getText(), Mod.getName(),
                       [&] { Mod.runStage(Stage, Pipeline, VerifyEach, D); });
          },
          py::arg("stage"), py::arg("pipeline"), py::arg("verify_each") = false,
          py::arg("debug") = py::dict(),
          "Runs the pipeline as the compile's stage `stage` (\"tir\"): the "
          "dumps, pass timings and reproducer that `debug` asks (dump_ir, "
          "kernel, pass_timing, dump_path, reproducer) as the C++ stages "
          "make them");

  M.def(
      "parse_module",
      [](py::handle TextObj, py::handle NameObj) {
        std::string Text = utf8Text(TextObj, "the IR text");
        std::string Name = utf8Text(NameObj, "the buffer name");
        auto Ctx = std::make_unique<Context>();
        std::unique_ptr<Module> Mod =
            withSource(Text, Name, [&] { return parseModule(Text, *Ctx, Name); });
        return std::make_unique<PyModule>(std::move(Ctx), std::move(Mod), Text, Name);
      },
      py::arg("text"), py::arg("name") = "<input>",
      "Parses the text form of the IR; raises CompilationError with the "
      "line and column of the first error");

  M.def(
      "list_passes",
      [] {
        std::vector<std::pair<std::string, std::string>> Passes;
        for (const PassRegistry::Entry *E : PassRegistry::global().entries())
          Passes.emplace_back(E->Name, E->Description);
        return Passes;
      },
      "Every pass a pipeline may name, as (name, description) pairs sorted "
      "by name");
  M.def(
      "default_pipeline", [](bool WideOffsets) { return getDefaultPipeline(WideOffsets); },
      py::arg("wide_offsets") = false,
      "The machine-independent passes the tir stage runs, comma-separated "
      "(with widen-offsets for wide_offsets)");
}

} // namespace

PYBIND11_MODULE(_C, M) {
  M.doc() = "Tritium's C++ core; each layer is a submodule (_C.ir, ...)";
  M.attr("__version__") = TRITIUM_VERSION;

  registerAllPasses(PassRegistry::global());

  // TRITIUM_BACKTRACE=1: a crash inside the compiler prints a C++ stack
  // trace (LLVM's handler) — for machines without a debugger.
  if (const char *BT = std::getenv("TRITIUM_BACKTRACE"); BT && *BT && *BT != '0')
    llvm::sys::PrintStackTraceOnErrorSignal("_C");

  // Local: the translator serves this module's functions only, so nothing
  // is installed for other pybind11 modules that share pybind11's internals.
  py::register_local_exception_translator([](std::exception_ptr P) {
    try {
      if (P)
        std::rethrow_exception(P);
    } catch (const OutOfResourcesError &E) {
      py::object Cls = py::module_::import("tritium.errors").attr("OutOfResources");
      py::object Err = Cls(E.Required, E.Limit, E.Resource, std::string(E.what()));
      PyErr_SetObject(Cls.ptr(), Err.ptr());
    } catch (const CompileError &E) {
      setCompilationError(E, nullptr);
    }
  });

  py::module_ IR = M.def_submodule("ir", "Tritium IR: parse, print, verify, "
                                         "run passes");
  bindIR(IR);
  // The IR entry points also sit at the top, as tritium._C.parse_module.
  for (const char *Name : {"Module", "parse_module", "list_passes"})
    M.attr(Name) = IR.attr(Name);

  M.def(
      "parse_target",
      [](const std::string &Text) {
        Target T;
        std::string Err = Target::parse(Text, T);
        if (!Err.empty())
          throw py::value_error(Err);
        py::dict D;
        D["backend"] = T.getKind();
        D["arch"] = T.isNVIDIA() ? py::object(py::int_(T.getNumber()))
                                 : py::object(py::str(T.getArchName()));
        D["warp_size"] = T.getWarpSize();
        D["arch_name"] = T.getArchName();
        D["arch_specific"] = T.isArchSpecific();
        D["ptx_version"] = T.getPTXVersion();
        D["str"] = T.str();
        return D;
      },
      py::arg("text"),
      "The target description (ir/Target.h) of \"cuda:90\", \"cuda:sm_90a\", "
      "\"hip:gfx90a\", \"cuda\", ...: a dict with backend, arch (the compute capability, or "
      "the gfx name), warp_size, arch_name, arch_specific, ptx_version and str; ValueError "
      "naming the accepted targets otherwise");

  bindFrontend(M);
  bindRuntime(M);
  bindBackends(M);
}
