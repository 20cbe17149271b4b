#!/usr/bin/env bash
# ossgw container entrypoint (also run on the host by src/test/packaging/check.sh): turns the container's
# environment and mounted files into an `ossgw serve` command line and execs the JVM (tini is PID 1 in the image).
#
#   entrypoint                      -> ossgw serve [--config $OSSGW_CONFIG_FILE]
#   entrypoint serve|mount|emulator|umount|demo|--help|--version ...   -> ossgw <args> (serve gets --config as above)
#   entrypoint -o opts ...           -> ossgw serve -o opts ... (any first argument starting with '-')
#   entrypoint <other command>       -> exec'd as is (e.g. bash for debugging)
#
# Environment (all optional):
#   OSSGW_CONFIG_FILE   properties file with ossgw.* keys (default /etc/ossgw/ossgw.properties; used when it exists).
#                       Environment variables win over it: OSSGW_OSS_ENDPOINT=... is ossgw.oss.endpoint (Quarkus
#                       maps ossgw.a-b.c to OSSGW_A_B_C).
#   OSS_ACCESS_KEY_ID, OSS_ACCESS_KEY_SECRET          credentials (read by ossgw, never written anywhere)
#   OSS_ACCESS_KEY_ID_FILE, OSS_ACCESS_KEY_SECRET_FILE  files holding them (Docker/Kubernetes secrets); the file wins
#   OSSGW_HOME          where quarkus-app/ lives (default /opt/ossgw; on the host: gateway-app/target)
#   JAVA_HOME           the Java 25 runtime (default /opt/java/openjdk, else `java` on PATH)
#   OSSGW_MEMORY_LIMIT  the process's memory in MB (else -o memory_limit=, ossgw.options.memory_limit of the config
#                       file, or the container's limit less a reserve): sizes heap, direct memory and buffers (below)
#   OSSGW_JAVA_OPTS     extra JVM options, placed before -jar (e.g. -Dquarkus.http.port=9090); its -Xmx, -Xms,
#                       -XX:MaxDirectMemorySize and GC win over the derived ones, its -XX:TieredStopAtLevel over the
#                       C1-only default (see "JIT" below); an -XX:AOT* option turns the image's AOT cache off
#   OSSGW_AOT=0         do not use the AOT cache ($OSSGW_HOME/ossgw.aot, made at image build; OSSGW_AOT_CACHE: another)
# SMB users' Unix accounts (Samba's tdbsam needs one each) are created by the gateway itself (io.ossgw.app.smb).
set -euo pipefail

log() { echo "ossgw-entrypoint: $*" >&2; }
die() { log "$*"; exit 64; }

OSSGW_HOME="${OSSGW_HOME:-/opt/ossgw}"
JAR="$OSSGW_HOME/quarkus-app/quarkus-run.jar"
CONFIG="${OSSGW_CONFIG_FILE:-/etc/ossgw/ossgw.properties}"

# --- credentials from files: the variable is exported only into ossgw's environment, never logged
for var in OSS_ACCESS_KEY_ID OSS_ACCESS_KEY_SECRET; do
  file_var="${var}_FILE"
  if [[ -n "${!file_var:-}" ]]; then
    [[ -r "${!file_var}" ]] || die "$file_var=${!file_var} is not a readable file"
    value="$(<"${!file_var}")"
    value="${value%$'\n'}"
    export "$var=$value"
    unset "$file_var"
  fi
done
unset value

# --- Java
find_java() {
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then echo "$JAVA_HOME/bin/java"; return; fi
  if [[ -x /opt/java/openjdk/bin/java ]]; then echo /opt/java/openjdk/bin/java; return; fi
  command -v java || die "no Java runtime (set JAVA_HOME)"
}

# --- command line
is_ossgw_command() {
  case "$1" in
    serve | mount | umount | emulator | demo | help | -h | --help | -V | --version) return 0 ;;
  esac
  return 1
}
if (( $# == 0 )); then
  set -- serve
elif [[ "$1" == -* ]] && ! is_ossgw_command "$1"; then
  set -- serve "$@"
elif ! is_ossgw_command "$1"; then
  exec "$@"
fi

if [[ "$1" == serve ]]; then
  has_config=0
  for a in "$@"; do [[ "$a" == --config || "$a" == --config=* ]] && has_config=1; done
  if (( ! has_config )) && [[ -f "$CONFIG" ]]; then
    set -- serve --config "$CONFIG" "${@:2}"
    log "config: $CONFIG"
  elif (( ! has_config )) && [[ -n "${OSSGW_CONFIG_FILE:-}" ]]; then
    die "OSSGW_CONFIG_FILE=$OSSGW_CONFIG_FILE does not exist"
  elif (( ! has_config )); then
    # the quick form (serve BUCKET --nfs) listens on 127.0.0.1 by default; in a container every interface is right
    # (published ports decide who reaches it). --nfs-bind/--http-bind and these variables still win.
    export OSSGW_NFS_BIND="${OSSGW_NFS_BIND:-0.0.0.0}" QUARKUS_HTTP_HOST="${QUARKUS_HTTP_HOST:-0.0.0.0}"
  fi
fi

[[ -f "$JAR" ]] || die "$JAR is missing (OSSGW_HOME=$OSSGW_HOME)"
JAVA="$(find_java)"

# >>> memory sizing (identical in ./ossgw and docker/entrypoint.sh; src/test/reliability/test_memory_load.py checks)
# One number sizes the whole process (SEMANTICS.md "Memory"): memory_limit in MB, taken from `-o ...memory_limit=N`
# among the arguments, else $OSSGW_MEMORY_LIMIT, else ossgw.options.memory_limit of the `--config` file, else the
# cgroup's limit (memory.max) less a reserve for what is not the JVM's heap or buffers (its code, metaspace and thread
# stacks, smbd, the page cache): a quarter of the limit, at least OSSGW_RESERVE_MB. Half of memory_limit is the heap
# (-Xmx; up to 512 MB also -Xms, fixed), half direct memory (-XX:MaxDirectMemorySize), of which the prefetch and
# upload buffers take half (the engine's budget: a quarter of memory_limit) and FUSE and socket buffers the rest.
# -Xmx, -Xms, -XX:MaxDirectMemorySize or a GC given in OSSGW_JAVA_OPTS win. No limit anywhere: the JVM's defaults.
# -Dio.ossgw.memory_limit=MB tells the process the number, for the FATAL line of an exhausted heap (which ends the process
# with status 4, so a supervisor restarts it: SEMANTICS.md "Memory"). Not -XX:+ExitOnOutOfMemoryError: it would exit
# at the first OutOfMemoryError of any one request, without that line and without detaching a FUSE mount.
OSSGW_RESERVE_MB=192
# memory_limit in MB for the arguments "$@", and where it came from, as "MB SOURCE"; nothing when there is no limit.
ossgw_memory_limit() {
  local a prev="" opts="" v="" src="" cfg=""
  for a in "$@"; do
    case "$prev" in
      -o) opts="$opts,$a" ;;
      --config) cfg="$a" ;;
    esac
    case "$a" in
      -o?*) opts="$opts,${a#-o}" ;;
      --config=*) cfg="${a#--config=}" ;;
    esac
    prev="$a"
  done
  if [[ ",$opts," =~ ,=?memory_limit=([0-9]+), ]]; then
    v="${BASH_REMATCH[1]}" src="-o memory_limit"
  elif [[ "${OSSGW_MEMORY_LIMIT:-}" =~ ^[0-9]+$ ]]; then
    v="$OSSGW_MEMORY_LIMIT" src="OSSGW_MEMORY_LIMIT"
  elif [[ -n "$cfg" && -r "$cfg" ]] \
      && v="$(sed -nE 's/^[[:space:]]*ossgw\.options\.memory_limit[[:space:]]*[=:][[:space:]]*([0-9]+)[[:space:]]*$/\1/p' "$cfg" | tail -n1)" \
      && [[ -n "$v" ]]; then
    src="ossgw.options.memory_limit in $cfg"
  else
    local f n
    v=""
    local cg="${OSSGW_CGROUP_FS:-/sys/fs/cgroup}" # another root only for tests
    for f in "$cg/memory.max" "$cg/memory/memory.limit_in_bytes"; do
      n="$(cat "$f" 2>/dev/null || true)"
      if [[ "$n" =~ ^[0-9]+$ ]] && (( n < (1 << 50) )); then
        n=$(( n >> 20 ))
        local reserve=$(( n / 4 > OSSGW_RESERVE_MB ? n / 4 : OSSGW_RESERVE_MB ))
        v=$(( n - reserve > 128 ? n - reserve : 128 )) src="cgroup limit ${n} MB ($f) less ${reserve} MB"
        break
      fi
    done
  fi
  [[ -n "$v" ]] && echo "$v $src"
  return 0
}
# The JVM options that size the heap and direct memory for memory_limit MB (see above), minus those OSSGW_JAVA_OPTS sets.
ossgw_memory_jvm_options() {
  local mb="$1" user=" ${OSSGW_JAVA_OPTS:-} " half
  half=$(( mb / 2 ))
  if [[ "$user" != *" -Xmx"* && "$user" != *"MaxRAMPercentage"* && "$user" != *"MaxRAM="* ]]; then
    # a small heap is fixed (it never grows past -Xms) and collected by the serial collector (no GC threads, the
    # least memory of its own); a larger one is G1's, grown as needed up to -Xmx
    if [[ "$user" != *" -Xms"* ]] && (( half <= 512 )); then printf -- '-Xms%dm ' "$half"; fi
    printf -- '-Xmx%dm ' "$half"
  fi
  [[ "$user" == *"MaxDirectMemorySize"* ]] || printf -- '-XX:MaxDirectMemorySize=%dm ' "$half"
  if [[ "$user" != *"-XX:+Use"*"GC"* ]] && (( half <= 512 )); then printf -- '-XX:+UseSerialGC '; fi
  printf -- '-XX:ReservedCodeCacheSize=64m -XX:MaxMetaspaceSize=192m -Dio.ossgw.memory_limit=%d' "$mb"
}
# <<< memory sizing

MEMORY_OPTS=""
if limit="$(ossgw_memory_limit "$@")" && [[ -n "$limit" ]]; then
  MEMORY_OPTS="$(ossgw_memory_jvm_options "${limit%% *}")"
  log "memory_limit ${limit%% *} MB (${limit#* }): $MEMORY_OPTS"
  # glibc gives every thread that mallocs an arena of its own (up to 8 per core): few arenas keep native memory small
  export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
fi

# >>> JIT (identical in ./ossgw and docker/entrypoint.sh)
# C1 only (-XX:TieredStopAtLevel=1) for the gateway, decided on the https, FUSE, NFS and cold-listing rows side by side,
# each mode with its own AOT cache (issue 22 item 2, docs/benchmarks.md "JIT policy (issue 22 item 2)"): C1 only was
# the cheapest or within 1.15x on every row but the 2nd and 3rd 512 MiB read in one NFS serve (1.3x); C1 + C2 cost the
# start 1.6x, the cold `ls -l` 1.7x and the first 512 MiB written 1.3-1.5x, C2 with tenfold thresholds 1.4-1.5x on the
# start and the listing (any tiered mode runs the request path as profiled C1 code first: the listing's extra cost).
# With TLS in BoringSSL no row needs C2. The emulator keeps the JVM's default. A TieredStopAtLevel or
# TieredCompilation option in OSSGW_JAVA_OPTS wins (e.g. -XX:TieredStopAtLevel=4 for C2 back).
ossgw_jit_options() {
  [[ "${1:-}" == emulator ]] && return 0
  case " ${OSSGW_JAVA_OPTS:-} " in
    *TieredStopAtLevel*|*TieredCompilation*) ;;
    *) printf -- '-XX:TieredStopAtLevel=1' ;;
  esac
}
# <<< JIT
JIT_OPTS="$(ossgw_jit_options "$@")"

# --- AOT cache: the image's, made by a training run at image build time (docker/aot-train.sh, see the Dockerfile) for
# exactly this runtime, these jars and these JVM options (native access, C1 only): a quarter to a third less CPU to
# start (docs/benchmarks.md "Start-up and JIT"). Used for every command but `emulator`; OSSGW_AOT=0 or an -XX:AOT*,
# SharedArchiveFile or -Xshare option in OSSGW_JAVA_OPTS turns it off. It is used only when its key file (written by
# the training) is the key of this runtime and these jars (aot-train.sh --key): the JVM does not check the jars of a
# fast-jar app itself, so a cache made for other jars (e.g. an app mounted over /opt/ossgw/quarkus-app) is skipped here,
# with a log line.
AOT_CACHE="${OSSGW_AOT_CACHE:-$OSSGW_HOME/ossgw.aot}"
AOT_OPTS=""
aot_train="$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")"
if [[ -x "$aot_train/aot-train.sh" ]]; then aot_train="$aot_train/aot-train.sh"; else aot_train="$aot_train/ossgw-aot-train"; fi
if [[ "$1" != emulator && "${OSSGW_AOT:-1}" != 0 && -f "$AOT_CACHE" ]]; then
  case " ${OSSGW_JAVA_OPTS:-} " in
    *-XX:AOT*|*SharedArchiveFile*|*-Xshare*) ;;
    *)
      if [[ -x "$aot_train" && "$(cat "$AOT_CACHE.key" 2>/dev/null)" == "$("$aot_train" --key "$JAVA" "$JAR" || true)" ]]; then
        AOT_OPTS="-XX:AOTCache=$AOT_CACHE"
      else
        log "AOT cache $AOT_CACHE not used: made for another runtime or other jars (or $AOT_CACHE.key is missing)"
      fi
      ;;
  esac
fi

# jnr-fuse/jffi load native code and use sun.misc.Unsafe: allowed explicitly (Java 25 warns otherwise).
# shellcheck disable=SC2086
# The Dockerfile's training run passes these same --enable-native-access and --sun-misc-unsafe-memory-access options
# (the JVM refuses an AOT cache made with other module options).
exec "$JAVA" $MEMORY_OPTS $JIT_OPTS $AOT_OPTS \
  --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow ${OSSGW_JAVA_OPTS:-} \
  -jar "$JAR" "$@"
