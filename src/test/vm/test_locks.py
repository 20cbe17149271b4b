"""NFS locks from the Linux kernel's client (issue 10 item 3): flock and fcntl on the short-form mount
(`mount -t nfs HOST:/BUCKET /mnt`, no `nolock`), served by the gateway's NLM v4 and found through its rpcbind.

Two mounts of the export in one guest, the second with `nosharecache`, give two sets of inodes: the client kernel
cannot settle a conflict between them locally, so every conflict below is decided by the gateway's lock table (two
processes on one mount would mostly be settled by the client's own lock list before NLM is asked). Every guest
command that could wait is under `timeout`; the job fails on the first wrong answer and prints how long grants took.
"""
import re

from conftest import skip_unless_standard_nfs_ports_free
from e2e_support import log, scaled

# locks.pl CMD FILE TYPE START LEN [RELEASE_FILE]: fcntl(2) locks from the guest's perl.
#   setlk  F_SETLK: prints OK or EAGAIN          getlk  F_GETLK: prints "GETLK <U|R|W> start len"
#   wait   F_SETLKW: prints "GOT <ms>"           hold   F_SETLKW, prints "GOT <ms>", unlocks once RELEASE_FILE
#                                                       exists and prints "UNLOCKING <ms>" / "RELEASED <ms>"
LOCKS_PL = r"""#!/usr/bin/perl
use strict;
use warnings;
use Fcntl;
use Time::HiRes qw(time sleep);
$| = 1;
my ($cmd, $file, $type, $start, $len, $release) = @ARGV;
my %t = (R => F_RDLCK, W => F_WRLCK, U => F_UNLCK);
# struct flock on x86_64: short l_type, short l_whence, (pad), off_t l_start, off_t l_len, pid_t l_pid, (pad)
sub fl { pack("s s x4 q q i x4", $_[0], 0, $_[1], $_[2], 0) }
sub ms { int(time * 1000) }
open(my $fh, '+<', $file) or die "open $file: $!";
if ($cmd eq 'setlk') {
  if (fcntl($fh, F_SETLK, fl($t{$type}, $start, $len))) { print "OK\n"; exit 0; }
  print(($!{EAGAIN} || $!{EACCES}) ? "EAGAIN\n" : "ERR $!\n");
  exit 1;
}
if ($cmd eq 'getlk') {
  my $buf = fl($t{$type}, $start, $len);
  fcntl($fh, F_GETLK, $buf) or die "F_GETLK: $!";
  my ($ty, $wh, $s, $l) = unpack("s s x4 q q", $buf);
  print "GETLK ", ($ty == F_UNLCK ? "U" : $ty == F_WRLCK ? "W" : "R"), " $s $l\n";
  exit 0;
}
print "WAITING ", ms(), "\n";
fcntl($fh, F_SETLKW, fl($t{$type}, $start, $len)) or do { print "ERR $!\n"; exit 1; };
print "GOT ", ms(), "\n";
exit 0 if $cmd eq 'wait';
sleep 0.05 until -e $release;
# the time before the unlock call: a waiter may be granted (and print GOT) before the unlock's reply is back
print "UNLOCKING ", ms(), "\n";
fcntl($fh, F_SETLK, fl(F_UNLCK, $start, $len)) or die "unlock: $!";
print "RELEASED ", ms(), "\n";
"""

JOB = r"""
. /job/lib.sh
P="perl /job/locks.pl"
# wait_until SECONDS SHELL-CONDITION
# ms_since FILE WORD T0: the <ms> printed after WORD in FILE minus T0
ms_since() { echo $(( $(awk -v w="$2" '$1 == w { print $2 }' "$1") - $3 )); }

# The client side of NLM: the kernel's lockd registers with the guest's rpcbind, and every lock needs rpc.statd.
# (mount.nfs would start statd through start-statd; this guest has no init system to start rpcbind.)
command -v rpcbind >/dev/null || fail "rpcbind is not in the guest image (nfs-common needs it for locks)"
rpcbind -w 2>/dev/null || rpcbind || fail "rpcbind did not start"
timeout $(t 30) rpc.statd --no-notify || fail "rpc.statd did not start"
mkdir -p /mnt/a /mnt/b
timeout $(t 60) mount -t nfs "$NFS_HOST:/$BUCKET" /mnt/a || fail "short-form mount (with locks) failed"
timeout $(t 60) mount -t nfs -o nosharecache "$NFS_HOST:/$BUCKET" /mnt/b || fail "second mount (nosharecache) failed"
grep -E " /mnt/[ab] " /proc/mounts
grep -E " /mnt/[ab] " /proc/mounts | grep -q nolock && fail "mounted with nolock"
echo data > /mnt/a/f
expect_eq "the second mount sees the file" data "$(cat /mnt/b/f)"

note "flock -n fails at once while another process holds the lock"
flock -o -x /mnt/a/f sh -c 'echo $$ > /tmp/holder; exec sleep 300' &
H=$!
wait_until $(t 30) '[ -s /tmp/holder ]' || fail "the first flock was not granted within 30 s"
t0=$(now_ms); timeout $(t 20) flock -n /mnt/b/f true; rc=$?; t1=$(now_ms)
expect_eq "exit status of flock -n while held" 1 "$rc"
echo "FLOCK_N_MS $((t1 - t0))"
[ $((t1 - t0)) -lt $(t 5000) ] || fail "flock -n took $((t1 - t0)) ms"

note "a blocked flock is granted when the holder is killed (while the gateway holds the blocked request)"
timeout $(t 60) flock -o -x /mnt/b/f sh -c 'date +%s%3N > /tmp/got' &
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
expect_eq "F_SETLK of the bytes after the held range" OK "$(timeout $(t 20) $P setlk /mnt/b/f W 100 10)"
expect_eq "F_GETLK names the holder's range" "GETLK W 0 100" "$(timeout $(t 20) $P getlk /mnt/b/f W 10 1)"
timeout $(t 60) $P wait /mnt/b/f R 0 0 > /tmp/wait.out &
W=$!
# longer than the gateway holds a blocking LOCK (4 s): the client is told DENIED_GRACE_PERIOD and must ask again
sleep 7
grep -q GOT /tmp/wait.out && fail "F_SETLKW was granted while the range was held"
touch /tmp/release
wait $W; rc=$?
expect_eq "exit status of the blocked F_SETLKW" 0 "$rc"
wait $H
rel=$(awk '$1 == "UNLOCKING" { print $2 }' /tmp/hold.out)
echo "FCNTL_GRANT_AFTER_UNLOCK_MS $(ms_since /tmp/wait.out GOT "$rel")"

note "a waiter killed while blocked leaves no lock behind"
rm -f /tmp/release
$P hold /mnt/a/f W 0 0 /tmp/release > /tmp/hold2.out &
H=$!
wait_until $(t 30) 'grep -q GOT /tmp/hold2.out' || fail "the holder did not get its lock within 30 s"
$P wait /mnt/b/f W 0 0 > /tmp/wait2.out &
W=$!
sleep 3
kill -9 $W; wait $W 2>/dev/null
touch /tmp/release; wait $H
sleep 1
expect_eq "F_SETLK after the killed waiter" OK "$(timeout $(t 20) $P setlk /mnt/b/f W 0 0)"
expect_eq "flock -n after everything" 0 "$(timeout $(t 20) flock -n /mnt/a/f true; echo $?)"

note "SM_NOTIFY from the client (what sm-notify sends after a reboot) releases its locks on the gateway"
rm -f /tmp/release
$P hold /mnt/a/f W 0 0 /tmp/release > /tmp/hold3.out &
H=$!
wait_until $(t 30) 'grep -q GOT /tmp/hold3.out' || fail "the holder did not get its lock within 30 s"
expect_eq "F_SETLK while held" EAGAIN "$(timeout $(t 20) $P setlk /mnt/b/f W 0 0)"
ls /var/lib/nfs/sm
timeout $(t 60) sm-notify -f -d || fail "sm-notify failed"
expect_eq "F_SETLK once the client's notification released its locks" OK "$(timeout $(t 20) $P setlk /mnt/b/f W 0 0)"
touch /tmp/release; wait $H

timeout $(t 60) umount /mnt/b || fail "umount /mnt/b"
timeout $(t 60) umount /mnt/a || fail "umount /mnt/a"
if dmesg | grep -E "lockd: |not responding|cannot monitor"; then fail "the kernel logged lock trouble (above)"; fi
echo LOCKS OK
"""


def test_flock_and_fcntl_contend_through_the_gateway(gateway, guest, new_bucket, workdir):
    skip_unless_standard_nfs_ports_free()
    # NFSv3 only, so the short form lands on v3 and its locks on NLM (with v4.1 served it negotiates 4.1, whose locks
    # are LOCK/LOCKU: test_nfs4_locks.py); sm-notify is an NLM/NSM matter
    gw = gateway({"ossgw.nfs.rpcbind": "true", "ossgw.nfs.versions": "3"}, nfs_port=2049)
    pl = workdir / "locks.pl"
    pl.write_text(LOCKS_PL)
    rc, out = guest(JOB, env={"BUCKET": gw.bucket}, files=(pl,), timeout=600)
    assert rc == 0 and "LOCKS OK" in out, out
    times = {k: int(v) for k, v in re.findall(r"^(\w+_MS) (-?\d+)$", out, re.M)}
    log(f"lock times in the guest (ms): {times}")
    # granted within the client's 5 s re-ask (plus TCG slack, scaled with the machine's load), never its 30 s wait for
    # a callback
    assert 0 <= times["FLOCK_GRANT_AFTER_KILL_MS"] < 5000 + scaled(5000), times
    assert 0 <= times["FCNTL_GRANT_AFTER_UNLOCK_MS"] < 5000 + scaled(5000), times
    assert "Exception" not in gw.log_text(), gw.log_text()
    assert re.search(r"SM_NOTIFY from ossgw-vm@127\.0\.0\.1 .*: [1-9]\d* locks released", gw.log_text()), gw.log_text()
