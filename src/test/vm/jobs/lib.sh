# Shell helpers of the guest's jobs (copied next to every job as /job/lib.sh; source it with `. /job/lib.sh`).
# A check that fails prints what differed and exits 1, so the job (set -eu) stops there with a clear message.
# Environment the host passes: NFS_HOST (default 10.0.2.2, the host's loopback), NFS_PORT, BUCKET.
NFS_HOST="${NFS_HOST:-10.0.2.2}"

fail() { echo "FAIL: $*"; exit 1; }
# expect_eq WHAT EXPECTED ACTUAL
expect_eq() { [ "$2" = "$3" ] || fail "$1: expected '$2', got '$3'"; }
# expect_file_eq WHAT FILE1 FILE2: the two files have the same bytes (a diff of their text on failure)
expect_same() { cmp -s "$2" "$3" || { diff "$2" "$3" | head -40; fail "$1: $2 and $3 differ"; }; }
note() { echo "== $*"; }
now_ms() { date +%s%3N; }
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
nfs_vers() { awk -v mp="$1" '$2 == mp { n = split($4, o, ","); for (i = 1; i <= n; i++) if (o[i] ~ /^vers=/) print substr(o[i], 6) }' /proc/mounts; }
# manifest DIR: one line per entry below DIR, sorted: path, type, mode, owner, mtime (files and directories),
# size and content hash (files), target (symlinks). Two trees are equal for cp -a / tar x when their manifests are.
manifest() {
  (cd "$1" && find . -mindepth 1 | LC_ALL=C sort | while IFS= read -r p; do
    if [ -L "$p" ]; then echo "$p link -> $(readlink "$p")"
    elif [ -d "$p" ]; then echo "$p dir $(stat -c '%a %u:%g mtime=%Y' "$p")"
    else echo "$p file $(stat -c '%a %u:%g mtime=%Y size=%s' "$p") $(sha256sum < "$p" | cut -c1-16)"
    fi
  done)
}
# dmesg_errors: the kernel's messages of level err or worse
dmesg_errors() { dmesg --level=emerg,alert,crit,err 2>/dev/null || true; }
