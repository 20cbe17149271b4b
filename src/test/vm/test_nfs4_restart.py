"""A gateway restart under a running NFSv4.1 workload (issue 11 "Restart"): the kernel client recovers (new client id
and session, OPEN and LOCK reclaimed with CLAIM_PREVIOUS / reclaim=true in the grace period, unstable writes resent
when the write verifier changed) and the application sees no error.

One guest job, two restarts the host makes when the guest asks (a marker object the guest creates; the host answers
with a marker of its own once the new gateway is ready, on the same port and state directory):
1. during a long `dd conv=fsync`: dd exits 0 and the file reads back with its checksum, in the guest and on the bucket;
2. while a process holds an fcntl lock and another has a file open for writing: after the restart the lock still
   holds against another mount (it was reclaimed), the writer's write, fsync and close succeed, and the holder's
   unlock frees the range.
"""
import hashlib
import threading
import time

from conftest import scale
from e2e_support import log, scaled, wait_until
from test_locks import LOCKS_PL

# open, write, fsync; wait for /tmp/go; write, fsync, close: prints WRITER OK or the error (an EIO would show here)
WRITER_PY = r"""
import os, sys, time
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
os.write(fd, b"before\n"); os.fsync(fd)
open("/tmp/opened", "w").close()
while not os.path.exists("/tmp/go"):
    time.sleep(0.1)
try:
    os.write(fd, b"after\n"); os.fsync(fd); os.close(fd)
    print("WRITER OK")
except OSError as e:
    print("WRITER ERROR", e)
"""

JOB = r"""
. /job/lib.sh
P="perl /job/locks.pl"
# the markers the host writes through the SDK: looked up afresh each time (no negative lookup cache)
mount_v41 /mnt/a "actimeo=1,lookupcache=positive"
mount_v41 /mnt/b "nosharecache,actimeo=1,lookupcache=positive"
dmesg_before=$(dmesg_errors | wc -l)
# restart N: asks the host to restart the gateway and returns once the restarted gateway answered
restart() { ask_restart $1 /mnt/b /mnt/a; }

note "a restart during a long write ($DD_MB MB, dd conv=fsync)"
dd_across_restart /mnt/a

note "a restart while a lock is held and a file is open for writing"
echo locked > /mnt/a/locked
$P hold /mnt/a/locked W 0 0 /tmp/release > /tmp/hold.out &
H=$!
wait_until $(t 30) 'grep -q GOT /tmp/hold.out' || fail "the holder did not get its lock within 30 s"
python3 /job/writer.py /mnt/a/open-across > /tmp/writer.out 2>&1 &
WR=$!
wait_until $(t 30) '[ -e /tmp/opened ]' || fail "the writer did not open its file within 30 s"
expect_eq "F_SETLK from the other mount before the restart" EAGAIN "$(timeout $(t 20) $P setlk /mnt/b/locked W 0 0)"
restart 2
t0=$(now_ms)
expect_eq "F_SETLK from the other mount after the restart (the lock was reclaimed)" EAGAIN \
  "$(timeout $(t 150) $P setlk /mnt/b/locked W 0 0)"
echo "SETLK_AFTER_RESTART_MS $(( $(now_ms) - t0 ))"
touch /tmp/go
wait $WR
cat /tmp/writer.out
grep -q "WRITER OK" /tmp/writer.out || fail "the writer's file open across the restart: $(cat /tmp/writer.out)"
touch /tmp/release
wait $H; rc=$?
cat /tmp/hold.out
expect_eq "the holder's exit status (its unlock after the restart)" 0 "$rc"
expect_eq "F_SETLK once the holder unlocked" OK "$(timeout $(t 60) $P setlk /mnt/b/locked W 0 0)"
expect_eq "the file written across the restart" "before
after" "$(cat /mnt/a/open-across)"

timeout $(t 60) umount /mnt/b || fail "umount /mnt/b"
timeout $(t 60) umount /mnt/a || fail "umount /mnt/a"
dmesg | tail -30
if dmesg | grep -iE "lost lock|reclaim fail|not responding|state manager"; then fail "the kernel logged the above"; fi
[ "$(dmesg_errors | wc -l)" -eq "$dmesg_before" ] || { dmesg_errors; fail "the kernel logged errors"; }
echo RESTART OK
"""


def test_restart_during_a_long_write_and_a_held_lock(gateway, guest, new_bucket, workdir):
    _, bucket = new_bucket
    # engine stat cache of 1 s so the guest sees the host's markers; a grace period short enough for CI (it ends
    # earlier when the one client sends RECLAIM_COMPLETE)
    props = {"ossgw.exports.vm.options.stat_cache_expire": "1", "ossgw.nfs.v4.grace-time": "30s",
             "ossgw.nfs.v4.lease-time": "30s"}
    gw = gateway(props)
    port = gw.nfs_port
    pl, wr = workdir / "locks.pl", workdir / "writer.py"
    pl.write_text(LOCKS_PL)
    wr.write_text(WRITER_PY)
    dd_mb = scale(160, 1024)
    result = {}
    t = threading.Thread(target=lambda: result.update(r=guest(
        JOB, env={"NFS_PORT": port, "BUCKET": gw.bucket, "DD_MB": dd_mb}, files=(pl, wr), timeout=900)),
        daemon=True)
    t.start()
    gateways, restarts = [gw], []
    for n in (1, 2):
        if not wait_until(lambda: not t.is_alive() or bucket.object_exists(f"restart-{n}"), 900, step=0.2):
            break
        if not t.is_alive():
            break
        t0 = time.monotonic()
        assert gw.stop() == 0, gw.log_text()
        gw = gateway(props, nfs_port=port)  # the same name: the same state directory
        gateways.append(gw)
        restarts.append(round(time.monotonic() - t0, 1))
        bucket.put_object(f"restarted-{n}", b"")
    t.join(scaled(1000))
    rc, out = result["r"]
    assert rc == 0 and "RESTART OK" in out, out
    marks = {}
    for line in out.splitlines():
        p = line.split()
        if len(p) == 2 and p[0].endswith("_MS"):
            marks[p[0]] = int(p[1])
    log(f"gateway restarts (stop + ready) {restarts} s; guest: {marks}")
    assert len(restarts) == 2
    # the first restart happened while dd was writing: dd ended after the guest saw the restarted gateway
    ends = {p[0] + p[1]: int(p[2]) for p in (ln.split() for ln in out.splitlines()) if len(p) == 3
            and p[0] in ("RESTART_ASKED", "RESTART_SEEN")}
    dd_end = int(next(ln.split()[1] for ln in out.splitlines() if ln.startswith("DD_END ")))
    assert dd_end > ends["RESTART_SEEN1"], out
    want = next(line.split()[1] for line in out.splitlines() if line.startswith("SUM "))
    assert hashlib.sha256(bucket.get_object("long").read()).hexdigest() == want
    assert bucket.get_object("open-across").read() == b"before\nafter\n"
    for g in gateways:
        assert "Exception" not in g.log_text(), g.log_text()
