# Shell helpers of the guest's jobs (copied next to every job as /job/lib.sh; source it with `. /job/lib.sh`).
# A check that fails prints what differed and exits 1, so the job (set -eu) stops there with a clear message.
# Environment the host passes: NFS_HOST (default 10.0.2.2, the host's loopback), NFS_PORT, BUCKET.
NFS_HOST="${NFS_HOST:-10.0.2.2}"

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
