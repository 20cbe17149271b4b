#!/usr/bin/env bash
# `mv` of a big directory through a fresh FUSE mount, inside a memory limit (numbers in docs/benchmarks.md "Directory
# rename one listing page at a time"): N objects of 1 KiB written with jmh's SeedObjects (never seen by the gateway),
# `ossgw mount -o memory_limit=256` (or OPTS), `stat` of the directory, then `mv DIR DIR2` timed; with LS=1 an `ls` of
# the renamed directory on the same mount follows (the default mode: a HEAD per entry). Per step: the result, wall s,
# the gateway's CPU-s (utime+stime from /proc), its peak RSS (VmHWM) and the 1-minute load; then the emulator's request
# counts and any WARN/FATAL line of the gateway's log. MV=0 leaves the `mv` out: the `ls` of the seeded directory alone;
# LIST=find lists with `find` instead of `ls`. OSSGW_JAVA_OPTS goes to the gateway only, not to the emulator.
#
# Usage (root, from the repository root, after `./mvnw -B -q -DskipTests package -pl gateway-app,jmh -am`):
#   src/test/bench/mv-big.sh N [OPTS]          e.g. src/test/bench/mv-big.sh 100000
# It starts the in-tree emulator (in memory; a million objects take about 7 GB of its heap) and stops it on exit.
set -uo pipefail
N=$1 OPTS=${2:-memory_limit=256}
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
export PATH=$JAVA_HOME/bin:$PATH OSSGW_NO_BUILD=1
W=$(mktemp -d /tmp/mv-big.XXXX); mkdir -p "$W/mnt" "$W/state"
EMU="" PID=""
cleanup() {
  mountpoint -q "$W/mnt" && { fusermount -u "$W/mnt" 2>/dev/null || fusermount -u -z "$W/mnt"; }
  [ -n "$PID" ] && kill "$PID" 2>/dev/null
  [ -n "$EMU" ] && { kill "$EMU" 2>/dev/null; wait "$EMU" 2>/dev/null; }
  rm -rf "$W"
}
trap cleanup EXIT
OSSGW_JAVA_OPTS= "$ROOT/ossgw" emulator --port 0 --port-file "$W/port" --bucket probe --access-key ak --secret-key sk \
  >"$W/emu.log" 2>&1 &
EMU=$!
for _ in $(seq 600); do [ -s "$W/port" ] && break; sleep 0.1; done
EP=http://127.0.0.1:$(cat "$W/port")
java -cp "$ROOT/jmh/target/benchmarks.jar" io.ossgw.jmh.SeedObjects "$EP" probe ak sk prefix=big/f "count=$N" size=1k \
  threads="${SEED_THREADS:-16}" >/dev/null 2>&1 || { echo "seeding failed" >&2; exit 1; }
echo "probe:ak:sk" >"$W/pw"; chmod 600 "$W/pw"
"$ROOT/ossgw" mount probe "$W/mnt" -o "url=$EP,passwd_file=$W/pw,$OPTS,logfile=$W/gw.log,state_dir=$W/state"
for _ in $(seq 300); do mountpoint -q "$W/mnt" && break; sleep 0.1; done
PID=$(pgrep -f "mount probe $W/mnt" | tail -1)
cpu() { awk '{print $14+$15}' "/proc/$PID/stat" 2>/dev/null || echo 0; }
hwm() { awk '/VmHWM/ {print int($2/1024)}' "/proc/$PID/status" 2>/dev/null; }
# step NAME COMMAND...: runs the command once, timed
step() {
  local name=$1; shift; local c0 t0 out; c0=$(cpu); t0=$(date +%s.%N)
  out=$("$@" 2>&1 | tail -1)
  printf '%s of %s: %s; %.2f s, %.2f gateway CPU-s, peak RSS %s MiB, load %s\n' "$name" "$N" "$out" \
    "$(echo "$(date +%s.%N)-$t0" | bc)" "$(echo "($(cpu)-$c0)/$(getconf CLK_TCK)" | bc -l)" "$(hwm)" \
    "$(cut -d' ' -f1 /proc/loadavg)"
}
count() { if [ "${LIST:-ls}" = find ]; then find "$1" | wc -l; else ls "$1" | wc -l; fi; }
stat "$W/mnt/big" >/dev/null
curl -s -XPOST "$EP/-/counters/reset" >/dev/null
if [ "${MV:-1}" = 1 ]; then
  step mv mv -v "$W/mnt/big" "$W/mnt/big2"
  [ "${LS:-0}" = 1 ] && step ls count "$W/mnt/big2"
else
  step ls count "$W/mnt/big"
fi
echo "requests: $(curl -s "$EP/-/counters" | tr -d '{}"' | tr ',' '\n' | grep -v '^Bytes' | grep -v ':0$' | tr '\n' ' ')"
fusermount -u "$W/mnt" 2>/dev/null # the gateway logs its listed-names count as it stops
for _ in $(seq 300); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
grep -E "FATAL|WARN|listed names" "$W/gw.log" | head -4 | cut -c1-250
