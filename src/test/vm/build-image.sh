#!/usr/bin/env bash
# Builds the test guest of the VM lane once and caches it in ${OSSGW_VM_CACHE:-~/.cache/ossgw-vm}/<key>, where <key>
# is a hash of the recipe (this script, guest-packages.txt, guest-init.sh). Prints the image directory on stdout
# (vmlinuz, initrd.img, root.img), everything else on stderr.
#
# The guest: `debootstrap --variant=minbase bookworm` from the Debian mirror apt already uses on this host, plus
# guest-packages.txt (linux-image-cloud-amd64, nfs-common, cifs-utils, fio, ...); a raw ext4 root made with
# `mkfs.ext4 -d` (the cloud kernel has no 9p; run.sh opens it with snapshot=on so it is never changed); a static
# busybox initramfs (the guest's busybox-static) that loads the virtio modules and switches to the root, booting
# ~12 s faster than Debian's own; PID 1 is guest-init.sh. Needs root, debootstrap, cpio, e2fsprogs.
# The cache key ignores comment lines, so editing comments does not rebuild the image.
# Atomic (built in a temp dir, renamed into place) and locked (flock), so two runs never build at once.
# OSSGW_VM_MIRROR overrides the mirror.
set -euo pipefail
{ # (read whole before it runs: editing this file during a build is harmless)
HERE="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)"
CACHE="${OSSGW_VM_CACHE:-$HOME/.cache/ossgw-vm}"
KEY="$(cat "$HERE/build-image.sh" "$HERE/guest-packages.txt" "$HERE/guest-init.sh" | grep -v '^[[:space:]]*#' \
  | sha256sum | cut -c1-16)"
OUT="$CACHE/$KEY"
log() { echo "build-image: $*" >&2; }

have_image() { [[ -s "$OUT/root.img" && -s "$OUT/vmlinuz" && -s "$OUT/initrd.img" ]]; }
if have_image; then echo "$OUT"; exit 0; fi

mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock -n 9 || { log "another build holds $CACHE/.lock: waiting"; flock 9; }
if have_image; then echo "$OUT"; exit 0; fi  # another run built it while we waited

for tool in debootstrap mkfs.ext4 cpio; do
  command -v "$tool" >/dev/null || { log "missing $tool (apt-get install debootstrap e2fsprogs cpio)"; exit 2; }
done
mirror="${OSSGW_VM_MIRROR:-$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null \
  | awk '$2 == "bookworm" {print $1; exit}')}"
mirror="${mirror:-http://deb.debian.org/debian/}"
t0=$SECONDS
TMP="$(mktemp -d "$CACHE/build.XXXXXX")"
ROOTFS="$TMP/rootfs"
cleanup() {
  for m in proc sys dev/pts dev; do umount -l "$ROOTFS/$m" 2>/dev/null || true; done
  rm -rf --one-file-system "$TMP"
}
trap cleanup EXIT
log "building $OUT from $mirror (recipe $KEY)"

debootstrap --variant=minbase bookworm "$ROOTFS" "$mirror" >"$TMP/debootstrap.log" 2>&1 \
  || { tail -30 "$TMP/debootstrap.log" >&2; log "debootstrap failed"; exit 1; }
log "debootstrap done after $((SECONDS - t0)) s"

# No daemon may start inside the chroot on the host (rpcbind would take the host's port 111).
printf '#!/bin/sh\nexit 101\n' > "$ROOTFS/usr/sbin/policy-rc.d"
chmod +x "$ROOTFS/usr/sbin/policy-rc.d"
mount -t proc proc "$ROOTFS/proc"
mount -t sysfs sysfs "$ROOTFS/sys"
mount --bind /dev "$ROOTFS/dev"
mount --bind /dev/pts "$ROOTFS/dev/pts"
mapfile -t pkgs < <(grep -v '^\s*#' "$HERE/guest-packages.txt" | grep -v '^\s*$')
chroot "$ROOTFS" env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o Dpkg::Use-Pty=0 install --no-install-recommends \
  "${pkgs[@]}" >"$TMP/apt.log" 2>&1 || { tail -30 "$TMP/apt.log" >&2; log "apt-get install failed"; exit 1; }
chroot "$ROOTFS" apt-get clean
for m in dev/pts dev sys proc; do umount "$ROOTFS/$m"; done
log "packages installed after $((SECONDS - t0)) s"

KVER="$(ls "$ROOTFS/lib/modules" | sort -V | tail -1)"
BUSYBOX="$ROOTFS/bin/busybox"  # the guest's busybox-static (guest-packages.txt): the host's busybox is not needed
{ ldd "$BUSYBOX" 2>&1 || true; } | grep -q 'not a dynamic' || { log "$BUSYBOX is missing or not static"; exit 1; }
install -m 755 "$HERE/guest-init.sh" "$ROOTFS/sbin/ossgw-vm-init"
rm -f "$ROOTFS/usr/sbin/policy-rc.d"  # the guest is a real machine: let it start what it needs
rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/usr/share/doc/* "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/locale/* \
  "$ROOTFS"/boot/initrd.img* "$ROOTFS"/var/cache/apt/*.bin
echo ossgw-vm > "$ROOTFS/etc/hostname"
printf '/dev/vda / ext4 rw 0 0\n' > "$ROOTFS/etc/fstab"

# --- initramfs: static busybox, the virtio/ext4 modules (in dependency order, from the root's modules.dep), /init.
INITRD="$TMP/initrd"
mkdir -p "$INITRD"/{bin,dev,proc,sys,newroot,modules}
cp "$BUSYBOX" "$INITRD/bin/busybox"
mods=()
for m in virtio_pci virtio_blk ext4; do
  while read -r kind path _; do
    [[ "$kind" == insmod ]] || continue
    base="$(basename "$path")"
    [[ " ${mods[*]-} " == *" $base "* ]] && continue
    cp "$ROOTFS$path" "$INITRD/modules/$base"
    mods+=("$base")
  done < <(chroot "$ROOTFS" modprobe -S "$KVER" --show-depends "$m" 2>/dev/null || true)
done
{
  echo '#!/bin/busybox sh'
  echo '/bin/busybox --install -s /bin'
  echo 'mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev'
  for base in "${mods[@]}"; do echo "insmod /modules/$base 2>/dev/null"; done
  cat <<'INIT'
n=0; while [ ! -b /dev/vda ] && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
mount -t ext4 -o rw /dev/vda /newroot \
  || { echo "initrd: cannot mount /dev/vda"; sleep 2; echo o > /proc/sysrq-trigger; }
mount --move /dev /newroot/dev
umount /proc /sys
exec switch_root /newroot /sbin/ossgw-vm-init
INIT
} > "$INITRD/init"
chmod +x "$INITRD/init"
(cd "$INITRD" && find . | cpio -o -H newc --quiet | gzip -1) > "$TMP/initrd.img"
cp "$ROOTFS/boot/vmlinuz-$KVER" "$TMP/vmlinuz"
log "initramfs: ${#mods[@]} modules (${mods[*]-none}) for kernel $KVER"

# --- the root: raw ext4 of the tree, with room for the guest's own writes (run.sh opens it with snapshot=on)
size_mb=$(( $(du -sm "$ROOTFS" | cut -f1) * 13 / 10 + 256 ))
mkfs.ext4 -q -F -L ossgw-vm -d "$ROOTFS" "$TMP/root.img" "${size_mb}M" >&2
rm -rf "$ROOTFS" "$INITRD"
echo "$KVER" > "$TMP/kernel-version"
mv "$TMP" "$OUT.new" && mv "$OUT.new" "$OUT" || { rm -rf "$OUT.new"; exit 1; }
trap - EXIT
log "built $OUT (${size_mb} MB root) in $((SECONDS - t0)) s"
echo "$OUT"
exit 0
}
