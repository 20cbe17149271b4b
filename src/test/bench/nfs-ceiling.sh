#!/usr/bin/env bash
# The NFS rows beside their ceiling (issue 22): the same libnfs client (nfsload.c, async API, DEPTH 1 MiB calls in
# flight) against nfs-ganesha with FSAL_MEM (the protocol alone) and `ossgw serve --nfs` on the OSS emulator, in one
# run, inside a private network and mount namespace (`unshare -n -m`: its own loopback, where ganesha takes 2049 and
# its rpcbind 111, and its own /run for rpcbind's socket), so nothing meets the machine's other servers. Rows, CPU per
# unit and what they mean: nfsceiling.py. Numbers: docs/benchmarks.md "NFS beside nfs-ganesha".
#
# Usage (root; from a tree whose gateway is built: ./mvnw -B -q -DskipTests package -pl gateway-app -am):
#   src/test/bench/nfs-ceiling.sh
# Environment: APP_ROOT=the repository root (its ./ossgw launcher runs the gateway, with the launcher's JVM options)
#   WORK=/var/tmp/ossgw-nfs-ceiling (wiped first)  OUT=$WORK/nfs-ceiling.json
#   SIZE_MIB=1024 DEPTH=16 SMALL_COUNT=2000 SMALL_KIB=128 SMALL_DIR=0 (1: the small files in a directory the clients
#   make first, as cp -r does; 0: in the export's root) PROCS=16 RUNS=1 (each ossgw run on a new in-memory emulator)
#   PROFILE=1 (JFR on the gateway's write/read; PROFILE_ROWS=write,read,small,small read says which rows; each also
#   with " warm"; JFR_SETTINGS=profile or a .jfc file)  PERF_ROWS=(rows perf records, PERF_HZ=499 samples a second)
#   WARM=1 (each row again in the same server process after the cold one: "write warm", "read warm", ...; WARM=N
#   repeats it N times, the later passes named "write warm2" and so on: a long-lived server's steady state; 0: none)
#   SERVERS=ganesha,floor,ossgw (floor: spoolfloor.c, the gateway's write syscalls in C, write rows only)
#   STEPS=write,read,small,smallread GW_OPTIONS=(more -o options) GW_JAVA_OPTS=(OSSGW_JAVA_OPTS)
#   NMT=1 (the gateway's Native Memory Tracking summary and GC.heap_info after every row, beside the peak RSS every row
#   records; GW_OPTIONS=memory_limit=256 runs the rows inside the memory promise: docs/benchmarks.md "Inside memory_limit")
#   GW_AOT=0 (the launcher's OSSGW_AOT: 0 = no AOT cache, a fresh JIT in every row; train = this build's cache, trained
#   once first, as a user's ./ossgw runs)
# Installs what is missing: nfs-ganesha, nfs-ganesha-mem, rpcbind, libnfs-dev, gcc, pkg-config, libisal2 (the gateway's
# CRC-64 of uploads, as in the container image) (Debian).
set -euo pipefail
HERE="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
export APP_ROOT="${APP_ROOT:-$(cd "$HERE/../../.." && pwd)}"
export WORK="${WORK:-/var/tmp/ossgw-nfs-ceiling}"
die() { echo "nfs-ceiling: $*" >&2; exit 1; }
(( EUID == 0 )) || die "run as root (network namespace, drop_caches)"
[[ -f "$APP_ROOT/gateway-app/target/quarkus-app/quarkus-run.jar" ]] || die "no built gateway under $APP_ROOT"

PKGS=(nfs-ganesha nfs-ganesha-mem rpcbind libnfs-dev gcc pkg-config iproute2 util-linux libisal2)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if (( ${#missing[@]} )); then
  echo "nfs-ceiling: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=600 update -qq
  apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# the JDK 25 the launcher would pick (jcmd and jfr for the profiles)
. "$HERE/jdk.sh"

rm -rf "$WORK"
mkdir -p "$WORK"
export NFSLOAD="$WORK/nfsload"
# shellcheck disable=SC2046
gcc -O2 -Wall -o "$NFSLOAD" "$HERE/nfsload.c" $(pkg-config --cflags --libs libnfs)
export SPOOLFLOOR="$WORK/spoolfloor"
gcc -O2 -Wall -o "$SPOOLFLOOR" "$HERE/spoolfloor.c" -ldl

# unshare -m makes the mounts private; /run becomes a tmpfs of this namespace (rpcbind's socket and lock live there)
exec unshare -n -m --propagation private bash -c 'mount -t tmpfs tmpfs /run && exec python3 "$0"' "$HERE/nfsceiling.py"
