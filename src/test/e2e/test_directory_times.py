"""End-to-end: a directory's st_mtime/st_ctime move when its entries change (issue 12 item 3), through `./ossgw mount`
under both FUSE bindings with real syscalls and the default attr_timeout (the kernel drops the parent's cached
attributes after create/mkdir/unlink/rmdir/symlink/mknod/rename, so the next stat asks the gateway). The gateway's
clock is the wall clock of this host: each change shows a time not before the moment the syscall started, and later
than the directory's time before it. An explicit utimensat of the directory wins until the next change; after a
restart the directory shows its marker's stored time again (SEMANTICS.md "Directory times")."""
import os
import time

import pytest

BINDINGS = ["jnr", "jfuse"]
# Java's clock may carry only microseconds: a change is never more than this before the time.time_ns() taken first
SLACK_NS = 1_000


@pytest.fixture(params=BINDINGS)
def binding(request, monkeypatch):
    monkeypatch.setenv("OSSGW_JAVA_OPTS", f"-Dio.ossgw.fuse.binding={request.param}")
    return request.param


def advances(directory, change):
    """Runs change() and asserts it moved directory's mtime and ctime forward to at least the time it started."""
    before = os.stat(directory)
    started = time.time_ns()
    change()
    after = os.stat(directory)
    assert after.st_mtime_ns > before.st_mtime_ns, (change, before.st_mtime_ns, after.st_mtime_ns)
    assert after.st_ctime_ns > before.st_ctime_ns, (change, before.st_ctime_ns, after.st_ctime_ns)
    assert after.st_mtime_ns >= started - SLACK_NS
    assert after.st_ctime_ns >= started - SLACK_NS
    return after


def create(path):
    os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))


def test_changes_of_entries_advance_the_directory_times(mounts, new_bucket, binding):
    name, _ = new_bucket
    mp = mounts.mount(name)
    d, e = mp / "d", mp / "e"
    advances(mp, lambda: os.mkdir(d))
    os.mkdir(e)
    advances(d, lambda: create(d / "f"))
    advances(d, lambda: os.mkdir(d / "sub"))
    advances(d, lambda: os.symlink("f", d / "link"))
    advances(d, lambda: os.mkfifo(d / "fifo"))
    advances(d, lambda: os.unlink(d / "link"))
    advances(d, lambda: os.rmdir(d / "sub"))
    # rename between two directories: both change, to the same time
    before_e = os.stat(e)
    after_d = advances(d, lambda: os.rename(d / "f", e / "f"))
    after_e = os.stat(e)
    assert after_e.st_mtime_ns > before_e.st_mtime_ns
    assert after_e.st_mtime_ns == after_d.st_mtime_ns
    # a listing (readdir-plus attributes, then stat from the kernel's cache) shows the same times
    assert {p.name: p.stat().st_mtime_ns for p in os.scandir(mp)}["d"] == os.stat(d).st_mtime_ns


def test_explicit_mtime_is_kept_until_the_next_change_and_restart_shows_the_stored_time(mounts, new_bucket, binding):
    name, _ = new_bucket
    mp = mounts.mount(name)
    d = mp / "d"
    os.mkdir(d)
    stored = os.stat(d).st_mtime_ns
    create(d / "f")
    assert os.stat(d).st_mtime_ns > stored
    old = 981_173_106_123_456_789  # 2001-02-03T04:05:06.123456789Z
    os.utime(d, ns=(old, old))
    assert os.stat(d).st_mtime_ns == old
    advances(d, lambda: os.unlink(d / "f"))
    # the recorded change times live in this process only: after a restart the marker's stored mtime (the utime's)
    mp = mounts.remount(mp, name)
    assert os.stat(mp / "d").st_mtime_ns == old
