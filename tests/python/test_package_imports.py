"""One semantics (issue 12): the packages of python/tritium import one another
without cycles (tools -> runtime -> compiler -> language -> _C; backends ->
compiler). This test reads every import, function-local ones included,
builds the graph between the top-level packages and modules of tritium, and
fails on any import that closes a cycle. Where a lower layer needs something
of a higher one it is handed it (the runtime sets the compiler's
``active_driver``)."""

import ast
import os
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "python", "tritium")

def package_imports():
    """importer package -> {imported package: [file:line, ...]}."""
    edges = defaultdict(lambda: defaultdict(list))
    for dirpath, _, files in os.walk(ROOT):
        for name in files:
            if not name.endswith(".py"):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, ROOT)
            parts = rel[:-3].split(os.sep)
            src = parts[0]
            with open(path) as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                targets = []
                if isinstance(node, ast.ImportFrom) and node.level:
                    base = parts[:len(parts) - node.level]
                    target = base + (node.module.split(".") if node.module else [])
                    targets = [target[0]] if target else [a.name.split(".")[0] for a in node.names]
                elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("tritium."):
                    targets = [node.module.split(".")[1]]
                elif isinstance(node, ast.Import):
                    targets = [a.name.split(".")[1] for a in node.names if a.name.startswith("tritium.")]
                for t in targets:
                    if t != src and t != "__init__":
                        edges[src][t].append(f"{rel}:{node.lineno}")
    return edges


def cycle_edges(edges):
    """The edges that lie on a cycle (their ends reach each other)."""
    def reach(a):
        seen, todo = set(), [a]
        while todo:
            for b in edges.get(todo.pop(), {}):
                if b not in seen:
                    seen.add(b)
                    todo.append(b)
        return seen
    reachable = {a: reach(a) for a in list(edges)}
    return {(a, b) for a in edges for b in edges[a] if a in reachable.get(b, ())}


def test_the_scanner_sees_function_local_imports():
    edges = package_imports()
    assert "compiler" in edges["runtime"]  # runtime/jit.py imports compiler inside a method


def test_no_import_cycles():
    edges = package_imports()
    cycles = {(a, b): edges[a][b][:3] for a, b in cycle_edges(edges)}
    assert not cycles, f"imports that close a cycle between packages: {cycles}"


def test_the_check_sees_a_cycle():
    edges = {"runtime": {"compiler": ["runtime/jit.py:1"]}, "compiler": {"runtime": ["compiler/compiler.py:2"]},
             "language": {"_C": ["language/_types.py:3"]}}
    assert cycle_edges(edges) == {("runtime", "compiler"), ("compiler", "runtime")}


def test_import_leaves_numpy_out():
    """`import tritium` and a compile need no numpy (60-80 ms of a cold
    start, issue 17): tritium.testing and the interpreter load it when
    touched."""
    import subprocess
    import sys
    code = ("import sys, tritium; assert 'numpy' not in sys.modules, 'numpy at import'; "
            "tritium.testing.do_bench; assert 'numpy' in sys.modules")
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, ".."))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
