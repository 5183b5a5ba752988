//===- NVPTXBinding.cpp - tritium._C.nvptx: the NVIDIA compile stages ------===//
//
// One function per stage of codegen/nvptx/NVPTXBackend.h, for the Python
// compiler (python/tritium/backends/cuda.py). The stages that only run LLVM or
// ptxas release the GIL.
//
//===----------------------------------------------------------------------===//

#include "PyModule.h"

#include "codegen/nvptx/NVPTXBackend.h"
#include "codegen/nvptx/PTXEmitter.h"
#include "ir/Diagnostics.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace tritium;

namespace {
/// The target a stage is asked for: a string ("cuda:90a"), or a compute
/// capability as an int (90); ValueError otherwise.
Target targetOf(py::handle T) {
  std::string Text = py::isinstance<py::int_>(T) ? "cuda:" + std::to_string(T.cast<int>())
                                                 : T.cast<std::string>();
  Target GPU;
  std::string Err = Target::parse(Text, GPU);
  if (!Err.empty())
    throw py::value_error(Err);
  return GPU;
}

NVPTXOptions options(py::handle GPU, unsigned NumWarps, bool Debug,
                     unsigned NumStages = NVPTXOptions().NumStages) {
  NVPTXOptions O;
  O.GPU = targetOf(GPU);
  O.NumWarps = NumWarps;
  O.NumStages = NumStages;
  O.Debug = Debug;
  return O;
}
} // namespace

void bindNVPTX(py::module_ &Top) {
  py::module_ M = Top.def_submodule("nvptx", "The NVIDIA backend's compile stages");
  M.def(
      "gpu_pipeline",
      [](unsigned NumWarps, py::handle GPU, unsigned NumStages) {
        return getGPUPipeline(options(GPU, NumWarps, false, NumStages));
      },
      py::arg("num_warps"), py::arg("target") = "cuda:90",
      py::arg("num_stages") = NVPTXOptions().NumStages,
      "The pass pipeline of the tgir stage");
  M.def(
      "run_gpu_pipeline",
      [](PyModule &Mod, py::handle GPU, unsigned NumWarps, bool Debug, unsigned NumStages,
         bool TMA) {
        NVPTXOptions O = options(GPU, NumWarps, Debug, NumStages);
        O.TMA = TMA;
        runGPUPipeline(Mod.getModule(), O);
      },
      py::arg("module"), py::arg("target"), py::arg("num_warps"),
      py::arg("debug") = false, py::arg("num_stages") = NVPTXOptions().NumStages,
      py::arg("tma") = false,
      "Assigns layouts (in place): Tritium IR -> layout-level Tritium IR");
  M.def(
      "lower_to_llvm_ir",
      [](PyModule &Mod, py::handle GPU, unsigned NumWarps, bool Debug, bool LLVMO3,
         const std::string &Libdevice, unsigned MaxNReg) {
        NVPTXOptions O = options(GPU, NumWarps, Debug);
        O.LLVMO3 = LLVMO3;
        O.LibdevicePath = Libdevice;
        O.MaxNReg = MaxNReg;
        LLVMIRResult R = lowerToLLVMIR(Mod.getModule(), O);
        return py::make_tuple(R.IR, R.SharedBytes);
      },
      py::arg("module"), py::arg("target"), py::arg("num_warps"),
      py::arg("debug") = false, py::arg("llvm_o3") = false, py::arg("libdevice") = "",
      py::arg("maxnreg") = 0,
      "Layout-level IR -> (optimized LLVM IR text, shared memory bytes)");
  M.def(
      "compile_to_ptx",
      [](const std::string &IR, py::handle T) {
        Target GPU = targetOf(T);
        py::gil_scoped_release Release;
        return compileToPTX(IR, GPU);
      },
      py::arg("llir"), py::arg("target"), "LLVM IR text -> PTX text");
  M.def("find_ptxas", &findPtxas, "ptxas's path, or '' if none is found");
  M.def("find_libdevice", &findLibdevice, "libdevice.10.bc's path, or ''");
  M.def(
      "max_shared_bytes", [](py::handle GPU) { return targetOf(GPU).getMaxSharedBytes(); },
      py::arg("target"), "The shared memory bytes a block of the target may use (opt-in)");
  M.def(
      "assemble_cubin",
      [](const std::string &PTX, py::handle T, const std::string &Ptxas) {
        Target GPU = targetOf(T);
        CubinResult R;
        {
          py::gil_scoped_release Release;
          R = assembleCubin(PTX, GPU, Ptxas);
        }
        if (!R.Error.empty())
          throw CompileError(R.Error);
        py::dict D;
        D["cubin"] = py::bytes(R.Cubin);
        D["registers"] = R.Registers;
        D["spill_stores"] = R.SpillStores;
        D["spill_loads"] = R.SpillLoads;
        D["log"] = R.Log;
        return D;
      },
      py::arg("ptx"), py::arg("target"), py::arg("ptxas"),
      "PTX -> {cubin, registers, spill_stores, spill_loads, log} via ptxas");
}
