#!/usr/bin/env bash
# Runs one job script in the test guest (a Debian 12 VM under QEMU with the Linux kernel's NFS and CIFS clients) and
# exits with the job's exit code. Usage:
#   src/test/vm/run.sh [-e NAME=VALUE]... [-f FILE]... JOB [ARGS...]
# JOB runs in the guest as root from /job (with ARGS; -e sets its environment, -f copies more files next to it).
# Its stdout and stderr come back on the guest's second serial port and are printed here as they arrive.
# The guest reaches the host's loopback as 10.0.2.2 (QEMU user-mode networking only), so the servers the caller
# started on 127.0.0.1 are at 10.0.2.2:PORT. The root is opened with snapshot=on: nothing a job does persists.
# Environment: OSSGW_VM_ACCEL=auto|kvm|tcg (auto: KVM when a probe boot shows it works on this host, cached per host
#   boot; else TCG, `-accel tcg,thread=multi -cpu max`), OSSGW_VM_TIMEOUT (s, default 900; QEMU is killed then and
#   the exit code is 124), OSSGW_VM_MEM (MiB, 1536), OSSGW_VM_SMP (2), OSSGW_VM_CONSOLE (file for the guest's
#   kernel console; default a temp file, printed on failure), OSSGW_VM_QUIET=1 (do not stream the job's output),
#   OSSGW_VM_NETDEV (more options of the guest's `-netdev user`, comma-separated: `hostfwd=udp:127.0.0.1:P-:111` lets
#   the host reach a guest port, `guestfwd=tcp:10.0.2.100:111-cmd:COMMAND` gives the guest an address whose port
#   runs COMMAND on the host for each connection, with the connection as its stdin and stdout;
#   test_cluster_failover.py's NLM test uses both).
# Exit codes besides the job's: 124 timeout, 125 the guest ended without reporting (console printed), 2 usage/setup.
set -euo pipefail
{ # (read whole before it runs: editing this file while a job runs is harmless)
HERE="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
CACHE="${OSSGW_VM_CACHE:-$HOME/.cache/ossgw-vm}"
usage() { sed -n '2,4p' "$0" >&2; exit 2; }
envs=(); files=()
while getopts "e:f:h" opt; do
  case $opt in
    e) [[ "$OPTARG" == *=* ]] || usage; envs+=("$OPTARG") ;;
    f) files+=("$OPTARG") ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
(( $# >= 1 )) || usage
JOB="$1"; shift
[[ -f "$JOB" ]] || { echo "run.sh: no job script $JOB" >&2; exit 2; }
command -v qemu-system-x86_64 >/dev/null \
  || { echo "run.sh: qemu-system-x86_64 missing (apt-get install qemu-system-x86)" >&2; exit 2; }

IMG="$("$HERE/build-image.sh")"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/ossgw-vm.XXXXXX")"
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT

# --- the job disk: a tar archive written raw (tar's 10 KiB records are whole sectors); no file system needed.
mkdir "$WORK/job"
cp "$JOB" "$WORK/job/job.sh"
for f in "${files[@]+"${files[@]}"}"; do cp -a "$f" "$WORK/job/"; done
: > "$WORK/job/env"
for e in "${envs[@]+"${envs[@]}"}"; do printf '%s=%q\n' "${e%%=*}" "${e#*=}" >> "$WORK/job/env"; done
: > "$WORK/job/args"
for a in "$@"; do printf '%s\n' "$a" >> "$WORK/job/args"; done
tar -cf "$WORK/job.tar" -C "$WORK/job" .

OUT="$WORK/out"
CONSOLE="${OSSGW_VM_CONSOLE:-$WORK/console}"
: > "$OUT"; : > "$CONSOLE"

boot() { # accel timeout -> runs QEMU on the current job disk; returns QEMU's (or timeout's) exit code
  local accel=(-accel tcg,thread=multi -cpu max)
  [[ "$1" == kvm ]] && accel=(-accel kvm -cpu host)
  timeout -k 5 "$2" qemu-system-x86_64 -nodefaults -display none -monitor none -no-reboot \
    "${accel[@]}" -smp "${OSSGW_VM_SMP:-2}" -m "${OSSGW_VM_MEM:-1536}" \
    -kernel "$IMG/vmlinuz" -initrd "$IMG/initrd.img" \
    -append "console=ttyS0 panic=-1 loglevel=4 mitigations=off no_timer_check" \
    -drive "file=$IMG/root.img,format=raw,if=virtio,snapshot=on" \
    -drive "file=$WORK/job.tar,format=raw,if=virtio,readonly=on" \
    -netdev "user,id=n0${OSSGW_VM_NETDEV:+,$OSSGW_VM_NETDEV}" -device virtio-net-pci,netdev=n0 -device virtio-rng-pci \
    -serial "file:$CONSOLE" -serial "file:$OUT" </dev/null >>"$CONSOLE" 2>&1
}

# --- KVM or TCG: /dev/kvm may exist and still not run a guest (a nested host: -cpu host aborts, other models hang
# at boot), so the probe is a real boot of a trivial job, remembered for this host boot.
accel="${OSSGW_VM_ACCEL:-auto}"
if [[ "$accel" == auto ]]; then
  probe="$CACHE/accel.$(cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo unknown)"
  if [[ -s "$probe" ]]; then
    accel="$(cat "$probe")"
  elif [[ -w /dev/kvm ]]; then
    echo "run.sh: probing KVM (once per host boot)" >&2
    printf '#!/bin/sh\necho kvm-ok\n' > "$WORK/probe.sh"
    if OSSGW_VM_ACCEL=kvm OSSGW_VM_TIMEOUT=25 OSSGW_VM_QUIET=1 "$0" "$WORK/probe.sh" 2>/dev/null | grep -q kvm-ok; then
      accel=kvm
    else
      accel=tcg
    fi
    echo "$accel" > "$probe"
  else
    accel=tcg
  fi
fi

t0=$SECONDS
for attempt in 1 2; do
  : > "$OUT"
  boot "$accel" "${OSSGW_VM_TIMEOUT:-900}" &
  bpid=$!
  if [[ "${OSSGW_VM_QUIET:-0}" != 1 ]]; then  # stream the job's output until QEMU is gone
    tail -n +1 -f --pid="$bpid" "$OUT" | grep --line-buffered -v '^OSSGW-VM-\(START\|EXIT=\)' || true
  fi
  set +e
  wait "$bpid"
  qrc=$?
  set -e
  # A guest that died before its init ran the job (an emulated-timer panic of a loaded TCG host) gets one more boot;
  # a job that started is never run twice.
  grep -q '^OSSGW-VM-START' "$OUT" && break
  (( qrc == 124 || qrc == 137 )) && break
  echo "run.sh: the guest died before the job started (attempt $attempt); its console:" >&2
  tail -15 "$CONSOLE" >&2
done
[[ "${OSSGW_VM_QUIET:-0}" == 1 ]] && { grep -v '^OSSGW-VM-\(START\|EXIT=\)' "$OUT" || true; }
rc="$(sed -n 's/^OSSGW-VM-EXIT=\([0-9]*\).*/\1/p' "$OUT" | tail -1)"
echo "run.sh: guest ($accel) ran $((SECONDS - t0)) s, job exit ${rc:-none}, qemu exit $qrc" >&2
if [[ -z "$rc" ]]; then
  echo "run.sh: the guest ended without reporting an exit code; its console:" >&2
  tail -40 "$CONSOLE" >&2
  (( qrc == 124 || qrc == 137 )) && exit 124
  exit 125
fi
exit "$rc"
}
