"""What the CUDA and HIP drivers share: runtime/driver.py's ``Driver`` over a
``tritium._C.runtime`` driver (runtime/GPUDriver.h), which loads its library
with dlopen on first use; without it (or without a device) ``is_active()``
is False and the NullDriver stays active. ``make_launcher`` returns a
``_C.runtime.Launcher``, which packs arguments and launches in C++
(docs/runtime.md tells the device, stream and launch rules). A subclass
says which library (``_native_class``, ``_default_path``), how a device's
target is named (``get_current_target``) and which stage is the binary
(``_image``).
"""

import atexit
import statistics
import sys

from .. import _C
from ..compiler.descriptors import launch_parameters
from . import driver as _driver

__all__ = ["NativeDriver", "DeviceUtils", "summarize"]

#: Bytes written between timed runs to flush the L2 cache (Triton's do_bench).
FLUSH_BYTES = 256 * 1024 * 1024

_flush_buffers = {}  # (api, library path, device) -> device address

# Launchers stop unloading their modules at exit: the driver may be gone by
# the time they are destroyed.
atexit.register(_C.runtime.shutdown)


class DeviceUtils:
    """``driver.active.utils`` of Triton's drivers: the device queries."""

    def __init__(self, driver):
        self._driver = driver

    def get_device_properties(self, device=None):
        """The device's limits under Triton's keys (``max_shared_mem``,
        ``max_num_regs``, ``multiprocessor_count``, ``warpSize``,
        ``sm_clock_rate`` and ``mem_clock_rate`` in kHz, ``mem_bus_width``
        in bits) and Tritium's others (``major``, ``minor``, ``name``, ...).
        ``device`` is an index or a torch.device; None: the current one."""
        index = getattr(device, "index", device)
        return dict(self._driver.properties(index))


class _AlsoOnClass:
    """A method that also answers on the class, for a driver with the default
    library: Triton's ``is_active`` is a static method, and torch._inductor
    calls ``triton.backends.backends[...].driver.is_active()``."""

    def __init__(self, fn):
        self.fn = fn

    def __get__(self, obj, owner=None):
        return self.fn.__get__(owner() if obj is None else obj, owner)


class NativeDriver(_driver.Driver):
    """A GPU driver over a ``_C.runtime`` driver; ``path`` overrides the
    library knob (a file, or a directory holding the library)."""

    #: The _C.runtime class's name ("Driver", "HipDriver").
    _native_class = None
    #: The library loaded when no path is given.
    _library = None

    def __init__(self, path=None):
        self._path = path
        self._lib = None
        self._targets = {}
        self._properties = {}

    def __repr__(self):
        path = self._lib.path if self._lib is not None else self._path
        return f"<{type(self).__name__} {path or self._library}>"

    def _default_path(self):
        """The library knob's value ('' for the loader's search path)."""
        raise NotImplementedError

    def _image(self, kernel):
        """The binary ``make_launcher`` loads, or None."""
        raise NotImplementedError

    # -- the library -----------------------------------------------------------

    @property
    def native_driver(self):
        """The ``_C.runtime`` driver; JITFunction's dispatcher uses it to find
        the device and stream without calling back into Python."""
        if self._lib is None:
            path = self._path if self._path is not None else self._default_path()
            self._lib = getattr(_C.runtime, self._native_class)(path or "")
        return self._lib

    def load_error(self):
        """Why the library cannot be used ('' when it can)."""
        ok, why = self.native_driver.load()
        return "" if ok else why

    # -- Driver ------------------------------------------------------------------

    @_AlsoOnClass
    def is_active(self):
        try:
            lib = self.native_driver
        except (ImportError, AttributeError):  # an extension without _C.runtime
            return False
        ok, _ = lib.load()
        return ok and lib.device_count() > 0

    def properties(self, device=None):
        """The device's limits and name (see the subclass)."""
        if device is None:
            device = self.get_current_device()
        props = self._properties.get(device)
        if props is None:
            props = self._properties[device] = self.native_driver.properties(device)
        return props

    def get_current_device(self):
        return self.native_driver.current_device()

    def get_current_stream(self, device=None):
        return self.native_driver.current_stream(self.get_current_device() if device is None else device)

    def set_current_device(self, device):
        """Makes ``device`` current: torch's (torch.cuda.set_device) when torch
        is imported, whose device Tritium follows, else the driver's."""
        torch = sys.modules.get("torch")
        if torch is not None:
            torch.cuda.set_device(device)
        else:
            self.native_driver.set_current_device(device)

    def get_active_torch_device(self):
        """``torch.device("cuda", current device)`` (ROCm's torch names its GPUs "cuda" too)."""
        import torch
        return torch.device("cuda", self.get_current_device())

    def get_device_interface(self):
        import torch
        return torch.cuda

    @property
    def utils(self):
        return DeviceUtils(self)

    def make_launcher(self, kernel):
        md = kernel.metadata
        image = self._image(kernel)
        if not image:  # compiled without this backend's stages
            raise _driver.NoBackendError(_driver._NO_BACKEND.format(
                name=kernel.name, target=kernel.target_str, what="launch") +
                f" (it has no binary for {self.native_driver.api})")
        signature = md.signature
        if signature is None:
            raise TypeError(f"kernel {kernel.name!r} has no signature (compiled from IR text?): "
                            "a launch needs the type of every argument")
        # A host-side descriptor is what TensorDescriptor.expand passes:
        # base, shapes, strides but the last (and a tensor map).
        params = launch_parameters(signature)
        indices, names, types = ([p[k] for p in params] for k in range(3))
        device = self.get_current_device()
        launcher = self.native_driver.load_kernel(
            image, md.name, types, names, indices, md.num_warps, self._dynamic_shared(md), device,
            kernel.name, bool(getattr(md, "debug", False)), md.target.warp_size,
            # The launch options travel with the compiled kernel (they are
            # part of its key): its launcher always makes the same call.
            cooperative=bool(getattr(md, "launch_cooperative_grid", False)),
            pdl=bool(getattr(md, "launch_pdl", False)))
        kernel.n_regs = launcher.n_regs
        kernel.n_spills = launcher.n_spills
        kernel.n_max_threads = launcher.n_max_threads
        return launcher

    def _dynamic_shared(self, md):
        """The dynamic shared memory a launch passes: all of it on CUDA."""
        return md.shared or 0

    # -- timing --------------------------------------------------------------------

    def synchronize(self, device=None):
        self.native_driver.synchronize(self.get_current_device() if device is None else device)

    def _flush_cache(self, device, stream):
        """Overwrites a 256 MB buffer on ``stream`` (Triton's do_bench cache
        flush) with the driver's memset; one buffer per library and device
        for the whole process. (Triton zeroes a torch tensor; the driver's own
        memset does the same without torch, and with a driver other than
        torch's, such as the tests' fakes.)"""
        lib = self.native_driver
        key = (lib.api, lib.path, device)
        buf = _flush_buffers.get(key)
        if buf is None:
            buf = _flush_buffers[key] = lib.mem_alloc(FLUSH_BYTES, device)
        lib.memset_d8(buf, 0, FLUSH_BYTES, stream)

    def benchmark(self, fn, quantiles=None, warmup=25, rep=100, return_mode="mean"):
        """Triton's do_bench: times ``fn()`` with events on the current
        stream, flushing the L2 cache before every timed run; ``warmup`` and
        ``rep`` are budgets in milliseconds. Returns the ``return_mode``
        statistic of the times (ms), or the ``quantiles`` of them."""
        assert return_mode in ("min", "max", "mean", "median", "all")
        lib = self.native_driver
        device = self.get_current_device()
        stream = self.get_current_stream(device)
        fn()
        lib.synchronize(device)

        # Estimate the time of one run from five.
        start, end = lib.event_create(), lib.event_create()
        try:
            lib.event_record(start, stream)
            for _ in range(5):
                self._flush_cache(device, stream)
                fn()
            lib.event_record(end, stream)
            lib.synchronize(device)
            estimate_ms = lib.event_elapsed(start, end) / 5
        finally:
            lib.event_destroy(start)
            lib.event_destroy(end)
        estimate_ms = max(estimate_ms, 1e-6)
        n_warmup = max(1, int(warmup / estimate_ms))
        n_repeat = max(1, int(rep / estimate_ms))

        starts = [lib.event_create() for _ in range(n_repeat)]
        ends = [lib.event_create() for _ in range(n_repeat)]
        try:
            for _ in range(n_warmup):
                fn()
            for i in range(n_repeat):
                self._flush_cache(device, stream)
                lib.event_record(starts[i], stream)
                fn()
                lib.event_record(ends[i], stream)
            lib.synchronize(device)
            times = [lib.event_elapsed(s, e) for s, e in zip(starts, ends)]
        finally:
            for e in starts + ends:
                lib.event_destroy(e)
        return summarize(times, quantiles, return_mode)


def summarize(times, quantiles, return_mode):
    """Triton's statistics of a list of times: the ``quantiles`` (linear
    interpolation, one value when one is asked for), all of them, or their
    min/max/mean/median (the lower middle value, as torch.median)."""
    if quantiles is not None:
        import numpy as np
        out = [float(q) for q in np.quantile(np.asarray(times, dtype=np.float64), quantiles)]
        return out[0] if len(out) == 1 else out
    if return_mode == "all":
        return list(times)
    if return_mode == "median":
        return statistics.median_low(times)
    return {"min": min, "max": max, "mean": statistics.fmean}[return_mode](times)
