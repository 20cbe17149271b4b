#!/usr/bin/env bash
# jnr-fuse single-threaded (-s) vs the multithreaded loop on real workloads through ./ossgw mount against the emulator
# (issue 2: choose the default by numbers). Root; run on a quiet machine: src/test/bench/fuse-threading.sh
# Prints one Markdown row per mode and workload. Knobs: SEQ_MB=512 SMALL=2000 LS=1000,
# MODES="mt s jfuse-mt jfuse-s" (jfuse-*: the jfuse/libfuse3 binding via -Dio.ossgw.fuse.binding=jfuse, with its
# default 1 MiB max_read and 256 KiB max_write, which libfuse2 cannot negotiate; needs Debian libfuse3-3; mt/s name jnr
# explicitly, jfuse being the default). After each mode's row a second row gives the gateway's CPU seconds per step.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
cd "$ROOT"
SEQ_MB="${SEQ_MB:-512}"; SMALL="${SMALL:-2000}"; LS="${LS:-1000}"; MODES="${MODES:-mt s jfuse-mt jfuse-s}"
# LATENCY_MS: latency the emulator adds to every request after seeding (its fault injection), to stand in for the
# round trip to real OSS (loopback has almost none, which flatters the single-threaded loop)
LATENCY_MS="${LATENCY_MS:-0}"
W="$(mktemp -d /var/tmp/ossgw-fthreads.XXXX)"
JAVA="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
JAR=jmh/target/benchmarks.jar
[[ -f "$JAR" ]] || ./mvnw -q -B -pl jmh -am package -DskipTests
./ossgw --version >/dev/null
EPID=""
cleanup() {
  for m in "$W"/mnt-*; do mountpoint -q "$m" 2>/dev/null && { ./ossgw umount "$m" || fusermount -u -z "$m"; }; done
  [[ -n "$EPID" ]] && kill "$EPID" 2>/dev/null || true
  rm -rf "$W"
}
trap cleanup EXIT
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
./ossgw emulator --port "$PORT" --data "$W/data" --bucket fthreads --access-key ak --secret-key sk-0123456789 \
  > "$W/emu.log" 2>&1 &
EPID=$!
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/-/health" >/dev/null && break; sleep 0.2; done
echo "fthreads:ak:sk-0123456789" > "$W/passwd"; chmod 600 "$W/passwd"
"$JAVA" -cp "$JAR" io.ossgw.jmh.SeedObjects "http://127.0.0.1:$PORT" fthreads ak sk-0123456789 prefix=ls/ \
  count="$LS" size=1024 threads=32 >/dev/null 2>&1
now() { date +%s.%N; }
echo "| mode | seq write ${SEQ_MB} MiB | seq read ${SEQ_MB} MiB | ${SMALL} x 128 KiB write, 64 threads | read back | ls -l ${LS} cold | warm |"
echo "|---|---:|---:|---:|---:|---:|---:|"
if (( LATENCY_MS > 0 )); then
  curl -sf -X POST "http://127.0.0.1:$PORT/-/faults?latencyMs=$LATENCY_MS" >/dev/null
  echo "(every OSS request delayed by $LATENCY_MS ms)"
fi
for mode in $MODES; do
  mp="$W/mnt-$mode"; mkdir -p "$mp"
  flag=(); [[ $mode == s || $mode == *-s ]] && flag=(-s)
  jopts="-Dio.ossgw.fuse.binding=jnr"; extra="" # jfuse is the default binding since issue 14: name jnr explicitly
  [[ $mode == jfuse-* ]] && jopts="-Dio.ossgw.fuse.binding=jfuse" # its defaults: max_read 1 MiB, max_write 256 KiB
  OSSGW_JAVA_OPTS="${OSSGW_JAVA_OPTS:-} $jopts" ./ossgw mount fthreads "$mp" "${flag[@]}" \
    -o "url=http://127.0.0.1:$PORT,passwd_file=$W/passwd,state_dir=$W/state-$mode$extra"
  echo "$mode: $(grep " $mp " /proc/self/mountinfo | awk '{print $NF}')" >&2 # max_read tells libfuse2 from 3
  gpid=$(pgrep -f "quarkus-run.jar mount fthreads $mp" | head -1)
  cpu() { awk '{print $14+$15}' "/proc/$gpid/stat"; } # the gateway's utime+stime in clock ticks
  k0=$(cpu); t0=$(now); dd if=/dev/zero of="$mp/seq-$mode" bs=1M count="$SEQ_MB" oflag=direct conv=fsync status=none; t1=$(now); k1=$(cpu)
  sync; echo 3 > /proc/sys/vm/drop_caches
  k2=$(cpu); t2=$(now); dd if="$mp/seq-$mode" of=/dev/null bs=1M status=none; t3=$(now); k3=$(cpu)
  mkdir -p "$mp/small-$mode"
  k4=$(cpu); wr=$("$JAVA" -cp "$JAR" io.ossgw.jmh.RwBench "$mp/small-$mode" phase=write count="$SMALL" size=131072 threads=64); k5=$(cpu)
  echo 3 > /proc/sys/vm/drop_caches
  k6=$(cpu); rd=$("$JAVA" -cp "$JAR" io.ossgw.jmh.RwBench "$mp/small-$mode" phase=read count="$SMALL" size=131072 threads=64); k7=$(cpu)
  k8=$(cpu); t4=$(now); ls -l "$mp/ls" >/dev/null; t5=$(now); k9=$(cpu); ls -l "$mp/ls" >/dev/null; t6=$(now); k10=$(cpu)
  hz=$(getconf CLK_TCK)
  cpus="$(for p in "$k0 $k1" "$k2 $k3" "$k4 $k5" "$k6 $k7" "$k8 $k9" "$k9 $k10"; do set -- $p; printf '%.2f ' "$(echo "($2-$1)/$hz" | bc -l)"; done)"
  ./ossgw umount "$mp"
  python3 - "$mode" "$SEQ_MB" "$t0" "$t1" "$t2" "$t3" "$t4" "$t5" "$t6" "$wr" "$rd" <<'PY'
import sys
mode, mb, t0, t1, t2, t3, t4, t5, t6, wr, rd = sys.argv[1:]
mb = int(mb); t = list(map(float, (t0, t1, t2, t3, t4, t5, t6)))
mbs = lambda s: f"{mb * 1.048576 / s:.0f} MB/s"
label = {'mt': 'jnr multithreaded', 's': 'jnr -s', 'jfuse-mt': 'jfuse multithreaded', 'jfuse-s': 'jfuse -s'}[mode]
print(f"| {label} | {mbs(t[1]-t[0])} | {mbs(t[3]-t[2])} | {wr.split()[1]} MB/s "
      f"| {rd.split()[1]} MB/s | {t[5]-t[4]:.3f} s | {t[6]-t[5]:.3f} s |")
PY
  echo "| ($mode: gateway CPU-s, load $(cut -d' ' -f1 /proc/loadavg)) | $(echo $cpus | sed 's/ / | /g') |"
done
