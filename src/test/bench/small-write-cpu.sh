#!/usr/bin/env bash
# Gateway CPU per small file written through one fresh FUSE mount (issue 14, "Write staging in memory" in
# docs/benchmarks.md): N files of SIZE bytes (default 2,000 x 128 KiB), each one `dd` (one open, one write per 128 KiB,
# close), THREADS at once, into a new directory; ROUNDS rounds on the same mount (the first pays the JIT).
# Usage (as root, emulator and ENDPOINT as in ls-cpu-curve.sh): src/test/bench/small-write-cpu.sh LABEL [MOUNT_OPTIONS] [JAVA_OPTIONS]
#   e.g. JAVA_OPTIONS=-Dio.ossgw.write.memory=false stages every file in the spool, as before staging in memory.
# EXISTING=K (default 0): each round writes into a directory another client made, holding K objects the gateway has
#   never listed (put with oss2 from the venv, .venv or OSSGW_VENV), as `cp` into an existing tree does, instead of a
#   directory the mount made (whose empty listing it caches). The emulator's request counters are read around each round.
# Prints per round: wall seconds, files/s, gateway CPU seconds (utime+stime from /proc), CPU-ms per file and the OSS
# requests other than PutObject.
set -euo pipefail
LABEL=$1 OPTS=${2:-} JOPTS=${3:-} N=${N:-2000} SIZE=${SIZE:-131072} THREADS=${THREADS:-32} ROUNDS=${ROUNDS:-2}
EXISTING=${EXISTING:-0}
PY="${OSSGW_VENV:-$(cd "$(dirname "$0")/../../.." && pwd)/.venv}/bin/python"
. "$(dirname "$0")/fuse-mount.sh"
bench_mount small-write
head -c "$SIZE" /dev/urandom >"$WORK/src.bin"
# counters: the emulator's request counters (JSON); others BEFORE AFTER: the requests between two readings other than
# PutObject (and the byte counts), as "Op=n ..."
counters() { curl -s "$ENDPOINT/-/counters"; }
others() {
  "$PY" -c 'import json,sys; a,b=json.loads(sys.argv[1]),json.loads(sys.argv[2]); print(" ".join(f"{k}={b[k]-a.get(k,0)}" for k in sorted(b) if k not in ("PutObject","BytesSent","BytesReceived") and b[k]-a.get(k,0)))' "$1" "$2"
}
out="$LABEL:"
for r in $(seq "$ROUNDS"); do
  d="$M/sw-$$-$r"
  if (( EXISTING > 0 )); then
    "$PY" - "$ENDPOINT" "${BUCKET:-probe}" "${AK:-ak}" "${SK:-sk}" "sw-$$-$r/" "$EXISTING" <<'PY'
import sys, oss2
endpoint, bucket, ak, sk, prefix, k = sys.argv[1:]
b = oss2.Bucket(oss2.Auth(ak, sk), endpoint, bucket)
for i in range(int(k)):
    b.put_object(f"{prefix}old{i}", b"x")
PY
  else
    mkdir "$d"
  fi
  k0=$(counters); c0=$(cpu); t0=$(date +%s.%N)
  seq "$N" | xargs -P "$THREADS" -I{} dd if="$WORK/src.bin" of="$d/f{}" bs=128k status=none
  t1=$(date +%s.%N); c1=$(cpu); k1=$(counters)
  cmp "$WORK/src.bin" "$d/f$N"
  w=$(echo "$t1-$t0" | bc -l); c=$(echo "($c1-$c0)/$(getconf CLK_TCK)" | bc -l)
  out="$out $(printf 'round %d %.1f s %.0f files/s %.2f CPU-s %.2f CPU-ms/file [%s];' "$r" "$w" "$(echo "$N/$w" | bc -l)" "$c" \
    "$(echo "1000*$c/$N" | bc -l)" "$(others "$k0" "$k1")")"
  rm -rf "$d"
done
echo "$out $N x $SIZE B, $THREADS threads, existing $EXISTING, load $(cut -d' ' -f1 /proc/loadavg)"
