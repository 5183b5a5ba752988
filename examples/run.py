"""Runs every example through the Python API.

Until the backends exist, running an example means: parse it, verify it, run
the "verify" pipeline, print it and check that the printed form parses back
to the same text. Usage: PYTHONPATH=python python3 examples/run.py [FILE...]
"""

import glob
import os
import sys

import tritium


def run(path):
    with open(path) as f:
        text = f.read()
    module = tritium.parse_module(text, name=path)
    module.verify()
    module.run_passes("verify", verify_each=True)
    printed = str(module)
    if str(tritium.parse_module(printed, name=path + " (printed)")) != printed:
        raise SystemExit(f"{path}: printing and parsing again changed the module")
    print(f"== {path}: parsed, verified, round trip ok")
    print(printed, end="")


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    paths = argv[1:] or sorted(glob.glob(os.path.join(here, "*.tir")))
    print(f"tritium {tritium.__version__}; passes: "
          + ", ".join(name for name, _ in tritium.list_passes()))
    try:
        for path in paths:
            run(os.path.relpath(path))
    except tritium.CompilationError as e:
        print(e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
