//===- BackendBinding.cpp - The compile stages of every target ------------===//
//
// The Python compiler runs a target's stages (codegen/Backend.h) one at a
// time, so that it can dump, override and time each:
//
//   _C.backend_stages(target, options) -> ["tgir", "llir", "ptx", "cubin"]
//   _C.run_stage(stage, value, target, options) -> (value, {metadata})
//
// `value` is the module for tgir and llir (tgir changes it in place and returns it), else the text
// (or bytes) of the stage before; the metadata are the names of the compiled kernel's ("shared",
// "n_regs", ...). `options` is a dict: num_warps, num_stages, maxnreg, waves_per_eu, debug,
// verify_each, llvm_o3, tma, library_path, assembler_path (each optional). Options a target refuses
// raise ValueError. The stages that only run LLVM, ptxas or LLD release the GIL.
//
// _C.nvptx and _C.amdgpu keep the targets' tools the runtime and tests
// reach for on their own (ptxas, libdevice, the device libraries, shared
// memory limits, assembling a cubin or a code object).
//
//===----------------------------------------------------------------------===//

#include "PyModule.h"

#include "codegen/Backend.h"
#include "codegen/amdgpu/AMDGPUBackend.h"
#include "codegen/amdgpu/AMDGPUDeviceLibs.h"
#include "codegen/nvptx/PTXEmitter.h"
#include "ir/Diagnostics.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace tritium;

namespace {
/// \p Field from the truth of D[Key], where it is given.
void readFlag(const py::dict &D, const char *Key, bool &Field) {
  if (D.contains(Key))
    Field = py::bool_(D[Key]);
}

/// \p Field from the text D[Key], where it is given and not None.
void readText(const py::dict &D, const char *Key, std::string &Field) {
  if (D.contains(Key) && !D[Key].is_none())
    Field = D[Key].cast<std::string>();
}
} // namespace

DebugOptions tritium::debugOptionsOf(const py::dict &D) {
  DebugOptions Dbg;
  readFlag(D, "dump_ir", Dbg.DumpIR);
  readFlag(D, "dump_llvm_ir", Dbg.DumpLLVMIR);
  readFlag(D, "dump_assembler_log", Dbg.DumpAssemblerLog);
  readFlag(D, "pass_timing", Dbg.PassTiming);
  readFlag(D, "llvm_timing", Dbg.LLVMTiming);
  readFlag(D, "disable_llvm_opt", Dbg.DisableLLVMOpt);
  readText(D, "kernel", Dbg.Kernel);
  readText(D, "llvm_flags", Dbg.LLVMFlags);
  readText(D, "dump_path", Dbg.DumpPath);
  readText(D, "reproducer", Dbg.ReproducerPrefix);
  return Dbg;
}

namespace {
/// A target as written ("cuda:90a", "hip:gfx90a"), or a compute capability
/// (90); ValueError otherwise.
Target targetOf(py::handle T) {
  std::string Text = py::isinstance<py::int_>(T) ? "cuda:" + std::to_string(T.cast<int>())
                                                 : T.cast<std::string>();
  Target GPU;
  std::string Err = Target::parse(Text, GPU);
  if (!Err.empty())
    throw py::value_error(Err);
  return GPU;
}

/// The options of \p D for \p T (see the file comment); ValueError for a
/// count that is not a non-negative int, or options the target refuses.
std::pair<const Backend *, CompileOptions> optionsOf(py::handle T, const py::dict &D) {
  CompileOptions O;
  O.GPU = targetOf(T);
  auto Count = [&](const char *Key, unsigned &Field) {
    if (!D.contains(Key) || D[Key].is_none())
      return;
    py::object V = D[Key];
    if (!py::isinstance<py::int_>(V) || py::isinstance<py::bool_>(V) || V.cast<long long>() < 0 ||
        V.cast<long long>() > 1 << 20)
      throw py::value_error(std::string(Key) + " must be a non-negative int, got " +
                            py::repr(V).cast<std::string>());
    Field = V.cast<unsigned>();
  };
  Count("num_warps", O.NumWarps);
  Count("num_stages", O.NumStages);
  Count("maxnreg", O.MaxNReg);
  Count("waves_per_eu", O.WavesPerEU);
  readFlag(D, "debug", O.Debug);
  readFlag(D, "verify_each", O.VerifyEach);
  readFlag(D, "llvm_o3", O.LLVMO3);
  readFlag(D, "tma", O.TMA);
  readFlag(D, "line_info", O.LineInfo);
  readFlag(D, "enable_fp_fusion", O.FPFusion);
  readFlag(D, "enable_reflect_ftz", O.ReflectFTZ);
  readText(D, "library_path", O.LibraryPath);
  readText(D, "assembler_path", O.AssemblerPath);
  readText(D, "assembler_options", O.AssemblerOptions);
  O.Debugging = debugOptionsOf(D);
  const Backend *B = getBackend(O.GPU);
  if (!B)
    throw py::value_error("no backend compiles for " + O.GPU.str());
  if (std::string Why = B->checkOptions(O); !Why.empty())
    throw py::value_error(Why);
  return {B, O};
}
} // namespace

void bindBackends(py::module_ &Top) {
  Top.def(
      "backend_stages",
      [](py::handle T, const py::dict &D) {
        auto [B, O] = optionsOf(T, D);
        return B->getStages(O);
      },
      py::arg("target"), py::arg("options") = py::dict(),
      "The stages of the target's backend after tir, in order");
  Top.def(
      "run_stage",
      [](const std::string &Stage, py::object Value, py::handle T, const py::dict &D) {
        auto [B, O] = optionsOf(T, D);
        StageOutput Out;
        if (py::isinstance<PyModule>(Value)) {
          Out = B->runStage(Stage, Value.cast<PyModule &>().getModule(), "", O);
        } else {
          std::string Input = Value.cast<std::string>(); // str or bytes
          PyModule Unused; // the later stages read Input only
          py::gil_scoped_release Release;
          Out = B->runStage(Stage, Unused.getModule(), Input, O);
        }
        py::dict Metadata;
        for (auto &[Key, V] : Out.Metadata)
          Metadata[py::str(Key)] = std::holds_alternative<int64_t>(V)
                                       ? py::object(py::int_(std::get<int64_t>(V)))
                                       : py::object(py::str(std::get<std::string>(V)));
        py::object Result = Stage == "tgir" ? Value
                            : Out.Binary    ? py::object(py::bytes(Out.Data))
                                            : py::object(py::str(Out.Data));
        return py::make_tuple(Result, Metadata);
      },
      py::arg("stage"), py::arg("value"), py::arg("target"), py::arg("options") = py::dict(),
      "Runs one stage: (its output, the metadata it found)");

  // The target description answers for either vendor.
  auto maxSharedBytes = [](py::handle GPU) { return targetOf(GPU).getMaxSharedBytes(); };
  py::module_ NV = Top.def_submodule("nvptx", "The NVIDIA target's tools");
  NV.def("find_ptxas", &findPtxas, "ptxas's path, or '' if none is found");
  NV.def("max_shared_bytes", maxSharedBytes, py::arg("target"),
         "The shared memory bytes a block of the target may use (opt-in)");
  NV.def(
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

  py::module_ AMD = Top.def_submodule("amdgpu", "The AMD target's tools");
  AMD.def("find_device_libs", &findDeviceLibs, "The ROCm device libraries' folder, or ''");
  AMD.def("max_shared_bytes", maxSharedBytes, py::arg("target"),
          "The LDS bytes a workgroup of the target may use");
  AMD.def(
      "assemble_hsaco",
      [](const std::string &Asm, py::handle T) {
        Target GPU = targetOf(T);
        HsacoResult R;
        {
          py::gil_scoped_release Release;
          R = assembleHsaco(Asm, GPU);
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
      "AMDGPU assembly -> {hsaco, vgprs, sgprs, lds, scratch, kernarg_size, wavefront_size, "
      "name}: assembled by LLVM and linked by LLD in process");
}
