//===- Launcher.cpp - Kernel launches from Python objects -----------------===//
//
// Packing follows Triton's CUDA launcher: a pointer parameter takes a tensor's data_ptr(), an
// object's __cuda_array_interface__["data"][0], an int address or None (null); an int parameter
// takes a Python int checked against its width; fp32/fp64 parameters take floats (fp16/bf16 are
// rounded to nearest even); i1 takes a bool. Each value sits in its own 8-byte slot and
// cuLaunchKernel (or hipModuleLaunchKernel) reads as many bytes of it as the kernel's parameter has
// (the driver knows the sizes from the binary), so a value stored little-endian at the slot's start
// suits every width.
//
// A tensormap parameter is the 128-byte CUtensorMap of the host descriptor whose parameters precede
// it (base, shapes, strides but the last): the launcher encodes it from their packed slots with the
// driver's cuTensorMapEncodeTiled (its Python argument is ignored), and passes 128 zero bytes when
// that fails; the compiler reads the map only when the specialization facts guarantee what the
// encoding needs (docs/runtime.md).
//
//===----------------------------------------------------------------------===//

#include "Launcher.h"

#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cstdlib>
#include <cstring>
#include <memory>

namespace tritium {
namespace launch {

namespace {

std::atomic<bool> ShuttingDown{false};

std::string typeName(PyObject *O) { return Py_TYPE(O)->tp_name; }

/// Rounds \p F to the nearest fp16 (ties to even), as bits.
uint16_t toHalf(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  const uint32_t Sign = U & 0x80000000u;
  U ^= Sign;
  uint16_t H;
  if (U >= (127u + 16) << 23) { // too large for fp16: inf, or NaN stays NaN
    H = U > 255u << 23 ? 0x7e00 : 0x7c00;
  } else if (U < 113u << 23) { // subnormal or zero in fp16
    // Adding 0.5 aligns the 10 mantissa bits at the bottom; the FPU rounds.
    const uint32_t MagicBits = ((127u - 15) + (23 - 10) + 1) << 23;
    float Magic, V;
    std::memcpy(&Magic, &MagicBits, 4);
    std::memcpy(&V, &U, 4);
    V += Magic;
    std::memcpy(&U, &V, 4);
    H = static_cast<uint16_t>(U - MagicBits);
  } else {
    const uint32_t Odd = (U >> 13) & 1;
    U += ((15u - 127) << 23) + 0xfff + Odd; // rebias and round to even
    H = static_cast<uint16_t>(U >> 13);
  }
  return static_cast<uint16_t>(H | (Sign >> 16));
}

/// Rounds \p F to the nearest bf16 (ties to even), as bits.
uint16_t toBFloat16(float F) {
  uint32_t U;
  std::memcpy(&U, &F, 4);
  if ((U & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((U >> 16) | 0x40); // quiet NaN
  U += 0x7fff + ((U >> 16) & 1);
  return static_cast<uint16_t>(U >> 16);
}

struct IntRange {
  bool Signed;
  unsigned Bits;
  const char *Name;
};

/// The range of an integer parameter, I8 to U64.
IntRange intRange(ParamType T) {
  static const IntRange Ranges[] = {
      {true, 8, "i8"},  {true, 16, "i16"},  {true, 32, "i32"},  {true, 64, "i64"},
      {false, 8, "u8"}, {false, 16, "u16"}, {false, 32, "u32"}, {false, 64, "u64"},
  };
  assert(T >= ParamType::I8 && T <= ParamType::U64 && "not an integer parameter");
  return Ranges[unsigned(T) - unsigned(ParamType::I8)];
}

/// PyObject_GetAttr that returns null without an error when there is no such attribute.
PyObject *getOptionalAttr(PyObject *O, const char *Name) {
  PyObject *V = PyObject_GetAttrString(O, Name);
  if (!V && PyErr_ExceptionMatches(PyExc_AttributeError))
    PyErr_Clear();
  return V;
}

/// The GPU a tensor argument says it is on: torch's get_device() (-1 for
/// a CPU tensor); -1 for anything else (an int address, cupy, ...).
int tensorDevice(PyObject *O) {
  static PyObject *Name = PyUnicode_InternFromString("get_device");
  if (PyLong_Check(O))
    return -1;
  PyObject *V = PyObject_CallMethodNoArgs(O, Name);
  long Dev = V && PyLong_Check(V) ? PyLong_AsLong(V) : -1;
  Py_XDECREF(V);
  PyErr_Clear();
  return int(Dev);
}

} // namespace

void setShuttingDown() { ShuttingDown = true; }

namespace {

/// "tensormap<fp16[64, 64]>" -> its ParamSpec; nullopt when malformed.
std::optional<ParamSpec> parseTensorMap(const std::string &Type) {
  using E = gpu::TensorMapElement;
  static const struct {
    const char *Name;
    E Element;
    unsigned Bytes;
  } Elements[] = {
      // TMA copies bytes: every 1-byte type is UINT8, i16 is UINT16.
      {"i8", E::U8, 1},      {"u8", E::U8, 1},       {"fp8e4nv", E::U8, 1},  {"fp8e5", E::U8, 1},
      {"fp8e4b8", E::U8, 1}, {"fp8e5b16", E::U8, 1}, {"fp8e4b15", E::U8, 1}, {"i16", E::U16, 2},
      {"u16", E::U16, 2},    {"fp16", E::F16, 2},    {"bf16", E::BF16, 2},   {"i32", E::I32, 4},
      {"u32", E::U32, 4},    {"fp32", E::F32, 4},
  };
  const std::string Prefix = "tensormap<";
  size_t Open = Type.find('[');
  if (Type.compare(0, Prefix.size(), Prefix) != 0 || Open == std::string::npos ||
      Type.size() < Open + 3 || Type.compare(Type.size() - 2, 2, "]>") != 0)
    return std::nullopt;
  ParamSpec P;
  P.Type = ParamType::TensorMap;
  const std::string Name = Type.substr(Prefix.size(), Open - Prefix.size());
  bool Known = false;
  for (const auto &El : Elements)
    if (Name == El.Name) {
      P.Map.Element = El.Element;
      P.ElementBytes = El.Bytes;
      Known = true;
    }
  if (!Known)
    return std::nullopt;
  // The box, outermost first: "64, 64".
  uint32_t Dims[gpu::TensorMapSpec::MaxRank];
  const char *C = Type.c_str() + Open + 1, *End = Type.c_str() + Type.size() - 2;
  while (C < End) {
    if (P.Map.Rank == gpu::TensorMapSpec::MaxRank)
      return std::nullopt;
    char *After = nullptr;
    unsigned long V = std::strtoul(C, &After, 10);
    if (After == C || V == 0 || V > 256) // TMA boxes: 1 to 256 per dimension
      return std::nullopt;
    Dims[P.Map.Rank++] = static_cast<uint32_t>(V);
    C = After;
    while (C < End && (*C == ',' || *C == ' '))
      ++C;
  }
  if (P.Map.Rank == 0)
    return std::nullopt;
  for (unsigned D = 0; D < P.Map.Rank; ++D)
    P.Map.Box[D] = Dims[P.Map.Rank - 1 - D];
  return P;
}

} // namespace

std::optional<ParamSpec> parseParamType(const std::string &Type) {
  ParamSpec P;
  if (!Type.empty() && Type[0] == '*')
    return P; // Ptr
  if (Type.compare(0, 10, "tensormap<") == 0)
    return parseTensorMap(Type);
  static const struct {
    const char *Name;
    ParamType T;
  } Table[] = {
      {"i1", ParamType::I1},     {"i8", ParamType::I8},     {"i16", ParamType::I16},
      {"i32", ParamType::I32},   {"i64", ParamType::I64},   {"u1", ParamType::I1},
      {"u8", ParamType::U8},     {"u16", ParamType::U16},   {"u32", ParamType::U32},
      {"u64", ParamType::U64},   {"fp16", ParamType::FP16}, {"bf16", ParamType::BF16},
      {"fp32", ParamType::FP32}, {"f32", ParamType::FP32},  {"fp64", ParamType::FP64},
  };
  for (const auto &E : Table)
    if (Type == E.Name) {
      P.Type = E.T;
      return P;
    }
  return std::nullopt;
}

std::string checkTensorMapParam(const std::vector<ParamSpec> &Params, size_t I) {
  const size_t R = Params[I].Map.Rank;
  bool Ok = I >= 2 * R && Params[I - 2 * R].Type == ParamType::Ptr;
  for (size_t D = 0; Ok && D < R; ++D)
    Ok = Params[I - 2 * R + 1 + D].Type == ParamType::I32;
  for (size_t D = 0; Ok && D + 1 < R; ++D)
    Ok = Params[I - R + 1 + D].Type == ParamType::I64;
  if (Ok)
    return "";
  return "a tensormap of rank " + std::to_string(R) + " must follow a pointer, " +
         std::to_string(R) + " i32 shapes and " + std::to_string(R - 1) + " i64 strides";
}

// --- Errors -----------------------------------------------------------------

void setPythonError(std::exception_ptr P) {
  // The runtime's exceptions become tritium.errors classes; anything else is
  // a RuntimeError with the same text.
  PyObject *Cls = nullptr, *Args = nullptr, *Kwargs = nullptr;
  std::string Text;
  PyObject *Errors = PyImport_ImportModule("tritium.errors");
  try {
    std::rethrow_exception(P);
  } catch (const gpu::OutOfResources &E) {
    Text = E.what();
    if (Errors) {
      Cls = PyObject_GetAttrString(Errors, "OutOfResources");
      Args = Py_BuildValue("(KKs)", static_cast<unsigned long long>(E.required()),
                           static_cast<unsigned long long>(E.limit()), E.resource().c_str());
      Kwargs = Py_BuildValue("{ss}", "message", E.what());
    }
  } catch (const gpu::DriverError &E) {
    Text = E.what();
    if (Errors) {
      Cls = PyObject_GetAttrString(Errors, E.api() == "HIP" ? "HipError" : "CudaError");
      Args = Py_BuildValue("(s)", E.what());
      PyObject *Name =
          E.name().empty() ? Py_NewRef(Py_None) : PyUnicode_FromString(E.name().c_str());
      Kwargs = Py_BuildValue("{sNsissss}", "name", Name, "code", E.code(), "description",
                             E.description().c_str(), "action", E.action().c_str());
    }
  } catch (const std::exception &E) {
    Text = E.what();
  } catch (...) {
    Text = "unknown C++ exception";
  }
  Py_XDECREF(Errors);
  PyObject *Exc = Cls && Args && Kwargs ? PyObject_Call(Cls, Args, Kwargs) : nullptr;
  Py_XDECREF(Args);
  Py_XDECREF(Kwargs);
  if (Exc) {
    PyErr_SetObject(Cls, Exc);
    Py_DECREF(Exc);
  } else {
    PyErr_Clear();
    PyErr_SetString(PyExc_RuntimeError, Text.c_str());
  }
  Py_XDECREF(Cls);
}

// --- Reading arguments -------------------------------------------------------

bool readPointer(PyObject *Obj, uint64_t &Ptr) {
  if (Obj == Py_None) {
    Ptr = 0;
    return true;
  }
  if (PyLong_Check(Obj))
    return asUInt64(Obj, Ptr);
  if (PyObject *Fn = getOptionalAttr(Obj, "data_ptr")) {
    PyObject *V = PyObject_CallNoArgs(Fn);
    Py_DECREF(Fn);
    if (!V)
      return false;
    bool Ok = PyLong_Check(V) && asUInt64(V, Ptr);
    if (!PyLong_Check(V))
      PyErr_SetString(PyExc_TypeError, "data_ptr() did not return an int");
    Py_DECREF(V);
    return Ok;
  }
  if (PyErr_Occurred())
    return false;
  // numpy's __array_interface__ has the same "data" (host memory: the cpu
  // target's; a GPU's check of the address refuses it).
  for (const char *Interface : {"__cuda_array_interface__", "__array_interface__"}) {
    PyObject *CAI = getOptionalAttr(Obj, Interface);
    if (!CAI) {
      if (PyErr_Occurred())
        return false;
      continue;
    }
    PyObject *Data = PyDict_Check(CAI) ? PyDict_GetItemString(CAI, "data") : nullptr;
    bool Ok = Data && PyTuple_Check(Data) && PyTuple_GET_SIZE(Data) >= 1;
    if (Ok)
      Ok = asUInt64(PyTuple_GET_ITEM(Data, 0), Ptr);
    else
      PyErr_Format(PyExc_TypeError, "%s has no (pointer, readonly) 'data'", Interface);
    Py_DECREF(CAI);
    return Ok;
  }
  return false;
}

namespace {

/// One grid dimension: a non-negative int within CUDA's limit.
bool readDim(PyObject *V, unsigned Dim, const std::string &Kernel, unsigned &Out) {
  static const unsigned long long Limits[3] = {0x7fffffffull, 65535, 65535};
  PyObject *Num = PyLong_Check(V) ? Py_NewRef(V) : PyNumber_Index(V);
  if (!Num) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "%s: grid dimension %u must be an int, got %R", Kernel.c_str(),
                 Dim, V);
    return false;
  }
  int Overflow = 0;
  long long X = PyLong_AsLongLongAndOverflow(Num, &Overflow);
  Py_DECREF(Num);
  if (X == -1 && PyErr_Occurred())
    return false;
  if (Overflow || X < 0 || static_cast<unsigned long long>(X) > Limits[Dim]) {
    PyErr_Format(PyExc_ValueError, "%s: grid dimension %u is %R; CUDA allows 0 to %llu",
                 Kernel.c_str(), Dim, V, Limits[Dim]);
    return false;
  }
  Out = static_cast<unsigned>(X);
  return true;
}

} // namespace

bool readGrid(PyObject *GridObj, const std::string &Kernel, unsigned Grid[3]) {
  if (!PyTuple_Check(GridObj) && !PyList_Check(GridObj)) {
    PyErr_Format(PyExc_TypeError,
                 "%s: the grid must be a tuple of 1 to 3 ints or a callable "
                 "returning one, got %R",
                 Kernel.c_str(), GridObj);
    return false;
  }
  Py_ssize_t N = PySequence_Fast_GET_SIZE(GridObj);
  if (N < 1 || N > 3) {
    PyErr_Format(PyExc_ValueError, "%s: the grid must have 1 to 3 dimensions, got %R",
                 Kernel.c_str(), GridObj);
    return false;
  }
  Grid[1] = Grid[2] = 1;
  PyObject **Items = PySequence_Fast_ITEMS(GridObj);
  for (Py_ssize_t I = 0; I < N; ++I)
    if (!readDim(Items[I], static_cast<unsigned>(I), Kernel, Grid[I]))
      return false;
  return true;
}

// --- torch's device and stream ------------------------------------------------

namespace {

/// torch._C's device and stream getters, looked up again whenever the
/// module in sys.modules["torch"] changes (nullptr: no torch with CUDA).
struct TorchHooks {
  PyObject *Module = nullptr;
  PyObject *GetDevice = nullptr;
  PyObject *GetStream = nullptr;
};

TorchHooks &torchHooks() {
  static TorchHooks *T = new TorchHooks(); // lives as long as the interpreter
  static PyObject *Name = PyUnicode_InternFromString("torch");
  PyObject *Mod = PyDict_GetItemWithError(PyImport_GetModuleDict(), Name);
  if (!Mod && PyErr_Occurred())
    PyErr_Clear();
  if (Mod == T->Module)
    return *T;
  Py_CLEAR(T->GetDevice);
  Py_CLEAR(T->GetStream);
  Py_XDECREF(T->Module);
  T->Module = Py_XNewRef(Mod);
  if (Mod) {
    PyObject *C = PyObject_GetAttrString(Mod, "_C");
    if (C) {
      T->GetDevice = PyObject_GetAttrString(C, "_cuda_getDevice");
      T->GetStream = PyObject_GetAttrString(C, "_cuda_getCurrentRawStream");
      Py_DECREF(C);
    }
    if (!T->GetDevice || !T->GetStream) { // a CPU-only torch, or half-imported
      Py_CLEAR(T->GetDevice);
      Py_CLEAR(T->GetStream);
      PyErr_Clear();
    }
  }
  return *T;
}

} // namespace

int currentDevice(gpu::Driver &D) {
  TorchHooks &T = torchHooks();
  if (T.GetDevice) {
    PyObject *V = PyObject_CallNoArgs(T.GetDevice);
    if (!V)
      return -1;
    long Dev = PyLong_AsLong(V);
    Py_DECREF(V);
    return Dev == -1 && PyErr_Occurred() ? -1 : static_cast<int>(Dev);
  }
  try {
    return D.currentDevice();
  } catch (...) {
    setPythonError(std::current_exception());
    return -1;
  }
}

bool currentStream(int Device, gpu::Stream &Stream) {
  TorchHooks &T = torchHooks();
  if (!T.GetStream) {
    Stream = nullptr;
    return true;
  }
  PyObject *Dev = PyLong_FromLong(Device);
  PyObject *V = Dev ? PyObject_CallOneArg(T.GetStream, Dev) : nullptr;
  Py_XDECREF(Dev);
  if (!V)
    return false;
  Stream = static_cast<gpu::Stream>(PyLong_AsVoidPtr(V));
  Py_DECREF(V);
  return !PyErr_Occurred();
}

// --- NativeLauncher ------------------------------------------------------------

NativeLauncher::NativeLauncher(gpu::Driver &D, gpu::LoadedKernel K,
                               const std::vector<ParamSpec> &Params, std::vector<std::string> Names,
                               std::vector<int> Indices, std::string Kernel, bool CheckPointers)
    : D(D), K(std::move(K)), Names(std::move(Names)), Indices(std::move(Indices)),
      Kernel(std::move(Kernel)), CheckPointers(CheckPointers) {
  for (size_t I = 0; I < Params.size(); ++I) {
    const ParamSpec &P = Params[I];
    Types.push_back(P.Type);
    if (P.Type != ParamType::TensorMap)
      continue;
    MapParam M;
    M.Index = I;
    M.ElementBytes = P.ElementBytes;
    M.Last = P.Map;
    Maps.push_back(M);
  }
  CheckedPointers.assign(Types.size(), {});
  // Asked once: a device attribute per launch would cost a driver call.
  CanEncode = !Maps.empty() && D.hasTensorMaps(this->K.Device);
}

NativeLauncher::~NativeLauncher() {
  if (!ShuttingDown)
    D.unload(K);
}

bool NativeLauncher::argError(PyObject *Kind, size_t I, const std::string &What) {
  PyErr_Format(Kind, "%s(): argument '%s' (parameter %d): %s", Kernel.c_str(), Names[I].c_str(),
               Indices[I], What.c_str());
  return false;
}

bool NativeLauncher::pack(size_t I, const ArgValue &A, uint64_t &Slot, bool &NewPointer) {
  Slot = 0;
  PyObject *O = A.Obj;
  const ParamType T = Types[I];
  switch (T) {
  case ParamType::Ptr: {
    uint64_t P = A.Ptr;
    if (!A.HasPtr && !readPointer(O, P)) {
      if (PyErr_Occurred())
        return false;
      return argError(PyExc_TypeError, I,
                      "expected a tensor (data_ptr()), an object with "
                      "__cuda_array_interface__, an int address or None, got " +
                          typeName(O));
    }
    // As Triton's launcher: a tensor the device cannot reach (a CPU tensor) is a ValueError, not a
    // kernel reading host memory; an int address is the caller's to vouch for.
    if (!CheckPointers && PyLong_Check(O)) {
      Slot = P;
      return true;
    }
    CheckedPointer &Checked = CheckedPointers[I];
    if (P && (CheckPointers || Checked.Ptr != P)) {
      try {
        Checked = {P, D.devicePointer(P, "checking a pointer argument"), tensorDevice(O)};
        NewPointer = true;
      } catch (const std::exception &E) {
        Checked = {};
        char Hex[32];
        std::snprintf(Hex, sizeof(Hex), "0x%llx", static_cast<unsigned long long>(P));
        return argError(PyExc_ValueError, I,
                        std::string("the device cannot access address ") + Hex +
                            " (a CPU tensor?): " + E.what());
      }
    }
    if (!P)
      Checked = {}; // no tensor: no device to compare
    Slot = P ? Checked.DevPtr : 0;
    return true;
  }
  case ParamType::I1:
    // bool is an int; numpy's bool (numpy.bool, numpy.bool_) is not.
    if (!PyLong_Check(O) && std::strncmp(Py_TYPE(O)->tp_name, "numpy.bool", 10) != 0)
      return argError(PyExc_TypeError, I, "expected a bool, got " + typeName(O));
    Slot = PyObject_IsTrue(O) ? 1 : 0;
    return true;
  case ParamType::FP16:
  case ParamType::BF16:
  case ParamType::FP32:
  case ParamType::FP64: {
    double V = PyFloat_Check(O) ? PyFloat_AS_DOUBLE(O) : PyFloat_AsDouble(O);
    if (V == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      return argError(PyExc_TypeError, I, "expected a float, got " + typeName(O));
    }
    if (T == ParamType::FP64) {
      std::memcpy(&Slot, &V, 8);
    } else if (T == ParamType::FP32) {
      float F = static_cast<float>(V);
      std::memcpy(&Slot, &F, 4);
    } else {
      Slot =
          T == ParamType::FP16 ? toHalf(static_cast<float>(V)) : toBFloat16(static_cast<float>(V));
    }
    return true;
  }
  default:
    break;
  }

  // Integers, by the signature's width.
  IntRange R = intRange(T);
  PyObject *Num = PyLong_Check(O) ? Py_NewRef(O) : nullptr;
  if (!Num && !PyFloat_Check(O))
    Num = PyNumber_Index(O); // numpy ints and other __index__ objects
  if (!Num) {
    PyErr_Clear();
    return argError(PyExc_TypeError, I,
                    std::string("expected an int (") + R.Name + "), got " + typeName(O));
  }
  int Overflow = 0;
  long long V = PyLong_AsLongLongAndOverflow(Num, &Overflow);
  bool Fits;
  if (R.Signed) {
    long long Lo = R.Bits == 64 ? INT64_MIN : -(1ll << (R.Bits - 1));
    long long Hi = R.Bits == 64 ? INT64_MAX : (1ll << (R.Bits - 1)) - 1;
    Fits = !Overflow && V >= Lo && V <= Hi;
    Slot = static_cast<uint64_t>(V);
  } else if (Overflow > 0 && R.Bits == 64) {
    unsigned long long U = PyLong_AsUnsignedLongLong(Num);
    Fits = !PyErr_Occurred();
    PyErr_Clear();
    Slot = U;
  } else {
    Fits = !Overflow && V >= 0 &&
           (R.Bits == 64 || static_cast<unsigned long long>(V) < (1ull << R.Bits));
    Slot = static_cast<uint64_t>(V);
  }
  if (!Fits) {
    PyObject *Text = PyObject_Repr(Num);
    std::string Shown = Text ? PyUnicode_AsUTF8(Text) : "the value";
    Py_XDECREF(Text);
    Py_DECREF(Num);
    return argError(PyExc_OverflowError, I, Shown + " does not fit in " + R.Name);
  }
  Py_DECREF(Num);
  if (R.Bits < 64) // keep only the parameter's bytes: the rest stays zero
    Slot &= (1ull << R.Bits) - 1;
  return true;
}

void NativeLauncher::tensorMap(MapParam &M, const uint64_t *Slots, gpu::TensorMap &Out) {
  // The descriptor's parameters: base, shape 0..R-1, stride 0..R-2, in the kernel's (outermost
  // first) order; the driver wants innermost first, strides in bytes.
  gpu::TensorMapSpec In = M.Last;
  const unsigned R = In.Rank;
  const uint64_t *Group = Slots + M.Index - 2 * R;
  bool Valid = CanEncode;
  In.Base = Group[0];
  for (unsigned D = 0; D < R; ++D) {
    const int32_t Extent = static_cast<int32_t>(Group[1 + D]);
    Valid &= Extent > 0;
    In.Dims[R - 1 - D] = static_cast<uint64_t>(Extent);
  }
  for (unsigned D = 0; D + 1 < R; ++D) {
    const int64_t Stride = static_cast<int64_t>(Group[1 + R + D]);
    Valid &= Stride > 0;
    In.ByteStrides[R - 2 - D] = static_cast<uint64_t>(Stride) * M.ElementBytes;
  }
  bool Same = M.Encoded && In.Base == M.Last.Base &&
              std::equal(In.Dims, In.Dims + R, M.Last.Dims) &&
              std::equal(In.ByteStrides, In.ByteStrides + R - 1, M.Last.ByteStrides);
  if (!Same) {
    if (!Valid || !D.encodeTensorMap(In, M.Value))
      std::memset(M.Value.Bytes, 0, sizeof(M.Value.Bytes));
    M.Last = In;
    M.Encoded = true;
  }
  Out = M.Value;
}

bool NativeLauncher::oneDevice() {
  int First = -1;
  for (size_t I = 0; I < CheckedPointers.size(); ++I) {
    int Dev = Types[I] == ParamType::Ptr ? CheckedPointers[I].Device : -1;
    if (Dev < 0)
      continue;
    if (First < 0) {
      First = int(I);
    } else if (Dev != CheckedPointers[First].Device) {
      CheckedPointers[I] = {}; // asked again next time, not taken as checked
      return argError(PyExc_ValueError, I,
                      "a tensor on cuda:" + std::to_string(Dev) + ", but argument '" +
                          Names[First] + "' is on cuda:" +
                          std::to_string(CheckedPointers[First].Device) +
                          ": the tensors of one launch must be on one device");
    }
  }
  return true;
}

bool NativeLauncher::launch(const unsigned Grid[3], gpu::Stream Stream, const ArgValue *Args,
                            size_t NumArgs) {
  if (NumArgs != Types.size()) {
    PyErr_Format(PyExc_TypeError, "%s() takes %zu kernel arguments, got %zu", Kernel.c_str(),
                 Types.size(), NumArgs);
    return false;
  }
  llvm::SmallVector<uint64_t, 16> Slots(NumArgs);
  llvm::SmallVector<void *, 16> Params(NumArgs);
  // The launch's own copies of the tensor maps: another thread may encode this launcher's cached
  // ones while the driver reads these (the launch runs without the GIL). A few fit on the stack.
  gpu::TensorMap InlineMaps[4];
  std::unique_ptr<gpu::TensorMap[]> MoreMaps;
  gpu::TensorMap *MapValues = InlineMaps;
  if (Maps.size() > 4) {
    MoreMaps.reset(new gpu::TensorMap[Maps.size()]);
    MapValues = MoreMaps.get();
  }
  size_t NextMap = 0;
  bool NewPointer = false; // some pointer was asked about: compare devices
  for (size_t I = 0; I < NumArgs; ++I) {
    if (Types[I] == ParamType::TensorMap) { // its inputs are packed by now
      tensorMap(Maps[NextMap], Slots.data(), MapValues[NextMap]);
      Params[I] = &MapValues[NextMap++];
      continue;
    }
    if (!pack(I, Args[I], Slots[I], NewPointer))
      return false;
    Params[I] = &Slots[I];
  }
  if (NewPointer && !oneDevice())
    return false;
  if (Grid[0] == 0 || Grid[1] == 0 || Grid[2] == 0)
    return true; // an empty grid launches nothing, as in Triton
  // The launch may wait for room in the driver's queue: let other threads run.
  PyThreadState *Saved = PyEval_SaveThread();
  try {
    D.launch(K, Grid[0], Grid[1], Grid[2], Stream, NumArgs ? Params.data() : nullptr);
  } catch (...) {
    PyEval_RestoreThread(Saved);
    setPythonError(std::current_exception());
    return false;
  }
  PyEval_RestoreThread(Saved);
  return true;
}

bool NativeLauncher::call(PyObject *GX, PyObject *GY, PyObject *GZ, PyObject *StreamObj,
                          PyObject *Args) {
  unsigned Grid[3];
  PyObject *Dims[3] = {GX, GY, GZ};
  for (unsigned I = 0; I < 3; ++I)
    if (!readDim(Dims[I], I, Kernel, Grid[I]))
      return false;
  gpu::Stream Stream = nullptr;
  if (StreamObj != Py_None) {
    Stream = static_cast<gpu::Stream>(PyLong_AsVoidPtr(StreamObj));
    if (PyErr_Occurred())
      return false;
  }
  PyObject *Seq = PySequence_Fast(Args, "the launch arguments must be a sequence");
  if (!Seq)
    return false;
  Py_ssize_t N = PySequence_Fast_GET_SIZE(Seq);
  llvm::SmallVector<ArgValue, 16> Values(N);
  for (Py_ssize_t I = 0; I < N; ++I)
    Values[I].Obj = PySequence_Fast_GET_ITEM(Seq, I);
  bool Ok = launch(Grid, Stream, Values.data(), Values.size());
  Py_DECREF(Seq);
  return Ok;
}

} // namespace launch
} // namespace tritium
