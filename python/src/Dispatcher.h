//===- Dispatcher.h - The warm path of kernel[grid](...) ---------*- C++ -*-===//
//
// One Dispatcher per @jit function and driver. JITFunction.run hands it the grid, the positional
// arguments and the keywords of a launch; in one call it
//
//   1. binds them to the kernel's parameters (a table made once: names,
//      positional/keyword-only, defaults, constexpr, do_not_specialize);
//   2. computes the specialization key straight from the Python objects, each argument's part by
//      the code that is also jit.py's _specialize (specialize below: int: i32/i64/u64, ==1, %16;
//      tensor: dtype, 16-byte alignment, 2^31 elements; float, bool, None), then constexpr
//      values, launch options, TRITIUM_DEBUG and the device;
//   3. looks it up in a hash map of the kernels launched before;
//   4. checks that the globals the kernel read are the same objects;
//   5. evaluates the grid (calls it with the bound arguments if callable);
//   6. launches: through the kernel's NativeLauncher (packing, torch's
//      current stream, cuLaunchKernel), or by calling a Python launcher.
//
// Anything it cannot decide (a new key, an argument type it does not key on, a binding error,
// launch hooks, a changed global, TRITIUM_INTERPRET) makes it return None before any side effect,
// and run() takes the Python path, which compiles, raises the right error, and inserts the kernel
// here for next time.
//
//===----------------------------------------------------------------------===//
#ifndef TRITIUM_PYTHON_DISPATCHER_H
#define TRITIUM_PYTHON_DISPATCHER_H

#include "Launcher.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <pybind11/pybind11.h>

#include <memory>
#include <string>
#include <vector>

namespace tritium {
namespace launch {

/// jit.py's _specialize(x, value, align): the specialization entry of one argument, ("*fp16", "D"),
/// ("i32", "1"), ("*fp32", "DL"), ("constexpr", None)...; decided by the code whose key words the
/// Dispatcher's key is made of (Dispatcher.cpp, "Specialization"), so that the two cannot differ.
/// A new reference, or null with jit.py's ArgError or ArgOverflow (or data_ptr()'s error) set.
PyObject *specialize(PyObject *X, bool Value, bool Align);
/// What specialize needs of jit.py: its dtype -> type string (raising ArgError for none), its
/// entry for the arguments only Python recognizes (a warmup placeholder, a descriptor, a @jit
/// function, a constexpr, a dtype), called as other(x, value, align), and its two error types.
void setSpecializeHooks(PyObject *DtypeToStr, PyObject *Other, PyObject *ArgError,
                        PyObject *ArgOverflow);
/// The elements from a tensor's first to its last, 1 + the sum of (size - 1) * |stride| over its
/// shape and stride(); 0 when it is empty; -1 for an object without them.
long long tensorSpan(PyObject *X);

class Dispatcher {
public:
  /// How a parameter may be passed (inspect.Parameter.kind).
  enum ParamKind : int { PositionalOrKeyword = 0, PositionalOnly = 1, KeywordOnly = 2 };

  struct Param {
    pybind11::object Name; ///< interned
    ParamKind Kind = PositionalOrKeyword;
    pybind11::object Default; ///< null when the parameter has none
    bool Constexpr = false;
    bool NoSpecialize = false; ///< do_not_specialize: no ==1, no %16
    bool NoAlignment = false;  ///< do_not_specialize_on_alignment
  };

  /// Where a launch gets its device and stream: the native driver's rules (torch's current device
  /// and stream, else the current context's device and stream 0) or the Python driver's
  /// get_current_device() and get_current_stream(device).
  struct DriverHooks {
    pybind11::object Driver;             ///< the Python driver this serves
    pybind11::object ActiveDict;         ///< runtime.driver.active.__dict__
    pybind11::object RuntimeKnobs;       ///< tritium.knobs.runtime
    pybind11::object DeviceFn, StreamFn; ///< null for the native rules
    gpu::Driver *Native = nullptr;      ///< for the native rules
  };

  /// \p FollowInterpret: launches go to the interpreter (the Python path)
  /// while TRITIUM_INTERPRET is set (@jit without interpret=).
  Dispatcher(std::string Kernel, std::vector<Param> Params, DriverHooks Hooks,
             bool FollowInterpret);
  ~Dispatcher();

  /// The warm path: launches and returns the CompiledKernel (a new reference); Py_None when run()
  /// must take the Python path; nullptr with a Python error when the launch itself failed.
  PyObject *launch(PyObject *Grid, PyObject *Args, PyObject *Kwargs);

  /// Remembers \p Kernel, launched through \p Launcher with the parameters at \p ArgIndices, for
  /// launches whose key is that of (\p Device, \p Debug, \p Args, \p Kwargs). False when those
  /// arguments cannot be keyed here (they then always take the Python path).
  bool insert(pybind11::handle Device, bool Debug, pybind11::handle Args, pybind11::handle Kwargs,
              pybind11::object Kernel, pybind11::object Launcher, std::vector<unsigned> ArgIndices);

  /// Snapshots the current value of each (namespace dict, name) in \p Globals; a launch whose
  /// globals are not these same objects takes the Python path (which compares their values).
  void watchGlobals(pybind11::handle Globals);

  void clear();
  size_t size() const { return NumEntries; }

  /// Visits every Python object the dispatcher holds (its tp_traverse), so that cycles through it
  /// (a kernel -> its source -> the @jit function -> the dispatcher) can be collected.
  int traverse(visitproc Visit, void *Arg);
  /// Drops every Python object it holds (its tp_clear); it then launches
  /// nothing and remembers nothing.
  void clearAll();
  pybind11::object driver() const { return Hooks.Driver; }

private:
  struct Key;
  struct Bound;
  struct Entry;
  struct Hit;

  bool bind(PyObject *Args, PyObject *Kwargs, Bound &B);
  /// Fills \p K for bound arguments; false (no error set) when some value cannot be keyed.
  bool makeKey(Bound &B, PyObject *Device, int NativeDevice, bool Debug, Key &K);
  bool keyArgument(const Param &P, PyObject *V, Key &K, ArgValue &A);
  int optionIndex(PyObject *Name);
  Entry *find(const Key &K, uint64_t Hash);
  /// A boolean knob of knobs.runtime: its Python override \p Override, else
  /// the variable \p EnvName, else \p TritonName (bytes).
  bool knobEnabled(PyObject *Override, PyObject *EnvName, PyObject *TritonName);
  /// Whether a launch hook is set (the Python path calls them).
  bool hooksSet();
  bool globalsUnchanged();
  /// The grid of a launch; false with a Python error set.
  bool evalGrid(PyObject *Grid, const Bound &B, unsigned Out[3]);
  PyObject *launchEntry(const Hit &E, const Bound &B, PyObject *Device, int NativeDevice,
                        const unsigned Grid[3]);

  std::string Kernel;
  std::vector<Param> Params;
  size_t NumPositional = 0;
  DriverHooks Hooks;
  bool FollowInterpret;
  pybind11::object KnobsDict; ///< knobs.runtime.__dict__
  pybind11::object EnvData;   ///< os.environ._data (bytes -> bytes)
  std::vector<pybind11::object> OptionNames;
  struct Watched {
    pybind11::object Dict, Name, Value;
  };
  std::vector<Watched> Globals;
  llvm::DenseMap<uint64_t, std::unique_ptr<Entry>> Map;
  size_t NumEntries = 0;
  bool Cleared = false; ///< by the garbage collector
};

} // namespace launch
} // namespace tritium

#endif // TRITIUM_PYTHON_DISPATCHER_H
