#!/usr/bin/env bash
# CPU of cold `ls -l` through one fresh FUSE mount, directory after directory (issue 14 items 2 and 4; numbers in
# docs/benchmarks.md "CPU per OSS request"). The first directory pays the JIT of a just-started gateway, the later ones
# show how the cost falls as it warms. Each directory holds objects the gateway has never seen (fresh state_dir).
#
# Usage (as root, from the repository root, after `./mvnw -B -q -DskipTests package -pl gateway-app,jmh -am`):
#   ./ossgw emulator --port 0 --port-file /tmp/p --bucket probe --access-key ak --secret-key sk &
#   for d in ls ls2 ls3 ls4 ls5; do java -cp jmh/target/benchmarks.jar io.ossgw.jmh.SeedObjects \
#       http://127.0.0.1:$(cat /tmp/p) probe ak sk prefix=$d/ count=3000 size=1k threads=16; done
#   ENDPOINT=http://127.0.0.1:$(cat /tmp/p) src/test/bench/ls-cpu-curve.sh LABEL [MOUNT_OPTIONS] [JAVA_OPTIONS]
# Prints the gateway's CPU seconds to start and mount (and the wall seconds until mounted), then per directory: wall seconds / gateway CPU seconds (utime+stime from /proc) and the HEADs it cost.
set -euo pipefail
LABEL=$1 OPTS=${2:-} JOPTS=${3:-}
. "$(dirname "$0")/fuse-mount.sh"
bench_mount ls-cpu
out="$LABEL: start $(printf '%.2f' "$(echo "$(cpu)/$(getconf CLK_TCK)" | bc -l)") CPU-s, mounted in $MOUNT_S s;"
for d in ${DIRS:-ls ls2 ls3 ls4 ls5}; do
  stat "$M/$d" >/dev/null; sleep 1
  curl -s -XPOST "$ENDPOINT/-/counters/reset" >/dev/null
  c0=$(cpu); t0=$(date +%s.%N); ls -l "$M/$d" >/dev/null; t1=$(date +%s.%N); c1=$(cpu)
  h=$(curl -s "$ENDPOINT/-/counters" | grep -o '"HeadObject":[0-9]*' || echo '"HeadObject":0')
  out="$out $(printf '%s %.2f s / %.2f CPU-s %s;' "$d" "$(echo "$t1-$t0" | bc)" "$(echo "($c1-$c0)/$(getconf CLK_TCK)" | bc -l)" "$h")"
done
echo "$out load $(cut -d' ' -f1 /proc/loadavg)"
