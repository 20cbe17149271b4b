"""ossgw's POSIX suite (src/test/posix, issue 12) in the guest, as root, over the Linux kernel's NFSv3 and NFSv4.1
clients (issue 21) against `ossgw serve` (export with no_root_squash, so the permission cases drop from root to other
uids like over FUSE: over NFS the server makes most of those checks, since the client leaves them to it). The suite
exits non-zero on any outcome that is neither POSIX's nor an intentional difference of its DIFFERENCES table (column
nfs, or nfs4 for v4.1). Then the gateway is restarted with the same state directory and, from a new guest, the
renamed names must show the same inode numbers (fileids) as before."""
import pytest

from conftest import HERE
from e2e_support import log

POSIX = HERE.parent / "posix"
FILES = [POSIX / n for n in ("posix_suite.py", "posix_cases.py", "posix_cases2.py", "posix_perms.py")]
# the lib.sh mount function of each version (v3 without rpcbind, v4.1 with `vers=4.1,port=P`: port 2049 not needed),
# and the suite's transport (the column of its DIFFERENCES table)
MOUNT = {"3": "mount_v3", "4.1": "mount_v41"}
TRANSPORT = {"3": "nfs", "4.1": "nfs4"}


@pytest.mark.parametrize("vers", ["3", "4.1"])
def test_posix_suite_over_the_kernel_nfs_client(gateway, guest, vers):
    gw = gateway()
    rc, out = guest(rf'''
. /job/lib.sh
{MOUNT[vers]} /mnt/n
expect_eq "NFS version" {vers} "$(nfs_vers /mnt/n)"
python3 /job/posix_suite.py --transport {TRANSPORT[vers]} /mnt/n
echo "SUITE-EXIT=$?"
python3 /job/posix_suite.py --save-inodes /mnt/n/posix-inodes.txt /mnt/n || fail "save inodes"
cd / && umount /mnt/n
echo DONE
''', env={"NFS_PORT": gw.nfs_port, "BUCKET": gw.bucket}, files=FILES)
    log(f"NFS {vers}: " + "\n".join(l for l in out.splitlines() if l.startswith(("TOTAL", "FAIL", "    "))))
    assert "DONE" in out, out[-6000:]
    assert "SUITE-EXIT=0" in out, out[-6000:]
    assert gw.stop() == 0
    gw = gateway()  # the same state directory: the NFS handle table survives
    rc, out = guest(rf'''
. /job/lib.sh
{MOUNT[vers]} /mnt/n
python3 /job/posix_suite.py --transport {TRANSPORT[vers]} --check-inodes /mnt/n/posix-inodes.txt /mnt/n
echo "CHECK-EXIT=$?"
cd / && umount /mnt/n
echo DONE
''', env={"NFS_PORT": gw.nfs_port, "BUCKET": gw.bucket}, files=FILES)
    assert "CHECK-EXIT=0" in out and "DONE" in out, out[-4000:]
