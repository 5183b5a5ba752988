"""bench/run.py's report on results shaped as the benchmark scripts write
them (--json): CSVs, markdown tables with Tritium's ratios, a dated section
under docs/performance.md's introduction, bar charts where matplotlib is."""

import csv
import importlib.util
import json
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

RESULTS = {
    "gpu": {"device": "NVIDIA H100 80GB HBM3", "rows": [
        {"name": "vector add fp32 2^28", "tritium_gbs": 3040.0, "triton_gbs": 3020.0, "torch_gbs": 3038.0},
        {"name": "softmax fp32 32768x1024", "tritium_gbs": 2900.0, "triton_gbs": 2859.0, "torch_gbs": 2811.0}],
        "launch_us": {"tritium": 4.32, "triton": 11.36, "torch": 5.22},
        "cold_compile_ms": {"tritium_add_ms": 26.0, "triton_add_ms": 48.0,
                            "tritium_softmax_ms": 40.0, "triton_softmax_ms": 218.0},
        "cold_compile_stages_ms": {"add": {"tir": 0.5, "ptx": 3.0, "cubin": 18.0}}},
    "matmul": {"tritium": {"float16_4096": 681.8, "torch_float16_4096": 766.0, "float8_e4m3fn_4096": 1293.0},
               "triton": {"float16_4096": 729.0, "float8_e4m3fn_4096": 1222.0},
               "triton_mma_v2": {"float16_4096": 500.0}},
    "attention": {"tritium": {"D64 causal": 380.0, "sdpa_D64 causal": 424.0},
                  "triton": {"D64 causal": 376.0}, "triton_mma_v2": {}},
    "autotune": {"runs": {"tritium": [{"wall_s": 0.75, "config": [128, 256, 64, 3, 8], "tflops": 648.0},
                                      {"wall_s": 0.73, "config": [128, 256, 64, 3, 8], "tflops": 650.0},
                                      {"wall_s": 0.76, "config": [128, 256, 64, 3, 8], "tflops": 651.0}],
                          "triton": [{"wall_s": 4.03, "config": [128, 256, 64, 3, 8], "tflops": 651.0}]}},
}


def load_run():
    spec = importlib.util.spec_from_file_location("bench_run", os.path.join(REPO, "bench", "run.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture
def results(tmp_path):
    for name, data in RESULTS.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(data))
    return tmp_path


def test_tables_and_csvs(results):
    t = load_run().report(str(results))
    assert set(t) == {"bandwidth", "launch", "cold_compile", "matmul", "attention", "autotune"}
    rows = list(csv.reader(open(results / "matmul.csv")))
    assert rows[0] == ["case", "Tritium TFLOP/s", "Triton", "Triton mma.sync", "torch", "/Triton", "/torch"]
    assert rows[1] == ["float16_4096", "681.8", "729.0", "500.0", "766.0", "0.94", "0.89"]
    assert rows[2][0] == "float8_e4m3fn_4096" and rows[2][5:] == ["1.06", "-"]  # no torch fp8
    cold = list(csv.reader(open(results / "cold_compile.csv")))
    assert cold[1] == ["add", "26.0", "48.0", "0.54", "tir 0.5, ptx 3.0, cubin 18.0"]
    tune = list(csv.reader(open(results / "autotune.csv")))
    assert tune[1][:2] == ["tritium", "0.75"]  # the median of three
    text = open(results / "tables.md").read()
    assert "| softmax fp32 32768x1024 | 2900 | 2859 | 2811 | 1.01 | 1.03 |" in text
    assert "| D64 causal | 380.0 | 376.0 | 0.0 | 424.0 | 1.01 | 0.90 |" in text


def test_docs_section_goes_under_the_introduction(results, tmp_path):
    docs = tmp_path / "performance.md"
    docs.write_text("# Performance\n\nIntro.\n\n## 2026-12-06 (older)\n\nOld table.\n")
    load_run().report(str(results), str(docs), "bench/run.py --quick")
    body = docs.read_text()
    assert body.startswith("# Performance\n\nIntro.\n\n## ")
    new = body.index("`bench/run.py --quick`")
    assert new < body.index("## 2026-12-06 (older)")
    assert "Machine: NVIDIA H100 80GB HBM3" in body
    assert "| 4-argument kernel, best round of 200 | 4.32 | 11.36 | 5.22 |" in body


def test_plots_where_matplotlib_is(results):
    pytest.importorskip("matplotlib")
    load_run().report(str(results))
    for name in ("bandwidth", "matmul", "attention", "cold_compile", "launch"):
        png = results / f"{name}.png"
        assert png.exists() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", name


def test_missing_steps_are_left_out(tmp_path):
    (tmp_path / "matmul.json").write_text(json.dumps(RESULTS["matmul"]))
    t = load_run().report(str(tmp_path))
    assert list(t) == ["matmul"]
