"""fsx_diff (src/test/posix/fsx_diff.py) in the guest over the Linux kernel's NFSv3 and NFSv4.1 clients against
`ossgw serve`: random file operations on the NFS mount and on the guest's own file system at once, every outcome
compared (errnos, bytes read, sizes, modes, symlink targets; up to four files open while they are written, truncated,
renamed, replaced and unlinked, which the client turns into .nfsXXXX renames). After the segments the client remounts
and the trees are compared again, then the host holds the bucket's objects to the guest's reference files (their
sha256) through the SDK, once the gateway has stopped cleanly. The FUSE runs, with faults, are the reliability
suite's test_fsx_diff.py.

Short form (CI): one seed per version, two segments of 250 operations, the second with writes of 5-13 MiB now and
then. Long form (OSSGW_VM=long): three seeds, three segments of 500."""
import hashlib

import pytest

from conftest import HERE, scale
from e2e_support import all_keys, log

FSX = HERE.parent / "posix" / "fsx_diff.py"
MOUNT = {"3": "mount_v3", "4.1": "mount_v41"}
# --nfs4 leaves out O_RDONLY|O_TRUNC: the Linux v4 client truncates with a SETATTR under the read-only open's stateid,
# which RFC 8881 §18.30.3 refuses (NFS4ERR_OPENMODE, as knfsd does), and answers EACCES; and it takes EEXIST for
# ENOTEMPTY from a rename onto a non-empty directory (§18.26.4, SEMANTICS.md's rename.dir-onto-nonempty-dir)
FLAG = {"3": "--nfs", "4.1": "--nfs4"}
SEGMENTS = scale(2, 3)
OPS = scale(250, 500)


@pytest.mark.parametrize("vers,seed", [(v, s) for v in ("3", "4.1") for s in range(1, scale(2, 4))])
def test_random_operations_over_the_kernel_nfs_client_match_a_local_file_system(gateway, guest, new_bucket, vers,
                                                                                  seed):
    gw = gateway()
    segments = "\n".join(
        f"python3 /job/fsx_diff.py {FLAG[vers]} /mnt/n /tmp/ref --seed {seed * 100 + i} --ops {OPS}"
        f"{' --big' if i == SEGMENTS - 1 else ''} || fail 'segment {i}'"
        for i in range(SEGMENTS))
    rc, out = guest(rf'''
. /job/lib.sh
mkdir -p /tmp/ref
{MOUNT[vers]} /mnt/n
{segments}
cd / && umount /mnt/n
{MOUNT[vers]} /mnt/n
python3 /job/fsx_diff.py {FLAG[vers]} /mnt/n /tmp/ref --check || fail "check after the remount"
cd /tmp/ref && find . -type f | while read -r f; do echo "MANIFEST ${{f#./}} $(sha256sum < "$f" | cut -d' ' -f1)"; done
find . -type l | while read -r f; do echo "LINK ${{f#./}}"; done
cd / && umount /mnt/n
echo DONE
''', env={"NFS_PORT": gw.nfs_port, "BUCKET": gw.bucket}, files=[FSX])
    log(f"NFS {vers} seed {seed}: " + "\n".join(l for l in out.splitlines() if l.startswith(("SEGMENT", "CHECK"))))
    assert "DONE" in out, out[-6000:]
    assert gw.stop() == 0  # a clean stop uploads what NFSv3 never closed (an empty file waits for its idle release)
    manifest = dict(l.split()[1:3] for l in out.splitlines() if l.startswith("MANIFEST "))
    _, bucket = new_bucket
    links = {l.split()[1] for l in out.splitlines() if l.startswith("LINK ")}
    objects = {k for k in all_keys(bucket) if not k.endswith("/")}  # a symlink is an object too (ossfs's way)
    assert objects == set(manifest) | links, f"objects {sorted(objects)} against the reference's files and links " \
                                             f"{sorted(set(manifest) | links)}"
    for key, digest in manifest.items():
        assert hashlib.sha256(bucket.get_object(key).read()).hexdigest() == digest, f"object {key} differs"
