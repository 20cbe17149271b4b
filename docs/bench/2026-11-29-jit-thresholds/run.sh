#!/usr/bin/env bash
# h19 driver: interleaved rounds of the JIT-threshold modes
cd /work/wt/h19
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
export ENDPOINT=http://127.0.0.1:$(cat /var/tmp/h19/port) SMALL=1 SMALL_WORK=/var/tmp/h19/small
C1='C1|-XX:AOTMode=off'
S5='S0.5|-XX:AOTMode=off -XX:CompileThresholdScaling=0.5'
S25='S0.25|-XX:AOTMode=off -XX:CompileThresholdScaling=0.25'
TI='T3inv|-XX:AOTMode=off -XX:Tier3InvocationThreshold=50 -XX:Tier3MinInvocationThreshold=25 -XX:Tier3CompileThreshold=500 -XX:Tier0InvokeNotifyFreqLog=5'
TB='T3be|-XX:AOTMode=off -XX:Tier3BackEdgeThreshold=15000 -XX:Tier0BackedgeNotifyFreqLog=8'
S1='S0.1|-XX:AOTMode=off -XX:CompileThresholdScaling=0.1'
for r in "$@"; do
  case $r in
    1) set -- "$C1" "$S5" "$S25" "$S1" ;;
    2) set -- "$S1" "$S25" "$S5" "$C1" ;;
    3) set -- "$S25" "$C1" "$S1" "$S5" ;;
    4) set -- "$S5" "$S1" "$C1" "$S25" ;;
    5) set -- "$S25" "$C1" ;;
    6) set -- "$C1" "$S25" ;;
    7) set -- "$TI" "$C1" "$TB" ;;
    8) set -- "$TB" "$TI" "$C1" ;;
  esac
  echo "== round $r start $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)"
  src/test/bench/tls-jit-matrix.sh "$r" "$@" 2>&1
  echo "== round $r end $(date -u +%T)"
done
