"""tritium.testing's perf_report/Benchmark (tables, CSV, plots, progress)
and do_bench_cudagraph, with Triton's names and arguments."""

import sys

import pytest

import tritium
from tritium import benchmark_report
from tritium.runtime import driver
from tritium.testing import Benchmark, perf_report

TABLE = """\
vector-add:
      size  Triton      Torch
0   4096.0   4.596   4.429333
1   8192.0   8.692   8.525333
2  16384.0  16.884  16.717333"""

CSV = """\
size,Triton,Torch
4096.000000,4.596000,4.429333
8192.000000,8.692000,8.525333
16384.000000,16.884000,16.717333
"""


def sweep(calls=None, triple=True):
    bench = Benchmark(x_names=["size"], x_vals=[4096, 8192, 16384], x_log=True,
                      line_arg="provider", line_vals=["triton", "torch"],
                      line_names=["Triton", "Torch"], styles=[("blue", "-"), ("green", "--")],
                      ylabel="GB/s", plot_name="vector-add", args={"scale": 1000.0})

    @perf_report(bench)
    def run(size, provider, scale):
        if calls is not None:
            calls.append((size, provider, scale))
        v = size / scale + (0.5 if provider == "triton" else 1 / 3)
        return (v, v * 0.9, v * 1.1) if triple else v
    return run


@pytest.fixture(params=["pandas", "no pandas"])
def table_kind(request, monkeypatch):
    if request.param == "pandas":
        pytest.importorskip("pandas")
    else:
        monkeypatch.setitem(sys.modules, "pandas", None)  # import fails
    return request.param


@pytest.fixture
def no_matplotlib(monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)


def test_prints_and_saves_the_table(table_kind, no_matplotlib, tmp_path, capsys):
    calls = []
    sweep(calls).run(print_data=True, save_path=str(tmp_path / "out"))
    assert calls == [(x, p, 1000.0) for x in (4096, 8192, 16384) for p in ("triton", "torch")]
    captured = capsys.readouterr()
    assert captured.out == TABLE + "\n"
    assert (tmp_path / "out" / "vector-add.csv").read_text() == CSV
    assert "matplotlib is not installed, so no plot" in captured.err
    assert not (tmp_path / "out" / "vector-add.png").exists()
    assert (tmp_path / "out" / "results.html").read_text() == (
        '<html><body>\n<image src="vector-add.png"/>\n</body></html>\n')


def test_single_values_and_returned_tables(table_kind, no_matplotlib, capsys):
    table = sweep(triple=False).run(return_df=True)
    assert capsys.readouterr().out == ""
    assert list(table.columns) == ["size", "Triton", "Torch"]
    assert list(table["Torch"]) == pytest.approx([4.096 + 1 / 3, 8.192 + 1 / 3, 16.384 + 1 / 3])
    assert len(table) == 3
    two = perf_report([Benchmark(["n"], [1], "p", [0], ["A"], "a", {}),
                       Benchmark(["n"], [2], "p", [0], ["B"], "b", {})])(lambda n, p: n * 10)
    tables = two.run(return_df=True)
    assert [list(t["A" if i == 0 else "B"]) for i, t in enumerate(tables)] == [[10.0], [20.0]]


def test_several_x_names_tuples_run_arguments_and_diff(table_kind, no_matplotlib, capsys):
    seen = []
    bench = Benchmark(x_names=["M", "N"], x_vals=[128, (256, 512)], line_arg="provider",
                      line_vals=["a"], line_names=["A"], plot_name="mm", args={})

    @perf_report(bench)
    def run(M, provider, extra, N=10):
        seen.append((M, N, provider, extra))
        return M + N

    run.run(print_data=True, extra="x")
    assert seen == [(128, 128, "a", "x"), (256, 512, "a", "x")]
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "mm:" and out[1].split() == ["M", "N", "A"]
    assert out[3].split() == ["1", "256.0", "512.0", "768.0"]
    bench.x_names, bench.x_vals = ["M"], [3]
    table = run.run(return_df=True, diff_col=True, extra="y")
    assert list(table.columns) == ["M", "A", "Diff"] and list(table["Diff"]) == [10.0]
    bench.x_names, bench.x_vals = ["M", "N"], [(1, 2, 3)]
    with pytest.raises(ValueError, match=r"Expected 2 values, got \(1, 2, 3\)"):
        run.run(extra="z")


def test_csv_precision_and_missing_values(no_matplotlib, monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "pandas", None)
    bench = Benchmark(["n"], [1, 2], "p", ["a", "b"], ["A", "B"], "t", {})
    perf_report(bench)(lambda n, p: None if (n, p) == (2, "b") else n / 3).run(
        save_path=str(tmp_path), save_precision=2)
    assert (tmp_path / "t.csv").read_text() == "n,A,B\n1.00,0.33,0.33\n2.00,0.67,\n"


def test_plots_a_png(tmp_path, table_kind):
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    sweep().run(save_path=str(tmp_path))
    png = (tmp_path / "vector-add.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 5000
    import matplotlib.pyplot as plt
    assert plt.get_fignums() == []  # the figure is closed


def test_long_sweeps_report_each_point(no_matplotlib, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pandas", None)
    sweep().run()
    assert capsys.readouterr().err == ""  # fast: no progress lines
    monkeypatch.setattr(benchmark_report, "PROGRESS_AFTER_S", -1.0)
    sweep().run()
    lines = capsys.readouterr().err.splitlines()
    assert [line.split(" done")[0] for line in lines] == [
        "vector-add: 1/3 (size=4096)", "vector-add: 2/3 (size=8192)",
        "vector-add: 3/3 (size=16384)"]


def test_do_bench_cudagraph_without_a_gpu_raises_no_backend_error():
    driver.set_active(driver.NullDriver())
    try:
        with pytest.raises(tritium.NoBackendError, match="cannot benchmark it"):
            tritium.testing.do_bench_cudagraph(lambda: None)
        with pytest.raises(tritium.NoBackendError, match="cannot benchmark it"):
            tritium.testing.do_bench(lambda: None)
    finally:
        driver.set_active(None)


def test_do_bench_cudagraph_needs_torch(fake_driver, monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(RuntimeError, match="do_bench_cudagraph needs torch"):
        tritium.testing.do_bench_cudagraph(lambda: None)


@pytest.mark.gpu
def test_do_bench_cudagraph_times_a_kernel():
    torch = pytest.importorskip("torch")
    import tritium.language as tl
    from tritium.runtime import CudaDriver
    drv = CudaDriver("")
    if not drv.is_active():
        pytest.skip(drv.load_error())
    driver.set_active(drv)

    @tritium.jit
    def inc(x_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)

    n = 1 << 20
    x = torch.zeros(n, device="cuda")
    run = lambda: inc[(tritium.cdiv(n, 1024),)](x, n, BLOCK=1024)  # noqa: E731
    ms = tritium.testing.do_bench_cudagraph(run, rep=20)
    assert 0 < ms < 5
    q = tritium.testing.do_bench_cudagraph(run, quantiles=[0.5, 0.2, 0.8], rep=20)
    assert len(q) == 3 and q[1] <= q[0] <= q[2]
    assert len(tritium.testing.do_bench_cudagraph(run, return_mode="all")) == 10
    torch.cuda.synchronize()
    assert float(x[0]) == float(x[-1]) > 10  # the graph's replays ran the kernel
    driver.set_active(None)
