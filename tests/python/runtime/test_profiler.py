"""tritium.profiler (Proton's API as Triton's tutorials use it) without a
GPU: a driver whose launches advance a fake GPU clock, read by a fake event
timer; then the same through the fake CUDA driver's real event calls."""

import json
import os
import subprocess
import sys

import pytest

import tritium
import tritium.language as tl
import tritium.profiler as proton
from tritium import knobs
from tritium.profiler import session as psession
from tritium.profiler import viewer
from tritium.runtime import driver
from tritium.runtime.jit import jit

from runtime_helpers import FakeDriver, FakeTensor


class FakeTimer:
    """Events read a clock that the launches of ClockDriver advance (ms)."""

    device = 0

    def __init__(self):
        self.clock = 0.0
        self.events = {}
        self.synchronized = 0
        self.free = 0

    def current_stream(self):
        return 7

    def record(self, stream):
        self.events[len(self.events)] = (self.clock, stream)
        return len(self.events) - 1

    def elapsed_ms(self, start, end):
        return self.events[end][0] - self.events[start][0]

    def synchronize(self):
        self.synchronized += 1

    def release(self, *events):
        self.free += len(events)

    def close(self):
        pass

    def device_info(self):
        return "CUDA", "0", {"arch": "90", "num_sms": 132, "clock_rate": 0,
                             "memory_clock_rate": 0, "bus_width": 0}


class ClockDriver(FakeDriver):
    """A launch of kernel K takes ``ms[K]`` milliseconds of the timer's clock."""

    def __init__(self, timer, ms):
        super().__init__()
        self.timer, self.ms = timer, ms

    def make_launcher(self, kernel):
        record = super().make_launcher(kernel)

        def launch(gx, gy, gz, stream, args):
            record(gx, gy, gz, stream, args)
            self.timer.clock += self.ms[kernel.name]
        return launch


seen_metadata = []


def add_metadata(grid, kernel, args):
    seen_metadata.append(args["n"])
    return {"name": f"{kernel.name} [n={args['n']}]", "flops16": 2.0 * args["n"],
            "bytes": 12 * args["n"]}


@jit(launch_metadata=add_metadata)
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr = 64):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) + tl.load(y_ptr + offs))


@jit
def scale_kernel(x_ptr, n, BLOCK: tl.constexpr = 64):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)


@pytest.fixture(autouse=True)
def clean_profiler():
    seen_metadata.clear()
    for k in (add_kernel, scale_kernel):
        k.device_caches.clear()
    yield
    proton.finalize()  # whatever a failed test left
    assert knobs.runtime.launch_enter_hook is None and knobs.runtime.launch_exit_hook is None


@pytest.fixture
def timed(monkeypatch):
    timer = FakeTimer()
    monkeypatch.setattr(psession, "make_timer", lambda: timer)
    drv = ClockDriver(timer, {"add_kernel": 0.5, "scale_kernel": 0.25})
    driver.set_active(drv)
    yield timer
    driver.set_active(None)


def tensors():
    return FakeTensor(64), FakeTensor(64, offset_bytes=64), FakeTensor(64, offset_bytes=128)


def add(n=64):
    x, y, z = tensors()
    add_kernel[(1,)](x, y, z, n)


def hatchet_nodes(path):
    """name path -> metrics of every frame of a hatchet file."""
    tree, devices = json.load(open(path))
    out = {}

    def walk(frame, prefix):
        p = prefix + (frame["frame"]["name"],)
        assert frame["frame"]["type"] == "function"
        out[p] = frame["metrics"]
        for c in frame["children"]:
            walk(c, p)
    walk(tree, ())
    return out, devices


def test_launch_metadata_is_called_only_while_a_session_is_active(timed, tmp_path):
    add(8)
    add(8)  # warm: the C++ dispatcher, no hooks
    assert seen_metadata == []
    sid = proton.start(str(tmp_path / "p"), hook="triton")
    assert knobs.runtime.launch_enter_hook is not None
    add(16)
    assert seen_metadata == [16]
    proton.deactivate(sid)
    assert knobs.runtime.launch_enter_hook is None  # launches go back to the C++ path
    add(32)
    assert seen_metadata == [16]
    proton.activate(sid)
    add(64)
    proton.finalize()
    add(128)
    assert seen_metadata == [16, 64]
    assert knobs.runtime.launch_enter_hook is None


def test_kernels_are_timed_by_events_and_grouped_by_scope(timed, tmp_path):
    x = FakeTensor(64)
    sid = proton.start(str(tmp_path / "matmul"), hook="triton")
    with proton.scope("outer", {"bytes": 100}):
        for _ in range(3):
            add(64)
        with proton.scope("inner"):
            scale_kernel[(2,)](x, 64)
    add(1024)
    proton.finalize(sid)

    nodes, devices = hatchet_nodes(tmp_path / "matmul.hatchet")
    assert set(nodes) == {("ROOT",), ("ROOT", "outer"), ("ROOT", "outer", "add_kernel [n=64]"),
                          ("ROOT", "outer", "inner"), ("ROOT", "outer", "inner", "scale_kernel"),
                          ("ROOT", "add_kernel [n=1024]")}
    assert nodes[("ROOT",)] == {"count": 0, "time (ns)": 0}
    assert nodes[("ROOT", "outer")] == {"bytes": 100}  # its kernels hold the time
    k = nodes[("ROOT", "outer", "add_kernel [n=64]")]
    assert k == {"count": 3, "time (ns)": 1_500_000, "flops16": 384.0, "bytes": 3 * 768,
                 "device_type": "CUDA", "device_id": "0"}
    assert nodes[("ROOT", "outer", "inner", "scale_kernel")]["time (ns)"] == 250_000
    assert nodes[("ROOT", "add_kernel [n=1024]")]["count"] == 1
    assert devices == {"CUDA": {"0": {"arch": "90", "num_sms": 132, "clock_rate": 0,
                                      "memory_clock_rate": 0, "bus_width": 0}}}

    tree, cols = viewer.parse(["tflop16/s", "time/us", "avg_time/us", "gbyte/s", "count"],
                              str(tmp_path / "matmul.hatchet"))
    assert cols == ["tflop16/s (inc)", "time/us (inc)", "avg_time/us (inc)", "gbyte/s (inc)",
                    "count (inc)"]
    outer = tree.children[0]
    kernel = outer.children[0]
    assert kernel.values["time/us (inc)"] == pytest.approx(1500)
    assert kernel.values["avg_time/us (inc)"] == pytest.approx(500)
    assert kernel.values["tflop16/s (inc)"] == pytest.approx(384 / 1.5e-3 / 1e12)
    assert kernel.values["gbyte/s (inc)"] == pytest.approx(2304 / 1.5e-3 / 1e9)
    assert outer.values["time/us (inc)"] == pytest.approx(1750)  # inclusive
    assert outer.values["gbyte/s (inc)"] == pytest.approx((2304 + 100) / 1.75e-3 / 1e9)
    assert tree.values["count (inc)"] == 5


def test_a_scope_without_kernels_times_itself(timed, tmp_path):
    """Other libraries' GPU work (cuBLAS, torch) is timed as its scope."""
    sid = proton.start(str(tmp_path / "p"), hook="triton")
    with proton.scope("bench"):
        with proton.scope("cublas [M=8]", {"flops16": 1e9, "bytes": 5e6}):
            timed.clock += 2.0  # what the library ran
        with proton.scope("cublas [M=8]", {"flops16": 1e9, "bytes": 5e6}):
            timed.clock += 2.0
    proton.finalize(sid)
    nodes, _ = hatchet_nodes(tmp_path / "p.hatchet")
    assert nodes[("ROOT", "bench", "cublas [M=8]")] == {
        "flops16": 2e9, "bytes": 1e7, "time (ns)": 4_000_000, "count": 2,
        "device_type": "CUDA", "device_id": "0"}
    assert "time (ns)" not in nodes[("ROOT", "bench")]  # not counted twice
    tree, cols = viewer.parse(["tflop16/s"], str(tmp_path / "p.hatchet"))
    assert tree.values[cols[0]] == pytest.approx(2e9 / 4e-3 / 1e12)


def test_scopes_outside_sessions_and_inactive_ones_record_nothing(timed, tmp_path):
    @proton.scope("decorated", {"flops": 10})
    def work():
        add(64)
        return 42

    assert work() == 42  # no session: a no-op
    sid = proton.start(str(tmp_path / "p"), hook="triton")
    proton.deactivate(sid)
    assert work() == 42
    with proton.scope("off"):
        add(64)
    proton.activate(sid)
    work()
    i = proton.enter_scope("manual", metrics={"bytes": 8})
    assert isinstance(i, int)
    scale_kernel[(1,)](FakeTensor(64), 64)
    proton.exit_scope()
    proton.finalize()
    nodes, _ = hatchet_nodes(tmp_path / "p.hatchet")
    assert ("ROOT", "off") not in nodes
    assert nodes[("ROOT", "decorated")] == {"flops": 10}
    assert nodes[("ROOT", "decorated", "add_kernel [n=64]")]["count"] == 1
    assert nodes[("ROOT", "manual", "scale_kernel")]["count"] == 1


def test_without_the_triton_hook_kernels_keep_their_names(timed, tmp_path):
    proton.start(str(tmp_path / "p"))
    add(64)
    proton.finalize()
    nodes, _ = hatchet_nodes(tmp_path / "p.hatchet")
    assert nodes[("ROOT", "add_kernel")] == {"count": 1, "time (ns)": 500_000,
                                             "device_type": "CUDA", "device_id": "0"}


def test_chrome_trace_has_one_event_per_launch_and_scope(timed, tmp_path):
    proton.start(str(tmp_path / "t"), hook="triton")
    with proton.scope("outer"):
        add(64)
        add(64)
    proton.finalize()
    trace = json.load(open(tmp_path / "t.chrome_trace"))
    events = [e for e in trace["traceEvents"] if e["ph"] == "X"]
    assert [(e["name"], e["cat"], e["ts"], e["dur"]) for e in events] == [
        ("add_kernel [n=64]", "kernel", 0.0, 500.0), ("add_kernel [n=64]", "kernel", 500.0, 500.0),
        ("outer", "scope", 0.0, 1000.0)]
    assert events[0]["tid"] == 7 and events[2]["tid"] == "scopes"
    assert events[0]["args"] == {"scope": "outer", "flops16": 128.0, "bytes": 768}
    names = {(e["name"], e.get("tid")) for e in trace["traceEvents"] if e["ph"] == "M"}
    assert names == {("process_name", None), ("thread_name", 7), ("thread_name", "scopes")}
    assert trace["otherData"]["dropped_events"] == 0


def test_summary_table_printed_at_finalize(timed, tmp_path, capsys):
    sid = proton.start(str(tmp_path / "p"), hook="triton")
    add(64)
    add(64)
    proton.finalize()
    err = capsys.readouterr().err.splitlines()
    assert err[0] == f"tritium.profiler session {sid} '{tmp_path / 'p'}' (GPU events):"
    assert err[1].split() == ["name", "count", "time/ms", "avg/us", "TFLOP/s", "GB/s"]
    assert err[2].split() == ["add_kernel", "[n=64]", "2", "1.000", "500.00", "0.00", "0.00"]
    assert err[3] == "total GPU time: 1.000 ms"


def test_events_are_read_back_in_batches(timed, tmp_path, monkeypatch):
    monkeypatch.setattr(psession, "HARVEST_EVERY", 2)
    proton.start(str(tmp_path / "p"), hook="triton")
    for _ in range(5):
        add(64)
    assert timed.synchronized == 2 and timed.free == 8  # events go back to the pool
    proton.finalize()
    nodes, _ = hatchet_nodes(tmp_path / "p.hatchet")
    assert nodes[("ROOT", "add_kernel [n=64]")]["time (ns)"] == 2_500_000


def test_two_sessions_record_what_each_saw(timed, tmp_path):
    a = proton.start(str(tmp_path / "a"), hook="triton")
    b = proton.start(str(tmp_path / "b"), hook="triton")
    add(64)
    proton.deactivate(a)
    add(64)
    proton.finalize()
    assert hatchet_nodes(tmp_path / "a.hatchet")[0][("ROOT", "add_kernel [n=64]")]["count"] == 1
    assert hatchet_nodes(tmp_path / "b.hatchet")[0][("ROOT", "add_kernel [n=64]")]["count"] == 2
    assert b == a + 1


def test_a_hook_set_before_keeps_running_and_comes_back(timed, tmp_path, monkeypatch):
    calls = []
    mine = lambda info: calls.append(info["name"])  # noqa: E731
    monkeypatch.setattr(knobs.runtime, "launch_enter_hook", mine)
    proton.start(str(tmp_path / "p"), hook="triton")
    add(64)
    proton.finalize()
    assert calls == ["add_kernel [n=64]"]
    assert knobs.runtime.launch_enter_hook is mine
    assert hatchet_nodes(tmp_path / "p.hatchet")[0][("ROOT", "add_kernel [n=64]")]["count"] == 1
    monkeypatch.setattr(knobs.runtime, "launch_enter_hook", None)


def test_without_a_gpu_launches_are_counted_not_timed(fake_driver, tmp_path, capsys):
    proton.start(str(tmp_path / "p"), hook="triton")
    add(64)
    with proton.scope("s"):
        pass
    proton.finalize()
    nodes, devices = hatchet_nodes(tmp_path / "p.hatchet")
    assert nodes[("ROOT", "add_kernel [n=64]")] == {"count": 1, "flops16": 128.0, "bytes": 768}
    assert nodes[("ROOT",)] == {} and devices == {}
    assert "no GPU: launches counted, not timed" in capsys.readouterr().err
    assert json.load(open(tmp_path / "p.chrome_trace"))["traceEvents"] == []


def test_errors_name_what_is_missing(timed):
    with pytest.raises(RuntimeError, match="Session has not been initialized: 12345"):
        proton.activate(12345)
    with pytest.raises(ValueError, match="Invalid hook 'torch'"):
        proton.start("x", hook="torch")
    with pytest.raises(NotImplementedError, match="instrumentation"):
        proton.start("x", backend="instrumentation")
    with pytest.raises(NotImplementedError, match="'python'"):
        proton.start("x", context="python")


def test_profile_decorator_runs_in_its_own_session(timed, tmp_path):
    @proton.profile(name=str(tmp_path / "dec"), hook="triton")
    def run():
        add(64)

    run()
    add(64)  # the session is deactivated after the call
    proton.finalize()
    assert hatchet_nodes(tmp_path / "dec.hatchet")[0][("ROOT", "add_kernel [n=64]")]["count"] == 1


# -- the viewer ------------------------------------------------------------------------

@pytest.fixture
def profile_file(timed, tmp_path):
    proton.start(str(tmp_path / "v"), hook="triton")
    with proton.scope("outer"):
        add(64)
        scale_kernel[(1,)](FakeTensor(64), 64)
    with proton.scope("empty"):
        pass
    proton.finalize()
    return str(tmp_path / "v.hatchet")


def test_viewer_prints_the_tree(profile_file, capsys):
    tree, cols = viewer.parse(["time/ms", "count"], profile_file)
    viewer.print_tree(tree, cols)
    assert capsys.readouterr().out.splitlines() == [
        "Metrics: time/ms (inc) | count (inc)",
        "0.750 3.000 ROOT",
        "├─ 0.750 2.000 outer",
        "│  ├─ 0.500 1.000 add_kernel [n=64]",
        "│  └─ 0.250 1.000 scale_kernel",
        "└─ 0.000 1.000 empty"]


def test_viewer_filters_and_sorts(profile_file, capsys):
    tree, cols = viewer.parse(["time/ms"], profile_file, exclude="scale.*")
    assert [n.name for n in tree.walk()] == ["ROOT", "outer", "add_kernel [n=64]", "empty"]
    tree, cols = viewer.parse(["time/ms"], profile_file, include="scale.*")
    assert [n.name for n in tree.walk()] == ["ROOT", "outer", "scale_kernel"]
    tree, cols = viewer.parse(["time/ms"], profile_file, threshold=0.3)
    assert [n.name for n in tree.walk()] == ["ROOT", "outer", "add_kernel [n=64]"]
    tree, cols = viewer.parse("time/ms", profile_file)
    viewer.print_tree(tree, cols, depth=1, print_sorted=True)
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "0.750 ROOT" and out[2] == "Sorted kernels by metric time/ms (inc)"
    assert [line.split()[0] for line in out[3:]] == ["outer", "add_kernel", "scale_kernel", "empty"]
    tree, cols = viewer.parse("count", profile_file)  # an integer metric sorts and prints too
    viewer.print_tree(tree, cols, depth=1, print_sorted=True)
    assert "Sorted kernels by metric count" in capsys.readouterr().out


def test_viewer_says_which_metric_is_missing(profile_file):
    with pytest.raises(RuntimeError, match="Metric flops8 is not found"):
        viewer.parse(["tflop8/s"], profile_file)


def test_viewer_command_line(profile_file):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    out = subprocess.run([sys.executable, "-m", "tritium.profiler.viewer", "-m", "time/us",
                          profile_file], capture_output=True, text=True, env=env, check=True).stdout
    assert out.splitlines()[1] == "750.000 ROOT"
    out = subprocess.run([sys.executable, "-m", "tritium.profiler.viewer", "-l", profile_file],
                         capture_output=True, text=True, env=env, check=True).stdout
    assert out.splitlines() == ["Available metrics:", "- bytes", "- count", "- flops16", "- time"]


# -- the fake CUDA driver: real event calls ---------------------------------------------

def test_fake_cuda_events_time_each_launch(tmp_path, monkeypatch):
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "fakecuda"))
    import fakecuda
    from tritium.compiler import compiler
    from tritium.runtime import CudaDriver
    path = fakecuda.find_library()
    if path is None:
        pytest.skip("the fake CUDA driver is not built (tests/fakecuda needs cuda.h)")
    fake = fakecuda.FakeCuda(path)
    fake.reset()
    fake.set("launch_ns", 4000)
    monkeypatch.setenv("TRITIUM_LIBCUDA_PATH", path)
    drv = CudaDriver()
    assert drv.is_active(), drv.load_error()
    driver.set_active(drv)
    monkeypatch.setitem(compiler._backends, "cuda", fakecuda.StubBackend())
    try:
        add(64)
        proton.start(str(tmp_path / "f"), hook="triton")
        add(64)
        add(64)
        with proton.scope("no kernels"):
            pass
        proton.finalize()
        assert fake.calls("cuEventRecord") == 7  # the session's start, 2 per launch and scope
        nodes, devices = hatchet_nodes(tmp_path / "f.hatchet")
        assert nodes[("ROOT", "add_kernel [n=64]")]["time (ns)"] == 8000
        assert nodes[("ROOT", "no kernels")]["time (ns)"] == 0
        assert devices["CUDA"]["0"]["arch"] == "90" and devices["CUDA"]["0"]["num_sms"] == 132
    finally:
        driver.set_active(None)
        fake.reset()


# -- a real GPU ------------------------------------------------------------------------------

@pytest.mark.gpu
def test_profiles_a_real_kernel(tmp_path):
    torch = pytest.importorskip("torch")
    from tritium.runtime import CudaDriver
    drv = CudaDriver("")
    if not drv.is_active():
        pytest.skip(drv.load_error())
    driver.set_active(drv)
    n = 1 << 24
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    out = torch.empty_like(x)

    def md(grid, kernel, args):
        return {"name": "vadd", "bytes": 12 * args["n"]}

    @tritium.jit(launch_metadata=md)
    def vadd(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
                 mask=mask)

    grid = (tritium.cdiv(n, 1024),)
    vadd[grid](x, y, out, n, BLOCK=1024)
    proton.start(str(tmp_path / "gpu"), hook="triton")
    with proton.scope("torch add"):
        torch.add(x, y, out=out)
    for _ in range(20):
        vadd[grid](x, y, out, n, BLOCK=1024)
    proton.finalize()
    torch.cuda.synchronize()
    assert torch.equal(out, x + y)
    nodes, devices = hatchet_nodes(tmp_path / "gpu.hatchet")
    kernel = nodes[("ROOT", "vadd")]
    assert kernel["count"] == 20
    per_launch_us = kernel["time (ns)"] / 20 / 1e3
    # 200 MB per launch: more than 20 us even at 10 TB/s, less than 20 ms at 10 GB/s.
    assert 20 < per_launch_us < 20_000
    assert nodes[("ROOT", "torch add")]["time (ns)"] > 0
    tree, cols = viewer.parse(["gbyte/s"], str(tmp_path / "gpu.hatchet"))
    assert 10 < tree.children[1].values[cols[0]] < 10_000
    assert list(devices) == ["CUDA"]
    trace = json.load(open(tmp_path / "gpu.chrome_trace"))
    assert sum(e["name"] == "vadd" for e in trace["traceEvents"]) == 20
    driver.set_active(None)


def test_trace_is_capped_and_a_hook_chain_is_added_to(timed, tmp_path, monkeypatch):
    class Chain:
        """Triton's newer knobs: a hook chain with add/remove."""

        def __init__(self):
            self.calls = []

        def add(self, f):
            self.calls.append(f)

        def remove(self, f):
            self.calls.remove(f)

        def __call__(self, info):
            for f in self.calls:
                f(info)

    enter, leave = Chain(), Chain()
    monkeypatch.setattr(knobs.runtime, "launch_enter_hook", enter)
    monkeypatch.setattr(knobs.runtime, "launch_exit_hook", leave)
    monkeypatch.setattr(psession, "MAX_TRACE_EVENTS", 1)
    proton.start(str(tmp_path / "c"), hook="triton")
    assert len(enter.calls) == len(leave.calls) == 1
    add(64)
    add(64)
    proton.finalize()
    assert enter.calls == [] and leave.calls == [] and knobs.runtime.launch_enter_hook is enter
    trace = json.load(open(tmp_path / "c.chrome_trace"))
    assert sum(e["ph"] == "X" for e in trace["traceEvents"]) == 1
    assert trace["otherData"]["dropped_events"] == 1
    assert hatchet_nodes(tmp_path / "c.hatchet")[0][("ROOT", "add_kernel [n=64]")]["count"] == 2
    monkeypatch.setattr(knobs.runtime, "launch_enter_hook", None)
    monkeypatch.setattr(knobs.runtime, "launch_exit_hook", None)


def test_viewer_reads_proton_files_and_hides_metadata_frames(tmp_path):
    """A file as Proton writes it: the launch-metadata frame is not shown."""
    frame = lambda name, metrics, children=(): {  # noqa: E731
        "frame": {"name": name, "type": "function"}, "metrics": metrics, "children": list(children)}
    kernel = {"time (ns)": 2_000_000, "count": 4, "device_id": "0", "device_type": "CUDA"}
    data = [frame("ROOT", {"count": 0, "time (ns)": 0}, [
        frame("matmul_kernel [M=8192]", {"flops16": 4e12, "bytes": 1e9}, [
            frame("matmul_kernel", kernel),
            frame("__proton_launch_metadata", {}, [frame("copy", kernel)])])]),
        {"CUDA": {"0": {"arch": "90", "num_sms": 132, "clock_rate": 1755000,
                        "memory_clock_rate": 2619000, "bus_width": 5120}}}]
    path = tmp_path / "proton.hatchet"
    path.write_text(json.dumps(data))
    tree, cols = viewer.parse(["tflop16/s", "time/ms"], str(path))
    assert [n.name for n in tree.walk()] == ["ROOT", "matmul_kernel [M=8192]", "matmul_kernel"]
    assert tree.values["tflop16/s (inc)"] == pytest.approx(4e12 / 2e-3 / 1e12)
    assert tree.values["time/ms (inc)"] == pytest.approx(2.0)
