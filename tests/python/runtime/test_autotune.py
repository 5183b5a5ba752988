"""autotune, heuristics and Config: which config wins, when tuning runs, and
what happens without a GPU."""

import numpy as np
import pytest

from tritium.runtime import driver
from tritium.runtime.autotuner import Autotuner, Config, Heuristics, autotune, heuristics
from tritium.runtime.jit import jit
from tritium import testing
import tritium.language as tl

from runtime_helpers import FakeTensor


class FakeTimer:
    """do_bench stand-in: a config's time is ``times[BLOCK]`` ms."""

    def __init__(self, times, name="BLOCK"):
        self.times = times
        self.name = name
        self.calls = []

    def __call__(self, fn, quantiles=None):
        self.calls.append(fn.config)
        fn()  # the launch, with its hooks
        t = self.times[fn.config.kwargs[self.name]]
        return [t, t, t] if quantiles else t


CONFIGS = [Config({"BLOCK": 32}, num_warps=1), Config({"BLOCK": 64}, num_warps=2),
           Config({"BLOCK": 128}, num_warps=4, num_stages=2)]


def make_kernel(timer, key=("n", ), **kw):
    @autotune(configs=CONFIGS, key=list(key), do_bench=timer, **kw)
    @jit
    def tuned(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(y_ptr + offs, tl.load(x_ptr + offs), mask=offs < n)
    return tuned


def test_config():
    c = Config({"BLOCK": 64}, num_warps=8, num_stages=2, maxnreg=128)
    assert c.all_kwargs() == {"BLOCK": 64, "num_warps": 8, "num_stages": 2, "num_ctas": 1,
                              "maxnreg": 128}
    assert str(c) == "BLOCK: 64, num_warps: 8, num_ctas: 1, num_stages: 2, maxnreg: 128"
    assert c == Config({"BLOCK": 64}, num_warps=8, num_stages=2, maxnreg=128)
    assert len({c, Config({"BLOCK": 64}, num_warps=8, num_stages=2, maxnreg=128)}) == 1
    assert "maxnreg" not in Config({}).all_kwargs()


def test_best_config_is_the_fastest_once_per_key(fake_driver, frontend):
    timer = FakeTimer({32: 3.0, 64: 1.0, 128: 2.0})
    k = make_kernel(timer)
    assert isinstance(k, Autotuner)
    x, y = FakeTensor(256), FakeTensor(256)
    k[lambda m: (256 // m["BLOCK"],)](x, y, 256)
    assert k.best_config == CONFIGS[1] and len(timer.calls) == 3
    assert frontend.count == 3  # every config compiled
    launch = fake_driver.launches[-1]
    assert launch[0] == (4, 1, 1) and launch[3].metadata.num_warps == 2
    for _ in range(3):
        k[(1,)](x, y, 256)  # same key: no more tuning
    assert len(timer.calls) == 3
    timer.times = {32: 0.5, 64: 1.0, 128: 2.0}
    k[(1,)](x, y, 512)  # new key value: tune again
    assert len(timer.calls) == 6 and k.best_config == CONFIGS[0]
    k[(1,)](FakeTensor(256, "float16"), FakeTensor(256, "float16"), 512)  # dtypes join the key
    assert len(timer.calls) == 9
    assert set(k.cache) == {(256, "float32", "float32"), (512, "float32", "float32"),
                            (512, "float16", "float16")}
    assert k.configs_timings[CONFIGS[0]] == [0.5, 0.5, 0.5]


def test_host_descriptors_join_the_key_by_their_element_type():
    """Two calls with the same key values but descriptors of fp32 and fp16
    tiles are tuned apart (a config that fits one may not fit the other)."""
    from tritium.tools.tensor_descriptor import TensorDescriptor

    @autotune(configs=CONFIGS, key=["n"])
    @jit
    def tuned(desc, n, BLOCK: tl.constexpr):
        pass

    def desc(dtype):
        return TensorDescriptor(FakeTensor(256, dtype), [16, 16], [16, 1], [16, 16])

    k32 = tuned._tuning_key((desc("float32"), 256), {})
    k16 = tuned._tuning_key((desc("float16"), 256), {})
    assert k32 == (256, "float32") and k16 == (256, "float16")
    assert tuned._tuning_key((FakeTensor(256), 256), {}) == (256, "float32")


def test_the_drivers_timer_screens_the_configs_first(fake_driver, frontend, monkeypatch):
    """With the driver's do_bench and its default budget, each config gets a
    short timing (5 + 20 ms), and only those within 10 % of the fastest the
    full one (25 + 100 ms); a budget the user set is used for all."""
    times = {32: 3.0, 64: 1.0, 128: 1.05}
    calls = []

    def benchmark(fn, quantiles=None, warmup=25, rep=100, return_mode="mean"):
        fn()
        calls.append((fn.config.kwargs["BLOCK"], warmup, rep))
        return [times[fn.config.kwargs["BLOCK"]]] * 3

    monkeypatch.setattr(fake_driver, "benchmark", benchmark)
    k = make_kernel(None)
    k[lambda m: (256 // m["BLOCK"],)](FakeTensor(256), FakeTensor(256), 256)
    assert k.best_config.kwargs["BLOCK"] == 64
    assert sorted(calls) == [(32, 5, 20), (64, 5, 20), (64, 25, 100), (128, 5, 20), (128, 25, 100)]
    calls.clear()
    k = make_kernel(None, warmup=10, rep=50)
    k[lambda m: (256 // m["BLOCK"],)](FakeTensor(256), FakeTensor(256), 256)
    assert sorted(calls) == [(32, 10, 50), (64, 10, 50), (128, 10, 50)]


def test_failing_config_gets_infinite_time(fake_driver):
    timer = FakeTimer({32: 3.0, 64: 1.0, 128: 2.0})
    configs = CONFIGS + [Config({"BLOCK": 16}, num_warps=3)]  # num_warps=3 cannot compile

    @autotune(configs=configs, key=["n"], do_bench=timer)
    @jit
    def tuned(x_ptr, n, BLOCK: tl.constexpr):
        tl.store(x_ptr, n)
    tuned[(1,)](FakeTensor(4), 8)
    assert tuned.configs_timings[configs[3]] == [float("inf")] * 3
    assert tuned.best_config == configs[1] and len(timer.calls) == 3


def test_prune_configs_by(fake_driver):
    timer = FakeTimer({32: 3.0, 64: 1.0, 128: 2.0})
    seen = {}

    def early(configs, named_args, **kwargs):
        seen["args"] = sorted(named_args)
        return [c for c in configs if c.kwargs["BLOCK"] != 64]
    k = make_kernel(timer, prune_configs_by={"early_config_prune": early,
                                             "perf_model": lambda **kw: kw["BLOCK"],
                                             "top_k": 1})
    k[(1,)](FakeTensor(8), FakeTensor(8), 8)
    assert seen["args"] == ["n", "x_ptr", "y_ptr"]
    assert timer.calls == [] and k.best_config == CONFIGS[0]  # one left: nothing to time


def test_reset_to_zero_and_restore_value(fake_driver):
    timer_calls = []

    def timer(fn, quantiles=None):
        fn()  # runs the pre and post hooks around a launch
        timer_calls.append(fn.config)
        return 1.0
    k = make_kernel(timer, reset_to_zero=["y_ptr"], restore_value=["x_ptr"])
    x, y = FakeTensor(8), FakeTensor(8)
    x.array[:] = 5
    k[(1,)](x, y, 8)
    assert y.zeroed == 4 and (x.array == 5).all()  # before each timed launch, and once after tuning


def test_reset_to_zero_after_tuning_before_the_real_launch(fake_driver):
    """Liger's fused MoE backward tunes a kernel that atomic_adds into dS:
    what the timed launches added must not reach the real one (Triton
    zeroes reset_to_zero's arguments again after tuning)."""
    def accumulating_timer(fn, quantiles=None):
        fn()
        y.array[:] += 1  # what an atomic_add into y leaves behind
        return 1.0
    k = make_kernel(accumulating_timer, reset_to_zero=["y_ptr"])
    x, y = FakeTensor(8), FakeTensor(8)
    k[(1,)](x, y, 8)
    assert (y.array == 0).all()  # the fake launch itself adds nothing


def test_conflicting_meta_parameters(fake_driver):
    k = make_kernel(FakeTimer({32: 1, 64: 2, 128: 3}))
    with pytest.raises(ValueError, match="Conflicting meta-parameters: BLOCK"):
        k[(1,)](FakeTensor(8), FakeTensor(8), 8, BLOCK=16)


def test_bad_key_name_is_ignored_with_a_warning(fake_driver):
    """Triton ignores a key that names no parameter (tutorial 08 has one)."""
    with pytest.warns(UserWarning, match="key 'm' is not a parameter"):
        k = make_kernel(FakeTimer({32: 3, 64: 1, 128: 2}), key=["n", "m"])
    k[(1,)](FakeTensor(8), FakeTensor(8), 8)
    assert k.best_config.kwargs["BLOCK"] == 64


def test_bad_reset_name():
    with pytest.raises(ValueError, match="'m' is not a parameter"):
        @autotune(configs=CONFIGS, key=["n"], reset_to_zero=["m"])
        @jit
        def k(x_ptr, n, BLOCK: tl.constexpr):
            pass


def test_without_gpu_every_config_compiles_then_no_backend(frontend):
    k = make_kernel(None)  # the driver's benchmark: there is none
    with pytest.raises(driver.NoBackendError, match="no GPU backend available"):
        k[(1,)](FakeTensor(8), FakeTensor(8), 8)
    assert frontend.count == 3
    assert {c[2]["BLOCK"] for c in frontend.calls} == {32, 64, 128}


def test_configs_compile_on_threads(frontend, monkeypatch):
    """Every config compiles, on several threads (the C++ stages release the
    GIL); with TRITIUM_AUTOTUNING_COMPILE_THREADS=1, or a config with a
    pre_hook, on the caller's thread one after the other."""
    import threading
    seen = []
    real = frontend.inner

    def record(*args, **kw):
        seen.append(threading.get_ident())
        return real(*args, **kw)

    frontend.inner = record
    monkeypatch.setenv("TRITIUM_AUTOTUNING_COMPILE_THREADS", "3")
    with pytest.raises(driver.NoBackendError):
        make_kernel(None)[(1,)](FakeTensor(8), FakeTensor(8), 8)
    assert frontend.count == 3 and threading.get_ident() not in seen
    monkeypatch.setenv("TRITIUM_AUTOTUNING_COMPILE_THREADS", "1")
    seen.clear()
    with pytest.raises(driver.NoBackendError):
        make_kernel(None, key=("n", "x_ptr"))[(1,)](FakeTensor(8), FakeTensor(8), 16)
    assert seen == [threading.get_ident()] * 3
    monkeypatch.delenv("TRITIUM_AUTOTUNING_COMPILE_THREADS")
    seen.clear()

    @autotune(configs=[Config({"BLOCK": b}, pre_hook=lambda nargs: None) for b in (16, 32)], key=["n"])
    @jit
    def hooked(x_ptr, n, BLOCK: tl.constexpr):
        tl.store(x_ptr + tl.arange(0, BLOCK), 1.0)

    with pytest.raises(driver.NoBackendError):
        hooked[(1,)](FakeTensor(8), 8)
    assert seen == [threading.get_ident()] * 2
    monkeypatch.setenv("TRITIUM_AUTOTUNING_COMPILE_THREADS", "many")
    with pytest.raises(ValueError, match="TRITIUM_AUTOTUNING_COMPILE_THREADS='many': expected an integer"):
        make_kernel(None)[(1,)](FakeTensor(8), FakeTensor(8), 8)


def test_warmup_compiles_every_config(frontend):
    k = make_kernel(None)
    kernels = k.warmup("*fp32", "*fp32", "i32", grid=(1,))
    assert len(kernels) == 3 and frontend.count == 3
    assert [kk.metadata.num_warps for kk in kernels] == [1, 2, 4]


def test_heuristics(fake_driver, frontend):
    @heuristics({"BLOCK": lambda args: 1 << (args["n"] - 1).bit_length(),
                 "EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
    @jit
    def h(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
        tl.store(x_ptr, n)
    assert isinstance(h, Heuristics)
    h[(1,)](FakeTensor(8), 100)
    assert frontend.last[2] == {"BLOCK": 128, "EVEN": False}
    h[(1,)](FakeTensor(8), 64)
    assert frontend.last[2] == {"BLOCK": 64, "EVEN": True}


def test_autotune_over_heuristics(fake_driver, frontend):
    timer = FakeTimer({32: 2.0, 64: 1.0, 128: 3.0})

    @autotune(configs=CONFIGS, key=["n"], do_bench=timer)
    @heuristics({"EVEN": lambda args: args["n"] % args["BLOCK"] == 0})
    @jit
    def k(x_ptr, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
        tl.store(x_ptr, n)
    k[(1,)](FakeTensor(8), 96)
    assert k.best_config.kwargs == {"BLOCK": 64}
    assert sorted((c[2]["BLOCK"], c[2]["EVEN"]) for c in frontend.calls) == [
        (32, True), (64, False), (128, False)]  # the heuristic saw each config's BLOCK
    assert fake_driver.launches[-1][3].metadata.num_warps == 2


def test_cache_results_on_disk(fake_driver, monkeypatch, private_dirs):
    timer = FakeTimer({32: 3.0, 64: 1.0, 128: 2.0})
    k = make_kernel(timer, cache_results=True)
    k[(1,)](FakeTensor(8), FakeTensor(8), 8)
    assert len(timer.calls) == 3 and k.best_config == CONFIGS[1]
    records = list((private_dirs["cache"] / "autotune").iterdir())
    assert len(records) == 1
    fresh = make_kernel(timer, cache_results=True)  # another "process": same kernel source
    fresh[(1,)](FakeTensor(8), FakeTensor(8), 8)
    assert len(timer.calls) == 3 and fresh.best_config == CONFIGS[1]
    fresh[(1,)](FakeTensor(8), FakeTensor(8), 16)  # a new key is timed
    assert len(timer.calls) == 6
    records[0].write_text(records[0].read_text().replace('"best": 1', '"best": 0'))
    damaged = make_kernel(timer, cache_results=True)
    damaged[(1,)](FakeTensor(8), FakeTensor(8), 8)  # the checksum fails: timed again
    assert len(timer.calls) == 9 and damaged.best_config == CONFIGS[1]
    monkeypatch.setenv("TRITIUM_CACHE_AUTOTUNING", "1")
    knob = make_kernel(timer)
    knob[(1,)](FakeTensor(8), FakeTensor(8), 8)
    assert len(timer.calls) == 9


def test_testing_helpers():
    testing.assert_close(np.ones(4), np.ones(4) + 1e-4)
    with pytest.raises(AssertionError, match="1 of 4 elements differ"):
        testing.assert_close(np.array([1.0, 2.0, 3.0, 4.0]), np.array([1.0, 2.0, 3.5, 4.0]))
    testing.assert_close(np.array([np.nan]), np.array([np.nan]))
    with pytest.raises(driver.NoBackendError):
        testing.do_bench(lambda: None)


def test_do_bench_uses_the_driver(fake_driver):
    calls = []
    assert testing.do_bench(lambda: calls.append(1), quantiles=[0.5, 0.2, 0.8]) == [1.0] * 3
    assert calls == [1]


def test_config_pre_hook_runs_before_each_config_compiles(fake_driver, frontend):
    """A config's pre_hook may set what the kernel specializes on: a host
    descriptor made with a dummy block ([1, 1]: 4 bytes of fp32, which a
    descriptor refuses) gets each config's block before that config
    compiles, as under Triton (Liger's swiglu MLP does this)."""
    from tritium.runtime.jit import MockTensor
    from tritium.tools.tensor_descriptor import TensorDescriptor

    def set_block(nargs):
        nargs["desc"].block_shape = [nargs["BM"], 32]

    configs = [Config({"BM": bm}, pre_hook=set_block) for bm in (16, 32)]

    @autotune(configs=configs, key=["n"], do_bench=FakeTimer({16: 2.0, 32: 1.0}, name="BM"))
    @jit
    def k(desc, out, n, BM: tl.constexpr):
        tl.store(out + tl.arange(0, BM)[:, None] * 32 + tl.arange(0, 32)[None, :], desc.load([0, 0]))

    desc = TensorDescriptor(MockTensor("float32"), [64, 32], [32, 1], [1, 1])
    k[(1,)](desc, FakeTensor(64 * 32), 64)
    assert k.best_config.kwargs["BM"] == 32 and desc.block_shape == [32, 32]
    assert sorted(c[1]["desc"] for c in frontend.calls) == ["tensordesc<fp32[16, 32]>", "tensordesc<fp32[32, 32]>"]
