#!/usr/bin/env bash
# Gateway CPU and OSS requests of 1,000 `touch` processes creating new files through one fresh FUSE mount (issue 14
# item 4; numbers in docs/benchmarks.md "Start-up and per-request CPU"). Each file is its own `touch` (coreutils:
# open O_CREAT, dup2 to fd 0, close, futimens, close), in a directory the gateway created and listed.
# ROUNDS=n repeats it in new directories of the same mount (a warmer JIT each round).
# Usage (as root, emulator and ENDPOINT as in ls-cpu-curve.sh): src/test/bench/touch-cpu.sh LABEL [MOUNT_OPTIONS] [JAVA_OPTIONS]
set -euo pipefail
LABEL=$1 OPTS=${2:-} JOPTS=${3:-} N=${N:-1000}
. "$(dirname "$0")/fuse-mount.sh"
bench_mount touch-cpu 'rm -rf "${D:-}"'
D=$M/touch-$(date +%s%N)
mkdir "$D"
for r in $(seq "${ROUNDS:-1}"); do
  mkdir "$D/$r"; ls "$D/$r" >/dev/null
  curl -s -XPOST "$ENDPOINT/-/counters/reset" >/dev/null
  c0=$(cpu); t0=$(date +%s.%N)
  for i in $(seq "$N"); do touch "$D/$r/f$i"; done
  t1=$(date +%s.%N); c1=$(cpu)
  req=$(curl -s "$ENDPOINT/-/counters" | tr -d '{}"' | tr ',' '\n' | grep -v '^Bytes' | grep -v ':0$' | tr '\n' ' ')
  printf '%s round %d: %d touch in %.2f s (%.0f/s), %.2f gateway CPU-s; requests: %s; load %s\n' "$LABEL" "$r" "$N" \
    "$(echo "$t1-$t0" | bc)" "$(echo "$N/($t1-$t0)" | bc -l)" "$(echo "($c1-$c0)/$(getconf CLK_TCK)" | bc -l)" "$req" \
    "$(cut -d' ' -f1 /proc/loadavg)"
done
