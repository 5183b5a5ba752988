"""One semantics (issue 12): the frontend's diagnostics are written once, in
frontend/*.cpp. This test collects the message text of every string literal
there and looks for it in the Python package; the interpreter runs every
operation through the C++ Semantic instead of restating its checks.

Copies that remain are counted per file in REMAINING, and the count may only
go down: a new copy fails the test, and so does a file with fewer copies
than recorded (lower the number, so that it cannot come back)."""

import os
import re

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")

# file (relative to python/tritium) -> copies of frontend messages it still has
REMAINING = {
    "language/core.py": 5,
    "compiler/compiler.py": 1,
    "compiler/errors.py": 1,
    "language/_types.py": 1,
    "language/extra/cuda.py": 1,
    "runtime/jit.py": 1,
    "tools/__init__.py": 1,
    "tools/tensor_descriptor.py": 1,
}


def cpp_string_literals(text):
    """The string literals of C++ source, comments and char literals skipped."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            i = text.index("*/", i) + 2
        elif text[i] in "'\"":
            quote, j = text[i], i + 1
            while text[j] != quote:
                j += 2 if text[j] == "\\" else 1
            if quote == '"':
                out.append(text[i + 1:j])
            i = j + 1
        else:
            i += 1
    return out


def frontend_messages():
    """Pieces of diagnostic text: literals of 16 characters or more with a
    space and a word in them."""
    pieces = set()
    folder = os.path.join(ROOT, "frontend")
    for name in sorted(os.listdir(folder)):
        if name.endswith(".cpp"):
            with open(os.path.join(folder, name)) as f:
                for s in cpp_string_literals(f.read()):
                    s = s.strip()
                    if len(s) >= 16 and " " in s and re.search(r"[a-z]{3}", s):
                        pieces.add(s)
    return pieces


def copies_per_file():
    pieces = frontend_messages()
    package = os.path.join(ROOT, "python", "tritium")
    found = {}
    for dirpath, _, files in os.walk(package):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(dirpath, name)
                with open(path) as f:
                    src = f.read()
                hits = sorted(p for p in pieces if p in src)
                if hits:
                    found[os.path.relpath(path, package).replace(os.sep, "/")] = hits
    return found


def test_the_scanner_reads_cpp_literals():
    src = 'error("cannot cast " + S + " to void"); // "a comment"\nchar c = \'"\'; s = "x\\"y";'
    assert cpp_string_literals(src) == ["cannot cast ", " to void", 'x\\"y']


def test_frontend_diagnostics_are_not_restated_in_python():
    found = copies_per_file()
    grown = {f: hits for f, hits in found.items() if len(hits) > REMAINING.get(f, 0)}
    assert not grown, "frontend messages restated in Python (ask the C++ check instead): " + repr(grown)
    shrunk = {f: (len(found.get(f, [])), n) for f, n in REMAINING.items() if len(found.get(f, [])) < n}
    assert not shrunk, f"fewer copies than REMAINING records (lower it): {shrunk}"
