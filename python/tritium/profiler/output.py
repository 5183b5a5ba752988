"""What a finalized session writes (docs/runtime.md): Proton's hatchet JSON
``[tree, devices]`` (``devices`` maps "CUDA"/"HIP" to device id to its
properties), a Chrome trace ``{"traceEvents": [...]}`` with one complete
("X") event per timed launch (thread: its stream) and per scope (thread
"scopes"), in microseconds from the session's start, and the summary table.
"""

import json

__all__ = ["hatchet", "chrome_trace", "write", "summary", "flops_of"]


def _node_json(node):
    return {"frame": {"name": node.name, "type": "function"}, "metrics": dict(node.metrics),
            "children": [_node_json(c) for c in node.children.values()]}


def hatchet(session):
    tree = _node_json(session.root)
    devices = {}
    if any("time (ns)" in metrics for _, metrics in _rows(session.root)):
        tree["metrics"].update({"count": 0, "time (ns)": 0})  # as Proton's root
        if session.device is not None:
            kind, device_id, props = session.device
            devices[kind] = {device_id: props}
    return [tree, devices]


def chrome_trace(session):
    events = []
    if session.device is not None:
        pid = int(session.device[1])
        events.append({"name": "process_name", "ph": "M", "pid": pid,
                       "args": {"name": f"{session.device[0]} device {pid}"}})
        for tid in sorted({e["tid"] for e in session.trace}, key=str):
            label = "scopes" if isinstance(tid, str) else f"stream {tid:#x}"
            events.append({"name": "thread_name", "ph": "M", "pid": pid, "tid": tid,
                           "args": {"name": label}})
    return {"traceEvents": events + session.trace, "displayTimeUnit": "ns",
            "otherData": {"profiler": "tritium.profiler", "session": session.name,
                          "dropped_events": session.dropped}}


def write(session, stem):
    """Writes ``{stem}.hatchet`` and ``{stem}.chrome_trace``."""
    for ext, data, indent in ((".hatchet", hatchet(session), 1),
                              (".chrome_trace", chrome_trace(session), None)):
        with open(stem + ext, "w") as f:
            json.dump(data, f, indent=indent)


def _rows(node, path=()):
    """(path, metrics) of the nodes below ``node`` that were launched or timed (the root never is)."""
    for child in node.children.values():
        p = path + (child.name,)
        if "count" in child.metrics or "time (ns)" in child.metrics:
            yield p, child.metrics
        yield from _rows(child, p)


def flops_of(metrics):
    """The floating-point operations a node's metrics count (any width)."""
    return sum(v for k, v in metrics.items()
               if k == "flops" or (k.startswith("flops") and k[5:].isdigit()))


def summary(session):
    """A table of the kernels and self-timed scopes: launches, GPU time, and
    the throughput their flops and bytes give."""
    head = ("name", "count", "time/ms", "avg/us", "TFLOP/s", "GB/s")
    rows = []
    total_ms = 0.0
    for path, m in _rows(session.root):
        ns = m.get("time (ns)")
        count = m.get("count", 0)
        ms = ns / 1e6 if ns is not None else None
        total_ms += ms or 0.0
        flops, nbytes = flops_of(m), m.get("bytes", 0)
        rate = (lambda amount, unit: f"{amount / (ms * 1e-3) / unit:.2f}"
                if ms and amount else "")
        rows.append((" / ".join(path), str(count), "" if ms is None else f"{ms:.3f}",
                     f"{ms * 1e3 / count:.2f}" if ms is not None and count else "",
                     rate(flops, 1e12), rate(nbytes, 1e9)))
    width = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(head)]
    fmt = lambda r: "  ".join([r[0].ljust(width[0])] + [c.rjust(w) for c, w in zip(r[1:], width[1:])])
    timing = "GPU events" if session.timer is not None else "no GPU: launches counted, not timed"
    lines = [f"tritium.profiler session {session.id} '{session.name}' ({timing}):", fmt(head)]
    lines += [fmt(r) for r in rows] or ["(nothing recorded)"]
    lines.append(f"total GPU time: {total_ms:.3f} ms")
    return "\n".join(lines)
