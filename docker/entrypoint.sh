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
#   OSSGW_HEAP_PERCENT  -XX:MaxRAMPercentage (default 40: the rest of the container limit is left to the prefetch and
#                       upload buffers (option memory_limit), thread stacks and the page cache)
#   OSSGW_JAVA_OPTS     extra JVM options, placed before -jar (e.g. -Dquarkus.http.port=9090)
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
# jnr-fuse/jffi load native code and use sun.misc.Unsafe: allowed explicitly (Java 25 warns otherwise).
# shellcheck disable=SC2086
exec "$JAVA" -XX:MaxRAMPercentage="${OSSGW_HEAP_PERCENT:-40}" -XX:+ExitOnOutOfMemoryError \
  --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow ${OSSGW_JAVA_OPTS:-} \
  -jar "$JAR" "$@"
