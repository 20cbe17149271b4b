#!/usr/bin/env bash
# The training run of the gateway's JVM AOT cache (JDK 25: JEP 483 classes loaded and linked, JEP 515 method
# profiles; docs/benchmarks.md "Start-up and JIT"). Run by ./ossgw when the cache of the current build is missing and
# by the Dockerfile at image build time; needs no network, no FUSE and no root.
#
#   aot-train.sh CACHE JAVA JAR [JVM_OPTION...]
#
# Starts `JAVA JVM_OPTION... -XX:AOTCacheOutput=CACHE.tmp -jar JAR serve demo --nfs`: the embedded OSS emulator,
# one engine and the NFS server, all on loopback ports chosen by the OS, state in a temporary directory. Their start
# (Quarkus, the OSS SDK and HttpClient through the bucket check, the engine, oncrpc4j) is the training. With libnfs's
# nfs-cp/nfs-ls on the PATH it also writes, lists and reads some files over NFS; where FUSE can be mounted (/dev/fuse
# writable, fusermount installed: not in an image build) the same serve also mounts the bucket and lists, writes and
# reads through it (the FUSE binding's classes). Then SIGTERM: the JVM assembles the
# cache as it exits, and the file is moved to CACHE only when complete (a failed or killed training leaves none).
# The JVM options must be those the cache will be used with (the JVM refuses a cache whose module or native-access
# options differ), so ./ossgw and the Dockerfile pass the same ones they run the gateway with.
#
#   aot-train.sh --key JAVA JAR
#
# prints the key of the JDK of JAVA (its libjvm.so and lib/modules) and of the app of JAR (every jar under JAR's
# directory: name, size, mtime). A training writes it to CACHE.key; ./ossgw keeps its caches under it and
# docker/entrypoint.sh uses a cache only when its CACHE.key is the key of the runtime and app at hand. This check is
# needed: with Quarkus's fast-jar layout the JVM validates only the JDK part of a cache's class path, so it takes a
# cache made for other jars without a word (measured with JDK 25.0.3; docs/benchmarks.md "Start-up and JIT").
set -euo pipefail
aot_key() {
  local java home
  java="$(readlink -f "$(command -v "$1")")"
  home="$(dirname "$(dirname "$java")")"
  { stat -L -c '%n %s %Y' "$home/lib/server/libjvm.so" "$home/lib/modules" 2>/dev/null || true
    (cd "$(dirname "$2")" && find . -name '*.jar' -printf '%p %s %T@\n' | LC_ALL=C sort); } | cksum | tr ' ' -
}
if [[ "${1:-}" == --key ]]; then
  (( $# == 3 )) || { echo "usage: aot-train.sh --key JAVA JAR" >&2; exit 64; }
  aot_key "$2" "$3"
  exit 0
fi
(( $# >= 3 )) || { echo "usage: aot-train.sh CACHE JAVA JAR [JVM_OPTION...]" >&2; exit 64; }
cache=$1 java=$2 jar=$3
shift 3
work="$(mktemp -d "${TMPDIR:-/tmp}/ossgw-aot-train.XXXXXX")"
# absolute paths: the training runs in its own directory
java="$(command -v "$java")" jar="$(readlink -f "$jar")" cache="$(readlink -f "$(dirname "$cache")")/$(basename "$cache")"
pid=""
fuse=()
cleanup() {
  if [[ -n "$pid" ]] && kill "$pid" 2>/dev/null; then wait "$pid" 2>/dev/null || true; fi
  if [[ -d "$work/mnt" ]] && mountpoint -q "$work/mnt" 2>/dev/null; then fusermount -u -z "$work/mnt" 2>/dev/null; fi
  rm -rf "$work" "$cache.tmp" "$cache.tmp.config"
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP

# The training sees none of the user's configuration: no endpoint, credentials or ossgw/Quarkus settings from the
# environment (it must never reach a real bucket), and no ./config/application.properties or ./.env (Quarkus reads
# both from the working directory).
for v in $(compgen -e); do
  case "$v" in OSSGW_* | QUARKUS_* | OSS_* | SMALLRYE_*) unset "$v" ;; esac
done
cd "$work"

# start_serve: the training gateway in the background (pid), and its NFS port (port) once the export is up.
start_serve() {
  "$java" "$@" -XX:AOTCacheOutput="$cache.tmp" -Dossgw.state-dir="$work/state" -Dquarkus.http.port=0 \
    -Dossgw.emulator.bucket=demo "${fuse[@]}" -jar "$jar" serve demo --nfs --nfs-port 0 -o "tmpdir=$work" \
    >"$work/log" 2>&1 &
  pid=$!
  port=""
  for _ in $(seq 600); do
    # "NFS export 'demo': /demo (bucket demo) on 127.0.0.1:PORT; ..." (or "PORT, NFS 3,4.1; ..." with NFSv4.1)
    port="$(sed -nE "s/.*NFS export 'demo': .* on 127\.0\.0\.1:([0-9]+)[^0-9].*/\1/p" "$work/log" | head -n1)"
    [[ -n "$port" ]] && return 0
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$work/log" >&2
  if kill "$pid" 2>/dev/null; then wait "$pid" 2>/dev/null || true; fi
  pid=""
  rm -f "$cache.tmp" "$cache.tmp.config"
  return 1
}
if [[ -w /dev/fuse ]] && command -v fusermount >/dev/null; then
  mkdir -p "$work/mnt"
  fuse=(-Dossgw.mounts.train.bucket=demo -Dossgw.mounts.train.mountpoint="$work/mnt")
  # /dev/fuse can be there without the right to mount (an unprivileged container): then train without FUSE
  start_serve "$@" || { echo "aot-train: no FUSE mount here; training without it" >&2; fuse=(); start_serve "$@"; } \
    || { echo "aot-train: the training gateway did not start" >&2; exit 1; }
else
  start_serve "$@" || { echo "aot-train: the training gateway did not start" >&2; exit 1; }
fi

# libnfs takes a URL's directory as the export to mount, so the files live at the export's root
nfs_workload() {
  local url="nfs://127.0.0.1/demo" q="?version=3&nfsport=$port&mountport=$port" i
  head -c 1024 /dev/zero >"$work/small" && head -c $((8 << 20)) /dev/zero >"$work/big" || return 1
  for i in $(seq 50); do nfs-cp "$work/small" "$url/train-f$i$q" >/dev/null || return 1; done
  nfs-cp "$work/big" "$url/train-big$q" >/dev/null && nfs-ls "$url$q" >/dev/null \
    && nfs-cp "$url/train-big$q" "$work/back" >/dev/null && nfs-cp "$url/train-f1$q" "$work/back1" >/dev/null
}
if command -v nfs-cp >/dev/null && command -v nfs-ls >/dev/null; then
  nfs_workload || echo "aot-train: the NFS part of the training failed; the cache covers the start only" >&2
fi

fuse_workload() {
  local d="$work/mnt/train-fuse" i
  mkdir "$d" && for i in $(seq 50); do echo "$i" >"$d/f$i" || return 1; done
  head -c $((8 << 20)) /dev/zero >"$d/big" && ls -l "$work/mnt" "$d" >/dev/null && cat "$d"/* >/dev/null \
    && mv "$d/f1" "$d/g1" && chmod 600 "$d/g1" && rm -r "$d"
}
if (( ${#fuse[@]} )) && mountpoint -q "$work/mnt"; then
  fuse_workload || echo "aot-train: the FUSE part of the training failed" >&2
fi

kill -TERM "$pid"
rc=0
wait "$pid" || rc=$?
pid=""
if [[ ! -s "$cache.tmp" ]]; then
  cat "$work/log" >&2
  echo "aot-train: no cache written (exit status $rc)" >&2
  exit 1
fi
aot_key "$java" "$jar" >"$cache.key"
mv -f "$cache.tmp" "$cache"
