"""Fixtures of the reliability suite: faults, kill -9, RPC fuzz and floods, hostile names, load with an RSS check.

The suite drives the BUILT launcher `./ossgw` like the e2e tests do and reuses their fixtures (emulator, mounts,
new_bucket, workdir, ossgw_built, the session clean-up), loaded from src/test/e2e/conftest.py so both suites share one
definition. Each scenario has a short form (the default, what .ci/run runs) and a long form, selected with
OSSGW_RELIABILITY=long (see docs/reliability.md); `scale(short, long)` picks the size of a scenario.
"""
import os
import sys
from pathlib import Path

import pytest

_E2E = Path(__file__).resolve().parents[1] / "e2e"
sys.path.insert(0, str(_E2E))  # e2e_support, importable by the tests of this suite
from e2e_fixtures import export_e2e_fixtures  # noqa: E402

export_e2e_fixtures(globals(), "ossgw_e2e_fixtures")

LONG = os.environ.get("OSSGW_RELIABILITY", "short") == "long"


def scale(short, long):
    """The size of a scenario: `short` in CI, `long` with OSSGW_RELIABILITY=long."""
    return long if LONG else short


@pytest.fixture(scope="session")
def reliability_mode():
    return "long" if LONG else "short"
