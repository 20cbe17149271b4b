#!/usr/bin/env bash
# Gateway CPU of a 512 MiB file copied in (nfs-cp) and read back (nfs-cat) through `ossgw serve BUCKET --nfs` (quick
# form against the emulator at ENDPOINT), 3 rounds in one gateway, to compare JVM modes on the NFS data path (issue 14;
# docs/benchmarks.md "Start-up and per-request CPU"). Usage (emulator and ENDPOINT as in ls-cpu-curve.sh; libnfs-utils):
#   src/test/bench/nfs-cpu.sh LABEL [JAVA_OPTIONS]
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
LABEL=$1 JOPTS=${2:-}; LABEL_ID=$(date +%s%N)
export OSSGW_NO_BUILD=1 OSS_ACCESS_KEY_ID=${AK:-ak} OSS_ACCESS_KEY_SECRET=${SK:-sk}
W=$(mktemp -d /tmp/nfs-cpu.XXXX)
head -c $((512<<20)) /dev/zero > $W/src.bin 2>/dev/null || true
P=$(( 20000 + RANDOM % 20000 )); H=$(( 40000 + RANDOM % 20000 ))
# `serve` keeps its NFS handle table under ossgw.state-dir (default /var/lib/ossgw as root, locked by any other serve
# of the machine), not under the -o state_dir of the engine: a directory of this run's own for both
OSSGW_JAVA_OPTS="$JOPTS -Dquarkus.http.port=$H -Dossgw.state-dir=$W/state" "$ROOT/ossgw" serve "${BUCKET:-probe}" --nfs --nfs-port $P -o "url=$ENDPOINT,state_dir=$W/state" > $W/serve.log 2>&1 &
SP=$!
trap 'kill $SP 2>/dev/null; wait $SP 2>/dev/null; rm -rf $W' EXIT
for i in $(seq 300); do grep -q "NFS" $W/serve.log 2>/dev/null && nc -z 127.0.0.1 $P 2>/dev/null && break; sleep 1; done  # a loaded machine starts slowly
sleep 2
JP=$SP
cpu() { awk '{print $14+$15}' /proc/$JP/stat; }
out="$LABEL:"
for r in 1 2 3; do
  : > $W/back.bin; c0=$(cpu); nfs-cp $W/src.bin "nfs://127.0.0.1/${BUCKET:-probe}/nfs-$LABEL_ID-$r.bin?nfsport=$P&mountport=$P&version=3" >/dev/null; c1=$(cpu)
  nfs-cat "nfs://127.0.0.1/${BUCKET:-probe}/nfs-$LABEL_ID-$r.bin?nfsport=$P&mountport=$P&version=3" > $W/back.bin; c2=$(cpu)
  cmp -s $W/src.bin $W/back.bin || echo "MISMATCH round $r"
  out="$out write $(echo "($c1-$c0)/$(getconf CLK_TCK)" | bc -l | xargs printf '%.2f') read $(echo "($c2-$c1)/$(getconf CLK_TCK)" | bc -l | xargs printf '%.2f');"
done
echo "$out 512 MiB via NFS, CPU-s; load $(cut -d' ' -f1 /proc/loadavg)"
