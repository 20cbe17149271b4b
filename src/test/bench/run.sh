#!/usr/bin/env bash
# ossgw benchmark harness, one command (root; not part of CI):  src/test/bench/run.sh
# Installs what it needs when missing (fio, sysbench, fuse/libfuse2, python3-venv; matplotlib in a venv under
# src/test/bench/target/), builds the gateway and jmh/target/benchmarks.jar, copies both into the work directory (so a
# rebuild in the tree during the run cannot change them), then runs bench.py (measurements -> results.json) and
# report.py (results.md, chart.png, the headline table in docs/benchmarks.md). See docs/benchmarks.md.
#
# Environment: BENCH_WORK=/var/tmp/ossgw-bench (emulator data, mount point, spool; wiped first)
#              BENCH_REV=HEAD (the commit to measure, exported to BENCH_SRC=/var/tmp/ossgw-bench-src and built there;
#                BENCH_REV=tree builds and measures this working tree as it is)
#              BENCH_NO_BUILD=1 (reuse the jars built by the previous run)
#              BENCH_OUT=docs/bench/<UTC date> (<UTC date>-<HHMM> when that exists)
#              UPDATE_DOCS=1 (0: leave docs/benchmarks.md alone)
#              and the workload knobs of bench.py (SEQ_SIZE=1g, SMALL_COUNT=10000, STEPS=seq,https,small,ls,touch,dr,sysbench,nfs,smb,nfsceil ...)
set -euo pipefail
HERE="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
WORK="${BENCH_WORK:-/var/tmp/ossgw-bench}"
SRC_DIR="${BENCH_SRC:-/var/tmp/ossgw-bench-src}"
OUT="${BENCH_OUT:-$ROOT/docs/bench/$(date -u +%Y-%m-%d)}"
# a second run on the same day keeps the first one's results (docs/benchmarks.md may cite them)
[[ -n "${BENCH_OUT:-}" || ! -e "$OUT" ]] || OUT="$OUT-$(date -u +%H%M)"
die() { echo "bench: $*" >&2; exit 1; }
(( EUID == 0 )) || die "run as root (drop_caches and FUSE mounts need it)"

# --- tools
PKGS=(fio sysbench fuse libfuse2 libnfs-utils python3-venv procps curl stunnel4 openssl)
missing=()
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
for p in "${PKGS[@]}"; do
  # fuse and fuse3 conflict in Debian and either gives a working fusermount: never swap one for the other
  [[ "$p" == fuse ]] && installed fuse3 && continue
  installed "$p" || missing+=("$p")
done
if (( ${#missing[@]} )); then
  echo "bench: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[[ -c /dev/fuse ]] || { modprobe fuse 2>/dev/null || true; [[ -c /dev/fuse ]] || mknod -m 666 /dev/fuse c 10 229; }
VENV="$HERE/target/venv"
if ! "$VENV/bin/python" -c 'import matplotlib' 2>/dev/null; then
  echo "bench: creating $VENV with matplotlib"
  /usr/bin/python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check 'matplotlib>=3.7'
fi

# --- JDK 25 (JAVA_HOME, else the newest under /usr/lib/jvm)
JDK=""
for c in ${JAVA_HOME:+"$JAVA_HOME"} $(ls -d /usr/lib/jvm/* 2>/dev/null | sort -rV); do
  if [[ -x "$c/bin/jcmd" ]] && "$c/bin/java" -version 2>&1 | grep -qE 'version "(2[5-9]|[3-9][0-9])'; then
    JDK="$c"
    break
  fi
done
[[ -n "$JDK" ]] || die "no JDK 25 or newer (JAVA_HOME, /usr/lib/jvm/*)"
export JAVA_HOME="$JDK"

# --- build (a commit, exported with git archive, so nobody's uncommitted work leaks into the figures) and copy
REV="${BENCH_REV:-HEAD}"
if [[ "$REV" == tree ]]; then
  SRC="$ROOT"
  REV_LABEL="$(git -C "$ROOT" rev-parse --short HEAD) + working tree"
else
  SRC="$SRC_DIR"
  REV_LABEL="$(git -C "$ROOT" rev-parse --short "$REV")"
fi
if [[ "${BENCH_NO_BUILD:-0}" != 1 ]]; then
  if [[ "$REV" != tree ]]; then
    rm -rf "$SRC" && mkdir -p "$SRC"
    git -C "$ROOT" archive "$REV" | tar -x -C "$SRC"
    echo "$REV_LABEL" > "$SRC/.bench-rev"
  fi
  echo "bench: building gateway-app and jmh of $REV_LABEL in $SRC"
  (cd "$SRC" && ./mvnw -B -q -pl gateway-app,jmh -am package -DskipTests)
fi
[[ "$REV" == tree || ! -f "$SRC/.bench-rev" ]] || REV_LABEL="$(cat "$SRC/.bench-rev")"
APP="$SRC/gateway-app/target/quarkus-app"
[[ -f "$APP/quarkus-run.jar" && -f "$SRC/jmh/target/benchmarks.jar" ]] ||
  die "no built jars in $SRC (unset BENCH_NO_BUILD)"
for m in "$WORK"/mnt; do mountpoint -q "$m" 2>/dev/null && die "$m is still mounted (fusermount -u $m)"; done
rm -rf "$WORK"
mkdir -p "$WORK" "$OUT"
cp -r "$APP" "$WORK/app"
cp "$SRC/jmh/target/benchmarks.jar" "$WORK/benchmarks.jar"

# --- the run: header facts, measurements, report
{
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "rev=$REV_LABEL"
  echo "cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) vCPU"
  echo "memory=$(free -g | awk '/^Mem:/ {print $2}') GiB"
  echo "kernel=$(uname -r)"
  echo "os=$(. /etc/os-release && echo "$PRETTY_NAME")"
  echo "java=$("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
  echo "fio=$(fio --version)"
  echo "sysbench=$(sysbench --version)"
  knobs='^(SEQ_SIZE|SMALL_[A-Z]+|LS_[A-Z_]+|DR_[A-Z]+|SB_[A-Z_]+|RND_TIME|STEPS|PROFILE|GW_[A-Z_]+|BENCH_REV)='
  echo "command=$(env | grep -E "$knobs" | tr '\n' ' ')src/test/bench/run.sh"
} > "$OUT/machine.txt"
rc=0
export BENCH_APP_ROOT="$SRC" # nfs-ceiling.sh runs the gateway through this tree's ./ossgw launcher
"$VENV/bin/python" "$HERE/bench.py" "$WORK" "$OUT" "$JAVA_HOME/bin/java" || rc=$?
if (( rc )); then
  # results.json holds what was measured before the failure: report it, but leave docs/benchmarks.md alone
  echo "bench: a workload failed (exit $rc); partial results follow" >&2
  "$VENV/bin/python" "$HERE/report.py" "$OUT" || true
  exit "$rc"
fi
"$VENV/bin/python" "$HERE/report.py" "$OUT" "$([[ "${UPDATE_DOCS:-1}" == 1 ]] && echo "$ROOT/docs/benchmarks.md")"
echo "bench: results in $OUT (results.md, chart.png)"
