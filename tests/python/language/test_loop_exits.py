"""break, continue and return inside loops (issue 16; Triton rejects them):
dynamic for and while loops get the extra edges and phis, with the
loop-carried values meeting at the exit and at the latch; static loops
(tl.static_range, tuples) honour them under compile-time conditions and
refuse them under run-time ones; a software-pipelined loop with a break
is left unpipelined, one with a continue keeps its result."""

import numpy as np
import pytest

import tritium
import tritium.language as tl

from .helpers import assert_close, expect_error, random_values, rng


def k_scan_until(X, Z, N, LIMIT):
    # Sum the non-negative elements until the sum passes LIMIT.
    acc = 0.0
    count = 0
    last = -1
    for i in range(N):
        v = tl.load(X + i)
        if v < 0:
            continue
        acc += v
        count += 1
        last = i
        if acc > LIMIT:
            break
    tl.store(Z, acc)
    tl.store(Z + 1, count.to(tl.float32))
    tl.store(Z + 2, last.to(tl.float32))


def scan_until(x, limit):
    acc, count, last = 0.0, 0, -1
    for i, v in enumerate(x):
        if v < 0:
            continue
        acc += float(v)
        count += 1
        last = i
        if acc > limit:
            break
    return acc, count, last


@pytest.mark.parametrize("limit", [-1.0, 2.0, 5.0, 1e9])
def test_for_with_break_and_continue(backend, limit):
    x = random_values("float32", 64, rng(160))
    z = np.zeros(3, np.float32)
    _, out = backend.run(k_scan_until, 1, x, z, 64, limit)
    acc, count, last = scan_until(x, limit)
    assert_close(out[0], np.float32(acc), rtol=1e-5)
    assert out[1] == count and out[2] == last


def k_while_break(X, Z, N, TARGET):
    # The first index holding TARGET, from a while loop with two exits.
    i = 0
    found = -1
    while i < N:
        if tl.load(X + i) == TARGET:
            found = i
            break
        i += 1
    tl.store(Z, found)
    tl.store(Z + 1, i)


@pytest.mark.parametrize("target", [7, 3, 100])
def test_while_with_break(backend, target):
    x = np.array([5, 1, 3, 9, 7, 3, 2, 8], np.int32)
    z = np.zeros(2, np.int32)
    _, out = backend.run(k_while_break, 1, x, z, len(x), target)
    hits = np.flatnonzero(x == target)
    first = int(hits[0]) if len(hits) else -1
    assert out[0] == first and out[1] == (first if len(hits) else len(x))


def k_while_continue(Z, N):
    # The sum of the odd numbers below N, with continue in a while loop.
    i = 0
    acc = 0
    while i < N:
        i += 1
        if i % 2 == 0:
            continue
        acc += i
    tl.store(Z, acc)


@pytest.mark.parametrize("n", [0, 1, 10, 33])
def test_while_with_continue(backend, n):
    z = np.zeros(1, np.int32)
    (out, ) = backend.run(k_while_continue, 1, z, n)
    assert out[0] == sum(i for i in range(1, n + 1) if i % 2)


def k_nested_break(Z, M, N):
    # The inner break leaves the inner loop only.
    acc = 0
    for i in range(M):
        for j in range(N):
            if j > i:
                break
            acc += j + 1
        if i == 5:
            continue
        acc += 100
    tl.store(Z, acc)


def test_break_leaves_the_innermost_loop(backend):
    z = np.zeros(1, np.int32)
    (out, ) = backend.run(k_nested_break, 1, z, 8, 4)
    acc = 0
    for i in range(8):
        for j in range(4):
            if j > i:
                break
            acc += j + 1
        if i == 5:
            continue
        acc += 100
    assert out[0] == acc


def k_block_until(X, Z, N, LIMIT, BLOCK: tl.constexpr):
    # Blocks as loop-carried values through both kinds of edge.
    acc = tl.zeros([BLOCK], tl.float32)
    for start in range(0, N, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        v = tl.load(X + offs, mask=offs < N, other=0.0)
        if tl.sum(v) < 0:
            continue
        acc += v
        if tl.sum(acc) > LIMIT:
            break
    tl.store(Z + tl.arange(0, BLOCK), acc)


@pytest.mark.parametrize("limit", [3.0, 1e9])
def test_blocks_through_break_and_continue(backend, limit):
    x = random_values("float32", 200, rng(161))
    z = np.zeros(16, np.float32)
    _, out = backend.run(k_block_until, 1, x, z, 200, limit, BLOCK=16)
    acc = np.zeros(16, np.float32)
    for start in range(0, 200, 16):
        v = np.zeros(16, np.float32)
        part = x[start:start + 16]
        v[:len(part)] = part
        if v.sum() < 0:
            continue
        acc += v
        if acc.sum() > limit:
            break
    assert_close(out, acc, rtol=1e-5, atol=1e-5)


@tritium.jit
def find_first(X, N, TARGET):
    for i in range(N):
        if tl.load(X + i) == TARGET:
            return i
    return -1


@tritium.jit(noinline=True)
def find_first_noinline(X, N, TARGET):
    for i in range(N):
        if tl.load(X + i) == TARGET:
            return i
    return -1


def k_return_in_loop(X, Z, N, TARGET):
    tl.store(Z, find_first(X, N, TARGET))
    tl.store(Z + 1, find_first_noinline(X, N, TARGET))


@pytest.mark.parametrize("target", [9, 2, 42])
def test_return_inside_a_loop(backend, target):
    x = np.array([5, 1, 3, 9, 7, 3, 2, 8], np.int32)
    z = np.zeros(2, np.int32)
    _, out = backend.run(k_return_in_loop, 1, x, z, len(x), target)
    hits = np.flatnonzero(x == target)
    assert list(out) == [int(hits[0]) if len(hits) else -1] * 2


def k_static_jumps(Z, STOP: tl.constexpr):
    acc = 0
    for i in tl.static_range(8):
        if i == 1:
            continue
        if i == STOP:
            break
        acc += i
    tl.store(Z, acc)


@pytest.mark.parametrize("stop", [0, 3, 8])
def test_static_loop_with_compile_time_jumps(backend, stop):
    z = np.zeros(1, np.int32)
    (out, ) = backend.run(k_static_jumps, 1, z, STOP=stop)
    assert out[0] == sum(i for i in range(8) if i != 1 and i < stop)


def k_static_break_on_runtime_value(Z, N):
    acc = 0
    for i in tl.static_range(4):
        if i >= N:
            break
        acc += i
    tl.store(Z, acc)


def test_static_loop_refuses_a_runtime_break(backend):
    if backend.name == "interpreter":
        pytest.skip("the interpreter runs the loop as Python does, where this break is fine")
    z = np.zeros(1, np.int32)
    err = expect_error(backend.run, k_static_break_on_runtime_value, 1, z, 2)
    assert "'break' under a run-time condition is not supported in a static loop" in str(err)


def k_dot_loop(A, B, C, K, STOP, SKIP, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in tl.range(0, K, BK, num_stages=3):
        if k >= STOP:
            break
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(B + (k + rk)[:, None] * BN + rn[None, :])
        if k == SKIP:
            continue
        acc += tl.dot(a, b)
    tl.store(C + rm[:, None] * BN + rn[None, :], acc)


@pytest.mark.parametrize("stop,skip", [(1 << 20, -1), (64, -1), (1 << 20, 32), (96, 0)])
def test_pipelined_loop_with_break_and_continue(backend, stop, skip):
    bm = bn = 32
    bk, k = 16, 128
    rs = rng(162)
    a = rs.uniform(-1, 1, (bm, k)).astype(np.float16)
    b = rs.uniform(-1, 1, (k, bn)).astype(np.float16)
    c = np.zeros((bm, bn), np.float32)
    _, _, out = backend.run(k_dot_loop, 1, a, b, c, k, stop, skip, BM=bm, BN=bn, BK=bk)
    ref = np.zeros((bm, bn), np.float32)
    for s in range(0, k, bk):
        if s >= stop:
            break
        if s == skip:
            continue
        ref += a[:, s:s + bk].astype(np.float32) @ b[s:s + bk].astype(np.float32)
    assert_close(out, ref, rtol=1e-2, atol=1e-2)


def k_dot_then_continue(A, B, C, K, SKIP, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # The continue comes after the dot: the loop stays pipelined.
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in tl.range(0, K, BK, num_stages=3):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(B + (k + rk)[:, None] * BN + rn[None, :])
        acc += tl.dot(a, b)
        if k == SKIP:
            continue
        acc = acc * 0.5
    tl.store(C + rm[:, None] * BN + rn[None, :], acc)


@pytest.mark.parametrize("skip", [-1, 32])
def test_pipelined_loop_with_continue_after_the_dot(backend, skip):
    bm = bn = 32
    bk, k = 16, 64
    rs = rng(163)
    a = rs.uniform(-1, 1, (bm, k)).astype(np.float16)
    b = rs.uniform(-1, 1, (k, bn)).astype(np.float16)
    c = np.zeros((bm, bn), np.float32)
    _, _, out = backend.run(k_dot_then_continue, 1, a, b, c, k, skip, BM=bm, BN=bn, BK=bk)
    ref = np.zeros((bm, bn), np.float32)
    for s in range(0, k, bk):
        ref += a[:, s:s + bk].astype(np.float32) @ b[s:s + bk].astype(np.float32)
        if s == skip:
            continue
        ref *= 0.5
    assert_close(out, ref, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("target", ["cuda:80", "cuda:90a"])
def test_which_loops_are_pipelined(target):
    from tritium.compiler.compiler import ASTSource
    sig = {"A": "*fp16", "B": "*fp16", "C": "*fp32", "K": "i32"}
    consts = {"BM": 64, "BN": 64, "BK": 32}
    after = tritium.compile(ASTSource(tritium.jit(k_dot_then_continue), {**sig, "SKIP": "i32"}, consts),
                            target=target)
    assert "async_copy" in after.asm["tgir"]
    exits = tritium.compile(ASTSource(tritium.jit(k_dot_loop), {**sig, "STOP": "i32", "SKIP": "i32"}, consts),
                            target=target)
    assert "async_copy" not in exits.asm["tgir"] and "local_alloc" in exits.asm["tgir"]


def k_dot_under_if(A, B, C, K, SKIP, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # Not a loop exit, but the same trap for the pipeliner: the dot (and the
    # buffers of its operands) in a block that some iterations skip.
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    acc = tl.zeros([BM, BN], tl.float32)
    for k in tl.range(0, K, BK, num_stages=3):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(B + (k + rk)[:, None] * BN + rn[None, :])
        if k != SKIP:
            acc += tl.dot(a, b)
    tl.store(C + rm[:, None] * BN + rn[None, :], acc)


def test_pipelined_loop_with_the_dot_under_an_if(backend):
    bm = bn = 32
    bk, k = 16, 64
    rs = rng(164)
    a = rs.uniform(-1, 1, (bm, k)).astype(np.float16)
    b = rs.uniform(-1, 1, (k, bn)).astype(np.float16)
    c = np.zeros((bm, bn), np.float32)
    _, _, out = backend.run(k_dot_under_if, 1, a, b, c, k, 16, BM=bm, BN=bn, BK=bk)
    ref = sum(a[:, s:s + bk].astype(np.float32) @ b[s:s + bk].astype(np.float32) for s in (0, 32, 48))
    assert_close(out, ref, rtol=1e-2, atol=1e-2)


def k_kernel_returns_from_a_loop(X, Z, N):
    for i in range(N):
        v = tl.load(X + i)
        if v < 0:
            tl.store(Z, i)
            return
        tl.store(Z + 1, v)
    tl.store(Z, -1)


@pytest.mark.parametrize("values,expect", [([3, 4, -1, 5], [2, 4]), ([3, 4, 1, 5], [-1, 5])])
def test_a_kernel_returns_from_inside_a_loop(backend, values, expect):
    x = np.array(values, np.int32)
    z = np.zeros(2, np.int32)
    _, out = backend.run(k_kernel_returns_from_a_loop, 1, x, z, len(x))
    assert list(out) == expect
