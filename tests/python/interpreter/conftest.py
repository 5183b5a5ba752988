"""Interpreter tests: kernels run with numpy on the host (no GPU needed).

The tutorial kernels of tests/python/kernels are importable here; the
``interpret`` fixture turns TRITIUM_INTERPRET on for a test (read at every
launch, so the tutorial kernels, decorated without it, are interpreted).
``-m "not perf"`` skips the timing test on very slow machines.
"""

import os
import sys

import pytest

import tritium._C

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, "..", "kernels"))
sys.path.insert(0, os.path.join(_HERE, "..", "frontend"))

collect_ignore_glob = [] if hasattr(tritium._C, "frontend") else ["*.py"]


def pytest_configure(config):
    config.addinivalue_line("markers", "perf: a timing test (skip on very slow machines with -m 'not perf')")


@pytest.fixture
def interpret(monkeypatch):
    monkeypatch.setenv("TRITIUM_INTERPRET", "1")
    yield
