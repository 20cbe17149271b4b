# Sourced by .ci/run (and by src/test/e2e/test_ci_packages.py): which Debian packages the tests need and which of
# them are missing, without installing anything.
#
# FUSE: jnr-fuse needs libfuse2 (the library) and a fusermount program for non-root mounts. Either `fuse` (fuse 2's
# /bin/fusermount) or `fuse3` provides it: fuse3 ships /bin/fusermount as a symlink to fusermount3 (dpkg -c
# fuse3_3.14.0-4_amd64.deb) and speaks the same protocol. The two packages conflict (fuse3 Breaks/Replaces fuse), so
# `fuse` is only installed when neither is there: installing it would remove fuse3, which other FUSE software needs.
# libfuse3-3 is the library alone (the default jfuse binding; as root it mounts with mount(2), as another user it
# needs fusermount3 from fuse3) and coexists with both; without it the gateway falls back to jnr-fuse.
# stunnel4: the TLS terminator in front of the emulator for the https:// e2e tests (src/test/e2e/test_https.py).
# libisal2: Intel ISA-L, whose crc64_ecma_refl computes the CRC-64 of every uploaded byte (optional for the gateway,
# which falls back to Java; gateway-core's Crc64Test checks ISA-L where it is installed).
# haproxy: the TCP balancer with HTTP health checks in front of the cluster e2e tests' gateways
# (src/test/e2e/test_cluster.py).

# apt-get that waits up to 10 min for the dpkg lock (another apt/unattended-upgrades run) instead of failing at once.
CI_APT=(apt-get -o DPkg::Lock::Timeout=600)

ci_installed() { # package -> status 0 when dpkg has it installed
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

# Prints the missing packages, one per line.
ci_missing_packages() {
  local p
  for p in libfuse2 fio attr python3-venv libnfs-utils libfuse3-3 stunnel4 haproxy libisal2; do
    ci_installed "$p" || echo "$p"
  done
  ci_installed fuse || ci_installed fuse3 || echo fuse
}

# The cluster store of ossgw.cluster.* (issue 23): the JUnit tests of gateway-app (RedisStoreTest) and
# src/test/e2e/test_cluster.py start their own server. Valkey 8 (valkey-server, Debian 12: bookworm-backports) or
# Redis 7 (redis-server, Debian 12 itself) speak the same protocol; either counts. Prints valkey-server when neither is
# installed (.ci/run installs it from bookworm-backports, or redis-server where backports has no valkey).
ci_missing_store_package() {
  ci_installed valkey-server || ci_installed redis-server || echo valkey-server
}

# The VM lane (src/test/vm, step vm of src/test/run.sh): QEMU (TCG or KVM) boots a Debian guest whose image
# build-image.sh makes with debootstrap and mkfs.ext4 -d (e2fsprogs) and packs into an initramfs with cpio (the
# initramfs's static busybox comes from the guest's own busybox-static, so the host's busybox is left alone).
ci_missing_vm_packages() {
  local p
  for p in qemu-system-x86 qemu-utils debootstrap cpio e2fsprogs; do
    ci_installed "$p" || echo "$p"
  done
}
