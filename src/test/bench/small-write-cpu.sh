#!/usr/bin/env bash
# Gateway CPU per small file written through one fresh FUSE mount (issue 14, "Write staging in memory" in
# docs/benchmarks.md): N files of SIZE bytes (default 2,000 x 128 KiB), each one `dd` (one open, one write per 128 KiB,
# close), THREADS at once, into a new directory; ROUNDS rounds on the same mount (the first pays the JIT).
# Usage (as root, emulator and ENDPOINT as in ls-cpu-curve.sh): src/test/bench/small-write-cpu.sh LABEL [MOUNT_OPTIONS] [JAVA_OPTIONS]
#   e.g. JAVA_OPTIONS=-Dio.ossgw.write.memory=false stages every file in the spool, as before staging in memory.
# Prints per round: wall seconds, files/s, gateway CPU seconds (utime+stime from /proc) and CPU-ms per file.
set -euo pipefail
LABEL=$1 OPTS=${2:-} JOPTS=${3:-} N=${N:-2000} SIZE=${SIZE:-131072} THREADS=${THREADS:-32} ROUNDS=${ROUNDS:-2}
. "$(dirname "$0")/fuse-mount.sh"
bench_mount small-write
head -c "$SIZE" /dev/urandom >"$WORK/src.bin"
out="$LABEL:"
for r in $(seq "$ROUNDS"); do
  d="$M/sw-$$-$r"; mkdir "$d"
  c0=$(cpu); t0=$(date +%s.%N)
  seq "$N" | xargs -P "$THREADS" -I{} dd if="$WORK/src.bin" of="$d/f{}" bs=128k status=none
  t1=$(date +%s.%N); c1=$(cpu)
  cmp "$WORK/src.bin" "$d/f$N"
  w=$(echo "$t1-$t0" | bc -l); c=$(echo "($c1-$c0)/$(getconf CLK_TCK)" | bc -l)
  out="$out $(printf 'round %d %.1f s %.0f files/s %.2f CPU-s %.2f CPU-ms/file;' "$r" "$w" "$(echo "$N/$w" | bc -l)" "$c" \
    "$(echo "1000*$c/$N" | bc -l)")"
  rm -rf "$d"
done
echo "$out $N x $SIZE B, $THREADS threads, load $(cut -d' ' -f1 /proc/loadavg)"
