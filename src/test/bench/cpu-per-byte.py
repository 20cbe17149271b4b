#!/usr/bin/env python3
"""Gateway CPU seconds per GiB for a sequential write and a cold sequential read through a FUSE mount (issue 14).

usage: cpu-per-byte.py APP_DIR LABEL [SIZE_MIB [JVM_OPTION ...]]
  APP_DIR  a built gateway-app/target/quarkus-app (copy it elsewhere first if you rebuild meanwhile)
  env GW_OPTIONS=k=v,...  mount options; PERF=1 also records `perf record -g` of the gateway for the second write/read

One emulator (`ossgw emulator`, its own process: its CPU is not counted). Gateway A (`ossgw serve`, default options)
gets `dd if=/dev/zero bs=1M count=SIZE conv=fsync` twice (f1: a just-started JVM, f2: warmer); it is stopped, its
state dir wiped, and a fresh gateway B reads f1 and f2 with `dd bs=1M` (cold: a new process has no page cache or
read-ahead of them, so nothing needs dropping). Each row: utime+stime of the gateway process from /proc over the
command, MiB/s, and the 1-minute load average when it started. Work dir: /tmp/ossgw-cpu-LABEL.
"""
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as b  # noqa: E402

app, label = sys.argv[1], sys.argv[2]
mib = int(sys.argv[3]) if len(sys.argv) > 3 else 1024
jopts = sys.argv[4:]
java = os.path.join(os.environ.get("JAVA_HOME", "/usr/lib/jvm/temurin-25-jdk-amd64"), "bin", "java")
work = f"/tmp/ossgw-cpu-{label}"
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
passwd = os.path.join(work, "passwd")
with open(passwd, "w") as f:
    f.write("bench:AK:SK\n")
os.chmod(passwd, 0o600)
jar = os.path.join(app, "quarkus-run.jar")
opts = dict(x.split("=", 1) for x in os.environ.get("GW_OPTIONS", "").split(",") if x)


def run(gw, argv, what):
    perf = None
    if os.environ.get("PERF") and what.endswith("2"):
        perf = subprocess.Popen(["perf", "record", "-q", "-F", "499", "-g", "-p", str(gw.pid), "-o",
                                 os.path.join(work, f"perf-{what}.data")],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
    load = os.getloadavg()[0]
    c0, t0 = b.cpu_seconds(gw.pid), time.monotonic()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    dt, c = time.monotonic() - t0, b.cpu_seconds(gw.pid) - c0
    if perf:
        perf.send_signal(2)
        perf.wait()
    print(f"{label} {what}: {c:.2f} CPU-s for {mib} MiB = {c * 1024 / mib:.2f} CPU-s/GiB, {mib / dt:.0f} MiB/s, "
          f"load {load:.1f}", flush=True)


emu = b.Emulator(java, jar, work, "bench", "AK", "SK")
try:
    gw = b.Gateway(java, jar, work, emu, "bench", passwd, opts, jopts)
    try:
        for i in (1, 2):
            run(gw, ["dd", "if=/dev/zero", f"of={gw.mnt}/f{i}", "bs=1M", f"count={mib}", "conv=fsync"], f"write{i}")
    finally:
        gw.stop()
    shutil.rmtree(os.path.join(work, "state"), ignore_errors=True)
    gw = b.Gateway(java, jar, work, emu, "bench", passwd, opts, jopts)
    try:
        for i in (1, 2):
            run(gw, ["dd", f"if={gw.mnt}/f{i}", "of=/dev/null", "bs=1M"], f"read{i}")
    finally:
        gw.stop()
finally:
    emu.stop()
    b.close_all()
