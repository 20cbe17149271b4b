"""Mounting the gateway over NFSv4.1 with the Linux kernel's client (issue 11 "Tests"):

- `mount -t nfs 10.0.2.2:/BUCKET /mnt` with the gateway on 2049 and no rpcbind negotiates 4.1 at once (the v3
  short form of test_nfs_kernel_client.py needs rpcbind and `nolock`); `mount -t nfs4 10.0.2.2:/ /mnt` shows the
  pseudo root;
- `-o vers=4.1,port=P` on a free port; the pseudo root lists the exports this client may see and hides the one its
  address is refused by (CIDR), whose mount fails with NFS4ERR_ACCESS ("access denied by server"); minor versions 0
  and 2
  asked for explicitly are refused (NFS4ERR_MINOR_VERS_MISMATCH), never served.
"""
import re

from conftest import skip_unless_nfs_port_free
from e2e_support import log, scaled

# a second export of the bucket (prefix sub/) the guest may see, and one refused to it (the guest's connections
# reach the gateway from 127.0.0.1 through QEMU's user-mode network)
EXPORTS = {
    "ossgw.exports.other.bucket": None,  # the test's bucket
    "ossgw.exports.other.prefix": "/sub",
    "ossgw.exports.other.path": "/other",
    "ossgw.exports.other.squash": "none",
    "ossgw.exports.denied.bucket": None,
    "ossgw.exports.denied.prefix": "/secret",
    "ossgw.exports.denied.path": "/denied",
    "ossgw.exports.denied.clients": "192.0.2.0/24",
}


def exports(bucket):
    return {k: (bucket if v is None else v) for k, v in EXPORTS.items()}


EXPLICIT = r"""
. /job/lib.sh
set -u
note "mount -o vers=4.1,port=$NFS_PORT"
t0=$(now_ms)
mount_v41 /mnt/e
echo "MOUNT_MS $(( $(now_ms) - t0 ))"
grep " /mnt/e " /proc/mounts
expect_eq "NFS version" 4.1 "$(nfs_vers /mnt/e)"
echo explicit > /mnt/e/explicit.txt
expect_eq "read back" explicit "$(cat /mnt/e/explicit.txt)"
umount /mnt/e

note "mount -t nfs4 $NFS_HOST:/ (the pseudo root)"
mkdir -p /mnt/r
timeout $(t 120) mount -t nfs4 -o port=$NFS_PORT $NFS_HOST:/ /mnt/r || fail "mount -t nfs4 $NFS_HOST:/ failed"
grep " /mnt/r " /proc/mounts
expect_eq "NFS version of the nfs4 mount" 4.1 "$(nfs_vers /mnt/r)"
ls -la /mnt/r
ls -1 /mnt/r > /tmp/root.ls
grep -qx "$BUCKET" /tmp/root.ls || fail "the pseudo root does not list $BUCKET: $(tr '\n' ' ' < /tmp/root.ls)"
grep -qx other /tmp/root.ls || fail "the pseudo root does not list other: $(tr '\n' ' ' < /tmp/root.ls)"
grep -qx denied /tmp/root.ls && fail "the pseudo root lists the export refused to this client"
expect_eq "a file through the pseudo root" explicit "$(cat /mnt/r/$BUCKET/explicit.txt)"
echo "via root" > /mnt/r/other/via-root.txt || fail "cannot write in /mnt/r/other"
if touch /mnt/r/new-at-root 2>/tmp/rofs.err; then fail "created a file in the pseudo root"; fi
echo "touch in the pseudo root: $(cat /tmp/rofs.err)"
timeout $(t 60) umount /mnt/r || fail "umount /mnt/r"

note "minor versions 0 and 2, asked for explicitly, are refused"
mkdir -p /mnt/x
for v in 4.0 4.2; do
  t0=$(now_ms)
  if timeout $(t 120) mount -t nfs -o vers=$v,port=$NFS_PORT $NFS_HOST:/$BUCKET /mnt/x 2>/tmp/v.err; then
    grep " /mnt/x " /proc/mounts; umount /mnt/x; fail "vers=$v mounted"
  fi
  echo "VERS $v refused after $(( $(now_ms) - t0 )) ms: $(cat /tmp/v.err)"
done
note "an export refused by CIDR"
if timeout $(t 120) mount -t nfs -o vers=4.1,port=$NFS_PORT $NFS_HOST:/denied /mnt/x 2>/tmp/denied.err; then
  umount /mnt/x; fail "mounted the export refused by CIDR"
fi
echo "DENIED: $(cat /tmp/denied.err)"
# refused with NFS4ERR_ACCESS (SEMANTICS.md "NFSv4.1": not listed, and refused when named)
grep -qiE "access denied|permission denied" /tmp/denied.err \
  || fail "mount of the refused export: expected access denied, got: $(cat /tmp/denied.err)"
grep -q " /mnt/x " /proc/mounts && fail "the refused export is mounted"

echo MOUNTS OK
"""


def test_explicit_v41_pseudo_root_cidr_and_minor_versions(gateway, guest, new_bucket):
    name, bucket = new_bucket
    gw = gateway(exports(name))
    rc, out = guest(EXPLICIT, env={"NFS_PORT": gw.nfs_port, "BUCKET": gw.bucket})
    assert rc == 0 and "MOUNTS OK" in out, out
    log("explicit v4.1 mount: " + re.search(r"MOUNT_MS (\d+)", out).group(1) + " ms; "
        + "; ".join(re.findall(r"^(VERS .*|DENIED: .*)$", out, re.M)))
    assert bucket.get_object("explicit.txt").read() == b"explicit\n"
    assert bucket.get_object("sub/via-root.txt").read() == b"via root\n"
    assert "Exception" not in gw.log_text(), gw.log_text()


SHORT = r"""
. /job/lib.sh
set -u
mkdir -p /mnt/s /mnt/r
t0=$(now_ms)
timeout $(t 120) mount -t nfs $NFS_HOST:/$BUCKET /mnt/s || fail "mount -t nfs $NFS_HOST:/$BUCKET failed"
echo "MOUNT_MS $(( $(now_ms) - t0 ))"
nfsstat -m
grep " /mnt/s " /proc/mounts
expect_eq "NFS version the short form negotiated" 4.1 "$(nfs_vers /mnt/s)"
echo "short form" > /mnt/s/short.txt
expect_eq "read back" "short form" "$(cat /mnt/s/short.txt)"
umount /mnt/s
timeout $(t 120) mount -t nfs4 $NFS_HOST:/ /mnt/r || fail "mount -t nfs4 $NFS_HOST:/ failed"
ls -1 /mnt/r > /tmp/root.ls
grep -qx "$BUCKET" /tmp/root.ls || fail "the pseudo root does not list $BUCKET: $(tr '\n' ' ' < /tmp/root.ls)"
expect_eq "a file through the pseudo root" "short form" "$(cat /mnt/r/$BUCKET/short.txt)"
umount /mnt/r
echo SHORT OK
"""


def test_short_form_negotiates_v41_on_2049_without_rpcbind(gateway, guest, new_bucket):
    """README's `mount -t nfs gateway:/bucket /mnt`: no options, no rpcbind (nothing on 111), NFSv4.1 on 2049."""
    _, bucket = new_bucket
    skip_unless_nfs_port_free()
    gw = gateway({"ossgw.nfs.rpcbind": "false"}, nfs_port=2049)
    rc, out = guest(SHORT, env={"BUCKET": gw.bucket})
    assert rc == 0 and "SHORT OK" in out, out
    ms = int(re.search(r"MOUNT_MS (\d+)", out).group(1))
    log(f"short-form v4.1 mount: {ms} ms in the guest")
    # the client's first try is 4.2: refused with NFS4ERR_MINOR_VERS_MISMATCH at once, then 4.1; no timeout waited
    assert ms < scaled(8000), out
    assert bucket.get_object("short.txt").read() == b"short form\n"
