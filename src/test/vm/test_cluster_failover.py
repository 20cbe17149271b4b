"""Failover under the Linux kernel's NFSv4.1 client (issue 23 acceptance, "Failover in the VM lane"): three
`./ossgw serve` in standby mode on one Valkey, HAProxy in front health-checking /q/health/ready (standing in for a
Kubernetes Service), and the guest mounting HAProxy's address with NFSv4.1. The guest job is test_nfs4_restart's:
a long `dd conv=fsync` with its checksum, then a held fcntl lock and a file open for writing. Where that test restarts
its one gateway, this one SIGKILLs the lease holder and a standby takes over: the workload must finish with exit
status 0, every checksum right, the lock still held by its owner (reclaimed from the new holder in its grace period),
no error in the guest's kernel log. The time from the kill to the guest's next successful operation is logged.

The same with NFSv3: a `nolock` mount carries a long `dd conv=fsync` and a loop of small files, each across a SIGKILL
of the holder; a mount with locking (NLM found through the holder's rpcbind behind a second HAProxy, the gateways on
127.0.0.2-4 with one NFS port, QEMU forwarding a virtual server address to the balancers and the guest's rpcbind and
statd to the host) holds an fcntl lock across a SIGKILL of the holder: the new holder sends SM_NOTIFY, the guest's
lockd reclaims the lock in the grace period (the new holder's log says so, with the times from the kill), and the
lock still refuses another mount's F_SETLK until its owner unlocks.
And with SMB (the kernel's CIFS client) through the balancer: what a mount keeps across a failover, and what not.
The NFSv3 `nolock` and the SMB cases run in the lane's long form only (OSSGW_VM=long), to keep CI's time.
"""
import hashlib
import json
import os
import re
import socket
import sys
import threading
import time

import pytest

from conftest import LONG, scale
from e2e_support import free_port, log, scaled, wait_until
from test_cluster import HAPROXY, TIMINGS_LOG, TTL, VALKEY, Haproxy, Replica, Store
from test_locks import LOCKS_PL
from test_nfs4_restart import JOB, WRITER_PY

pytestmark = [
    pytest.mark.skipif(VALKEY is None, reason="valkey-server (or redis-server) is not installed (.ci/run installs it)"),
    pytest.mark.skipif(HAPROXY is None, reason="haproxy is not installed (.ci/run installs it)"),
]

# CI keeps the NFSv4.1 and the NLM failover; these two (about 2.7 minutes of TCG) run in the long form, OSSGW_VM=long
LONG_FORM = pytest.mark.skipif(not LONG, reason="runs with OSSGW_VM=long (the VM lane's long form)")

PROPS = ("ossgw.exports.x.squash=none", "ossgw.nfs.v4.grace-time=30s", "ossgw.nfs.v4.lease-time=30s")



def failovers(guest, workdir, emulator, name, bucket, job, env, files=(), props_of=lambda n: PROPS,
              port_of=lambda r: r.nfs_port, count=2, addr_of=lambda r: "127.0.0.1", rpcbind_lb=False, netdev_of=None):
    """Three standby replicas (`props_of(node name)`: more lines of each one's config) and HAProxy in front of their
    `port_of` ports at `addr_of`; runs `job` in the guest (NFS_PORT = HAProxy's port) and SIGKILLs the lease holder each
    time the guest creates restart-N (N = 1 .. count), answering restarted-N once a standby is Ready. `rpcbind_lb`: a
    second HAProxy in front of their rpcbind (port 111 of each one's address); `netdev_of(balancers)`: the guest's
    extra `-netdev user` options (conftest's `guest(netdev=)`).
    Returns (guest output, [{killed, to_ready_s, killed_at (time.time())}]); asserts the job passed."""
    store = Store(workdir)
    replicas = []
    lbs = []
    try:
        for n in ("a", "b", "c"):
            r = Replica(n, workdir, name, emulator, store.url, options=("stat_cache_expire=1",), props=props_of(n))
            replicas.append(r)
            r.wait_answering(ready=(n == "a"))  # the first one up takes the lease
        lb = Haproxy(workdir, replicas, port_of=port_of, addr_of=addr_of)
        lbs = [lb]
        if rpcbind_lb:
            lbs.append(Haproxy(workdir, replicas, port_of=lambda r: 111, addr_of=addr_of, name="haproxy-rpcbind"))
        netdev = netdev_of(lbs) if netdev_of else None
        result = {}
        t = threading.Thread(target=lambda: result.update(r=guest(
            job, env=dict(env, NFS_PORT=lb.port, BUCKET=name), files=files, timeout=900, netdev=netdev)), daemon=True)
        t.start()
        done = []
        for n in range(1, count + 1):
            if not wait_until(lambda: not t.is_alive() or bucket.object_exists(f"restart-{n}"), 900, step=0.2):
                break
            if not t.is_alive():
                break
            holder = next(r for r in replicas if r.proc.poll() is None and r.ready())
            holder.proc.kill()  # SIGKILL: no release; the lease expires after its TTL
            t0, killed_at = time.monotonic(), time.time()
            live = [r for r in replicas if r.proc.poll() is None]
            assert wait_until(lambda: any(r.ready() for r in live), 120), [r.log()[-2000:] for r in live]
            done.append({"killed": holder.name, "to_ready_s": round(time.monotonic() - t0, 1), "killed_at": killed_at})
            bucket.put_object(f"restarted-{n}", b"")
        t.join(scaled(1000))
        rc, out = result["r"]
        assert rc == 0 and "RESTART OK" in out, out + "\n".join(r.log()[-3000:] for r in replicas)
        assert len(done) == count
        assert all(f["to_ready_s"] > TTL * 0.5 for f in done), done
        return out, done
    finally:
        for b in lbs:
            b.stop()
        for r in replicas:
            r.stop()
        store.stop()


def report(label, out, done, **more):
    marks = {p[0]: int(p[1]) for p in (ln.split() for ln in out.splitlines()) if len(p) == 2 and p[0].endswith("_MS")}
    done = [{k: v for k, v in f.items() if k != "killed_at"} for f in done]
    log(f"{label} failovers (kill -9 to a ready standby): {done}; guest: {marks}" + (f"; {more}" if more else ""))
    with open(TIMINGS_LOG, "a") as f:  # beside test_cluster.py's figures, for docs/deploy.md
        f.write(json.dumps({"name": label, "failovers": done, "guest_ms": marks, **more,
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


@LONG_FORM
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


# NFSv3 with NLM locks through the balancer. QEMU's user-mode network gives the guest one way to the host (10.0.2.2 is
# the host's 127.0.0.1), and the guest's lockd finds NLM through rpcbind on port 111 of the mount's server address, so
# the guest mounts a virtual address, VIP, whose ports QEMU forwards (guestfwd, one FORWARD_PY per connection) to host
# ports: VIP:111 to a second HAProxy in front of the gateways' rpcbind, VIP:NLM_PORT and VIP:NFS_PORT to the NFS
# HAProxy. The three gateways listen on 127.0.0.2-4, each with NFS on the same port NLM_PORT and rpcbind on 111, so
# whichever holds the lease answers GETPORT(NLM) with a port the guest reaches. The other way, hostfwd gives the
# gateways the guest's rpcbind (UDP, at 127.0.0.1:SM_RPCBIND: ossgw.nfs.nsm-rpcbind-port, at the address the LOCK came
# from, HAProxy's 127.0.0.1) and its statd (UDP, started on the fixed port STATD_PORT, forwarded as itself); the
# gateways send mon_name VIP (ossgw.nfs.nsm-name), the name the guest's statd monitors the server under.
VIP = "10.0.2.100"

# QEMU's guestfwd command for one guest connection (its stdin and stdout are the connection's socket): a connection to
# 127.0.0.1:PORT, bytes copied both ways, and both closed as soon as either side closes, so the guest's RPC client
# sees a dead gateway's connection end at once and reconnects (OpenBSD nc kept the guest's side open: the NFS client
# noticed only at its 60 s RPC timeout)
FORWARD_PY = r"""import os, socket, sys, threading
up = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
down = socket.socket(fileno=0)
def pump(a, b):
    try:
        while (d := a.recv(65536)):
            b.sendall(d)
    except OSError:
        pass
    os._exit(0)
threading.Thread(target=pump, args=(up, down), daemon=True).start()
pump(down, up)
"""

JOB_NLM = r"""
. /job/lib.sh
P="perl /job/locks.pl"
NFS_HOST=$VIP
command -v rpcbind >/dev/null || fail "rpcbind is not in the guest image"
rpcbind -w 2>/dev/null || rpcbind || fail "rpcbind did not start"
timeout $(t 30) rpc.statd --no-notify -p $STATD_PORT || fail "rpc.statd did not start"
mkdir -p /mnt/a /mnt/b
# with locking (no nolock): the kernel's lockd asks $VIP:111 for NLM (TCP, the mount's transport)
# lookupcache=positive, as every job that waits for a name another writer makes (ask_restart's restarted-N, put by
# the host's SDK): under the default, a "no such file" looked up on the new holder just before the put is kept as
# long as the directory's mtime does not move, and another writer's put does not move it (SEMANTICS.md)
o="nfsvers=3,proto=tcp,port=$NFS_PORT,mountport=$NFS_PORT,actimeo=1,lookupcache=positive"
timeout $(t 60) mount -t nfs -o "$o" "$VIP:/$BUCKET" /mnt/a || fail "mount (with locks) through the balancer"
timeout $(t 60) mount -t nfs -o "$o,nosharecache" "$VIP:/$BUCKET" /mnt/b || fail "second mount (nosharecache)"
grep -E " /mnt/[ab] " /proc/mounts
grep -E " /mnt/[ab] " /proc/mounts | grep -q nolock && fail "mounted with nolock"
dmesg_before=$(dmesg_errors | wc -l)
echo data > /mnt/a/f

note "a fcntl write lock held across a SIGKILL of the lease holder"
$P hold /mnt/a/f W 0 0 /tmp/release > /tmp/hold.out &
H=$!
wait_until $(t 60) 'grep -q GOT /tmp/hold.out' || fail "no lock for the holder within 60 s: $(cat /tmp/hold.out)"
expect_eq "F_SETLK from the other mount before the failover" EAGAIN "$(timeout $(t 30) $P setlk /mnt/b/f W 0 0)"
t0=$(now_ms)
ask_restart 1 /mnt/a /mnt/a
echo "FIRST_OP_MS $(( $(now_ms) - t0 ))"
note "after the failover: the lock is reclaimed on the new holder and still held by its owner"
# a new lock waits out the new holder's grace period (the client retries NLM4_DENIED_GRACE_PERIOD), then conflicts
# with the reclaimed one; had the lock been lost, it would be granted (OK)
t1=$(now_ms)
expect_eq "F_SETLK from the other mount after the failover" EAGAIN "$(timeout $(t 180) $P setlk /mnt/b/f W 0 0)"
echo "CONFLICT_AFTER_MS $(( $(now_ms) - t1 ))"
case "$(timeout $(t 60) $P getlk /mnt/b/f W 0 0)" in
  "GETLK W "*) ;; *) fail "F_GETLK after the failover does not show the held write lock" ;; esac
kill -0 $H 2>/dev/null || fail "the holder died: $(cat /tmp/hold.out)"
touch /tmp/release
wait $H || fail "the holder's unlock after the failover: $(cat /tmp/hold.out)"
cat /tmp/hold.out
expect_eq "F_SETLK once the owner unlocked" OK "$(timeout $(t 60) $P setlk /mnt/b/f W 0 0)"
expect_eq "the file across the failover" data "$(cat /mnt/b/f)"

timeout $(t 60) umount /mnt/b || fail "umount /mnt/b"
timeout $(t 60) umount /mnt/a || fail "umount /mnt/a"
dmesg | grep -iE "lockd|nfs|statd" | tail -20
if dmesg | grep -iE "stale|timed out|cannot monitor"; then fail "the kernel logged the above"; fi
# "lockd: server ... not responding, still trying" while the holder is down is expected; it must be followed by OK
last=$(dmesg | grep -E "lockd: server" | tail -1)
case "$last" in *"not responding"*) fail "lockd still has no server: $last" ;; esac
[ "$(dmesg_errors | wc -l)" -eq "$dmesg_before" ] || { dmesg_errors; fail "the kernel logged errors"; }
echo RESTART OK
"""


def free_on(addrs, kind=socket.SOCK_STREAM):
    """A port free (of `kind`) on 127.0.0.1 and on each of `addrs` right now."""
    for _ in range(50):
        port = free_port() if kind == socket.SOCK_STREAM else free_udp_port()
        try:
            for a in addrs:
                with socket.socket(socket.AF_INET, kind) as s:
                    s.bind((a, port))
            return port
        except OSError:
            continue
    raise AssertionError(f"no port free on {addrs}")


def free_udp_port():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def log_times(path, pattern):
    """Time of day (seconds) of each line of the gateway log at `path` matching `pattern`."""
    out = []
    for line in path.read_text(errors="replace").splitlines():
        if re.search(pattern, line):
            h, m, s = line[:12].split(":")
            out.append(int(h) * 3600 + int(m) * 60 + float(s))
    return out


def test_nfs3_nlm_lock_reclaimed_on_the_new_holder_after_kill_9(emulator, ossgw_built, new_bucket, guest, workdir):
    name, bucket = new_bucket
    addrs = {"a": "127.0.0.2", "b": "127.0.0.3", "c": "127.0.0.4"}
    for a in addrs.values():  # each gateway's rpcbind needs 111 of its own address (root, nothing on 0.0.0.0:111)
        try:
            with socket.socket() as s:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                s.bind((a, 111))
        except OSError as e:
            pytest.skip(f"cannot bind {a}:111 ({e}): needs root and no rpcbind on 0.0.0.0:111")
    nlm_port = free_on(addrs.values())
    sm_rpcbind, statd = free_udp_port(), free_udp_port()
    pl, forward = workdir / "locks.pl", workdir / "forward.py"
    pl.write_text(LOCKS_PL)
    forward.write_text(FORWARD_PY)

    def props(n):
        return PROPS + (f"ossgw.nfs.bind={addrs[n]}", f"ossgw.nfs.port={nlm_port}", "ossgw.nfs.rpcbind=true",
                        "ossgw.nfs.versions=3", f"ossgw.nfs.nsm-rpcbind-port={sm_rpcbind}",
                        f"ossgw.nfs.nsm-name={VIP}")

    def netdev(lbs):
        nfs, rpcbind = lbs
        fwd = lambda port, to: f"guestfwd=tcp:{VIP}:{port}-cmd:{sys.executable} -I -S {forward} {to}"  # noqa: E731
        return ",".join([fwd(nfs.port, nfs.port), fwd(nlm_port, nfs.port), fwd(111, rpcbind.port),
                         f"hostfwd=udp:127.0.0.1:{sm_rpcbind}-:111", f"hostfwd=udp:127.0.0.1:{statd}-:{statd}"])

    out, done = failovers(guest, workdir, emulator, name, bucket, JOB_NLM, {"VIP": VIP, "STATD_PORT": statd},
                          files=(pl,), props_of=props, port_of=lambda r: nlm_port, addr_of=lambda r: addrs[r.name],
                          count=1, rpcbind_lb=True, netdev_of=netdev)
    killed, at = done[0]["killed"], done[0]["killed_at"]
    lt = time.localtime(at)
    kill_tod = lt.tm_hour * 3600 + lt.tm_min * 60 + lt.tm_sec + at % 1
    # the new holder: the one replica that logged SM_NOTIFY
    logs = {n: workdir / f"{n}.log" for n in addrs if n != killed}
    sent = {n: log_times(p, rf"SM_NOTIFY sent to \S+@127\.0\.0\.1 \(mon_name {re.escape(VIP)}")
            for n, p in logs.items()}
    new = next((n for n, ts in sent.items() if ts), None)
    assert new is not None, "no SM_NOTIFY sent: " + "\n".join(p.read_text()[-3000:] for p in logs.values())
    reclaims = log_times(logs[new], r"NLM reclaim from \S+@127\.0\.0\.1 of \S*f \[0, EOF\): GRANTED")
    assert reclaims, "the guest's lockd did not reclaim its lock on the new holder:\n" + logs[new].read_text()[-4000:]
    figures = {"kill_to_sm_notify_s": round(sent[new][0] - kill_tod, 1),
               "kill_to_reclaim_granted_s": round(reclaims[0] - kill_tod, 1)}
    report("vm_v3_nlm_failover", out, done, **figures)
    assert 0 < figures["kill_to_sm_notify_s"] <= figures["kill_to_reclaim_granted_s"], figures
    assert bucket.get_object("f").read() == b"data\n"


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


@LONG_FORM
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
