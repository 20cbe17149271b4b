#!/usr/bin/env bash
# NFS benchmark: nfs-cp put/get of a 1 GiB file and nfs-ls of 3,000 files through the gateway, and the raw-SDK
# ceiling (jmh's SdkCeiling: the same 1 GiB with aliyun-sdk-oss from a JVM) against the same emulator, in one run.
# Three JVMs: the emulator (directory-backed, on local disk), the gateway (engine + NFS server), the SDK client.
# Needs: libnfs-utils, the built modules (./mvnw -B -q install -DskipTests; ./mvnw -B -q -pl jmh -am package -DskipTests).
# Usage: RUNS=3 nfs-server/src/test/bench/nfs-bench.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../../../.." && pwd)
RUNS=${RUNS:-3}
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
WORK=$(mktemp -d /tmp/nfs-bench.XXXXXX)
BUCKET=bench AK=bench-ak SK=bench-sk
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$WORK"; }
trap cleanup EXIT

CP_FILE="$WORK/nfs.cp"
(cd "$ROOT" && ./mvnw -B -q -pl nfs-server dependency:build-classpath -Dmdep.outputFile="$CP_FILE" -Dmdep.includeScope=test >/dev/null)
CP="$ROOT/nfs-server/target/classes:$ROOT/nfs-server/target/test-classes:$(cat "$CP_FILE")"

"$JAVA" -cp "$ROOT/oss-emulator/target/classes" io.ossgw.emulator.EmulatorMain --port 0 --data "$WORK/oss" \
  --bucket $BUCKET --access-key $AK --secret-key $SK --port-file "$WORK/emu.port" > "$WORK/emu.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$WORK/emu.port" ] && break; sleep 0.1; done
EP="http://127.0.0.1:$(cat "$WORK/emu.port")"

start_gateway() {
  "$JAVA" -Xmx2g -cp "$CP" io.ossgw.nfs.NfsBenchMain "$EP" $BUCKET $AK $SK "$WORK/state" -o "tmpdir=$WORK" \
    > "$WORK/gw.log" 2>&1 &
  GW=$!
  PIDS+=($GW)
  for _ in $(seq 200); do grep -q '^PORT ' "$WORK/gw.log" && break; sleep 0.1; done
  PORT=$(awk '/^PORT /{print $2}' "$WORK/gw.log")
}
stop_gateway() { kill "$GW"; wait "$GW" 2>/dev/null || true; }
url() { echo "nfs://127.0.0.1/$BUCKET$1?version=3&nfsport=$PORT&mountport=$PORT"; }
secs() { local t0=$1; echo "scale=3; ($(date +%s%N) - $t0) / 1000000000" | bc; }
mbps() { echo "scale=1; $1 / 1000000 / $2" | bc; }

echo "machine: $(nproc) vCPU, $(free -g | awk '/Mem:/{print $2}') GiB RAM, $(uname -r), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "java: $("$JAVA" -version 2>&1 | head -1); libnfs-utils $(dpkg-query -W -f='${Version}' libnfs-utils 2>/dev/null || echo '?')"
head -c $((1 << 30)) /dev/urandom > "$WORK/1g.bin"
SUM=$(sha256sum < "$WORK/1g.bin" | cut -d' ' -f1)
SIZE=$((1 << 30))

start_gateway
for run in $(seq "$RUNS"); do
  t0=$(date +%s%N); nfs-cp "$WORK/1g.bin" "$(url "/1g-$run.bin")" > /dev/null; put=$(secs "$t0")
  sleep 6   # the server releases the file (idle 5 s): the read below comes from OSS, not from the local staging
  t0=$(date +%s%N); nfs-cp "$(url "/1g-$run.bin")" "$WORK/down.bin" > /dev/null; get=$(secs "$t0")
  [ "$(sha256sum < "$WORK/down.bin" | cut -d' ' -f1)" = "$SUM" ] || { echo "checksum mismatch"; exit 1; }
  echo "run $run: nfs-cp put 1 GiB ${put}s $(mbps $SIZE "$put") MB/s; get ${get}s $(mbps $SIZE "$get") MB/s; load $(cut -d' ' -f1 /proc/loadavg)"
  rm -f "$WORK/down.bin"
done
stop_gateway

for run in $(seq "$RUNS"); do
  "$JAVA" -cp "$ROOT/jmh/target/benchmarks.jar" io.ossgw.jmh.SdkCeiling "$EP" $BUCKET $AK $SK size=1g part=10m \
    chunk=4m parallel=5 | sed "s/^/sdk run $run: /"
done

# 3,000 objects written by another client (no metadata the gateway has seen), then listed
"$JAVA" -cp "$CP" io.ossgw.nfs.NfsBenchSeed "$EP" $BUCKET $AK $SK many 3000
for run in $(seq "$RUNS"); do
  rm -rf "$WORK/state"
  start_gateway
  t0=$(date +%s%N); n=$(nfs-ls "$(url /many)" | wc -l); cold=$(secs "$t0")
  t0=$(date +%s%N); nfs-ls "$(url /many)" > /dev/null; warm=$(secs "$t0")
  stop_gateway
  start_gateway   # same state dir: the engine's metadata store knows the objects now
  t0=$(date +%s%N); nfs-ls "$(url /many)" > /dev/null; known=$(secs "$t0")
  stop_gateway
  echo "run $run: nfs-ls of $n entries: cold (new objects: HEAD each) ${cold}s, warm ${warm}s, restarted gateway ${known}s"
done
