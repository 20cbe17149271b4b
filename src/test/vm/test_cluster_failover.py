"""Failover under the Linux kernel's NFSv4.1 client (issue 23 acceptance, "Failover in the VM lane"): three
`./ossgw serve` in standby mode on one Valkey, HAProxy in front health-checking /q/health/ready (standing in for a
Kubernetes Service), and the guest mounting HAProxy's address with NFSv4.1. The guest job is test_nfs4_restart's:
a long `dd conv=fsync` with its checksum, then a held fcntl lock and a file open for writing. Where that test restarts
its one gateway, this one SIGKILLs the lease holder and a standby takes over: the workload must finish with exit
status 0, every checksum right, the lock still held by its owner (reclaimed from the new holder in its grace period),
no error in the guest's kernel log. The time from the kill to the guest's next successful operation is logged.
"""
import hashlib
import json
import os
import threading
import time

import pytest

from conftest import scale
from e2e_support import log, scaled, wait_until
from test_cluster import HAPROXY, TIMINGS_LOG, TTL, VALKEY, Haproxy, Replica, Store
from test_locks import LOCKS_PL
from test_nfs4_restart import JOB, WRITER_PY

pytestmark = [
    pytest.mark.skipif(VALKEY is None, reason="valkey-server (or redis-server) is not installed (.ci/run installs it)"),
    pytest.mark.skipif(HAPROXY is None, reason="haproxy is not installed (.ci/run installs it)"),
]

PROPS = ("ossgw.exports.x.squash=none", "ossgw.nfs.v4.grace-time=30s", "ossgw.nfs.v4.lease-time=30s")


def test_failover_by_kill_9_during_a_long_write_and_a_held_lock(emulator, ossgw_built, new_bucket, guest, workdir):
    name, bucket = new_bucket
    store = Store(workdir)
    replicas = []
    lb = None
    try:
        for n in ("a", "b", "c"):
            r = Replica(n, workdir, name, emulator, store.url, options=("stat_cache_expire=1",), props=PROPS)
            replicas.append(r)
            r.wait_answering(ready=(n == "a"))  # the first one up takes the lease
        lb = Haproxy(workdir, replicas)
        pl, wr = workdir / "locks.pl", workdir / "writer.py"
        pl.write_text(LOCKS_PL)
        wr.write_text(WRITER_PY)
        dd_mb = scale(160, 1024)
        result = {}
        t = threading.Thread(target=lambda: result.update(r=guest(
            JOB, env={"NFS_PORT": lb.port, "BUCKET": name, "DD_MB": dd_mb}, files=(pl, wr), timeout=900)),
            daemon=True)
        t.start()
        failovers = []
        for n in (1, 2):
            if not wait_until(lambda: not t.is_alive() or bucket.object_exists(f"restart-{n}"), 900, step=0.2):
                break
            if not t.is_alive():
                break
            holder = next(r for r in replicas if r.proc.poll() is None and r.ready())
            holder.proc.kill()  # SIGKILL: no release; the lease expires after its TTL
            t0 = time.monotonic()
            live = [r for r in replicas if r.proc.poll() is None]
            assert wait_until(lambda: any(r.ready() for r in live), 120), [r.log()[-2000:] for r in live]
            failovers.append({"killed": holder.name, "to_ready_s": round(time.monotonic() - t0, 1)})
            bucket.put_object(f"restarted-{n}", b"")
        t.join(scaled(1000))
        rc, out = result["r"]
        assert rc == 0 and "RESTART OK" in out, out + "\n".join(r.log()[-3000:] for r in replicas)
        marks = {p[0]: int(p[1]) for p in (ln.split() for ln in out.splitlines())
                 if len(p) == 2 and p[0].endswith("_MS")}
        log(f"failovers (kill -9 to a ready standby): {failovers}; guest: {marks}")
        with open(TIMINGS_LOG, "a") as f:  # beside test_cluster.py's figures, for docs/deploy.md
            f.write(json.dumps({"name": "vm_v41_failover", "failovers": failovers, "guest_ms": marks,
                                "load": round(os.getloadavg()[0], 1)}) + "\n")
        assert len(failovers) == 2
        assert all(f["to_ready_s"] > TTL * 0.5 for f in failovers), failovers
        want = next(line.split()[1] for line in out.splitlines() if line.startswith("SUM "))
        assert hashlib.sha256(bucket.get_object("long").read()).hexdigest() == want
        assert bucket.get_object("open-across").read() == b"before\nafter\n"
    finally:
        if lb is not None:
            lb.stop()
        for r in replicas:
            r.stop()
        store.stop()
