"""One semantics (issue 12): the packages of python/tritium should import one
another without cycles (runtime -> compiler -> language -> _C). This test
reads every import, function-local ones included, builds the graph between
the top-level packages and modules of tritium, and compares its cycles with
KNOWN_BACK_EDGES: an import that closes a new cycle fails, and so does a
listed edge that no longer exists (remove it from the list)."""

import ast
import os
from collections import defaultdict

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "python", "tritium")

# The imports against the intended direction that remain (each closes a
# cycle), to be removed one by one: importer -> imported.
KNOWN_BACK_EDGES = {
    ("compiler", "runtime"),   # the disk cache, the active driver, descriptor expansion
    ("compiler", "backends"),  # the backends' stages (backends import compiler)
}


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


def test_no_new_import_cycles():
    edges = package_imports()
    on_cycles = cycle_edges(edges)
    # Every cycle must pass through a known back edge.
    pruned = {a: {b: w for b, w in bs.items() if (a, b) not in KNOWN_BACK_EDGES} for a, bs in edges.items()}
    new = {(a, b): pruned[a][b][:3] for a, b in cycle_edges(pruned)}
    assert not new, f"imports that close a new cycle between packages: {new}"
    stale = {e for e in KNOWN_BACK_EDGES if e not in on_cycles}
    assert not stale, f"KNOWN_BACK_EDGES lists edges that close no cycle any more (remove them): {stale}"
