"""Running one hostile case in a fresh process, with a timeout.

``run_snippet(code)`` runs Python ``code`` in a new interpreter (the
in-tree package first on its path, a private ``TRITIUM_CACHE_DIR``) under
a harness that reports how it ended: normally, or with which exception
(its class, the classes it derives from, its message). A crash (a signal),
a hang (past the timeout) or an exit before the harness reports is then
that case's failure, never pytest's. ``run_command(argv)`` does the same
for any program (the C++ tools), without the harness; ``expect_exit``
checks how such a program ended.

``expect_error(result, "CompilationError", r"regex")`` and
``expect_ok(result)`` check the outcome; besides the expected class, an
error must not be one that only says something inside Tritium broke
(``INTERNAL``, pybind11's "incompatible function arguments").

Code that needs a @jit kernel (which reads its source file) gets
``load_source(text)`` in the harness: writes ``text`` to a file and imports
it as a module. ``TMP`` is a directory of the case's own (removed after it,
with the case's cache directory, ``TMP/cache``).
"""

import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PYTHON_DIR = os.path.join(REPO, "python")

#: Exception classes that, raised out of Tritium, mean it broke rather than
#: that it refused bad input with a reason.
INTERNAL = ("KeyError", "AttributeError", "UnboundLocalError", "NameError", "RecursionError", "SystemError",
            "AssertionError", "ZeroDivisionError", "StopIteration", "MemoryError", "UnicodeDecodeError",
            "UnicodeEncodeError", "NotImplementedError")

_MARK = "HOSTILE-RESULT "

_HARNESS = r'''
import json, os, sys, importlib.util
_count = [0]
def load_source(text, name=None):
    """Writes text to a file of its own and imports it (a @jit kernel reads its source)."""
    _count[0] += 1
    name = name or f"hostile_mod_{_count[0]}"
    path = os.path.join(os.environ["HOSTILE_TMP"], name + ".py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod
def _report(**kw):
    sys.stdout.flush()
    print("\n''' + _MARK + r'''" + json.dumps(kw), flush=True)
_code = sys.stdin.read()
try:
    exec(compile(_code, "<hostile case>", "exec"), {"__name__": "__hostile__", "load_source": load_source,
                                                     "TMP": os.environ["HOSTILE_TMP"]})
except BaseException as e:
    _report(error=type(e).__name__, mro=[c.__name__ for c in type(e).__mro__], message=str(e)[:4000])
else:
    _report(error=None)
'''


@dataclasses.dataclass
class Result:
    """How a case's process ended."""
    argv: list
    rc: int
    stdout: str
    stderr: str
    timed_out: bool

    @property
    def outcome(self):
        """The harness's report (a dict: ``error`` is None or the exception's
        class name, with ``mro`` and ``message``), or None without one."""
        for line in reversed(self.stdout.splitlines()):
            if line.startswith(_MARK):
                return json.loads(line[len(_MARK):])
        return None

    def describe(self):
        how = "timed out" if self.timed_out else (
            f"killed by {signal.Signals(-self.rc).name}" if self.rc < 0 else f"exit status {self.rc}")
        return f"{how}\n--- stdout\n{self.stdout[-3000:]}\n--- stderr\n{self.stderr[-3000:]}"


def run_command(argv, input=None, timeout=60, env=None, cwd=None):
    """Runs ``argv`` (``input``: text for its stdin) in a fresh process;
    returns a Result, with ``timed_out`` set (and the process killed) when it
    runs past ``timeout`` seconds."""
    try:
        p = subprocess.run(argv, input=input, capture_output=True, text=True, errors="replace",
                           timeout=timeout, env=env, cwd=cwd)
        return Result(list(argv), p.returncode, p.stdout, p.stderr, False)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        return Result(list(argv), -signal.SIGKILL, out, err, True)


def case_env(tmp, interpret=False, extra=None):
    """The environment of a case: the in-tree package first, no inherited
    TRITIUM_* knobs, its own directories under ``tmp`` (a cache,
    ``HOSTILE_TMP``), the interpreter on or off."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TRITIUM_", "TRITON_"))}
    env["PYTHONPATH"] = os.pathsep.join([PYTHON_DIR] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env["TRITIUM_CACHE_DIR"] = os.path.join(tmp, "cache")
    env["HOSTILE_TMP"] = tmp
    if interpret:
        env["TRITIUM_INTERPRET"] = "1"
    env.update(extra or {})
    return env


def run_snippet(code, timeout=60, interpret=False, env=None):
    """Runs Python ``code`` under the harness in a fresh interpreter; see
    the module docstring. ``env`` adds variables to ``case_env``'s."""
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        return run_command([sys.executable, "-c", _HARNESS], input=code, timeout=timeout,
                           env=case_env(tmp, interpret=interpret, extra=env))


def _outcome(result):
    assert not result.timed_out and result.rc == 0, f"the case did not end cleanly: {result.describe()}"
    out = result.outcome
    assert out is not None, f"the case ended without a report: {result.describe()}"
    return out


def expect_ok(result):
    """The case ran to its end without an exception; returns its stdout."""
    out = _outcome(result)
    assert out["error"] is None, f"unexpected {out['error']}: {out['message']}\n{result.describe()}"
    return result.stdout


def expect_error(result, kind, match):
    """The case raised ``kind`` (a class name it is or derives from, or a
    tuple of them) with a message matching the regex ``match``, and the
    message is not one of an internal failure."""
    out = _outcome(result)
    kinds = (kind,) if isinstance(kind, str) else tuple(kind)
    assert out["error"] is not None, f"no error raised (expected {kinds}): {result.describe()}"
    assert any(k in out["mro"] for k in kinds), \
        f"raised {out['error']} ({out['message']!r}), expected {kinds}\n{result.describe()}"
    if out["error"] in INTERNAL and out["error"] not in kinds:
        raise AssertionError(f"an internal error escaped: {out['error']}: {out['message']}")
    assert "incompatible function arguments" not in out["message"], out["message"]
    assert re.search(match, out["message"]), f"message {out['message']!r} does not match {match!r}"
    return out


def expect_exit(result, rc, match=None):
    """A program (run_command) ended by itself, neither killed by a signal
    nor timed out, with exit status ``rc`` and, if given, stderr matching
    the regex ``match``; returns its stderr."""
    assert not result.timed_out and result.rc >= 0, f"{result.argv[0]} did not end cleanly: {result.describe()}"
    assert result.rc == rc, f"exit status {result.rc}, expected {rc}: {result.describe()}"
    if match is not None:
        assert re.search(match, result.stderr), f"stderr does not match {match!r}: {result.describe()}"
    return result.stderr
