#!/usr/bin/env python3
"""Per-operation cost of the cluster store's inode table (issue 23 item 1): NFSv3 LOOKUP of a new name and of a known
name, READDIRPLUS of a directory of N files (its first listing and the same again) and GETATTR by each handle that
listing gave (named handles, which the table never recorded), against one `ossgw serve`
with its tables in a Valkey store (ossgw.cluster.store, active mode) and against the same gateway without a store (the
state directory's H2 tables), over the raw NFSv3 client, one call at a time.

Reports per LOOKUP, per listed entry and per GETATTR: store requests (from ossgw_cluster_store_requests_seconds_count, and by
script: inode_allocate, inode_known, inode_resolve...), their mean time (from _sum, in the gateway), and the client's
mean latency with and without the store; the gateway's CPU seconds per 1,000 LOOKUPs (entries) from /proc/PID/stat;
the load average beside every figure.

  /work/venv/bin/python src/test/bench/cluster-store-ops.py [N=2000] [RUNS=3]
  APP_ROOT=/path/to/another/tree (its ./ossgw, not rebuilt: OSSGW_NO_BUILD=1) measures another build
"""
import os
import re
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
APP = Path(os.environ.get("APP_ROOT", REPO))  # the tree whose ./ossgw runs
if APP != REPO:
    os.environ["OSSGW_NO_BUILD"] = "1"  # measure that tree's build as it is
sys.path.insert(0, str(REPO / "src/test/e2e"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import onc_rpc  # noqa: E402
from benchlib import start_cluster_backends, stop_popens, wait_port  # noqa: E402
import oss2  # noqa: E402

N = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
AK, SK, BUCKET = "benchak", "benchsk-secret", "bench"
VALKEY = shutil.which("valkey-server") or shutil.which("redis-server")
TICK = os.sysconf("SC_CLK_TCK")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / TICK


def metrics(http_port):
    """(requests, seconds, {op: requests}) of the inode scripts so far."""
    import urllib.request
    body = urllib.request.urlopen(f"http://127.0.0.1:{http_port}/q/metrics", timeout=30).read().decode()
    count = sum_ = 0.0
    by_op = {}
    for m in re.finditer(r'ossgw_cluster_store_requests_seconds_(count|sum)\{([^}]*)\} (\S+)', body):
        op = re.search(r'op="(inode_[^"]*)"', m.group(2))
        if op:
            if m.group(1) == "count":
                count += float(m.group(3))
                by_op[op.group(1)] = by_op.get(op.group(1), 0) + float(m.group(3))
            else:
                sum_ += float(m.group(3))
    return count, sum_, by_op


def readdirplus(port, dir_name, handles=None):
    """Every page of READDIRPLUS (maxcount 32 KiB) of `dir_name` under the export's root: (entries, mean seconds per
    entry), "." and ".." not counted; each entry's handle appended to `handles` if given."""
    s = onc_rpc.connect(port)
    try:
        ok, stat, root = onc_rpc.mnt(s, f"/{BUCKET}")
        assert ok and stat == 0
        d = onc_rpc.lookup(s, root, dir_name)
        cookie, verf, entries, xid = 0, b"\0" * 8, 0, 100
        t0 = time.perf_counter()
        while True:
            xid += 1
            _x, ok, stat, rest = onc_rpc.rpc(s, xid, onc_rpc.NFS_PROGRAM, 3, 17,
                                             onc_rpc.fh3(d) + struct.pack(">Q", cookie) + verf
                                             + struct.pack(">II", 8192, 32768))
            assert ok and stat == 0, ("READDIRPLUS not accepted", ok, stat)
            assert struct.unpack(">I", rest[:4])[0] == 0, f"READDIRPLUS: nfsstat3 {struct.unpack('>I', rest[:4])[0]}"
            at = 4
            at += 4 + (84 if struct.unpack(">I", rest[at:at + 4])[0] else 0)
            verf = rest[at:at + 8]
            at += 8
            while struct.unpack(">I", rest[at:at + 4])[0]:
                at += 4 + 8
                n = struct.unpack(">I", rest[at:at + 4])[0]
                name = rest[at + 4:at + 4 + n]
                at += 4 + n + (-n % 4)
                cookie = struct.unpack(">Q", rest[at:at + 8])[0]
                at += 8
                at += 4 + (84 if struct.unpack(">I", rest[at:at + 4])[0] else 0)
                fh = None
                if struct.unpack(">I", rest[at:at + 4])[0]:
                    n = struct.unpack(">I", rest[at + 4:at + 8])[0]
                    fh = rest[at + 8:at + 8 + n]
                    at += 4 + n + (-n % 4)
                at += 4
                if name not in (b".", b".."):
                    entries += 1
                    if handles is not None and fh:
                        handles.append(fh)
            if struct.unpack(">I", rest[at + 4:at + 8])[0]:
                return entries, (time.perf_counter() - t0) / max(entries, 1)
    finally:
        s.close()


def lookups(port, names):
    """LOOKUPs of `names` under the export's root, one at a time on one connection: mean seconds per call."""
    s = onc_rpc.connect(port)
    try:
        ok, stat, root = onc_rpc.mnt(s, f"/{BUCKET}")
        assert ok and stat == 0
        t0 = time.perf_counter()
        for n in names:
            onc_rpc.lookup(s, root, n)
        return (time.perf_counter() - t0) / len(names)
    finally:
        s.close()


def getattrs(port, handles):
    """GETATTR of every handle, one at a time on one connection: mean seconds per call."""
    s = onc_rpc.connect(port)
    try:
        t0 = time.perf_counter()
        for i, fh in enumerate(handles):
            _x, ok, stat, rest = onc_rpc.rpc(s, 1000 + i, onc_rpc.NFS_PROGRAM, 3, 1, onc_rpc.fh3(fh))
            assert ok and stat == 0 and struct.unpack(">I", rest[:4])[0] == 0, "GETATTR failed"
        return (time.perf_counter() - t0) / len(handles)
    finally:
        s.close()


def run(work, store_url, emulator_endpoint, run_no):
    state = work / f"state-{run_no}-{'store' if store_url else 'h2'}"
    nfs_port, http_port = free_port(), free_port()
    passwd = work / "passwd"
    lines = [f"ossgw.oss.endpoint={emulator_endpoint}", f"ossgw.oss.passwd-file={passwd}",
             f"ossgw.exports.x.bucket={BUCKET}", "ossgw.nfs.bind=127.0.0.1", f"ossgw.nfs.port={nfs_port}"]
    if store_url:
        lines += [f"ossgw.cluster.store={store_url}", "ossgw.cluster.mode=active", f"ossgw.cluster.name=bench{run_no}"]
    cfg = work / f"serve-{run_no}.properties"
    cfg.write_text("\n".join(lines) + "\n")
    env = dict(os.environ, QUARKUS_HTTP_PORT=str(http_port), QUARKUS_HTTP_HOST="127.0.0.1", OSSGW_STATE_DIR=str(state))
    log = open(work / f"serve-{run_no}.log", "wb")
    p = subprocess.Popen([str(APP / "ossgw"), "serve", "--config", str(cfg)], stdout=log, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, env=env)
    try:
        wait_port(nfs_port, p, "ossgw serve")
        wait_port(http_port, p, "ossgw serve http")
        lookups(nfs_port, [f"warm-{i}" for i in range(200)])  # JIT and connections: names seen before the phases
        names = [f"f-{i}" for i in range(N)]
        out = {}
        handles = []
        for phase in ("new", "known", "list", "list again", "getattr"):
            c0, s0, o0 = metrics(http_port) if store_url else (0, 0, {})
            cpu0, load = cpu_seconds(p.pid), os.getloadavg()[0]
            if phase.startswith("list"):
                handles.clear()
                count, mean = readdirplus(nfs_port, "d", handles)
                assert count == N, f"READDIRPLUS listed {count} of {N}"
            elif phase == "getattr":  # by the handles the listing gave (named ones: never recorded)
                mean = getattrs(nfs_port, handles)
            else:
                mean = lookups(nfs_port, names)
            cpu = cpu_seconds(p.pid) - cpu0
            c1, s1, o1 = metrics(http_port) if store_url else (0, 0, {})
            reqs = (c1 - c0) / N
            ops = {k: (v - o0.get(k, 0)) / N for k, v in o1.items() if v > o0.get(k, 0)}
            out[phase] = dict(lookup_us=mean * 1e6, store_reqs=reqs, ops=ops,
                              store_us=(s1 - s0) / (c1 - c0) * 1e6 if c1 > c0 else 0,
                              cpu_per_1000=cpu / N * 1000, load=load)
        return out
    finally:
        p.terminate()
        try:
            p.wait(60)
        except subprocess.TimeoutExpired:
            p.kill()
        log.close()


def main():
    work = Path(tempfile.mkdtemp(prefix="ossgw-cluster-bench-"))
    procs = []
    try:
        (work / "passwd").write_text(f"{BUCKET}:{AK}:{SK}\n")
        (work / "passwd").chmod(0o600)
        emu, endpoint, store, valkey_url = start_cluster_backends(APP / "ossgw", work, BUCKET, AK, SK)
        procs += [emu, store]
        b = oss2.Bucket(oss2.Auth(AK, SK), endpoint, BUCKET)
        b.put_object("d/", b"", headers={"x-oss-meta-mode": str(0o40755)})  # readable by the client's uid 1000
        for i in range(N):
            b.put_object(f"f-{i}", b"x")
            b.put_object(f"d/f-{i}", b"x")
        for i in range(200):
            b.put_object(f"warm-{i}", b"x")
        print(f"N={N} LOOKUPs per phase, {RUNS} runs; {os.cpu_count()} CPUs")
        for r in range(RUNS):
            for store_url in (valkey_url, None):
                res = run(work, store_url, endpoint, r)
                for phase, x in res.items():
                    unit = "entry" if phase.startswith("list") else "GETATTR" if phase == "getattr" else "LOOKUP"
                    ops = ", ".join(f"{k} {v:.2f}" for k, v in sorted(x["ops"].items()))
                    print(f"run {r} {'store' if store_url else 'h2   '} {phase:10}: {x['lookup_us']:7.0f} us/{unit}, "
                          f"store requests/{unit} {x['store_reqs']:.2f} ({ops}) at {x['store_us']:5.0f} us each, "
                          f"gateway CPU {x['cpu_per_1000']:.2f} s/1000, load {x['load']:.1f}", flush=True)
    finally:
        stop_popens(procs)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
