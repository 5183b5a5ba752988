"""Kernels made by exec() of a string (code generators, templated tests):
Python keeps no source for them, so the interpreter runs their code as it is,
and tensors answer Python's questions (``if``, ``while``, ``range``) with
their values."""

import linecache

import numpy as np
import pytest

import tritium
import tritium.language as tl
from tritium.runtime.interpreter import InterpreterError


@tritium.jit(interpret=True)
def _twice(x):
    return x * 2


def _generated(text, name, interpret=True):
    """The @jit function ``name`` that exec() of ``text`` defines (no file)."""
    ns = {}
    env = {"tritium": tritium, "tl": tl, "twice": _twice, "INTERPRET": interpret}
    exec(text, env, ns)
    return ns[name]


LOOPS = '''
@tritium.jit(interpret=INTERPRET)
def loops(out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = 0
    for i in range(n):
        acc += i
    for j in tl.range(0, n, 2):
        acc += j
    if pid == 0 and n > 2:
        acc += 100
    while acc < 1000:
        acc = acc * 2
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, twice(acc + offs))
'''


def test_a_kernel_without_source_runs_with_python_meaning():
    kernel = _generated(LOOPS, "loops")
    assert kernel.src is None
    out = np.zeros(8, np.int32)
    kernel[(2,)](out, 5, BLOCK=4)
    # 0+1+2+3+4 = 10, + 0+2+4 = 16; program 0 adds 100; then doubled up to >= 1000.
    expected = np.concatenate([np.full(4, 1856), np.full(4, 1024)]) + np.arange(8)
    np.testing.assert_array_equal(out, expected * 2)


def test_a_block_is_no_condition_in_code_without_source():
    kernel = _generated('''
@tritium.jit(interpret=True)
def block_if(out_ptr):
    x = tl.arange(0, 4)
    if x > 1:
        tl.store(out_ptr + x, x)
''', "block_if")
    with pytest.raises(InterpreterError, match="cannot be a condition"):
        kernel[(1,)](np.zeros(4, np.int32))


def test_a_float_tensor_is_no_range_bound():
    kernel = _generated('''
@tritium.jit(interpret=True)
def float_range(out_ptr, x):
    for i in range(x):
        tl.store(out_ptr, i)
''', "float_range")
    with pytest.raises(InterpreterError, match="fp32 cannot be interpreted as an integer"):
        kernel[(1,)](np.zeros(1, np.int32), 2.5)


def test_compiling_needs_the_source():
    with pytest.raises(OSError, match="runs only on the interpreter"):
        _generated(LOOPS, "loops", interpret=None)


def test_generated_text_in_linecache_is_rewritten_as_a_file_is():
    # A generator that registers its text gets the compiled meaning: the
    # loop variable is a tensor of the bounds' type, as compiled.
    text = '''
@tritium.jit(interpret=True)
def typed_loop(out_ptr, n):
    for i in range(n):
        tl.static_assert(i.dtype == tl.int32)
        tl.store(out_ptr + i, i)
'''
    filename = "<generated typed_loop>"
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    ns = {}
    exec(compile(text, filename, "exec"), {"tritium": tritium, "tl": tl}, ns)
    kernel = ns["typed_loop"]
    assert kernel.src.startswith("def typed_loop")
    out = np.zeros(3, np.int32)
    kernel[(1,)](out, 3)
    np.testing.assert_array_equal(out, [0, 1, 2])


def test_a_one_element_block_is_its_value():
    kernel = _generated('''
@tritium.jit(interpret=True)
def one_element(out_ptr, n):
    flag = tl.full((1,), n, tl.int32) > 2
    if flag:
        tl.store(out_ptr, 1)
    for i in range(tl.full((1,), n, tl.int32)):
        tl.atomic_add(out_ptr + 1, 1)
''', "one_element")
    out = np.zeros(2, np.int32)
    kernel[(1,)](out, 3)
    np.testing.assert_array_equal(out, [1, 3])
