"""@tritium.autotune, @tritium.heuristics and Config, with Triton's behaviour.

The first launch with a new tuning key (the values of the ``key`` arguments
and the dtype of every tensor argument) compiles every config that survives
pruning, times each with ``do_bench`` and keeps the fastest in
``self.cache``; later launches with that key go straight to it. A config
that fails to compile, or to run, gets an infinite time.

Timing needs a GPU: the default ``do_bench`` is the active driver's
``benchmark`` (runtime/driver.py), which raises NoBackendError without a GPU
backend - after every config has been compiled. ``do_bench=`` replaces it
(tests pass a fake timer that reads ``fn.config``). With ``cache_results=True``
or TRITIUM_CACHE_AUTOTUNING=1 the winner of each key is also kept on disk,
so the next process skips the timing.
"""

import builtins
import concurrent.futures
import hashlib
import json
import os
import time
import warnings

from .. import knobs
from ..errors import OutOfResources  # noqa: F401  (Triton's code imports it from here)
from . import driver as _driver
from ..compiler import cache as _cache
from ..compiler.descriptors import is_descriptor
from .jit import KernelInterface, JITFunction

__all__ = ["Config", "Autotuner", "Heuristics", "autotune", "heuristics"]


class Config:
    """A point of the tuning space: meta-parameters (``kwargs``) and launch
    options."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None,
                 pre_hook=None, ir_override=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook
        self.ir_override = ir_override

    def all_kwargs(self):
        """The meta-parameters and the launch options that are set."""
        opts = {"num_warps": self.num_warps, "num_stages": self.num_stages,
                "num_ctas": self.num_ctas, "maxnreg": self.maxnreg}
        return {**self.kwargs, **{k: v for k, v in opts.items() if v is not None}}

    def _key(self):
        return (tuple(sorted(self.kwargs.items())), self.num_warps, self.num_stages,
                self.num_ctas, self.maxnreg, self.pre_hook, self.ir_override)

    def __hash__(self):
        return hash(self._key())

    def __eq__(self, other):
        return isinstance(other, Config) and self._key() == other._key()

    def __str__(self):
        parts = [f"{k}: {v}" for k, v in self.kwargs.items()]
        parts += [f"num_warps: {self.num_warps}", f"num_ctas: {self.num_ctas}",
                  f"num_stages: {self.num_stages}", f"maxnreg: {self.maxnreg}"]
        return ", ".join(parts)

    __repr__ = __str__


def _base_fn(fn):
    while not isinstance(fn, JITFunction):
        fn = fn.fn
    return fn


def _bind(arg_names, args, kwargs):
    """The arguments by name, as hooks and heuristics see them."""
    return {**dict(zip(arg_names, args)), **kwargs}


def _host_bench(fn, quantiles=None):
    """Interpreted kernels (TRITIUM_INTERPRET): one run, timed on the host
    (ms). The numbers say little about the GPU, but every config runs."""
    t = time.perf_counter()
    fn()
    ms = (time.perf_counter() - t) * 1e3
    return [ms] * len(quantiles) if quantiles else ms


class Autotuner(KernelInterface):
    def __init__(self, fn, arg_names, configs, key, reset_to_zero=None, restore_value=None,
                 pre_hook=None, post_hook=None, prune_configs_by=None, warmup=None, rep=None,
                 use_cuda_graph=False, do_bench=None, cache_results=False):
        self.fn = fn
        self.base_fn = _base_fn(fn)
        self.arg_names = arg_names
        self.configs = list(configs) if configs else [Config({})]
        self.keys = list(key)
        self.reset_to_zero = list(reset_to_zero or [])
        self.restore_value = list(restore_value or [])
        self.user_pre_hook = pre_hook
        self.user_post_hook = post_hook
        prune = prune_configs_by or {}
        self.perf_model = prune.get("perf_model")
        self.configs_top_k = prune.get("top_k", 1.0)
        self.early_config_prune = prune.get("early_config_prune")
        self.num_warmups = warmup
        self.num_reps = rep
        self.user_do_bench = do_bench
        self.cache_results = cache_results
        self.cache = {}
        self.configs_timings = None
        self.best_config = None
        self.bench_time = 0.0
        self._restored = {}
        self.__name__ = self.base_fn.__name__
        for name in self.keys:
            if name not in arg_names:  # Triton ignores such a key: warn, don't refuse
                warnings.warn(f"autotune: key {name!r} is not a parameter of {self.base_fn.__name__} "
                              f"({', '.join(arg_names)}); it is ignored", stacklevel=3)
        for name in self.reset_to_zero + self.restore_value:
            if name not in arg_names:
                raise ValueError(f"autotune: {name!r} is not a parameter of "
                                 f"{self.base_fn.__name__} ({', '.join(arg_names)})")

    # -- hooks around a timed launch ---------------------------------------

    def _reset_to_zero(self, full):
        for name in self.reset_to_zero:
            full[name].zero_()

    def _pre_hook(self, full):
        self._reset_to_zero(full)
        for name in self.restore_value:
            self._restored[name] = full[name].clone()
        if self.user_pre_hook:
            self.user_pre_hook(full)

    def _post_hook(self, full):
        for name, saved in self._restored.items():
            full[name].copy_(saved)
        self._restored = {}
        if self.user_post_hook:
            self.user_post_hook(full, exception=None)

    def _timed_call(self, config, args, kwargs, grid):
        """What do_bench times: one launch with ``config`` between the
        hooks; ``call.config`` is there for fake timers."""
        def call():
            full = {**_bind(self.arg_names, args, kwargs), "grid": grid, **config.all_kwargs()}
            if config.pre_hook:
                config.pre_hook(full)
            self._pre_hook(full)
            try:
                self.fn.run(*args, grid=grid, warmup=False, **kwargs, **config.all_kwargs())
            finally:
                self._post_hook(full)
        call.config, call.__name__ = config, f"{self.base_fn.__name__}[{config}]"
        return call

    # -- tuning ------------------------------------------------------------

    def _tuning_key(self, args, kwargs):
        all_args = _bind(self.arg_names, args, kwargs)
        key = [all_args[k] for k in self.keys if k in all_args]
        # Each tensor argument's dtype, as Triton; and a host descriptor's
        # (its base's), which Triton leaves out: fp32 and bf16 tiles of one
        # shape are different problems (Liger's MLP kernels tuned on bf16
        # chose a config whose fp32 tiles did not fit shared memory).
        for a in args:
            if hasattr(a, "dtype"):
                key.append(str(a.dtype))
            elif is_descriptor(a) and hasattr(a.base, "dtype"):
                key.append(str(a.base.dtype))
        return tuple(key)

    def prune_configs(self, kwargs, nargs):
        pruned = self.configs
        if self.early_config_prune:
            pruned = list(self.early_config_prune(self.configs, nargs, **kwargs))
            if not pruned:
                raise RuntimeError("autotune: early_config_prune removed every config")
        if self.perf_model:
            top_k = self.configs_top_k
            if isinstance(top_k, float) and top_k <= 1.0:
                top_k = int(len(pruned) * top_k)
            top_k = builtins.max(1, top_k)
            if len(pruned) > top_k:
                est = {c: self.perf_model(**nargs, **kwargs, **c.all_kwargs()) for c in pruned}
                pruned = sorted(est, key=est.get)[:top_k]
        return pruned

    def _do_bench(self):
        """The timer, and whether it may screen the configs first (the
        driver's own, with the default budget)."""
        if self.user_do_bench is not None:
            return self.user_do_bench, False
        interpreted = getattr(self.fn, "_interpreted", None)
        if interpreted is not None and getattr(self.fn, "interpret", None) is not False and interpreted():
            return _host_bench, False
        drv = _driver.active.get()
        kw = {k: v for k, v in (("warmup", self.num_warmups), ("rep", self.num_reps)) if v is not None}
        return (lambda fn, quantiles=None, **budget: drv.benchmark(fn, quantiles=quantiles, **kw, **budget),
                not kw)

    def _check_conflicts(self, kwargs, config):
        conflicts = set(kwargs) & set(config.all_kwargs())
        if conflicts:
            raise ValueError(f"Conflicting meta-parameters: {', '.join(sorted(conflicts))}. "
                             "Make sure that you don't re-define auto-tuned symbols.")

    def _with_config(self, launch, config, args, kwargs, **how):
        """``launch`` (fn.run or fn.warmup) with ``config``'s options, after
        ``config.pre_hook``, which runs before a compile too: it may set
        what the kernel specializes on (a host descriptor's block_shape)."""
        if config.pre_hook is not None:
            config.pre_hook({**_bind(self.arg_names, args, kwargs), **config.all_kwargs()})
        return launch(*args, **how, **kwargs, **config.all_kwargs())

    def _compile_all(self, configs, args, kwargs, grid):
        """Compiles every config; those that fail get an infinite time. The
        compiles run on threads (the C++ stages release the GIL): tuning a
        matmul over 8 configs waits for about one ptxas, not 8. Configs
        with a pre_hook compile one after the other, since a hook may change
        an argument the others are specialized on (a descriptor's
        block_shape)."""
        for config in configs:
            self._check_conflicts(kwargs, config)

        def compile_one(config):
            try:
                self._with_config(self.fn.run, config, args, kwargs, grid=grid, warmup=True)
            except Exception as e:  # a CompilationError, OutOfResources, a bad option
                return e
            return None

        threads = knobs.autotuning.compile_threads or os.cpu_count() or 1
        if threads < 2 or len(configs) < 2 or any(c.pre_hook for c in configs):
            errors = [compile_one(c) for c in configs]
        else:
            with concurrent.futures.ThreadPoolExecutor(min(threads, len(configs))) as pool:
                errors = list(pool.map(compile_one, configs))
        return {c: e for c, e in zip(configs, errors) if e is not None}

    def _bench(self, configs, args, kwargs, grid):
        failed = self._compile_all(configs, args, kwargs, grid)
        if len(failed) == len(configs):
            raise next(iter(failed.values()))
        do_bench, screen = self._do_bench()

        def measure(config, **budget):
            call = self._timed_call(config, args, kwargs, grid)
            try:
                t = do_bench(call, quantiles=(0.5, 0.2, 0.8), **budget)
            except _driver.NoBackendError:
                raise
            except Exception:
                t = float("inf")
            return t if isinstance(t, (list, tuple)) else [t]

        timings = {c: [float("inf")] * 3 for c in failed}
        live = [c for c in configs if c not in failed]
        if screen and len(live) > 2:
            # A short timing of each first (5 + 20 ms instead of 25 + 100),
            # then the full one only for those within 10 % of the fastest:
            # one that far behind does not win it, and tuning 8 configs
            # takes about half the time.
            timings.update((c, measure(c, warmup=5, rep=20)) for c in live)
            best = min(timings[c][0] for c in live)
            live = [c for c in live if timings[c][0] <= 1.1 * best]
        timings.update((c, measure(c)) for c in live)
        return timings

    def run(self, *args, grid, warmup, **kwargs):
        nargs = dict(zip(self.arg_names, args))
        if len(self.configs) > 1:
            key = self._tuning_key(args, kwargs)
            config = self.cache.get(key)
            if config is None:
                pruned = self.prune_configs(kwargs, nargs)
                if warmup:
                    return [self._with_config(self.fn.run, c, args, kwargs, grid=grid, warmup=True)
                            for c in pruned]
                t0 = time.perf_counter()
                disk = (_TuningRecord(self.base_fn, key, pruned)
                        if self.cache_results or knobs.autotuning.cache else None)
                config, timings = (disk.load() if disk else None), None
                if config is None:
                    if len(pruned) == 1:  # nothing to compare: no need to time it
                        timings = {pruned[0]: [0.0, 0.0, 0.0]}
                    else:
                        timings = self._bench(pruned, args, kwargs, grid)
                        # As Triton does: the timed launches accumulated into
                        # reset_to_zero's arguments; the real launch starts at zero.
                        self._reset_to_zero({**nargs, **kwargs})
                    config = builtins.min(timings, key=lambda c: timings[c][0])
                    if disk:
                        disk.store(config, timings)
                self.bench_time = time.perf_counter() - t0
                self.cache[key] = config
                self.configs_timings = timings
                if knobs.autotuning.print:
                    print(f"Triton autotuning for function {self.base_fn.__name__} finished "
                          f"after {self.bench_time:.2f}s; best config selected: {config};")
        else:
            config = self.configs[0]
        self.best_config = config
        self._check_conflicts(kwargs, config)
        return self._with_config(self.fn.run, config, args, kwargs, grid=grid, warmup=warmup)

    def warmup(self, *args, grid=None, **kwargs):
        """Compiles every config (after pruning); returns their kernels."""
        nargs = dict(zip(self.arg_names, args))
        return [self._with_config(self.fn.warmup, c, args, kwargs, grid=grid)
                for c in self.prune_configs(kwargs, nargs)]


class _TuningRecord:
    """The winner of one tuning key on disk (``cache_results=True`` or
    TRITIUM_CACHE_AUTOTUNING): ``$TRITIUM_CACHE_DIR/autotune/<hash>.json``,
    keyed by the kernel's cache key, the tuning key, the configs, the target
    and the compiler version; written atomically, checksummed like the
    kernel cache, and ignored when damaged."""

    def __init__(self, fn, key, configs):
        self.configs, self.names = configs, [str(c) for c in configs]
        target = _driver.active.get().get_current_target()
        text = "|".join([fn.cache_key, _cache.stable_repr(key), ";".join(self.names), str(target),
                         _cache.version_key()])
        self.key = hashlib.sha256(text.encode()).hexdigest()
        self.path = os.path.join(knobs.cache.dir, "autotune", self.key + ".json")

    def load(self):
        """The stored winner, or None (no record, or a damaged one)."""
        try:
            with open(self.path) as f:
                record = json.load(f)
            body = record["body"]
            if (record["checksum"] == _checksum(body) and body["key"] == self.key
                    and body["configs"] == self.names):
                return self.configs[body["best"]]
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            pass
        return None

    def store(self, best, timings):
        body = {"key": self.key, "configs": self.names, "best": self.configs.index(best),
                "timings": [timings[c][0] for c in self.configs]}
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            _cache.write_atomic(self.path, json.dumps({"body": body, "checksum": _checksum(body)})
                         .encode())
        except OSError:
            pass  # an unwritable cache only loses the record


def _checksum(body):
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None,
             pre_hook=None, post_hook=None, warmup=None, rep=None, use_cuda_graph=False,
             do_bench=None, cache_results=False):
    """Decorates a @jit kernel (or a @heuristics one) to be tuned over
    ``configs`` whenever the values of the ``key`` arguments change."""

    def decorator(fn):
        return Autotuner(fn, _base_fn(fn).arg_names, configs, key, reset_to_zero,
                         restore_value, pre_hook=pre_hook, post_hook=post_hook,
                         prune_configs_by=prune_configs_by, warmup=warmup, rep=rep,
                         use_cuda_graph=use_cuda_graph, do_bench=do_bench,
                         cache_results=cache_results)
    return decorator


class Heuristics(KernelInterface):
    def __init__(self, fn, arg_names, values):
        self.fn = fn
        self.values = values
        self.arg_names = arg_names
        self.__name__ = _base_fn(fn).__name__

    def _with_values(self, args, kwargs):
        for name, heur in self.values.items():
            kwargs[name] = heur(_bind(self.arg_names, args, kwargs))
        return kwargs

    def run(self, *args, **kwargs):
        return self.fn.run(*args, **self._with_values(args, kwargs))

    def warmup(self, *args, grid=None, **kwargs):
        return self.fn.warmup(*args, grid=grid, **self._with_values(args, kwargs))


def heuristics(values):
    """Decorates a kernel so that each meta-parameter in ``values`` is set to
    ``values[name](args)`` at every launch (``args``: the bound arguments)."""

    def decorator(fn):
        return Heuristics(fn, _base_fn(fn).arg_names, values)
    return decorator
