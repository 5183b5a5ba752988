"""The CUDA launch path on a real GPU (marker ``gpu``: skipped without one).

The kernels are PTX written here (``PTXBackend`` makes it a kernel's ``ptx``
stage, and its ``cubin`` stage when asked), so these tests check the runtime
alone: loading (cubin, or PTX through the driver's JIT), the >48 KB shared
memory opt-in, argument packing as the device reads it, torch's current
stream, cupy arrays, driver errors, do_bench. The last test runs a kernel
compiled by Tritium's own NVIDIA backend end to end.
"""

import struct

import pytest

import tritium
import tritium.language as tl
from tritium.compiler import compiler
from tritium.errors import CudaError, OutOfResources
from tritium.runtime import CudaDriver, driver
from tritium.runtime.jit import cdiv, jit

pytestmark = pytest.mark.gpu

HEADER = ".version 8.0\n.target sm_{arch}\n.address_size 64\n\n"

# out[i] = x[i] + y[i] for i < n; i = ctaid.x * ntid.x + tid.x.
ADD_PTX = """
.visible .entry add_kernel(
\t.param .u64 add_kernel_param_0,
\t.param .u64 add_kernel_param_1,
\t.param .u64 add_kernel_param_2,
\t.param .u32 add_kernel_param_3
)
{
\t.reg .pred %p<2>;
\t.reg .b32 %r<6>;
\t.reg .f32 %f<4>;
\t.reg .b64 %rd<11>;

\tld.param.u64 %rd1, [add_kernel_param_0];
\tld.param.u64 %rd2, [add_kernel_param_1];
\tld.param.u64 %rd3, [add_kernel_param_2];
\tld.param.u32 %r2, [add_kernel_param_3];
\tmov.u32 %r3, %ctaid.x;
\tmov.u32 %r4, %ntid.x;
\tmov.u32 %r5, %tid.x;
\tmad.lo.s32 %r1, %r3, %r4, %r5;
\tsetp.ge.s32 %p1, %r1, %r2;
\t@%p1 bra $L__done;
\tcvta.to.global.u64 %rd4, %rd1;
\tmul.wide.s32 %rd5, %r1, 4;
\tadd.s64 %rd6, %rd4, %rd5;
\tcvta.to.global.u64 %rd7, %rd2;
\tadd.s64 %rd8, %rd7, %rd5;
\tld.global.f32 %f1, [%rd8];
\tld.global.f32 %f2, [%rd6];
\tadd.f32 %f3, %f2, %f1;
\tcvta.to.global.u64 %rd9, %rd3;
\tadd.s64 %rd10, %rd9, %rd5;
\tst.global.f32 [%rd10], %f3;
$L__done:
\tret;
}
"""

# Thread 0 writes every scalar parameter's bits, zero-extended, to out[k].
ECHO_PTX = """
.visible .entry echo(
\t.param .u64 echo_param_0,
\t.param .u8 echo_param_1,
\t.param .u16 echo_param_2,
\t.param .u32 echo_param_3,
\t.param .u64 echo_param_4,
\t.param .b16 echo_param_5,
\t.param .b16 echo_param_6,
\t.param .b32 echo_param_7,
\t.param .b64 echo_param_8,
\t.param .u8 echo_param_9
)
{
\t.reg .pred %p<2>;
\t.reg .b16 %rs<5>;
\t.reg .b32 %r<4>;
\t.reg .b64 %rd<12>;

\tmov.u32 %r1, %tid.x;
\tsetp.ne.s32 %p1, %r1, 0;
\t@%p1 bra $L__done;
\tld.param.u64 %rd1, [echo_param_0];
\tcvta.to.global.u64 %rd1, %rd1;
\tld.param.u8 %rs1, [echo_param_1];
\tcvt.u64.u16 %rd2, %rs1;
\tst.global.u64 [%rd1], %rd2;
\tld.param.u16 %rs2, [echo_param_2];
\tcvt.u64.u16 %rd3, %rs2;
\tst.global.u64 [%rd1+8], %rd3;
\tld.param.u32 %r2, [echo_param_3];
\tcvt.u64.u32 %rd4, %r2;
\tst.global.u64 [%rd1+16], %rd4;
\tld.param.u64 %rd5, [echo_param_4];
\tst.global.u64 [%rd1+24], %rd5;
\tld.param.b16 %rs3, [echo_param_5];
\tcvt.u64.u16 %rd6, %rs3;
\tst.global.u64 [%rd1+32], %rd6;
\tld.param.b16 %rs4, [echo_param_6];
\tcvt.u64.u16 %rd7, %rs4;
\tst.global.u64 [%rd1+40], %rd7;
\tld.param.b32 %r3, [echo_param_7];
\tcvt.u64.u32 %rd8, %r3;
\tst.global.u64 [%rd1+48], %rd8;
\tld.param.b64 %rd9, [echo_param_8];
\tst.global.u64 [%rd1+56], %rd9;
\tld.param.u8 %rs1, [echo_param_9];
\tcvt.u64.u16 %rd10, %rs1;
\tst.global.u64 [%rd1+64], %rd10;
$L__done:
\tret;
}
"""

# Thread 0 writes a word to the last 4 bytes of `nbytes` of dynamic shared
# memory, reads it back and stores it to out[0].
SMEM_PTX = """
.extern .shared .align 16 .b8 global_smem[];

.visible .entry smem_probe(
\t.param .u64 smem_probe_param_0,
\t.param .u32 smem_probe_param_1
)
{
\t.reg .pred %p<2>;
\t.reg .b32 %r<8>;
\t.reg .b64 %rd<3>;

\tmov.u32 %r1, %tid.x;
\tsetp.ne.s32 %p1, %r1, 0;
\t@%p1 bra $L__done;
\tld.param.u64 %rd1, [smem_probe_param_0];
\tld.param.u32 %r2, [smem_probe_param_1];
\tmov.u32 %r3, global_smem;
\tadd.s32 %r4, %r3, %r2;
\tadd.s32 %r4, %r4, -4;
\tmov.u32 %r5, 19088743;
\tst.shared.u32 [%r4], %r5;
\tld.volatile.shared.u32 %r6, [%r4];
\tcvta.to.global.u64 %rd2, %rd1;
\tst.global.u32 [%rd2], %r6;
$L__done:
\tret;
}
"""


class PTXBackend:
    """Compile stages for "cuda" that end in hand-written PTX per kernel
    name (and a cubin from ptxas when ``cubin`` is set)."""

    options = {}

    def __init__(self, cubin):
        self.cubin = cubin
        self.binary_ext = "cubin" if cubin else "ptx"
        self.ptx = {"add_kernel": ADD_PTX, "echo": ECHO_PTX, "smem_probe": SMEM_PTX}
        self.shared = {}

    @property
    def version(self):  # the disk cache keys on it
        return f"ptx-test cubin={self.cubin} shared={sorted(self.shared.items())} " \
               f"{hash(tuple(sorted(self.ptx.items())))}"

    def add_stages(self, stages, options, target):
        def ptx(module, metadata, opts):
            metadata["shared"] = self.shared.get(metadata["name"], 0)
            return HEADER.format(arch=target.arch) + self.ptx[metadata["name"]]
        stages["ptx"] = ptx
        if self.cubin:
            from tritium import _C

            def cubin(text, metadata, opts):
                res = _C.nvptx.assemble_cubin(text, target.arch, _C.nvptx.find_ptxas())
                metadata["n_regs"] = res["registers"]
                return res["cubin"]
            stages["cubin"] = cubin


@pytest.fixture
def gpu():
    drv = CudaDriver("")  # libcuda.so.1, whatever TRITIUM_LIBCUDA_PATH says
    if not drv.is_active():
        pytest.skip(f"no CUDA device: {drv.load_error()}")
    driver.set_active(drv)
    yield drv
    driver.set_active(None)


@pytest.fixture(params=["cubin", "ptx"])
def backend(request, monkeypatch):
    if request.param == "cubin":
        from tritium import _C
        if not _C.nvptx.find_ptxas():
            pytest.skip("no ptxas")
    b = PTXBackend(cubin=request.param == "cubin")
    monkeypatch.setitem(compiler._backends, "cuda", b)
    return b


@jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pass  # the body is ADD_PTX


@jit
def echo(out, a: tl.int8, b: tl.int16, c, d: tl.int64, e: tl.float16, f: tl.bfloat16, g,
         h: tl.float64, flag):
    pass  # the body is ECHO_PTX


@jit
def smem_probe(out, nbytes):
    pass  # the body is SMEM_PTX


@pytest.fixture(autouse=True)
def fresh_kernels():
    for k in (add_kernel, echo, smem_probe):
        k.device_caches.clear()


def test_target_device_and_stream_follow_torch(gpu):
    torch = pytest.importorskip("torch")
    major, minor = torch.cuda.get_device_capability()
    arch = major * 10 + minor
    # An H100/H200 gets sm_90a, its wgmma (TRITIUM_CUDA_ARCH=90: portable sm_90).
    want = compiler.GPUTarget("cuda", arch, 32, "sm_90a" if arch == 90 else None)
    assert gpu.get_current_target() == want
    assert gpu.get_current_device() == torch.cuda.current_device()
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        assert gpu.get_current_stream(gpu.get_current_device()) == s.cuda_stream


def test_vector_add_on_torch_tensors(gpu, backend):
    torch = pytest.importorskip("torch")
    n = 98432
    x = torch.rand(n, device="cuda")
    y = torch.rand(n, device="cuda")
    for _ in range(3):  # a compile, then warm launches through the dispatcher
        out = torch.empty_like(x)
        k = add_kernel[lambda meta: (cdiv(meta["n"], 128),)](x, y, out, n, BLOCK=128)
        torch.cuda.synchronize()
        assert torch.equal(out, x + y)
    assert len(add_kernel._dispatcher) == 1
    assert k.n_regs > 0 and k.n_max_threads >= 128 and k.n_spills == 0


def test_vector_add_on_a_side_stream(gpu, backend):
    torch = pytest.importorskip("torch")
    n = 1 << 20
    x = torch.rand(n, device="cuda")
    y = torch.rand(n, device="cuda")
    out = torch.zeros_like(x)
    add_kernel[(cdiv(n, 128),)](x, y, out, n, BLOCK=128)  # warm up on the default stream
    out.zero_()
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        add_kernel[(cdiv(n, 128),)](x, y, out, n, BLOCK=128)
    s.synchronize()
    assert torch.equal(out, x + y)


def test_stream_argument(gpu, backend):
    """stream= runs the kernel on that stream: only synchronizing it makes
    the result visible, whatever the current stream is doing."""
    torch = pytest.importorskip("torch")
    n = 1 << 20
    x = torch.rand(n, device="cuda")
    y = torch.rand(n, device="cuda")
    out = torch.zeros_like(x)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    for stream in (s, s.cuda_stream):
        out.zero_()
        s.wait_stream(torch.cuda.current_stream())
        add_kernel[(cdiv(n, 128),)](x, y, out, n, BLOCK=128, stream=stream)
        s.synchronize()
        assert torch.equal(out, x + y)


def test_vector_add_on_cupy_arrays(gpu, backend):
    cp = pytest.importorskip("cupy")
    n = 5000
    x = cp.random.rand(n, dtype=cp.float32)
    y = cp.random.rand(n, dtype=cp.float32)
    for _ in range(2):
        out = cp.zeros_like(x)
        add_kernel[(cdiv(n, 128),)](x, y, out, n, BLOCK=128)
        cp.cuda.runtime.deviceSynchronize()
        assert cp.array_equal(out, x + y)


def test_every_scalar_reaches_the_device(gpu, backend):
    torch = pytest.importorskip("torch")
    out = torch.zeros(9, dtype=torch.int64, device="cuda")
    for _ in range(2):
        echo[(1,)](out, -3, -300, 7, -5, 1.5, 1.5, 0.25, 2.5, True)
        torch.cuda.synchronize()
        got = [v & 0xFFFFFFFFFFFFFFFF for v in out.tolist()]
        assert got[0] == 0xFD and got[1] == 0xFED4 and got[2] == 7
        assert got[3] == 2**64 - 5
        assert got[4] == struct.unpack("<H", struct.pack("<e", 1.5))[0] == 0x3E00
        assert got[5] == 0x3FC0  # bf16 1.5
        assert got[6] == struct.unpack("<I", struct.pack("<f", 0.25))[0]
        assert got[7] == struct.unpack("<Q", struct.pack("<d", 2.5))[0]
        assert got[8] == 1
        out.zero_()


def test_more_than_48kb_of_dynamic_shared_memory(gpu, backend):
    torch = pytest.importorskip("torch")
    nbytes = 100 * 1024
    backend.shared["smem_probe"] = nbytes
    out = torch.zeros(1, dtype=torch.int32, device="cuda")
    for _ in range(2):
        smem_probe[(1,)](out, nbytes)
        torch.cuda.synchronize()
        assert out.item() == 0x1234567
        out.zero_()


def test_shared_memory_beyond_the_device_is_out_of_resources(gpu, backend):
    torch = pytest.importorskip("torch")
    limit = gpu.properties()["max_shared_mem"]
    backend.shared["smem_probe"] = limit + 1024
    out = torch.zeros(1, dtype=torch.int32, device="cuda")
    with pytest.raises(OutOfResources) as info:
        smem_probe[(1,)](out, 64)
    assert info.value.required == limit + 1024 and info.value.limit == limit


def test_bad_ptx_is_a_cuda_error_with_the_jit_log(gpu, monkeypatch):
    torch = pytest.importorskip("torch")
    b = PTXBackend(cubin=False)
    b.ptx["add_kernel"] = ADD_PTX.replace("add.f32", "add.f33")
    monkeypatch.setitem(compiler._backends, "cuda", b)
    x = torch.rand(4, device="cuda")
    with pytest.raises(CudaError) as info:
        add_kernel[(1,)](x, x, x, 4, BLOCK=128)
    assert info.value.name in ("CUDA_ERROR_INVALID_PTX", "CUDA_ERROR_INVALID_IMAGE")
    assert "loading kernel 'add_kernel'" in str(info.value)


def test_empty_grid_launches_nothing(gpu, backend):
    torch = pytest.importorskip("torch")
    x = torch.ones(4, device="cuda")
    out = torch.full((4,), 7.0, device="cuda")
    add_kernel[(1,)](x, x, out, 4, BLOCK=128)
    out.fill_(7.0)
    add_kernel[(0,)](x, x, out, 4, BLOCK=128)
    torch.cuda.synchronize()
    assert torch.equal(out, torch.full((4,), 7.0, device="cuda"))


def test_do_bench(gpu, backend):
    torch = pytest.importorskip("torch")
    n = 1 << 22
    x = torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    ms = tritium.testing.do_bench(lambda: add_kernel[(cdiv(n, 128),)](x, x, out, n, BLOCK=128),
                                  warmup=5, rep=20)
    assert 0 < ms < 10
    q = tritium.testing.do_bench(lambda: out.add_(1.0), warmup=5, rep=20, quantiles=[0.5, 0.8])
    assert len(q) == 2 and 0 < q[0] <= q[1]


def test_warm_launch_is_fast(gpu, backend):
    import time
    torch = pytest.importorskip("torch")
    x = torch.rand(1024, device="cuda")
    out = torch.empty_like(x)
    grid = (8,)
    add_kernel[grid](x, x, out, 1024, BLOCK=128)
    best = float("inf")
    for _ in range(20):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(100):
            add_kernel[grid](x, x, out, 1024, BLOCK=128)
        best = min(best, (time.perf_counter() - t0) / 100)
    torch.cuda.synchronize()
    print(f"warm launch: {best * 1e6:.2f} us")
    assert best < 50e-6  # a loose bound; bench/launch_overhead.py measures


@jit
def tritium_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


def test_tritium_compiled_vector_add(gpu):
    """End to end: Tritium's own NVIDIA backend compiles the kernel."""
    torch = pytest.importorskip("torch")
    n = 10000
    x = torch.rand(n, device="cuda")
    y = torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    for _ in range(2):
        tritium_add[lambda meta: (cdiv(meta["n"], meta["BLOCK"]),)](x, y, out, n, BLOCK=1024)
        torch.cuda.synchronize()
        assert torch.equal(out, x + y)


@jit
def slow_double(x_ptr, out_ptr, n, ROUNDS: tl.constexpr, BLOCK: tl.constexpr):
    # Lets the next kernel start at once, then takes a while to write.
    tl.extra.cuda.gdc_launch_dependents()
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n)
    acc = x
    for _ in range(ROUNDS):
        acc = acc * 1.0000001 - x * 0.0000001
    tl.store(out_ptr + offs, acc * 0 + 2 * x, mask=offs < n)


@jit
def plus_one(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    tl.extra.cuda.gdc_wait()  # the previous kernel's writes are visible from here
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)


def test_programmatic_dependent_launch(gpu):
    """launch_pdl=True (tutorial 11): the second kernel may start while the
    first runs (the first lets it at once); its gdc_wait still sees every
    write of the first."""
    torch = pytest.importorskip("torch")
    if torch.cuda.get_device_capability()[0] < 9:
        pytest.skip("programmatic dependent launch is sm_90's")
    n = 1 << 20
    x = torch.rand(n, device="cuda")
    mid, out = torch.empty_like(x), torch.empty_like(x)
    grid = (cdiv(n, 1024),)
    for _ in range(20):
        mid.fill_(-1.0)
        slow_double[grid](x, mid, n, ROUNDS=2000, BLOCK=1024, launch_pdl=True)
        plus_one[grid](mid, out, n, BLOCK=1024, launch_pdl=True)
    torch.cuda.synchronize()
    assert torch.equal(out, 2 * x + 1)


def test_cooperative_grid(gpu):
    torch = pytest.importorskip("torch")
    n = 1 << 16
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    tritium_add[(min(sms, cdiv(n, 1024)),)](x, y, out, min(n, sms * 1024), BLOCK=1024,
                                            launch_cooperative_grid=True)
    torch.cuda.synchronize()
    m = min(n, sms * 1024)
    assert torch.equal(out[:m], (x + y)[:m])
    # Far more programs of 1024 threads than the device holds at once.
    with pytest.raises(CudaError) as info:
        tritium_add[(sms * 64,)](x, y, out, n, BLOCK=1024, num_warps=32,
                                 launch_cooperative_grid=True)
    assert info.value.name == "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"
