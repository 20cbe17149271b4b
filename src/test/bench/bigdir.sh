#!/usr/bin/env bash
# Big directories (issue 21; numbers in docs/benchmarks.md "Big directories"): N objects of 1 KiB in one directory,
# written with aliyun-sdk-oss (never seen by the gateway), listed through
#   - a FUSE mount (`ossgw mount`): cold `ls -l`, then a warm `ls -l` on the same mount, and `find` on a fresh mount;
#   - an NFSv3 export (`ossgw serve BUCKET --nfs`): cold `nfs-ls` (libnfs: READDIRPLUS, the long form of ls -l) on a
#     fresh gateway;
# each with every mount option set of $MODES (default: memory_limit=256, then memory_limit=256,readdir_optimize).
# Per run: entries listed, wall seconds, the gateway's CPU seconds (utime+stime from /proc) and their cost per 1,000
# entries, its peak RSS (VmHWM), the HEAD and LIST requests the emulator counted, and the 1-minute load average.
#
# Usage (root, from the repository root, after `./mvnw -B -q -DskipTests package`):
#   ./ossgw emulator --port 0 --port-file /tmp/p --bucket big --access-key ak --secret-key sk &
#   ENDPOINT=http://127.0.0.1:$(cat /tmp/p) src/test/bench/bigdir.sh 100000 1000000
# Seeds d<N>/ with jmh's SeedObjects (64 threads) first unless SEED=0 (a directory seeded by an earlier run).
# FRONTS="fuse nfs" (default) picks the front ends; BUCKET (default big), AK/SK (default ak/sk).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
: "${ENDPOINT:?ENDPOINT=http://127.0.0.1:PORT of an emulator (or OSS)}"
BUCKET=${BUCKET:-big} AK=${AK:-ak} SK=${SK:-sk}
MODES=${MODES:-"memory_limit=256 memory_limit=256,readdir_optimize"}
FRONTS=${FRONTS:-"fuse nfs"}
export OSSGW_NO_BUILD=1 OSS_ACCESS_KEY_ID=$AK OSS_ACCESS_KEY_SECRET=$SK
JAVA=${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java
WORK=$(mktemp -d /tmp/bigdir.XXXX)
GW_PID="" MP="" SERVE=""
cleanup() {
  [[ -n "$MP" ]] && { fusermount -u "$MP" 2>/dev/null || true; }
  [[ -n "$SERVE" ]] && { kill "$SERVE" 2>/dev/null || true; wait "$SERVE" 2>/dev/null || true; }
  rm -rf "$WORK"
}
trap cleanup EXIT

cpu() { awk '{print $14+$15}' "/proc/$GW_PID/stat"; }
hwm() { awk '/VmHWM/{print int($2/1024)}' "/proc/$GW_PID/status"; }
counter() { curl -s "$ENDPOINT/-/counters" | grep -o "\"$1\":[0-9]*" | cut -d: -f2 || echo 0; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# report LABEL N CMD...: runs CMD (its stdout counted as entries), prints one line of figures
report() {
  local label=$1 n=$2; shift 2
  curl -s -XPOST "$ENDPOINT/-/counters/reset" >/dev/null
  local c0 t0 t1 c1 lines
  c0=$(cpu); t0=$(date +%s.%N)
  lines=$("$@" | wc -l)
  t1=$(date +%s.%N); c1=$(cpu)
  local wall cpus
  wall=$(echo "$t1 - $t0" | bc -l); cpus=$(echo "($c1 - $c0) / $(getconf CLK_TCK)" | bc -l)
  printf '%-52s lines %8d  %7.2f s  %7.2f CPU-s  %5.2f CPU-s/1k  peak RSS %4d MB  HEAD %7s LIST %5s  load %s\n' \
    "$label" "$lines" "$wall" "$cpus" "$(echo "$cpus * 1000 / $n" | bc -l)" "$(hwm)" "$(counter HeadObject)" \
    "$(counter ListObjectsV2)" "$(cut -d' ' -f1 /proc/loadavg)"
}

fuse_mount() { # fuse_mount OPTS: a fresh mount (fresh state_dir) at $MP, gateway pid in GW_PID
  MP=$(mktemp -d "$WORK/mnt.XXXX")
  "$ROOT/ossgw" mount "$BUCKET" "$MP" -o "url=$ENDPOINT,state_dir=$MP.state,$1" >"$MP.log" 2>&1
  GW_PID=$(pgrep -f "quarkus-run.jar mount $BUCKET $MP" | head -1)
}
fuse_unmount() { fusermount -u "$MP"; while kill -0 "$GW_PID" 2>/dev/null; do sleep 0.2; done; MP=""; }

nfs_serve() { # nfs_serve OPTS: a fresh `serve --nfs` on a free port, pid in GW_PID, port in NFS_PORT
  NFS_PORT=$(free_port)
  local http; http=$(free_port)
  printf '%s:%s:%s\n' "$BUCKET" "$AK" "$SK" >"$WORK/passwd"; chmod 600 "$WORK/passwd"
  QUARKUS_HTTP_PORT=$http QUARKUS_HTTP_HOST=127.0.0.1 OSSGW_STATE_DIR=$(mktemp -d "$WORK/state.XXXX") \
    "$ROOT/ossgw" serve "$BUCKET" --nfs --nfs-port "$NFS_PORT" --nfs-bind 127.0.0.1 \
    -o "url=$ENDPOINT,passwd_file=$WORK/passwd,uid=1000,gid=1000,$1" >"$WORK/serve.log" 2>&1 &
  SERVE=$!
  until curl -sf "http://127.0.0.1:$http/q/health/ready" >/dev/null; do
    kill -0 "$SERVE" || { cat "$WORK/serve.log"; exit 1; }; sleep 0.5
  done
  GW_PID=$(pgrep -P "$SERVE" java || echo "$SERVE")
}
nfs_stop() { kill "$SERVE"; wait "$SERVE" || true; SERVE=""; }

for n in "$@"; do
  d=d$n
  if [[ "${SEED:-1}" != 0 ]]; then
    "$JAVA" -cp "$ROOT/jmh/target/benchmarks.jar" io.ossgw.jmh.SeedObjects "$ENDPOINT" "$BUCKET" "$AK" "$SK" \
      prefix="$d/" count="$n" size=1k threads=64 2>/dev/null
  fi
  for mode in $MODES; do
    for front in $FRONTS; do
      if [[ $front == fuse ]]; then
        fuse_mount "$mode"; stat "$MP/$d" >/dev/null
        report "fuse $mode ls -l cold $n" "$n" ls -l "$MP/$d"
        report "fuse $mode ls -l warm $n" "$n" ls -l "$MP/$d"
        fuse_unmount
        fuse_mount "$mode"; stat "$MP/$d" >/dev/null
        report "fuse $mode find cold $n" "$n" find "$MP/$d"
        fuse_unmount
      else
        nfs_serve "$mode"
        # as uid 1000, the objects' owner: root is squashed, and directories without metadata are 0750
        report "nfs $mode nfs-ls cold $n" "$n" \
          nfs-ls "nfs://127.0.0.1/$BUCKET/$d?nfsport=$NFS_PORT&mountport=$NFS_PORT&version=3&uid=1000&gid=1000"
        nfs_stop
      fi
    done
  done
done
