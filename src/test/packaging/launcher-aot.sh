#!/usr/bin/env bash
# Packaging check of the JVM AOT cache (issue 14; docs/benchmarks.md "Start-up and JIT") in ./ossgw and
# docker/entrypoint.sh, on the host with the built app (gateway-app/target/quarkus-app) and a JDK >= 25 in JAVA_HOME:
#   1. a plain start never trains; OSSGW_AOT=train trains a cache once for a build (docker/aot-train.sh) and the next
#      start loads the app's classes from it
#   2. a rebuilt jar: the old cache is not used, and OSSGW_AOT=train trains a new one under a new key
#   3. OSSGW_JAVA_OPTS with an -XX:AOT* option and OSSGW_AOT=0 win (no cache used, none trained)
#   4. docker/entrypoint.sh uses $OSSGW_HOME/ossgw.aot when its ossgw.aot.key matches the runtime and jars, not with
#      OSSGW_AOT=0, and not (saying so) once a jar has changed
# Run alone (src/test/packaging/launcher-aot.sh; writes $LOGS/packaging-aot.xml) or from check.sh (sourced, WORK set).
# Works on a copy of the launcher and the app in a scratch directory, so the checkout's own cache is left alone.
set -uo pipefail

ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
standalone=0
if [[ -z "${WORK:-}" ]]; then
  standalone=1
  WORK="$(mktemp -d "${TMPDIR:-/tmp}/ossgw-packaging-aot.XXXXXX")"
  trap 'rm -rf "$WORK"' EXIT
  CHECK_CLASS=packaging-aot
  # shellcheck source=src/test/packaging/checks.sh
  source "$ROOT/src/test/packaging/checks.sh"
fi
APP="$ROOT/gateway-app/target/quarkus-app"
if [[ ! -f "$APP/quarkus-run.jar" ]]; then
  echo "launcher-aot: $APP is missing; build it first" >&2
  (( standalone )) && exit 2
  return 2
fi

# A copy of the launcher, the training script and the app (hard links: nothing here writes into the jars; the check
# that changes a jar replaces its link with a copy first).
R="$WORK/aot-root"
mkdir -p "$R/docker" "$R/gateway-app/target"
cp "$ROOT/ossgw" "$R/"
cp "$ROOT/docker/aot-train.sh" "$ROOT/docker/entrypoint.sh" "$R/docker/"
cp -al "$APP" "$R/gateway-app/target/"
export OSSGW_NO_BUILD=1
# The class the launcher starts: loaded from the AOT cache ("source: shared objects file") or from its jar.
MAIN_CLASS=io.ossgw.app.cli.OssgwMain
from_cache() { grep -q "$MAIN_CLASS source: shared objects file" "$1"; }
caches() { find "$1" -name ossgw.aot 2>/dev/null | wc -l; }

trains_once_and_uses() {
  # a plain start of a build the launcher did not build waits for no training
  OSSGW_AOT_DIR="$WORK/aot" "$R/ossgw" --version >"$WORK/v0.out" 2>"$WORK/v0.err" || { cat "$WORK/v0.err"; return 1; }
  ! grep -q "training" "$WORK/v0.err" || { echo "a plain start trained"; return 1; }
  [[ "$(caches "$WORK/aot")" == 0 ]] || { echo "a plain start made a cache"; return 1; }
  # an endpoint in the environment must not reach the training (it trains on its own embedded emulator): this one
  # refuses connections, so a training that used it would fail
  OSSGW_AOT=train OSSGW_OSS_ENDPOINT=http://127.0.0.1:9 OSSGW_AOT_DIR="$WORK/aot" "$R/ossgw" --version \
    >"$WORK/v1.out" 2>"$WORK/v1.err" \
    || { cat "$WORK/v1.err"; return 1; }
  grep -q "training the JVM's AOT cache" "$WORK/v1.err" || { echo "no training announced"; cat "$WORK/v1.err"; return 1; }
  [[ "$(caches "$WORK/aot")" == 1 ]] || { echo "expected one cache"; find "$WORK/aot"; return 1; }
  [[ -s "$(find "$WORK/aot" -name ossgw.aot).key" ]] || { echo "no key file next to the cache"; return 1; }
  OSSGW_AOT_DIR="$WORK/aot" OSSGW_JAVA_OPTS="-Xlog:class+load=info" "$R/ossgw" --version >"$WORK/v2.out" 2>"$WORK/v2.err" \
    || { cat "$WORK/v2.err"; return 1; }
  ! grep -q "training" "$WORK/v2.err" || { echo "trained again"; return 1; }
  from_cache "$WORK/v2.out" || { echo "$MAIN_CLASS not loaded from the cache"; grep "$MAIN_CLASS" "$WORK/v2.out"; return 1; }
  grep -q '^ossgw ' "$WORK/v2.out"
}

rebuilt_jar_new_cache() {
  local jar="$R/gateway-app/target/quarkus-app/quarkus-run.jar"
  cp --remove-destination "$APP/quarkus-run.jar" "$jar" && touch -d '+1 min' "$jar"
  # the launcher keys the cache by the jars: the old one is not used, and a new one is trained when asked
  OSSGW_AOT_DIR="$WORK/aot" OSSGW_JAVA_OPTS="-Xlog:class+load=info" "$R/ossgw" --version >"$WORK/s.out" 2>&1 \
    || { cat "$WORK/s.out"; return 1; }
  ! from_cache "$WORK/s.out" || { echo "the old cache was used for a rebuilt jar"; return 1; }
  OSSGW_AOT=train OSSGW_AOT_DIR="$WORK/aot" OSSGW_JAVA_OPTS="-Xlog:class+load=info" "$R/ossgw" --version \
    >"$WORK/n.out" 2>"$WORK/n.err" \
    || { cat "$WORK/n.err"; return 1; }
  grep -q "training the JVM's AOT cache" "$WORK/n.err" || { echo "no new training"; cat "$WORK/n.err"; return 1; }
  [[ "$(caches "$WORK/aot")" == 2 ]] || { echo "expected a second cache"; find "$WORK/aot"; return 1; }
  from_cache "$WORK/n.out" || { echo "the new cache was not used"; return 1; }
}

overrides_win() {
  OSSGW_AOT_DIR="$WORK/aot" OSSGW_JAVA_OPTS="-XX:AOTMode=off -Xlog:class+load=info" "$R/ossgw" --version \
    >"$WORK/o.out" 2>&1 || { cat "$WORK/o.out"; return 1; }
  ! from_cache "$WORK/o.out" || { echo "cache used despite -XX:AOTMode=off"; return 1; }
  OSSGW_AOT=0 OSSGW_AOT_DIR="$WORK/aot-off" OSSGW_JAVA_OPTS="-Xlog:class+load=info" "$R/ossgw" --version \
    >"$WORK/z.out" 2>&1 || { cat "$WORK/z.out"; return 1; }
  ! from_cache "$WORK/z.out" || { echo "cache used despite OSSGW_AOT=0"; return 1; }
  [[ ! -e "$WORK/aot-off" ]] || { echo "OSSGW_AOT=0 trained a cache"; return 1; }
}

entrypoint_uses_image_cache() {
  local c
  c="$(find "$WORK/aot" -name ossgw.aot -newer "$WORK/v2.out" | head -n1)"
  [[ -n "$c" ]] || { echo "no cache for the current jars"; return 1; }
  cp "$c" "$R/gateway-app/target/ossgw.aot" && cp "$c.key" "$R/gateway-app/target/ossgw.aot.key"
  OSSGW_HOME="$R/gateway-app/target" OSSGW_JAVA_OPTS="-Xlog:class+load=info" "$R/docker/entrypoint.sh" --version \
    >"$WORK/e.out" 2>&1 || { cat "$WORK/e.out"; return 1; }
  from_cache "$WORK/e.out" || { echo "entrypoint: cache not used"; grep -E "aot|AOT|$MAIN_CLASS" "$WORK/e.out"; return 1; }
  OSSGW_AOT=0 OSSGW_HOME="$R/gateway-app/target" OSSGW_JAVA_OPTS="-Xlog:class+load=info" \
    "$R/docker/entrypoint.sh" --version >"$WORK/e0.out" 2>&1 || { cat "$WORK/e0.out"; return 1; }
  ! from_cache "$WORK/e0.out" || { echo "entrypoint: cache used despite OSSGW_AOT=0"; return 1; }
  # another build of a jar (here: the same bytes, a new mtime) under the same cache: skipped, with a log line
  local lib
  lib="$(find "$R/gateway-app/target/quarkus-app/lib/main" -name '*.jar' | head -n1)"
  cp --remove-destination "$APP/lib/main/$(basename "$lib")" "$lib" && touch -d '+2 min' "$lib"
  OSSGW_HOME="$R/gateway-app/target" OSSGW_JAVA_OPTS="-Xlog:class+load=info" "$R/docker/entrypoint.sh" --version \
    >"$WORK/e1.out" 2>&1 || { cat "$WORK/e1.out"; return 1; }
  grep -q "AOT cache .* not used: made for another runtime or other jars" "$WORK/e1.out" \
    || { echo "entrypoint: no word about the stale cache"; return 1; }
  ! from_cache "$WORK/e1.out" || { echo "entrypoint: a stale cache was used"; return 1; }
}

check "launcher: AOT cache trained when asked (never on a plain start), once per build, and used" trains_once_and_uses
check "launcher: a rebuilt jar gets a new AOT cache" rebuilt_jar_new_cache
check "launcher: -XX:AOT* in OSSGW_JAVA_OPTS and OSSGW_AOT=0 win" overrides_win
check "entrypoint: the image's AOT cache used; not with OSSGW_AOT=0 or changed jars" entrypoint_uses_image_cache

if (( standalone )); then
  LOGS="${OSSGW_TEST_LOGS:-$ROOT/target/test-logs}"
  mkdir -p "$LOGS" && write_junit "$LOGS/packaging-aot.xml"
  echo "packaging-aot: $PASSED passed, $FAILED failed"
  (( FAILED == 0 ))
fi
