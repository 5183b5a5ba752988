"""Fixtures of the runtime tests: a private cache per test, a frontend that
counts its compiles, and a fake GPU driver that records launches."""

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from runtime_helpers import CountingFrontend, FakeDriver, real_frontend  # noqa: E402


@pytest.fixture(autouse=True)
def private_dirs(tmp_path, monkeypatch):
    """Every test gets its own cache, dump and override directories and no
    inherited TRITIUM_* knobs."""
    for name in list(os.environ):
        if name.startswith(("TRITIUM_", "TRITON_")) and name not in ("TRITIUM_HOME", "TRITON_HOME"):
            monkeypatch.delenv(name)
    dirs = {k: tmp_path / k for k in ("cache", "dump", "override")}
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(dirs["cache"]))
    monkeypatch.setenv("TRITIUM_DUMP_DIR", str(dirs["dump"]))
    monkeypatch.setenv("TRITIUM_OVERRIDE_DIR", str(dirs["override"]))
    yield dirs
    from tritium.runtime import driver
    driver.set_active(None)


@pytest.fixture(autouse=True)
def frontend(monkeypatch):
    """Counts (and records) every call of the code generator."""
    from tritium.compiler import compiler
    counting = CountingFrontend(real_frontend())
    monkeypatch.setattr(compiler, "ast_to_ir", counting)
    return counting


@pytest.fixture
def fake_driver():
    """A GPU driver that records launches instead of running them."""
    from tritium.runtime import driver
    drv = FakeDriver()
    driver.set_active(drv)
    yield drv
    driver.set_active(None)
