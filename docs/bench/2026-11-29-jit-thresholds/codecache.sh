#!/usr/bin/env bash
# per mode: a fresh `serve --nfs`, its start CPU, C1 compiler thread CPU and code cache use after start and after 512 MiB nfs-cp
cd /work/wt/h19
export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64 PATH=/usr/lib/jvm/temurin-25-jdk-amd64/bin:$PATH
export OSSGW_NO_BUILD=1 OSS_ACCESS_KEY_ID=ak OSS_ACCESS_KEY_SECRET=sk ENDPOINT=http://127.0.0.1:$(cat /var/tmp/h19/port)
W=/var/tmp/h19/cc; mkdir -p $W; head -c $((512<<20)) /dev/zero > $W/src.bin
probe() {
  local pid=$1 t c1=0 nm
  for t in /proc/$pid/task/*; do
    [[ "$(cat $t/comm)" == C1* ]] && c1=$(( c1 + $(awk '{print $14+$15}' $t/stat) ))
  done
  nm=$(jcmd $pid Compiler.codecache 2>/dev/null | grep -o 'nmethods=[0-9]*' | head -1)
  used=$(jcmd $pid Compiler.codecache 2>/dev/null | grep -o 'used=[0-9]*Kb' | head -1)
  echo "cpu $(awk '{printf "%.2f", ($14+$15)/100}' /proc/$pid/stat) C1-thread $(echo "scale=2; $c1/100" | bc) $nm $used"
}
for cfg in "$@"; do
  IFS='|' read -r label jopts <<<"$cfg"
  P=$(( 20000 + RANDOM % 20000 )); H=$(( 40000 + RANDOM % 20000 )); rm -rf $W/state
  OSSGW_JAVA_OPTS="$jopts -Dquarkus.http.port=$H -Dossgw.state-dir=$W/state" ./ossgw serve probe --nfs --nfs-port $P -o "url=$ENDPOINT,state_dir=$W/state" > $W/serve.log 2>&1 &
  SP=$!
  for i in $(seq 300); do grep -q "NFS" $W/serve.log 2>/dev/null && nc -z 127.0.0.1 $P 2>/dev/null && break; sleep 1; done; sleep 2
  a=$(probe $SP)
  nfs-cp $W/src.bin "nfs://127.0.0.1/probe/cc-$label-$RANDOM.bin?nfsport=$P&mountport=$P&version=3" >/dev/null
  b=$(probe $SP)
  echo "$label: after start: $a; after 512 MiB nfs-cp: $b; load $(cut -d' ' -f1 /proc/loadavg)"
  kill $SP; wait $SP 2>/dev/null
done
rm -f $W/src.bin
# the FUSE mount's wall time and start CPU, with the mount log kept
for cfg in "$@"; do
  IFS='|' read -r label jopts <<<"$cfg"
  M=$W/mnt-$label; mkdir -p $M; rm -rf $W/mstate
  t0=$(date +%s.%N)
  OSSGW_JAVA_OPTS="$jopts" ./ossgw mount probe $M -o "url=$ENDPOINT,state_dir=$W/mstate" > $W/mount-$label.log 2>&1
  t1=$(date +%s.%N)
  PID=$(pgrep -f "quarkus-run.jar mount probe $M" | head -1)
  echo "$label mount: wall $(echo "$t1-$t0" | bc) s, $(probe $PID); load $(cut -d' ' -f1 /proc/loadavg)"
  fusermount -u $M
  for i in $(seq 60); do kill -0 $PID 2>/dev/null || break; sleep 1; done
done
