#!/usr/bin/env bash
# N concurrent sequential readers (`dd bs=1M`) of N objects through one fresh FUSE mount with direct_read: the harness's
# "concurrent direct_read" workload (bench.py step_dr) as a small script, for the read path's before/after runs
# (issue 14 item 5; numbers in docs/benchmarks.md "Read path"). Prints wall time of the last reader, MB/s, the
# gateway's CPU-s per GiB, its peak RSS (VmHWM), CPU-s per thread group (read-ahead, FUSE, GC, JIT, other) and load.
# Usage (as root, emulator and ENDPOINT as in ls-cpu-curve.sh; another build with OSSGW=path/to/ossgw):
#   SEED=1 src/test/bench/dr-readers.sh seed      # once: writes dr/f0..f{N-1} of $MIB MiB through a mount
#   src/test/bench/dr-readers.sh LABEL [MOUNT_OPTIONS] [JAVA_OPTIONS]
# N=${N:-10} readers, MIB=${MIB:-256} MiB each. MOUNT_OPTIONS default: direct_read.
set -euo pipefail
LABEL=$1 OPTS=${2:-direct_read} JOPTS=${3:-} N=${N:-10} MIB=${MIB:-256}
. "$(dirname "$0")/fuse-mount.sh"
bench_mount dr-readers
if [[ -n "${SEED:-}" ]]; then
  mkdir -p "$M/dr"
  for i in $(seq 0 $((N - 1))); do dd if=/dev/urandom of="$M/dr/f$i" bs=1M count="$MIB" conv=fsync status=none; done
  echo "seeded $N x $MIB MiB"; exit 0
fi
# CPU ticks per thread group: read-ahead GET threads, FUSE loop threads, GC, JIT compilers, the rest
groups() {
  for t in /proc/"$PID"/task/*; do
    n=$(cat "$t/comm" 2>/dev/null) || continue
    s=$(sed 's/.*) //' "$t/stat" 2>/dev/null | awk '{print $12+$13}') || continue  # fields after the (comm)
    case "$n" in
      ossgw-read-ahea*|ForkJoinPool*|VirtualThread*) g=readahead ;;
      Thread-*|ossgw-fuse*|fuse*|jfuse*) g=fuse ;;
      G1*|GC*|"VM Thread") g=gc ;;
      *Poller*) g=poller ;;
      C1*|C2*) g=jit ;;
      *) g=other ;;
    esac
    echo "$g $s"
  done | awk '{a[$1]+=$2} END {for (g in a) printf "%s=%d ", g, a[g]}'
}
ls -l "$M/dr" >/dev/null
g0=$(groups); c0=$(cpu); t0=$(date +%s.%N)
pids=()
for i in $(seq 0 $((N - 1))); do
  (dd if="$M/dr/f$i" of=/dev/null bs=1M status=none; date +%s.%N > "$WORK/done$i") & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
# fairness: when the first and the last reader finished, in seconds from the start
spread=$(cat "$WORK"/done* | sort -n | awk -v t0="$t0" 'NR==1 {f=$1} {l=$1} END {printf "first done %.2f s, last %.2f s", f-t0, l-t0}')
t1=$(date +%s.%N); c1=$(cpu); g1=$(groups)
hwm=$(awk '/VmHWM/ {print int($2/1024)}' "/proc/$PID/status")
wall=$(echo "$t1-$t0" | bc)
gib=$(echo "$N*$MIB/1024" | bc -l)
printf '%s: %d x %d MiB in %.2f s = %.0f MB/s, %.2f CPU-s/GiB, peak RSS %d MiB, %s, load %s\n' "$LABEL" "$N" "$MIB" \
  "$wall" "$(echo "$N*$MIB*1048576/1000000/$wall" | bc -l)" "$(echo "($c1-$c0)/$(getconf CLK_TCK)/$gib" | bc -l)" \
  "$hwm" "$spread" "$(cut -d' ' -f1 /proc/loadavg)"
echo "  ticks before: $g0"
echo "  ticks after:  $g1"
