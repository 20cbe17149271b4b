#!/usr/bin/env python3
"""Read throughput of 1, 2 and 3 active replicas serving one data set (issue 23 item 3, "read scale-out").

One emulator holds FILES objects of SIZE_MIB each (written with the SDK). For each replica count N, N `ossgw serve`
processes in active mode share one Valkey store (their inode tables and invalidations) and export the bucket; READERS
`nfs-cat` processes (libnfs, NFSv3) run at once, reader i on replica i mod N, each reading every object once in its own
rotated order, so each replica reads the data set from OSS cold and then serves its other readers from what it holds.

Reports per N and pass: aggregate MB/s (bytes the readers received over the wall time of the slowest), the gateways'
CPU seconds per GiB served (utime + stime from /proc over the pass, summed over the replicas), the emulator's CPU per
GiB it sent (the ceiling shares the machine), GetObject bytes from OSS per byte served, and the load average. Each N
runs two passes on the same fresh replicas: "cold" (each replica's JIT warm-up and first reads in it) and "warm" (the
same reads again; OSS is read again, as read-ahead keeps no whole file). On one machine the replicas share its cores
with the emulator and the readers, so the MB/s shows what a replica costs, not what N machines give; CPU per GiB is
the figure that carries over.

Each run starts with the ceiling on the same machine, emulator and data: READERS readers with no gateway, reader i
fetching every object once in the same rotated order with curl (C, GetObject over loopback HTTP, V1-signed, the body
to /dev/null, its size from curl's `size_download`): the most this machine's emulator serves to that many readers, and
what a native client spends per GiB (its CPU from wait4).

  /work/venv/bin/python src/test/bench/cluster-read-scale.py [FILES=8] [SIZE_MIB=32] [READERS=6] [RUNS=2]
  APP_ROOT=/path/to/another/tree (its ./ossgw, not rebuilt: OSSGW_NO_BUILD=1) measures another build
"""
import email.utils
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
APP = Path(os.environ.get("APP_ROOT", REPO))  # the tree whose ./ossgw runs
if APP != REPO:
    os.environ["OSSGW_NO_BUILD"] = "1"  # measure that tree's build as it is
sys.path.insert(0, str(Path(__file__).resolve().parent))
import oss2  # noqa: E402
from benchlib import cpu_seconds, free_port, v1_authorization, start_cluster_backends, stop_popens, wait_serving  # noqa: E402

ARGS = [int(a) for a in sys.argv[1:]]
FILES, SIZE_MIB, READERS, RUNS = (ARGS + [8, 32, 6, 2][len(ARGS):])[:4]
AK, SK, BUCKET = "benchak", "benchsk-secret", "bench"
VALKEY = shutil.which("valkey-server") or shutil.which("redis-server")


def wait_ready(port, proc, what, limit=300):
    """Waits until the gateway's /q/health/ready answers 200 (benchlib.wait_serving)."""
    wait_serving(proc, what, lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/q/health/ready",
                                                            timeout=5).status == 200,
                 limit, f"{what} was not ready within {limit} s", step=0.3)


def counters(endpoint):
    return json.loads(urllib.request.urlopen(f"{endpoint}/-/counters", timeout=30).read())


def serve(work, n, i, store_url, endpoint):
    nfs_port, http_port = free_port(), free_port()
    cfg = work / f"serve-{n}-{i}.properties"
    cfg.write_text("\n".join([
        f"ossgw.oss.endpoint={endpoint}", f"ossgw.oss.passwd-file={work / 'passwd'}", f"ossgw.exports.x.bucket={BUCKET}", "ossgw.exports.x.squash=none",
        "ossgw.nfs.bind=127.0.0.1", f"ossgw.nfs.port={nfs_port}", f"ossgw.cluster.store={store_url}",
        "ossgw.cluster.mode=active", f"ossgw.cluster.name=scale{n}", f"ossgw.cluster.node-id=r{i}"]) + "\n")
    env = dict(os.environ, QUARKUS_HTTP_PORT=str(http_port), QUARKUS_HTTP_HOST="127.0.0.1",
               OSSGW_STATE_DIR=str(work / f"state-{n}-{i}"))
    p = subprocess.Popen([str(APP / "ossgw"), "serve", "--config", str(cfg)], env=env, stdin=subprocess.DEVNULL,
                         stdout=open(work / f"serve-{n}-{i}.log", "wb"), stderr=subprocess.STDOUT)
    return p, nfs_port, http_port


def rotated(r):
    """Reader r's order of the objects: every one once, starting at r (so readers start on different objects)."""
    return [(r + k) % FILES for k in range(FILES)]


def ceiling(endpoint, emu_pid):
    """READERS curl readers straight from the emulator (no gateway), reader r reading `rotated(r)`: MB/s, curl's CPU
    per GiB (wait4 of each reader's shell: its curls included) and the emulator's CPU per GiB sent."""
    cpu0, load0 = cpu_seconds(emu_pid), os.getloadavg()[0]
    t0 = time.monotonic()
    readers = []
    for r in range(READERS):
        cmds = []
        for j in rotated(r):
            date = email.utils.formatdate(usegmt=True)
            auth = v1_authorization(AK, SK, "GET", f"/{BUCKET}/f-{j}", date, "")
            cmds.append(f"curl -sS -f -o /dev/null -w '%{{size_download}}\\n' -H 'Date: {date}' "
                        f"-H 'Authorization: {auth}' '{endpoint}/{BUCKET}/f-{j}'")
        readers.append(subprocess.Popen(["bash", "-e", "-c", "; ".join(cmds)], stdout=subprocess.PIPE,
                                        text=True, stdin=subprocess.DEVNULL))
    got, tool_cpu = 0, 0.0
    for rp in readers:
        out = rp.stdout.read()
        _, status, ru = os.wait4(rp.pid, 0)
        rp.returncode = os.waitstatus_to_exitcode(status)
        sizes = [int(x) for x in out.split()]
        if rp.returncode != 0 or len(sizes) != FILES or any(s != SIZE_MIB << 20 for s in sizes):
            raise SystemExit(f"a curl reader failed: rc {rp.returncode}, sizes {sizes}")
        got += sum(sizes)
        tool_cpu += ru.ru_utime + ru.ru_stime
    wall = time.monotonic() - t0
    gib = got / (1 << 30)
    return dict(mb_s=got / wall / 1e6, wall=wall, tool_cpu_gib=tool_cpu / gib,
                emu_cpu_gib=(cpu_seconds(emu_pid) - cpu0) / gib, load=max(load0, os.getloadavg()[0]))


def one_pass(replicas, n, endpoint, emu_pid):
    """READERS nfs-cat readers at once, reader r on replica r mod n reading `rotated(r)`; the figures of the pass."""
    urllib.request.urlopen(urllib.request.Request(f"{endpoint}/-/counters/reset", data=b""), timeout=30)
    cpu0 = [cpu_seconds(p.pid) for p, _, _ in replicas]
    emu0, load0 = cpu_seconds(emu_pid), os.getloadavg()[0]
    t0 = time.monotonic()
    readers = []
    for r in range(READERS):
        _, port, _ = replicas[r % n]
        urls = " ".join(f"'nfs://127.0.0.1/{BUCKET}/f-{j}?version=3&nfsport={port}&mountport={port}'"
                        for j in rotated(r))
        script = f"for u in {urls}; do nfs-cat \"$u\" | wc -c; done"
        readers.append(subprocess.Popen(["bash", "-c", script], stdout=subprocess.PIPE, text=True,
                                        stdin=subprocess.DEVNULL))
    got = 0
    for rp in readers:
        out, _ = rp.communicate(timeout=3600)
        sizes = [int(x) for x in out.split()]
        if rp.returncode != 0 or len(sizes) != FILES or any(s != SIZE_MIB << 20 for s in sizes):
            raise SystemExit(f"a reader failed: rc {rp.returncode}, sizes {sizes}")
        got += sum(sizes)
    wall = time.monotonic() - t0
    gw_cpu = sum(cpu_seconds(p.pid) - c for (p, _, _), c in zip(replicas, cpu0))
    emu_cpu = cpu_seconds(emu_pid) - emu0
    from_oss = counters(endpoint).get("BytesSent", 0)
    gib = got / (1 << 30)
    return dict(n=n, mb_s=got / wall / 1e6, wall=wall, gw_cpu_gib=gw_cpu / gib, emu_cpu_gib=emu_cpu / gib,
                oss_per_byte=from_oss / got, load=max(load0, os.getloadavg()[0]))


def one_run(work, n, store_url, endpoint, emu_pid):
    """n fresh replicas; two passes of the readers: the first cold (each replica's JIT warm-up and first reads of the
    data set are in it), the second warm (the same reads again: read-ahead holds no whole file, so OSS is read again,
    but the code is compiled)."""
    replicas = [serve(work, n, i, store_url, endpoint) for i in range(n)]
    try:
        for p, _, http_port in replicas:
            wait_ready(http_port, p, "ossgw serve")
        return [one_pass(replicas, n, endpoint, emu_pid) for _ in range(2)]
    finally:
        for p, _, _ in replicas:
            p.terminate()
        for p, _, _ in replicas:
            try:
                p.wait(60)
            except subprocess.TimeoutExpired:
                p.kill()


def main():
    if shutil.which("nfs-cat") is None or VALKEY is None:
        raise SystemExit("needs nfs-cat (libnfs-utils) and valkey-server (or redis-server)")
    work = Path(tempfile.mkdtemp(prefix="ossgw-read-scale-"))
    procs = []
    try:
        (work / "passwd").write_text(f"{BUCKET}:{AK}:{SK}\n")
        (work / "passwd").chmod(0o600)
        emu, endpoint, store, store_url = start_cluster_backends(APP / "ossgw", work, BUCKET, AK, SK)
        procs += [emu, store]
        b = oss2.Bucket(oss2.Auth(AK, SK), endpoint, BUCKET)
        block = os.urandom(1 << 20)
        for j in range(FILES):
            b.put_object(f"f-{j}", block * SIZE_MIB)
        print(f"{FILES} objects x {SIZE_MIB} MiB, {READERS} nfs-cat readers, {RUNS} runs; {os.cpu_count()} CPUs",
              flush=True)
        for r in range(RUNS):
            c = ceiling(endpoint, emu.pid)
            print(f"run {r} ceiling (curl, no gateway): {c['mb_s']:6.1f} MB/s ({c['wall']:.1f} s), curl "
                  f"{c['tool_cpu_gib']:.2f} CPU-s/GiB, emulator {c['emu_cpu_gib']:.2f} CPU-s/GiB, "
                  f"load {c['load']:.1f}", flush=True)
            for n in (1, 2, 3):
                for label, x in zip(("cold", "warm"), one_run(work, n, store_url, endpoint, emu.pid)):
                    print(f"run {r} replicas {n} {label}: {x['mb_s']:6.1f} MB/s ({x['wall']:.1f} s), gateways "
                          f"{x['gw_cpu_gib']:.2f} CPU-s/GiB, emulator {x['emu_cpu_gib']:.2f} CPU-s/GiB, "
                          f"from OSS {x['oss_per_byte']:.2f} B/B served, load {x['load']:.1f}", flush=True)
    finally:
        stop_popens(procs)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
