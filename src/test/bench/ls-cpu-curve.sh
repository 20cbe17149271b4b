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
# CEILING=1 adds, after each directory's `ls -l`, the same requests sent straight to the endpoint by Alibaba's Go SDK
# (src/test/bench/keyops-ceiling -op stat: ListObjectsV2 pages and a HeadObject per object, 20 in flight as
# multireq_max; built with `go build`): "ceiling WALL s / CPU-s" of that process. EMU_PID=(the emulator's pid) adds
# the emulator's CPU-s over each ("emulator X CPU-s").
set -euo pipefail
LABEL=$1 OPTS=${2:-} JOPTS=${3:-}
CEIL=
if [ "${CEILING:-0}" = 1 ]; then
  CEIL="$(cd "$(dirname "$0")" && pwd)/target/keyops-ceiling"
  mkdir -p "$(dirname "$CEIL")"
  (cd "$(dirname "$0")/keyops-ceiling" && go build -o "$CEIL" .)
fi
. "$(dirname "$0")/fuse-mount.sh"
bench_mount ls-cpu
# emu: the emulator's utime+stime in ticks (0 without EMU_PID); emu_delta A B: ", emulator X CPU-s" or nothing
emu() { if [ -n "${EMU_PID:-}" ]; then awk '{print $14+$15}' "/proc/$EMU_PID/stat"; else echo 0; fi; }
emu_delta() { [ -z "${EMU_PID:-}" ] || printf ', emulator %.2f CPU-s' "$(echo "($2-$1)/$(getconf CLK_TCK)" | bc -l)"; }
out="$LABEL: start $(printf '%.2f' "$(echo "$(cpu)/$(getconf CLK_TCK)" | bc -l)") CPU-s, mounted in $MOUNT_S s;"
for d in ${DIRS:-ls ls2 ls3 ls4 ls5}; do
  stat "$M/$d" >/dev/null; sleep 1
  curl -s -XPOST "$ENDPOINT/-/counters/reset" >/dev/null
  e0=$(emu); c0=$(cpu); t0=$(date +%s.%N); ls -l "$M/$d" >/dev/null; t1=$(date +%s.%N); c1=$(cpu); e1=$(emu)
  h=$(curl -s "$ENDPOINT/-/counters" | grep -o '"HeadObject":[0-9]*' || echo '"HeadObject":0')
  out="$out $(printf '%s %.2f s / %.2f CPU-s %s%s;' "$d" "$(echo "$t1-$t0" | bc)" "$(echo "($c1-$c0)/$(getconf CLK_TCK)" | bc -l)" "$h" "$(emu_delta "$e0" "$e1")")"
  if [ -n "$CEIL" ]; then
    sleep 1
    e0=$(emu)
    line=$("$CEIL" -endpoint "$ENDPOINT" -bucket "${BUCKET:-probe}" -op stat -parallel 20 -src "$d/")
    e1=$(emu)
    out="$out ceiling $(sed -E 's/^stat ([0-9]+) objects: ([0-9.]+) s, ([0-9.]+) CPU-s.*/\2 s \/ \3 CPU-s (\1 HEADs)/' <<<"$line")$(emu_delta "$e0" "$e1");"
  fi
done
echo "$out load $(cut -d' ' -f1 /proc/loadavg)"
