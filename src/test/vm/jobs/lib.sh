# Shell helpers of the guest's jobs (copied next to every job as /job/lib.sh; source it with `. /job/lib.sh`).
# A check that fails prints what differed and exits 1, so the job (set -eu) stops there with a clear message.
# Environment the host passes: NFS_HOST (default 10.0.2.2, the host's loopback), NFS_PORT, BUCKET.
NFS_HOST="${NFS_HOST:-10.0.2.2}"
# How much slower the host is than a quiet machine (src/test/e2e/deadlines.py; the host passes OSSGW_TEST_SLOWDOWN), as
# a whole number >= 1, and `t N`: N (seconds or ms of a quiet machine) scaled by it. Every wait on a condition and every
# time limit of a job uses it: `timeout $(t 20) cmd`, `wait_until $(t 30) COND`, `[ $ms -lt $(t 5000) ]`.
SLOWDOWN=$(awk -v f="${OSSGW_TEST_SLOWDOWN:-1}" 'BEGIN { n = int(f); if (n < f) n++; if (n < 1) n = 1; print n }')
t() { echo $(( $1 * SLOWDOWN )); }

fail() { echo "FAIL: $*"; exit 1; }
# expect_eq WHAT EXPECTED ACTUAL
expect_eq() { [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"; }
# expect_file_eq WHAT FILE1 FILE2: the two files have the same bytes (a diff of their text on failure)
expect_same() { cmp -s "$2" "$3" || { diff "$2" "$3" | head -40; fail "$1: $2 and $3 differ"; }; }
now_ms() { date +%s%3N; }
JOB_T0=$(now_ms)
# note TEXT: a step heading with the seconds since the job started
note() { local t=$(( $(now_ms) - JOB_T0 )); echo "== [$((t / 1000)).$((t % 1000 / 100)) s] $*"; }
# timed NAME CMD...: runs CMD and prints "TIME NAME <seconds>" (the host parses these lines for the docs)
timed() {
  local name=$1 t0 t1; shift
  t0=$(now_ms); "$@"; t1=$(now_ms)
  echo "TIME $name $(( (t1 - t0) / 1000 )).$(printf '%03d' $(( (t1 - t0) % 1000 )))"
}
# mount_v3 MOUNTPOINT [EXTRA_OPTIONS]: NFSv3 with the options README documents (no rpcbind needed)
mount_v3() {
  mkdir -p "$1"
  mount -t nfs -o "nfsvers=3,proto=tcp,port=$NFS_PORT,mountport=$NFS_PORT,nolock${2:+,$2}" \
    "$NFS_HOST:/$BUCKET" "$1" || fail "mount -t nfs $NFS_HOST:/$BUCKET (port $NFS_PORT) failed"
}
# mount_v41 MOUNTPOINT [EXTRA_OPTIONS] [EXPORT]: NFSv4.1 on $NFS_PORT alone (no rpcbind, mountd or lockd; locks are
# in the protocol); EXPORT defaults to /$BUCKET
mount_v41() {
  mkdir -p "$1"
  mount -t nfs -o "vers=4.1,port=$NFS_PORT${2:+,$2}" "$NFS_HOST:${3:-/$BUCKET}" "$1" \
    || fail "mount -t nfs -o vers=4.1,port=$NFS_PORT $NFS_HOST:${3:-/$BUCKET} failed"
}
# oss_counters STEP: prints "OSS STEP <the emulator's /-/counters JSON>" and resets the counters (needs EMU_PORT, the
# emulator's port on the host; a no-op without it). The host sums these lines per step (requests per operation).
oss_counters() {
  [ -n "${EMU_PORT:-}" ] || return 0
  echo "OSS $1 $(busybox wget -q -O - "http://$NFS_HOST:$EMU_PORT/-/counters" | tr -d '\n ')"
  busybox wget -q -O /dev/null --post-data '' "http://$NFS_HOST:$EMU_PORT/-/counters/reset" || true
}
# nfs_vers MOUNTPOINT: the NFS version the kernel negotiated (from /proc/mounts)
nfs_vers() {
  awk -v mp="$1" '$2 == mp { n = split($4, o, ","); for (i = 1; i <= n; i++) if (o[i] ~ /^vers=/) print substr(o[i], 6) }' \
    /proc/mounts
}
# manifest DIR: one line per entry below DIR, sorted: path, type, mode, owner, mtime in s (files and directories),
# size (files), target (symlinks), then one line per file with its content hash. Two trees are equal for cp -a /
# tar x when their manifests are. A few processes in all (each fork costs ~50 ms under TCG). Names without tabs.
manifest() {
  (cd "$1" && {
    find . -mindepth 1 -printf '%y\t%p\t%m\t%U:%G\t%s\t%T@\t%l\n' | awk -F'\t' '
      $1 == "l" { print $2 " link -> " $7; next }
      $1 == "d" { printf "%s dir %s %s mtime=%d\n", $2, $3, $4, $6; next }
      { printf "%s %s %s %s mtime=%d size=%s\n", $2, ($1 == "f" ? "file" : $1), $3, $4, $6, $5 }'
    find . -type f -exec sha256sum {} + | awk '{ print $2 " sha256=" substr($1, 1, 16) }'
  } | LC_ALL=C sort)
}
# dmesg_errors: the kernel's messages of level err or worse
dmesg_errors() { dmesg --level=emerg,alert,crit,err 2>/dev/null || true; }
# wait_until SECONDS CONDITION...: evaluates the shell CONDITION every 0.1 s until it holds; false after SECONDS
wait_until() { _end=$(( $(now_ms) + $1 * 1000 )); shift
  while ! eval "$*"; do [ "$(now_ms)" -lt "$_end" ] || return 1; sleep 0.1; done; }
# dd_across_restart MOUNTPOINT: $DD_MB MB of random bytes written with `dd conv=fsync` to MOUNTPOINT/long while the
# job's own `restart 1` runs (asked once dd wrote a fifth); dd must exit 0, and the file read back after dropping the
# page cache must have the source's sha256 and size. Prints SUM <sha256>, DD_END <ms>, DD_MS <ms>.
dd_across_restart() {
  dd if=/dev/urandom of=/tmp/src bs=1M count=$DD_MB status=none
  sum=$(sha256sum < /tmp/src | cut -d' ' -f1)
  echo "SUM $sum"
  local t0 D R
  t0=$(now_ms)
  ( dd if=/tmp/src of="$1/long" bs=1M conv=fsync status=none; echo $? > /tmp/dd.rc ) &
  D=$!
  wait_until $(t 120) "[ \"\$(stat -c %s $1/long 2>/dev/null || echo 0)\" -gt $((DD_MB * 1048576 / 5)) ]" \
    || fail "dd did not get a fifth of the way within 120 s"
  restart 1 &
  R=$!
  wait $D
  echo "DD_END $(now_ms)"
  echo "DD_MS $(( $(now_ms) - t0 ))"
  wait $R || fail "restart 1"
  expect_eq "dd's exit status across the restart" 0 "$(cat /tmp/dd.rc)"
  echo 3 > /proc/sys/vm/drop_caches
  expect_eq "sha256 of the file written across the restart" "$sum" "$(sha256sum < "$1/long" | cut -d' ' -f1)"
  expect_eq "its size" $((DD_MB * 1048576)) "$(stat -c %s "$1/long")"
  rm /tmp/src
}
# ask_restart N ASK_DIR SEEN_DIR: asks the host to restart (or fail over) the gateway by creating ASK_DIR/restart-N,
# and returns once the host's SEEN_DIR/restarted-N shows (it writes it when the gateway serves again); prints
# RESTART_ASKED / RESTART_SEEN N <ms>
ask_restart() {
  touch "$2/restart-$1"
  echo "RESTART_ASKED $1 $(now_ms)"
  wait_until $(t 300) "[ -e $3/restarted-$1 ]" || fail "the host's restarted-$1 never showed"
  echo "RESTART_SEEN $1 $(now_ms)"
}

# The workload steps the NFS and the SMB jobs share. They act on $MP (the mount point) and stop the job on the first
# difference; the values later checks compare against are left in globals: sum (sha256 of the big file, by
# step_dd) and want (the mtime touch -d set, by step_touch_d).
# step_dd: $DD_MB MB written with dd (fsync) and read back after dropping the page cache, checksums compared
step_dd() {
  note "dd $DD_MB MB write + read back with checksums"
  dd if=/dev/urandom of=/tmp/big bs=1M count="$DD_MB" status=none
  sum=$(sha256sum < /tmp/big)
  timed dd-write dd if=/tmp/big of=$MP/big bs=1M conv=fsync status=none
  rm /tmp/big
  echo 3 > /proc/sys/vm/drop_caches
  timed dd-read sh -c "dd if=$MP/big bs=1M status=none | sha256sum > /tmp/big.sum"
  expect_eq "sha256 of the big file read back" "$sum" "$(cat /tmp/big.sum)"
  expect_eq "size of the big file" $((DD_MB * 1048576)) "$(stat -c %s $MP/big)"
}
small_create() { local i=1; while [ $i -le "$SMALL_FILES" ]; do echo "small file $i" > $MP/small/f$i; i=$((i + 1)); done; }
# step_small_files: $SMALL_FILES small files in small/, created one by one, then listed with ls -l
step_small_files() {
  note "$SMALL_FILES small files created and listed"
  mkdir $MP/small
  timed small-create small_create
  timed small-list sh -c "ls -l $MP/small > /tmp/small.ls"
  expect_eq "entries listed in small/" "$SMALL_FILES" "$(ls $MP/small | wc -l)"
  expect_eq "content of small/f$SMALL_FILES" "small file $SMALL_FILES" "$(cat $MP/small/f$SMALL_FILES)"
}
# make_tree: the local tree /tmp/tree (files and directories with fixed modes and mtimes, three symlinks), its
# tarball /tmp/tree.tar and its manifest /tmp/tree.manifest, for tar x and cp -a onto the mount
make_tree() {
  local T=/tmp/tree i=0 dir n
  mkdir -p $T/a/b/c $T/d/e $T/empty $T/private
  for dir in $T $T/a $T/a/b $T/a/b/c $T/d $T/d/e $T/private; do
    for n in 1 2 3; do i=$((i + 1)); head -c $((i * 1537)) /dev/urandom > $dir/file$n; done
  done
  chmod 0600 $T/a/file1; chmod 0755 $T/a/b/file2; chmod 0640 $T/d/file3; chmod 0444 $T/d/e/file1
  ln -s ../d/file1 $T/a/link-to-d; ln -s does-not-exist $T/dangling; ln -s /etc/hostname $T/d/absolute
  find $T -depth ! -type l -exec touch -d '2001-02-03 04:05:06' {} +
  touch -d '2003-04-05 06:07:08' $T/a/b/c/file1 $T/a/b  # a few different times
  chmod 0700 $T/private; chmod 0750 $T/d/e; chmod 0755 $T/a
  touch -d '2004-05-06 07:08:09' $T/private $T/d/e $T/empty
  (cd /tmp && tar cf /tmp/tree.tar tree)
  manifest $T > /tmp/tree.manifest
}
# step_renames: mkdir -p, rename of a directory, rename over an existing file, move to another directory (leaves
# p/q2/r/moved with "one"); the job then does its own rm -rf
step_renames() {
  note "mkdir -p, rename of files and directories, rename over an existing file, rm -rf"
  mkdir -p $MP/p/q/r
  echo inner > $MP/p/q/r/inner
  mv $MP/p/q $MP/p/q2
  expect_eq "file inside a renamed directory" inner "$(cat $MP/p/q2/r/inner)"
  [ ! -e $MP/p/q ] || fail "p/q still exists after its rename"
  echo one > $MP/p/one; echo two > $MP/p/two
  mv $MP/p/one $MP/p/two
  expect_eq "rename over an existing file" one "$(cat $MP/p/two)"
  [ ! -e $MP/p/one ] || fail "p/one still exists after rename over p/two"
  mv $MP/p/two $MP/p/q2/r/moved
  expect_eq "file moved to another directory" one "$(cat $MP/p/q2/r/moved)"
}
# step_touch_d: touch -d on the file p/mode, the non-empty directories p/q2 and p; sets want (the mtime in s)
step_touch_d() {
  touch -d '2002-03-04 05:06:07' $MP/p/mode $MP/p/q2 $MP/p
  want=$(date -d '2002-03-04 05:06:07' +%s)
  expect_eq "mtime of a file after touch -d" "$want" "$(stat -c %Y $MP/p/mode)"
  expect_eq "mtime of a non-empty directory after touch -d" "$want" "$(stat -c %Y $MP/p/q2)"
  expect_eq "mtime of a non-empty directory (two levels) after touch -d" "$want" "$(stat -c %Y $MP/p)"
}
# step_truncate_append: truncate down and up (the grown end reads as zeros), then >> appends
step_truncate_append() {
  note "truncate, append"
  printf '0123456789' > $MP/p/trunc
  truncate -s 4 $MP/p/trunc
  expect_eq "content after truncate -s 4" 0123 "$(cat $MP/p/trunc)"
  truncate -s 4100 $MP/p/trunc
  expect_eq "size after truncate -s 4100" 4100 "$(stat -c %s $MP/p/trunc)"
  expect_eq "non-zero bytes after the grown end" 0 "$(tail -c 4096 $MP/p/trunc | tr -d '\000' | wc -c)"
  echo first > $MP/p/append; echo second >> $MP/p/append
  expect_eq "content after append" "first
second" "$(cat $MP/p/append)"
}
# step_df: df shows a size for the mount
step_df() {
  note "df"
  df -k $MP > /tmp/df.out || fail "df $MP failed"
  local blocks
  blocks=$(awk 'NR == 2 { print $2 }' /tmp/df.out)
  [ "${blocks:-0}" -gt 0 ] || fail "df shows no size: $(cat /tmp/df.out)"
  cat /tmp/df.out
}
# verify_shared LABEL TREE_MANIFEST: what the shared steps wrote, as it must look now (TREE_MANIFEST: the manifest
# the mount must show for tarx/tree and cpa)
verify_shared() {
  expect_eq "$1: sha256 of the big file" "$sum" "$(sha256sum < $MP/big)"
  expect_eq "$1: entries in small/" "$SMALL_FILES" "$(ls $MP/small | wc -l)"
  manifest $MP/tarx/tree > /tmp/tarx.manifest
  expect_same "$1: tar x tree" "$2" /tmp/tarx.manifest
  manifest $MP/cpa > /tmp/cpa.manifest
  expect_same "$1: cp -a tree" "$2" /tmp/cpa.manifest
  expect_eq "$1: file mtime" "$want" "$(stat -c %Y $MP/p/mode)"
  expect_eq "$1: non-empty dir mtime" "$want" "$(stat -c %Y $MP/p/q2)"
  expect_eq "$1: truncated size" 4100 "$(stat -c %s $MP/p/trunc)"
  expect_eq "$1: appended" "first
second" "$(cat $MP/p/append)"
}
