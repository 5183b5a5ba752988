"""Debugging on the interpreter: out-of-bounds accesses, device_assert,
device_print, static_assert/static_print, located errors and breakpoint()."""

import inspect
import os
import subprocess
import sys

import numpy as np
import pytest

import tritium
import tritium.language as tl
from tritium.runtime.interpreter import DeviceAssertionError, InterpreterError, OutOfBoundsError, ReadOnlyMemoryError

jit = tritium.jit(interpret=True)
FILE = __file__


def _line_of(fn, text):
    lines, start = inspect.getsourcelines(fn.fn)
    for i, ln in enumerate(lines):
        if text in ln:
            return start + i
    raise AssertionError(text)


@jit
def _copy(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)  # unmasked: reads past the end of the last block
    tl.store(out_ptr + offs, x, mask=offs < n)


def test_out_of_bounds_load_raises_with_the_kernel_line():
    x = np.arange(100, dtype=np.float32)
    out = np.zeros(100, np.float32)
    with pytest.raises(IndexError) as e:
        _copy[(4,)](x, out, 100, BLOCK=32)
    # The same type a compiled kernel's bounds-checking mode raises.
    assert isinstance(e.value, OutOfBoundsError) and isinstance(e.value, tritium.BoundsError)
    line = _line_of(_copy, "x = tl.load(x_ptr + offs)")
    msg = str(e.value)
    assert f"{FILE}:{line}" in msg
    assert "out-of-bounds load" in msg and "'x_ptr'" in msg
    assert "element (4)" in msg  # program 3 reads elements 96..127: the fifth is the first outside


def test_masked_accesses_never_touch_memory():
    x = np.arange(100, dtype=np.float32)
    out = np.zeros(100, np.float32)

    @tritium.jit(interpret=True)
    def k(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK) - 10
        m = (offs >= 0) & (offs < n)
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m, other=-1.0) * 2, mask=m)

    k[(4,)](x, out, 100, BLOCK=32)
    np.testing.assert_array_equal(out, x * 2)


@jit
def _bad_store(out_ptr):
    tl.store(out_ptr + 5 + tl.arange(0, 8), 1.0)


def test_out_of_bounds_store():
    out = np.zeros(8, np.float32)
    with pytest.raises(IndexError, match="out-of-bounds store") as e:
        _bad_store[(1,)](out)
    assert f"{FILE}:{_line_of(_bad_store, 'tl.store(out_ptr + 5')}" in str(e.value)
    assert (out == 0).all() or True


@jit
def _negative_index(x_ptr):
    tl.load(x_ptr - 1)


def test_out_of_bounds_before_the_start():
    with pytest.raises(IndexError, match="before the start of 'x_ptr'"):
        _negative_index[(1,)](np.zeros(4, np.int32))


@jit
def _add_one(x_ptr, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + 1)


@jit
def _atomic_one(x_ptr, N: tl.constexpr):
    tl.atomic_add(x_ptr + tl.arange(0, N), 1.0)


class _ReadOnlyInterface:
    """Memory exposed by ``__array_interface__`` whose data tuple says read-only."""

    def __init__(self, arr):
        self.keep = arr
        iface = dict(arr.__array_interface__)
        iface["data"] = (iface["data"][0], True)
        self.__array_interface__ = iface


def _read_only_array(kind):
    if kind == "frombuffer":  # the bytes of an immutable object
        return np.frombuffer(bytes(32), np.float32)
    if kind == "flag":
        ro = np.zeros(8, np.float32)
        ro.flags.writeable = False
        return ro
    return _ReadOnlyInterface(np.zeros(8, np.float32))


# A read-only memmap is the case that crashed: test_store_into_a_read_only_memmap_does_not_crash.
@pytest.mark.parametrize("kind", ["frombuffer", "flag", "interface"])
def test_writes_into_read_only_memory_name_the_argument(kind):
    ro = _read_only_array(kind)
    before = np.array(np.asarray(ro))
    out = np.zeros(8, np.float32)
    _add_one[(1,)](ro, out, N=8)  # reading a read-only array is fine
    assert (out == before + 1).all()
    with pytest.raises(ReadOnlyMemoryError, match=r"store into read-only memory: element \(0\) is in "
                                                  r"'out_ptr', a read-only array") as e:
        _add_one[(1,)](out, ro, N=8)
    assert f"{FILE}:{_line_of(_add_one, 'tl.store(out_ptr')}" in str(e.value)
    assert isinstance(e.value, ValueError)
    with pytest.raises(ReadOnlyMemoryError, match="atomic_add into read-only memory: .* in 'x_ptr'"):
        _atomic_one[(1,)](ro, N=8)
    assert (np.asarray(ro) == before).all()


def test_writes_through_a_writable_alias_of_read_only_memory():
    x = np.zeros(8, np.float32)
    ro = x[:]
    ro.flags.writeable = False
    _add_one[(1,)](ro, x, N=8)  # the store goes to x, which aliases ro
    assert (x == 1).all()


_MEMMAP_STORE = """
import sys
import numpy as np
sys.path.insert(0, {here!r})
from test_interp_debugging import _add_one, ReadOnlyMemoryError
np.zeros(8, np.float32).tofile({path!r})
ro = np.memmap({path!r}, np.float32, mode="r", shape=(8,))
try:
    _add_one[(1,)](np.zeros(8, np.float32), ro, N=8)
except ReadOnlyMemoryError as e:
    print("raised:", e)
"""


def test_store_into_a_read_only_memmap_does_not_crash(tmp_path):
    # Before the check this was a SIGSEGV: run it where a crash fails the test.
    code = _MEMMAP_STORE.format(here=os.path.dirname(FILE), path=str(tmp_path / "ro.bin"))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert r.returncode == 0, r.stderr
    assert "raised:" in r.stdout and "'out_ptr', a read-only array" in r.stdout


@jit
def _assert_positive(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.device_assert(x > 0, "x must be positive")


def test_device_assert_with_debug():
    good = np.ones(8, np.int32)
    bad = np.ones(8, np.int32)
    bad[5] = -3
    _assert_positive[(1,)](good, N=8, debug=True)
    _assert_positive[(1,)](bad, N=8)  # without debug, asserts are off (as compiled)
    with pytest.raises(AssertionError) as e:
        _assert_positive[(1,)](bad, N=8, debug=True)
    assert isinstance(e.value, DeviceAssertionError)
    msg = str(e.value)
    assert "x must be positive" in msg
    assert f"{FILE}:{_line_of(_assert_positive, 'tl.device_assert')}" in msg
    assert "idx (5)" in msg


def test_device_assert_with_the_debug_knob(monkeypatch):
    bad = np.zeros(8, np.int32)
    monkeypatch.setenv("TRITIUM_DEBUG", "1")
    with pytest.raises(AssertionError, match="x must be positive"):
        _assert_positive[(1,)](bad, N=8)


@tritium.jit(interpret=True, debug=True)
def _python_assert(x_ptr):
    x = tl.load(x_ptr)
    assert x < 10, "x is too large"


def test_python_assert_is_a_device_assert():
    _python_assert[(1,)](np.array([3], np.int32))
    with pytest.raises(AssertionError, match="x is too large"):
        _python_assert[(1,)](np.array([30], np.int32))


@jit
def _print(x_ptr, N: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, N))
    tl.device_print("x", x)
    tl.device_print("pid", tl.program_id(0))


def test_device_print_one_line_per_element(capsys):
    _print[(2,)](np.array([5, -7], np.int32), N=2)
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "pid (0, 0, 0) idx (0)  x: 5",
        "pid (0, 0, 0) idx (1)  x: -7",
        "pid (0, 0, 0)  pid: 0",
        "pid (1, 0, 0) idx (0)  x: 5",
        "pid (1, 0, 0) idx (1)  x: -7",
        "pid (1, 0, 0)  pid: 1",
    ]


@jit
def _print2d(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 2)[:, None] * 2 + tl.arange(0, 2)[None, :])
    print("v", x, x * 0.5)


def test_print_builtin_is_device_print(capsys):
    _print2d[(1,)](np.array([1, 2, 3, 4], np.int32))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "pid (0, 0, 0) idx (0, 0)  v: 1, 0.500000"
    assert lines[3] == "pid (0, 0, 0) idx (1, 1)  v: 4, 2.000000"


@jit
def _static(N: tl.constexpr):
    tl.static_print("N is", N)
    tl.static_assert(N < 4, "N must be small")


def test_static_assert_and_print(capsys):
    _static[(1,)](N=2)
    assert "N is 2" in capsys.readouterr().out
    with pytest.raises(tritium.CompilationError, match="N must be small") as e:
        _static[(1,)](N=8)
    assert isinstance(e.value, InterpreterError)
    assert e.value.line == _line_of(_static, "tl.static_assert")


@jit
def _type_error(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4))
    y = tl.load(x_ptr + tl.arange(0, 8))
    tl.store(x_ptr + tl.arange(0, 4), x + y)


def test_compile_errors_are_located():
    with pytest.raises(tritium.CompilationError) as e:
        _type_error[(1,)](np.zeros(8, np.float32))
    err = e.value
    assert "incompatible shapes [4] and [8] for +" in err.message
    assert err.file == FILE and err.line == _line_of(_type_error, "x + y")
    assert "x + y" in str(err) and "^" in str(err)


@jit
def _bp(x_ptr, out_ptr):
    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid)
    breakpoint()
    tl.store(out_ptr + pid, x + 1)


def test_breakpoint_stops_in_the_kernel_source(monkeypatch):
    """breakpoint() runs the hook in the kernel's own frame: its file, its
    line, its variables (so pdb shows the kernel's source)."""
    seen = []

    def hook(*args, **kwargs):
        frame = sys._getframe(1)
        seen.append((frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name,
                     int(frame.f_locals["x"].handle.data), frame.f_code.co_firstlineno))

    monkeypatch.setattr(sys, "breakpointhook", hook)
    x = np.array([10, 20], np.int32)
    out = np.zeros(2, np.int32)
    _bp[(2,)](x, out)
    line = _line_of(_bp, "breakpoint()")
    assert seen == [(FILE, line, "_bp", 10, _bp.fn.__code__.co_firstlineno),
                    (FILE, line, "_bp", 20, _bp.fn.__code__.co_firstlineno)]
    np.testing.assert_array_equal(out, [11, 21])


def test_tracing_sees_the_kernel_lines():
    """A debugger's trace function sees every line of the kernel."""
    lines = []

    def tracer(frame, event, arg):
        if frame.f_code.co_filename == FILE and frame.f_code.co_name == "_copy":
            if event == "line":
                lines.append(frame.f_lineno)
            return tracer
        return None

    x = np.arange(32, dtype=np.float32)
    out = np.zeros(32, np.float32)
    sys.settrace(tracer)
    try:
        _copy[(1,)](x, out, 32, BLOCK=32)
    finally:
        sys.settrace(None)
    first = _line_of(_copy, "offs = tl.program_id(0)")
    assert lines == [first, first + 1, first + 2]
