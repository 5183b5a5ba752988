"""The C++ libraries depend on one another one way (README: python -> runtime
-> codegen -> analysis -> ir, frontend -> ir), and nothing includes in a
circle (issue 40). Read from the #include lines:

* no header includes itself through others;
* a folder includes only folders below it (or itself), and the generic parts
  of codegen/ include no target's folder;
* in analysis/ and codegen/, no module (a .h with its .cpp) reaches itself
  through the modules it includes. ir/ is one module in this sense: its
  values, instructions, blocks and functions know one another, as LLVM's do;
  frontend's type rules share the Semantic's operation enums.

The Python packages' imports are test_package_imports.py's."""

import os
import re

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
FOLDERS = ["ir", "frontend", "analysis", "codegen", "runtime", "python/src", "tools"]
# What each folder may include besides itself (the README's direction).
RANK = {"ir": 0, "frontend": 1, "analysis": 1, "codegen": 2, "runtime": 3,
        "python/src": 4, "tools": 4}
TARGET_FOLDERS = ("codegen/nvptx", "codegen/amdgpu")
MODULE_CHECKED = ("analysis/", "codegen/")


def includes():
    """file (relative to ROOT) -> [included project files]."""
    graph = {}
    for folder in FOLDERS:
        for dirpath, _, files in os.walk(os.path.join(ROOT, folder)):
            for name in files:
                if not name.endswith((".h", ".cpp")):
                    continue
                path = os.path.relpath(os.path.join(dirpath, name), ROOT)
                with open(os.path.join(ROOT, path)) as f:
                    names = re.findall(r'^#include "([^"]+)"', f.read(), re.M)
                found = []
                for inc in names:
                    for cand in (inc, os.path.join(os.path.dirname(path), inc)):
                        if os.path.exists(os.path.join(ROOT, cand)):
                            found.append(os.path.normpath(cand))
                            break
                graph[path] = found
    return graph


def folder_of(path):
    for folder in sorted(RANK, key=len, reverse=True):
        if path.startswith(folder + "/"):
            return folder
    raise AssertionError(path)


def cycles(graph):
    """The strongly connected components of more than one node."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in list(graph):
        if v not in index:
            visit(v)
    return out


def test_headers_include_no_circle():
    graph = {f: [i for i in incs if i.endswith(".h")]
             for f, incs in includes().items() if f.endswith(".h")}
    assert cycles(graph) == []


def test_folders_include_only_what_is_below_them():
    wrong = []
    for f, incs in includes().items():
        for inc in incs:
            a, b = folder_of(f), folder_of(inc)
            if a != b and RANK[b] >= RANK[a]:
                wrong.append(f"{f} -> {inc}")
            generic = a == "codegen" and not f.startswith(TARGET_FOLDERS)
            if generic and inc.startswith(TARGET_FOLDERS):
                wrong.append(f"{f} -> {inc}")
    assert wrong == []


def test_analysis_and_codegen_modules_include_no_circle():
    graph = {}
    for f, incs in includes().items():
        if f.startswith(MODULE_CHECKED):
            module = os.path.splitext(f)[0]
            graph.setdefault(module, set()).update(
                os.path.splitext(i)[0] for i in incs
                if i.startswith(MODULE_CHECKED) and os.path.splitext(i)[0] != module)
    assert cycles(graph) == []


def test_the_checks_see_a_circle():
    assert cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert cycles({"a": ["b"], "b": []}) == []
