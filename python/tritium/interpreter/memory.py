"""The interpreter's memory: the host buffers of a launch's tensor arguments.

A pointer is a real host address (an int64): a tensor argument's pointer is
the address of its first element, so pointer arithmetic, pointer casts and
aliasing arguments behave as on the GPU. Every access is checked against the
registered buffers (the bytes each argument spans): an address outside all
of them raises ``OutOfBoundsError`` (an IndexError) naming the kernel line,
where a GPU would read garbage or fault. A store or atomic into a read-only
argument (``flags.writeable`` false) raises ``ReadOnlyMemoryError``: the
bytes may be a read-only mapping or an immutable ``bytes``.
"""

import ctypes

import numpy as np


class OutOfBoundsError(IndexError):
    """An unmasked access outside every tensor argument of the launch."""


class MisalignedAccessError(IndexError):
    """An access whose address is not a multiple of the element size."""


class ReadOnlyMemoryError(ValueError):
    """A store or atomic into a read-only argument (a read-only numpy array,
    one made on ``bytes``, a read-only memmap): the GPU would fault, and
    the host would crash or change an immutable object."""


class Buffer:
    """The bytes [start, end) of one tensor argument."""

    __slots__ = ("start", "end", "name", "mem", "views", "keep", "writable")

    def __init__(self, start, end, name, keep, writable=True):
        self.start = start
        self.end = end
        self.name = name
        self.keep = keep
        self.writable = writable
        n = end - start
        if n > 0:
            raw = (ctypes.c_uint8 * n).from_address(start)
            self.mem = np.frombuffer(raw, dtype=np.uint8)
        else:
            self.mem = np.zeros(0, dtype=np.uint8)
        self.views = {}

    def typed(self, np_dtype):
        """(address of element 0, array) viewing the buffer as ``np_dtype``
        from its first address aligned to the element size."""
        v = self.views.get(np_dtype)
        if v is None:
            size = np.dtype(np_dtype).itemsize
            a0 = -(-self.start // size) * size
            count = max(0, (self.end - a0) // size)
            off = a0 - self.start
            arr = self.mem[off:off + count * size].view(np_dtype) if count else np.zeros(0, np_dtype)
            v = self.views[np_dtype] = (a0, arr)
        return v


def byte_bounds(arr):
    """[low, high) of the bytes a numpy array spans."""
    ptr = arr.__array_interface__["data"][0]
    if arr.size == 0:
        return ptr, ptr
    low = high = ptr
    for dim, stride in zip(arr.shape, arr.strides):
        if stride < 0:
            low += stride * (dim - 1)
        else:
            high += stride * (dim - 1)
    return low, high + arr.itemsize


class Memory:
    """The buffers of one launch, and the checked accesses."""

    def __init__(self):
        self.buffers = []
        self._starts = None
        self._write_order = None
        self._last = None

    def register(self, arr, name):
        """Registers a numpy array (its bytes); returns its address. Stores
        and atomics may not write through a read-only array (its
        ``flags.writeable``)."""
        low, high = byte_bounds(arr)
        self.buffers.append(Buffer(low, high, name, arr, bool(arr.flags.writeable)))
        self._starts = None
        self._write_order = None
        return arr.__array_interface__["data"][0]

    # -- finding buffers ---------------------------------------------------

    def _candidates(self, write):
        """The buffers an access may fall in, in the order to try them: for
        a write, the writable ones first (arguments may alias; a write is
        refused only if no writable argument holds the address)."""
        if not write:
            return self.buffers
        if self._write_order is None:
            self._write_order = sorted(self.buffers, key=lambda b: not b.writable)
        return self._write_order

    def _find(self, lo, hi, write=False):
        b = self._last
        if b is not None and b.start <= lo and hi <= b.end and (b.writable or not write):
            return b
        for b in self._candidates(write):
            if b.start <= lo and hi <= b.end:
                self._last = b
                return b
        return None

    def _describe(self, addr, size):
        """Where an address is, in the user's terms."""
        best = None
        for b in self.buffers:
            if b.start <= addr < b.end:
                return f"address 0x{addr:x} crosses the end of '{b.name}'"
            d = addr - b.end if addr >= b.end else b.start - addr
            if best is None or d < best[0]:
                best = (d, b)
        if best is None:
            return f"address 0x{addr:x} (the launch has no tensor arguments)"
        d, b = best
        if addr >= b.end:
            n_elems = (b.end - b.start) // size if size else 0
            return (f"address 0x{addr:x} is {d} bytes past the end of '{b.name}' "
                    f"(element {(addr - b.start) // size} of a {n_elems}-element buffer)")
        return f"address 0x{addr:x} is {d} bytes before the start of '{b.name}'"

    def locate(self, addrs, size, what, where, positions, write=False):
        """The (buffer, indices) for a flat int64 array of addresses, all of
        one buffer; raises OutOfBoundsError / MisalignedAccessError, and
        ReadOnlyMemoryError for a ``write`` into a read-only argument. Calls
        ``where()`` for the kernel location only when reporting."""
        if addrs.size == 0:
            return None, addrs
        lo = int(addrs.min())
        hi = int(addrs.max()) + size
        if size > 1 and int(np.bitwise_or.reduce(addrs)) & (size - 1):
            bad = int(np.flatnonzero(addrs & (size - 1))[0])
            raise MisalignedAccessError(
                f"{where()}: misaligned {what}: address 0x{int(addrs[bad]):x} of element "
                f"{positions(bad)} is not a multiple of the element size {size}")
        b = self._find(lo, hi, write)
        if b is not None:
            if write and not b.writable:
                self._read_only(b, 0, what, where, positions)
            a0, _ = b.typed(_UINT[size])
            return b, np.right_shift(np.subtract(addrs, a0), _SHIFT[size])
        return self._locate_many(addrs, size, what, where, positions, write)

    def _locate_many(self, addrs, size, what, where, positions, write):
        """Addresses spread over several buffers (or outside all): returns a
        list of (buffer, element positions, indices)."""
        groups = []
        buffers = self._candidates(write)
        owner = np.full(addrs.shape, -1, dtype=np.int64)
        for i, b in enumerate(buffers):
            inside = (addrs >= b.start) & (addrs + size <= b.end) & (owner < 0)
            owner[inside] = i
        bad = np.flatnonzero(owner < 0)
        if bad.size:
            k = int(bad[0])
            raise OutOfBoundsError(
                f"{where()}: out-of-bounds {what} of element {positions(k)}: "
                f"{self._describe(int(addrs[k]), size)} ({bad.size} of {addrs.size} accessed elements "
                "out of bounds; mask them)")
        for i in np.unique(owner):
            b = buffers[int(i)]
            sel = np.flatnonzero(owner == i)
            if write and not b.writable:
                self._read_only(b, int(sel[0]), what, where, positions)
            a0, _ = b.typed(_UINT[size])
            groups.append((b, sel, (addrs[sel] - a0) // size))
        return "many", groups

    @staticmethod
    def _read_only(b, k, what, where, positions):
        raise ReadOnlyMemoryError(
            f"{where()}: {what} into read-only memory: element {positions(k)} is in '{b.name}', a read-only "
            "array (pass a writable one, e.g. a copy)")

    # -- accesses ------------------------------------------------------------

    def read(self, addrs, storage, what, where, positions):
        """The storage values at a flat array of addresses."""
        size = np.dtype(storage).itemsize
        b, idx = self.locate(addrs, size, what, where, positions)
        if b is None:
            return np.zeros(0, dtype=storage)
        if b == "many":
            out = np.empty(addrs.shape, dtype=storage)
            for buf, sel, ix in idx:
                out[sel] = buf.typed(storage)[1][ix]
            return out
        return b.typed(storage)[1][idx]

    def write(self, addrs, values, storage, what, where, positions):
        size = np.dtype(storage).itemsize
        b, idx = self.locate(addrs, size, what, where, positions, write=True)
        if b is None:
            return
        if b == "many":
            for buf, sel, ix in idx:
                buf.typed(storage)[1][ix] = values[sel]
            return
        b.typed(storage)[1][idx] = values

    def rmw(self, addrs, storage, fn, what, where, positions):
        """Applies ``new = fn(old, k)`` at each address in order (as if the
        elements' atomics ran one after another); returns the old values."""
        size = np.dtype(storage).itemsize
        b, idx = self.locate(addrs, size, what, where, positions, write=True)
        if b is None:
            return np.zeros(0, dtype=storage)
        if b == "many":
            parts = [(buf.typed(storage)[1], sel, ix) for buf, sel, ix in idx]
        else:
            parts = [(b.typed(storage)[1], np.arange(addrs.size), idx)]
        old = np.empty(addrs.shape, dtype=storage)
        for view, sel, ix in parts:
            if np.unique(ix).size == ix.size:
                o = view[ix].copy()
                old[sel] = o
                view[ix] = fn(o, sel)
            else:
                for j, i in zip(sel.tolist(), ix.tolist()):
                    o = view[i:i + 1].copy()
                    old[j] = o[0]
                    view[i:i + 1] = fn(o, np.array([j]))
        return old


_UINT = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_SHIFT = {1: 0, 2: 1, 4: 2, 8: 3}
