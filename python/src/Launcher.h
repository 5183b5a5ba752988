//===- Launcher.h - Kernel launches from Python objects ----------*- C++ -*-===//
//
// The native half of `kernel[grid](*args)` (docs/runtime.md, "The launch path"):
//
//  * NativeLauncher: one kernel loaded by a runtime/GPUDriver.h driver. It turns
//    Python arguments into kernel parameters by the kernel's signature
//    (tensors by data_ptr(), __cuda_array_interface__, ints, floats, bools,
//    None) and launches it. It is what the drivers' make_launcher
//    returns, callable as launcher(gx, gy, gz, stream, args).
//  * Dispatcher (Dispatcher.cpp): one per @jit function, the warm path of
//    JITFunction.run in one call.
//
// Both talk to CPython directly on the hot path; pybind11 only binds them.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_PYTHON_LAUNCHER_H
#define TRITIUM_PYTHON_LAUNCHER_H

#include "runtime/GPUDriver.h"

#include <Python.h>

// Python 3.8 and 3.9 lack a few of the calls used here.
#if PY_VERSION_HEX < 0x03090000
inline PyObject *PyObject_CallNoArgs(PyObject *F) { return PyObject_CallObject(F, nullptr); }
inline PyObject *PyObject_CallOneArg(PyObject *F, PyObject *A) {
  return PyObject_CallFunctionObjArgs(F, A, nullptr);
}
#endif
#if PY_VERSION_HEX < 0x030A0000
inline PyObject *Py_NewRef(PyObject *O) {
  Py_INCREF(O);
  return O;
}
inline PyObject *Py_XNewRef(PyObject *O) {
  Py_XINCREF(O);
  return O;
}
#endif

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <vector>

namespace tritium {
namespace launch {

/// A kernel parameter's type: Triton's type strings ("*fp32", "i32", ...).
enum class ParamType : uint8_t {
  Ptr,
  I1,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  FP16,
  BF16,
  FP32,
  FP64,
  /// A CUtensorMap (128 bytes, by value) of the host descriptor whose
  /// parameters come just before it: the launcher encodes it from them.
  TensorMap,
};

/// A kernel parameter's type; a TensorMap's also says what it maps.
struct ParamSpec {
  ParamType Type = ParamType::Ptr;
  /// TensorMap only: the element type, rank and box (innermost first); the
  /// launch fills in the rest.
  gpu::TensorMapSpec Map;
  unsigned ElementBytes = 0; ///< TensorMap only
};

/// "*fp16", "*kfp32" (const) -> Ptr, "i32" -> I32, ..., "tensormap<fp16[64, 64]>" -> a TensorMap of
/// fp16 (1-, 2- and 4-byte element types) with that box (outermost first in the string); nullopt
/// for types a launch cannot pass (fp8 scalars, "constexpr").
std::optional<ParamSpec> parseParamType(const std::string &Type);

/// "" when TensorMap parameter \p I of \p Params follows the parameters of a host descriptor of its
/// rank R (a pointer, R i32 shapes, R-1 i64 strides), else what is wrong.
std::string checkTensorMapParam(const std::vector<ParamSpec> &Params, size_t I);

/// One argument of a launch: the Python object and, when the caller has
/// already read it (the dispatcher keys on it), the device address.
struct ArgValue {
  PyObject *Obj = nullptr;
  uint64_t Ptr = 0;
  bool HasPtr = false;
};

/// A loaded kernel and the way to pass it Python arguments.
class NativeLauncher {
public:
  /// \p Names and \p Indices name each parameter in errors ("argument
  /// 'n' (parameter 3)"); \p Kernel is the @jit function's name.
  NativeLauncher(gpu::Driver &D, gpu::LoadedKernel K, const std::vector<ParamSpec> &Params,
                 std::vector<std::string> Names, std::vector<int> Indices, std::string Kernel,
                 bool CheckPointers);
  ~NativeLauncher();
  NativeLauncher(const NativeLauncher &) = delete;
  NativeLauncher &operator=(const NativeLauncher &) = delete;

  /// Packs \p Args (one per kernel parameter) and launches on \p Grid in \p Stream; an empty grid
  /// launches nothing. Returns false with a Python error set on failure.
  bool launch(const unsigned Grid[3], gpu::Stream Stream, const ArgValue *Args, size_t NumArgs);

  /// launcher(gx, gy, gz, stream, args) from Python; false with an error.
  bool call(PyObject *GX, PyObject *GY, PyObject *GZ, PyObject *Stream, PyObject *Args);

  const gpu::LoadedKernel &kernel() const { return K; }

private:
  /// Writes parameter \p I's value into \p Slot; false with an error set.
  /// Sets \p NewPointer when it asked the driver about a new pointer.
  bool pack(size_t I, const ArgValue &A, uint64_t &Slot, bool &NewPointer);
  /// TypeError/OverflowError "<kernel>(): argument 'x' (parameter 0): ...".
  bool argError(PyObject *Kind, size_t I, const std::string &What);

  /// A TensorMap parameter and its last encoding.
  struct MapParam {
    size_t Index; ///< the parameter
    unsigned ElementBytes;
    gpu::TensorMapSpec Last; ///< the element type, the box, the last inputs
    bool Encoded = false;    ///< whether Last and Value hold an encoding
    gpu::TensorMap Value;
  };
  /// Writes \p M's value for the packed \p Slots into \p Out: encoded
  /// again only when its inputs changed; zeros when it cannot be encoded.
  void tensorMap(MapParam &M, const uint64_t *Slots, gpu::TensorMap &Out);

  gpu::Driver &D;
  gpu::LoadedKernel K;
  std::vector<ParamType> Types;
  std::vector<MapParam> Maps; ///< in parameter order
  bool CanEncode = false;     ///< whether the driver makes tensor maps here
  std::vector<std::string> Names;
  std::vector<int> Indices;
  std::string Kernel;
  /// Whether every launch asks the driver about every pointer (debug); else
  /// a pointer is asked about when it differs from its slot's last one.
  bool CheckPointers;
  /// Per parameter: the last pointer the driver accepted, the device address it gave for it (a
  /// pinned host buffer's may differ) and the GPU its tensor said it is on (get_device(); -1: not a
  /// torch CUDA tensor, or not asked).
  struct CheckedPointer {
    uint64_t Ptr = 0, DevPtr = 0;
    int Device = -1;
  };
  std::vector<CheckedPointer> CheckedPointers;
  /// After a launch's arguments are packed where one pointer was new: false (a ValueError naming
  /// both) when two tensors are on different GPUs.
  bool oneDevice();
};

// --- Helpers shared by the launcher, the dispatcher and the binding -------

/// Sets the pending Python error for the C++ exception \p E: tritium.errors.CudaError or HipError
/// for a gpu::DriverError of that API (with .name, .code, .description, .action),
/// tritium.errors.OutOfResources for gpu::OutOfResources, RuntimeError otherwise. Call it from
/// `catch (...)` with std::current_exception().
void setPythonError(std::exception_ptr E);

/// A Python int as 64 bits (an address, or a negative int's two's
/// complement); false with a Python error when it does not fit.
inline bool asUInt64(PyObject *L, uint64_t &Out) {
  int Overflow = 0;
  long long V = PyLong_AsLongLongAndOverflow(L, &Overflow);
  if (!Overflow) {
    Out = static_cast<uint64_t>(V);
    return V != -1 || !PyErr_Occurred();
  }
  Out = PyLong_AsUnsignedLongLong(L); // above 2^63: rarely an address
  return !PyErr_Occurred();
}

/// The device address behind a pointer argument: None -> 0, an int, an object with data_ptr() or
/// __cuda_array_interface__. Returns false, with no Python error set, when \p Obj is none of those.
bool readPointer(PyObject *Obj, uint64_t &Ptr);

/// The calling thread's current device for \p D: torch's current device when torch is imported with
/// CUDA, else the device of the current context, else 0. -1 with a Python error set on failure.
int currentDevice(gpu::Driver &D);

/// torch's current stream on \p Device when torch is imported with CUDA,
/// else the default stream (0). False with a Python error set on failure.
bool currentStream(int Device, gpu::Stream &Stream);

/// A grid (a tuple or list of 1 to 3 ints) -> \p Grid; false with a Python
/// error naming \p Kernel otherwise.
bool readGrid(PyObject *GridObj, const std::string &Kernel, unsigned Grid[3]);

/// Set once the interpreter starts shutting down: destructors then leave
/// modules loaded rather than call a driver that may be gone.
void setShuttingDown();

} // namespace launch
} // namespace tritium

#endif // TRITIUM_PYTHON_LAUNCHER_H
