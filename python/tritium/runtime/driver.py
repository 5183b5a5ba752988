"""The runtime's one seam to a GPU: the active driver.

Everything that touches a device goes through ``driver.active``, an object
with the methods of ``Driver`` below: the first registered driver
(``register``) that is active, else a ``NullDriver``, with which kernels
compile (for the target TRITIUM_DEFAULT_BACKEND names) and launching or
benchmarking raises ``NoBackendError``. The compile stages are registered
apart (``compiler.register_backend``): compiling needs no device.
docs/runtime.md, "What a GPU backend fills in", says what a driver provides;
the CUDA and HIP drivers are runtime/cuda.py and runtime/hip.py, over
runtime/native.py.
"""

import sys

from .. import knobs
from ..compiler import compiler as _compiler

__all__ = ["Driver", "NullDriver", "NoBackendError", "register", "active", "set_active",
           "reset_active", "driver"]


class NoBackendError(RuntimeError):
    """Raised when a kernel must run (or be timed) and no GPU backend is active."""


_NO_BACKEND = (
    "no GPU backend available: tritium compiled '{name}' for {target} but cannot "
    "{what} it. Use kernel.warmup(...)/tritium.compile(...) to compile only, or "
    "TRITIUM_INTERPRET=1 to run kernels on the CPU")


class Driver:
    """The interface of a GPU backend's driver: ``is_active()`` (its library
    loads and sees a device), ``get_current_target()``, ``get_current_device()``
    (hashable: it keys the per-device caches), ``get_current_stream(device)``,
    ``make_launcher(kernel)`` (loads the binary, fills ``kernel.n_regs`` and
    ``n_spills``, raises OutOfResources; returns ``launch(gx, gy, gz, stream,
    args)``, ``args`` the non-constexpr arguments in parameter order, and an
    empty grid launches nothing) and ``benchmark`` (events-based do_bench). A
    ``native_driver`` (a ``_C.runtime`` driver, as CudaDriver and HipDriver
    have) lets the C++ dispatcher find the device and stream itself; any
    other driver is asked through Python on each warm launch.

    Beside it, the host surface of Triton's drivers, which programs written
    for Triton call: ``get_active_torch_device()``, ``set_current_device(i)``,
    ``get_device_interface()`` (torch.cuda), ``get_benchmarker()``
    (do_bench) and ``utils.get_device_properties(device)``."""

    def is_active(self):
        return False

    def get_current_target(self):
        raise NotImplementedError

    def get_current_device(self):
        raise NotImplementedError

    def get_current_stream(self, device):
        raise NotImplementedError

    def make_launcher(self, kernel):
        raise NotImplementedError

    def benchmark(self, fn, quantiles=None, warmup=25, rep=100, return_mode="mean"):
        raise NotImplementedError

    def get_benchmarker(self):
        return do_bench


_RETURN_MODES = ("min", "max", "mean", "median", "all")


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="mean"):
    """Runtime of ``fn()`` in milliseconds: one value (``return_mode``:
    "min", "max", "mean", "median", "all") or the given ``quantiles``
    (``tritium.testing.do_bench``; here, beside the drivers that time it)."""
    assert return_mode in _RETURN_MODES
    if grad_to_none is not None:
        inner = fn

        def fn():
            for x in grad_to_none:
                x.grad = None
            return inner()
    return active.get().benchmark(fn, quantiles=quantiles, warmup=warmup, rep=rep, return_mode=return_mode)


def _needs_a_device(what):
    return NoBackendError(f"no GPU backend available: {what} needs a GPU and its driver (libcuda "
                          "or libamdhip64 with a device); without one tritium compiles kernels "
                          "but cannot run them (TRITIUM_INTERPRET=1 runs them on the CPU)")


class _NoDeviceUtils:
    """``NullDriver().utils``: every query needs a device."""

    def get_device_properties(self, device=None):
        raise _needs_a_device("driver.active.utils.get_device_properties()")


class NullDriver(Driver):
    """The driver when no GPU backend is active: compile-only."""

    def is_active(self):
        return True

    def get_current_target(self):
        return _compiler.parse_target(knobs.runtime.default_backend)

    def get_current_device(self):
        # The per-device caches are keyed by the target text, so changing
        # TRITIUM_DEFAULT_BACKEND between launches compiles for the new one.
        return knobs.default_backend_fast()

    def get_current_stream(self, device):
        return 0

    def make_launcher(self, kernel):
        raise NoBackendError(_NO_BACKEND.format(
            name=kernel.name, target=kernel.target_str, what="launch"))

    def benchmark(self, fn, quantiles=None, warmup=25, rep=100, return_mode="mean"):
        raise NoBackendError(_NO_BACKEND.format(
            name=getattr(fn, "__name__", "the function"),
            target=knobs.runtime.default_backend, what="benchmark"))

    utils = _NoDeviceUtils()

    def get_active_torch_device(self):
        raise _needs_a_device("driver.active.get_active_torch_device()")

    def set_current_device(self, device):
        raise _needs_a_device("driver.active.set_current_device()")

    def get_device_interface(self):
        raise _needs_a_device("driver.active.get_device_interface()")


_registered = []


def host_driver(args):
    """The cpu driver, for a launch where no GPU driver is active and every
    tensor among ``args`` is host memory (torch CPU tensors, numpy arrays,
    host-side descriptors of them): ``kernel[grid]`` on CPU tensors runs
    compiled on the cpu target (docs/cpu.md). None otherwise."""
    devices = [d for d in map(_tensor_device, args) if d is not None]
    if not devices or any(d != "cpu" for d in devices):
        return None
    return next((d for d in _registered if getattr(d, "runs_on_host", False)), None)


def _tensor_device(a):
    """"cpu" for host memory, another word for a device's, None for what is
    not a tensor (or cannot say where it lives)."""
    base = getattr(a, "base", None)  # a host-side descriptor (TensorDescriptor)
    if base is not None and hasattr(a, "block_shape"):
        return _tensor_device(base)
    if hasattr(a, "__array_interface__") and not hasattr(a, "data_ptr"):
        return "cpu"  # a numpy array
    device = getattr(a, "device", None)
    if hasattr(a, "data_ptr") and device is not None:
        return getattr(device, "type", str(device))
    return "unknown" if hasattr(a, "data_ptr") else None


class _Active:
    """``driver.active``: forwards to the first registered driver that is
    active, else to a NullDriver; chosen on first use and kept."""

    def __init__(self):
        self._obj = None

    def _pick(self):
        for drv in _registered:
            try:
                if drv.is_active():
                    return drv
            except Exception:  # a broken driver must not stop compile-only use
                continue
        return NullDriver()

    def get(self):
        if self._obj is None:
            self._obj = self._pick()
        return self._obj

    def set(self, drv):  # None: choose again at the next use
        self._obj = drv

    def reset(self):
        self._obj = None

    def __getattr__(self, name):
        return getattr(self.get(), name)


active = _Active()


def register(drv):
    """Adds a backend's driver; it becomes active if it reports a device."""
    _registered.append(drv)
    active.reset()


def set_active(drv):
    """Forces ``drv`` (e.g. a test's fake driver) as the active driver;
    ``set_active(None)`` goes back to choosing among registered drivers."""
    active.set(drv)


def reset_active():
    """Triton's name for ``set_active(None)``."""
    active.reset()


# The compiler's CompiledKernel launches through the active driver, and
# compile() takes its target by default.
_compiler.active_driver = active

#: Triton's ``from triton.runtime.driver import driver`` gives an object with
#: ``active`` and ``set_active``; here that object is this module.
driver = sys.modules[__name__]
