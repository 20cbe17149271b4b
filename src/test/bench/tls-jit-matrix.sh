#!/usr/bin/env bash
# The JIT modes side by side on the https, FUSE-http and NFS rows (issue 22 item 2; docs/benchmarks.md "The JIT
# policy, decided on every path"): for every configuration a fresh gateway per row, gateway CPU from /proc:
#   dd-cpu.sh over https:// (stunnel in front of the emulator) and over http://, nfs-cpu.sh (nfs-cp / nfs-cat),
#   ls-cpu-curve.sh (cold `ls -l` of DIR, default ls).
# Usage (as root; emulator, ENDPOINT and seeded DIR as in ls-cpu-curve.sh; HTTPS_ENDPOINT the TLS terminator in front
# of it and TRUST_OPTS the JVM options that trust its CA, e.g. from src/test/bench/tls-front.sh):
#   src/test/bench/tls-jit-matrix.sh ROUND 'LABEL|JAVA_OPTIONS' ...
# e.g. src/test/bench/tls-jit-matrix.sh 1 'C1|' 'C2|-XX:TieredStopAtLevel=4'
# An empty JAVA_OPTIONS is the launcher's default (./ossgw's JIT section). MIB (default 512) sizes the dd rows.
# Every gateway gets the launcher's AOT cache for its JIT options when there is one (keyed by them: C1 only, or the
# JVM's tiered default for any JAVA_OPTIONS that name a TieredStopAtLevel); TRAIN=1 trains the missing ones first
# (OSSGW_AOT=train, as `./ossgw` does after a build), -XX:AOTMode=off in JAVA_OPTIONS runs one without.
# Run the configurations in a different order in each ROUND: the machine's load drifts.
# Without HTTPS_ENDPOINT the https row is left out (no tls-front.sh needed). SMALL=1 adds the NFS small-file row:
# nfs-ceiling.sh's `small` step on the gateway alone (STEPS=small SERVERS=ossgw PROFILE=0, its work directory
# SMALL_WORK, default /var/tmp/ossgw-jit-small), the configuration's options in GW_JAVA_OPTS.
set -euo pipefail
B="$(dirname "$0")"
R=$1
shift
export MIB=${MIB:-512} ROUNDS=${ROUNDS:-2}
if [[ "${TRAIN:-0}" == 1 ]]; then
  for cfg in "$@"; do
    OSSGW_NO_BUILD=1 OSSGW_AOT=train OSSGW_JAVA_OPTS="${cfg#*|}" "$B/../../../ossgw" --version >/dev/null
  done
fi
for cfg in "$@"; do
  IFS='|' read -r label jopts <<<"$cfg"
  if [[ -n "${HTTPS_ENDPOINT:-}" ]]; then
    ENDPOINT="$HTTPS_ENDPOINT" "$B/dd-cpu.sh" "r$R $label https dd" "" "$TRUST_OPTS $jopts"
  fi
  "$B/dd-cpu.sh" "r$R $label http dd" "" "$jopts"
  "$B/nfs-cpu.sh" "r$R $label nfs" "$jopts"
  DIRS=${DIR:-ls} "$B/ls-cpu-curve.sh" "r$R $label cold ls -l" "" "$jopts"
  if [[ "${SMALL:-0}" == 1 ]]; then
    echo "r$R $label nfs small: $(STEPS=small SERVERS=ossgw PROFILE=0 GW_JAVA_OPTS="$jopts" \
      WORK="${SMALL_WORK:-/var/tmp/ossgw-jit-small}" "$B/nfs-ceiling.sh" | grep '| ossgw | small |')"
  fi
done
