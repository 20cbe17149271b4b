#!/usr/bin/env bash
# What TLS costs a native client on this machine, beside the gateway's own rows in the same session (issue 22 item 1;
# numbers in docs/benchmarks.md "The TLS floor on this machine"). One emulator (auth on, in memory) and stunnel in
# front of it (tls-front.sh); then ROUNDS times, alternated:
#   curl (OpenSSL, TLS_AES_128_GCM_SHA256 as the gateway negotiates) PUT and GET of one MIB-MiB object over http:// and
#   https://: CPU-s per GiB of the curl process (user+sys, /usr/bin/time), of stunnel and of the emulator (/proc), MB/s;
#   each gateway build of GW ("label=path/to/ossgw ..."; default this tree's) through dd-cpu.sh over https://, the
#   first one over http:// too (THREADS=1 ROUNDS=$DD_ROUNDS, OSSGW_AOT=0), with stunnel's CPU over the dd-cpu run.
# The cipher alone: `openssl speed -evp aes-128-gcm -bytes 16384`, printed first.
# Usage (as root, from the repository root, after `./mvnw -B -q -DskipTests package -pl gateway-app -am`):
#   [ROUNDS=3] [MIB=1024] [DD_ROUNDS=3] [CURL_ONLY=1 | CURL=0] [GW="before=/tmp/old/ossgw after=./ossgw"] \
#     src/test/bench/tls-floor.sh
# Every line ends with the 1-minute load; the object is signed with OSS V1 (HMAC-SHA1, reference/oss-api.md) by openssl.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
ROUNDS=${ROUNDS:-3} MIB=${MIB:-1024} DD_ROUNDS=${DD_ROUNDS:-3} GW=${GW:-now=$ROOT/ossgw}
D=$(mktemp -d /tmp/tls-floor.XXXX)
cleanup() {
  [ ! -f "$D/tls/stunnel.pid" ] || kill "$(cat "$D/tls/stunnel.pid")" 2>/dev/null || true
  [ -z "${EMU:-}" ] || kill "$EMU" 2>/dev/null || true
  rm -rf "$D"
}
trap cleanup EXIT
load() { cut -d' ' -f1 /proc/loadavg; }
ticks() { awk '{print $14+$15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)

echo "cipher: AES-128-GCM $(openssl speed -evp aes-128-gcm -bytes 16384 -seconds 3 2>/dev/null |
  awk '/^AES-128-GCM/ {printf "%.2f GB/s, %.3f CPU-s/GiB", $NF/1e6, 1.073741824e6/$NF}') in 16 KiB blocks, load $(load)"

OSSGW_NO_BUILD=1 OSSGW_AOT=0 OSSGW_EMULATOR_SECRET_KEY=sk "$ROOT/ossgw" emulator --port 0 --port-file "$D/port" \
  --bucket probe --access-key ak >"$D/emulator.log" 2>&1 &
for _ in $(seq 60); do [ -s "$D/port" ] && break; sleep 1; done
EMU=$(pgrep -f "port-file $D/port" | grep -v "^$$\$" | tail -1)
export ENDPOINT=http://127.0.0.1:$(cat "$D/port")
eval "$(ENDPOINT=$ENDPOINT "$ROOT/src/test/bench/tls-front.sh" "$D/tls")"
STUNNEL=$(cat "$D/tls/stunnel.pid")
head -c "$((MIB << 20))" /dev/urandom >"$D/obj"

# curl METHOD BASE_URL: one signed PUT (of $D/obj) or GET (to /dev/null) of probe/floor.bin; prints the figures
req() {
  local m=$1 base=$2 date sig s0 e0 t
  date=$(LC_ALL=C TZ=GMT date '+%a, %d %b %Y %H:%M:%S GMT')
  sig=$(printf '%s\n\n%s\n%s\n/probe/floor.bin' "$m" "$([ "$m" = PUT ] && echo application/octet-stream)" "$date" |
    openssl dgst -sha1 -hmac sk -binary | base64)
  local -a args=(-sS -f -o /dev/null -H "Date: $date" -H "Authorization: OSS ak:$sig" --cacert "$D/tls/ca.pem"
    --tls13-ciphers TLS_AES_128_GCM_SHA256)
  [ "$m" = GET ] || args+=(-H "Content-Type: application/octet-stream" -T "$D/obj")
  s0=$(ticks "$STUNNEL"); e0=$(ticks "$EMU")
  t=$( { /usr/bin/time -f '%U %S %e' curl "${args[@]}" "$base/probe/floor.bin"; } 2>&1 | tail -1)
  echo "$t $(( $(ticks "$STUNNEL") - s0 )) $(( $(ticks "$EMU") - e0 ))" |
    awk -v g="$MIB" -v hz="$hz" -v w="$m ${base%%:*}" -v l="$(load)" '{gib=g/1024;
      printf "curl %-10s curl %.2f CPU-s/GiB (user %.2f sys %.2f), stunnel %.2f, emulator %.2f, %.0f MB/s, load %s\n",
        w, ($1+$2)/gib, $1/gib, $2/gib, $4/hz/gib, $5/hz/gib, g*1048576/1e6/$3, l}'
}

for r in $(seq "$([ "${CURL:-1}" = 0 ] && echo 0 || echo "$ROUNDS")"); do
  for base in "$ENDPOINT" "$HTTPS_ENDPOINT"; do
    req PUT "$base"
    req GET "$base"
  done
done
[ -z "${CURL_ONLY:-}" ] || exit 0
first=1
for r in $(seq "$ROUNDS"); do
  for g in $GW; do
    label=${g%%=*} gw=${g#*=}
    for scheme in http https; do
      [ "$scheme" = https ] || [ -n "$first" ] || continue
      ep=$ENDPOINT jo=""
      [ "$scheme" = http ] || { ep=$HTTPS_ENDPOINT; jo=$TRUST_OPTS; }
      s0=$(ticks "$STUNNEL")
      line=$(ENDPOINT=$ep OSSGW=$gw OSSGW_AOT=0 THREADS=1 ROUNDS=$DD_ROUNDS MIB=$MIB \
        "$ROOT/src/test/bench/dd-cpu.sh" "$label $scheme" "" "$jo")
      echo "$line stunnel $(echo "($(ticks "$STUNNEL")-$s0)/$hz" | bc -l | xargs printf '%.2f') CPU-s"
    done
    first=""
  done
  first=1
done
