"""Every TRITIUM_* environment knob, grouped like Triton's ``triton.knobs``.

Each knob is read from the environment *when it is used*, never cached, so a
test may ``monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")`` or a program
may ``tritium.knobs.compilation.always_compile = True`` at any time;
``del tritium.knobs.compilation.always_compile`` drops the override and goes
back to the environment. ``docs/knobs.md`` documents each one; ``all_knobs()``
lists them (a test checks that the two agree).

    tritium.knobs.cache.dir                     TRITIUM_CACHE_DIR
    tritium.knobs.compilation.dump_ir           TRITIUM_DUMP_IR
    tritium.knobs.runtime.debug                 TRITIUM_DEBUG
"""

import os

__all__ = ["cache", "compilation", "runtime", "autotuning", "nvidia", "amd", "all_knobs"]

_TRUE = frozenset(("1", "true", "yes", "on", "y"))


def _parse_bool(text):
    return text.strip().lower() in _TRUE


class _Knob:
    """A data descriptor backed by one environment variable.

    ``kind`` is "bool", "str" or "path" (a str with ``~`` expanded); ``default``
    is the value when the variable is unset or empty (a callable is called).
    """

    def __init__(self, env, default, kind, doc):
        self.env = env
        self.default = default
        self.kind = kind
        self.doc = doc

    def __set_name__(self, owner, name):
        self.name = name
        self.slot = "_override_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        override = obj.__dict__.get(self.slot, _UNSET)
        if override is not _UNSET:
            return override
        text = os.environ.get(self.env)
        if not text:
            return self.default() if callable(self.default) else self.default
        if self.kind == "bool":
            return _parse_bool(text)
        if self.kind == "path":
            return os.path.expanduser(text)
        return text

    def __set__(self, obj, value):
        obj.__dict__[self.slot] = value

    def __delete__(self, obj):
        obj.__dict__.pop(self.slot, None)


_UNSET = object()


def _home():
    return os.path.expanduser(os.environ.get("TRITIUM_HOME") or "~")


def _under_home(sub):
    return lambda: os.path.join(_home(), ".tritium", sub)


class _Group:
    def __repr__(self):
        items = ", ".join(f"{k.name}={getattr(self, k.name)!r}" for k in self.knobs())
        return f"<tritium.knobs.{type(self).__name__.lstrip('_').lower()}: {items}>"

    @classmethod
    def knobs(cls):
        return [v for v in vars(cls).values() if isinstance(v, _Knob)]

    def reset(self):
        """Drops every override of this group set from Python."""
        for k in self.knobs():
            self.__dict__.pop(k.slot, None)


class _Cache(_Group):
    home = _Knob("TRITIUM_HOME", _home, "path",
                 "Base of the default cache, dump and override directories "
                 "($TRITIUM_HOME/.tritium/...).")
    dir = _Knob("TRITIUM_CACHE_DIR", _under_home("cache"), "path",
                "The on-disk kernel cache.")
    dump_dir = _Knob("TRITIUM_DUMP_DIR", _under_home("dump"), "path",
                     "Where TRITIUM_KERNEL_DUMP writes every stage.")
    override_dir = _Knob("TRITIUM_OVERRIDE_DIR", _under_home("override"), "path",
                         "Where TRITIUM_KERNEL_OVERRIDE looks for replacement stages.")


class _Compilation(_Group):
    always_compile = _Knob("TRITIUM_ALWAYS_COMPILE", False, "bool",
                           "Never read the on-disk cache (results are still stored).")
    dump_ir = _Knob("TRITIUM_DUMP_IR", "", "str",
                    "Print the IR before and after every pass to stderr: '1' for every "
                    "kernel, or a kernel name.")
    kernel_dump = _Knob("TRITIUM_KERNEL_DUMP", False, "bool",
                        "Write every stage of every compiled kernel to "
                        "$TRITIUM_DUMP_DIR/<hash>/<name>.<stage>.")
    kernel_override = _Knob("TRITIUM_KERNEL_OVERRIDE", False, "bool",
                            "Replace a stage by $TRITIUM_OVERRIDE_DIR/<hash>/<name>.<stage> "
                            "when that file exists.")
    print_stage_times = _Knob("TRITIUM_PRINT_STAGE_TIMES", False, "bool",
                              "Print each compile's time per stage (frontend, passes, "
                              "llir, ptxas, ...) to stderr.")
    allow_non_constexpr_globals = _Knob(
        "TRITIUM_ALLOW_NON_CONSTEXPR_GLOBALS", False, "bool",
        "Let kernels read plain (non-constexpr) globals; they are still part of the "
        "cache key and still checked for changes.")
    llvm_o3 = _Knob("TRITIUM_LLVM_O3", False, "bool",
                    "Optimize LLVM IR with LLVM's default<O3> instead of the backend's short "
                    "pipeline (both targets).")


class _Runtime(_Group):
    debug = _Knob("TRITIUM_DEBUG", False, "bool",
                  "Compile every kernel with debug=True (device asserts, overflow checks).")
    interpret = _Knob("TRITIUM_INTERPRET", False, "bool",
                      "Run kernels on the host with numpy instead of compiling them (read when a "
                      "kernel is decorated and at every launch).")
    default_backend = _Knob("TRITIUM_DEFAULT_BACKEND", "cuda", "str",
                            "The target compiled for when no GPU driver is active: "
                            "'cuda' (cuda:90), 'hip' (hip:gfx90a) or a target such "
                            "as 'cuda:80'.")
    # Python-only hooks (no environment variable), as in triton.knobs.runtime.
    launch_enter_hook = None
    launch_exit_hook = None
    jit_post_compile_hook = None


class _Autotuning(_Group):
    cache = _Knob("TRITIUM_CACHE_AUTOTUNING", False, "bool",
                  "Keep each autotuned key's best config on disk "
                  "($TRITIUM_CACHE_DIR/autotune), as cache_results=True does.")
    print = _Knob("TRITIUM_PRINT_AUTOTUNING", False, "bool",
                  "Print the best config and the tuning time of every autotuned key.")


class _Nvidia(_Group):
    arch = _Knob("TRITIUM_CUDA_ARCH", None, "str",
                 "The architecture compiled for on the active CUDA GPU, such as '90' "
                 "(sm_90 without wgmma) or '80' (default: the device's compute "
                 "capability, 90a on an H100/H200).")
    ptxas_path = _Knob("TRITIUM_PTXAS_PATH", None, "path",
                       "The ptxas binary (default: /usr/local/cuda/bin/ptxas, then PATH).")
    libdevice_path = _Knob("TRITIUM_LIBDEVICE_PATH", None, "path",
                           "libdevice.10.bc (default: $CUDA_HOME/nvvm/libdevice, then "
                           "/usr/local/cuda/nvvm/libdevice).")
    backtrace = _Knob("TRITIUM_BACKTRACE", False, "bool",
                      "A crash in the C++ core prints a stack trace (read at import of _C).")
    tma = _Knob("TRITIUM_TMA", False, "bool",
                "sm_90a: host-side descriptors' loads feeding wgmma are TMA copies "
                "(cp.async.bulk.tensor on mbarriers) instead of cp.async; off until "
                "measured on a GPU (docs/nvidia.md).")
    libcuda_path = _Knob("TRITIUM_LIBCUDA_PATH", None, "path",
                         "The CUDA driver library to load: a file, or a directory holding "
                         "libcuda.so.1 (default: libcuda.so.1 on the loader's path).")


class _Amd(_Group):
    device_libs_path = _Knob("TRITIUM_ROCM_DEVICE_LIBS_PATH", None, "path",
                             "The folder of the ROCm device libraries (ocml.bc, ockl.bc, "
                             "oclc_*.bc; default: $ROCM_PATH/amdgcn/bitcode, then the "
                             "Debian and ROCm install folders).")
    libhip_path = _Knob("TRITIUM_LIBHIP_PATH", None, "path",
                        "The HIP runtime library to load: a file, or a directory holding "
                        "libamdhip64.so (default: libamdhip64.so on the loader's path).")


cache = _Cache()
compilation = _Compilation()
runtime = _Runtime()
autotuning = _Autotuning()
nvidia = _Nvidia()
amd = _Amd()


# -- Fast reads for the launch path ------------------------------------------
# os.environ.get costs a key encode and a value decode (~0.3 us); the launch
# path reads the environment's own bytes dict instead (CPython keeps it in
# step with os.environ and monkeypatch.setenv).

_ENV_DATA = getattr(os.environ, "_data", None) if os.name == "posix" else None
_TRUE_BYTES = frozenset(t.encode() for t in _TRUE)


def debug_enabled():
    """``runtime.debug``, cheaply; called on every launch."""
    override = runtime.__dict__.get("_override_debug", _UNSET)
    if override is not _UNSET:
        return bool(override)
    if _ENV_DATA is None:
        return runtime.debug
    raw = _ENV_DATA.get(b"TRITIUM_DEBUG")
    return raw is not None and raw.strip().lower() in _TRUE_BYTES


def interpret_enabled():
    """``runtime.interpret``, cheaply; called on every launch."""
    override = runtime.__dict__.get("_override_interpret", _UNSET)
    if override is not _UNSET:
        return bool(override)
    if _ENV_DATA is None:
        return runtime.interpret
    raw = _ENV_DATA.get(b"TRITIUM_INTERPRET")
    return raw is not None and raw.strip().lower() in _TRUE_BYTES


def default_backend_fast():
    """``runtime.default_backend``, cheaply (the device key without a GPU)."""
    override = runtime.__dict__.get("_override_default_backend", _UNSET)
    if override is not _UNSET or _ENV_DATA is None:
        return runtime.default_backend
    raw = _ENV_DATA.get(b"TRITIUM_DEFAULT_BACKEND")
    return raw.decode() if raw else "cuda"


def all_knobs():
    """Every knob as (group, attribute, environment variable, default, doc)."""
    out = []
    for group_name in ("cache", "compilation", "runtime", "autotuning", "nvidia", "amd"):
        group = globals()[group_name]
        for k in group.knobs():
            default = k.default() if callable(k.default) else k.default
            out.append((group_name, k.name, k.env, default, k.doc))
    return out
