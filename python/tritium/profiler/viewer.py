"""Reads a profile's hatchet file and prints its tree with chosen metrics,
as Proton's viewer does (without hatchet or pandas):

    python -m tritium.profiler.viewer -m tflop16/s,time/ms matmul.hatchet

or, from Python (Triton's tutorials 09 and 10)::

    tree, metrics = viewer.parse(["tflop16/s", "time/ms"], "matmul.hatchet")
    viewer.print_tree(tree, metrics)

Metrics are inclusive (a frame adds up its children). Derived ones:
time/s|ms|us|ns, avg_time/s|ms|us|ns (time / count), flop/s, gflop/s,
tflop/s (from "flops") and flop<W>/s, gflop<W>/s, tflop<W>/s (from
"flops<W>", W in 8, 16, 32, 64), byte/s, gbyte/s, tbyte/s (from "bytes");
any other name is a metric of the file ("count", "bytes", "flops16", ...),
matched without case or unit. Not here: "util" (needs peak rates per
architecture), "<metric>/%", --diff-profile, and frame name formats.
"""

import argparse
import json
import math
import re

__all__ = ["ViewNode", "read", "parse", "print_tree", "show_metrics", "main"]

_TIME = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
_SCALE = {"": 1.0, "g": 1e9, "t": 1e12}
_ADDITIVE_SKIP = ("device_id", "device_type")
#: Frames Proton adds for the GPU work of computing launch metadata; its viewer hides them.
_HIDDEN_FRAMES = ("__proton_launch_metadata",)


class ViewNode:
    """A frame: ``name``, its own ``metrics`` and ``inclusive`` ones (summed
    over the subtree), ``children``, and ``values`` of the derived metrics."""

    def __init__(self, name, metrics, children):
        self.name, self.metrics, self.children = name, metrics, children
        self.inclusive = {k: v for k, v in metrics.items()
                          if k not in _ADDITIVE_SKIP and isinstance(v, (int, float))}
        for child in children:
            for k, v in child.inclusive.items():
                self.inclusive[k] = self.inclusive.get(k, 0) + v
        self.values = {}

    def walk(self):
        yield self
        for child in self.children:
            yield from child.walk()


def _build(frame):
    """A ViewNode, or None for a hidden frame or one with no metrics and no
    children left."""
    if frame["frame"]["name"] in _HIDDEN_FRAMES:
        return None
    children = [c for c in (_build(f) for f in frame.get("children", [])) if c is not None]
    metrics = frame.get("metrics", {})
    if not children and not metrics:
        return None
    return ViewNode(frame["frame"]["name"], metrics, children)


def read(filename):
    """The tree and device information of a hatchet file."""
    with open(filename) as f:
        tree, devices = json.load(f)[:2]
    return _build(tree) or ViewNode(tree["frame"]["name"], {}, []), devices


def _raw_names(tree):
    return sorted({k for n in tree.walk() for k in n.inclusive})


def _match(name, raw):
    for r in raw:
        if name.lower() in (r.lower(), r.split("(")[0].strip().lower()):
            return r
    raise RuntimeError(f"Metric {name} is not found. Use the --list flag to list available metrics")


def _derive(tree, metric, raw):
    """Fills ``values[column]`` on every node; returns the column's name."""
    time = re.fullmatch(r"(avg_)?time/(s|ms|us|ns)", metric)
    rate = re.fullmatch(r"([gt]?)(flop(\d*)|byte)/s", metric)
    if time or rate:
        time_key = _match("time", raw)
        seconds = lambda n: n.inclusive.get(time_key, 0) * 1e-9
    column = metric + " (inc)"
    if time and time.group(1):
        count_key = _match("count", raw)
        value = lambda n: (seconds(n) / _TIME[time.group(2)] / n.inclusive[count_key]
                           if n.inclusive.get(count_key) else math.nan)
    elif time:
        value = lambda n: seconds(n) / _TIME[time.group(2)]
    elif rate:
        source = _match(f"flops{rate.group(3)}" if rate.group(2).startswith("flop") else "bytes", raw)
        value = lambda n: (n.inclusive[source] / seconds(n) / _SCALE[rate.group(1)]
                           if seconds(n) and source in n.inclusive else math.nan)
    else:
        key = _match(metric, raw)
        column = key + " (inc)"
        value = lambda n: n.inclusive.get(key, math.nan)
    for n in tree.walk():
        n.values[column] = value(n)
    return column


def _filter(node, include, exclude, threshold, first, is_root=True):
    if not is_root:
        if exclude and re.match(exclude, node.name):
            return None
        if threshold is not None and not node.values.get(first, math.nan) >= threshold:
            return None
    kept = [c for c in (_filter(c, include, exclude, threshold, first, False)
                        for c in node.children) if c is not None]
    if include and not is_root and not kept and not re.match(include, node.name):
        return None  # keep only the paths that pass through a matching frame
    node.children = kept
    return node


def parse(metrics, filename, include=None, exclude=None, threshold=None):
    """Reads ``filename`` and derives ``metrics`` (a name or a list of them);
    returns (tree, the derived columns' names) for print_tree."""
    tree, _ = read(filename)
    raw = _raw_names(tree)
    metrics = [metrics] if isinstance(metrics, str) else list(metrics or ["time/ms"])
    columns = [_derive(tree, m.strip(), raw) for m in metrics]
    return _filter(tree, include, exclude, threshold, columns[0]), columns


def _lines(node, columns, depth, prefix="", last=True, is_root=True):
    values = " ".join(f"{node.values.get(c, math.nan):.3f}" for c in columns)
    branch = "" if is_root else ("└─ " if last else "├─ ")
    yield f"{prefix}{branch}{values} {node.name}"
    if depth <= 1:
        return
    inner = prefix + ("" if is_root else ("   " if last else "│  "))
    for i, child in enumerate(node.children):
        yield from _lines(child, columns, depth - 1, inner, i == len(node.children) - 1, False)


def print_tree(tree, metrics, depth=100, format=None, print_sorted=False):
    """Prints the tree, one frame per line: the metrics' values, then the name."""
    print("Metrics: " + " | ".join(metrics))
    print("\n".join(_lines(tree, metrics, depth)))
    if print_sorted:
        print("Sorted kernels by metric " + metrics[0])
        nodes = [n for n in tree.walk() if n is not tree]
        value = lambda n: n.values.get(metrics[0], math.nan)
        nodes.sort(key=lambda n: -math.inf if math.isnan(value(n)) else value(n), reverse=True)
        for n in nodes:
            name = n.name[:100] + "..." if len(n.name) > 100 else n.name
            print("{:105} {:.4}".format(name, float(value(n))))  # counts are ints


def show_metrics(filename):
    tree, _ = read(filename)
    print("Available metrics:")
    for name in _raw_names(tree):
        print(f"- {name.split('(')[0].strip().lower()}")


def main(argv=None):
    parser = argparse.ArgumentParser(description="Prints a tritium.profiler (Proton) hatchet file.")
    parser.add_argument("file")
    parser.add_argument("-l", "--list", action="store_true", help="list the file's metrics")
    parser.add_argument("-m", "--metrics", default="time/ms",
                        help="comma-separated metrics (default time/ms)")
    parser.add_argument("-i", "--include", help="keep the paths through frames matching this regex")
    parser.add_argument("-e", "--exclude", help="drop frames matching this regex, and their children")
    parser.add_argument("-t", "--threshold", type=float,
                        help="drop frames whose first metric is below this")
    parser.add_argument("-d", "--depth", type=int, default=100)
    parser.add_argument("--print-sorted", "--print_sorted", action="store_true")
    args = parser.parse_args(argv)
    if args.include and args.exclude:
        raise ValueError("Cannot specify both include and exclude")
    if args.list:
        show_metrics(args.file)
        return
    tree, columns = parse(args.metrics.split(","), args.file, args.include, args.exclude,
                          args.threshold)
    print_tree(tree, columns, args.depth, print_sorted=args.print_sorted)


if __name__ == "__main__":
    main()
