"""Deadlines that scale with how busy the machine is (issue 21 item 5): the one place every test wait gets its limit.

A test waits for a condition (a mount appears, a process exits, a port answers), never for a fixed time, and gives up
only after `base` seconds of a quiet machine: `scaled(base)` = base x `slowdown()`. On a machine that other work keeps
busy, each runnable thread gets about cores / load of a core, so

    slowdown() = OSSGW_TEST_SLOWDOWN                              when set (a number >= 1: forces the factor)
               = clamp(max(loadavg 1 min, loadavg 5 min) / cores, 1, MAX_SLOWDOWN)   otherwise

The factor is read when a wait starts and again while it runs (`wait_until`, `Deadline`), so a wait that began on a
quiet machine gets longer when the load rises; it never gets shorter than its base. MAX_SLOWDOWN (5: load 10 on 2
cores) keeps a hung test's worst case inside CI's 90 minutes. The same factor scales pytest-timeout's per-test limits
(`scale_test_timeouts`, hooked in by each suite's conftest) and is passed to the VM guest's jobs as
OSSGW_TEST_SLOWDOWN (src/test/vm/jobs/lib.sh: `t N`). The JUnit tests (io.ossgw.emulator.testing.Slowdown) and the
packaging scripts (src/test/packaging/slowdown.sh) compute the same factor the same way.

No imports beyond the standard library: src/test/python's conftest uses it too.
"""
import os
import subprocess
import time

ENV = "OSSGW_TEST_SLOWDOWN"
MAX_SLOWDOWN = 5.0
_REREAD_S = 1.0  # how often a running wait looks at the load again


def cores():
    """CPUs this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def slowdown():
    """How many times slower than a quiet machine this one is now (>= 1; see the module docstring)."""
    forced = os.environ.get(ENV, "").strip()
    if forced:
        try:
            return max(1.0, float(forced))
        except ValueError:
            raise ValueError(f"{ENV} must be a number >= 1, not {forced!r}") from None
    try:
        load1, load5, _ = os.getloadavg()
    except OSError:
        return 1.0
    return min(MAX_SLOWDOWN, max(1.0, max(load1, load5) / cores()))


def scaled(base):
    """`base` seconds (what a quiet machine needs, with margin) scaled by `slowdown()`; for a subprocess timeout."""
    return base * slowdown()


class Deadline:
    """A deadline of `base` quiet-machine seconds that stretches while the machine is busy: `remaining()` uses the
    largest factor seen since it started, re-read at most once a second."""

    def __init__(self, base):
        self.base = base
        self.start = time.monotonic()
        self.factor = slowdown()
        self._read = self.start

    def limit(self):
        """Seconds allowed in all, now."""
        now = time.monotonic()
        if now - self._read >= _REREAD_S:
            self.factor = max(self.factor, slowdown())
            self._read = now
        return self.base * self.factor

    def elapsed(self):
        return time.monotonic() - self.start

    def remaining(self):
        return self.limit() - self.elapsed()

    def expired(self):
        return self.remaining() <= 0


def wait_until(cond, timeout, step=0.05):
    """Polls `cond` until it is true (returns True) or `timeout` quiet-machine seconds, scaled, have passed (returns
    the last answer of `cond`)."""
    d = Deadline(timeout)
    while not d.expired():
        if cond():
            return True
        time.sleep(step)
    return cond()


def wait_exit(p, timeout):
    """Waits for a started process to end within `timeout` quiet-machine seconds, scaled; returns its exit status or
    raises subprocess.TimeoutExpired (the process is left running: the caller kills it)."""
    d = Deadline(timeout)
    while True:
        try:
            return p.wait(timeout=max(0.05, min(_REREAD_S, d.remaining())))
        except subprocess.TimeoutExpired:
            if d.expired():
                raise subprocess.TimeoutExpired(p.args, d.elapsed()) from None


def scale_test_timeouts(item):
    """Puts a scaled copy of the test's pytest-timeout limit (its @pytest.mark.timeout, else the ini's `timeout`) in
    front of its markers. Called by each suite's pytest_runtest_protocol hook, before pytest-timeout reads it."""
    mark = item.get_closest_marker("timeout")
    base = None
    if mark is not None:
        base = mark.args[0] if mark.args else mark.kwargs.get("timeout")
    if base is None:
        try:
            base = item.config.getini("timeout")
        except ValueError:
            return
    try:
        base = float(base)
    except (TypeError, ValueError):
        return
    if base > 0 and not getattr(item, "_ossgw_timeout_scaled", False):
        import pytest
        item.add_marker(pytest.mark.timeout(base * slowdown()), append=False)
        item._ossgw_timeout_scaled = True  # once, whatever runs the hook again (reruns, two suites in one session)
