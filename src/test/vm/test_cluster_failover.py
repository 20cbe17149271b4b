"""Failover under the Linux kernel's NFSv4.1 client (issue 23 acceptance, "Failover in the VM lane"): three
`./ossgw serve` in standby mode on one Valkey, HAProxy in front health-checking /q/health/ready (standing in for a
Kubernetes Service), and the guest mounting HAProxy's address with NFSv4.1. The guest job is test_nfs4_restart's:
a long `dd conv=fsync` with its checksum, then a held fcntl lock and a file open for writing. Where that test restarts
its one gateway, this one SIGKILLs the lease holder and a standby takes over: the workload must finish with exit
status 0, every checksum right, the lock still held by its owner (reclaimed from the new holder in its grace period),
no error in the guest's kernel log. The time from the kill to the guest's next successful operation is logged.

The same with NFSv3 (`nolock`: the guest's lockd cannot be reached behind QEMU's user-mode NAT, so NLM's part is
held by the JUnit tests): a long `dd conv=fsync` and a loop of small files, each across a SIGKILL of the holder.
And with SMB (the kernel's CIFS client) through the balancer: what a mount keeps across a failover, and what not.
"""
import hashlib
import json
import os
import threading
import time

import pytest

from conftest import scale
from e2e_support import free_port, log, scaled, wait_until
from test_cluster import HAPROXY, TIMINGS_LOG, TTL, VALKEY, Haproxy, Replica, Store
from test_locks import LOCKS_PL
from test_nfs4_restart import JOB, WRITER_PY

pytestmark = [
    pytest.mark.skipif(VALKEY is None, reason="valkey-server (or redis-server) is not installed (.ci/run installs it)"),
    pytest.mark.skipif(HAPROXY is None, reason="haproxy is not installed (.ci/run installs it)"),
]

PROPS = ("ossgw.exports.x.squash=none", "ossgw.nfs.v4.grace-time=30s", "ossgw.nfs.v4.lease-time=30s")



def failovers(guest, workdir, emulator, name, bucket, job, env, files=(), props_of=lambda n: PROPS,
              port_of=lambda r: r.nfs_port, count=2):
    """Three standby replicas (`props_of(node name)`: more lines of each one's config) and HAProxy in front of their
    `port_of` ports; runs `job` in the guest (NFS_PORT = HAProxy's port) and SIGKILLs the lease holder each time the
    guest creates restart-N (N = 1 .. count), answering restarted-N once a standby is Ready.
    Returns (guest output, [{killed, to_ready_s}]); asserts the job passed."""
    store = Store(workdir)
    replicas = []
    lb = None
    try:
        for n in ("a", "b", "c"):
            r = Replica(n, workdir, name, emulator, store.url, options=("stat_cache_expire=1",), props=props_of(n))
            replicas.append(r)
            r.wait_answering(ready=(n == "a"))  # the first one up takes the lease
        lb = Haproxy(workdir, replicas, port_of=port_of)
        result = {}
        t = threading.Thread(target=lambda: result.update(r=guest(
            job, env=dict(env, NFS_PORT=lb.port, BUCKET=name), files=files, timeout=900)), daemon=True)
        t.start()
        done = []
        for n in range(1, count + 1):
            if not wait_until(lambda: not t.is_alive() or bucket.object_exists(f"restart-{n}"), 900, step=0.2):
                break
            if not t.is_alive():
                break
            holder = next(r for r in replicas if r.proc.poll() is None and r.ready())
            holder.proc.kill()  # SIGKILL: no release; the lease expires after its TTL
            t0 = time.monotonic()
            live = [r for r in replicas if r.proc.poll() is None]
            assert wait_until(lambda: any(r.ready() for r in live), 120), [r.log()[-2000:] for r in live]
            done.append({"killed": holder.name, "to_ready_s": round(time.monotonic() - t0, 1)})
            bucket.put_object(f"restarted-{n}", b"")
        t.join(scaled(1000))
        rc, out = result["r"]
        assert rc == 0 and "RESTART OK" in out, out + "\n".join(r.log()[-3000:] for r in replicas)
        assert len(done) == count
        assert all(f["to_ready_s"] > TTL * 0.5 for f in done), done
        return out, done
    finally:
        if lb is not None:
            lb.stop()
        for r in replicas:
            r.stop()
        store.stop()


def report(label, out, done):
    marks = {p[0]: int(p[1]) for p in (ln.split() for ln in out.splitlines()) if len(p) == 2 and p[0].endswith("_MS")}
    log(f"{label} failovers (kill -9 to a ready standby): {done}; guest: {marks}")
    with open(TIMINGS_LOG, "a") as f:  # beside test_cluster.py's figures, for docs/deploy.md
        f.write(json.dumps({"name": label, "failovers": done, "guest_ms": marks,
                            "load": round(os.getloadavg()[0], 1)}) + "\n")


def test_failover_by_kill_9_during_a_long_write_and_a_held_lock(emulator, ossgw_built, new_bucket, guest, workdir):
    name, bucket = new_bucket
    pl, wr = workdir / "locks.pl", workdir / "writer.py"
    pl.write_text(LOCKS_PL)
    wr.write_text(WRITER_PY)
    out, done = failovers(guest, workdir, emulator, name, bucket, JOB, {"DD_MB": scale(160, 1024)}, files=(pl, wr))
    report("vm_v41_failover", out, done)
    want = next(line.split()[1] for line in out.splitlines() if line.startswith("SUM "))
    assert hashlib.sha256(bucket.get_object("long").read()).hexdigest() == want
    assert bucket.get_object("open-across").read() == b"before\nafter\n"


# NFSv3: the restart-N protocol of test_nfs4_restart's job, over a mount_v3 (nolock) of HAProxy's port
JOB_V3 = r"""
. /job/lib.sh
mount_v3 /mnt/a "actimeo=1,lookupcache=positive"
dmesg_before=$(dmesg_errors | wc -l)
restart() { ask_restart $1 /mnt/a /mnt/a; }

note "a failover during a long write ($DD_MB MB, dd conv=fsync)"
dd_across_restart /mnt/a

note "a failover while small files are written (each created, written and closed)"
mkdir /mnt/a/small
t0=$(now_ms)
( i=1; while [ $i -le $SMALL ]; do echo "small file $i" > /mnt/a/small/f$i || exit 1; i=$((i + 1)); done ) \
  > /tmp/small.out 2>&1 &
S=$!
wait_until $(t 120) '[ -e /mnt/a/small/f$((SMALL / 4)) ]' || fail "a quarter of the small files within 120 s"
restart 2
wait $S || fail "the small files across the failover: $(cat /tmp/small.out)"
echo "SMALL_MS $(( $(now_ms) - t0 ))"
echo 3 > /proc/sys/vm/drop_caches
i=1; while [ $i -le $SMALL ]; do
  expect_eq "small file $i" "small file $i" "$(cat /mnt/a/small/f$i)"; i=$((i + 1)); done

timeout $(t 60) umount /mnt/a || fail "umount /mnt/a"
dmesg | tail -20
if dmesg | grep -iE "stale|not responding.*timed out|server .* not responding, timed out"; then
  fail "the kernel logged the above"; fi
[ "$(dmesg_errors | wc -l)" -eq "$dmesg_before" ] || { dmesg_errors; fail "the kernel logged errors"; }
echo RESTART OK
"""


def test_nfs3_failover_by_kill_9_during_a_long_write_and_small_files(emulator, ossgw_built, new_bucket, guest,
                                                                     workdir):
    name, bucket = new_bucket
    small = scale(200, 1000)
    out, done = failovers(guest, workdir, emulator, name, bucket, JOB_V3, {"DD_MB": scale(160, 1024), "SMALL": small})
    report("vm_v3_failover", out, done)
    want = next(line.split()[1] for line in out.splitlines() if line.startswith("SUM "))
    assert hashlib.sha256(bucket.get_object("long").read()).hexdigest() == want
    for i in (1, small // 2, small):
        assert bucket.get_object(f"small/f{i}").read() == f"small file {i}\n".encode()


# SMB (the kernel's CIFS client) through the balancer: files closed before the holder's SIGKILL keep their bytes; the
# same mount goes on against the new holder (the client reconnects, new session and tree connect) without a remount;
# a file open for writing across the failover, fsync'd before it (strict sync: in OSS), is reopened by the client by
# name and written on. Samba's open-file state (leases, durable handles, share modes, byte-range locks) lives in the
# killed node's smbd and is not carried over.
JOB_SMB = r"""
. /job/lib.sh
SMB_HOST=10.0.2.2
mkdir -p /mnt/s
mount -t cifs "//$SMB_HOST/data" /mnt/s -o "port=$NFS_PORT,username=$SMB_USER,password=$SMB_PASSWORD,vers=3.1.1,actimeo=1" \
  || fail "mount -t cifs through the balancer"
dmesg_before=$(dmesg_errors | wc -l)
restart() { ask_restart $1 /mnt/s /mnt/s; }
note "files closed before the failover"
mkdir /mnt/s/before
i=1; while [ $i -le 20 ]; do echo "before $i" > /mnt/s/before/f$i; i=$((i + 1)); done
python3 /job/writer.py /mnt/s/open-across > /tmp/writer.out 2>&1 &
WR=$!
wait_until $(t 30) '[ -e /tmp/opened ]' || fail "the writer did not open its file within 30 s"
t0=$(now_ms)
restart 1
echo "FIRST_OP_MS $(( $(now_ms) - t0 ))"
note "the same mount after the failover"
mkdir /mnt/s/after || fail "mkdir after the failover"
i=1; while [ $i -le 20 ]; do echo "after $i" > /mnt/s/after/f$i || fail "write after $i"; i=$((i + 1)); done
i=1; while [ $i -le 20 ]; do
  expect_eq "before/f$i after the failover" "before $i" "$(cat /mnt/s/before/f$i)"
  expect_eq "after/f$i" "after $i" "$(cat /mnt/s/after/f$i)"; i=$((i + 1)); done
touch /tmp/go
wait $WR
cat /tmp/writer.out
echo "OPEN_ACROSS $(tr '\n' '|' < /mnt/s/open-across)"
timeout $(t 60) umount /mnt/s || fail "umount"
dmesg | grep -i cifs | tail -20
echo RESTART OK
"""

SMB_USER = "ossgw-vm"
SMB_PASSWORD = "vm smb pw!"


def test_smb_failover_by_kill_9_the_mount_goes_on(emulator, ossgw_built, new_bucket, guest, workdir):
    name, bucket = new_bucket
    pw = workdir / "smb.pw"
    pw.write_text(SMB_PASSWORD + "\n")
    pw.chmod(0o600)
    smb_ports = {n: free_port() for n in ("a", "b", "c")}

    def props(n):
        return PROPS + (f"ossgw.shares.data.bucket={name}", "ossgw.smb.bind=127.0.0.1",
                        f"ossgw.smb.port={smb_ports[n]}", f"ossgw.smb.users.{SMB_USER}.password-file={pw}")

    wr = workdir / "writer.py"
    wr.write_text(WRITER_PY)
    out, done = failovers(guest, workdir, emulator, name, bucket, JOB_SMB,
                          {"SMB_USER": SMB_USER, "SMB_PASSWORD": SMB_PASSWORD}, files=(wr,), props_of=props,
                          port_of=lambda r: smb_ports[r.name], count=1)
    report("vm_smb_failover", out, done)
    writer = next((ln for ln in out.splitlines() if ln.startswith("WRITER")), "WRITER (no line)")
    across = next(ln for ln in out.splitlines() if ln.startswith("OPEN_ACROSS "))
    log(f"SMB: a file open for writing across the failover: {writer}; its content after: {across}")
    for i in (1, 20):
        assert bucket.get_object(f"before/f{i}").read() == f"before {i}\n".encode()
        assert bucket.get_object(f"after/f{i}").read() == f"after {i}\n".encode()
    # in a cluster smbd runs with strict sync (ossgw.smb.strict-sync): the writer's fsync put its first line in OSS,
    # so the client's reopen by name after reconnecting finds the file and the second line follows it
    assert writer == "WRITER OK", out[-3000:]
    assert bucket.get_object("open-across").read() == b"before\nafter\n"
