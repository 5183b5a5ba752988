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

    def __init__(self, times):
        self.times = times
        self.calls = []

    def __call__(self, fn, quantiles=None):
        self.calls.append(fn.config)
        t = self.times[fn.config.kwargs["BLOCK"]]
        return [t, t, t] if quantiles else t


CONFIGS = [Config({"BLOCK": 32}, num_warps=1), Config({"BLOCK": 64}, num_warps=2),
           Config({"BLOCK": 128}, num_warps=4, num_stages=2)]


def make_kernel(timer, **kw):
    @autotune(configs=CONFIGS, key=["n"], do_bench=timer, **kw)
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
    assert y.zeroed == 3 and (x.array == 5).all()


def test_conflicting_meta_parameters(fake_driver):
    k = make_kernel(FakeTimer({32: 1, 64: 2, 128: 3}))
    with pytest.raises(ValueError, match="Conflicting meta-parameters: BLOCK"):
        k[(1,)](FakeTensor(8), FakeTensor(8), 8, BLOCK=16)


def test_bad_key_name():
    with pytest.raises(ValueError, match="'m' is not a parameter"):
        @autotune(configs=CONFIGS, key=["m"])
        @jit
        def k(x_ptr, n, BLOCK: tl.constexpr):
            pass


def test_without_gpu_every_config_compiles_then_no_backend(frontend):
    k = make_kernel(None)  # the driver's benchmark: there is none
    with pytest.raises(driver.NoBackendError, match="no GPU backend available"):
        k[(1,)](FakeTensor(8), FakeTensor(8), 8)
    assert frontend.count == 3
    assert {c[2]["BLOCK"] for c in frontend.calls} == {32, 64, 128}


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


def test_config_pre_hooks_run_before_their_compile(fake_driver, frontend):
    """Tutorial 09 sizes its host descriptors' blocks in each config's
    pre_hook: a config compiles with the block its hook set, not the dummy
    block the descriptors were made with (too small to compile)."""
    from tritium.tools.tensor_descriptor import TensorDescriptor

    def set_block(nargs):
        nargs["desc"].block_shape = [nargs["BLOCK"], 16]

    configs = [Config({"BLOCK": b}, pre_hook=set_block) for b in (16, 32)]
    timer = FakeTimer({16: 2.0, 32: 1.0})

    @autotune(configs=configs, key=["n"], do_bench=timer)
    @jit
    def tuned(desc, out_ptr, n, BLOCK: tl.constexpr):
        tl.store(out_ptr + tl.arange(0, 16), tl.sum(desc.load([0, 0]), axis=0))

    desc = TensorDescriptor(FakeTensor(64 * 16), [64, 16], [16, 1], [1, 1])
    tuned[(1,)](desc, FakeTensor(16), 64)
    assert tuned.best_config == configs[1] and desc.block_shape == [32, 16]
    sigs = [c[1]["desc"] for c in frontend.calls]
    assert sorted(set(sigs)) == ["tensordesc<fp32[16, 16]>", "tensordesc<fp32[32, 16]>"]
