#!/usr/bin/env bash
# Gateway CPU of cold reads of small objects through one fresh FUSE mount (issue 14: CPU per 1,000 GET): lists each
# directory (ls -l), then reads every file of it with one `cat` (one GetObject each), directory after directory.
# Usage (as root, emulator, seeded directories and ENDPOINT as in ls-cpu-curve.sh):
#   src/test/bench/get-cpu.sh LABEL [MOUNT_OPTIONS] [JAVA_OPTIONS]
set -euo pipefail
LABEL=$1 OPTS=${2:-} JOPTS=${3:-}
. "$(dirname "$0")/fuse-mount.sh"
bench_mount get-cpu
out="$LABEL:"
for d in ${DIRS:-ls ls2 ls3}; do
  ls -l "$M/$d" >/dev/null
  curl -s -XPOST "$ENDPOINT/-/counters/reset" >/dev/null
  c0=$(cpu); t0=$(date +%s.%N); (cd "$M/$d" && cat -- * >/dev/null); t1=$(date +%s.%N); c1=$(cpu)
  g=$(curl -s "$ENDPOINT/-/counters" | grep -o '"GetObject":[0-9]*' || echo '"GetObject":0')
  out="$out $(printf '%s %.2f s / %.2f CPU-s %s;' "$d" "$(echo "$t1-$t0" | bc)" "$(echo "($c1-$c0)/$(getconf CLK_TCK)" | bc -l)" "$g")"
done
echo "$out load $(cut -d' ' -f1 /proc/loadavg)"
