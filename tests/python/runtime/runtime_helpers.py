"""Shared pieces of the runtime tests (importable from subprocesses too)."""

import types

import numpy as np

try:
    import tritium.language as tl
    tl.constexpr  # noqa: B018
except (ImportError, AttributeError):  # the language is not there yet
    class constexpr:  # noqa: N801
        def __init__(self, value):
            self.value = value

    tl = types.SimpleNamespace(constexpr=constexpr)


_IR_TYPES = {"i1": "i1", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64",
             "u8": "i8", "u16": "i16", "u32": "i32", "u64": "i64", "fp16": "f16",
             "bf16": "bf16", "fp32": "f32", "fp64": "f64", "fp8e4nv": "f8e4m3",
             "fp8e5": "f8e5m2"}


def stub_ast_to_ir(fn, signature, constexprs, attrs, options):
    """Stands in for codegen.ast_to_ir until it lands: an empty kernel with
    the signature's arguments."""
    from tritium.compiler.compiler import _ir_api
    args = []
    for i, (name, ty) in enumerate(signature.items()):
        if ty == "constexpr":
            continue
        ir_ty = (f"ptr<{_IR_TYPES[ty.lstrip('*k')]}>" if ty.startswith("*")
                 else _IR_TYPES[ty])
        attr = " {divisibility=16}" if attrs.get(i, {}).get("divisibility") else ""
        args.append(f"%{name}: {ir_ty}{attr}")
    text = f"kernel @{fn.__name__}({', '.join(args)}) {{\nentry:\n  ret\n}}\n"
    return _ir_api().parse_module(text, fn.__name__)


def real_or_stub_frontend():
    """The code generator's ast_to_ir once it exists, else the stub."""
    try:
        from tritium.compiler import codegen
        return codegen.ast_to_ir
    except ImportError:
        return stub_ast_to_ir


class CountingFrontend:
    """Wraps the code generator's ast_to_ir; ``calls`` records each call's
    (name, signature, constexprs, attrs, options)."""

    def __init__(self, inner):
        self.inner = inner
        self.calls = []

    @property
    def count(self):
        return len(self.calls)

    def __call__(self, fn, signature, constexprs, attrs, options):
        self.calls.append((fn.__name__, dict(signature), dict(constexprs), dict(attrs), options))
        return self.inner(fn, signature, constexprs, attrs, options)

    @property
    def last(self):
        return self.calls[-1]


class FakeDriver:
    """A GPU driver that records launches (runtime/driver.py's interface)."""

    def __init__(self, target="cuda:90"):
        from tritium.compiler.compiler import parse_target
        self.target = parse_target(target)
        self.launches = []
        self.loaded = []

    def is_active(self):
        return True

    def get_current_target(self):
        return self.target

    def get_current_device(self):
        return 0

    def get_current_stream(self, device):
        return 7

    def make_launcher(self, kernel):
        self.loaded.append(kernel)
        kernel.n_regs, kernel.n_spills = 32, 0

        def launch(gx, gy, gz, stream, args):
            self.launches.append(((gx, gy, gz), stream, args, kernel))
        return launch

    def benchmark(self, fn, quantiles=None, warmup=25, rep=100, return_mode="mean"):
        fn()
        return [1.0, 1.0, 1.0] if quantiles else 1.0


class FakeTensor:
    """Just enough of a tensor: data_ptr() and dtype (numpy-backed)."""

    def __init__(self, n, dtype="float32", offset_bytes=0):
        self.array = np.zeros(n, dtype=dtype)
        self.dtype = self.array.dtype
        self._ptr = 0x7F0000000000 + offset_bytes
        self.zeroed = 0

    def data_ptr(self):
        return self._ptr

    def zero_(self):
        self.zeroed += 1
        self.array[:] = 0

    def clone(self):
        c = FakeTensor(self.array.size, self.array.dtype)
        c.array[:] = self.array
        return c

    def copy_(self, other):
        self.array[:] = other.array


class CudaArray:
    """An object exposing only __cuda_array_interface__."""

    def __init__(self, ptr, typestr="<f2"):
        self.__cuda_array_interface__ = {"data": (ptr, False), "typestr": typestr,
                                         "shape": (4,), "version": 3}


def load_module(directory, name, source):
    """Writes ``source`` to ``directory/name.py`` and imports it (fresh)."""
    import importlib.util
    import sys
    path = directory / f"{name}.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
