"""tritium.compile: a kernel (or IR text) through the stages to a CompiledKernel.

    k = tritium.compile(ASTSource(add_kernel, {"x": "*fp32", "n": "i32", "BLOCK": "constexpr"},
                                  constexprs={"BLOCK": 1024}),
                        target="cuda:90", options={"num_warps": 4})
    print(k.asm["tir"])

Each compile builds its stages, an ordered dict name -> ``fn(src, metadata,
options) -> src``: ``tir`` (the code generator's module after the pass
pipeline), then those the target's backend (``register_backend``) appends;
a compile first looks in the on-disk cache (compiler/cache.py). A stage's
name is the extension of its dump and override files and its key in
``CompiledKernel.asm``. docs/runtime.md, "compile() and its stages", tells
the whole of it; docs/knobs.md the knobs that dump, override or skip the cache.
"""

import collections
import collections.abc
import functools
import hashlib
import inspect
import json
import os
import re
import sys
import time

from .. import _C, knobs
from . import cache as _cache
from . import descriptors as _descriptors

#: The runtime's active driver (``driver.active``; runtime/driver.py sets it
#: when it loads): compile()'s default target, and CompiledKernel's launchers
#: and streams. Set from above so that the compiler imports nothing of the
#: runtime, which imports the compiler.
active_driver = None

__all__ = ["compile", "ASTSource", "IRSource", "CompiledKernel", "GPUTarget",
           "parse_target", "register_backend", "make_backend", "CompileOptions"]

# -- Targets -----------------------------------------------------------------

#: A compile target as Triton spells it, GPUTarget("cuda", 90, 32); ``name`` is
#: set only for an architecture-specific target ("sm_90a"), which str() then
#: shows: "cuda:90a". The C++ target description (ir/Target.h) decides what
#: parses and what each target is.
GPUTarget = collections.namedtuple("GPUTarget", ["backend", "arch", "warp_size", "name"],
                                   defaults=(None,))
GPUTarget.__str__ = lambda t: (f"{t.backend}:{t.name[len('sm_'):]}" if t.name and t.backend == "cuda"
                               else f"{t.backend}:{t.arch}" if t.arch != "" else t.backend)


def parse_target(target):
    """``"cuda:90"``, ``"cuda:sm_80"``, ``"cuda:90a"``, ``"hip:gfx90a"``,
    ``"cuda"`` (its default arch), a GPUTarget or a (backend, arch[,
    warp_size]) tuple -> GPUTarget; ValueError naming the accepted values
    otherwise."""
    if isinstance(target, GPUTarget):
        return target
    if isinstance(target, tuple):
        target = f"{target[0]}:{target[1]}"
    if not isinstance(target, str):
        raise TypeError(f"target must be a string such as 'cuda:90', got {target!r}")
    return _parse_target_text(target)


@functools.lru_cache(maxsize=None)
def _parse_target_text(target):
    try:
        d = _C.parse_target(target)
    except ValueError as e:
        kind = target.strip().lower().partition(":")[0]
        what = {"cuda": "unsupported CUDA target", "hip": "unsupported HIP target"}.get(kind)
        raise ValueError(f"{what} {target!r}: {e}" if what else str(e)) from None
    return GPUTarget(d["backend"], d["arch"], d["warp_size"], d["arch_name"] if d["arch_specific"] else None)


# -- Backends: compile stages per target kind --------------------------------

_backends = {}

#: How an override file of a stage is read back: stage -> fn(text or bytes).
#: ``tir`` parses into a module; a backend adds its own (binary stages get bytes).
STAGE_PARSERS = {}
BINARY_STAGES = {"cubin", "hsaco"}


def register_backend(kind, backend):
    """Registers the compile stages for targets of ``kind`` ("cuda", "hip").

    ``backend.add_stages(stages, options, target)`` appends stages after
    ``tir``; optional ``backend.options`` is a dict of extra launch options
    and their defaults (e.g. HIP's ``waves_per_eu``); optional
    ``backend.binary_ext`` names the stage holding the loadable binary;
    optional ``backend.version`` (a string) joins the cache key.
    """
    _backends[kind] = backend


def get_backend(target):
    return _backends.get(target.backend)


def make_backend(target):
    """Triton's ``make_backend``: the compile stages for ``target``, bound to
    it (``hash()``, ``parse_options()``); RuntimeError when none compiles for it."""
    target = parse_target(target)
    backend = get_backend(target)
    if backend is None:
        raise RuntimeError(f"0 compatible backends for target ({target.backend})")
    return type(backend)(target)


# -- Options -----------------------------------------------------------------

#: Launch/compile options every target accepts, with their defaults.
COMMON_OPTIONS = {
    "num_warps": 4,
    "num_stages": 3,
    "num_ctas": 1,
    "maxnreg": None,
    "enable_fp_fusion": True,
    "default_dot_input_precision": None,
    "debug": False,
    "sanitize_overflow": True,
    "launch_cooperative_grid": False,
    "launch_pdl": False,
    "extern_libs": None,
    "arch": None,
    # Offset arithmetic in i64 (widen-offsets): the launch sets it for
    # tensors of 2^31 elements or more (runtime/jit.py).
    "int64_offsets": False,
    # Every access checked against its tensor (check-bounds, runtime/bounds.py).
    "bounds_check": False,
}
#: What tl.dot's input_precision may be (frontend/Dot.cpp checks a kernel's own).
DOT_INPUT_PRECISIONS = ("tf32", "tf32x3", "ieee", "bf16x3", "bf16x6")
#: Extra options per target kind, until a backend registers its own.
TARGET_OPTIONS = {
    "cuda": {"enable_reflect_ftz": True},
    "hip": {"num_stages": 2, "waves_per_eu": 0, "matrix_instr_nonkdim": 0,
            "kpack": 1, "schedule_hint": "none"},
}


class OptionError(ValueError, AssertionError):
    """A launch option's value that Tritium rejects: a ValueError, and an
    AssertionError too, which is what Triton's option checks raise."""


class CompileOptions:
    """The options of one compile; attributes and ``opts["name"]`` both work.
    Immutable once built; ``hash()`` is stable across processes."""

    __slots__ = ("_d", "_hash")

    def __init__(self, values):
        object.__setattr__(self, "_d", dict(values))
        object.__setattr__(self, "_hash", None)

    def __getattr__(self, name):
        try:
            return self._d[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name, value):
        raise AttributeError("CompileOptions is immutable")

    def __getitem__(self, name):
        return self._d[name]

    def __contains__(self, name):
        return name in self._d

    def get(self, name, default=None):
        return self._d.get(name, default)

    def items(self):
        return self._d.items()

    def to_dict(self):
        return dict(self._d)

    def hash(self):
        if self._hash is None:
            text = json.dumps(sorted((k, _cache.stable_repr(v)) for k, v in self._d.items()))
            object.__setattr__(self, "_hash", hashlib.sha256(text.encode()).hexdigest())
        return self._hash

    def __repr__(self):
        return f"CompileOptions({self._d!r})"


def make_options(target, options=None, kernel_name="kernel"):
    """Fills defaults and checks every option; TypeError for an unknown name
    (the message names it), ValueError for a bad value."""
    defaults = {**COMMON_OPTIONS, **TARGET_OPTIONS.get(target.backend, {}),
                **(getattr(get_backend(target), "options", None) or {})}
    values = dict(defaults)
    values["enable_fp_fusion"] = knobs.language.default_fp_fusion
    values["default_dot_input_precision"] = knobs.language.fp32_default
    values["int64_offsets"] = knobs.compilation.int64_offsets
    values["bounds_check"] = knobs.compilation.bounds_check
    if knobs.runtime.override_arch:
        values["arch"] = knobs.runtime.override_arch
    if options is not None and not isinstance(options, collections.abc.Mapping):
        raise TypeError(f"options must be a dict of option names to values, got {options!r}")
    for name, value in (options or {}).items():
        if name not in defaults:
            raise TypeError(f"{kernel_name}() got an unexpected keyword argument {name!r}: "
                            f"not a parameter of the kernel nor a launch option for "
                            f"{target.backend} ({', '.join(sorted(defaults))})")
        values[name] = value
    nw = values["num_warps"]
    if not isinstance(nw, int) or nw < 1 or nw & (nw - 1) or nw > 32:
        raise OptionError(f"num_warps must be a power of 2 between 1 and 32, got {nw!r}")
    ns = values["num_stages"]
    if not isinstance(ns, int) or ns < 0:
        raise OptionError(f"num_stages must be a non-negative int, got {ns!r}")
    nc = values["num_ctas"]
    if not isinstance(nc, int) or isinstance(nc, bool) or nc < 1 or nc & (nc - 1) or nc > 16:
        raise OptionError(f"num_ctas must be a power of 2 between 1 and 16, got {nc!r}")
    if nc > 1:
        # Hopper's thread block clusters, in Triton's words where there are none.
        # Where there are, each program still runs as one CTA: the results are
        # the same (docs/runtime.md).
        if target.backend != "cuda":
            raise OptionError("num_ctas > 1 not supported for AMD GPUs")
        arch = str(values.get("arch") or target.arch)
        digits = "".join(ch for ch in arch if ch.isdigit())
        if not digits or int(digits) < 90:
            raise OptionError(f"num_ctas > 1 requires NVIDIA SM90+ (Hopper), got {arch}")
    precision = values["default_dot_input_precision"]
    if precision is not None and precision not in DOT_INPUT_PRECISIONS:
        raise OptionError(f"default_dot_input_precision must be one of {', '.join(DOT_INPUT_PRECISIONS)}, "
                          f"got {precision!r}")
    mr = values["maxnreg"]
    if mr is not None and (not isinstance(mr, int) or isinstance(mr, bool) or not 1 <= mr <= 255):
        raise OptionError(f"maxnreg must be None or an int between 1 and 255, got {mr!r}")
    if knobs.runtime.debug:
        values["debug"] = True
    return CompileOptions(values)


# -- Sources -----------------------------------------------------------------

def _param_keys(fn, table, as_name):
    """``table`` with its keys (parameter names, indices or Triton's (index,)
    tuples) as names (``as_name``) or indices."""
    out = {}
    for k, v in (table or {}).items():
        k = k[0] if isinstance(k, tuple) else k
        if as_name and isinstance(k, int):
            k = fn.arg_names[k]
        elif not as_name and isinstance(k, str):
            k = fn.arg_names.index(k)
        out[k] = v
    return out


_ATTR_ALIASES = {"tt.divisibility": "divisibility", "tt.equal_to_1": "equal_to_1"}


def specialization(fn, signature, constexprs=None, attrs=None):
    """The one reading of a specialization of the @jit function ``fn``, in
    any of the forms Triton spells it (ASTSource's arguments; the code
    generator's too) -> (signature {name: type string} in parameter order,
    constexprs {name: value}, attrs {index: {"divisibility": 16,
    "equal_to_1": True}}). Keys may be names, indices or (index,) tuples;
    attrs' values dicts or Triton's [["tt.divisibility", 16]] lists. A
    parameter given in ``constexprs``, or with a default, may be left out of
    the signature; a constexpr one left out of ``constexprs`` takes its
    default."""
    constexprs = _param_keys(fn, constexprs, as_name=True)
    sig = _param_keys(fn, signature, as_name=True)
    for name, param in zip(fn.arg_names, fn.params):
        if name not in sig and name not in constexprs and not param.has_default:
            raise TypeError(f"ASTSource({fn.__name__}): the signature gives no type "
                            f"for parameter {name!r}")
        ty = sig.setdefault(name, "constexpr")
        if ty == "constexpr" and name not in constexprs:
            if not param.has_default:
                raise TypeError(f"ASTSource({fn.__name__}): constexpr parameter {name!r} "
                                "has no value in constexprs")
            constexprs[name] = param.default
    for name in sig:
        if name not in fn.arg_names:
            raise TypeError(f"ASTSource({fn.__name__}): {name!r} is not a parameter")
    attrs = {k: {_ATTR_ALIASES.get(a, a): b for a, b in (v.items() if isinstance(v, dict) else v)}
             for k, v in _param_keys(fn, attrs, as_name=False).items()}
    return {name: sig[name] for name in fn.arg_names}, constexprs, attrs


class ASTSource:
    """A @jit function with a signature: Triton's ``ASTSource`` shape.

    ``signature`` maps parameter names (or indices) to type strings ("*fp32",
    "i32", ... or "constexpr"); ``constexprs`` and ``attrs`` as
    ``specialization`` reads them: ``attrs`` maps an argument to
    {"divisibility": 16} and/or {"equal_to_1": True}.
    """

    ext = "py"
    making_ir = "frontend"  # its time's name in compile_times

    def __init__(self, fn, signature, constexprs=None, attrs=None):
        self.fn = fn
        self.signature, self.constexprs, self.attrs = specialization(fn, signature, constexprs, attrs)
        # @jit(repr=...) names the kernel from this specialization (its
        # signature and constants), as Triton's does.
        self.name = fn.repr(self) if callable(getattr(fn, "repr", None)) else fn.__name__

    @property
    def constants(self):
        """{name: value} of the constexpr parameters and of the ints
        specialized as equal to 1 (Triton's ``ASTSource.constants``)."""
        ones = {self.fn.arg_names[i]: 1 for i, a in self.attrs.items() if a.get("equal_to_1")}
        return {**ones, **self.constexprs}

    def hash(self):
        text = "|".join([
            self.fn.cache_key,
            json.dumps(self.signature),
            _cache.stable_repr(sorted(self.constexprs.items())),
            _cache.stable_repr(sorted(self.attrs.items())),
        ])
        return hashlib.sha256(text.encode()).hexdigest()

    def make_ir(self, options):
        return _frontend()(self.fn, self.signature, self.constexprs, self.attrs, options, name=self.name)

    def source_text(self):
        return self.fn.src


class IRSource:
    """Tritium IR text (a ``.tir`` file or a string); it is the ``tir`` stage:
    parsed and verified, then handed to the later stages unchanged."""

    ext = "tir"
    making_ir = "parse"

    def __init__(self, text, path=None):
        self.text = text
        self.path = path
        m = (re.search(r"\bkernel\s+@([A-Za-z_$.][\w$.]*)", text)
             or re.search(r"\bfunc\s+@([A-Za-z_$.][\w$.]*)", text))
        self.name = m.group(1) if m else (
            os.path.splitext(os.path.basename(path))[0] if path else "kernel")

    def hash(self):
        return hashlib.sha256(self.text.encode()).hexdigest()

    def make_ir(self, options):
        return parse_verified(self.text, self.path or "<tir>")

    def source_text(self):
        return None


def _as_source(src):
    if isinstance(src, (ASTSource, IRSource)):
        return src
    if isinstance(src, os.PathLike) or (isinstance(src, str) and "\n" not in src
                                        and src.endswith(".tir")):
        path = os.fspath(src)
        with open(path) as f:
            return IRSource(f.read(), path)
    if isinstance(src, str):
        return IRSource(src)
    raise TypeError(f"tritium.compile: src must be an ASTSource, a .tir path or IR text, "
                    f"got {type(src).__name__}")


# -- The frontend and the tir stage ------------------------------------------

#: The code generator entry point; None means ``codegen.ast_to_ir``. Tests
#: may set it to a wrapper that counts compiles.
ast_to_ir = None


def _frontend():
    if ast_to_ir is not None:
        return ast_to_ir
    from . import codegen
    return codegen.ast_to_ir


def tir_pipeline(options=None):
    """The passes the ``tir`` stage runs: the core's default pipeline
    (``_C.ir.default_pipeline()``, codegen/Passes.cpp; with widen-offsets
    for the ``int64_offsets`` option), then check-bounds for
    ``bounds_check``. The stage verifies the module after the last
    (runStagePipeline)."""
    wide = bool(options and options.get("int64_offsets"))
    checks = ["check-bounds"] if options and options.get("bounds_check") else []
    return _C.ir.default_pipeline(wide).split(",") + checks


def _wants_dump(setting, name):
    return bool(setting) and (setting.strip().lower() in ("1", "true", "yes", "on", "all")
                              or name in setting.split(","))


def _call_stage(fn, value, metadata, options):
    """A stage's function with (value, metadata, options), or (value,
    metadata) where it takes two, as Triton's stages do (an inspection hook
    may put such a one in)."""
    try:
        two = len(inspect.signature(fn).parameters) == 2
    except (TypeError, ValueError):
        two = False
    return fn(value, metadata) if two else fn(value, metadata, options)


_LLVM_FLAGS_SET = set()


def llvm_flags():
    """The LLVM command-line flags the knobs ask (TRITIUM_DISABLE_LLVM_OPT
    other than 1, TRITIUM_LLVM_DEBUG_ONLY); they join the cache key."""
    flags = [] if knobs.compilation.disable_llvm_opt in ("", "0", "1") else [
        knobs.compilation.disable_llvm_opt]
    if knobs.compilation.llvm_debug_only:
        flags.append("-debug-only=" + knobs.compilation.llvm_debug_only)
    return " ".join(flags)


def debug_options(name):
    """What the debugging knobs ask of the C++ stages for kernel ``name``
    (codegen/DebugOptions.h): dumps, timings, LLVM's flags, the reproducer."""
    c = knobs.compilation
    return {"dump_ir": _wants_dump(c.print_ir, name), "kernel": name,
            "pass_timing": bool(c.pass_timing), "dump_path": c.dump_path or "",
            "reproducer": c.reproducer_path or "", "dump_llvm_ir": bool(c.llvm_ir_dump),
            "llvm_timing": bool(c.llvm_timing), "disable_llvm_opt": c.disable_llvm_opt == "1",
            "llvm_flags": llvm_flags()}


def _make_tir_stage(name, timings):
    def tir(module, metadata, options):
        passes = tir_pipeline(options)
        metadata["pipeline"] = passes
        t0 = time.perf_counter()
        verify_each = bool(options.get("debug") or knobs.compilation.verify_each)
        module.run_stage_passes("tir", ",".join(passes), verify_each, debug_options(name))
        timings["passes"] = time.perf_counter() - t0
        return module
    return tir


def parse_verified(text, name):
    """IR text as a verified module (what every stage may assume), or
    CompilationError."""
    module = _C.ir.parse_module(text, name)
    module.verify()
    return module


STAGE_PARSERS["tir"] = lambda text: parse_verified(text, "<override>")


# -- CompiledKernel ----------------------------------------------------------

_metadata_types = {}


def _metadata_tuple(d):
    fields = tuple(d)
    cls = _metadata_types.get(fields)
    if cls is None:
        cls = collections.namedtuple("KernelMetadata", fields)
        _metadata_types[fields] = cls
    values = dict(d)
    if isinstance(values.get("target"), (list, tuple)):
        values["target"] = GPUTarget(*values["target"])
    return cls(**values)


class _Asm(dict):
    """A kernel's stages by name. A binary the compile left to the driver's
    JIT (backends/cuda.py: small kernels) is made on its first
    ``asm[name]``; ``get`` and ``in`` see only what was compiled."""

    def __init__(self, stages, target):
        super().__init__(stages)
        self._target = target

    def __missing__(self, stage):
        backend = _backends.get(self._target.backend)
        if stage != getattr(backend, "binary_ext", None) or not hasattr(backend, "assemble"):
            raise KeyError(stage)
        self[stage] = backend.assemble(self, self._target)
        return self[stage]


class CompiledKernel:
    """One compiled kernel: ``asm`` (stage name -> text or bytes), ``metadata``
    (a namedtuple: name, hash, target, num_warps, num_stages, shared, debug,
    signature, ...), and the launcher the active driver makes on first run."""

    #: Set by JITFunction: the parameter indices passed to the launcher.
    _arg_indices = ()
    #: Set by JITFunction for a bounds_check kernel (runtime/bounds.py).
    _bounds = None

    def __init__(self, asm, metadata, metadata_group=None, module=None, src=None):
        self.metadata = _metadata_tuple(metadata)
        self.asm = _Asm(asm, self.metadata.target)
        self.metadata_group = metadata_group or {}
        self.module = module
        self.src = src
        self.name = metadata["name"]
        self.hash = metadata["hash"]
        self.target = self.metadata.target
        self.target_str = f"{self.target.backend}:{self.target.arch}"
        self.compile_times = {}
        self.launcher = None
        # The driver's make_launcher sets them again from the loaded binary.
        self.n_regs = metadata.get("n_regs")
        self.n_spills = metadata.get("n_spills")
        self.n_max_threads = metadata.get("n_max_threads")

    @property
    def kernel(self):
        """The loadable binary (cubin/hsaco bytes), or None without a backend."""
        backend = _backends.get(self.target.backend)
        ext = getattr(backend, "binary_ext", None)
        try:
            return self.asm[ext] if ext else None
        except KeyError:  # none made, and none can be
            return None

    def make_launcher(self, driver=None):
        """Asks ``driver`` (default: the active one) for this kernel's
        launcher (the backend hook); raises NoBackendError when there is none."""
        self.launcher = (driver or active_driver).make_launcher(self)
        return self.launcher

    def _init_handles(self):
        """Triton's name for loading the binary on the current device: fills
        ``n_regs``, ``n_spills`` and ``n_max_threads`` from the loaded
        kernel, raises OutOfResources when it does not fit (NoBackendError
        without a GPU)."""
        if self.launcher is None:
            self.make_launcher()

    def run(self, grid_x, grid_y, grid_z, stream, *args):
        """Launches with the kernel's non-constexpr arguments in order."""
        launcher = self.launcher or self.make_launcher()
        return launcher(grid_x, grid_y, grid_z, stream, args)

    def _runtime_args(self, args):
        """What the launcher takes, from every parameter in order (constexprs
        too, as Triton's ``kernel[grid](...)`` takes them) or from the
        non-constexpr ones; host-side descriptors expanded."""
        sig = self.metadata.signature
        if sig is None:  # compiled from IR text: the arguments as given
            return args
        kinds = list(sig.values())
        keep = [i for i, t in enumerate(kinds) if t != "constexpr"]
        if len(args) == len(kinds):
            args = tuple(args[i] for i in keep)
        elif len(args) != len(keep):
            raise TypeError(f"{self.name}[grid](): takes the kernel's {len(kinds)} arguments "
                            f"(or its {len(keep)} non-constexpr ones), got {len(args)}")
        return _descriptors.expand_descriptors(args)

    def __getitem__(self, grid):
        grid = tuple(grid) + (1,) * (3 - len(grid))

        def launch(*args, stream=None):
            if stream is None:
                stream = active_driver.get_current_stream(active_driver.get_current_device())
            return self.run(grid[0], grid[1], grid[2], stream, *self._runtime_args(args))
        return launch

    def launch_metadata(self, grid, stream, *args):
        return {"name": self.name, "grid": grid, "stream": stream}

    def __repr__(self):
        return f"<CompiledKernel {self.name} {self.target_str} {self.hash[:12]}>"


# -- compile() ---------------------------------------------------------------

def _stage_file(name, stage):
    return f"{name}.{'py' if stage == 'source' else stage}"


def _print_times(name, key, timings, cached):
    parts = [f"{k} {v * 1e3:.2f} ms" for k, v in timings.items()]
    where = "disk cache hit, " if cached else ""
    print(f"[tritium] compile {name} {key[:12]}: {where}" + ", ".join(parts), file=sys.stderr)


def _read_override(name, key, stage):
    path = os.path.join(knobs.cache.override_dir, key, _stage_file(name, stage))
    if not os.path.exists(path):
        return None
    if stage in BINARY_STAGES:
        with open(path, "rb") as f:
            return f.read()
    with open(path) as f:
        text = f.read()
    parse = STAGE_PARSERS.get(stage)
    return parse(text) if parse else text


def _dump(name, key, stage, value):
    d = os.path.join(knobs.cache.dump_dir, key)
    os.makedirs(d, exist_ok=True)
    _cache.write_atomic(os.path.join(d, _stage_file(name, stage)),
                        value if isinstance(value, bytes) else str(value).encode())


def _as_asm(value):
    return value if isinstance(value, (bytes, str)) else str(value)


def compile(src, target=None, options=None):
    """Compiles ``src`` (an ASTSource, a .tir path or IR text) for ``target``
    ("cuda:90", "cuda:80", "hip:gfx90a", a GPUTarget; default: the active
    driver's) with ``options`` (a dict of launch options) -> CompiledKernel."""
    t_start = time.perf_counter()
    src = _as_source(src)
    if target is None:
        target = active_driver.get_current_target()
    target = parse_target(target)
    if not isinstance(options, CompileOptions):
        options = make_options(target, options, src.name)
    if options.get("arch"):
        target = parse_target(f"{target.backend}:{options['arch']}")
    backend = get_backend(target)
    name = src.name

    hook = knobs.runtime.add_stages_inspection_hook
    flags = llvm_flags()
    if flags:
        _LLVM_FLAGS_SET.add(flags)
    # LLVM's flags stay set for the rest of the process once set: every
    # later key carries them.
    llvm_changes = (" no-llvm-opt" if knobs.compilation.disable_llvm_opt == "1" else "") + "".join(
        f" llvm {f}" for f in sorted(_LLVM_FLAGS_SET))
    key = _cache.compile_key(src.hash(), options.hash(), str(target),
                             getattr(backend, "version", "") + llvm_changes + (f"|{hook()}" if hook else ""))
    c = knobs.compilation
    override, dump = c.override, c.dump_ir
    read_cache = not (c.always_compile or override or dump or _wants_dump(c.print_ir, name)
                      or c.llvm_ir_dump or c.pass_timing or c.llvm_timing
                      or knobs.nvidia.dump_ptxas_log)
    manager = _cache.FileCacheManager(key)
    timings = {"key": time.perf_counter() - t_start}  # the first one hashes the compiler
    files = manager.load() if read_cache else None
    kernel = _from_cache_files(files, manager) if files is not None else None
    if kernel is not None:
        timings["load"] = time.perf_counter() - t_start - timings["key"]
        kernel.compile_times = timings
        if knobs.compilation.print_stage_times:
            _print_times(name, key, kernel.compile_times, True)
        return kernel

    metadata = {
        "name": name,
        "hash": key,
        "target": list(target),
        "tritium_version": _cache.package_version(),
        **options.to_dict(),
        "warp_size": target.warp_size,
        "shared": 0,
        "signature": getattr(src, "signature", None),
        "equal_to_1": sorted(i for i, a in getattr(src, "attrs", {}).items()
                             if a.get("equal_to_1")),
        **dict.fromkeys(("n_regs", "n_spills", "n_max_threads")),
    }
    metadata.pop("extern_libs", None)
    if options.get("bounds_check") and metadata["signature"] is not None:
        # The launcher passes check-bounds' hidden parameters too.
        metadata["signature"] = {**metadata["signature"],
                                 **dict(_descriptors.bounds_parameters(metadata["signature"]))}
    stages = {"tir": _make_tir_stage(name, timings)}
    if backend is not None:
        backend.add_stages(stages, options, target)
    if hook is not None:
        hook(backend, stages, options, "triton", target.arch)

    asm = {}
    if src.source_text() is not None:
        asm["source"] = src.source_text()
    t0 = time.perf_counter()
    module = src.make_ir(options)
    timings[src.making_ir] = time.perf_counter() - t0
    names = list(stages)
    first = names.index(src.ext) + 1 if src.ext in stages else 0
    if first:
        asm[src.ext] = _as_asm(module)
    if dump:
        for stage, text in asm.items():
            _dump(name, key, stage, text)
    value = module
    tir_module = module
    for stage in names[first:]:
        replaced = _read_override(name, key, stage) if override else None
        if replaced is not None:
            value = replaced
        else:
            t0 = time.perf_counter()
            value = _call_stage(stages[stage], value, metadata, options)
            if stage not in timings and stage != "tir":
                timings[stage] = time.perf_counter() - t0
            if value is None:  # a binary left to the loader (the driver's JIT)
                break
        asm[stage] = _as_asm(value)
        if stage == "tir":
            tir_module = value
        if dump:
            _dump(name, key, stage, asm[stage])
    metadata["stages"] = list(asm)

    files = {_stage_file(name, stage): text for stage, text in asm.items()}
    files[_stage_file(name, "json")] = json.dumps(metadata, default=str)
    t0 = time.perf_counter()
    group = {} if override else manager.store(files)
    timings["store"] = time.perf_counter() - t0
    timings["total"] = time.perf_counter() - t_start
    kernel = CompiledKernel(asm, metadata, group, module=tir_module, src=src)
    kernel.compile_times = timings
    if knobs.compilation.print_stage_times:
        _print_times(name, key, timings, False)
    return kernel


def _from_cache_files(files, manager):
    meta = [f for f in files if f.endswith(".json")]
    if len(meta) != 1:
        manager.discard()
        return None
    try:
        metadata = json.loads(files[meta[0]])
        name = metadata["name"]
        asm = {}
        for stage in metadata["stages"]:
            data = files[_stage_file(name, stage)]
            asm[stage] = data if stage in BINARY_STAGES else data.decode()
    except (KeyError, ValueError, UnicodeDecodeError):
        manager.discard()
        return None
    return CompiledKernel(asm, metadata, manager.paths(files))
