#!/usr/bin/env bash
# Where a warm `ossgw serve --nfs` spends its CPU on one nfs-ceiling.sh workload, with every Java frame named (JIT
# compiled, inlined, interpreted) and the kernel's frames under them: async-profiler (tools.profiler:async-profiler
# from Maven Central, loaded into the running gateway with `jcmd JVMTI.agent_load`), which perf's JIT map cannot give
# (inlined frames, interpreted ones). Numbers: docs/benchmarks.md "Eleventh pass".
#
# Usage (root, from a tree whose gateway is built: ./mvnw -B -q -DskipTests package -pl gateway-app -am):
#   src/test/bench/nfs-profile.sh write|small
# Starts an in-memory `./ossgw emulator` and `./ossgw serve --nfs` (launcher defaults; OSSGW_AOT=0), runs the workload
# WARMUP times unprofiled (the JIT's warm-up), then N times under the profiler (CPU samples every INTERVAL), and
# prints the gateway's CPU per pass and a summary (nfsprofile.py) of the collapsed stacks it writes to OUT.
# Workloads (nfsload.c, as nfs-ceiling.sh): write = 1 file of SIZE_MIB MiB in 1 MiB UNSTABLE WRITEs, 16 in flight,
# then COMMIT; small = 16 processes creating 2,000 files of 128 KiB in the export's root.
# Environment: N=3 WARMUP=2 SIZE_MIB=1024 INTERVAL=1ms OUT=/var/tmp/nfs-profile-<workload>.collapsed
#   AP_VERSION=4.2 (async-profiler, fetched once into src/test/bench/target/)  GW_JAVA_OPTS (more JVM options)
set -euo pipefail
HERE="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
WHAT=${1:?usage: nfs-profile.sh write|small}
N=${N:-3} WARMUP=${WARMUP:-2} SIZE_MIB=${SIZE_MIB:-1024} INTERVAL=${INTERVAL:-1ms}
OUT=${OUT:-/var/tmp/nfs-profile-$WHAT.collapsed}
AP_VERSION=${AP_VERSION:-4.2}
die() { echo "nfs-profile: $*" >&2; exit 1; }
[[ "$WHAT" == write || "$WHAT" == small ]] || die "workload is write or small, not $WHAT"
[[ -f "$ROOT/gateway-app/target/quarkus-app/quarkus-run.jar" ]] || die "no built gateway under $ROOT"
# the JDK 25 the launcher would pick (jcmd and jfr for the profiles)
. "$HERE/jdk.sh"
[[ -x "${JAVA_HOME:-}/bin/jcmd" ]] || die "no JDK 25 or newer (JAVA_HOME, /usr/lib/jvm/*)"

TARGET="$HERE/target"
AP="$TARGET/async-profiler-$AP_VERSION/linux-x64/libasyncProfiler.so"
if [[ ! -f "$AP" ]]; then
  mkdir -p "$TARGET/async-profiler-$AP_VERSION"
  jar="async-profiler-$AP_VERSION-linux-x64.jar"
  curl -fsS -o "$TARGET/$jar" "https://repo1.maven.org/maven2/tools/profiler/async-profiler/$AP_VERSION/$jar" ||
    die "cannot fetch $jar from Maven Central"
  (cd "$TARGET/async-profiler-$AP_VERSION" && unzip -q -o "../$jar" 'linux-x64/*')
fi
NFSLOAD="$TARGET/nfsload"
# shellcheck disable=SC2046
gcc -O2 -Wall -o "$NFSLOAD" "$HERE/nfsload.c" $(pkg-config --cflags --libs libnfs) ||
  die "cannot build nfsload.c (Debian: libnfs-dev gcc pkg-config)"

W=$(mktemp -d /var/tmp/nfs-profile.XXXX)
EMU= GW=
cleanup() {
  [[ -z "$GW" ]] || { kill "$GW" 2>/dev/null; wait "$GW" 2>/dev/null || true; }
  [[ -z "$EMU" ]] || { kill "$EMU" 2>/dev/null; wait "$EMU" 2>/dev/null || true; }
  rm -rf "$W"
}
trap cleanup EXIT
export OSSGW_NO_BUILD=1 OSSGW_AOT=0 OSS_ACCESS_KEY_ID=ak OSS_ACCESS_KEY_SECRET=sk
"$ROOT/ossgw" emulator --port 0 --port-file "$W/emulator.port" --bucket bench --access-key ak --secret-key sk \
  >"$W/emulator.log" 2>&1 &
EMU=$!
for _ in $(seq 300); do [[ -s "$W/emulator.port" ]] && break; sleep 0.2; done
[[ -s "$W/emulator.port" ]] || die "the emulator did not start: $(tail -5 "$W/emulator.log")"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
PORT=$(free_port)
OSSGW_JAVA_OPTS="-Dquarkus.http.port=$(free_port) -Dossgw.state-dir=$W/gateway -XX:+EnableDynamicAgentLoading \
${GW_JAVA_OPTS:-}" "$ROOT/ossgw" serve bench --nfs --nfs-port "$PORT" \
  -o "url=http://127.0.0.1:$(cat "$W/emulator.port"),state_dir=$W/state,tmpdir=$W/spool" >"$W/gateway.log" 2>&1 &
GW=$!
for _ in $(seq 300); do (echo >"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.2; done
JPID=$(pgrep -f "quarkus-run.jar serve bench --nfs --nfs-port $PORT" | head -1)
[[ -n "$JPID" ]] || die "the gateway did not start: $(tail -5 "$W/gateway.log")"

url() { echo "nfs://127.0.0.1/bench/$1?version=3&nfsport=$PORT&mountport=$PORT"; }
pass() {  # one pass of the workload on names of its own
  if [[ "$WHAT" == write ]]; then
    "$NFSLOAD" write "$(url "seq-$1.bin")" "$SIZE_MIB" 16 >/dev/null
  else
    local ps=() p
    for p in $(seq 0 15); do "$NFSLOAD" small "$(url "small-$1-p$p")" 125 128 >/dev/null & ps+=($!); done
    for p in "${ps[@]}"; do wait "$p" || die "an nfsload small process failed"; done
  fi
}
cpu() { awk '{print $14 + $15}' "/proc/$JPID/stat"; }
secs() { printf '%.2f' "$(echo "($2 - $1) / $(getconf CLK_TCK)" | bc -l)"; }
# jcmd splits its arguments at commas unless they are quoted
agent() { "$JAVA_HOME/bin/jcmd" "$JPID" JVMTI.agent_load "$AP" "'$1'" | grep -q "return code: 0" || die "async-profiler: $1"; }
for i in $(seq "$WARMUP"); do pass "warmup$i"; done
agent "start,event=cpu,interval=$INTERVAL"
line="$WHAT, gateway CPU-s per pass:"
for i in $(seq "$N"); do
  c0=$(cpu); pass "profiled$i"; c1=$(cpu)
  line="$line $(secs "$c0" "$c1")"
done
agent "stop,file=$OUT,collapsed,ann"
echo "$line (under the profiler; load $(cut -d' ' -f1 /proc/loadavg)); stacks in $OUT"
python3 "$HERE/nfsprofile.py" "$OUT"
