# Sourced by the FUSE CPU benchmarks (ls-cpu-curve.sh, get-cpu.sh, dd-cpu.sh, touch-cpu.sh): their common start-up.
# bench_mount NAME [EXIT_COMMANDS]: mounts bucket ${BUCKET:-probe} of $ENDPOINT with a fresh `./ossgw mount` (no
# build; keys $AK/$SK, default ak/sk; mount options $OPTS; JVM options $JOPTS; another launcher, e.g. a copy of
# another build's, with OSSGW=path/to/ossgw) on a new temporary directory /tmp/NAME.XXXX, and sets WORK (that
# directory), M (the mount point), PID (the gateway's JVM) and MOUNT_S (wall seconds from the launcher's start until
# `ossgw mount` returned, i.e. the file system is mounted). On exit it runs
# EXIT_COMMANDS (evaluated then, e.g. 'rm -f "$M/file"'), unmounts and removes WORK.
# cpu: the gateway's CPU so far in clock ticks (utime + stime from /proc/PID/stat); secs: ticks to seconds.
BENCH_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"

bench_mount() {
  WORK=$(mktemp -d "/tmp/$1.XXXX"); M=$WORK/mnt; mkdir -p "$M"
  export OSSGW_NO_BUILD=1 OSS_ACCESS_KEY_ID=${AK:-ak} OSS_ACCESS_KEY_SECRET=${SK:-sk}
  local t0; t0=$(date +%s.%N)
  OSSGW_JAVA_OPTS="$JOPTS" "${OSSGW:-$BENCH_ROOT/ossgw}" mount "${BUCKET:-probe}" "$M" \
    -o "url=$ENDPOINT,state_dir=$WORK/state${OPTS:+,$OPTS}" >"$WORK/mount.log" 2>&1
  MOUNT_S=$(printf '%.2f' "$(echo "$(date +%s.%N)-$t0" | bc)")
  trap "${2:+$2; }"'fusermount -u "$M" 2>/dev/null || true; rm -rf "$WORK"' EXIT
  PID=$(pgrep -f "quarkus-run.jar mount ${BUCKET:-probe} $M" | head -1)
}

cpu() { awk '{print $14+$15}' "/proc/$PID/stat"; }
# secs T0 T1: the clock ticks between two cpu readings, in seconds (2 decimals).
secs() { printf '%.2f' "$(echo "($2-$1)/$(getconf CLK_TCK)" | bc -l)"; }
