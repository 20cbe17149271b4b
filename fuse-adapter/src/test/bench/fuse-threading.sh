#!/usr/bin/env bash
# jnr-fuse single-threaded (-s) vs multithreaded loop, on the in-memory test VFS (no OSS behind it).
# For each mode and run: a fresh mount (MountMain in its own JVM, /many pre-filled with 3,000 empty files), then
#   fio 1 GiB sequential O_DIRECT write to a new file (the VFS allocates 1 MiB chunks), the same again (overwrite),
#   fio 1 GiB sequential O_DIRECT read twice (the first pass includes JIT warm-up of the read path), then `ls -l` of the 3,000 files after drop_caches (cold) and again (warm).
# Prints one line per step: mode, run, step, MB/s (fio) or seconds (ls), CPU of the FUSE JVM, GETATTR callbacks of
# the step, JVM native threads, upcalls so far, distinct java.lang.Threads that served them so far (jffi attach churn),
# and the 1-minute load average (this is a shared 2-core VM: compare within a run, prefer ratios).
# Needs root (drop_caches, mounting), fio, libfuse2 + fuse. Usage: RUNS=3 fuse-adapter/src/test/bench/fuse-threading.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
export JAVA_HOME=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
RUNS=${RUNS:-3}
SIZE=${SIZE:-1G}
FILES=${FILES:-3000}
../mvnw -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/bench-cp.txt -Dmdep.includeScope=test
CP="target/classes:target/test-classes:$(cat target/bench-cp.txt)"
HZ=$(getconf CLK_TCK)

now() { date +%s.%N; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
threads() { awk '/^Threads:/ {print $2}' "/proc/$1/status"; }
getattrs() { awk -F= '$1 == "GETATTR" {print $2}' "$1"; }
seen() { awk -F= '$1 == "JAVA_THREADS_SEEN" {print $2}' "$1"; }
calls() { awk -F= '$1 == "TOTAL" {print $2}' "$1"; }
cpu() { awk -v t0="$1" -v t1="$2" -v a="$3" -v b="$4" -v hz="$HZ" 'BEGIN {printf "%.0f", (b - a) / hz / (t1 - t0) * 100}'; }

fio_mbs() { # $1 = write|read, $2 = file; prints MB/s (10^6 bytes) from fio's terse output
  local field=7; [ "$1" = write ] && field=48
  fio --name=seq --filename="$2" --rw="$1" --bs=1M --direct=1 --size="$SIZE" --ioengine=psync --fallocate=none \
      --output-format=terse --terse-version=3 | awk -F';' -v f="$field" '{printf "%.0f", $f * 1024 / 1e6}'
}

step() { # mode run name command...; measures wall time, FS CPU and getattr callbacks around the command
  local mode=$1 run=$2 name=$3; shift 3
  sleep 0.2
  local g0 c0 t0 out t1 c1 g1
  g0=$(getattrs "$STATS"); c0=$(ticks "$PID"); t0=$(now)
  out=$("$@")
  t1=$(now); c1=$(ticks "$PID"); sleep 0.2; g1=$(getattrs "$STATS")
  [ -z "$out" ] && out=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3fs", b - a}')
  printf '%-6s %s %-10s %10s  fs-cpu=%3s%%  getattr=%6d  native-threads=%s  upcalls=%s  java-threads-seen=%s  load=%s\n' \
    "$mode" "$run" "$name" "$out" "$(cpu "$t0" "$t1" "$c0" "$c1")" $((g1 - g0)) "$(threads "$PID")" \
    "$(calls "$STATS")" "$(seen "$STATS")" "$(cut -d' ' -f1 /proc/loadavg)"
}

ls_quiet() { ls -l "$1" > /dev/null; }

for run in $(seq 1 "$RUNS"); do
  for mode in single multi; do
    MNT=$(mktemp -d /tmp/ossgw-bench-XXXXXX); STATS=$(mktemp); LOG=$(mktemp)
    flag=(); [ "$mode" = single ] && flag=(-s)
    "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow -Xmx8g \
      -cp "$CP" io.ossgw.fuse.MountMain "$MNT" "${flag[@]}" --files "$FILES" --stats "$STATS" > "$LOG" 2>&1 &
    PID=$!
    for _ in $(seq 100); do grep -q MOUNTED "$LOG" && break; sleep 0.1; done
    grep -q MOUNTED "$LOG" || { cat "$LOG"; kill -9 "$PID"; exit 1; }
    step "$mode" "$run" write-new fio_mbs write "$MNT/fio.bin"
    step "$mode" "$run" write-over fio_mbs write "$MNT/fio.bin"
    step "$mode" "$run" read-1 fio_mbs read "$MNT/fio.bin"
    step "$mode" "$run" read-2 fio_mbs read "$MNT/fio.bin"
    sync; echo 3 > /proc/sys/vm/drop_caches
    step "$mode" "$run" ls-cold ls_quiet "$MNT/many"
    step "$mode" "$run" ls-warm ls_quiet "$MNT/many"
    kill "$PID"; wait "$PID" || true
    if grep -q " $MNT " /proc/self/mountinfo; then fusermount -u -z "$MNT"; fi
    rmdir "$MNT"; rm -f "$STATS" "$STATS.tmp" "$LOG"
  done
done
