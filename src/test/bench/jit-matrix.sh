#!/usr/bin/env bash
# Start-up and JIT configurations side by side (issue 14; docs/benchmarks.md "Start-up and JIT"): for every
# configuration, four fresh gateways: cold `ls -l` of DIR1 (default options) and of DIR2 (readdir_optimize), 1,000
# `touch`, one 1 GiB dd write + cold read. Gateway CPU from /proc (ls-cpu-curve.sh, touch-cpu.sh, dd-cpu.sh).
# Usage (as root, emulator, ENDPOINT and seeded directories as in ls-cpu-curve.sh):
#   src/test/bench/jit-matrix.sh ROUND 'LABEL|LAUNCHER|JAVA_OPTIONS' ...
# e.g. src/test/bench/jit-matrix.sh 1 'C1|./ossgw|-XX:AOTMode=off' 'C1+AOT|./ossgw|' 'C1+C2|./ossgw|-XX:TieredStopAtLevel=4'
# LAUNCHER is an ./ossgw (a copy next to another build's gateway-app/target compares builds); DIR1/DIR2 default ls/ls2.
set -euo pipefail
B="$(dirname "$0")"
R=$1
shift
for cfg in "$@"; do
  IFS='|' read -r label launcher jopts <<<"$cfg"
  export OSSGW="$launcher"
  DIRS=${DIR1:-ls} "$B/ls-cpu-curve.sh" "r$R $label default" "" "$jopts"
  DIRS=${DIR2:-ls2} "$B/ls-cpu-curve.sh" "r$R $label readdir_optimize" "readdir_optimize" "$jopts"
  "$B/touch-cpu.sh" "r$R $label touch" "" "$jopts"
  ROUNDS=1 "$B/dd-cpu.sh" "r$R $label dd" "" "$jopts"
done
