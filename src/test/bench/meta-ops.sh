#!/usr/bin/env bash
# Gateway CPU, wall time and OSS requests of FUSE metadata operations (issue 22 item 4; numbers in docs/benchmarks.md
# "FUSE metadata operations (issue 22 item 4)"), through one fresh mount per run:
#   rm cold   `rm DIR/*` of $RM files in a directory the mount never listed (the glob's readdir is part of it)
#   rm warm   the same after a `ls -l DIR` (attributes cached, only the unlinks left)
#   mv        `mv DIR DIR2` of a directory of $MV files (the directory stat'ed first, never listed)
# Each line: wall s, the gateway JVM's CPU-s (utime+stime from /proc/PID/stat; stime in brackets), the emulator's request counts per OSS
# API and the 1-minute load average. The objects (1 KiB, no x-oss-meta) are written by SeedObjects with the SDK, so
# the gateway has never seen them. ROUNDS=n repeats the three in new directories of the same mount (warmer JIT).
# Each line also gives the gateway's peak RSS so far (VmHWM, MiB). CLEAN=0 leaves the directories in the bucket (a
# big MV is then not removed file by file through the mount).
# CEILING=1 (the default; 0: none) adds, in each round after the gateway's three, the same requests sent straight to the
# endpoint by Alibaba's Go SDK (src/test/bench/keyops-ceiling, built here with `go build`): a rename of another seeded
# directory of $MV objects (ListObjectsV2 pages, CopyObject 32 in flight, DeleteMultipleObjects per page) and the
# DeleteObject of $RM keys one at a time: wall s, that process's CPU-s, the emulator's counts.
# THREADS=1 adds the gateway's CPU per thread group (thread names without their digits) for each operation.
# JFR=DIR records each operation with `jcmd PID JFR.start settings=profile jdk.ExecutionSample#period=1ms` (started
# before and dumped after the measured window) into DIR/ROUND-NAME.jfr; read with `jfr view hot-methods` or
# `jfr print --events jdk.ExecutionSample`.
#
# Usage (as root, from the repository root, after `./mvnw -B -q -DskipTests package -pl gateway-app,jmh -am`):
#   src/test/bench/meta-ops.sh LABEL [MOUNT_OPTIONS] [JAVA_OPTIONS]
# With ENDPOINT unset it starts the in-tree emulator (`./ossgw emulator`, in memory, bucket probe) and stops it on
# exit; with ENDPOINT=http://127.0.0.1:PORT it uses that one (bucket ${BUCKET:-probe}, keys ak/sk).
set -euo pipefail
LABEL=$1 OPTS=${2:-} JOPTS=${3:-} RM=${RM:-1000} MV=${MV:-2000}
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
EMU_PID=
if [ -z "${ENDPOINT:-}" ]; then
  pf=$(mktemp /tmp/meta-ops-port.XXXX); rm -f "$pf"
  OSSGW_NO_BUILD=1 "$ROOT/ossgw" emulator --port 0 --port-file "$pf" --bucket "${BUCKET:-probe}" --access-key ak \
    --secret-key sk >/tmp/meta-ops-emulator.log 2>&1 &
  EMU_PID=$!
  trap 'kill $EMU_PID 2>/dev/null' EXIT # until bench_mount's trap (which stops it too) replaces this one
  for _ in $(seq 600); do [ -s "$pf" ] && break; sleep 0.1; done
  ENDPOINT=http://127.0.0.1:$(cat "$pf"); rm -f "$pf"
fi
export ENDPOINT
seed() { java -cp "$ROOT/jmh/target/benchmarks.jar" io.ossgw.jmh.SeedObjects "$ENDPOINT" "${BUCKET:-probe}" ak sk \
  "prefix=$1/f" "count=$2" size=1k threads=16 >/dev/null; }
counters() { curl -s "$ENDPOINT/-/counters" | tr -d '{}"' | tr ',' '\n' | grep -v '^Bytes' | grep -v ':0$' | tr '\n' ' '; }
run=$(date +%s%N)
CEIL=
if [ "${CEILING:-1}" = 1 ]; then
  command -v go >/dev/null || { echo "meta-ops: CEILING=1 needs go (or CEILING=0)" >&2; exit 1; }
  CEIL="$ROOT/src/test/bench/target/keyops-ceiling"
  mkdir -p "$(dirname "$CEIL")"
  (cd "$ROOT/src/test/bench/keyops-ceiling" && go build -o "$CEIL" .)
fi
for r in $(seq "${ROUNDS:-1}"); do
  seed "rmc-$run-$r" "$RM"; seed "rmw-$run-$r" "$RM"; seed "mv-$run-$r" "$MV"
  [ -z "$CEIL" ] || { seed "crm-$run-$r" "$RM"; seed "cmv-$run-$r" "$MV"; }
done
. "$(dirname "$0")/fuse-mount.sh"
bench_mount meta-ops "${EMU_PID:+kill $EMU_PID}"
echo "$LABEL: start $(printf '%.2f' "$(echo "$(cpu)/$(getconf CLK_TCK)" | bc -l)") CPU-s, mounted in $MOUNT_S s"
# measure NAME COMMAND...: runs the command once, timed, with the emulator's counters reset before it
measure() {
  local name=$1; shift
  curl -s -XPOST "$ENDPOINT/-/counters/reset" >/dev/null
  local rec="${JFR:+$JFR/$r-${name// /-}.jfr}"
  [ -z "$rec" ] || jcmd "$PID" JFR.start name=meta-ops settings=profile jdk.ExecutionSample#period=1ms >/dev/null
  [ -z "${THREADS:-}" ] || threads >"$WORK/threads.0"
  local c0 t0 t1 c1 s0 s1; c0=$(cpu); s0=$(sys); t0=$(date +%s.%N); "$@"; t1=$(date +%s.%N); c1=$(cpu); s1=$(sys)
  [ -z "${THREADS:-}" ] || { threads >"$WORK/threads.1"; echo "  CPU-s by thread: $(awk -v hz="$(getconf CLK_TCK)" \
    'NR==FNR {a[$1]+=$2; next} {b[$1]+=$2} END {for (k in b) if (b[k]-a[k] > 0) printf "%s %.2f\n", k, (b[k]-a[k])/hz}' \
    "$WORK/threads.0" "$WORK/threads.1" | sort -k2 -rn | head -8 | tr '\n' ';')"; }
  [ -z "$rec" ] || jcmd "$PID" JFR.stop name=meta-ops filename="$rec" >/dev/null
  local hz; hz=$(getconf CLK_TCK)
  printf '%s round %d %s: %.2f s, %.2f gateway CPU-s (%.2f system); requests: %s; peak RSS so far %s MiB; load %s\n' \
    "$LABEL" "$r" "$name" "$(echo "$t1-$t0" | bc)" "$(echo "($c1-$c0)/$hz" | bc -l)" "$(echo "($s1-$s0)/$hz" | bc -l)" \
    "$(counters)" "$(awk '/VmHWM/ {print int($2/1024)}' "/proc/$PID/status")" "$(cut -d' ' -f1 /proc/loadavg)"
}
sys() { awk '{print $15}' "/proc/$PID/stat"; }
# threads: one line per gateway thread, "name-without-digits ticks" (utime+stime; the name is the field in brackets)
threads() {
  for t in /proc/"$PID"/task/*/stat; do sed -E 's/^[0-9]+ \((.*)\) [A-Z] (.*)$/\1\t\2/' "$t" 2>/dev/null; done |
    awk -F'\t' '{split($2, f, " "); n=$1; gsub(/[0-9]+/, "#", n); gsub(/ /, "_", n); print n, f[11]+f[12]}'
}
rm_all() { rm -- "$1"/*; }
for r in $(seq "${ROUNDS:-1}"); do
  measure "rm $RM cold" rm_all "$M/rmc-$run-$r"
  ls -l "$M/rmw-$run-$r" >/dev/null
  measure "rm $RM warm" rm_all "$M/rmw-$run-$r"
  stat "$M/mv-$run-$r" >/dev/null
  measure "mv $MV" mv "$M/mv-$run-$r" "$M/mv2-$run-$r"
  n=$(find "$M/mv2-$run-$r" -type f | wc -l)
  [ "$n" = "$MV" ] || { echo "mv left $n of $MV files under the new name" >&2; exit 1; }
  if [ -n "$CEIL" ]; then
    for op in rename delete; do
      curl -s -XPOST "$ENDPOINT/-/counters/reset" >/dev/null
      if [ $op = rename ]; then src="cmv-$run-$r/" dst="cmv2-$run-$r/"; else src="crm-$run-$r/" dst=; fi
      line=$("$CEIL" -endpoint "$ENDPOINT" -bucket "${BUCKET:-probe}" -op $op -src "$src" ${dst:+-dst "$dst"})
      echo "$LABEL round $r ceiling (Go SDK) $line; emulator counts: $(counters); load $(cut -d' ' -f1 /proc/loadavg)"
    done
    [ "${CLEAN:-1}" = 0 ] || "$CEIL" -endpoint "$ENDPOINT" -bucket "${BUCKET:-probe}" -op delete -src "cmv2-$run-$r/" >/dev/null
  fi
  [ "${CLEAN:-1}" = 0 ] || rm -rf "$M/mv2-$run-$r" "$M/rmc-$run-$r" "$M/rmw-$run-$r"
done
