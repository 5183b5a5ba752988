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
// An argument's type word is made by specializeArg, which also makes jit.py's
// entry of it (specialize, "Specialization" below): one word is one entry, so
// two launches with one key here always run the same compiled kernel.
//
//===----------------------------------------------------------------------===//

#include "Dispatcher.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <climits>
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

/// __cuda_array_interface__ typestr (without its byte order) -> type string.
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
                       bool FollowInterpret)
    : Kernel(std::move(Kernel)), Params(std::move(Params)), Hooks(std::move(Hooks)),
      FollowInterpret(FollowInterpret) {
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
      Hooks.StreamFn.ptr(), KnobsDict.ptr(),        EnvData.ptr()};
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
  KnobsDict = EnvData = py::object();
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

// --- Specialization ------------------------------------------------------------------
//
// specializeArg decides an argument's specialization as a key word, which the dispatcher's key
// pushes and specialize (jit.py's _specialize) turns into its entry: the one definition.

namespace {

/// What jit.py registers (setSpecializeHooks).
PyObject *DtypeToStrHook, *OtherHook, *ArgErrorType, *ArgOverflowType;

/// A dtype object's code in typeNames(); -1 with the hook's error (ArgError) set for none.
int dtypeCode(PyObject *Dtype) {
  auto &Codes = dtypeCodes();
  auto It = Codes.find(Dtype);
  if (It != Codes.end())
    return It->second;
  PyObject *Name = PyObject_CallOneArg(DtypeToStrHook, Dtype);
  const char *Text = Name ? PyUnicode_AsUTF8(Name) : nullptr; // a TypeError for a non-str
  int Code = Text ? typeNameCode(Text) : -1;
  Py_XDECREF(Name);
  if (Code < 0)
    return -1;
  if (Codes.size() < MaxCachedDtypes) {
    Py_INCREF(Dtype);
    Codes[Dtype] = Code;
  }
  return Code;
}

/// tensorSpan's elements, saturating at \p Limit; -1 also where shape and stride() hold non-ints.
long long spanUpTo(PyObject *V, long long Limit) {
  PyObject *Shape = PyObject_GetAttr(V, names().Shape);
  PyObject *Stride = Shape ? PyObject_CallMethodNoArgs(V, names().Stride) : nullptr;
  PyObject *Sizes = Stride ? PySequence_Fast(Shape, "") : nullptr;
  PyObject *Steps = Sizes ? PySequence_Fast(Stride, "") : nullptr;
  long long Extent = -1;
  if (Steps && PySequence_Fast_GET_SIZE(Sizes) == PySequence_Fast_GET_SIZE(Steps)) {
    Extent = 1;
    bool Empty = false;
    for (Py_ssize_t I = 0; I < PySequence_Fast_GET_SIZE(Sizes); ++I) {
      long long N = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(Sizes, I));
      long long D = std::llabs(PyLong_AsLongLong(PySequence_Fast_GET_ITEM(Steps, I)));
      Empty |= N == 0;
      long long Step = N > 1 && D > 0 ? (N - 1 > (Limit - 1) / D ? Limit : (N - 1) * D) : 0;
      Extent = Step >= Limit - Extent ? Limit : Extent + Step; // saturating
    }
    Extent = PyErr_Occurred() ? -1 : Empty ? 0 : Extent;
  }
  for (PyObject *O : {Shape, Stride, Sizes, Steps})
    Py_XDECREF(O);
  PyErr_Clear();
  return Extent;
}

/// Whether \p V's elements reach 2^31 from its first one, where i32 offsets wrap ("L": the launch
/// compiles with int64_offsets); never for a type without stride(); a storage of fewer than 2^31
/// bytes answers first (torch's untyped_storage().nbytes(): two calls, the common case).
bool spansLarge(PyObject *V, const TypeInfo *Info) {
  constexpr long long Limit = 1LL << 31;
  PyObject *T = reinterpret_cast<PyObject *>(Py_TYPE(V));
  bool HasStride = Info ? Info->HasStride : PyObject_HasAttr(T, names().Stride);
  bool HasStorage = Info ? Info->HasStorage : PyObject_HasAttr(T, names().UntypedStorage);
  if (!HasStride)
    return false;
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
  return spanUpTo(V, Limit) >= Limit;
}

enum class Specialized { Word, Other, Failed };

/// An int: i32, i64 or u64 by its range; "1" for an i32 equal to 1 (\p Value), "D" for one
/// divisible by 16 (\p Align); beyond 64 bits, jit.py's ArgOverflow.
Specialized intWord(PyObject *V, bool Value, bool Align, uint64_t &W) {
  int Overflow = 0;
  long long X = PyLong_AsLongLongAndOverflow(V, &Overflow);
  uint64_t Low = static_cast<uint64_t>(X);
  uint64_t Width = X >= INT32_MIN && X <= INT32_MAX ? IntI32 : IntI64;
  if (Overflow) {
    Low = Overflow > 0 ? PyLong_AsUnsignedLongLong(V) : 0;
    if (Overflow < 0 || PyErr_Occurred()) {
      PyErr_Clear();
      PyErr_Format(ArgOverflowType,
                   "integer to be specialized too large to represent: %S does not fit in 64 bits",
                   V);
      return Specialized::Failed;
    }
    Width = IntU64;
  }
  uint64_t Fact = FactNone;
  if (Value && Width == IntI32 && X == 1)
    Fact = FactOne;
  else if (Align && !(Low & 15))
    Fact = FactDivisible;
  W = ArgInt | Width | Fact;
  return Specialized::Word;
}

/// A tensor, an object with data_ptr() and dtype: "*" and its dtype's type string; "D" where the
/// address is 16-byte aligned (\p Align), "L" where it spans 2^31 elements (spansLarge).
Specialized tensorWord(PyObject *V, bool Align, uint64_t &W, uint64_t &Address) {
  const Names &Nm = names();
  PyTypeObject *T = Py_TYPE(V);
  auto &Types = typeCache();
  auto It = Types.find(T);
  if (It == Types.end()) {
    TypeInfo Info;
    Info.DataPtr = PyObject_GetAttr(reinterpret_cast<PyObject *>(T), Nm.DataPtr);
    if (!Info.DataPtr)
      PyErr_Clear();
    Info.InstanceAttrs = T->tp_dictoffset != 0 || T->tp_getattro != PyObject_GenericGetAttr;
    // Only plain functions and C methods take the object as their first
    // argument; anything else (a property...) is looked up on the object itself.
    if (Info.DataPtr && !PyFunction_Check(Info.DataPtr) &&
        Py_TYPE(Info.DataPtr) != &PyMethodDescr_Type) {
      Py_CLEAR(Info.DataPtr);
      Info.InstanceAttrs = true;
    }
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
  const TypeInfo *Info = It != Types.end() ? &It->second : nullptr;
  PyObject *Fn = Info && Info->DataPtr ? Py_NewRef(Info->DataPtr) : nullptr;
  if (!Fn && (!Info || Info->InstanceAttrs) && !(Fn = PyObject_GetAttr(V, Nm.DataPtr)))
    PyErr_Clear();
  PyObject *Dtype = Fn && PyCallable_Check(Fn) ? PyObject_GetAttr(V, Nm.Dtype) : nullptr;
  if (!Dtype) {
    Py_XDECREF(Fn);
    PyErr_Clear();
    return Specialized::Other;
  }
  PyObject *Ptr = Info && Info->DataPtr ? PyObject_CallOneArg(Fn, V) : PyObject_CallNoArgs(Fn);
  Py_DECREF(Fn);
  bool Ok = Ptr && asUInt64(Ptr, Address); // an int, or anything with __index__, as in Python
  Py_XDECREF(Ptr);
  int Code = Ok ? dtypeCode(Dtype) : -1;
  Py_DECREF(Dtype);
  if (Code < 0)
    return Specialized::Failed;
  W = ArgPtr | uint64_t(Code) << 8 | (Align && !(Address & 15)) |
      uint64_t(spansLarge(V, Info)) << 2;
  return Specialized::Word;
}

/// Whether \p V is a numpy scalar (np.float32(1.5), np.int64(3)): a value, though it has an
/// __array_interface__ (of a temporary copy); jit.py's fallback types it as its int, float or
/// bool, as Triton does a Python number.
bool isNumpyScalar(PyObject *V) {
  if (std::strncmp(Py_TYPE(V)->tp_name, "numpy.", 6) != 0)
    return false;
  static PyObject *Generic = [] {
    PyObject *NumPy = PyImport_ImportModule("numpy");
    PyObject *G = NumPy ? PyObject_GetAttrString(NumPy, "generic") : nullptr;
    Py_XDECREF(NumPy);
    PyErr_Clear();
    return G;
  }();
  return Generic && PyObject_IsInstance(V, Generic) == 1;
}

/// __cuda_array_interface__ ({"data": (ptr, readonly), "typestr": "<f4"}), or numpy's
/// __array_interface__ (host memory: the cpu target's): a pointer as tensorWord's, without "L".
Specialized arrayWord(PyObject *V, bool Align, uint64_t &W, uint64_t &Address) {
  if (isNumpyScalar(V))
    return Specialized::Other;
  PyObject *CAI = PyObject_GetAttr(V, names().CudaArrayInterface);
  if (!CAI || PyObject_IsTrue(CAI) != 1) {
    Py_XDECREF(CAI);
    PyErr_Clear();
    CAI = PyObject_GetAttr(V, names().ArrayInterface);
  }
  if (!CAI || CAI == Py_None) {
    Py_XDECREF(CAI);
    PyErr_Clear();
    return Specialized::Other;
  }
  PyObject *TypeStr = PyMapping_GetItemString(CAI, "typestr");
  const char *TS = TypeStr && PyUnicode_Check(TypeStr) ? PyUnicode_AsUTF8(TypeStr) : nullptr;
  const char *Ty = TS && *TS ? typestrName(TS + 1) : nullptr;
  if (TypeStr && !Ty)
    PyErr_Format(ArgErrorType, "unsupported array interface typestr %R", TypeStr);
  PyObject *Data = Ty ? PyMapping_GetItemString(CAI, "data") : nullptr;
  PyObject *Ptr = Data ? PySequence_GetItem(Data, 0) : nullptr;
  bool Ok = Ptr && asUInt64(Ptr, Address);
  for (PyObject *O : {CAI, TypeStr, Data, Ptr})
    Py_XDECREF(O);
  if (!Ok)
    return Specialized::Failed;
  W = ArgPtr | uint64_t(typeNameCode(Ty)) << 8 | (Align && !(Address & 15));
  return Specialized::Word;
}

/// \p V's key word (and a pointer's address); Other for what jit.py's _specialize_other decides;
/// Failed with an error set.
Specialized specializeArg(PyObject *V, bool Value, bool Align, uint64_t &W, uint64_t &Address) {
  Align &= Value;
  if (V == Py_None)
    W = ArgNone;
  else if (PyBool_Check(V))
    W = ArgBool;
  else if (PyLong_CheckExact(V))
    return intWord(V, Value, Align, W);
  else if (PyFloat_CheckExact(V))
    W = ArgFloat;
  else if (Specialized S = tensorWord(V, Align, W, Address); S != Specialized::Other)
    return S;
  else if (Specialized S = arrayWord(V, Align, W, Address); S != Specialized::Other)
    return S;
  else if (PyLong_Check(V)) // int subclasses (IntEnum); numpy's scalars are jit.py's
    return intWord(V, Value, Align, W);
  else if (PyFloat_Check(V))
    W = ArgFloat;
  else
    return Specialized::Other;
  return Specialized::Word;
}

/// A key word's entry, ("*fp16", "DL"), ("i32", "1"), ("constexpr", None)...: one tuple per word.
PyObject *entryOf(uint64_t W) {
  static auto *Entries = new llvm::DenseMap<uint64_t, PyObject *>();
  static const char *IntTypes[] = {"i32", "i64", "u64"}, *IntTags[] = {"", "1", "D"};
  PyObject *&E = (*Entries)[W];
  uint64_t Kind = W & kind(0xff);
  if (!E && Kind == ArgNone) {
    E = Py_BuildValue("(sO)", "constexpr", Py_None);
  } else if (!E) {
    std::string Ty = Kind == ArgBool    ? "i1"
                     : Kind == ArgFloat ? "fp32"
                     : Kind == ArgInt   ? IntTypes[(W >> 8) & 3]
                                        : "*" + typeNames()[(W & ~kind(0xff)) >> 8];
    std::string Tag =
        Kind == ArgInt ? IntTags[W & 3] : std::string(W & 1 ? "D" : "") + (W & 4 ? "L" : "");
    E = Py_BuildValue("(ss)", Ty.c_str(), Tag.c_str());
  }
  return Py_XNewRef(E);
}

} // namespace

void setSpecializeHooks(PyObject *DtypeToStr, PyObject *Other, PyObject *ArgError,
                        PyObject *ArgOverflow) {
  for (PyObject *O : {DtypeToStr, Other, ArgError, ArgOverflow})
    Py_INCREF(O); // held for the life of the process
  DtypeToStrHook = DtypeToStr, OtherHook = Other, ArgErrorType = ArgError;
  ArgOverflowType = ArgOverflow;
}

PyObject *specialize(PyObject *X, bool Value, bool Align) {
  if (!OtherHook) {
    PyErr_SetString(PyExc_RuntimeError, "tritium.runtime.jit has not set the specialize hooks");
    return nullptr;
  }
  uint64_t W = 0, Address = 0;
  Specialized S = specializeArg(X, Value, Align, W, Address);
  if (S != Specialized::Other)
    return S == Specialized::Word ? entryOf(W) : nullptr;
  return PyObject_CallFunctionObjArgs(OtherHook, X, Value ? Py_True : Py_False,
                                      Align ? Py_True : Py_False, nullptr);
}

long long tensorSpan(PyObject *X) { return spanUpTo(X, LLONG_MAX); }

// --- Keys --------------------------------------------------------------------------

bool Dispatcher::keyArgument(const Param &P, PyObject *V, Key &K, ArgValue &A) {
  if (P.Constexpr) {
    // jit.py keys a constexpr on (value, type(value)); pushValue keeps the
    // type of everything but exact None/bool/int/float, which it tags.
    return K.pushValue(V);
  }
  uint64_t W = 0;
  if (specializeArg(V, !P.NoSpecialize, !P.NoAlignment, W, A.Ptr) != Specialized::Word) {
    PyErr_Clear(); // the Python path raises it, or keys what only it knows
    return false;
  }
  A.HasPtr = (W & kind(0xff)) == ArgPtr;
  K.push(W);
  return true;
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
