"""tritium.profiler: the part of Triton's Proton profiler that Triton's
tutorials use (``import triton.profiler as proton`` under the alias).

    sid = proton.start("matmul", hook="triton")   # session 0, active
    proton.deactivate(sid)                         # launches no longer timed
    with proton.scope("cublas", {"flops16": 2. * M * N * K}):
        ...
    proton.activate(sid)
    proton.finalize()    # writes matmul.hatchet and matmul.chrome_trace

While a session is active, every launch takes the Python launch path (the
launch hooks of ``knobs.runtime`` are set only then) and is timed on the GPU
by events (session.py); output.py writes the files. docs/runtime.md
("Benchmarks and profiling") says what it records and what of Proton is not here.
"""

import contextlib
import functools
import os
import sys
import threading

from .. import knobs
from . import output, session as _session

__all__ = ["start", "activate", "deactivate", "finalize", "scope", "enter_scope", "exit_scope",
           "profile", "DEFAULT_PROFILE_NAME"]

DEFAULT_PROFILE_NAME = "proton"

_sessions = {}  # id -> Session, started and not finalized
_active = []  # the active ones, in start order (what the launch hooks visit)
_next_id = 0
_hooks = None  # what _set_hooks installed: [(knob name, previous value, our hook)]


class _ThreadScopes(threading.local):
    def __init__(self):
        self.frames = []  # (name, {session id: its token}) of the scopes entered on this thread


_local = _ThreadScopes()


def _path():
    return tuple(name for name, _ in _local.frames)


# -- the launch hooks ------------------------------------------------------------

def _on_launch_enter(info):
    path = _path()
    for s in _active:
        s.launch_enter(info, path)


def _on_launch_exit(info):
    for s in _active:
        s.launch_exit()


def _chain_plain(previous, ours, ours_first):
    """One hook calling a previously set plain hook too; our events stay
    closest to the launch (enter: ours last; exit: ours first)."""
    if previous is None:
        return ours
    order = (ours, previous) if ours_first else (previous, ours)

    def both(info):
        for hook in order:
            hook(info)
    return both


def _set_hooks():
    """Launch hooks on while a session is active, off otherwise, so that
    launches take the C++ path when nothing is profiled. A hook chain
    (``.add``/``.remove``) is added to; a plain hook is wrapped."""
    global _hooks
    if _active and _hooks is None:
        _hooks = []
        for name, ours, first in (("launch_enter_hook", _on_launch_enter, False),
                                  ("launch_exit_hook", _on_launch_exit, True)):
            previous = getattr(knobs.runtime, name)
            if hasattr(previous, "add"):
                previous.add(ours)
                _hooks.append((name, previous, ours))
            else:
                hook = _chain_plain(previous, ours, first)
                setattr(knobs.runtime, name, hook)
                _hooks.append((name, previous, hook))
    elif not _active and _hooks is not None:
        for name, previous, hook in _hooks:
            if hasattr(previous, "remove"):
                previous.remove(hook)
            elif getattr(knobs.runtime, name) is hook:  # unless someone replaced it since
                setattr(knobs.runtime, name, previous)
        _hooks = None


# -- sessions ----------------------------------------------------------------------

def _select(session):
    if session is None:
        return list(_sessions.values())
    if session not in _sessions:
        raise RuntimeError(f"Session has not been initialized: {session}")
    return [_sessions[session]]


def _refresh_active():
    _active[:] = [s for s in _sessions.values() if s.active]
    _set_hooks()


def start(name=None, *, context="shadow", data="tree", backend=None, mode=None, hook=None):
    """Starts an active session writing ``{name}.hatchet`` and
    ``{name}.chrome_trace`` at finalize (``name`` may hold a path; default
    "proton"); returns its id. ``hook="triton"``: kernels are named and
    measured by their ``launch_metadata``."""
    global _next_id
    if hook not in (None, "triton"):
        raise ValueError(f"Invalid hook {hook!r}: the hooks are None and 'triton'")
    if context not in ("shadow", None):
        raise NotImplementedError(f"tritium.profiler: context {context!r} (Python call stacks) "
                                  "is not supported; scopes give the tree ('shadow')")
    if data not in ("tree", "trace", None):
        raise ValueError(f"Invalid data {data!r}: 'tree' or 'trace'")
    if backend not in (None, "cupti", "roctracer") or mode not in (None, ""):
        raise NotImplementedError(
            f"tritium.profiler times kernels with GPU events: backend={backend!r}, mode={mode!r} "
            "(instrumentation, PC sampling) is not supported")
    session = _session.Session(_next_id, DEFAULT_PROFILE_NAME if name is None else name, hook,
                               _session.make_timer())
    _sessions[session.id] = session
    _next_id += 1
    _refresh_active()
    return session.id


def activate(session=None):
    """Resumes recording in ``session`` (all sessions when None)."""
    for s in _select(session):
        s.active = True
    _refresh_active()


def deactivate(session=None):
    """Stops recording in ``session`` (all when None); what was recorded stays."""
    for s in _select(session):
        s.harvest()  # nothing is pending unless it was active with a timer
        s.active = False
    _refresh_active()


def finalize(session=None, output_format="hatchet"):
    """Ends ``session`` (all when None): writes its hatchet tree and Chrome
    trace and prints its summary table on stderr."""
    if output_format not in ("hatchet", "chrome_trace"):
        raise ValueError(f"Unsupported output format {output_format!r}: 'hatchet' or "
                         "'chrome_trace' (both files are written either way)")
    # An id already finalized (or never started) finalizes nothing, where activate raises.
    targets = _select(session) if session is None or session in _sessions else []
    for s in targets:
        s.close()
        del _sessions[s.id]
        stem = s.name[:-len(".hatchet")] if s.name.endswith(".hatchet") else s.name
        os.makedirs(os.path.dirname(stem) or ".", exist_ok=True)
        output.write(s, stem)
        print(output.summary(s), file=sys.stderr)
    _refresh_active()


# -- scopes ------------------------------------------------------------------------

def _enter(name, metrics):
    path = _path() + (name,)
    _local.frames.append((name, {s.id: s.scope_enter(path, metrics) for s in _active}))


def _exit():
    if not _local.frames:
        return
    path = _path()
    _, tokens = _local.frames.pop()
    for sid, token in tokens.items():
        if sid in _sessions:  # not finalized since
            _sessions[sid].scope_exit(path, token)


class scope(contextlib.ContextDecorator):
    """A named scope of the tree, as a context manager or a decorator;
    ``metrics`` (e.g. {"flops16": ..., "bytes": ...}) are added to it each
    time it is entered while a session is active."""

    def __init__(self, name, metrics=None):
        self._name, self._metrics = name, metrics

    def __enter__(self):
        _enter(self._name, self._metrics)
        return self

    def __exit__(self, *exc):
        _exit()


_scope_ids = iter(range(1 << 62))


def enter_scope(name, *, triton_op=False, metrics=None):
    """Enters a scope without a ``with`` (close it with exit_scope); returns its id."""
    _enter(name, metrics)
    return next(_scope_ids)


def exit_scope(triton_op=False, metrics=None):
    """Leaves the scope entered last on this thread."""
    _exit()


def profile(func=None, *, name=None, context="shadow", data="tree", backend=None, mode=None,
            hook=None):
    """Decorator: each call runs in a new session, deactivated when it
    returns (finalize writes it)."""
    def decorate(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            sid = start(name, context=context, data=data, backend=backend, mode=mode, hook=hook)
            try:
                return f(*args, **kwargs)
            finally:
                deactivate(sid)
        return wrapper
    return decorate if func is None else decorate(func)
