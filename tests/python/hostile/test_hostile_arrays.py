"""Odd arrays on the interpreter: read-only memory (a memmap, bytes, a flag,
an ``__array_interface__`` saying so, a broadcast view), negative and
other strides, non-contiguous, zero-size, 0-d and misaligned arrays,
dtypes the language has no type for, and pointer arithmetic far outside
every argument. Each must run, or raise a clear error naming the argument
or the kernel line, never crash (a store into a read-only memmap used to
be a SIGSEGV).

(Arrays that lie about their memory, ``as_strided`` past the allocation or
an ``__array_interface__`` with a made-up address, are left out: numpy
itself crashes on them.)
"""

import pytest

from hostile_helpers import expect_error, expect_ok, run_snippet

KERNELS = '''
import tritium
import tritium.language as tl


@tritium.jit
def copy(X, Y, N, BLOCK: tl.constexpr = 16):
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs, tl.load(X + offs, mask=offs < N), mask=offs < N)


@tritium.jit
def strided_copy(X, sx, Y, sy, N, BLOCK: tl.constexpr = 16):
    offs = tl.arange(0, BLOCK)
    tl.store(Y + offs * sy, tl.load(X + offs * sx, mask=offs < N), mask=offs < N)


@tritium.jit
def bump(X, OFF):
    tl.store(X + OFF, tl.load(X + OFF) + 1)


@tritium.jit
def add_one(X):
    tl.atomic_add(X + tl.arange(0, 4), 1)
'''

CASE = '''
import numpy as np
m = load_source({kernels!r})
src = np.arange(16, dtype=np.float32)
out = np.zeros(16, np.float32)
{setup}
{launch}
{check}
'''

ROE = "ReadOnlyMemoryError"
OOB = "OutOfBoundsError"

#: id -> (setup, launch, check, expected: None (it runs, and check holds) or (class, regex))
CASES = {
    # Read-only memory: loads are fine, stores and atomics name the argument.
    "memmap-r-store": ('np.zeros(16, np.float32).tofile(TMP + "/ro.bin"); '
                       'ro = np.memmap(TMP + "/ro.bin", np.float32, mode="r", shape=(16,))',
                       "m.copy[(1,)](src, ro, 16)", "",
                       (ROE, r"store into read-only memory: element \(0\) is in 'Y', a read-only array")),
    "memmap-r-load": ('src.tofile(TMP + "/ro2.bin"); '
                      'ro = np.memmap(TMP + "/ro2.bin", np.float32, mode="r", shape=(16,))',
                      "m.copy[(1,)](ro, out, 16)", "assert (out == src).all()", None),
    "memmap-r-atomic": ('np.zeros(16, np.int32).tofile(TMP + "/ro3.bin"); '
                        'ro = np.memmap(TMP + "/ro3.bin", np.int32, mode="r", shape=(16,))',
                        "m.add_one[(1,)](ro)", "", (ROE, r"atomic_add into read-only memory: .* in 'X'")),
    "memmap-r-plus": ('np.zeros(16, np.float32).tofile(TMP + "/rw.bin"); '
                      'rw = np.memmap(TMP + "/rw.bin", np.float32, mode="r+", shape=(16,))',
                      "m.copy[(1,)](src, rw, 16)", "assert (rw == src).all()", None),
    "frombuffer-bytes-store": ("b = bytes(64); ro = np.frombuffer(b, np.float32)", "m.copy[(1,)](src, ro, 16)",
                               "", (ROE, r"'Y', a read-only array")),
    "frombuffer-bytes-unchanged": ("b = bytes(64); ro = np.frombuffer(b, np.float32)",
                                   "try:\n    m.copy[(1,)](src, ro, 16)\nexcept ValueError:\n    pass",
                                   "assert b == bytes(64)", None),
    "frombuffer-bytearray-store": ("ba = bytearray(64); rw = np.frombuffer(ba, np.float32)",
                                   "m.copy[(1,)](src, rw, 16)", "assert np.frombuffer(ba, np.float32)[3] == 3", None),
    "writeable-flag-off": ("ro = np.zeros(16, np.float32); ro.flags.writeable = False", "m.copy[(1,)](src, ro, 16)",
                           "", (ROE, r"'Y', a read-only array")),
    "broadcast-view": ("ro = np.broadcast_to(np.zeros(1, np.float32), (16,))", "m.copy[(1,)](src, ro, 1)", "",
                       (ROE, r"'Y', a read-only array")),
    "broadcast-view-load": ("ro = np.broadcast_to(np.float32(7), (16,))", "m.copy[(1,)](ro, out, 1)",
                            "assert out[0] == 7", None),
    "array-interface-readonly": ("class RO:\n    pass\nro = RO(); base = np.zeros(16, np.float32)\n"
                                 "ro.__array_interface__ = dict(base.__array_interface__, data=(base.ctypes.data, True))",
                                 "m.copy[(1,)](src, ro, 16)", "assert (base == 0).all()", (ROE, r"'Y', a read-only array")),
    "array-interface-writable": ("class RW:\n    pass\nrw = RW(); base = np.zeros(16, np.float32)\n"
                                 "rw.__array_interface__ = base.__array_interface__",
                                 "m.copy[(1,)](src, rw, 16)", "assert (base == src).all()", None),
    "read-only-alias-of-writable": ("v = out[:]; v.flags.writeable = False", "m.copy[(1,)](v, out, 16)",
                                    "assert (out == 0).all()", None),
    "store-through-read-only-alias": ("v = out[:]; v.flags.writeable = False",
                                      "m.strided_copy[(1,)](src, 1, v, 1, 16)", "", (ROE, r"'Y', a read-only array")),
    # Strides: a pointer is the first element's address, as on the GPU.
    "negative-stride-with-its-stride": ("rev = out[::-1]", "m.strided_copy[(1,)](src, 1, rev, -1, 16)",
                                        "assert (out[::-1] == src).all()", None),
    "negative-stride-walked-forward": ("rev = out[::-1]", "m.copy[(1,)](src, rev, 16)", "",
                                       (OOB, r"out-of-bounds store .*past the end of 'Y'")),
    "non-contiguous-with-its-stride": ("big = np.zeros(32, np.float32); half = big[::2]",
                                       "m.strided_copy[(1,)](src, 1, half, 2, 16)",
                                       "assert (big[::2] == src).all() and (big[1::2] == 0).all()", None),
    "non-contiguous-source": ("big = np.arange(32, dtype=np.float32); half = big[::2]",
                              "m.strided_copy[(1,)](half, 2, out, 1, 16)", "assert (out == big[::2]).all()", None),
    "fortran-order": ("f = np.asfortranarray(np.arange(16, dtype=np.float32).reshape(4, 4))",
                      "m.copy[(1,)](f, out, 16)", "assert (out == f.ravel(order='F')).all()", None),
    "zero-size-masked": ("empty = np.zeros(0, np.float32)", "m.copy[(1,)](empty, empty, 0)", "", None),
    "zero-size-unmasked": ("empty = np.zeros(0, np.float32)", "m.bump[(1,)](empty, 0)", "",
                           (OOB, r"out-of-bounds load .*'X' \(element 0 of a 0-element buffer\)")),
    "zero-d-array": ("s = np.array(5.0, np.float32)", "m.bump[(1,)](s, 0)", "assert s == 6", None),
    "bool-array": ("b = np.array([True, False] * 8)", "m.copy[(1,)](b, b, 16)", "", None),
    "aliased-arguments": ("", "m.copy[(1,)](out, out, 16)", "", None),
    "far-pointer": ("", "m.bump[(1,)](out, 2**40)", "", (OOB, r"out-of-bounds load .*past the end of 'X'")),
    "negative-pointer": ("", "m.bump[(1,)](out, -1)", "", (OOB, r"before the start of 'X'")),
    # 2**62 elements of 4 bytes wrap around to X itself, as 64-bit addresses do; 2**61 does not.
    "int64-offset-wraps": ("", "m.bump[(1,)](out, 2**62)", "assert out[0] == 1", None),
    "int64-offset-overflow": ("", "m.bump[(1,)](out, 2**61)", "", (OOB, r"out-of-bounds load")),
    "misaligned": ("ba = bytearray(68); mis = np.frombuffer(ba, np.float32, offset=1, count=16)",
                   "m.bump[(1,)](mis, 0)", "", ("MisalignedAccessError", r"misaligned load: address 0x[0-9a-f]+ of element \(scalar\) is not a multiple "
                                             r"of the element size 4")),
    # Memory the interpreter cannot (or should not) type.
    "object-dtype": ("o = np.array([object()] * 16)", "m.copy[(1,)](o, out, 16)", "",
                     ("TypeError", r"argument 'X' \(parameter 0\): unsupported tensor dtype dtype\('O'\)")),
    "complex-dtype": ("c = np.zeros(16, np.complex64)", "m.copy[(1,)](c, out, 16)", "", ("TypeError", r"'X' \(parameter 0\): unsupported tensor dtype dtype\('complex64'\)")),
    "structured-dtype": ("s = np.zeros(16, dtype=[('a', 'f4'), ('b', 'i4')])", "m.copy[(1,)](s, out, 16)", "",
                         ("TypeError", r"'X' \(parameter 0\): unsupported tensor dtype")),
    "datetime-dtype": ("d = np.zeros(16, 'datetime64[s]')", "m.copy[(1,)](d, out, 16)", "",
                       ("TypeError", r"'X' \(parameter 0\): unsupported tensor dtype dtype\('<M8\[s\]'\)")),
    "longdouble-dtype": ("d = np.zeros(16, np.longdouble)", "m.copy[(1,)](d, out, 16)", "",
                         ("TypeError", r"'X' \(parameter 0\): unsupported tensor dtype")),
    "big-endian": ("be = np.zeros(16, '>f4')", "m.copy[(1,)](be, out, 16)", "",
                   ("TypeError", r"argument 'X': non-native byte order")),
    "python-array": ("import array; a = array.array('f', [0.0] * 16)", "m.copy[(1,)](a, out, 16)", "",
                     ("TypeError", r"'X' \(parameter 0\): cannot pass an object of type array to a kernel")),
    "bytearray": ("ba = bytearray(64)", "m.copy[(1,)](ba, out, 16)", "", ("TypeError", r"cannot pass an object of type bytearray to a kernel")),
    "memoryview": ("mv = memoryview(bytearray(64))", "m.copy[(1,)](mv, out, 16)", "", ("TypeError", r"cannot pass an object of type memoryview to a kernel")),
    "masked-array": ("ma = np.ma.masked_array(np.arange(16, dtype=np.float32), mask=[True] * 16)",
                     "m.copy[(1,)](ma, out, 16)", "assert (out == np.arange(16)).all()", None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_odd_array(case):
    setup, launch, check, expected = CASES[case]
    r = run_snippet(CASE.format(kernels=KERNELS, setup=setup, launch=launch, check=check), interpret=True)
    if expected is None:
        expect_ok(r)
    else:
        expect_error(r, *expected)
