"""Shared pieces of the runtime tests (importable from subprocesses too)."""

import numpy as np


def real_frontend():
    """The code generator's entry point, codegen.ast_to_ir."""
    from tritium.compiler import codegen
    return codegen.ast_to_ir


class CountingFrontend:
    """Wraps the code generator's ast_to_ir; ``calls`` records each call's
    (name, signature, constexprs, attrs, options)."""

    def __init__(self, inner):
        self.inner = inner
        self.calls = []

    @property
    def count(self):
        return len(self.calls)

    def __call__(self, fn, signature, constexprs, attrs, options, **kw):
        self.calls.append((fn.__name__, dict(signature), dict(constexprs), dict(attrs), options))
        return self.inner(fn, signature, constexprs, attrs, options, **kw)

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
