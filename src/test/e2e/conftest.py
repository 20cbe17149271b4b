"""Fixtures of the black-box end-to-end tests: the BUILT launcher `./ossgw` against the project's OSS emulator.

The emulator fixture is the one of src/test/python/conftest.py (directory store, auth on), loaded from there so the
two suites share one definition. Every mount made through `mounts` is unmounted at the end of its test (or module),
and its detached `ossgw mount` process is waited for; anything still left is cleared at the end of the session.
"""
import hashlib
import importlib.util
import subprocess
import uuid

import pytest

from deadlines import scale_test_timeouts
from e2e_support import (BASE, REPO, Mounts, daemon_pids, force_unmount, log, mounted_paths, oss_bucket,
                         run_ossgw)

_spec = importlib.util.spec_from_file_location("ossgw_emulator_fixtures", REPO / "src/test/python/conftest.py")
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)
emulator = _shared.emulator  # re-exported fixture: one emulator for the session


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    """Each test's pytest-timeout limit scaled with the machine's load (deadlines.py), before pytest-timeout reads
    it."""
    scale_test_timeouts(item)
    yield


@pytest.fixture(scope="session", autouse=True)
def _session_cleanup():
    yield
    for mp in mounted_paths():
        if mp.startswith(str(BASE)):
            log(f"session clean-up: {mp} was still mounted")
            force_unmount(mp)
    for mp in {str(p) for p in BASE.rglob("mnt*")}:
        if daemon_pids(mp):
            force_unmount(mp)
    subprocess.run(["rm", "-rf", str(BASE)], capture_output=True)


@pytest.fixture(scope="session")
def ossgw_built():
    """Makes sure the launcher works (it builds the app first if sources are newer than the jar)."""
    r = run_ossgw("--version", timeout=1200)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.fixture
def workdir(request):
    d = BASE / f"{request.node.name[:60]}-{uuid.uuid4().hex[:6]}"
    d.mkdir(parents=True)
    return d


@pytest.fixture
def mounts(emulator, ossgw_built, workdir):
    m = Mounts(emulator, workdir)
    try:
        yield m
    finally:
        m.cleanup()


@pytest.fixture
def new_bucket(emulator, request):
    """A fresh, empty bucket for one test; returns (name, oss2.Bucket)."""
    name = "e2e-" + hashlib.sha1(request.node.nodeid.encode()).hexdigest()[:10] + "-" + uuid.uuid4().hex[:6]
    b = oss_bucket(emulator, name)
    b.create_bucket()
    return name, b
