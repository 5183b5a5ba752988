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
NVPTXOptions options(unsigned Arch, unsigned NumWarps, bool Debug) {
  NVPTXOptions O;
  O.Arch = Arch;
  O.NumWarps = NumWarps;
  O.Debug = Debug;
  return O;
}
} // namespace

void bindNVPTX(py::module_ &Top) {
  py::module_ M = Top.def_submodule("nvptx", "The NVIDIA backend's compile stages");
  M.attr("SUPPORTED_ARCHS") = py::tuple(py::cast(std::vector<unsigned>(
      supportedCudaArchs().begin(), supportedCudaArchs().end())));
  M.def(
      "parse_arch",
      [](const std::string &Text) {
        unsigned Arch = 0;
        std::string Err = parseCudaArch(Text, Arch);
        if (!Err.empty())
          throw py::value_error(Err);
        return Arch;
      },
      py::arg("text"),
      "The compute capability a CUDA target names after 'cuda:' (\"90\", \"sm_90\", "
      "\"90a\"); ValueError naming the supported ones otherwise");
  M.def(
      "gpu_pipeline",
      [](unsigned NumWarps) { return getGPUPipeline(options(90, NumWarps, false)); },
      py::arg("num_warps"), "The pass pipeline of the tgir stage");
  M.def(
      "run_gpu_pipeline",
      [](PyModule &Mod, unsigned Arch, unsigned NumWarps, bool Debug) {
        runGPUPipeline(Mod.getModule(), options(Arch, NumWarps, Debug));
      },
      py::arg("module"), py::arg("arch"), py::arg("num_warps"),
      py::arg("debug") = false,
      "Assigns layouts (in place): Tritium IR -> layout-level Tritium IR");
  M.def(
      "lower_to_llvm_ir",
      [](PyModule &Mod, unsigned Arch, unsigned NumWarps, bool Debug, bool LLVMO3,
         const std::string &Libdevice, unsigned MaxNReg) {
        NVPTXOptions O = options(Arch, NumWarps, Debug);
        O.LLVMO3 = LLVMO3;
        O.LibdevicePath = Libdevice;
        O.MaxNReg = MaxNReg;
        LLVMIRResult R = lowerToLLVMIR(Mod.getModule(), O);
        return py::make_tuple(R.IR, R.SharedBytes);
      },
      py::arg("module"), py::arg("arch"), py::arg("num_warps"),
      py::arg("debug") = false, py::arg("llvm_o3") = false, py::arg("libdevice") = "",
      py::arg("maxnreg") = 0,
      "Layout-level IR -> (optimized LLVM IR text, shared memory bytes)");
  M.def(
      "compile_to_ptx",
      [](const std::string &IR, unsigned Arch) {
        py::gil_scoped_release Release;
        return compileToPTX(IR, Arch);
      },
      py::arg("llir"), py::arg("arch"), "LLVM IR text -> PTX text");
  M.def("find_ptxas", &findPtxas, "ptxas's path, or '' if none is found");
  M.def("find_libdevice", &findLibdevice, "libdevice.10.bc's path, or ''");
  M.def(
      "assemble_cubin",
      [](const std::string &PTX, unsigned Arch, const std::string &Ptxas) {
        CubinResult R;
        {
          py::gil_scoped_release Release;
          R = assembleCubin(PTX, Arch, Ptxas);
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
      py::arg("ptx"), py::arg("arch"), py::arg("ptxas"),
      "PTX -> {cubin, registers, spill_stores, spill_loads, log} via ptxas");
}
