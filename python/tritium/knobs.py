"""Every TRITIUM_* environment knob, grouped and named like Triton 3.6's
``triton.knobs`` (``tritium.knobs.cache.dir`` is TRITIUM_CACHE_DIR).

Each knob is read from the environment *when it is used*, never cached;
setting one from Python also sets its variable (while ``propagate_env`` is
true) and ``del`` puts it back. Each group is a ``base_knobs``. docs/knobs.md
documents the rules and every knob; ``all_knobs()`` lists them (a test checks
that the two agree).
"""

import contextlib
import functools
import os
import re
import shutil
import subprocess

__all__ = ["base_knobs", "cache", "compilation", "runtime", "autotuning", "language", "nvidia", "amd",
           "all_knobs", "propagate_env", "NvidiaTool"]

_TRUE = frozenset(("1", "true", "yes", "on", "y"))

#: Whether setting a knob from Python also sets its environment variable.
propagate_env = True


def _as_env(value):
    """The variable's text for a value set from Python: (text,), (None,) to
    unset it, or None when the value has no text form (then only Python sees it)."""
    if value is None:
        return (None,)
    if isinstance(value, bool):
        return ("1" if value else "0",)
    if isinstance(value, (str, int)):
        return (str(value),)
    return None


def _setenv(key, text):
    if text is None:
        os.environ.pop(key, None)
    else:
        os.environ[key] = text


# The TRITIUM_* variables whose TRITON_* spelling means the same in Triton:
# that spelling is read where the TRITIUM_ one is unset, so that a Triton
# setup (TRITON_INTERPRET=1, TRITON_CACHE_DIR, ...) works unchanged under
# `import tritium as triton`.
TRITON_NAMES = frozenset(
    "HOME CACHE_DIR DUMP_DIR OVERRIDE_DIR ALWAYS_COMPILE KERNEL_DUMP KERNEL_OVERRIDE "
    "DISABLE_LINE_INFO REPRODUCER_PATH LLVM_DEBUG_ONLY FRONT_END_DEBUGGING ALLOW_NON_CONSTEXPR_GLOBALS DEBUG INTERPRET DEFAULT_BACKEND OVERRIDE_ARCH "
    "DEFAULT_FP_FUSION F32_DEFAULT CACHE_AUTOTUNING PRINT_AUTOTUNING LIBDEVICE_PATH LIBCUDA_PATH LIBHIP_PATH "
    "PTXAS_PATH DUMP_PTXAS_LOG CUOBJDUMP_PATH NVDISASM_PATH".split())


def triton_name(env):
    """The TRITON_* spelling of the TRITIUM_* variable env, or None."""
    rest = env[len("TRITIUM_"):] if env.startswith("TRITIUM_") else None
    return "TRITON_" + rest if rest in TRITON_NAMES else None


def getenv(env):
    """The variable env, or its Triton spelling where env is unset or empty."""
    text = os.environ.get(env)
    if not text and (alias := triton_name(env)):
        text = os.environ.get(alias)
    return text


class _Knob:
    """A data descriptor backed by one environment variable, ``key`` (or its
    Triton spelling: ``getenv``).

    ``kind`` is "bool", "int", "str" or "path" (a str with ``~`` expanded); ``default``
    is the value when the variable is unset or empty (a callable is called).
    """

    def __init__(self, env, default, kind, doc):
        self.env = self.key = env
        self.default = default
        self.kind = kind
        self.doc = doc

    def __set_name__(self, owner, name):
        self.name = name
        self.slot = "_override_" + name
        self.env_slot = "_env_before_" + name

    def raw(self, obj):
        """The value set from Python, else the variable's, else the default."""
        override = obj.__dict__.get(self.slot, _UNSET)
        if override is not _UNSET:
            return override
        text = getenv(self.env)
        if not text:
            return self.default() if callable(self.default) else self.default
        if self.kind == "bool":
            return text.strip().lower() in _TRUE
        if self.kind == "path":
            return os.path.expanduser(text)
        if self.kind == "int":
            try:
                return int(text)
            except ValueError:
                raise ValueError(f"{self.env}={text!r}: expected an integer") from None
        return text

    def __get__(self, obj, owner=None):
        return self if obj is None else self.raw(obj)

    def __set__(self, obj, value):
        obj.__dict__[self.slot] = value
        text = _as_env(value)
        if propagate_env and text is not None:
            obj.__dict__.setdefault(self.env_slot, os.environ.get(self.env))
            _setenv(self.env, text[0])

    def __delete__(self, obj):
        obj.__dict__.pop(self.slot, None)
        before = obj.__dict__.pop(self.env_slot, _UNSET)
        if before is not _UNSET:
            _setenv(self.env, before)


_UNSET = object()


class NvidiaTool:
    """A CUDA toolkit program: its ``path`` and ``version`` ("12.8")."""

    def __init__(self, path, version):
        self.path = path
        self.version = version

    def __repr__(self):
        return f"NvidiaTool(path={self.path!r}, version={self.version!r})"

    @staticmethod
    @functools.lru_cache(maxsize=None)
    def from_path(path):
        try:
            out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.SubprocessError):
            return None
        m = re.search(r"release (\d+\.\d+)", out)
        return NvidiaTool(path, m.group(1)) if m else None


def _find_tool(binary):
    """Where the CUDA toolkit's ``binary`` is, searched as the C++ core
    searches for ptxas: $CUDA_HOME/bin, $CUDA_PATH/bin, /usr/local/cuda/bin,
    then PATH."""
    dirs = [os.path.join(os.environ[v], "bin") for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
    for d in dirs + ["/usr/local/cuda/bin"]:
        path = os.path.join(d, binary)
        if os.access(path, os.X_OK):
            return path
    return shutil.which(binary)


class _ToolKnob(_Knob):
    """A toolkit program's path (``TRITIUM_<BINARY>_PATH``); reading the knob
    gives the ``NvidiaTool`` (path and version) of that path, or of the one
    found by ``_find_tool`` when unset; RuntimeError when there is none."""

    def __init__(self, binary, doc):
        super().__init__(f"TRITIUM_{binary.upper()}_PATH", None, "path", doc)
        self.binary = binary

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        path = self.raw(obj) or _find_tool(self.binary)
        tool = NvidiaTool.from_path(path) if path else None
        if tool is None:
            raise RuntimeError(f"Cannot find {self.binary}" + (f" (at {path})" if path else ""))
        return tool


def _home():
    return os.path.expanduser(getenv("TRITIUM_HOME") or "~")


def _under_home(sub):
    return lambda: os.path.join(_home(), ".tritium", sub)


class base_knobs:
    """A group of knobs (Triton's ``triton.knobs.base_knobs``)."""

    def __repr__(self):
        items = ", ".join(f"{name}={value!r}" for name, value in self.knobs.items())
        return f"<tritium.knobs.{type(self).__name__}: {items}>"

    @property
    def knob_descriptors(self):
        """Name -> descriptor of every knob of the group (``.key`` is its variable)."""
        return {k.name: k for k in self.descriptors()}

    @property
    def knobs(self):
        """Name -> current value of every knob of the group."""
        out = {}
        for name in self.knob_descriptors:
            try:
                out[name] = getattr(self, name)
            except RuntimeError as e:  # a tool that is not installed
                out[name] = e
        return out

    @classmethod
    def descriptors(cls):
        return [v for v in vars(cls).values() if isinstance(v, _Knob)]

    def copy(self):
        """Another group with the same settings."""
        other = type(self)()
        other.__dict__.update(self.__dict__)
        return other

    def reset(self):
        """Drops every setting made from Python (and puts their variables back)."""
        for k in self.descriptors():
            k.__delete__(self)
        return self

    @contextlib.contextmanager
    def scope(self):
        """Restores the group's settings and variables on exit."""
        env = {k.env: os.environ.get(k.env) for k in self.descriptors()}
        saved = dict(self.__dict__)
        try:
            yield self
        finally:
            self.__dict__.clear()
            self.__dict__.update(saved)
            for key, text in env.items():
                _setenv(key, text)


def _flag(env, doc, default=False):
    """A bool knob (on: 1, true, yes, on or y)."""
    return _Knob(env, default, "bool", doc)


class cache_knobs(base_knobs):
    home_dir = _Knob("TRITIUM_HOME", _home, "path",
                     "Base of the default cache, dump and override directories ($TRITIUM_HOME/.tritium/...).")
    dir = _Knob("TRITIUM_CACHE_DIR", _under_home("cache"), "path", "The on-disk kernel cache.")
    dump_dir = _Knob("TRITIUM_DUMP_DIR", _under_home("dump"), "path", "Where TRITIUM_KERNEL_DUMP writes every stage.")
    override_dir = _Knob("TRITIUM_OVERRIDE_DIR", _under_home("override"), "path",
                         "Where TRITIUM_KERNEL_OVERRIDE looks for replacement stages.")


class compilation_knobs(base_knobs):
    always_compile = _flag("TRITIUM_ALWAYS_COMPILE", "Never read the on-disk cache (results are still stored).")
    print_ir = _Knob("TRITIUM_DUMP_IR", "", "str", "Print the IR before and after every pass to stderr: '1' for "
                     "every kernel, or a kernel name.")
    dump_ir = _flag("TRITIUM_KERNEL_DUMP", "Write every stage of every compiled kernel to "
                    "$TRITIUM_DUMP_DIR/<hash>/<name>.<stage>.")
    override = _flag("TRITIUM_KERNEL_OVERRIDE", "Replace a stage by $TRITIUM_OVERRIDE_DIR/<hash>/<name>.<stage> "
                     "when that file exists.")
    bounds_check = _flag("TRITIUM_BOUNDS_CHECK", "Compile kernels with every load, store and atomic checked against "
                         "the tensor its pointer came from; a launch raises BoundsError for the first access "
                         "outside it (and waits for the kernel).")
    int64_offsets = _flag("TRITIUM_INT64_OFFSETS", "Compile every kernel with its offset arithmetic in i64 (the "
                          "option int64_offsets), not only those launched on a tensor of 2^31 elements or more.")
    print_stage_times = _flag("TRITIUM_PRINT_STAGE_TIMES", "Print each compile's time per stage (frontend, passes, "
                              "llir, ptxas, ...) to stderr.")
    allow_non_constexpr_globals = _flag("TRITIUM_ALLOW_NON_CONSTEXPR_GLOBALS", "Let kernels read plain "
                                        "(non-constexpr) globals; they are still part of the cache key and still "
                                        "checked for changes.")
    front_end_debugging = _flag("TRITIUM_FRONT_END_DEBUGGING", "Let an exception raised inside the frontend (a "
                                "Python error while building a kernel) propagate as it is, with its whole "
                                "traceback, instead of as a CompilationError at the kernel line.")
    disable_line_info = _flag("TRITIUM_DISABLE_LINE_INFO", "Leave the source lines out of the PTX (.loc) and the "
                              "cubin (ptxas -lineinfo), which profilers and debuggers read.")
    llvm_o3 = _flag("TRITIUM_LLVM_O3", "Optimize LLVM IR with LLVM's default<O3> instead of the backend's short "
                    "pipeline (both targets).")
    verify_each = _flag("TRITIUM_VERIFY_EACH", "Verify the IR after every pass of the tir and tgir stages (a pass "
                        "that breaks it is named); debug kernels always do. The tests set it.")
    dump_path = _Knob("TRITIUM_DUMP_PATH", None, "path", "Where TRITIUM_DUMP_IR, TRITIUM_LLVM_IR_DUMP and the "
                      "timing knobs write (appended); unset: stderr.")
    llvm_ir_dump = _flag("TRITIUM_LLVM_IR_DUMP", "Print the LLVM IR before every LLVM optimization pass.")
    pass_timing = _flag("TRITIUM_PASS_TIMING", "Print the wall time of every pass of the tir and tgir stages.")
    llvm_timing = _flag("TRITIUM_LLVM_TIMING", "Print the wall time of every LLVM optimization pass.")
    disable_llvm_opt = _Knob("TRITIUM_DISABLE_LLVM_OPT", "", "str", "1: run no LLVM optimization pipeline; other "
                             "text: LLVM command-line flags to set, such as 'disable-lsr' (part of the cache key).")
    llvm_debug_only = _Knob("TRITIUM_LLVM_DEBUG_ONLY", "", "str",
                            "LLVM's -debug-only=a,b (needs an LLVM built with assertions).")
    reproducer_path = _Knob("TRITIUM_REPRODUCER_PATH", None, "path", "A prefix: each compile writes "
                            "<prefix>.tir.repro.tir and <prefix>.tgir.repro.tir, the IR and the pipeline of those "
                            "stages' passes; where a pass fails, the IR right before it and a tritium-opt command "
                            "line that replays the failure.")


class runtime_knobs(base_knobs):
    debug = _flag("TRITIUM_DEBUG", "Compile every kernel with debug=True (device asserts, overflow checks).")
    interpret = _flag("TRITIUM_INTERPRET", "Run kernels on the host with numpy instead of compiling them (read "
                      "when a kernel is decorated and at every launch).")
    default_backend = _Knob("TRITIUM_DEFAULT_BACKEND", "cuda", "str", "The target compiled for when no GPU driver "
                            "is active: 'cuda' (cuda:90), 'hip' (hip:gfx90a) or a target such as 'cuda:80'.")
    override_arch = _Knob("TRITIUM_OVERRIDE_ARCH", None, "str", "Compile every kernel for this architecture of the "
                          "active backend, as the launch option arch= does ('sm80', '90a', 'gfx90a').")
    # Python-only hooks (no environment variable), as in triton.knobs.runtime.
    launch_enter_hook = None
    launch_exit_hook = None
    jit_post_compile_hook = None
    # Called with no arguments for a (key, digest) that joins every compile's
    # cache key, then with (backend, stages, options, language, capability)
    # once the backend has added its stages: it may read and change the
    # stage dict (compiler.compile; a stage may take (src, metadata)).
    add_stages_inspection_hook = None


class language_knobs(base_knobs):
    default_fp_fusion = _flag("TRITIUM_DEFAULT_FP_FUSION", "The default of the launch option enable_fp_fusion.",
                              default=True)
    fp32_default = _Knob("TRITIUM_F32_DEFAULT", None, "str", "The default input_precision of tl.dot on fp32 "
                         "operands (the launch option default_dot_input_precision): tf32 (the default), tf32x3, "
                         "ieee, bf16x3 or bf16x6.")


class autotuning_knobs(base_knobs):
    cache = _flag("TRITIUM_CACHE_AUTOTUNING", "Keep each autotuned key's best config on disk "
                  "($TRITIUM_CACHE_DIR/autotune), as cache_results=True does.")
    print = _flag("TRITIUM_PRINT_AUTOTUNING", "Print the best config and the tuning time of every autotuned key.")
    compile_threads = _Knob("TRITIUM_AUTOTUNING_COMPILE_THREADS", None, "int", "Threads that compile an autotuned "
                            "kernel's configs (default: one per CPU; 1 compiles them one after the other).")


class nvidia_knobs(base_knobs):
    arch = _Knob("TRITIUM_CUDA_ARCH", None, "str", "The architecture compiled for on the active CUDA GPU, such as "
                 "'90' (sm_90 without wgmma) or '80' (default: the device's compute capability, 90a on an "
                 "H100/H200).")
    ptxas = _ToolKnob("ptxas", "The ptxas binary (default: $CUDA_HOME/bin, /usr/local/cuda/bin, then PATH); the "
                      "knob reads as its path and version.")
    cuobjdump = _ToolKnob("cuobjdump", "The cuobjdump binary, found as ptxas is.")
    nvdisasm = _ToolKnob("nvdisasm", "The nvdisasm binary, found as ptxas is.")

    @property
    def ptxas_path(self):
        """The ptxas path set from Python or TRITIUM_PTXAS_PATH (None: search)."""
        return type(self).ptxas.raw(self)
    libdevice_path = _Knob("TRITIUM_LIBDEVICE_PATH", None, "path", "libdevice.10.bc (default: "
                           "$CUDA_HOME/nvvm/libdevice, then /usr/local/cuda/nvvm/libdevice).")
    backtrace = _flag("TRITIUM_BACKTRACE", "A crash in the C++ core prints a stack trace (read at import of _C).")
    ptxas_options = _Knob("TRITIUM_PTXAS_OPTIONS", "", "str", "More ptxas options, after Tritium's own (Triton's "
                          "PTXAS_OPTIONS); part of the cache key.")
    disable_ptxas_opt = _flag("TRITIUM_DISABLE_PTXAS_OPT", "Assemble with ptxas -O0 (Triton's DISABLE_PTXAS_OPT).")
    dump_ptxas_log = _flag("TRITIUM_DUMP_PTXAS_LOG", "Print ptxas's -v log of every kernel assembled (to "
                           "TRITIUM_DUMP_PATH or stderr).")
    driver_jit_bytes = _Knob("TRITIUM_DRIVER_JIT_BYTES", 16384, "int", "Kernels compiled for the CUDA device of "
                             "this process whose PTX has at most this many bytes are assembled by the driver's JIT "
                             "when loaded, not by a ptxas process (a few ms less per small kernel; asm['cubin'] "
                             "runs ptxas when read); 0: always ptxas.")
    tma = _flag("TRITIUM_TMA", "sm_90a: host-side descriptors' loads feeding wgmma are TMA copies "
                "(cp.async.bulk.tensor on mbarriers) instead of cp.async; on by default, TRITIUM_TMA=0 turns it "
                "off (docs/nvidia.md).", default=True)
    libcuda_path = _Knob("TRITIUM_LIBCUDA_PATH", None, "path", "The CUDA driver library to load: a file, or a "
                         "directory holding libcuda.so.1 (default: libcuda.so.1 on the loader's path).")


class amd_knobs(base_knobs):
    device_libs_path = _Knob("TRITIUM_ROCM_DEVICE_LIBS_PATH", None, "path", "The folder of the ROCm device "
                             "libraries (ocml.bc, ockl.bc, oclc_*.bc; default: $ROCM_PATH/amdgcn/bitcode, then the "
                             "Debian and ROCm install folders).")
    libhip_path = _Knob("TRITIUM_LIBHIP_PATH", None, "path", "The HIP runtime library to load: a file, or a "
                        "directory holding libamdhip64.so (default: libamdhip64.so on the loader's path).")


cache = cache_knobs()
compilation = compilation_knobs()
runtime = runtime_knobs()
language = language_knobs()
autotuning = autotuning_knobs()
nvidia = nvidia_knobs()
amd = amd_knobs()


# -- Fast reads for the launch path ------------------------------------------
# os.environ.get costs a key encode and a value decode (~0.3 us); the launch
# path reads the environment's own bytes dict instead (CPython keeps it in
# step with os.environ and monkeypatch.setenv).

_ENV_DATA = getattr(os.environ, "_data", None) if os.name == "posix" else None
_TRUE_BYTES = frozenset(t.encode() for t in _TRUE)


def _fast_reader(name, parse, of_knob):
    """A cheap reader of the knob ``runtime.<name>``, called on every launch:
    ``parse`` of its variable's bytes (None: unset), or ``of_knob`` of the
    knob's value where it is set from Python (or there are no bytes to read)."""
    slot, env = "_override_" + name, "TRITIUM_" + name.upper()
    key, alias = env.encode(), triton_name(env).encode()

    def read():
        if _ENV_DATA is None or slot in runtime.__dict__:
            return of_knob(getattr(runtime, name))
        return parse(_ENV_DATA.get(key) or _ENV_DATA.get(alias))
    read.__doc__ = f"``runtime.{name}``, cheaply."
    return read


def _flag_bytes(raw):
    return raw is not None and raw.strip().lower() in _TRUE_BYTES


debug_enabled = _fast_reader("debug", _flag_bytes, bool)
interpret_enabled = _fast_reader("interpret", _flag_bytes, bool)
# The device key without a GPU.
default_backend_fast = _fast_reader("default_backend", lambda raw: raw.decode() if raw else "cuda", lambda v: v)


def all_knobs():
    """Every knob as (group, attribute, environment variable, default, doc)."""
    out = []
    for group_name in ("cache", "compilation", "runtime", "language", "autotuning", "nvidia", "amd"):
        group = globals()[group_name]
        for k in group.descriptors():
            default = k.default() if callable(k.default) else k.default
            out.append((group_name, k.name, k.env, default, k.doc))
    return out
