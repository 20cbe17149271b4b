"""NFSv4.1 locks from the Linux kernel's client (issue 11 "Tests"): LOCK/LOCKT/LOCKU in the protocol on the one NFS
port, no rpcbind, lockd or statd in the guest.

- flock and fcntl contending between processes, on one mount and on two (`nosharecache`: two sets of inodes, so the
  gateway's lock table, not the client's, decides), released when the holder is killed;
- a v3 mount (NLM, through the gateway's rpcbind on 111) and a v4.1 mount of the same bucket contending: NLM and
  NFSv4.1 share one lock table.

Every guest command that could wait is under `timeout`. A blocked F_SETLKW over v4.1 is granted by the client's
polling (no CB_NOTIFY_LOCK: the gateway offers no back channel), so its grant time is logged and bounded by the
client's longest poll interval (30 s), not by a callback.
"""
import re

from conftest import skip_unless_standard_nfs_ports_free
from e2e_support import log, scaled
from test_locks import LOCKS_PL

HELPERS = r"""
. /job/lib.sh
P="perl /job/locks.pl"
# wait_until SECONDS SHELL-CONDITION
# ms_since FILE WORD T0: the <ms> printed after WORD in FILE minus T0
ms_since() { echo $(( $(awk -v w="$2" '$1 == w { print $2 }' "$1") - $3 )); }
"""

JOB = HELPERS + r"""
mount_v41 /mnt/a
mount_v41 /mnt/b nosharecache
grep -E " /mnt/[ab] " /proc/mounts
expect_eq "NFS version" 4.1 "$(nfs_vers /mnt/a)"
echo data > /mnt/a/f
expect_eq "the second mount sees the file" data "$(cat /mnt/b/f)"

note "flock -n fails at once while another process holds the lock"
flock -o -x /mnt/a/f sh -c 'echo $$ > /tmp/holder; exec sleep 300' &
H=$!
wait_until $(t 30) '[ -s /tmp/holder ]' || fail "the first flock was not granted within 30 s"
t0=$(now_ms); timeout $(t 20) flock -n /mnt/b/f true; rc=$?; t1=$(now_ms)
expect_eq "exit status of flock -n while held (other mount)" 1 "$rc"
echo "FLOCK_N_MS $((t1 - t0))"
timeout $(t 20) flock -n /mnt/a/f true; rc=$?
expect_eq "exit status of flock -n while held (same mount)" 1 "$rc"

note "a blocked flock is granted when the holder is killed"
timeout $(t 90) flock -o -x /mnt/b/f sh -c 'date +%s%3N > /tmp/got' &
W=$!
sleep 3
[ -e /tmp/got ] && fail "the second flock was granted while the first held the lock"
kill -9 $H; tk=$(now_ms); kill "$(cat /tmp/holder)" 2>/dev/null
wait $W; rc=$?
expect_eq "exit status of the blocked flock" 0 "$rc"
echo "FLOCK_GRANT_AFTER_KILL_MS $(( $(cat /tmp/got) - tk ))"

note "fcntl: byte ranges, F_GETLK, a blocked F_SETLKW granted when the holder unlocks"
$P hold /mnt/a/f W 0 100 /tmp/release > /tmp/hold.out &
H=$!
wait_until $(t 30) 'grep -q GOT /tmp/hold.out' || fail "the fcntl holder did not get its lock within 30 s"
expect_eq "F_SETLK write lock, overlapping" EAGAIN "$(timeout $(t 20) $P setlk /mnt/b/f W 50 10)"
expect_eq "F_SETLK read lock, overlapping" EAGAIN "$(timeout $(t 20) $P setlk /mnt/b/f R 99 1)"
expect_eq "F_SETLK write lock, overlapping, same mount" EAGAIN "$(timeout $(t 20) $P setlk /mnt/a/f W 0 1)"
expect_eq "F_SETLK of the bytes after the held range" OK "$(timeout $(t 20) $P setlk /mnt/b/f W 100 10)"
expect_eq "F_GETLK names the holder's range" "GETLK W 0 100" "$(timeout $(t 20) $P getlk /mnt/b/f W 10 1)"
timeout $(t 90) $P wait /mnt/b/f R 0 0 > /tmp/wait.out &
W=$!
sleep 3
grep -q GOT /tmp/wait.out && fail "F_SETLKW was granted while the range was held"
touch /tmp/release
wait $W; rc=$?
expect_eq "exit status of the blocked F_SETLKW" 0 "$rc"
wait $H
rel=$(awk '$1 == "UNLOCKING" { print $2 }' /tmp/hold.out)
echo "FCNTL_GRANT_AFTER_UNLOCK_MS $(ms_since /tmp/wait.out GOT "$rel")"

note "a process killed while holding an fcntl lock releases it"
rm -f /tmp/release
$P hold /mnt/a/f W 0 0 /tmp/release > /tmp/hold2.out &
H=$!
wait_until $(t 30) 'grep -q GOT /tmp/hold2.out' || fail "the holder did not get its lock within 30 s"
expect_eq "F_SETLK while held" EAGAIN "$(timeout $(t 20) $P setlk /mnt/b/f W 0 0)"
kill -9 $H; wait $H 2>/dev/null
expect_eq "F_SETLK after the holder was killed" OK "$(timeout $(t 20) $P setlk /mnt/b/f W 0 0)"

note "a waiter killed while blocked leaves no lock behind"
$P hold /mnt/a/f W 0 0 /tmp/release > /tmp/hold3.out &
H=$!
wait_until $(t 30) 'grep -q GOT /tmp/hold3.out' || fail "the holder did not get its lock within 30 s"
$P wait /mnt/b/f W 0 0 > /tmp/wait3.out &
W=$!
sleep 3
kill -9 $W; wait $W 2>/dev/null
touch /tmp/release; wait $H
expect_eq "F_SETLK after the killed waiter" OK "$(timeout $(t 20) $P setlk /mnt/b/f W 0 0)"
expect_eq "flock -n after everything" 0 "$(timeout $(t 20) flock -n /mnt/a/f true; echo $?)"

timeout $(t 60) umount /mnt/b || fail "umount /mnt/b"
timeout $(t 60) umount /mnt/a || fail "umount /mnt/a"
if dmesg | grep -iE "not responding|lost lock|reclaim fail|state manager|NFS4ERR"; then
  fail "the kernel logged NFS trouble (above)"
fi
echo LOCKS OK
"""


def lock_times(out):
    return {k: int(v) for k, v in re.findall(r"^(\w+_MS) (-?\d+)$", out, re.M)}


def test_flock_and_fcntl_contend_over_v41(gateway, guest, workdir):
    gw = gateway()
    pl = workdir / "locks.pl"
    pl.write_text(LOCKS_PL)
    rc, out = guest(JOB, env={"NFS_PORT": gw.nfs_port, "BUCKET": gw.bucket}, files=(pl,), timeout=600)
    assert rc == 0 and "LOCKS OK" in out, out
    times = lock_times(out)
    log(f"NFSv4.1 lock times in the guest (ms): {times}")
    assert times["FLOCK_N_MS"] < scaled(5000), times
    # the client polls a denied blocking lock (1 s, doubling, at most 30 s): granted within its longest interval (plus
    # slack scaled with the machine's load)
    assert 0 <= times["FLOCK_GRANT_AFTER_KILL_MS"] < 30_000 + scaled(5000), times
    assert 0 <= times["FCNTL_GRANT_AFTER_UNLOCK_MS"] < 30_000 + scaled(5000), times
    assert "Exception" not in gw.log_text(), gw.log_text()


MIXED = HELPERS + r"""
# NLM's client side needs rpcbind and rpc.statd in the guest (see test_locks.py)
rpcbind -w 2>/dev/null || rpcbind || fail "rpcbind did not start"
timeout $(t 30) rpc.statd --no-notify || fail "rpc.statd did not start"
mkdir -p /mnt/v3
timeout $(t 60) mount -t nfs -o vers=3 "$NFS_HOST:/$BUCKET" /mnt/v3 || fail "v3 mount (with NLM locks) failed"
mount_v41 /mnt/v4
grep -E " /mnt/v[34] " /proc/mounts
expect_eq "version of /mnt/v3" 3 "$(nfs_vers /mnt/v3)"
expect_eq "version of /mnt/v4" 4.1 "$(nfs_vers /mnt/v4)"
echo data > /mnt/v3/f
expect_eq "the v4.1 mount sees the v3 file" data "$(cat /mnt/v4/f)"

note "an NLM holder (v3) blocks a v4.1 LOCK; LOCKT shows it"
$P hold /mnt/v3/f W 0 100 /tmp/release > /tmp/hold.out &
H=$!
wait_until $(t 30) 'grep -q GOT /tmp/hold.out' || fail "the v3 holder did not get its lock within 30 s"
expect_eq "v4.1 F_SETLK against the v3 holder" EAGAIN "$(timeout $(t 20) $P setlk /mnt/v4/f W 50 1)"
expect_eq "v4.1 F_GETLK shows the v3 holder's range" "GETLK W 0 100" "$(timeout $(t 20) $P getlk /mnt/v4/f R 0 0)"
expect_eq "v4.1 flock -n against the v3 holder" 1 "$(timeout $(t 20) flock -n /mnt/v4/f true; echo $?)"
touch /tmp/release; wait $H
expect_eq "v4.1 F_SETLK once the v3 holder unlocked" OK "$(timeout $(t 20) $P setlk /mnt/v4/f W 0 0)"

note "a v4.1 holder blocks an NLM LOCK; a blocked v3 F_SETLKW is granted when it unlocks"
rm -f /tmp/release
$P hold /mnt/v4/f W 0 0 /tmp/release > /tmp/hold2.out &
H=$!
wait_until $(t 30) 'grep -q GOT /tmp/hold2.out' || fail "the v4.1 holder did not get its lock within 30 s"
expect_eq "v3 F_SETLK against the v4.1 holder" EAGAIN "$(timeout $(t 20) $P setlk /mnt/v3/f R 10 1)"
expect_eq "v3 F_GETLK shows the v4.1 holder" "GETLK W 0 0" "$(timeout $(t 20) $P getlk /mnt/v3/f W 0 1)"
timeout $(t 90) $P wait /mnt/v3/f W 0 0 > /tmp/wait.out &
W=$!
sleep 3
grep -q GOT /tmp/wait.out && fail "the v3 F_SETLKW was granted while v4.1 held the lock"
touch /tmp/release; wait $H
wait $W; rc=$?
expect_eq "exit status of the blocked v3 F_SETLKW" 0 "$rc"
rel=$(awk '$1 == "UNLOCKING" { print $2 }' /tmp/hold2.out)
echo "V3_GRANT_AFTER_V4_UNLOCK_MS $(ms_since /tmp/wait.out GOT "$rel")"

timeout $(t 60) umount /mnt/v4 || fail "umount /mnt/v4"
timeout $(t 60) umount /mnt/v3 || fail "umount /mnt/v3"
echo MIXED OK
"""


def test_v3_nlm_and_v41_locks_contend(gateway, guest, workdir):
    """One gateway on 2049 with rpcbind on 111 serves v3 (with NLM) and v4.1; a lock taken over one version holds
    against the other."""
    skip_unless_standard_nfs_ports_free()
    gw = gateway({"ossgw.nfs.rpcbind": "true"}, nfs_port=2049)
    pl = workdir / "locks.pl"
    pl.write_text(LOCKS_PL)
    rc, out = guest(MIXED, env={"NFS_PORT": 2049, "BUCKET": gw.bucket}, files=(pl,), timeout=600)
    assert rc == 0 and "MIXED OK" in out, out
    times = lock_times(out)
    log(f"v3/v4.1 lock times in the guest (ms): {times}")
    assert 0 <= times["V3_GRANT_AFTER_V4_UNLOCK_MS"] < 30_000 + scaled(5000), times
    assert "Exception" not in gw.log_text(), gw.log_text()
