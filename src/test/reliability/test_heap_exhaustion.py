"""An exhausted Java heap ends the process, visibly (issue 21 item 4 and D2; SEMANTICS.md "Memory").

Each process kind is driven to heap exhaustion with a heap too small for its work:
- `ossgw mount -f` with OSSGW_JAVA_OPTS=-Xmx40m (and memory_limit=128), and `ossgw serve --nfs` alike, while a client
  lists a directory of 25,000 objects with 250-byte names through them (`ls -l`; libnfs's nfs-ls over NFSv3). Listings
  are bounded now (issue 21 item 1: that listing alone fits in -Xmx40m), so what fills the heap is the fault injector
  `-Dio.ossgw.fault.heap_ballast=TRIGGER` (1 MiB retained every 100 ms once TRIGGER exists), standing in for whatever a
  bug would still let grow while the process serves;
- `ossgw emulator` with OSSGW_JAVA_OPTS="-Xmx40m -XX:MaxDirectMemorySize=256m" and the D2 workload (PUTs of 100-byte
  objects with 1 KB keys and seven 1,000-byte x-oss-meta-* headers), its 503 SlowDown switched off.
Each must exit with status 4 within a deadline, after a FATAL line naming the heap (-Xmx) and memory_limit, instead of
collecting garbage for an hour deaf to SIGTERM; the mount must not be left behind dead. With its default SlowDown the
emulator under D2 must answer 503 SlowDown, keep /-/health and reads answering, and stop on SIGTERM.
"""
import contextlib
import http.client
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import pytest

from e2e_support import (OSSGW, REPO, force_unmount, free_port, http_get, is_mounted, kill_if_running, log,
                         wait_until)

BUCKET = "heap-exhaustion"
ENTRIES = 25_000
NAME_BYTES = 250
SMALL_HEAP = "-Xmx40m"
EXIT_HEAP_EXHAUSTED = 4
DEADLINE = 300  # s from the start of the workload to the process's exit: ~10 s of detection on a busy machine
CLASSES = REPO / "oss-emulator" / "target" / "classes"
JAVA = Path(os.environ.get("JAVA_HOME") or "/usr/lib/jvm/temurin-25-jdk-amd64") / "bin" / "java"


def _ballast(workdir):
    """(the JVM options that arm the heap ballast, its trigger file): the heap fills once the trigger exists."""
    trigger = workdir / "fill-the-heap"
    return f"{SMALL_HEAP} -Dio.ossgw.fault.heap_ballast={trigger}", trigger


def _env(**extra):
    e = {k: v for k, v in os.environ.items() if not k.startswith(("OSSGW_", "OSS_", "QUARKUS_"))}
    e.update(OSSGW_AOT="0", **extra)
    return e


class Emulator:
    """A memory-backed emulator without authentication, holding the big directory (filled over raw HTTP)."""

    def __init__(self, workdir):
        port_file = workdir / "port"
        self.proc = subprocess.Popen([str(JAVA), "-cp", str(CLASSES), "io.ossgw.emulator.EmulatorMain", "--port", "0",
                                      "--port-file", str(port_file), "--bucket", BUCKET],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert wait_until(port_file.exists, 60), "the emulator did not start"
        self.port = int(port_file.read_text())
        self.endpoint = f"http://127.0.0.1:{self.port}"

    def fill(self, prefix, count):
        errors = []

        def worker(k):
            c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            for i in range(k, count, 4):
                c.request("PUT", f"/{BUCKET}/{prefix}/{i:07d}" + "n" * (NAME_BYTES - 7), body=b"x")
                r = c.getresponse()
                r.read()
                if r.status != 200:
                    errors.append(r.status)
                    return

        threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors


@pytest.fixture(scope="module")
def big(ossgw_built):
    work = Path(tempfile.mkdtemp(prefix="ossgw-heap-"))
    emu = Emulator(work)
    try:
        t0 = time.time()
        emu.fill("big", ENTRIES)
        log(f"{ENTRIES} objects with {NAME_BYTES}-byte names in {time.time() - t0:.0f} s")
        passwd = work / "passwd"
        passwd.write_text("any:any\n")
        passwd.chmod(0o600)
        yield emu, passwd
    finally:
        emu.proc.kill()
        emu.proc.wait()
        shutil.rmtree(work, ignore_errors=True)


@contextlib.contextmanager
def _client(cmd):
    """Runs the workload's client in the background while the body waits for the server; ends it afterwards."""
    c = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    try:
        yield c
    finally:
        kill_if_running(c)
        log(f"{cmd[0]} ended with {c.returncode}: {c.stderr.read()[-200:]!r}")
        c.stderr.close()


def _fatal_line(text):
    return next((line for line in text.splitlines() if line.startswith("FATAL: ")), None)


def _assert_exhausted(p, logfile, t0, what):
    try:
        rc = p.wait(timeout=max(1, DEADLINE - (time.time() - t0)))
    except subprocess.TimeoutExpired:
        pytest.fail(f"{what} did not end within {DEADLINE} s of the workload's start: either the heap never filled "
                    f"or the process spins; log:\n"
                    + logfile.read_text()[-3000:])
    text = logfile.read_text()
    log(f"{what} exited with {rc} {time.time() - t0:.0f} s after the workload started")
    assert rc == EXIT_HEAP_EXHAUSTED, (rc, text[-3000:])
    fatal = _fatal_line(text)
    assert fatal is not None, text[-3000:]
    assert "Java heap is exhausted" in fatal and SMALL_HEAP in fatal and "memory_limit" in fatal, fatal
    return text


def test_a_mount_whose_heap_is_exhausted_exits_with_a_fatal_line_and_leaves_no_dead_mount(big, workdir):
    emu, passwd = big
    mp = workdir / "mnt"
    mp.mkdir()
    logfile = workdir / "mount.log"
    opts = f"url={emu.endpoint},passwd_file={passwd},state_dir={workdir / 'state'},memory_limit=128"
    java_opts, trigger = _ballast(workdir)
    with open(logfile, "wb") as out:
        p = subprocess.Popen([str(OSSGW), "mount", BUCKET, str(mp), "-f", "-o", opts], stdout=out,
                             stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=_env(OSSGW_JAVA_OPTS=java_opts))
    try:
        assert wait_until(lambda: is_mounted(mp) or p.poll() is not None, 180), logfile.read_text()
        assert is_mounted(mp), logfile.read_text()
        t0 = time.time()
        trigger.touch()
        with _client(["ls", "-l", str(mp / "big")]):
            text = _assert_exhausted(p, logfile, t0, "ossgw mount")
        assert "memory_limit=128 MB" in _fatal_line(text)
        # the process detached its mount before it went: nothing dead is left, and the mount point takes a new mount
        assert wait_until(lambda: not is_mounted(mp), 30), f"{mp} left mounted:\n{text[-2000:]}"
        assert f"detached {mp}" in text, text[-2000:]
        os.listdir(mp)
        r = subprocess.run([str(OSSGW), "mount", BUCKET, str(mp), "-o",
                            f"url={emu.endpoint},passwd_file={passwd},state_dir={workdir / 'state'}"],
                           capture_output=True, text=True, timeout=300, env=_env(), stdin=subprocess.DEVNULL)
        assert r.returncode == 0, r.stderr
        assert len(os.listdir(mp)) == 1
        r = subprocess.run([str(OSSGW), "umount", str(mp)], capture_output=True, text=True, timeout=120, env=_env())
        assert r.returncode == 0, r.stderr
    finally:
        kill_if_running(p)
        force_unmount(mp)


@pytest.mark.skipif(shutil.which("nfs-ls") is None, reason="libnfs-utils is not installed (.ci/run installs it)")
def test_serve_whose_heap_is_exhausted_exits_with_a_fatal_line(big, workdir):
    emu, passwd = big
    port, http_port = free_port(), free_port()
    logfile = workdir / "serve.log"
    java_opts, trigger = _ballast(workdir)
    with open(logfile, "wb") as out:
        # the export's root is the big directory: a root-squashed client may list an export root, not a 0750
        # directory below it owned by the gateway's user (SEMANTICS.md, NFS)
        p = subprocess.Popen([str(OSSGW), "serve", f"{BUCKET}:/big", "--nfs", "--nfs-port", str(port), "--nfs-bind",
                              "127.0.0.1",
                              "-o", f"url={emu.endpoint},passwd_file={passwd},memory_limit=128"],
                             stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             env=_env(OSSGW_JAVA_OPTS=java_opts, QUARKUS_HTTP_PORT=str(http_port),
                                      QUARKUS_HTTP_HOST="127.0.0.1", OSSGW_STATE_DIR=str(workdir / "state")))
    try:
        assert wait_until(lambda: http_get(f"http://127.0.0.1:{http_port}/q/health/ready")[0] == 200
                          or p.poll() is not None, 180), logfile.read_text()
        assert p.poll() is None, logfile.read_text()
        t0 = time.time()
        trigger.touch()
        url = f"nfs://127.0.0.1/{BUCKET}/big?nfsport={port}&mountport={port}&version=3"
        with _client(["nfs-ls", url]):  # libnfs waits on for the reply of a server that died: ended below
            _assert_exhausted(p, logfile, t0, "ossgw serve")
    finally:
        kill_if_running(p)


def _start_emulator(workdir, *args):
    port_file = workdir / "emu.port"
    logfile = workdir / "emulator.log"
    with open(logfile, "wb") as out:
        p = subprocess.Popen([str(OSSGW), "emulator", "--port", "0", "--port-file", str(port_file), "--bucket", BUCKET,
                              *args], stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                             env=_env(OSSGW_JAVA_OPTS=f"{SMALL_HEAP} -XX:MaxDirectMemorySize=256m"))
    assert wait_until(lambda: port_file.exists() or p.poll() is not None, 180), logfile.read_text()
    assert p.poll() is None, logfile.read_text()
    return p, int(port_file.read_text()), logfile


def _d2(port, limit, until):
    """PUTs of 100-byte objects with 1 KB keys and seven 1,000-byte x-oss-meta-* headers, on one keep-alive connection,
    until `until(status, body)` says stop or `limit` PUTs; returns {status or 'dropped': count}."""
    headers = {f"x-oss-meta-m{i}": "v" * 1000 for i in range(7)}
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    seen = {}
    for i in range(limit):
        try:
            c.request("PUT", f"/{BUCKET}/k{i:08d}" + "a" * 1000, body=b"x" * 100, headers=headers)
            r = c.getresponse()
            status, body = r.status, r.read()
        except OSError:
            status, body = "dropped", b""
        seen[status] = seen.get(status, 0) + 1
        if until(status, body):
            break
    return seen


def test_the_emulator_answers_slowdown_while_its_heap_is_nearly_full_and_stays_responsive(ossgw_built, workdir):
    p, port, logfile = _start_emulator(workdir)
    try:
        seen = _d2(port, 40_000, lambda status, body: status != 200)
        log(f"emulator D2: {seen}")
        assert seen.get(200, 0) > 1000 and seen.get(503) == 1, (seen, logfile.read_text()[-2000:])
        # a writer that goes on: the refusals settle (the live data only grows while PUTs are taken, and once over the
        # line the emulator refuses until it is well below it), never a dropped connection; a first SlowDown may come
        # from a reading taken before a collection, so a few more PUTs may still be taken after it
        run = {"consecutive": 0}

        def settled(status, body):
            run["consecutive"] = run["consecutive"] + 1 if status == 503 else 0
            return run["consecutive"] >= 50

        again = _d2(port, 5_000, settled)
        log(f"emulator D2, writing on: {again}")
        assert set(again) <= {200, 503} and run["consecutive"] >= 50, again  # refused, never dropped
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        c.request("PUT", f"/{BUCKET}/one-more", body=b"x")
        r = c.getresponse()
        assert r.status == 503 and b"<Code>SlowDown</Code>" in r.read()
        assert http_get(f"http://127.0.0.1:{port}/-/health")[0] == 200
        c.request("GET", f"/{BUCKET}/k00000000" + "a" * 1000)
        r = c.getresponse()
        assert r.status == 200 and r.read() == b"x" * 100
        assert p.poll() is None
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=60)  # SIGTERM works: the heap never filled up
    finally:
        kill_if_running(p)


def test_an_emulator_whose_heap_is_exhausted_anyway_exits_with_a_fatal_line(ossgw_built, workdir):
    p, port, logfile = _start_emulator(workdir, "--heap-slowdown", "100")
    try:
        t0 = time.time()
        seen = _d2(port, 40_000, lambda status, body: status != 200)
        log(f"emulator D2 without SlowDown: {seen}")
        try:
            rc = p.wait(timeout=max(1, DEADLINE - (time.time() - t0)))
        except subprocess.TimeoutExpired:
            pytest.fail(f"the emulator did not end within {DEADLINE} s:\n" + logfile.read_text()[-3000:])
        text = logfile.read_text()
        assert rc == EXIT_HEAP_EXHAUSTED, (rc, text[-3000:])
        fatal = _fatal_line(text)
        assert fatal is not None and fatal.startswith("FATAL: ossgw emulator: the Java heap is exhausted (-Xmx40m"), \
            text[-3000:]
    finally:
        kill_if_running(p)
