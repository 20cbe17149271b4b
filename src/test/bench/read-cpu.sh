#!/usr/bin/env bash
# Gateway CPU of cold sequential reads of one big object through one fresh FUSE mount, read-only (dd-cpu.sh without
# its writes, for the read path's before/after runs: issue 14, docs/benchmarks.md "Read path").
# Usage (as root, emulator and ENDPOINT as in ls-cpu-curve.sh; another build with OSSGW=path/to/ossgw):
#   SEED=1 src/test/bench/read-cpu.sh seed        # once: writes read-cpu.bin of $MIB MiB through a mount
#   src/test/bench/read-cpu.sh LABEL [MOUNT_OPTIONS] [JAVA_OPTIONS]
# Reads the file ROUNDS=${ROUNDS:-3} times with `dd bs=1M`, its pages dropped before each (dd iflag=nocache count=0);
# per round: wall s, gateway CPU-s per GiB, voluntary context switches of the live threads per MiB (the hand-offs
# between FUSE threads, read-ahead threads and their futures; threads that ended meanwhile are not counted).
set -euo pipefail
LABEL=$1 OPTS=${2:-} JOPTS=${3:-} MIB=${MIB:-1024} ROUNDS=${ROUNDS:-3}
. "$(dirname "$0")/fuse-mount.sh"
bench_mount read-cpu
F="$M/read-cpu.bin"
if [[ -n "${SEED:-}" ]]; then
  dd if=/dev/urandom of="$F" bs=1M count="$MIB" conv=fsync status=none; echo "seeded $MIB MiB"; exit 0
fi
csw() { cat /proc/"$PID"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ {s+=$2} END {print s}'; }
out="$LABEL:"
for r in $(seq "$ROUNDS"); do
  dd if="$F" iflag=nocache count=0 status=none
  c0=$(cpu); s0=$(csw); t0=$(date +%s.%N)
  dd if="$F" of=/dev/null bs=1M status=none
  t1=$(date +%s.%N); c1=$(cpu); s1=$(csw)
  out="$out $(printf '%.1f s / %.2f CPU-s / %.0f csw per MiB;' "$(echo "$t1-$t0" | bc)" \
    "$(echo "($c1-$c0)/$(getconf CLK_TCK)*1024/$MIB" | bc -l)" "$(echo "($s1-$s0)/$MIB" | bc -l)")"
done
echo "$out ${MIB} MiB, load $(cut -d' ' -f1 /proc/loadavg)"
