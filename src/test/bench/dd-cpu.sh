#!/usr/bin/env bash
# Gateway CPU of a 1 GiB `dd` write (conv=fsync) and a cold read of it through one fresh FUSE mount, to compare JVM
# start-up modes on the data path (issue 14; numbers in docs/benchmarks.md "Start-up and per-request CPU").
# Usage (as root, emulator and ENDPOINT as in ls-cpu-curve.sh): src/test/bench/dd-cpu.sh LABEL [MOUNT_OPTIONS] [JAVA_OPTIONS]
# The read is cold: the file's pages are dropped first (dd iflag=nocache count=0, i.e. POSIX_FADV_DONTNEED).
# THREADS=1 adds each write's CPU by thread group (threads named alike with their digits dropped, e.g. the FUSE loop's
# "ossgw-fuse /mnt...", the virtual threads' carriers "ForkJoinPool-#-worker-#", "C1 CompilerThre"; groups over 0.02 s).
set -euo pipefail
LABEL=$1 OPTS=${2:-} JOPTS=${3:-} MIB=${MIB:-1024} ROUNDS=${ROUNDS:-2}
. "$(dirname "$0")/fuse-mount.sh"
bench_mount dd-cpu 'rm -f "$M/dd-cpu.bin"'
# threads: "group ticks" per thread group of the gateway, sorted by group (utime + stime of its live threads)
threads() {
  for t in /proc/"$PID"/task/*/stat; do sed -E 's/^[0-9]+ \((.*)\) [A-Z] (.*)$/\1\t\2/' "$t" 2>/dev/null || true; done |
    awk -F'\t' '{split($2, f, " "); n=$1; gsub(/[0-9]+/, "#", n); gsub(/ /, "_", n); a[n]+=f[11]+f[12]}
      END {for (k in a) print k, a[k]}' | sort
}
out="$LABEL:"
for r in $(seq "$ROUNDS"); do
  [ -z "${THREADS:-}" ] || threads >"$WORK/threads.0"
  c0=$(cpu); t0=$(date +%s.%N)
  dd if=/dev/zero of="$M/dd-cpu.bin" bs=1M count="$MIB" conv=fsync status=none
  t1=$(date +%s.%N); c1=$(cpu)
  by=""
  if [ -n "${THREADS:-}" ]; then
    threads >"$WORK/threads.1"
    by=" ($(join -a2 -e0 -o 0,1.2,2.2 "$WORK/threads.0" "$WORK/threads.1" |
      awk -v hz="$(getconf CLK_TCK)" '$3-$2 > 2 {printf "%s%s %.2f", sep, $1, ($3-$2)/hz; sep=", "}'))"
  fi
  dd if="$M/dd-cpu.bin" iflag=nocache count=0 status=none
  c2=$(cpu); t2=$(date +%s.%N)
  dd if="$M/dd-cpu.bin" of=/dev/null bs=1M status=none
  t3=$(date +%s.%N); c3=$(cpu)
  out="$out $(printf 'write %.1f s / %s CPU-s%s, read %.1f s / %s CPU-s;' "$(echo "$t1-$t0" | bc)" "$(secs "$c0" "$c1")" \
    "$by" "$(echo "$t3-$t2" | bc)" "$(secs "$c2" "$c3")")"
done
echo "$out ${MIB} MiB, load $(cut -d' ' -f1 /proc/loadavg)"
