"""The cpu target end to end: kernels compiled for the host CPU
(codegen/cpu/), linked into the process and run on its threads by the cpu
driver (runtime/CpuDriver.h), on numpy arrays (and torch CPU tensors where
torch is installed). The conformance suite runs on it too
(TRITIUM_LANG_BACKENDS=cpu; tests/python/language/helpers.py)."""

import platform

import numpy as np
import pytest

import tritium
import tritium.language as tl
from tritium.errors import CudaError
from tritium.runtime import CpuDriver, driver
from tritium.language.extra import libdevice


@pytest.fixture
def cpu(monkeypatch):
    """TRITIUM_DEFAULT_BACKEND=cpu: the cpu driver is the active one."""
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cpu")
    driver.set_active(None)
    yield driver.active.get()
    monkeypatch.undo()
    driver.set_active(None)


@tritium.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=m) + tl.load(y_ptr + offs, mask=m), mask=m)


def test_default_backend_cpu_activates_the_cpu_driver(cpu):
    assert isinstance(cpu, CpuDriver)
    t = cpu.get_current_target()
    assert t.backend == "cpu" and t.warp_size == 1 and t.arch == cpu.properties()["arch"]
    assert str(t) == "cpu:" + t.arch
    assert cpu.properties()["num_threads"] >= 1


@pytest.mark.parametrize("n", [1, 1000, 1024, 98_432])
def test_vector_add_on_numpy_arrays(cpu, n):
    rng = np.random.default_rng(n)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    out = np.full(n + 7, -1.0, np.float32)  # past n: untouched
    add_kernel[(tritium.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    np.testing.assert_array_equal(out[:n], x + y)
    assert (out[n:] == -1).all()
    compiled = add_kernel.warmup(x, y, out, n, BLOCK=1024, grid=(1,))
    assert compiled.asm["obj"][:4] == b"\x7fELF"
    assert "define void @add_kernel(ptr" in compiled.asm["llir"]


@pytest.fixture
def no_gpu(monkeypatch):
    """No GPU driver active and no TRITIUM_DEFAULT_BACKEND: the NullDriver."""
    for name in ("TRITIUM_DEFAULT_BACKEND", "TRITON_DEFAULT_BACKEND", "TRITIUM_INTERPRET",
                 "TRITON_INTERPRET"):
        monkeypatch.delenv(name, raising=False)
    driver.set_active(driver.NullDriver())
    yield
    driver.set_active(None)


def test_without_a_gpu_host_tensors_launch_on_the_cpu(no_gpu):
    # kernel[grid] on numpy arrays (and torch CPU tensors) where no GPU
    # driver is active: compiled for the cpu target and run, launch after
    # launch; the active driver stays the NullDriver.
    x, y = np.arange(3000, dtype=np.float32), np.full(3000, 0.5, np.float32)
    for _ in range(3):
        out = np.zeros(3000, np.float32)
        k = add_kernel[(3,)](x, y, out, 3000, BLOCK=1024)
        np.testing.assert_array_equal(out, x + 0.5)
    assert k.target.backend == "cpu" and k.n_regs is not None
    assert isinstance(driver.active.get(), driver.NullDriver)
    torch = pytest.importorskip("torch")
    tx, ty, tout = torch.rand(100), torch.rand(100), torch.empty(100)
    add_kernel[(1,)](tx, ty, tout, 100, BLOCK=128)
    assert torch.equal(tout, tx + ty)


class _DeviceTensor:
    """A pointer that lives nowhere the cpu can read (data_ptr, no device)."""
    dtype = np.dtype("float32")

    def data_ptr(self):
        return 0x7F0000000000


def test_without_a_gpu_other_tensors_still_have_no_backend(no_gpu):
    x = np.zeros(16, np.float32)
    with pytest.raises(driver.NoBackendError, match="no GPU backend available"):
        add_kernel[(1,)](x, _DeviceTensor(), x, 16, BLOCK=16)  # mixed: not all host memory
    with pytest.raises(driver.NoBackendError, match="no GPU backend available"):
        add_kernel[(1,)](_DeviceTensor(), _DeviceTensor(), _DeviceTensor(), 16, BLOCK=16)


def test_vector_add_on_torch_cpu_tensors(cpu):
    torch = pytest.importorskip("torch")
    x, y = torch.rand(5000), torch.rand(5000)
    out = torch.empty(5000)
    add_kernel[(5,)](x, y, out, 5000, BLOCK=1024)
    assert torch.equal(out, x + y)


@tritium.jit
def softmax_kernel(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(in_ptr + row * stride + cols, mask=cols < n_cols, other=-float("inf"))
    z = x - tl.max(x, axis=0)
    num = tl.exp(z)
    tl.store(out_ptr + row * stride + cols, num / tl.sum(num, axis=0), mask=cols < n_cols)


def test_softmax(cpu):
    x = np.random.default_rng(0).standard_normal((37, 100)).astype(np.float32)
    out = np.empty_like(x)
    softmax_kernel[(37,)](out, x, 100, 100, BLOCK=128)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(out, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


@tritium.jit
def grid_kernel(out_ptr):
    x, y, z = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    gx, gy = tl.num_programs(0), tl.num_programs(1)
    tl.store(out_ptr + (z * gy + y) * gx + x, x + 10 * y + 100 * z + 1000 * tl.num_programs(2))


def test_three_dimensional_grid(cpu):
    out = np.zeros(4 * 3 * 2, np.int32)
    grid_kernel[(4, 3, 2)](out)
    z, y, x = np.meshgrid(range(2), range(3), range(4), indexing="ij")
    np.testing.assert_array_equal(out, (x + 10 * y + 100 * z + 2000).ravel())


@tritium.jit
def count_kernel(counter_ptr, BLOCK: tl.constexpr):
    tl.atomic_add(counter_ptr + tl.arange(0, BLOCK) % 4, 1)


def test_atomics_from_every_thread(cpu):
    """Programs run on several threads at once: the adds are atomic."""
    counter = np.zeros(4, np.int32)
    count_kernel[(500,)](counter, BLOCK=64)
    np.testing.assert_array_equal(counter, [8000] * 4)


@tritium.jit
def runs_kernel(count_ptr):
    tl.atomic_add(count_ptr + tl.program_id(0), 1)


@pytest.mark.parametrize("n", [1, 2, 3, 63, 64, 65, 1000, 4097, 100_003])
def test_every_program_runs_once(cpu, n):
    """The pool's threads take programs in chunks that shrink as the grid
    empties: none is run twice or left out."""
    count = np.zeros(n, np.int32)
    runs_kernel[(n,)](count)
    assert (count == 1).all(), np.flatnonzero(count != 1)[:10]


@pytest.mark.skipif(platform.machine() != "x86_64", reason="cross-compiles from an x86-64 host")
def test_an_aarch64_processor_compiles_for_aarch64(cpu):
    """cpu:<name> with a name only AArch64 knows compiles the same kernel
    for AArch64 Linux (NEON vectors); this host refuses to run the object,
    naming both architectures; a name neither knows is a compile error."""
    from tritium.compiler.compiler import ASTSource
    from tritium.errors import CompilationError
    sig = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"}
    src = ASTSource(add_kernel, sig, {"BLOCK": 1024}, {})
    k = tritium.compile(src, target="cpu:neoverse-v1")
    obj = k.asm["obj"]
    assert obj[:4] == b"\x7fELF" and int.from_bytes(obj[18:20], "little") == 183  # EM_AARCH64
    assert 'target triple = "aarch64-unknown-linux-gnu"' in k.asm["llir"]
    assert "<4 x float>" in k.asm["llir"]  # NEON's 16-byte registers
    x = np.ones(1024, np.float32)
    with pytest.raises(CudaError, match="compiled for aarch64, not this x86_64 host"):
        k[(1, 1, 1)](x, x, x, 1024)
    with pytest.raises(CompilationError, match="no processor 'nosuchcpu' for .* or AArch64"):
        tritium.compile(src, target="cpu:nosuchcpu")


@tritium.jit
def exp_kernel(x_ptr, e_ptr, e2_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m)
    tl.store(e_ptr + offs, tl.exp(x), mask=m)
    tl.store(e2_ptr + offs, tl.exp2(x), mask=m)


def test_exp_and_exp2_within_an_ulp(cpu):
    """fp32 exp and exp2 are computed inline (codegen/cpu/CPUTargetInfo.cpp):
    within 1 ulp of the exact value over the whole range, subnormal
    results included; overflow is inf, -inf gives 0, NaN stays NaN."""
    rng = np.random.default_rng(41)
    edges = [0.0, -0.0, np.inf, -np.inf, np.nan, 88.72, 88.7229, 89.0, -87.33, -103.97, -103.98,
             -104.0, 127.99, 128.0, -126.0, -149.0, -149.5, -150.0, -151.0, 1e-30, -1e-30]
    x = np.concatenate([rng.uniform(-160, 130, 1 << 18), rng.uniform(-1, 1, 1 << 14),
                        edges]).astype(np.float32)
    e, e2 = np.empty_like(x), np.empty_like(x)
    exp_kernel[(tritium.cdiv(x.size, 1024),)](x, e, e2, x.size, BLOCK=1024)
    for got, exact in ((e, np.exp(x.astype(np.float64))), (e2, np.exp2(x.astype(np.float64)))):
        with np.errstate(over="ignore"):
            rounded = exact.astype(np.float32)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(exact))
        big = np.isinf(rounded)
        np.testing.assert_array_equal(got[big], rounded[big])  # inf, and 0 for -inf
        ok = ~big & ~np.isnan(exact)
        ulps = np.abs(got[ok] - exact[ok]) / np.spacing(rounded[ok]).astype(np.float64)
        assert ulps.max() < 1, (x[ok][ulps.argmax()], got[ok][ulps.argmax()], exact[ok][ulps.argmax()])
    assert e[-21:-17].tolist() == [1.0, 1.0, np.inf, 0.0]  # 0, -0, inf, -inf


@tritium.jit
def math_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, libdevice.erf(x) + tl.sqrt(x) + libdevice.fast_expf(x))


def test_libdevice_functions_are_the_c_librarys(cpu):
    x = np.linspace(0.1, 3, 64, dtype=np.float32)
    out = np.empty_like(x)
    math_kernel[(1,)](x, out, BLOCK=64)
    from math import erf
    ref = np.array([erf(v) for v in x.astype(np.float64)]) + np.sqrt(x.astype(np.float64)) + np.exp(x)
    np.testing.assert_allclose(out, ref, rtol=1e-5)


@tritium.jit
def erfinv_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, libdevice.erfinv(tl.load(x_ptr + offs)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_erfinv_has_a_body(cpu, dtype):
    # The C library has no erfinv: the cpu target writes one (a guess and
    # Newton steps on erf). erf of the result gives the input back; the
    # edges are libdevice's.
    from math import erf
    y = np.concatenate([np.linspace(-0.999999, 0.999999, 58),
                        [0.0, -0.0, 1.0, -1.0, 1.5, np.nan]]).astype(dtype)
    out = np.empty_like(y)
    erfinv_kernel[(1,)](y, out, BLOCK=64)
    inner = out[:58].astype(np.float64)
    back = np.array([erf(v) for v in inner])
    tol = 2e-7 if dtype == np.float32 else 1e-15
    np.testing.assert_allclose(back, y[:58].astype(np.float64), rtol=0, atol=tol * 4)
    assert out[58] == 0 and not np.signbit(out[58]) and out[59] == 0 and np.signbit(out[59])
    assert out[60] == np.inf and out[61] == -np.inf and np.isnan(out[62]) and np.isnan(out[63])


@tritium.jit
def missing_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, libdevice.saturatef(tl.load(x_ptr + offs)))


def test_a_libdevice_function_the_cpu_lacks_is_an_error_at_its_line(cpu):
    with pytest.raises(tritium.CompilationError, match="cpu target has no such libdevice") as e:
        missing_kernel[(1,)](np.zeros(16, np.float32), BLOCK=16)
    assert "test_cpu_target.py:" in str(e.value)  # the line that asked for it


@tritium.jit
def assert_kernel(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_assert(x < 10, "x is too large")


def test_a_failed_device_assert_fails_the_launch(cpu, monkeypatch):
    monkeypatch.setenv("TRITIUM_DEBUG", "1")
    x = np.arange(16, dtype=np.float32)
    with pytest.raises(CudaError, match="device-side assertion failed: .*x is too large"):
        assert_kernel[(2,)](x, BLOCK=16)
    assert_kernel[(2,)](np.zeros(16, np.float32), BLOCK=16)  # the next launch is fine


@tritium.jit
def far_load_kernel(x_ptr, out_ptr, far, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    where = tl.where(tl.program_id(0) == 5, far, 0)  # one program of the grid strays
    tl.store(out_ptr + offs, tl.load(x_ptr + where + offs) + 1)


def test_an_illegal_address_fails_the_launch_not_the_process(cpu):
    """A kernel's load from an unmapped address ends the launch with an
    error naming the program and the address, as a GPU's illegal address
    does (the process died of SIGSEGV); the next launches run."""
    x = np.arange(64 * 8, dtype=np.float32)
    out = np.zeros_like(x)
    for _ in range(2):
        with pytest.raises(CudaError, match=r"illegal memory access .* in program \(5, 0, 0\)"):
            far_load_kernel[(8,)](x, out, 1 << 44, BLOCK=64)
    far_load_kernel[(8,)](x, out, 0, BLOCK=64)
    assert np.array_equal(out, x + 1)


@tritium.jit
def print_kernel(x_ptr):
    tl.device_print("value", tl.load(x_ptr))


def test_device_print(cpu, capfd):
    print_kernel[(1,)](np.array([42], np.int32))
    assert "value" in capfd.readouterr().out


def test_benchmark_times_with_the_host_clock(cpu):
    x = np.ones(1 << 16, np.float32)
    out = np.empty_like(x)
    ms = tritium.testing.do_bench(lambda: add_kernel[(64,)](x, x, out, x.size, BLOCK=1024),
                                  warmup=5, rep=20)
    assert 0 < ms < 1000
    assert (out == 2).all()


@tritium.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
               ACC: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    c = tl.load(c_ptr + rm[:, None] * N + rn[None, :])
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], tl.dot(a, b, c.to(ACC)).to(c.dtype))


@pytest.mark.parametrize("dtype, acc", [("float32", "float32"), ("float16", "float32"),
                                        ("int8", "int32"), ("float64", "float64")])
def test_dot_updates_rows_in_vectors(cpu, dtype, acc):
    """The cpu's own dot (CPULowerDot.cpp): A, B and C through stack buffers,
    a loop nest over rows and K."""
    M, N, K = 32, 64, 32
    rng = np.random.default_rng(1)
    a = rng.integers(-4, 5, (M, K)).astype(dtype)
    b = rng.integers(-4, 5, (K, N)).astype(dtype)
    c = rng.integers(-4, 5, (M, N)).astype(acc)
    ref = a.astype(acc) @ b.astype(acc) + c
    dot_kernel[(1,)](a, b, c, M=M, N=N, K=K, ACC=getattr(tl, acc))
    np.testing.assert_array_equal(c, ref)


@tritium.jit
def asm_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [tl.load(x_ptr + offs)],
                                  dtype=tl.int32, is_pure=True, pack=1)
    tl.store(x_ptr + offs, y)


def test_inline_assembly_is_refused_not_a_crash(cpu):
    with pytest.raises(tritium.CompilationError, match="does not support inline assembly"):
        asm_kernel[(1,)](np.zeros(16, np.int32), BLOCK=16)


@tritium.jit
def big_kernel(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1)


@tritium.jit
def big_sum_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    tl.store(out_ptr, tl.sum(tl.load(x_ptr + tl.arange(0, BLOCK))))


def test_a_block_past_the_element_limit_is_out_of_resources(cpu):
    # A sum over the whole block needs every element in one thread.
    from tritium.errors import OutOfResources
    x = np.zeros(1 << 18, np.float32)
    with pytest.raises(OutOfResources, match="elements of one block per thread"):
        big_sum_kernel.warmup(x, x, BLOCK=1 << 18, grid=(1,))


def test_a_large_elementwise_block_is_a_loop_of_threads(cpu):
    # 2^20 elements: 4,096 threads of 256, compiled in about a second (one
    # thread would be 32 times past the element limit).
    x = np.arange(1 << 20, dtype=np.float32)
    k = big_kernel[(1,)](x, BLOCK=1 << 20)
    assert np.array_equal(x, np.arange(1 << 20, dtype=np.float32) + 1)
    assert "lane=[], warp=[[256], [512]," in k.asm["tgir"]


@tritium.jit
def row_stats_kernel(x_ptr, out_ptr, count_ptr, N: tl.constexpr):
    rows = tl.program_id(0) * 64 + tl.arange(0, 64)
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + rows[:, None] * N + cols[None, :])
    # Rows reduced within their thread; a scalar atomic done by one thread
    # of the program (its owner), not by each.
    y = x - tl.max(x, axis=1)[:, None]
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], y / tl.sum(tl.exp(y), axis=1)[:, None])
    tl.atomic_add(count_ptr, 1)


def test_rows_reduced_in_a_loop_of_threads(cpu):
    x = np.random.default_rng(0).standard_normal((256, 128)).astype(np.float32)
    out, count = np.empty_like(x), np.zeros(1, np.int32)
    k = row_stats_kernel[(4,)](x, out, count, N=128)
    assert "warp=[]" not in k.asm["tgir"]  # a loop of 64 threads, a row each
    y = x - x.max(axis=1, keepdims=True)
    np.testing.assert_allclose(out, y / np.exp(y).sum(axis=1, keepdims=True), rtol=1e-5,
                               atol=1e-7)
    assert count[0] == 4


@tritium.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr,
                  BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        kk = k * BK + rk
        a = tl.load(a_ptr + rm[:, None] * K + kk[None, :], mask=(rm[:, None] < M) & (kk[None, :] < K),
                    other=0.0)
        b = tl.load(b_ptr + kk[:, None] * N + rn[None, :], mask=(kk[:, None] < K) & (rn[None, :] < N),
                    other=0.0)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


def test_a_loop_carries_the_tile(cpu):
    """The accumulator crosses the K loop in vectors (loopValueVectorWidth);
    ragged on every side."""
    M, N, K = 70, 50, 100
    rng = np.random.default_rng(2)
    a = rng.standard_normal((M, K)).astype(np.float32)
    b = rng.standard_normal((K, N)).astype(np.float32)
    c = np.zeros((M, N), np.float32)
    matmul_kernel[(3, 2)](a, b, c, M, N, K, BM=32, BN=32, BK=32)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4, atol=1e-4)


@tritium.jit
def classify_kernel(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, libdevice.isnan(x) + 2 * libdevice.isinf(x) + 4 * libdevice.signbit(x))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_classification_functions_have_bodies(cpu, dtype):
    """isnan, isinf and signbit are macros in C: the cpu target writes them."""
    x = np.array([0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan, -np.nan] * 2, dtype)
    out = np.zeros(16, np.int32)
    classify_kernel[(1,)](x, out, BLOCK=16)
    np.testing.assert_array_equal(out, np.isnan(x) + 2 * np.isinf(x) + 4 * np.signbit(x))
