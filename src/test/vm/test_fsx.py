"""fsx_diff (src/test/posix/fsx_diff.py) in the guest over the Linux kernel's NFSv3 and NFSv4.1 clients against
`ossgw serve`: random file operations on the NFS mount and on the guest's own file system at once, every outcome
compared (errnos, bytes read, sizes, modes, symlink targets; up to four files open while they are written, truncated,
renamed, replaced and unlinked, which the client turns into .nfsXXXX renames). After the segments the client remounts
and the trees are compared again, then the host holds the bucket's objects to the guest's reference files (their
sha256) through the SDK, once the gateway has stopped cleanly. The FUSE runs, with faults, are the reliability
suite's test_fsx_diff.py.

The same over the kernel's CIFS client (SMB 3.1.1) against the gateway's SMB share, held not to the guest's disk but
to a second smbd on the host with the gateway's own smb.conf sharing a local directory, so that SMB's semantics are
on both sides; every second seed with faults injected.

Short form (CI): one seed per NFS version and two for SMB (one with faults), two segments of 250 operations, the
second with writes of 5-13 MiB now and then. Long form (OSSGW_VM=long): three seeds (six for SMB), three segments of
500."""
import hashlib
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from conftest import HERE, scale
from e2e_support import FSX_FAULTS, all_keys, emulator_admin, free_port, log, port_open, stop_process, wait_until

FSX = HERE.parent / "posix" / "fsx_diff.py"
MOUNT = {"3": "mount_v3", "4.1": "mount_v41"}
# --nfs4 leaves out O_RDONLY|O_TRUNC: the Linux v4 client truncates with a SETATTR under the read-only open's stateid,
# which RFC 8881 §18.30.3 refuses (NFS4ERR_OPENMODE, as knfsd does), and answers EACCES; and it takes EEXIST for
# ENOTEMPTY from a rename onto a non-empty directory (§18.26.4, SEMANTICS.md's rename.dir-onto-nonempty-dir)
FLAG = {"3": "--nfs", "4.1": "--nfs4"}
SEGMENTS = scale(2, 3)
OPS = scale(250, 500)


def segment_lines(trees, seed):
    """The guest's fsx_diff command lines for one seed's segments on `trees` (flags, mount, reference); the last
    segment with writes of 5-13 MiB now and then."""
    return "\n".join(f"python3 /job/fsx_diff.py {trees} --seed {seed * 100 + i} --ops {OPS}"
                     f"{' --big' if i == SEGMENTS - 1 else ''} || fail 'segment {i}'" for i in range(SEGMENTS))


@pytest.mark.parametrize("vers,seed", [(v, s) for v in ("3", "4.1") for s in range(1, scale(2, 4))])
def test_random_operations_over_the_kernel_nfs_client_match_a_local_file_system(gateway, guest, new_bucket, vers,
                                                                                  seed):
    gw = gateway()
    segments = segment_lines(f"{FLAG[vers]} /mnt/n /tmp/ref", seed)
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


SMB_USER, SMB_PASSWORD = "ossgw-fsx", "fsx smb pw!"
SMB_DIRS = ("private dir", "lock directory", "state directory", "cache directory", "pid directory", "ncalrpc dir")


def reference_smbd(gateway_conf, refdir, port):
    """A second smbd on the host sharing the local directory refdir/share as [data] on `port`, with the gateway's own
    generated smb.conf (same protocol, lease, lock and attribute settings; its users' passdb copied), so that the
    only difference between the two shares is the file system under them: the gateway's FUSE mount of the engine, or
    the host's disk. refdir must be short: smbd's sockets live below it, and a socket path has at most 107 bytes.
    Returns the Popen (stopped by the caller; setpriv stops it with the test process too)."""
    for d in ("share", "private", "lock", "state", "cache", "pid", "ncalrpc", "log"):
        (refdir / d).mkdir(parents=True, exist_ok=True)
    out, section = [], None
    for line in gateway_conf.read_text().splitlines():
        m = re.match(r"\s*([^=]+?)\s*=\s*(.*)$", line)
        if line.strip().startswith("["):
            section = line.strip()
        elif m and m.group(1) in SMB_DIRS:
            line = f"  {m.group(1)} = {refdir / m.group(1).split()[0]}"
        elif m and m.group(1) == "passdb backend":
            shutil.copy(m.group(2).removeprefix("tdbsam:"), refdir / "private" / "passdb.tdb")
            line = f"  passdb backend = tdbsam:{refdir / 'private' / 'passdb.tdb'}"
        elif m and m.group(1) == "log file":
            line = f"  log file = {refdir / 'log' / '%m.log'}"
        elif m and m.group(1) == "smb ports":
            line = f"  smb ports = {port}"
        elif m and m.group(1) == "path" and section == "[data]":
            line = f"  path = {refdir / 'share'}"
        out.append(line)
    conf = refdir / "smb.conf"
    conf.write_text("\n".join(out) + "\n")
    with open(refdir / "smbd.out", "wb") as log_file:  # smbd's own copy stays open; smbd makes its own session
        p = subprocess.Popen(["setpriv", "--pdeathsig", "TERM", "smbd", "--foreground", "--debug-stdout", "-s",
                              str(conf)], stdout=log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    assert wait_until(lambda: port_open(port) or p.poll() is not None, 30) and p.poll() is None, \
        (refdir / "smbd.out").read_text()
    return p


def injected(emulator):
    """The errors and connection resets the emulator injected since it started."""
    f = json.loads(emulator_admin(emulator, "GET", "/-/faults"))
    return f["injectedErrors"] + f["injectedResets"]


@pytest.mark.parametrize("seed,faults", [(s, s % 2 == 0) for s in range(1, scale(3, 7))])
def test_random_operations_over_the_kernel_cifs_client_match_a_samba_share_of_a_local_directory(
        gateway, guest, emulator, new_bucket, workdir, seed, faults):
    """The same exerciser over `mount -t cifs vers=3.1.1` (Linux 6.1, no POSIX extensions): the reference is not the
    guest's own disk but a second smbd with the gateway's smb.conf sharing a directory of the host's disk, mounted
    the same way, so SMB's own semantics (modes 0755, no symlinks, sharing rules) are on both sides and every
    difference is the gateway's. A name held open is never unlinked or replaced (`--smb`): SMB keeps it "delete
    pending" until the client closes its last handle, and the client did that at different moments for the two
    servers: 4 of 64 long-form runs differed so, 2 of them with the client's deferred close set to 0 s
    (`closetimeo=0`, which both mounts keep). Every second seed runs with the reliability suite's faults (503
    SlowDown, connection resets) for the whole job; the log names how many were injected (a short run makes a few
    dozen requests)."""
    pw = workdir / "smb.pw"
    pw.write_text(SMB_PASSWORD + "\n")
    pw.chmod(0o600)
    gw = gateway({"ossgw.shares.data.bucket": new_bucket[0], "ossgw.smb.bind": "127.0.0.1",
                  "ossgw.smb.port": str(free_port()), f"ossgw.smb.users.{SMB_USER}.password-file": str(pw)},
                 name="smb")
    ref_port = free_port()
    refdir = Path(tempfile.mkdtemp(prefix="ossgw-fsx-smb-"))
    ref = reference_smbd(workdir / "state-smb" / "smb" / "smb.conf", refdir, ref_port)
    before = injected(emulator)
    for f in FSX_FAULTS if faults else ():
        emulator_admin(emulator, "POST", f)
    try:
        segments = segment_lines("--smb /mnt/g /mnt/r", seed)
        rc, out = guest(rf'''
. /job/lib.sh
mount_cifs() {{ mkdir -p "$2"; mount -t cifs "//$NFS_HOST/data" "$2" \
  -o "port=$1,username=$SMB_USER,password=$SMB_PASSWORD,vers=3.1.1,closetimeo=0" || fail "mount -t cifs port $1"; }}
mount_cifs $SMB_PORT /mnt/g
mount_cifs $REF_PORT /mnt/r
{segments}
cd / && umount /mnt/g
mount_cifs $SMB_PORT /mnt/g
python3 /job/fsx_diff.py --smb /mnt/g /mnt/r --check || fail "check after the remount"
cd /mnt/r && find . -type f | while read -r f; do echo "MANIFEST ${{f#./}} $(sha256sum < "$f" | cut -d' ' -f1)"; done
cd / && umount /mnt/g /mnt/r
echo DONE
''', env={"SMB_PORT": gw.props["ossgw.smb.port"], "REF_PORT": ref_port, "SMB_USER": SMB_USER,
          "SMB_PASSWORD": SMB_PASSWORD}, files=[FSX])
    finally:
        faults_seen = injected(emulator) - before
        emulator_admin(emulator, "DELETE", "/-/faults")
        stop_process(ref)
        shutil.rmtree(refdir, ignore_errors=True)
    log(f"SMB seed {seed}{f' with {faults_seen} faults injected' if faults else ''}: "
        + "\n".join(l for l in out.splitlines() if l.startswith(("SEGMENT", "CHECK"))))
    assert "DONE" in out, out[-6000:]
    assert gw.stop() == 0
    manifest = dict(l.split()[1:3] for l in out.splitlines() if l.startswith("MANIFEST "))
    _, bucket = new_bucket
    objects = {k for k in all_keys(bucket) if not k.endswith("/")}
    assert objects == set(manifest), f"objects {sorted(objects)} against the reference's files {sorted(manifest)}"
    for key, digest in manifest.items():
        assert hashlib.sha256(bucket.get_object(key).read()).hexdigest() == digest, f"object {key} differs"
