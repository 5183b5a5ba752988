//===- AMDGPUBinding.cpp - tritium._C.amdgpu: the AMD compile stages -------===//
//
// One function per stage of codegen/amdgpu/AMDGPUBackend.h, for the Python
// compiler (python/tritium/backends/hip.py). The stages that only run LLVM
// or LLD release the GIL.
//
//===----------------------------------------------------------------------===//

#include "PyModule.h"

#include "codegen/amdgpu/AMDGPUBackend.h"
#include "ir/Diagnostics.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace tritium;

namespace {
/// The hip target a stage is asked for ("hip:gfx90a"); ValueError otherwise.
Target hipTarget(const std::string &Text) {
  Target GPU;
  std::string Err = Target::parse(Text, GPU);
  if (Err.empty() && !GPU.isAMD())
    Err = "the AMDGPU backend compiles for hip targets, not " + GPU.str();
  if (!Err.empty())
    throw py::value_error(Err);
  return GPU;
}

AMDGPUOptions options(const std::string &GPU, unsigned NumWarps, bool Debug,
                      unsigned WavesPerEU) {
  AMDGPUOptions O;
  O.GPU = hipTarget(GPU);
  O.NumWarps = NumWarps;
  O.Debug = Debug;
  O.WavesPerEU = WavesPerEU;
  return O;
}
} // namespace

void bindAMDGPU(py::module_ &Top) {
  py::module_ M = Top.def_submodule("amdgpu", "The AMDGPU backend's compile stages");
  M.def(
      "run_gpu_pipeline",
      [](PyModule &Mod, const std::string &GPU, unsigned NumWarps, bool Debug) {
        runGPUPipeline(Mod.getModule(), options(GPU, NumWarps, Debug, 0));
      },
      py::arg("module"), py::arg("target"), py::arg("num_warps"), py::arg("debug") = false,
      "Assigns layouts for the target's wavefronts (in place)");
  M.def(
      "lower_to_llvm_ir",
      [](PyModule &Mod, const std::string &GPU, unsigned NumWarps, bool Debug, bool LLVMO3,
         const std::string &DeviceLibs, unsigned WavesPerEU) {
        AMDGPUOptions O = options(GPU, NumWarps, Debug, WavesPerEU);
        O.LLVMO3 = LLVMO3;
        O.DeviceLibsPath = DeviceLibs;
        LLVMIRResult R = lowerToLLVMIR(Mod.getModule(), O);
        return py::make_tuple(R.IR, R.SharedBytes);
      },
      py::arg("module"), py::arg("target"), py::arg("num_warps"), py::arg("debug") = false,
      py::arg("llvm_o3") = false, py::arg("device_libs") = "", py::arg("waves_per_eu") = 0,
      "Layout-level IR -> (optimized LLVM IR text with the device libraries linked, LDS bytes)");
  M.def(
      "compile_to_amdgcn",
      [](const std::string &IR, const std::string &GPU) {
        Target T = hipTarget(GPU);
        py::gil_scoped_release Release;
        return compileToAMDGCN(IR, T);
      },
      py::arg("llir"), py::arg("target"), "LLVM IR text -> AMDGPU assembly");
  M.def(
      "assemble_hsaco",
      [](const std::string &Asm, const std::string &GPU) {
        Target T = hipTarget(GPU);
        HsacoResult R;
        {
          py::gil_scoped_release Release;
          R = assembleHsaco(Asm, T);
        }
        py::dict D;
        D["hsaco"] = py::bytes(R.Hsaco);
        D["vgprs"] = R.VGPRs;
        D["sgprs"] = R.SGPRs;
        D["lds"] = R.LDSBytes;
        D["scratch"] = R.ScratchBytes;
        D["kernarg_size"] = R.KernargBytes;
        D["wavefront_size"] = R.WavefrontSize;
        D["name"] = R.KernelName;
        return D;
      },
      py::arg("amdgcn"), py::arg("target"),
      "AMDGPU assembly -> {hsaco, vgprs, sgprs, lds, scratch, kernarg_size, wavefront_size, name}: "
      "assembled by LLVM and linked by LLD in process");
  M.def("find_device_libs", &findDeviceLibs, "The ROCm device libraries' folder, or ''");
  M.def(
      "max_shared_bytes", [](const std::string &GPU) { return maxSharedBytes(hipTarget(GPU)); },
      py::arg("target"), "The LDS bytes a workgroup of the target may use");
}
