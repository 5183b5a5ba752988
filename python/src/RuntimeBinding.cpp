//===- RuntimeBinding.cpp - tritium._C.runtime ----------------------------===//
//
// The GPU drivers (runtime/CudaDriver.h, runtime/HipDriver.h), kernel launchers and the launch
// dispatcher for python/tritium/runtime/{native.py,cuda.py,hip.py,jit.py}:
//
//   d = _C.runtime.Driver(path)        # "" = libcuda.so.1; loads on first use
//   d = _C.runtime.HipDriver(path)     # "" = libamdhip64.so
//   d.load() -> (ok, why); d.device_count(); d.properties(device) -> dict
//   d.current_device(); d.current_stream(device)     # torch's when imported
//   l = d.load_kernel(image, name, signature, names, indices, num_warps,
//                     shared, device, kernel, check_pointers, warp_size,
//                     cooperative, pdl) -> Launcher
//   l(gx, gy, gz, stream, args); l.n_regs, l.n_spills, l.n_max_threads
//   disp = _C.runtime.Dispatcher(kernel, params, driver, active_dict,
//                                runtime_knobs, device_fn, stream_fn,
//                                native, interpret_knob)
//   disp.launch(grid, args, kwargs) -> CompiledKernel or None (slow path)
//   disp.insert(device, debug, args, kwargs, kernel, launcher, arg_indices)
//   _C.runtime.specialize(x, value, align) -> ("*fp16", "D"), ...  # jit.py's _specialize
//
// Memory, events and synchronization are bound too, for the benchmark and the tests. Driver errors
// become tritium.errors.CudaError (HipError) and OutOfResources (Launcher.cpp's setPythonError).
//
//===----------------------------------------------------------------------===//

#include "Dispatcher.h"
#include "Launcher.h"

#include "runtime/CpuDriver.h"
#include "runtime/CudaDriver.h"
#include "runtime/HipDriver.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

namespace py = pybind11;
using namespace tritium;
using namespace tritium::launch;

namespace {

constexpr const char *DispatcherCapsule = "tritium.runtime.Dispatcher";

/// D.launch(...) with a C++ exception as a Python error.
PyObject *launchOrRaise(Dispatcher &D, PyObject *Grid, PyObject *Args, PyObject *Kwargs) {
  try {
    return D.launch(Grid, Args, Kwargs);
  } catch (...) {
    setPythonError(std::current_exception());
    return nullptr;
  }
}

/// disp.launch(grid, args, kwargs): a METH_FASTCALL builtin whose self is a capsule holding the
/// dispatcher, so that the call costs no pybind11 argument conversion.
PyObject *fastLaunch(PyObject *Self, PyObject *const *Args, Py_ssize_t N) {
  if (N != 3) {
    PyErr_SetString(PyExc_TypeError, "launch(grid, args, kwargs)");
    return nullptr;
  }
  auto *D =
      static_cast<std::shared_ptr<Dispatcher> *>(PyCapsule_GetPointer(Self, DispatcherCapsule));
  return D ? launchOrRaise(**D, Args[0], Args[1], Args[2]) : nullptr;
}

PyMethodDef FastLaunchDef = {
    "launch", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(fastLaunch)),
    METH_FASTCALL,
    "launch(grid, args, kwargs): launches a kernel seen before and returns "
    "its CompiledKernel, or None when the Python path must handle the call"};

py::object fastLaunchOf(const std::shared_ptr<Dispatcher> &D) {
  PyObject *Capsule =
      PyCapsule_New(new std::shared_ptr<Dispatcher>(D), DispatcherCapsule, [](PyObject *C) {
        delete static_cast<std::shared_ptr<Dispatcher> *>(
            PyCapsule_GetPointer(C, DispatcherCapsule));
      });
  if (!Capsule)
    throw py::error_already_set();
  PyObject *Fn = PyCFunction_NewEx(&FastLaunchDef, Capsule, nullptr);
  Py_DECREF(Capsule);
  if (!Fn)
    throw py::error_already_set();
  return py::reinterpret_steal<py::object>(Fn);
}

// --- kernel[grid] ---------------------------------------------------------------

/// What `jit_function[grid]` returns: calling it launches through the function's dispatcher with no
/// Python frame in between, and falls back to `jit_function.run(*args, grid=grid, warmup=False,
/// **kwargs)` on a miss (or when pre-run hooks are set).
struct GridLaunchObject {
  PyObject_HEAD PyObject *Fn;
  PyObject *Grid;
};

struct GridLaunchNames {
  PyObject *PreRunHooks = PyUnicode_InternFromString("pre_run_hooks");
  PyObject *FastLaunch = PyUnicode_InternFromString("_fast_launch");
  PyObject *Run = PyUnicode_InternFromString("run");
  PyObject *Grid = PyUnicode_InternFromString("grid");
  PyObject *Warmup = PyUnicode_InternFromString("warmup");
};

const GridLaunchNames &gridLaunchNames() {
  static const GridLaunchNames *N = new GridLaunchNames();
  return *N;
}

/// The fast path: a kernel, Py_None (take the slow path), or null (error).
/// The function's attributes are read from its __dict__ (JITFunction has no
/// descriptors by these names), which spares walking its type.
PyObject *tryFastLaunch(GridLaunchObject *G, PyObject *Args, PyObject *Kwargs) {
  const GridLaunchNames &N = gridLaunchNames();
  PyObject *Dict = PyObject_GenericGetDict(G->Fn, nullptr);
  if (!Dict) {
    PyErr_Clear();
    Py_RETURN_NONE;
  }
  PyObject *Hooks = PyDict_GetItemWithError(Dict, N.PreRunHooks);
  PyObject *Fast = PyDict_GetItemWithError(Dict, N.FastLaunch);
  bool Usable = Hooks && PyList_Check(Hooks) && PyList_GET_SIZE(Hooks) == 0 && Fast &&
                PyCFunction_Check(Fast) && PyCFunction_GET_FUNCTION(Fast) == FastLaunchDef.ml_meth;
  auto *D = Usable ? static_cast<std::shared_ptr<Dispatcher> *>(
                         PyCapsule_GetPointer(PyCFunction_GET_SELF(Fast), DispatcherCapsule))
                   : nullptr;
  // Hold the dispatcher: the launch runs Python (the grid) that may drop it.
  std::shared_ptr<Dispatcher> Held = D ? *D : nullptr;
  Py_DECREF(Dict);
  if (!Held) {
    if (PyErr_Occurred())
      PyErr_Clear();
    Py_RETURN_NONE; // hooks to run, or no dispatcher yet (the first launch)
  }
  return launchOrRaise(*Held, G->Grid, Args, Kwargs ? Kwargs : Py_None);
}

PyObject *gridLaunchCall(PyObject *Self, PyObject *Args, PyObject *Kwargs) {
  auto *G = reinterpret_cast<GridLaunchObject *>(Self);
  PyObject *Kernel = tryFastLaunch(G, Args, Kwargs);
  if (Kernel != Py_None)
    return Kernel;
  Py_DECREF(Kernel);
  const GridLaunchNames &N = gridLaunchNames();
  PyObject *Kw = Kwargs ? PyDict_Copy(Kwargs) : PyDict_New();
  PyObject *Run = Kw ? PyObject_GetAttr(G->Fn, N.Run) : nullptr;
  PyObject *Result = nullptr;
  if (Run && PyDict_SetItem(Kw, N.Grid, G->Grid) == 0 &&
      PyDict_SetItem(Kw, N.Warmup, Py_False) == 0)
    Result = PyObject_Call(Run, Args, Kw);
  Py_XDECREF(Run);
  Py_XDECREF(Kw);
  return Result;
}

void gridLaunchDealloc(PyObject *Self) {
  auto *G = reinterpret_cast<GridLaunchObject *>(Self);
  PyTypeObject *T = Py_TYPE(Self);
  Py_XDECREF(G->Fn);
  Py_XDECREF(G->Grid);
  PyObject_Free(Self);
  Py_DECREF(T);
}

PyObject *gridLaunchRepr(PyObject *Self) {
  auto *G = reinterpret_cast<GridLaunchObject *>(Self);
  return PyUnicode_FromFormat("<launch of %R on grid %R>", G->Fn, G->Grid);
}

PyTypeObject *gridLaunchType() {
  static PyTypeObject *T = [] {
    static PyType_Slot Slots[] = {
        {Py_tp_call, reinterpret_cast<void *>(gridLaunchCall)},
        {Py_tp_dealloc, reinterpret_cast<void *>(gridLaunchDealloc)},
        {Py_tp_repr, reinterpret_cast<void *>(gridLaunchRepr)},
        {Py_tp_doc, const_cast<char *>("kernel[grid]: call it with the kernel's arguments")},
        {0, nullptr},
    };
    static PyType_Spec Spec = {"tritium._C.runtime.GridLaunch", sizeof(GridLaunchObject), 0,
                               Py_TPFLAGS_DEFAULT, Slots};
    return reinterpret_cast<PyTypeObject *>(PyType_FromSpec(&Spec));
  }();
  return T;
}

/// grid_launch(fn, grid) -> GridLaunch (METH_FASTCALL: kernel[grid] is on every launch's path).
PyObject *gridLaunchNew(PyObject *, PyObject *const *Args, Py_ssize_t N) {
  if (N != 2) {
    PyErr_SetString(PyExc_TypeError, "grid_launch(fn, grid)");
    return nullptr;
  }
  PyTypeObject *T = gridLaunchType();
  if (!T)
    return nullptr;
  auto *G = PyObject_New(GridLaunchObject, T);
  if (!G)
    return nullptr;
  G->Fn = Py_NewRef(Args[0]);
  G->Grid = Py_NewRef(Args[1]);
  return reinterpret_cast<PyObject *>(G);
}

/// JITFunction.__getitem__ as a method descriptor (no Python frame).
PyObject *gridGetItem(PyObject *Self, PyObject *Grid) {
  PyObject *Args[2] = {Self, Grid};
  return gridLaunchNew(nullptr, Args, 2);
}

PyMethodDef GridGetItemDef = {
    "__getitem__", gridGetItem, METH_O,
    "kernel[grid](*args, **kwargs) launches kernel on grid (see docs/runtime.md)"};

PyMethodDef GridLaunchDef = {
    "grid_launch", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)(void)>(gridLaunchNew)),
    METH_FASTCALL, "grid_launch(jit_function, grid): what jit_function[grid] returns"};

std::unique_ptr<NativeLauncher>
loadKernel(gpu::Driver &D, py::handle Image, const std::string &Name,
           const std::vector<std::string> &Signature, const std::vector<std::string> &Names,
           const std::vector<int> &Indices, unsigned NumWarps, unsigned Shared, int Device,
           const std::string &Kernel, bool CheckPointers, unsigned WarpSize, bool Cooperative,
           bool PDL) {
  if (Names.size() != Signature.size() || Indices.size() != Signature.size())
    throw py::value_error("load_kernel: signature, names and indices differ in length");
  std::vector<ParamSpec> Types;
  auto Where = [&](size_t I) {
    return Kernel + "(): argument '" + Names[I] + "' (parameter " + std::to_string(Indices[I]) +
           ")";
  };
  for (size_t I = 0; I < Signature.size(); ++I) {
    std::optional<ParamSpec> T = parseParamType(Signature[I]);
    if (!T)
      throw py::type_error(Where(I) + " has type '" + Signature[I] +
                           "', which a launch cannot pass");
    Types.push_back(*T);
    if (T->Type == ParamType::TensorMap) {
      std::string Wrong = checkTensorMapParam(Types, I);
      if (!Wrong.empty())
        throw py::type_error(Where(I) + ": " + Wrong);
    }
  }
  gpu::KernelImage Img;
  Img.Name = Name;
  Img.Image = py::cast<std::string>(Image); // bytes, or str
  Img.SharedBytes = Shared;
  Img.NumThreads = WarpSize * NumWarps;
  Img.Flags = (Cooperative ? gpu::LaunchCooperative : 0u) | (PDL ? gpu::LaunchPDL : 0u);
  gpu::LoadedKernel K;
  {
    py::gil_scoped_release Unlocked; // the PTX JIT may take a while
    K = D.loadKernel(Img, Device);
  }
  return std::make_unique<NativeLauncher>(D, std::move(K), std::move(Types), Names, Indices, Kernel,
                                          CheckPointers);
}

py::dict cudaProperties(cuda::Driver &D, int Device) {
  using cuda::DeviceAttribute;
  static const std::pair<const char *, DeviceAttribute> Attrs[] = {
      {"max_threads_per_block", cuda::DevMaxThreadsPerBlock},
      {"max_grid_dim_x", cuda::DevMaxGridDimX},
      {"max_grid_dim_y", cuda::DevMaxGridDimY},
      {"max_grid_dim_z", cuda::DevMaxGridDimZ},
      {"max_shared_mem", cuda::DevMaxSharedMemoryPerBlockOptin},
      {"max_shared_mem_default", cuda::DevMaxSharedMemoryPerBlock},
      {"max_shared_mem_per_sm", cuda::DevMaxSharedMemoryPerMultiprocessor},
      {"warpSize", cuda::DevWarpSize},
      {"multiprocessor_count", cuda::DevMultiprocessorCount},
      {"max_num_regs", cuda::DevMaxRegistersPerBlock},
      {"sm_clock_rate", cuda::DevClockRate},
      {"mem_clock_rate", cuda::DevMemoryClockRate},
      {"mem_bus_width", cuda::DevGlobalMemoryBusWidth},
      {"l2_cache_size", cuda::DevL2CacheSize},
      {"major", cuda::DevComputeCapabilityMajor},
      {"minor", cuda::DevComputeCapabilityMinor},
  };
  py::dict Out;
  for (const auto &A : Attrs)
    Out[A.first] = D.deviceAttribute(A.second, Device);
  Out["name"] = D.deviceName(Device);
  return Out;
}

py::dict hipProperties(hip::Driver &D, int Device) {
  static const std::pair<const char *, hip::DeviceAttribute> Attrs[] = {
      {"max_threads_per_block", hip::DevMaxThreadsPerBlock},
      {"max_grid_dim_x", hip::DevMaxGridDimX},
      {"max_shared_mem", hip::DevMaxSharedMemoryPerBlock},
      {"warpSize", hip::DevWarpSize},
      {"multiprocessor_count", hip::DevMultiprocessorCount},
      {"max_num_regs", hip::DevMaxRegistersPerBlock},
      {"sm_clock_rate", hip::DevClockRate},
      {"mem_clock_rate", hip::DevMemoryClockRate},
      {"mem_bus_width", hip::DevMemoryBusWidth},
      {"l2_cache_size", hip::DevL2CacheSize},
      {"major", hip::DevComputeCapabilityMajor},
      {"minor", hip::DevComputeCapabilityMinor},
  };
  py::dict Out;
  for (const auto &A : Attrs)
    Out[A.first] = D.deviceAttribute(A.second, Device);
  Out["name"] = D.deviceName(Device);
  Out["arch"] = D.archName(Device);
  return Out;
}

std::vector<Dispatcher::Param> paramsOf(py::handle Table) {
  // (name, kind, has_default, default, constexpr, do_not_specialize,
  //  do_not_specialize_on_alignment) per parameter.
  std::vector<Dispatcher::Param> Params;
  for (py::handle Row : Table) {
    py::tuple T = py::reinterpret_borrow<py::tuple>(Row);
    if (T.size() != 7)
      throw py::value_error("a parameter is (name, kind, has_default, default, "
                            "constexpr, do_not_specialize, no_align)");
    Dispatcher::Param P;
    P.Name = py::str(T[0]);
    P.Kind = static_cast<Dispatcher::ParamKind>(py::cast<int>(T[1]));
    if (py::cast<bool>(T[2]))
      P.Default = py::reinterpret_borrow<py::object>(T[3]);
    P.Constexpr = py::cast<bool>(T[4]);
    P.NoSpecialize = py::cast<bool>(T[5]);
    P.NoAlignment = py::cast<bool>(T[6]);
    Params.push_back(std::move(P));
  }
  return Params;
}

gpu::Stream streamOf(py::handle S) {
  return S.is_none() ? nullptr : reinterpret_cast<gpu::Stream>(py::cast<uintptr_t>(S));
}

} // namespace

void bindRuntime(py::module_ &M) {
  py::module_ R =
      M.def_submodule("runtime", "The CUDA and HIP drivers (loaded at run time), kernel "
                                 "launchers and the launch dispatcher");

  // Local, as the CompileError translator in Binding.cpp.
  py::register_local_exception_translator([](std::exception_ptr P) {
    try {
      if (P)
        std::rethrow_exception(P);
    } catch (const gpu::OutOfResources &) {
      setPythonError(P);
    } catch (const gpu::DriverError &) {
      setPythonError(P);
    }
  });

  // Drivers live for the whole process: Python never deletes one.
  py::class_<gpu::Driver, std::unique_ptr<gpu::Driver, py::nodelete>>(
      R, "GPUDriver", "What every GPU driver offers: devices, kernels, memory, events")
      .def_property_readonly("path", &gpu::Driver::path)
      .def_property_readonly("api", &gpu::Driver::api)
      .def(
          "load",
          [](gpu::Driver &D) {
            std::string Why;
            bool Ok = D.load(&Why);
            return py::make_tuple(Ok, Why);
          },
          "Loads the library and initializes it: (True, '') or (False, why)")
      .def("device_count", &gpu::Driver::deviceCount)
      .def(
          "current_device",
          [](gpu::Driver &D) {
            int Dev = currentDevice(D);
            if (Dev < 0)
              throw py::error_already_set();
            return Dev;
          },
          "torch's current device when torch is imported, else the driver's "
          "current device, else 0")
      .def("set_current_device", &gpu::Driver::setCurrentDevice, py::arg("device"),
           "Makes device the calling thread's current one (its primary context on CUDA)")
      .def(
          "current_stream",
          [](gpu::Driver &, int Device) {
            gpu::Stream S;
            if (!currentStream(Device, S))
              throw py::error_already_set();
            return reinterpret_cast<uintptr_t>(S);
          },
          py::arg("device"), "torch's current stream on device, else 0")
      .def("load_kernel", &loadKernel, py::arg("image"), py::arg("name"), py::arg("signature"),
           py::arg("names"), py::arg("indices"), py::arg("num_warps"), py::arg("shared"),
           py::arg("device"), py::arg("kernel"), py::arg("check_pointers") = false,
           py::arg("warp_size") = 32, py::arg("cooperative") = false, py::arg("pdl") = false,
           "Loads a binary (cubin or PTX; a code object) on device -> Launcher; cooperative "
           "and pdl: Triton's launch_cooperative_grid and launch_pdl")
      .def("mem_alloc", &gpu::Driver::memAlloc, py::arg("nbytes"), py::arg("device"))
      .def("mem_free", &gpu::Driver::memFree, py::arg("ptr"))
      .def(
          "memcpy_htod",
          [](gpu::Driver &D, gpu::DevicePtr Dst, py::bytes Data) {
            std::string S = Data;
            D.memcpyHtoD(Dst, S.data(), S.size());
          },
          py::arg("ptr"), py::arg("data"))
      .def(
          "memcpy_dtoh",
          [](gpu::Driver &D, gpu::DevicePtr Src, size_t N) {
            std::string S(N, '\0');
            D.memcpyDtoH(&S[0], Src, N);
            return py::bytes(S);
          },
          py::arg("ptr"), py::arg("nbytes"))
      .def(
          "memset_d8",
          [](gpu::Driver &D, gpu::DevicePtr Dst, unsigned char V, size_t N, py::handle Stream) {
            D.memsetD8Async(Dst, V, N, streamOf(Stream));
          },
          py::arg("ptr"), py::arg("value"), py::arg("nbytes"), py::arg("stream") = 0)
      .def("synchronize", &gpu::Driver::synchronize, py::arg("device"),
           py::call_guard<py::gil_scoped_release>())
      .def("event_create",
           [](gpu::Driver &D) { return reinterpret_cast<uintptr_t>(D.eventCreate()); })
      .def(
          "event_record",
          [](gpu::Driver &D, uintptr_t E, py::handle Stream) {
            D.eventRecord(reinterpret_cast<void *>(E), streamOf(Stream));
          },
          py::arg("event"), py::arg("stream") = 0)
      .def(
          "event_elapsed",
          [](gpu::Driver &D, uintptr_t Start, uintptr_t End) {
            py::gil_scoped_release Unlocked;
            return D.eventElapsed(reinterpret_cast<void *>(Start), reinterpret_cast<void *>(End));
          },
          py::arg("start"), py::arg("end"), "Milliseconds between two events")
      .def(
          "event_destroy",
          [](gpu::Driver &D, uintptr_t E) { D.eventDestroy(reinterpret_cast<void *>(E)); },
          py::arg("event"));

  py::class_<cuda::Driver, gpu::Driver, std::unique_ptr<cuda::Driver, py::nodelete>>(
      R, "Driver", "libcuda at one path, loaded on first use")
      .def(py::init([](const std::string &Path) { return &cuda::Driver::get(Path); }),
           py::arg("path") = "",
           "The driver library at path (a file, a directory holding "
           "libcuda.so.1, or '' for the loader's search path)")
      .def("driver_version", &cuda::Driver::driverVersion)
      .def("properties", &cudaProperties, py::arg("device"),
           "The device's limits, compute capability and name, as a dict");

  py::class_<hip::Driver, gpu::Driver, std::unique_ptr<hip::Driver, py::nodelete>>(
      R, "HipDriver", "libamdhip64 at one path, loaded on first use")
      .def(py::init([](const std::string &Path) { return &hip::Driver::get(Path); }),
           py::arg("path") = "",
           "The HIP runtime at path (a file, a directory holding "
           "libamdhip64.so, or '' for the loader's search path)")
      .def("driver_version", &hip::Driver::driverVersion)
      .def("properties", &hipProperties, py::arg("device"),
           "The device's limits, name and gfx architecture ('arch'), as a dict");
  py::class_<cpu::Driver, gpu::Driver, std::unique_ptr<cpu::Driver, py::nodelete>>(
      R, "CpuDriver", "The cpu target's kernels, linked into the process and run on its threads")
      .def(py::init([]() { return &cpu::Driver::get(); }))
      .def(
          "properties",
          [](cpu::Driver &D, int) {
            py::dict P;
            P["name"] = "cpu";
            P["arch"] = cpu::Driver::hostProcessor();
            P["num_threads"] = D.numThreads();
            P["multiprocessor_count"] = D.numThreads();
            P["warpSize"] = 1;
            P["max_shared_mem"] = 1 << 20;
            return P;
          },
          py::arg("device") = 0, "The threads a launch runs on and the limits, as a dict");
  R.def(
      "find_arch_name",
      [](py::bytes Props) {
        std::string S = Props;
        return hip::findArchName(S.data(), S.size());
      },
      py::arg("properties"), "The gfx architecture in the bytes of hipDeviceProp_t, or ''");

  py::class_<NativeLauncher>(R, "Launcher", "A loaded kernel: launcher(gx, gy, gz, stream, args)")
      .def("__call__",
           [](NativeLauncher &L, py::handle GX, py::handle GY, py::handle GZ, py::handle Stream,
              py::handle Args) {
             if (!L.call(GX.ptr(), GY.ptr(), GZ.ptr(), Stream.ptr(), Args.ptr()))
               throw py::error_already_set();
           })
      .def_property_readonly("name", [](const NativeLauncher &L) { return L.kernel().Name; })
      .def_property_readonly("device", [](const NativeLauncher &L) { return L.kernel().Device; })
      .def_property_readonly("n_regs", [](const NativeLauncher &L) { return L.kernel().NumRegs; })
      .def_property_readonly("n_spills",
                             [](const NativeLauncher &L) { return L.kernel().NumSpills; })
      .def_property_readonly("n_max_threads",
                             [](const NativeLauncher &L) { return L.kernel().MaxThreads; })
      .def_property_readonly("shared",
                             [](const NativeLauncher &L) { return L.kernel().SharedBytes; })
      .def_property_readonly("static_shared",
                             [](const NativeLauncher &L) { return L.kernel().StaticShared; })
      .def_property_readonly("num_threads",
                             [](const NativeLauncher &L) { return L.kernel().NumThreads; })
      .def_property_readonly("function", [](const NativeLauncher &L) {
        return reinterpret_cast<uintptr_t>(L.kernel().Function);
      });

  // The dispatcher holds compiled kernels, whose sources hold their @jit
  // function, which holds the dispatcher: let the garbage collector see it.
  auto GcSupport = py::custom_type_setup([](PyHeapTypeObject *HeapType) {
    PyTypeObject *T = &HeapType->ht_type;
    T->tp_flags |= Py_TPFLAGS_HAVE_GC;
    T->tp_traverse = [](PyObject *Self, visitproc visit, void *arg) { // Py_VISIT's names
#if PY_VERSION_HEX >= 0x03090000
      Py_VISIT(Py_TYPE(Self));
#endif
      if (!py::detail::is_holder_constructed(Self))
        return 0;
      return py::cast<Dispatcher &>(py::handle(Self)).traverse(visit, arg);
    };
    T->tp_clear = [](PyObject *Self) {
      if (py::detail::is_holder_constructed(Self))
        py::cast<Dispatcher &>(py::handle(Self)).clearAll();
      return 0;
    };
  });
  py::class_<Dispatcher, std::shared_ptr<Dispatcher>>(
      R, "Dispatcher", "The warm path of one @jit function's launches", GcSupport)
      .def(py::init([](const std::string &Kernel, py::handle Params, py::object Driver,
                       py::object ActiveDict, py::object RuntimeKnobs, py::object DeviceFn,
                       py::object StreamFn, gpu::Driver *Native, bool InterpretKnob) {
             Dispatcher::DriverHooks H;
             H.Driver = std::move(Driver);
             H.ActiveDict = std::move(ActiveDict);
             H.RuntimeKnobs = std::move(RuntimeKnobs);
             if (!DeviceFn.is_none())
               H.DeviceFn = std::move(DeviceFn);
             if (!StreamFn.is_none())
               H.StreamFn = std::move(StreamFn);
             H.Native = Native;
             if (!H.DeviceFn && !H.Native)
               throw py::value_error("a Dispatcher needs device_fn or a native driver");
             return std::make_shared<Dispatcher>(Kernel, paramsOf(Params), std::move(H),
                                                 InterpretKnob);
           }),
           py::arg("kernel"), py::arg("params"), py::arg("driver"), py::arg("active_dict"),
           py::arg("runtime_knobs"), py::arg("device_fn"), py::arg("stream_fn"), py::arg("native"),
           py::arg("interpret_knob") = false)
      .def_property_readonly("launch", &fastLaunchOf,
                             "The fast entry point, launch(grid, args, kwargs)")
      .def("insert", &Dispatcher::insert, py::arg("device"), py::arg("debug"), py::arg("args"),
           py::arg("kwargs"), py::arg("kernel"), py::arg("launcher"), py::arg("arg_indices"))
      .def("watch_globals", &Dispatcher::watchGlobals, py::arg("globals"))
      .def("clear", &Dispatcher::clear)
      .def("__len__", &Dispatcher::size)
      .def_property_readonly("driver", &Dispatcher::driver);

  if (!gridLaunchType())
    throw py::error_already_set();
  R.attr("GridLaunch") =
      py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject *>(gridLaunchType()));
  R.attr("grid_launch") = py::reinterpret_steal<py::object>(
      PyCFunction_NewEx(&GridLaunchDef, nullptr, R.attr("__name__").ptr()));
  R.def(
      "grid_getitem",
      [](py::handle Cls) {
        if (!PyType_Check(Cls.ptr()))
          throw py::type_error("grid_getitem(cls) takes a class");
        PyObject *D =
            PyDescr_NewMethod(reinterpret_cast<PyTypeObject *>(Cls.ptr()), &GridGetItemDef);
        if (!D)
          throw py::error_already_set();
        return py::reinterpret_steal<py::object>(D);
      },
      "A __getitem__ for cls (a method descriptor) that returns grid_launch(self, grid)");

  R.def(
      "read_grid",
      [](py::handle Grid, const std::string &Kernel) {
        unsigned Out[3];
        if (!readGrid(Grid.ptr(), Kernel, Out))
          throw py::error_already_set();
        return py::make_tuple(Out[0], Out[1], Out[2]);
      },
      py::arg("grid"), py::arg("kernel"),
      "The grid (a tuple or list of 1 to 3 ints) as (x, y, z), checked as a launch checks it: "
      "TypeError or ValueError naming the kernel otherwise");

  R.def(
      "specialize",
      [](py::handle X, bool Value, bool Align) {
        if (PyObject *Entry = specialize(X.ptr(), Value, Align))
          return py::reinterpret_steal<py::object>(Entry);
        throw py::error_already_set();
      },
      py::arg("x"), py::arg("value") = true, py::arg("align") = true,
      "jit.py's _specialize: x's specialization entry, e.g. ('*fp16', 'D'), ('i32', '1'), "
      "('*fp32', 'DL'); the dispatcher's key is made by the same code (Dispatcher.h)");
  R.def("set_specialize_hooks", [](py::handle DtypeToStr, py::handle Other, py::handle ArgError,
                                   py::handle ArgOverflow) {
    setSpecializeHooks(DtypeToStr.ptr(), Other.ptr(), ArgError.ptr(), ArgOverflow.ptr());
  });
  R.def(
      "tensor_span",
      [](py::handle X) {
        long long Span = tensorSpan(X.ptr());
        return Span < 0 ? py::object(py::none()) : py::int_(Span);
      },
      "1 + the sum of (size - 1) * |stride| over x's shape and stride(), 0 when it is empty, "
      "else None (Dispatcher.h's tensorSpan)");

  R.def("shutdown", &setShuttingDown,
        "Stops launchers from unloading their modules (called at exit)");
}
