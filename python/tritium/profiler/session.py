"""One profiling session of tritium.profiler: its tree of scopes and
kernels (ROOT / scope / ... / kernel), and GPU time measured by events.

A launch made while the session is active gets a start and an end event on
its stream, a scope a pair around it on the current stream. The events are
read back in batches (``HARVEST_EVERY``) and at deactivate/finalize, so
timing costs two event records per launch and no synchronization in between.
A scope inside which nothing was timed gets its own time from its events:
the GPU work of other libraries (cuBLAS, torch) is measured that way.
"""

from numbers import Number

from ..runtime import driver as _driver

__all__ = ["Node", "EventTimer", "Session", "make_timer"]

#: Event pairs recorded before they are read back (one synchronize each time).
HARVEST_EVERY = 4096
#: Trace events a session keeps; later ones are counted in the trace's
#: "dropped_events" (the tree keeps every launch).
MAX_TRACE_EVENTS = 100_000
#: Keys of a launch's info that are not metrics (runtime/jit.py's _launch_info).
NOT_METRICS = frozenset({"name", "function", "kernel", "grid", "stream", "args"})
#: The trace's thread for scopes (kernels use their stream's handle).
SCOPE_TID = "scopes"


class Node:
    """A frame of the tree: ``name``, additive ``metrics``, ``children`` by name."""

    __slots__ = ("name", "metrics", "children")

    def __init__(self, name):
        self.name = name
        self.metrics = {}
        self.children = {}

    def child(self, name):
        node = self.children.get(name)
        if node is None:
            node = self.children[name] = Node(name)
        return node

    def add(self, metrics):
        for key, value in metrics.items():
            self.metrics[key] = self.metrics.get(key, 0) + value


class EventTimer:
    """GPU events of the active driver's library (cuEvent*/hipEvent*), on the
    device that was current when the session started."""

    def __init__(self, drv):
        self.driver = drv
        self.lib = drv.native_driver
        self.device = drv.get_current_device()
        self._free = []

    def current_stream(self):
        return self.driver.get_current_stream(self.device)

    def record(self, stream):
        event = self._free.pop() if self._free else self.lib.event_create()
        self.lib.event_record(event, stream)
        return event

    def elapsed_ms(self, start, end):
        return self.lib.event_elapsed(start, end)

    def synchronize(self):
        self.lib.synchronize(self.device)

    def release(self, *events):
        self._free.extend(events)

    def close(self):
        for event in self._free:
            self.lib.event_destroy(event)
        self._free.clear()

    def device_info(self):
        """(device type, device id, properties) for the hatchet file."""
        target = self.driver.get_current_target()
        props = self.driver.properties(self.device) if hasattr(self.driver, "properties") else {}
        kind = "HIP" if target.backend == "hip" else "CUDA"
        return kind, str(self.device), {
            "arch": str(target.arch), "num_sms": props.get("multiprocessor_count", 0),
            "clock_rate": props.get("clock_rate", 0),
            "memory_clock_rate": props.get("mem_clock_rate", 0),
            "bus_width": props.get("mem_bus_width", 0)}


def make_timer():
    """The active driver's EventTimer, or None without a GPU library (then
    launches are counted, not timed)."""
    drv = _driver.active.get()
    return EventTimer(drv) if getattr(drv, "native_driver", None) is not None else None


class Session:
    """What ``tritium.profiler.start`` made: ``name`` (the output files'
    stem), ``hook`` ("triton" to use launch_metadata, or None), the tree
    (``root``) and the trace events."""

    def __init__(self, sid, name, hook, timer):
        self.id, self.name, self.hook, self.timer = sid, name, hook, timer
        self.root = Node("ROOT")
        self.active = True
        self.trace = []
        self.dropped = 0
        self.device = timer.device_info() if timer else None
        self._pending = []  # what _queue keeps
        self._timed = 0  # launches and scopes timed: a scope times itself only if this stayed put
        self._open = None  # the launch between enter and exit
        self._base = timer.record(timer.current_stream()) if timer else None

    def node(self, path):
        node = self.root
        for name in path:
            node = node.child(name)
        return node

    # -- launches --------------------------------------------------------------

    def launch_enter(self, info, path):
        fields = info if isinstance(info, dict) else info.get()  # jit.py's dict or Triton's LazyDict
        name = getattr(fields.get("kernel"), "name", None) or "kernel"
        metrics = {}
        if self.hook == "triton":
            name = fields.get("name") or name
            metrics = {k: v for k, v in fields.items() if k not in NOT_METRICS
                       and isinstance(v, Number) and not isinstance(v, bool)}
        stream = fields.get("stream") or 0
        if self._open is not None and self._open[3] is not None:
            self.timer.release(self._open[3])  # that launch raised before its exit hook
        start = self.timer.record(stream) if self.timer else None
        self._open = (path + (name,), name, metrics, start, stream)

    def launch_exit(self):
        if self._open is None:
            return
        path, name, metrics, start, stream = self._open
        self._open = None
        node = self.node(path)
        self._add(node, {"count": 1, **metrics})
        if start is not None:
            self._timed += 1
            self._queue(node, False, name, "kernel", stream, start, self.timer.record(stream),
                        {"scope": "/".join(path[:-1]), **metrics})

    # -- scopes ----------------------------------------------------------------

    def scope_enter(self, path, metrics):
        """Returns what scope_exit needs."""
        if metrics:
            self.node(path).add({k: v for k, v in metrics.items() if isinstance(v, Number)})
        if self.timer is None:
            return None
        return self.timer.record(self.timer.current_stream()), self._timed

    def scope_exit(self, path, token):
        if token is None:  # no timer
            return
        start, timed_before = token
        if not self.active:  # deactivated inside the scope
            self.timer.release(start)
            return
        end = self.timer.record(self.timer.current_stream())
        own = self._timed == timed_before  # nothing inside was timed: time the scope itself
        if own:
            self._timed += 1
        self._queue(self.node(path) if own else None, True, path[-1], "scope", SCOPE_TID, start,
                    end, {"scope": "/".join(path)})

    # -- reading the events back -----------------------------------------------

    def _add(self, node, metrics):
        node.add(metrics)
        if self.device is not None:
            node.metrics["device_type"], node.metrics["device_id"] = self.device[:2]

    def _queue(self, *event):
        """Keeps (node or None, count it, label, category, tid, start, end, args) for harvest."""
        self._pending.append(event)
        if len(self._pending) >= HARVEST_EVERY:
            self.harvest()

    def harvest(self):
        """Waits for the GPU and moves the recorded times into the tree and the trace."""
        if not self._pending:
            return
        timer = self.timer
        timer.synchronize()
        for node, counted, label, category, tid, start, end, args in self._pending:
            ms = timer.elapsed_ms(start, end)
            if node is not None:
                self._add(node, {"time (ns)": int(round(ms * 1e6)), **({"count": 1} if counted else {})})
            if len(self.trace) < MAX_TRACE_EVENTS:
                self.trace.append({"name": label, "cat": category, "ph": "X",
                                   "ts": round(timer.elapsed_ms(self._base, start) * 1e3, 3),
                                   "dur": round(ms * 1e3, 3), "pid": int(self.device[1]), "tid": tid,
                                   "args": args})
            else:
                self.dropped += 1
            timer.release(start, end)
        self._pending.clear()

    def close(self):
        if self.timer is not None:
            self.harvest()
            self.timer.release(self._base)
            self.timer.close()
