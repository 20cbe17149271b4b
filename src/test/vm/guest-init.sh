#!/bin/sh
# PID 1 of the test guest (installed as /sbin/ossgw-vm-init by build-image.sh; the initramfs switches to it).
# Sets up the file systems and the network of QEMU's user-mode net (the host's loopback is 10.0.2.2), unpacks the
# job (a tar archive written raw on the second disk, /dev/vdb: job.sh, env, args, other files), runs it with its
# output on the second serial port (/dev/ttyS1), writes "OSSGW-VM-EXIT=<rc>" there and powers the guest off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /tmp
mount -t tmpfs -o size=64m tmpfs /dev/shm
hostname ossgw-vm
echo 1 > /proc/sys/kernel/sysrq
# ttyS1 carries the job's output: raw, no newline translation, no echo.
stty -F /dev/ttyS1 115200 raw -echo -onlcr 2>/dev/null
out=/dev/ttyS1
echo "OSSGW-VM-START" > $out  # run.sh: the guest booted (a boot that dies before this is tried again)
ip link set lo up
modprobe virtio_net 2>/dev/null
n=0; while [ ! -e /sys/class/net/eth0 ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
ip link set eth0 up
ip addr add 10.0.2.15/24 dev eth0
ip route add default via 10.0.2.2
echo "nameserver 10.0.2.3" > /etc/resolv.conf
mkdir -p /job
if tar -xf /dev/vdb -C /job 2>/tmp/job-untar.err; then
  set -a; [ -f /job/env ] && . /job/env; set +a
  cd /job
  # args: one per line
  if [ -f /job/args ]; then
    OLDIFS=$IFS; IFS='
'
    set -- $(cat /job/args); IFS=$OLDIFS
  else
    set --
  fi
  chmod +x /job/job.sh
  if head -c2 /job/job.sh | grep -q "#!"; then /job/job.sh "$@"; else sh /job/job.sh "$@"; fi > $out 2>&1 < /dev/null
  rc=$?
else
  cat /tmp/job-untar.err > $out
  rc=97
fi
echo "OSSGW-VM-EXIT=$rc" > $out
sync
echo o > /proc/sysrq-trigger
sleep 10
