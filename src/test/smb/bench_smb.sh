#!/usr/bin/env bash
# SMB vs FUSE throughput on one gateway and one emulator, in the same run:
#   smbclient put/get of a SIZE_MB file through the SMB share, and cp in/out of the same size through the FUSE mount
#   of the same bucket (same engine), against the embedded-style emulator started here (objects on local disk).
# Usage: src/test/smb/bench_smb.sh [SIZE_MB]   (default 1024; needs root, /dev/fuse, samba, smbclient)
# Prints one line per measurement: "<front end> <direction> <MB> MB in <s> s = <MB/s> MB/s".
# Not part of CI (numbers belong in docs/smb.md, not in assertions).
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
SIZE_MB="${1:-1024}"
W="$(mktemp -d /tmp/ossgw-smb-bench-XXXXXX)"
GW_PID=""
EMU_PID=""
cleanup() {
  [[ -n "$GW_PID" ]] && kill -TERM "$GW_PID" 2>/dev/null && wait "$GW_PID" 2>/dev/null || true
  [[ -n "$EMU_PID" ]] && kill -TERM "$EMU_PID" 2>/dev/null && wait "$EMU_PID" 2>/dev/null || true
  mountpoint -q "$W/mnt" && fusermount -u "$W/mnt" || true
  rm -rf "$W"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
now() { date +%s.%N; }
report() { # label MB t0 t1
  python3 -c "import sys; mb=float(sys.argv[2]); s=float(sys.argv[4])-float(sys.argv[3]); print(f'{sys.argv[1]:<11} {mb:.0f} MB in {s:.1f} s = {mb/s:.0f} MB/s')" "$@"
}

echo "machine: $(nproc) cores, $(uname -r); $(/usr/sbin/smbd --version); gateway $(git -C "$ROOT" rev-parse --short HEAD)"
"$ROOT/ossgw" --version >/dev/null  # builds the app when needed, outside the measurement
"$ROOT/ossgw" emulator --port 0 --port-file "$W/emu.port" --data "$W/emu" --bucket bench-bkt \
  --access-key bench --secret-key benchsecret >"$W/emu.log" 2>&1 &
EMU_PID=$!
for _ in $(seq 600); do [[ -s "$W/emu.port" ]] && break; sleep 0.1; done
EP="http://127.0.0.1:$(cat "$W/emu.port")"
printf 'bench:benchsecret\n' >"$W/passwd"; chmod 600 "$W/passwd"
printf 'bench pw\n' >"$W/smb.pw"; chmod 600 "$W/smb.pw"
mkdir -p "$W/mnt"
HTTP=$(free_port); SMB=$(free_port)
cat >"$W/ossgw.properties" <<EOF
quarkus.http.host=127.0.0.1
quarkus.http.port=$HTTP
ossgw.oss.endpoint=$EP
ossgw.oss.passwd-file=$W/passwd
ossgw.state-dir=$W/state
ossgw.mounts.m.bucket=bench-bkt
ossgw.mounts.m.mountpoint=$W/mnt
ossgw.shares.data.bucket=bench-bkt
ossgw.smb.bind=127.0.0.1
ossgw.smb.port=$SMB
ossgw.smb.users.ossgw-bench.password-file=$W/smb.pw
EOF
"$ROOT/ossgw" serve --config "$W/ossgw.properties" >"$W/serve.log" 2>&1 &
GW_PID=$!
for _ in $(seq 1200); do curl -sf "http://127.0.0.1:$HTTP/q/health/ready" >/dev/null && break; sleep 0.1; done
curl -sf "http://127.0.0.1:$HTTP/q/health/ready" >/dev/null || { tail -20 "$W/serve.log"; exit 1; }

head -c "$((SIZE_MB * 1024 * 1024))" /dev/urandom >"$W/src.bin"
MB=$(python3 -c "print($SIZE_MB * 1024 * 1024 / 1e6)")
SMBC=(smbclient //127.0.0.1/data -p "$SMB" -U "ossgw-bench%bench pw" -m SMB3)

reqs() { # the OSS requests since the last reset, then reset
  curl -s "$EP/-/counters" | python3 -c 'import json,sys; d=json.load(sys.stdin); print("   OSS:", " ".join(f"{k}={v}" for k,v in sorted(d.items()) if v and not k.startswith("Bytes")))'
  curl -s -X POST "$EP/-/counters/reset" >/dev/null
}
curl -s -X POST "$EP/-/counters/reset" >/dev/null
t0=$(now); cp "$W/src.bin" "$W/mnt/fuse.bin"; t1=$(now); report "FUSE write" "$MB" "$t0" "$t1"; reqs
t0=$(now); cat "$W/mnt/fuse.bin" >/dev/null; t1=$(now); report "FUSE read" "$MB" "$t0" "$t1"; reqs
t0=$(now); (cd "$W" && "${SMBC[@]}" -c "put src.bin smb.bin" >/dev/null); t1=$(now)
report "SMB put" "$MB" "$t0" "$t1"; reqs
t0=$(now); "${SMBC[@]}" -c "get smb.bin /dev/null" >/dev/null; t1=$(now)
report "SMB get" "$MB" "$t0" "$t1"; reqs
# the bytes made it: the object written over SMB, read back through the mount, equals the source
[[ "$(sha256sum <"$W/src.bin")" == "$(sha256sum <"$W/mnt/smb.bin")" ]] && echo "checksums: ok" || echo "checksums: MISMATCH"
