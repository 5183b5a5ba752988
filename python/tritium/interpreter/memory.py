"""The host buffers of a launch's tensor arguments. A pointer is a real host
address (an int64), so pointer arithmetic, casts and aliasing arguments
behave as on the GPU; every access is checked against the bytes the
arguments span, where a GPU would read garbage or fault.
"""

import ctypes

import numpy as np
from numpy.lib.array_utils import byte_bounds

from ..errors import BoundsError


class OutOfBoundsError(BoundsError):
    """An unmasked access outside every tensor argument (a BoundsError, as
    compiled kernels' bounds checks raise)."""


class MisalignedAccessError(IndexError):
    """An access whose address is not a multiple of the element size."""


class ReadOnlyMemoryError(ValueError):
    """A store or atomic into a read-only argument (the host would crash or
    change an immutable object)."""


class Buffer:
    """The bytes [start, end) of one argument (``keep``: its array, alive)."""

    __slots__ = ("start", "end", "name", "views", "keep", "writable")

    def __init__(self, start, end, name, keep, writable):
        self.start, self.end, self.name, self.keep, self.writable = start, end, name, keep, writable
        self.views = {}

    def typed(self, storage):
        """(address of element 0, the buffer as ``storage`` from its first
        aligned address)."""
        v = self.views.get(storage)
        if v is None:
            size = storage.itemsize
            a0 = -(-self.start // size) * size
            raw = (ctypes.c_uint8 * (max(0, (self.end - a0) // size) * size)).from_address(a0)
            v = self.views[storage] = (a0, np.frombuffer(raw, dtype=storage))
        return v


class Memory:
    """A launch's buffers and checked accesses: of flat int64 addresses, as
    ``storage`` dtype, ``what`` access, and for messages ``where()`` the
    kernel location and ``positions(k)`` element k's place in its block."""

    def __init__(self):
        self.buffers = []

    def register(self, arr, name):
        """Registers an array's bytes; returns its address."""
        low, high = byte_bounds(arr)
        self.buffers.append(Buffer(low, high, name, arr, bool(arr.flags.writeable)))
        # Writable buffers first: arguments may alias, and a write is refused
        # only if no writable argument holds the address.
        self.buffers.sort(key=lambda b: not b.writable)
        return arr.__array_interface__["data"][0]

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

    def _owners(self, addrs, size, what, where, positions):
        """[(buffer, element numbers)] of addresses in several buffers."""
        owner = np.full(addrs.shape, -1, dtype=np.int64)
        for i, b in enumerate(self.buffers):
            owner[(addrs >= b.start) & (addrs + size <= b.end) & (owner < 0)] = i
        bad = np.flatnonzero(owner < 0)
        if bad.size:
            k = int(bad[0])
            raise OutOfBoundsError(
                f"{where()}: out-of-bounds {what} of element {positions(k)}: "
                f"{self._describe(int(addrs[k]), size)} ({bad.size} of {addrs.size} accessed elements "
                "out of bounds; mask them)")
        return [(self.buffers[int(i)], np.flatnonzero(owner == i)) for i in np.unique(owner)]

    def locate(self, addrs, storage, what, where, positions, write=False):
        """[(a buffer viewed as ``storage``, element selection (one
        ``slice(None)``: all in one buffer), indices into that view)]."""
        size = storage.itemsize
        if addrs.size == 0:
            return []
        if size > 1 and int(np.bitwise_or.reduce(addrs)) & (size - 1):
            bad = int(np.flatnonzero(addrs & (size - 1))[0])
            raise MisalignedAccessError(
                f"{where()}: misaligned {what}: address 0x{int(addrs[bad]):x} of element "
                f"{positions(bad)} is not a multiple of the element size {size}")
        lo, hi = int(addrs.min()), int(addrs.max()) + size
        b = next((b for b in self.buffers if b.start <= lo and hi <= b.end), None)
        owners = [(b, slice(None))] if b is not None else self._owners(addrs, size, what, where, positions)
        groups = []
        for b, sel in owners:
            if write and not b.writable:
                k = 0 if isinstance(sel, slice) else int(sel[0])
                raise ReadOnlyMemoryError(
                    f"{where()}: {what} into read-only memory: element {positions(k)} is in '{b.name}', a "
                    "read-only array (pass a writable one, e.g. a copy)")
            a0, view = b.typed(storage)
            # The element size is a power of 2.
            groups.append((view, sel, np.right_shift(addrs[sel] - a0, size.bit_length() - 1)))
        return groups

    def read(self, addrs, storage, what, where, positions):
        """The storage values at the addresses."""
        groups = self.locate(addrs, storage, what, where, positions)
        if len(groups) == 1 and isinstance(groups[0][1], slice):  # all in one buffer: no copy
            return groups[0][0][groups[0][2]]
        out = np.empty(addrs.shape, dtype=storage)
        for view, sel, idx in groups:
            out[sel] = view[idx]
        return out

    def write(self, addrs, values, storage, what, where, positions):
        for view, sel, idx in self.locate(addrs, storage, what, where, positions, write=True):
            view[idx] = values[sel]

    def rmw(self, addrs, storage, fn, what, where, positions):
        """``new = fn(old, k)`` at each address in order; the old values."""
        old = np.empty(addrs.shape, dtype=storage)
        for view, sel, idx in self.locate(addrs, storage, what, where, positions, write=True):
            if np.unique(idx).size == idx.size:
                old[sel] = view[idx]
                view[idx] = fn(old[sel], sel)
            else:
                for k, i in zip(np.arange(addrs.size)[sel].tolist(), idx.tolist()):
                    old[k] = view[i]
                    view[i:i + 1] = fn(old[k:k + 1], np.array([k]))
        return old
