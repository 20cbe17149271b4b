#!/usr/bin/env bash
# Gateway CPU of a 1 GiB `dd` write (conv=fsync) and a cold read of it through one fresh FUSE mount, to compare JVM
# start-up modes on the data path (issue 14; numbers in docs/benchmarks.md "Start-up and per-request CPU").
# Usage (as root, emulator and ENDPOINT as in ls-cpu-curve.sh): src/test/bench/dd-cpu.sh LABEL [MOUNT_OPTIONS] [JAVA_OPTIONS]
# The read is cold: the file's pages are dropped first (dd iflag=nocache count=0, i.e. POSIX_FADV_DONTNEED).
set -euo pipefail
LABEL=$1 OPTS=${2:-} JOPTS=${3:-} MIB=${MIB:-1024} ROUNDS=${ROUNDS:-2}
. "$(dirname "$0")/fuse-mount.sh"
bench_mount dd-cpu 'rm -f "$M/dd-cpu.bin"'
secs() { printf '%.2f' "$(echo "($2-$1)/$(getconf CLK_TCK)" | bc -l)"; }
out="$LABEL:"
for r in $(seq "$ROUNDS"); do
  c0=$(cpu); t0=$(date +%s.%N)
  dd if=/dev/zero of="$M/dd-cpu.bin" bs=1M count="$MIB" conv=fsync status=none
  t1=$(date +%s.%N); c1=$(cpu)
  dd if="$M/dd-cpu.bin" iflag=nocache count=0 status=none
  c2=$(cpu); t2=$(date +%s.%N)
  dd if="$M/dd-cpu.bin" of=/dev/null bs=1M status=none
  t3=$(date +%s.%N); c3=$(cpu)
  out="$out $(printf 'write %.1f s / %s CPU-s, read %.1f s / %s CPU-s;' "$(echo "$t1-$t0" | bc)" "$(secs "$c0" "$c1")" \
    "$(echo "$t3-$t2" | bc)" "$(secs "$c2" "$c3")")"
done
echo "$out ${MIB} MiB, load $(cut -d' ' -f1 /proc/loadavg)"
