//===- Dispatcher.cpp - The warm path of kernel[grid](...) ----------------===//
//
// See Dispatcher.h for the steps. The key is a sequence of 64-bit words plus
// the few Python objects (exotic constexpr values) compared by ==:
//
//   debug, device, then per parameter either its argument's type word
//   (kind | dtype or int width | the ==1 / %16 / aligned fact | a tensor of
//   2^31 elements or more) or, for a
//   constexpr, its value and type; then each launch option (by a small
//   index, sorted) and its value.
//
// It is at least as fine as jit.py's key (which it mirrors), so two launches
// with one key here always run the same compiled kernel.
//
//===----------------------------------------------------------------------===//

#include "Dispatcher.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace py = pybind11;

namespace tritium {
namespace launch {

namespace {

// Key words: the kind in the top byte.
constexpr uint64_t kind(uint64_t K) { return K << 56; }
enum : uint64_t {
  ArgNone = kind(1),
  ArgBool = kind(2),
  ArgFloat = kind(3),
  ArgInt = kind(4),
  ArgPtr = kind(5),
  ValNone = kind(0x11),
  ValBool = kind(0x12),
  ValInt = kind(0x13),
  ValFloat = kind(0x14),
  ValObject = kind(0x15),
  OptionWord = kind(0x20),
  DebugWord = kind(0x30),
  DeviceWord = kind(0x31),
};
// ArgInt details: width in bits 8-9, fact in bits 0-1.
enum : uint64_t { IntI32 = 0, IntI64 = 1 << 8, IntU64 = 2 << 8 };
enum : uint64_t { FactNone = 0, FactOne = 1, FactDivisible = 2 };

/// Interned attribute names, and os.environ's keys (bytes), used on every launch.
struct Names {
  PyObject *DataPtr = PyUnicode_InternFromString("data_ptr");
  PyObject *Dtype = PyUnicode_InternFromString("dtype");
  PyObject *CudaArrayInterface = PyUnicode_InternFromString("__cuda_array_interface__");
  PyObject *ArrayInterface = PyUnicode_InternFromString("__array_interface__");
  PyObject *Obj = PyUnicode_InternFromString("_obj");
  PyObject *EnterHook = PyUnicode_InternFromString("launch_enter_hook");
  PyObject *ExitHook = PyUnicode_InternFromString("launch_exit_hook");
  PyObject *OverrideDebug = PyUnicode_InternFromString("_override_debug");
  PyObject *DebugVar = PyBytes_FromString("TRITIUM_DEBUG");
  PyObject *TritonDebugVar = PyBytes_FromString("TRITON_DEBUG");
  PyObject *OverrideInterpret = PyUnicode_InternFromString("_override_interpret");
  PyObject *InterpretVar = PyBytes_FromString("TRITIUM_INTERPRET");
  PyObject *TritonInterpretVar = PyBytes_FromString("TRITON_INTERPRET");
  PyObject *Shape = PyUnicode_InternFromString("shape");
  PyObject *Stride = PyUnicode_InternFromString("stride");
  PyObject *UntypedStorage = PyUnicode_InternFromString("untyped_storage");
  PyObject *Nbytes = PyUnicode_InternFromString("nbytes");
};

const Names &names() {
  static const Names *N = new Names();
  return *N;
}

/// Per Python type: its data_ptr (looked up on the type, called with the
/// object), or null when the type has none (the object may still have one
/// of its own). Holds references, so a cached type's address is never reused.
struct TypeInfo {
  PyObject *DataPtr = nullptr;
  /// Whether an instance can have attributes its type lacks (a __dict__ or
  /// its own attribute lookup); cupy's ndarray cannot, torch's Tensor can.
  bool InstanceAttrs = true;
  /// Whether the type has untyped_storage() and stride() (torch's), which
  /// tell a tensor of 2^31 elements or more (spansLarge).
  bool HasStorage = false, HasStride = false;
};
constexpr size_t MaxCachedTypes = 64;
llvm::DenseMap<PyTypeObject *, TypeInfo> &typeCache() {
  static auto *M = new llvm::DenseMap<PyTypeObject *, TypeInfo>();
  return *M;
}

/// Element type strings by code ("fp32", ...), and the dtype objects seen.
std::vector<std::string> &typeNames() {
  static auto *V = new std::vector<std::string>();
  return *V;
}
llvm::DenseMap<PyObject *, int> &dtypeCodes() {
  static auto *M = new llvm::DenseMap<PyObject *, int>();
  return *M;
}
constexpr size_t MaxCachedDtypes = 256;

int typeNameCode(const std::string &Name) {
  std::vector<std::string> &V = typeNames();
  auto It = std::find(V.begin(), V.end(), Name);
  if (It != V.end())
    return static_cast<int>(It - V.begin());
  V.push_back(Name);
  return static_cast<int>(V.size() - 1);
}

/// __cuda_array_interface__ typestr (without its byte order) -> type string, as jit.py's _TYPESTR.
const char *typestrName(const char *T) {
  static const char *Table[][2] = {
      {"b1", "i1"},  {"i1", "i8"},  {"i2", "i16"}, {"i4", "i32"},  {"i8", "i64"},  {"u1", "u8"},
      {"u2", "u16"}, {"u4", "u32"}, {"u8", "u64"}, {"f2", "fp16"}, {"f4", "fp32"}, {"f8", "fp64"},
  };
  for (const auto &E : Table)
    if (std::strcmp(T, E[0]) == 0)
      return E[1];
  return nullptr;
}

bool truthy(const char *Text) {
  if (!Text)
    return false;
  std::string S = llvm::StringRef(Text).trim(" \t\n").lower();
  return S == "1" || S == "true" || S == "yes" || S == "on" || S == "y";
}

} // namespace

// --- Keys and entries --------------------------------------------------------

struct Dispatcher::Key {
  llvm::SmallVector<uint64_t, 24> Words;
  llvm::SmallVector<PyObject *, 4> Objects; ///< borrowed while looking up

  void push(uint64_t W) { Words.push_back(W); }
  /// A constexpr value, option value or device; false when it is an object that cannot be hashed.
  bool pushValue(PyObject *V) {
    if (V == Py_None) {
      push(ValNone);
    } else if (PyBool_Check(V)) {
      push(ValBool | (V == Py_True));
    } else if (PyLong_CheckExact(V)) {
      int Overflow = 0;
      long long X = PyLong_AsLongLongAndOverflow(V, &Overflow);
      if (Overflow)
        return pushObject(V);
      push(ValInt);
      push(static_cast<uint64_t>(X));
    } else if (PyFloat_CheckExact(V)) {
      double D = PyFloat_AS_DOUBLE(V);
      uint64_t Bits;
      std::memcpy(&Bits, &D, 8);
      push(ValFloat);
      push(Bits);
    } else {
      return pushObject(V);
    }
    return true;
  }
  bool pushObject(PyObject *V) {
    Py_hash_t H = PyObject_Hash(V);
    if (H == -1 && PyErr_Occurred()) {
      PyErr_Clear(); // unhashable: the Python path freezes it
      return false;
    }
    push(ValObject);
    push(reinterpret_cast<uint64_t>(Py_TYPE(V)));
    push(static_cast<uint64_t>(H));
    Objects.push_back(V);
    return true;
  }
  uint64_t hash() const {
    uint64_t H = 0x243f6a8885a308d3ull;
    for (uint64_t W : Words) {
      H = (H ^ W) * 0x9e3779b97f4a7c15ull;
      H ^= H >> 29;
    }
    // DenseMap reserves the two largest values.
    return H >= ~0ull - 1 ? H - 2 : H;
  }
  bool equals(const Key &O) const {
    if (Words != O.Words || Objects.size() != O.Objects.size())
      return false;
    for (size_t I = 0; I < Objects.size(); ++I) {
      if (Objects[I] == O.Objects[I])
        continue;
      int Eq = PyObject_RichCompareBool(Objects[I], O.Objects[I], Py_EQ);
      if (Eq != 1) {
        PyErr_Clear();
        return false;
      }
    }
    return true;
  }
};

struct Dispatcher::Bound {
  llvm::SmallVector<PyObject *, 16> Values; ///< borrowed, per parameter
  llvm::SmallVector<ArgValue, 16> Args;     ///< per parameter
  llvm::SmallVector<std::pair<int, PyObject *>, 4> Options;
};

/// What a launch takes from its entry.
struct Dispatcher::Hit {
  py::object Kernel, Launcher;
  NativeLauncher *Native = nullptr; ///< kept alive by Launcher
  llvm::SmallVector<unsigned, 16> ArgIndices;
};

struct Dispatcher::Entry {
  Key K; ///< owns references to K.Objects
  Hit Target;
  std::unique_ptr<Entry> Next; ///< another key with the same hash

  ~Entry() {
    for (PyObject *O : K.Objects)
      Py_DECREF(O);
  }
};

// --- Construction --------------------------------------------------------------

Dispatcher::Dispatcher(std::string Kernel, std::vector<Param> Params, DriverHooks Hooks,
                       py::object DtypeToStr, bool FollowInterpret)
    : Kernel(std::move(Kernel)), Params(std::move(Params)), Hooks(std::move(Hooks)),
      DtypeToStr(std::move(DtypeToStr)), FollowInterpret(FollowInterpret) {
  for (Param &P : this->Params) {
    PyObject *N = P.Name.release().ptr();
    PyUnicode_InternInPlace(&N);
    P.Name = py::reinterpret_steal<py::object>(N);
    if (P.Kind != KeywordOnly)
      ++NumPositional;
  }
  // The instance dict of knobs.runtime (where Python-set overrides live)
  // and os.environ's bytes dict (POSIX), when they can be had.
  if (PyObject *D = PyObject_GenericGetDict(this->Hooks.RuntimeKnobs.ptr(), nullptr))
    KnobsDict = py::reinterpret_steal<py::object>(D);
  PyErr_Clear();
  if (PyObject *Os = PyImport_ImportModule("os")) {
    PyObject *Environ = PyObject_GetAttrString(Os, "environ");
    PyObject *Data = Environ ? PyObject_GetAttrString(Environ, "_data") : nullptr;
    if (Data && PyDict_Check(Data))
      EnvData = py::reinterpret_borrow<py::object>(Data);
    Py_XDECREF(Data);
    Py_XDECREF(Environ);
    Py_DECREF(Os);
  }
  PyErr_Clear();
}

Dispatcher::~Dispatcher() { clear(); }

void Dispatcher::clear() {
  Map.clear();
  NumEntries = 0;
}

int Dispatcher::traverse(visitproc Visit, void *Arg) {
  llvm::SmallVector<PyObject *, 64> Held = {
      Hooks.Driver.ptr(),   Hooks.ActiveDict.ptr(), Hooks.RuntimeKnobs.ptr(), Hooks.DeviceFn.ptr(),
      Hooks.StreamFn.ptr(), DtypeToStr.ptr(),       KnobsDict.ptr(),          EnvData.ptr()};
  for (const Param &P : Params)
    Held.append({P.Name.ptr(), P.Default.ptr()});
  for (const py::object &O : OptionNames)
    Held.push_back(O.ptr());
  for (const Watched &W : Globals)
    Held.append({W.Dict.ptr(), W.Name.ptr(), W.Value.ptr()});
  for (const auto &KV : Map)
    for (const Entry *E = KV.second.get(); E; E = E->Next.get()) {
      Held.append({E->Target.Kernel.ptr(), E->Target.Launcher.ptr()});
      Held.append(E->K.Objects.begin(), E->K.Objects.end());
    }
  for (PyObject *O : Held)
    if (int R = O ? Visit(O, Arg) : 0)
      return R;
  return 0;
}

void Dispatcher::clearAll() {
  Cleared = true;
  clear();
  Globals.clear();
  OptionNames.clear();
  for (Param &P : Params)
    P.Default = py::object();
  Hooks = DriverHooks();
  DtypeToStr = KnobsDict = EnvData = py::object();
}

// --- Binding --------------------------------------------------------------------

int Dispatcher::optionIndex(PyObject *Name) {
  for (size_t I = 0; I < OptionNames.size(); ++I)
    if (OptionNames[I].ptr() == Name)
      return static_cast<int>(I);
  for (size_t I = 0; I < OptionNames.size(); ++I)
    if (PyUnicode_Compare(OptionNames[I].ptr(), Name) == 0)
      return static_cast<int>(I);
  if (PyErr_Occurred() || OptionNames.size() >= 64) {
    PyErr_Clear();
    return -1;
  }
  OptionNames.push_back(py::reinterpret_borrow<py::object>(Name));
  return static_cast<int>(OptionNames.size() - 1);
}

bool Dispatcher::bind(PyObject *Args, PyObject *Kwargs, Bound &B) {
  if (!PyTuple_Check(Args) || (Kwargs != Py_None && !PyDict_Check(Kwargs)))
    return false;
  const size_t N = Params.size();
  const size_t NArgs = static_cast<size_t>(PyTuple_GET_SIZE(Args));
  if (NArgs > NumPositional)
    return false;
  B.Values.assign(N, nullptr);
  B.Args.assign(N, ArgValue());
  for (size_t I = 0; I < NArgs; ++I)
    B.Values[I] = PyTuple_GET_ITEM(Args, I);
  if (Kwargs != Py_None && PyDict_GET_SIZE(Kwargs)) {
    Py_ssize_t Pos = 0;
    PyObject *K, *V;
    while (PyDict_Next(Kwargs, &Pos, &K, &V)) {
      size_t I = 0;
      while (I < N && Params[I].Name.ptr() != K)
        ++I;
      if (I == N && PyUnicode_Check(K)) {
        I = 0;
        while (I < N && PyUnicode_Compare(Params[I].Name.ptr(), K) != 0)
          ++I;
      }
      if (I < N) {
        if (I < NArgs || Params[I].Kind == PositionalOnly)
          return false; // "multiple values": the Python path says so
        B.Values[I] = V;
        continue;
      }
      int Opt = PyUnicode_Check(K) ? optionIndex(K) : -1;
      if (Opt < 0)
        return false;
      B.Options.emplace_back(Opt, V);
    }
  }
  for (size_t I = NArgs; I < N; ++I) {
    if (B.Values[I])
      continue;
    if (!Params[I].Default)
      return false; // a missing argument
    B.Values[I] = Params[I].Default.ptr();
  }
  for (size_t I = 0; I < N; ++I)
    B.Args[I].Obj = B.Values[I];
  return true;
}

// --- Keys --------------------------------------------------------------------------

int Dispatcher::dtypeCode(PyObject *Dtype) {
  auto &Codes = dtypeCodes();
  auto It = Codes.find(Dtype);
  if (It != Codes.end())
    return It->second;
  PyObject *Name = PyObject_CallOneArg(DtypeToStr.ptr(), Dtype);
  if (!Name || !PyUnicode_Check(Name)) {
    Py_XDECREF(Name);
    PyErr_Clear(); // an unsupported dtype: the Python path names the argument
    return -1;
  }
  int Code = typeNameCode(PyUnicode_AsUTF8(Name));
  Py_DECREF(Name);
  if (Codes.size() < MaxCachedDtypes) {
    Py_INCREF(Dtype);
    Codes[Dtype] = Code;
  }
  return Code;
}

/// Whether \p V's elements reach 2^31 from its first one: 1 + the sum of (size - 1) * |stride| over
/// its shape and stride() (torch's); false for an object whose type has no stride(), or whose
/// untyped_storage() has fewer than 2^31 bytes. runtime/jit.py's _spans_large is the same.
static bool spansLarge(PyObject *V, const TypeInfo *Info) {
  constexpr long long Limit = 1LL << 31;
  PyObject *T = reinterpret_cast<PyObject *>(Py_TYPE(V));
  bool HasStride = Info ? Info->HasStride : PyObject_HasAttr(T, names().Stride);
  bool HasStorage = Info ? Info->HasStorage : PyObject_HasAttr(T, names().UntypedStorage);
  if (!HasStride)
    return false;
  // A storage of fewer than 2^31 bytes holds no two elements 2^31 apart:
  // the common case, answered in two calls.
  if (PyObject *Storage = HasStorage ? PyObject_CallMethodNoArgs(V, names().UntypedStorage)
                                     : nullptr) {
    PyObject *Bytes = PyObject_CallMethodNoArgs(Storage, names().Nbytes);
    Py_DECREF(Storage);
    long long N = Bytes && PyLong_Check(Bytes) ? PyLong_AsLongLong(Bytes) : -1;
    Py_XDECREF(Bytes);
    PyErr_Clear();
    if (N >= 0 && N < Limit)
      return false;
  }
  PyErr_Clear();
  PyObject *Shape = PyObject_GetAttr(V, names().Shape);
  PyObject *Stride = Shape ? PyObject_CallMethodNoArgs(V, names().Stride) : nullptr;
  bool Large = false;
  if (Stride && PyTuple_Check(Shape) && PyTuple_Check(Stride) &&
      PyTuple_GET_SIZE(Shape) == PyTuple_GET_SIZE(Stride)) {
    long long Extent = 1;
    bool Empty = false;
    for (Py_ssize_t I = 0; I < PyTuple_GET_SIZE(Shape); ++I) {
      long long N = PyLong_AsLongLong(PyTuple_GET_ITEM(Shape, I));
      long long D = std::llabs(PyLong_AsLongLong(PyTuple_GET_ITEM(Stride, I)));
      Empty |= N == 0;
      if (N > 1 && D > 0) // saturating: only whether it reaches Limit matters
        Extent += N - 1 > (Limit - 1) / D ? Limit : (N - 1) * D;
      Extent = std::min(Extent, Limit);
    }
    Large = !Empty && !PyErr_Occurred() && Extent >= Limit;
  }
  Py_XDECREF(Shape);
  Py_XDECREF(Stride);
  PyErr_Clear();
  return Large;
}

bool Dispatcher::keyTensor(PyObject *V, bool Align, Key &K, ArgValue &A) {
  const Names &Nm = names();
  PyTypeObject *T = Py_TYPE(V);
  auto &Types = typeCache();
  auto It = Types.find(T);
  if (It == Types.end()) {
    TypeInfo Info;
    Info.DataPtr = PyObject_GetAttr(reinterpret_cast<PyObject *>(T), Nm.DataPtr);
    if (!Info.DataPtr)
      PyErr_Clear();
    // Only plain functions and C methods take the object as their first
    // argument; anything else is looked up on the object itself.
    if (Info.DataPtr && !PyFunction_Check(Info.DataPtr) &&
        Py_TYPE(Info.DataPtr) != &PyMethodDescr_Type)
      Py_CLEAR(Info.DataPtr);
    Info.InstanceAttrs = T->tp_dictoffset != 0 || T->tp_getattro != PyObject_GenericGetAttr;
    Info.HasStorage = PyObject_HasAttr(reinterpret_cast<PyObject *>(T), Nm.UntypedStorage);
    Info.HasStride = PyObject_HasAttr(reinterpret_cast<PyObject *>(T), Nm.Stride);
    if (Types.size() < MaxCachedTypes) {
      Py_INCREF(T);
      It = Types.try_emplace(T, Info).first;
    } else {
      Py_XDECREF(Info.DataPtr);
      Info.DataPtr = nullptr;
    }
  }
  PyObject *Ptr = nullptr;
  if (It != Types.end() && It->second.DataPtr) {
    Ptr = PyObject_CallOneArg(It->second.DataPtr, V);
  } else if (It == Types.end() || It->second.InstanceAttrs) {
    if (PyObject *Fn = PyObject_GetAttr(V, Nm.DataPtr)) {
      Ptr = PyObject_CallNoArgs(Fn);
      Py_DECREF(Fn);
    }
  }
  if (Ptr) {
    PyObject *Dtype = PyObject_GetAttr(V, Nm.Dtype);
    int Code = Dtype ? dtypeCode(Dtype) : -1;
    Py_XDECREF(Dtype);
    uint64_t P = 0;
    bool Ok = PyLong_Check(Ptr) && asUInt64(Ptr, P) && Code >= 0;
    Py_DECREF(Ptr);
    if (!Ok) {
      PyErr_Clear();
      return false;
    }
    A.Ptr = P;
    A.HasPtr = true;
    K.push(ArgPtr | uint64_t(Code) << 8 | (Align && !(P & 15)) |
           uint64_t(spansLarge(V, It != Types.end() ? &It->second : nullptr)) << 2);
    return true;
  }
  PyErr_Clear();

  // __cuda_array_interface__: {"data": (ptr, readonly), "typestr": "<f4"};
  // numpy's __array_interface__ (host memory: the cpu target's) is alike.
  PyObject *CAI = PyObject_GetAttr(V, Nm.CudaArrayInterface);
  if (!CAI) {
    PyErr_Clear();
    CAI = PyObject_GetAttr(V, Nm.ArrayInterface);
  }
  if (!CAI) {
    PyErr_Clear();
    return false;
  }
  bool Ok = false;
  if (PyDict_Check(CAI)) {
    PyObject *Data = PyDict_GetItemString(CAI, "data");
    PyObject *TypeStr = PyDict_GetItemString(CAI, "typestr");
    const char *TS = TypeStr && PyUnicode_Check(TypeStr) ? PyUnicode_AsUTF8(TypeStr) : nullptr;
    const char *Ty = TS && *TS ? typestrName(TS + 1) : nullptr;
    uint64_t P = 0;
    if (Data && PyTuple_Check(Data) && PyTuple_GET_SIZE(Data) >= 1 && Ty &&
        PyLong_Check(PyTuple_GET_ITEM(Data, 0))) {
      if (asUInt64(PyTuple_GET_ITEM(Data, 0), P)) {
        A.Ptr = P;
        A.HasPtr = true;
        K.push(ArgPtr | uint64_t(typeNameCode(Ty)) << 8 | (Align && !(P & 15)));
        Ok = true;
      }
    }
  }
  Py_DECREF(CAI);
  PyErr_Clear();
  return Ok;
}

bool Dispatcher::keyArgument(const Param &P, PyObject *V, Key &K, ArgValue &A) {
  if (P.Constexpr) {
    // jit.py keys a constexpr on (value, type(value)); pushValue keeps the
    // type of everything but exact None/bool/int/float, which it tags.
    return K.pushValue(V);
  }
  const bool Value = !P.NoSpecialize;
  const bool Align = Value && !P.NoAlignment;
  if (V == Py_None) {
    K.push(ArgNone);
    return true;
  }
  if (PyBool_Check(V)) {
    K.push(ArgBool);
    return true;
  }
  if (PyLong_CheckExact(V)) {
    int Overflow = 0;
    long long X = PyLong_AsLongLongAndOverflow(V, &Overflow);
    uint64_t Low;
    uint64_t Width;
    if (!Overflow) {
      Low = static_cast<uint64_t>(X);
      Width = X >= INT32_MIN && X <= INT32_MAX ? IntI32 : IntI64;
    } else if (Overflow > 0) {
      Low = PyLong_AsUnsignedLongLong(V);
      if (PyErr_Occurred()) { // beyond 64 bits: the Python path raises
        PyErr_Clear();
        return false;
      }
      Width = IntU64;
    } else {
      return false;
    }
    uint64_t Fact = FactNone;
    if (Value && Width == IntI32 && X == 1)
      Fact = FactOne;
    else if (Value && Align && !(Low & 15))
      Fact = FactDivisible;
    K.push(ArgInt | Width | Fact);
    return true;
  }
  if (PyFloat_CheckExact(V)) {
    K.push(ArgFloat);
    return true;
  }
  return keyTensor(V, Align, K, A);
}

bool Dispatcher::hooksSet() {
  // knobs.runtime.launch_enter_hook / launch_exit_hook: set on the instance (as knobs are set),
  // else the class's default. Two dict lookups each, where getattr would also walk the type.
  PyObject *ClassDict = Py_TYPE(Hooks.RuntimeKnobs.ptr())->tp_dict;
  for (PyObject *Name : {names().EnterHook, names().ExitHook}) {
    PyObject *H = KnobsDict ? PyDict_GetItemWithError(KnobsDict.ptr(), Name) : nullptr;
    if (!H && !PyErr_Occurred() && ClassDict)
      H = PyDict_GetItemWithError(ClassDict, Name);
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return true; // let the Python path find out
    }
    if (H && H != Py_None)
      return true;
  }
  return false;
}

bool Dispatcher::knobEnabled(PyObject *Override, PyObject *EnvName, PyObject *TritonName) {
  // A knob set from Python (knobs.runtime.debug = True) wins; else the variable, or its Triton
  // spelling where it is unset or empty, read from os.environ's own bytes dict as
  // knobs.debug_enabled() and interpret_enabled() do.
  if (KnobsDict) {
    PyObject *V = PyDict_GetItemWithError(KnobsDict.ptr(), Override);
    int On = V ? PyObject_IsTrue(V) : -2;
    if (On >= 0)
      return On;
    if (PyErr_Occurred())
      PyErr_Clear();
  }
  if (EnvData) {
    for (PyObject *Name : {EnvName, TritonName}) {
      PyObject *Raw = PyDict_GetItemWithError(EnvData.ptr(), Name);
      if (Raw && PyBytes_Check(Raw) && PyBytes_GET_SIZE(Raw))
        return truthy(PyBytes_AS_STRING(Raw));
      if (PyErr_Occurred())
        PyErr_Clear();
    }
    return false;
  }
  const char *Text = std::getenv(PyBytes_AS_STRING(EnvName));
  return truthy(Text && *Text ? Text : std::getenv(PyBytes_AS_STRING(TritonName)));
}

bool Dispatcher::makeKey(Bound &B, PyObject *Device, int NativeDevice, bool Debug, Key &K) {
  K.push(DebugWord | Debug);
  if (Device) {
    if (!K.pushValue(Device))
      return false;
  } else {
    K.push(DeviceWord | static_cast<uint32_t>(NativeDevice));
  }
  for (size_t I = 0; I < Params.size(); ++I)
    if (!keyArgument(Params[I], B.Values[I], K, B.Args[I]))
      return false;
  std::sort(B.Options.begin(), B.Options.end(),
            [](const auto &L, const auto &R) { return L.first < R.first; });
  for (const auto &O : B.Options) {
    K.push(OptionWord | static_cast<uint64_t>(O.first));
    if (!K.pushValue(O.second))
      return false;
  }
  return true;
}

Dispatcher::Entry *Dispatcher::find(const Key &K, uint64_t Hash) {
  auto It = Map.find(Hash);
  if (It == Map.end())
    return nullptr;
  for (Entry *E = It->second.get(); E; E = E->Next.get())
    if (E->K.equals(K))
      return E;
  return nullptr;
}

bool Dispatcher::globalsUnchanged() {
  for (const Watched &W : Globals) {
    PyObject *V = PyDict_GetItemWithError(W.Dict.ptr(), W.Name.ptr());
    if (!V)
      PyErr_Clear();
    if (V != W.Value.ptr())
      return false;
  }
  return true;
}

void Dispatcher::watchGlobals(py::handle List) {
  Globals.clear();
  for (py::handle Item : List) {
    py::tuple T = py::reinterpret_borrow<py::tuple>(Item);
    Watched W;
    W.Dict = py::reinterpret_borrow<py::object>(T[0]);
    W.Name = py::reinterpret_borrow<py::object>(T[1]);
    PyObject *V = PyDict_GetItemWithError(W.Dict.ptr(), W.Name.ptr());
    if (!V)
      PyErr_Clear();
    W.Value = py::reinterpret_borrow<py::object>(V);
    Globals.push_back(std::move(W));
  }
}

// --- Inserting --------------------------------------------------------------------

bool Dispatcher::insert(py::handle Device, bool Debug, py::handle Args, py::handle Kwargs,
                        py::object KernelObj, py::object Launcher,
                        std::vector<unsigned> ArgIndices) {
  if (Cleared)
    return false;
  Bound B;
  Key K;
  int NativeDevice = 0;
  PyObject *DeviceObj = nullptr;
  if (Hooks.DeviceFn) {
    DeviceObj = Device.ptr();
  } else {
    NativeDevice = static_cast<int>(PyLong_AsLong(Device.ptr()));
    if (NativeDevice == -1 && PyErr_Occurred())
      throw py::error_already_set();
  }
  if (!bind(Args.ptr(), Kwargs.ptr(), B) || !makeKey(B, DeviceObj, NativeDevice, Debug, K))
    return false;
  for (unsigned I : ArgIndices)
    if (I >= Params.size())
      throw py::index_error("argument index out of range");

  auto E = std::make_unique<Entry>();
  E->K = K;
  for (PyObject *O : E->K.Objects)
    Py_INCREF(O);
  E->Target.Kernel = std::move(KernelObj);
  if (py::isinstance<NativeLauncher>(Launcher))
    E->Target.Native = Launcher.cast<NativeLauncher *>();
  E->Target.Launcher = std::move(Launcher);
  E->Target.ArgIndices.assign(ArgIndices.begin(), ArgIndices.end());

  uint64_t H = K.hash();
  std::unique_ptr<Entry> &Slot = Map[H];
  // Replace an entry with the same key; else chain.
  std::unique_ptr<Entry> *At = &Slot;
  while (*At && !(*At)->K.equals(K))
    At = &(*At)->Next;
  if (*At) {
    E->Next = std::move((*At)->Next);
    --NumEntries;
  }
  *At = std::move(E);
  ++NumEntries;
  return true;
}

// --- Launching ---------------------------------------------------------------------

bool Dispatcher::evalGrid(PyObject *Grid, const Bound &B, unsigned Out[3]) {
  // Only a callable is called: anything else (an int, a str) is readGrid's
  // to reject, with the message the first launch gives.
  if (!PyCallable_Check(Grid))
    return readGrid(Grid, Kernel, Out);
  // A callable gets the bound arguments by name, constexprs included.
  PyObject *Meta = PyDict_New();
  if (!Meta)
    return false;
  for (size_t I = 0; I < Params.size(); ++I)
    if (PyDict_SetItem(Meta, Params[I].Name.ptr(), B.Values[I]) < 0) {
      Py_DECREF(Meta);
      return false;
    }
  PyObject *G = PyObject_CallOneArg(Grid, Meta);
  Py_DECREF(Meta);
  if (!G)
    return false;
  bool Ok = readGrid(G, Kernel, Out);
  Py_DECREF(G);
  return Ok;
}

PyObject *Dispatcher::launchEntry(const Hit &E, const Bound &B, PyObject *Device, int NativeDevice,
                                  const unsigned Grid[3]) {
  // The stream: the Python driver's, or torch's current one (else 0).
  PyObject *StreamObj = nullptr;
  gpu::Stream Stream = nullptr;
  if (Hooks.StreamFn) {
    StreamObj = PyObject_CallOneArg(Hooks.StreamFn.ptr(), Device);
    if (!StreamObj)
      return nullptr;
    if (E.Native && StreamObj != Py_None) {
      Stream = static_cast<gpu::Stream>(PyLong_AsVoidPtr(StreamObj));
      if (PyErr_Occurred()) {
        Py_DECREF(StreamObj);
        return nullptr;
      }
    }
  } else if (!currentStream(NativeDevice, Stream)) {
    return nullptr;
  }

  if (E.Native) {
    Py_XDECREF(StreamObj);
    llvm::SmallVector<ArgValue, 16> Args;
    for (unsigned I : E.ArgIndices)
      Args.push_back(B.Args[I]);
    if (!E.Native->launch(Grid, Stream, Args.data(), Args.size()))
      return nullptr;
    return Py_NewRef(E.Kernel.ptr());
  }

  // A Python launcher: launcher(gx, gy, gz, stream, args).
  if (!StreamObj)
    StreamObj = PyLong_FromVoidPtr(Stream);
  PyObject *ArgTuple = PyTuple_New(static_cast<Py_ssize_t>(E.ArgIndices.size()));
  PyObject *Dims[3] = {PyLong_FromUnsignedLong(Grid[0]), PyLong_FromUnsignedLong(Grid[1]),
                       PyLong_FromUnsignedLong(Grid[2])};
  PyObject *Result = nullptr;
  if (StreamObj && ArgTuple && Dims[0] && Dims[1] && Dims[2]) {
    for (size_t J = 0; J < E.ArgIndices.size(); ++J)
      PyTuple_SET_ITEM(ArgTuple, J, Py_NewRef(B.Values[E.ArgIndices[J]]));
    Result = PyObject_CallFunctionObjArgs(E.Launcher.ptr(), Dims[0], Dims[1], Dims[2], StreamObj,
                                          ArgTuple, nullptr);
  }
  for (PyObject *D : Dims)
    Py_XDECREF(D);
  Py_XDECREF(ArgTuple);
  Py_XDECREF(StreamObj);
  if (!Result)
    return nullptr;
  Py_DECREF(Result);
  return Py_NewRef(E.Kernel.ptr());
}

PyObject *Dispatcher::launch(PyObject *Grid, PyObject *Args, PyObject *Kwargs) {
  const Names &Nm = names();
  if (Cleared)
    Py_RETURN_NONE;
  // Still the active driver, and no launch hooks to call?
  PyObject *Active = PyDict_GetItemWithError(Hooks.ActiveDict.ptr(), Nm.Obj);
  if (Active != Hooks.Driver.ptr()) {
    PyErr_Clear();
    Py_RETURN_NONE;
  }
  if (hooksSet())
    Py_RETURN_NONE;
  // TRITIUM_INTERPRET, read at every launch, sends it to the interpreter.
  if (FollowInterpret && knobEnabled(Nm.OverrideInterpret, Nm.InterpretVar, Nm.TritonInterpretVar))
    Py_RETURN_NONE;

  Bound B;
  if (!bind(Args, Kwargs, B))
    Py_RETURN_NONE;

  // The device, as the slow path saw it: the Python driver's or native.
  PyObject *Device = nullptr;
  int NativeDevice = 0;
  if (Hooks.DeviceFn) {
    Device = PyObject_CallNoArgs(Hooks.DeviceFn.ptr());
    if (!Device) {
      PyErr_Clear();
      Py_RETURN_NONE;
    }
  } else {
    NativeDevice = currentDevice(*Hooks.Native);
    if (NativeDevice < 0) {
      PyErr_Clear();
      Py_RETURN_NONE;
    }
  }

  Key K;
  Entry *E = nullptr;
  bool Debug = knobEnabled(Nm.OverrideDebug, Nm.DebugVar, Nm.TritonDebugVar);
  if (makeKey(B, Device, NativeDevice, Debug, K))
    E = find(K, K.hash());
  if (!E || !globalsUnchanged()) {
    Py_XDECREF(Device);
    Py_RETURN_NONE;
  }
  // The grid callable runs Python, which may clear this map: hold on to what the launch needs.
  Hit H = E->Target;

  // From here on the launch is ours: errors are raised, never retried.
  unsigned G[3];
  PyObject *Result = nullptr;
  if (evalGrid(Grid, B, G))
    Result = launchEntry(H, B, Device, NativeDevice, G);
  Py_XDECREF(Device);
  return Result;
}

} // namespace launch
} // namespace tritium
