#!/usr/bin/env bash
# Gateway CPU of appends to an Appendable object through one fresh FUSE mount: COUNT appends of MIB MiB each
# (`dd oflag=append conv=notrunc,fsync`: one AppendObject per fsync), ROUNDS times in the same mount, so the first
# round shows a fresh gateway and the later ones a warm one (docs/benchmarks.md "AppendObject on the lean client").
# Usage (as root, an emulator with keys AK/SK at ENDPOINT as in ls-cpu-curve.sh; the mount may take another endpoint,
# e.g. the https:// one of tls-front.sh, in MOUNT_URL, with its trust in JOPTS):
#   ENDPOINT=http://127.0.0.1:PORT [MOUNT_URL=https://...] src/test/bench/append-cpu.sh LABEL [MOUNT_OPTIONS] [JAVA_OPTIONS]
# The object is made Appendable first by an AppendObject at position 0 sent straight to ENDPOINT (V1-signed, from
# Python's standard library), as a log shipper would have made it; the gateway never saw it before. Then the
# emulator's request counters are reset and printed at the end (the requests of the mount and the rounds).
set -euo pipefail
LABEL=$1 OPTS=${2:-} JOPTS=${3:-} MIB=${MIB:-4} COUNT=${COUNT:-64} ROUNDS=${ROUNDS:-3}
KEY=${KEY:-append-cpu-$$.log}
python3 - "$ENDPOINT" "${BUCKET:-probe}" "$KEY" "${AK:-ak}" "${SK:-sk}" <<'EOF'
import base64, hashlib, hmac, sys, urllib.parse, urllib.request
from email.utils import formatdate
endpoint, bucket, key, ak, sk = sys.argv[1:]
date = formatdate(usegmt=True)
sts = f"POST\n\napplication/octet-stream\n{date}\n/{bucket}/{key}?append&position=0"
sig = base64.b64encode(hmac.new(sk.encode(), sts.encode(), hashlib.sha1).digest()).decode()
req = urllib.request.Request(f"{endpoint}/{bucket}/{urllib.parse.quote(key)}?append&position=0", data=b"start\n",
                             method="POST", headers={"Date": date, "Content-Type": "application/octet-stream",
                                                     "Authorization": f"OSS {ak}:{sig}"})
with urllib.request.urlopen(req) as r:
    assert r.headers["x-oss-next-append-position"] == "6", r.headers
EOF
curl -s -XPOST "$ENDPOINT/-/counters/reset" >/dev/null
MOUNT_ENDPOINT=$ENDPOINT
ENDPOINT=${MOUNT_URL:-$ENDPOINT}
. "$(dirname "$0")/fuse-mount.sh"
bench_mount append-cpu
out="$LABEL:"
size0=$(stat -c %s "$M/$KEY")
for r in $(seq "$ROUNDS"); do
  c0=$(cpu); t0=$(date +%s.%N)
  for _ in $(seq "$COUNT"); do
    dd if=/dev/zero of="$M/$KEY" bs=1M count="$MIB" oflag=append conv=notrunc,fsync status=none
  done
  t1=$(date +%s.%N); c1=$(cpu)
  out="$out $(printf 'round %d: %.1f s / %s CPU-s;' "$r" "$(echo "$t1-$t0" | bc)" "$(secs "$c0" "$c1")")"
done
size1=$(stat -c %s "$M/$KEY")
want=$((size0 + ROUNDS * COUNT * MIB * 1048576))
[ "$size1" -eq "$want" ] || { echo "append-cpu: the file is $size1 bytes, expected $want" >&2; exit 1; }
ENDPOINT=$MOUNT_ENDPOINT
echo "$out each round $COUNT appends of $MIB MiB, load $(cut -d' ' -f1 /proc/loadavg); requests $(curl -s "$ENDPOINT/-/counters")"
