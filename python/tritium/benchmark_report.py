"""``perf_report``, ``Benchmark`` and ``Mark``: Triton's benchmark sweeps
(exported by tritium.testing; docs/runtime.md, "Benchmarks and profiling").

Triton requires pandas and matplotlib; here the table is a pandas DataFrame
when pandas is installed (the same printing and CSV as Triton) and a
``Table`` that prints and saves alike when it is not, and without
matplotlib there is no plot, only the table.
"""

import math
import numbers
import os
import sys
import time
from dataclasses import dataclass

__all__ = ["Benchmark", "Mark", "perf_report", "Table"]

#: Seconds after which a sweep reports each finished x value on stderr.
PROGRESS_AFTER_S = 3.0


@dataclass(eq=False)  # compared and hashed by identity, as Triton's plain class
class Benchmark:
    """One sweep: ``x_names`` take each of ``x_vals`` (a scalar for all of
    them, or a tuple with one value per name), ``line_arg`` takes each of
    ``line_vals`` (labelled ``line_names``, drawn with ``styles``, a list of
    (color, linestyle)); ``args`` are fixed keyword arguments."""

    x_names: list
    x_vals: list
    line_arg: str
    line_vals: list
    line_names: list
    plot_name: str
    args: dict
    xlabel: str = ""
    ylabel: str = ""
    x_log: bool = False
    y_log: bool = False
    styles: list = None


def _is_nan(v):
    return v is None or (isinstance(v, float) and math.isnan(v))


def _as_number(v):
    """pandas stores the sweep's numbers as float64; so does Table."""
    if isinstance(v, numbers.Real) and not isinstance(v, bool):
        return float(v)
    if hasattr(v, "item") and getattr(v, "ndim", None) == 0:  # a numpy or torch scalar
        return _as_number(v.item())
    return v


def _decimals(column):
    """The decimals pandas shows a float column with: as many as its values
    need, 1 to 6."""
    need = 1
    for v in column:
        if isinstance(v, float) and math.isfinite(v):
            text = f"{v:.6f}".rstrip("0")
            need = max(need, len(text) - text.index(".") - 1)
    return need


class Table:
    """A sweep's results without pandas: ``columns``, ``rows``, ``table[name]``
    (a column's values), ``to_string()`` as DataFrame.to_string() prints and
    ``to_csv()`` as DataFrame.to_csv(index=False) writes."""

    def __init__(self, columns, rows):
        self.columns = list(columns)
        self.rows = [[_as_number(v) for v in row] for row in rows]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, name):
        i = self.columns.index(name)
        return [row[i] for row in self.rows]

    def to_string(self):
        cells = []
        for i, name in enumerate(self.columns):
            column = self[name]
            places = _decimals(column)
            cells.append([str(name)] + ["NaN" if _is_nan(v) else
                                        f"{v:.{places}f}" if isinstance(v, float) else str(v)
                                        for v in column])
        index = [""] + [str(i) for i in range(len(self.rows))]
        widths = [max(map(len, index))] + [max(map(len, c)) for c in cells]
        lines = []
        for r in range(len(index)):
            parts = [index[r].ljust(widths[0])] + [c[r].rjust(w) for c, w in zip(cells, widths[1:])]
            lines.append("  ".join(parts))
        return "\n".join(lines)

    __str__ = to_string

    def to_csv(self, path, float_format="%.6f", index=False):
        def cell(v):
            if _is_nan(v):
                return ""
            text = float_format % v if isinstance(v, float) else str(v)
            return f'"{text}"' if "," in text or '"' in text else text
        with open(path, "w") as f:
            f.write(",".join(map(str, self.columns)) + "\n")
            for row in self.rows:
                f.write(",".join(cell(v) for v in row) + "\n")


def _make_table(columns, rows):
    """A pandas DataFrame built as Triton builds it (row by row, so the
    numbers print as float64), or a Table without pandas."""
    try:
        import pandas as pd
    except ImportError:
        return Table(columns, rows)
    df = pd.DataFrame(columns=columns)
    for row in rows:
        df.loc[len(df)] = row
    return df


def _plot(bench, rows, low, high, save_path, show_plots):
    """Draws the lines of the table's ``rows`` (and their ``low``/``high``
    band) with matplotlib; without it says on stderr that there is no plot,
    once per Benchmark."""
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        if save_path or show_plots:
            print(f"{bench.plot_name}: matplotlib is not installed, so no plot (the table is "
                  "printed and saved)", file=sys.stderr)
        return
    fig = plt.figure()
    ax = plt.subplot()
    floats = lambda values: [math.nan if _is_nan(v) else float(v) for v in values]
    xs = [row[0] for row in rows]
    for i, name in enumerate(bench.line_names):
        color, style = bench.styles[i] if bench.styles else (None, None)
        ax.plot(xs, [row[len(bench.x_names) + i] for row in rows], label=name, color=color, ls=style)
        if not all(map(_is_nan, low[i])) and not all(map(_is_nan, high[i])):
            ax.fill_between(xs, floats(low[i]), floats(high[i]), alpha=0.15, color=color)
    ax.legend()
    ax.set_xlabel(bench.xlabel or bench.x_names[0])
    ax.set_ylabel(bench.ylabel)
    ax.set_xscale("log" if bench.x_log else "linear")
    ax.set_yscale("log" if bench.y_log else "linear")
    if save_path:  # before show(), which may leave an interactive figure empty
        plt.savefig(os.path.join(save_path, f"{bench.plot_name}.png"))
    if show_plots:
        plt.show()
    plt.close(fig)


class Mark:
    """A function and the Benchmark (or list of them) it is swept over."""

    def __init__(self, fn, benchmarks):
        self.fn = fn
        self.benchmarks = benchmarks

    def _run(self, bench, save_path, show_plots, print_data, diff_col=False, save_precision=6,
             **kwargs):
        x_names = list(bench.x_names)
        rows = []  # the x values, then each line's (mid) value
        low, high = ([[] for _ in bench.line_vals] for _ in range(2))  # each line's min and max
        started = time.perf_counter()
        for point, x in enumerate(bench.x_vals):
            values = list(x) if isinstance(x, (list, tuple)) else [x] * len(x_names)
            if len(values) != len(x_names):
                raise ValueError(f"Expected {len(x_names)} values, got {x}")
            x_args = dict(zip(x_names, values))
            row = list(values)
            for i, y in enumerate(bench.line_vals):
                ret = self.fn(**x_args, **{bench.line_arg: y}, **bench.args, **kwargs)
                try:
                    mid, lo, hi = ret
                except TypeError:
                    mid, lo, hi = ret, None, None
                row.append(_as_number(mid))
                low[i].append(_as_number(lo))
                high[i].append(_as_number(hi))
            rows.append(row)
            elapsed = time.perf_counter() - started
            if elapsed > PROGRESS_AFTER_S:
                where = ", ".join(f"{k}={v}" for k, v in x_args.items())
                print(f"{bench.plot_name or 'benchmark'}: {point + 1}/{len(bench.x_vals)} "
                      f"({where}) done, {elapsed:.1f} s", file=sys.stderr, flush=True)
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        if bench.plot_name:
            _plot(bench, rows, low, high, save_path, show_plots)
        columns = x_names + list(bench.line_names)
        if diff_col and len(columns) == 2:
            columns.append("Diff")
            rows = [row + [row[1] - row[0]] for row in rows]
        table = _make_table(columns, rows)
        if print_data:
            print(f"{bench.plot_name}:")
            print(table.to_string())
        if save_path:
            table.to_csv(os.path.join(save_path, f"{bench.plot_name}.csv"),
                         float_format=f"%.{save_precision}f", index=False)
        return table

    def run(self, show_plots=False, print_data=False, save_path="", return_df=False, **kwargs):
        """Runs every Benchmark; with ``save_path``, also writes results.html
        showing the plots. ``return_df``: the table (a list of them when
        the Mark has a list of Benchmarks)."""
        single = isinstance(self.benchmarks, Benchmark)
        benchmarks = [self.benchmarks] if single else self.benchmarks
        tables = []
        try:
            for bench in benchmarks:
                tables.append(self._run(bench, save_path, show_plots, print_data, **kwargs))
        finally:
            if save_path:
                os.makedirs(save_path, exist_ok=True)
                with open(os.path.join(save_path, "results.html"), "w") as html:
                    html.write("<html><body>\n")
                    for bench in benchmarks[:len(tables)]:
                        html.write(f"<image src=\"{bench.plot_name}.png\"/>\n")
                    html.write("</body></html>\n")
        if return_df:
            return tables[0] if single else tables


def perf_report(benchmarks):
    """Decorator: the function becomes a Mark swept over ``benchmarks`` (a
    Benchmark or a list of them); call ``.run(...)`` on it."""
    return lambda fn: Mark(fn, benchmarks)
