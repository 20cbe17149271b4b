"""ossgw's POSIX suite (src/test/posix, issue 12) in the guest, as root, over the Linux kernel's NFSv3 client against
`ossgw serve` (export with no_root_squash, so the permission cases drop from root to other uids like over FUSE). The
suite exits non-zero on any outcome that is neither POSIX's nor an intentional difference of its DIFFERENCES table
(column nfs). Then the gateway is restarted with the same state directory and, from a new guest, the renamed names
must show the same inode numbers (fileids) as before."""
from conftest import HERE
from e2e_support import log

POSIX = HERE.parent / "posix"
FILES = [POSIX / n for n in ("posix_suite.py", "posix_cases.py", "posix_cases2.py", "posix_perms.py")]


def test_posix_suite_over_the_kernel_nfs_client(gateway, guest):
    gw = gateway()
    rc, out = guest(r'''
. /job/lib.sh
mount_v3 /mnt/n
python3 /job/posix_suite.py --transport nfs /mnt/n
echo "SUITE-EXIT=$?"
python3 /job/posix_suite.py --save-inodes /mnt/n/posix-inodes.txt /mnt/n || fail "save inodes"
cd / && umount /mnt/n
echo DONE
''', env={"NFS_PORT": gw.nfs_port, "BUCKET": gw.bucket}, files=FILES)
    log("\n".join(l for l in out.splitlines() if l.startswith(("TOTAL", "FAIL", "    "))))
    assert "DONE" in out, out[-6000:]
    assert "SUITE-EXIT=0" in out, out[-6000:]
    assert gw.stop() == 0
    gw = gateway()  # the same state directory: the NFS handle table survives
    rc, out = guest(r'''
. /job/lib.sh
mount_v3 /mnt/n
python3 /job/posix_suite.py --transport nfs --check-inodes /mnt/n/posix-inodes.txt /mnt/n
echo "CHECK-EXIT=$?"
cd / && umount /mnt/n
echo DONE
''', env={"NFS_PORT": gw.nfs_port, "BUCKET": gw.bucket}, files=FILES)
    assert "CHECK-EXIT=0" in out and "DONE" in out, out[-4000:]
