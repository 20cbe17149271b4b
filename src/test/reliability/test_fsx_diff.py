"""fsx_diff over `./ossgw mount`: random file operations on the mount and on a local directory at once, every outcome
compared (src/test/posix/fsx_diff.py: errnos, bytes read, sizes, modes, symlink targets, with up to four files open
while they are written, truncated, renamed, replaced and unlinked). After each segment the mount is restarted and the
two trees compared again, so what is compared is what reached OSS; then the bucket's objects are held to the reference
files through the SDK. Every second segment runs while the emulator fails requests (503 SlowDown at a rate, and
connections reset before the reply), which the gateway's retries must hide: any EIO or torn file is a failure.

Short form (CI): 3 seeds, 2 segments of 300 operations each. Long form (OSSGW_RELIABILITY=long): 12 seeds, 4 segments
of 600, with writes of 5-13 MiB now and then (multipart uploads and UploadPartCopy appends).
"""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import scale
from e2e_support import FSX_FAULTS, all_keys, emulator_admin as admin, scaled

FSX = Path(__file__).resolve().parents[1] / "posix" / "fsx_diff.py"
SEEDS = range(1, scale(4, 13))
SEGMENTS = scale(2, 4)
OPS = scale(300, 600)


def fsx(*args):
    r = subprocess.run([sys.executable, str(FSX), *map(str, args)], capture_output=True, text=True,
                       timeout=scaled(400))
    print(r.stdout[-3000:])
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-3000:]
    return r.stdout


def bucket_matches(bucket, ref):
    """Every regular file of the reference is an object with its bytes, and no other file object exists."""
    files = {}
    for dirpath, dirnames, filenames in os.walk(ref):
        for n in dirnames + filenames:
            p = Path(dirpath) / n
            if p.is_symlink() or p.is_file():
                files[str(p.relative_to(ref))] = p
    keys = {k for k in all_keys(bucket) if not k.endswith("/")}
    assert keys == set(files), f"objects {sorted(keys)} against the reference's files {sorted(files)}"
    for key, p in files.items():
        if not p.is_symlink():
            assert bucket.get_object(key).read() == p.read_bytes(), f"object {key} differs from the reference"


@pytest.mark.parametrize("seed", SEEDS)
def test_random_operations_match_a_local_file_system_across_remounts_and_faults(emulator, mounts, new_bucket, workdir,
                                                                                seed):
    name, bucket = new_bucket
    ref = workdir / "reference"
    ref.mkdir()
    mp = mounts.mount(name, extra=["multipart_size=5"])
    for segment in range(SEGMENTS):
        faulty = segment % 2 == 1
        try:
            if faulty:
                for f in FSX_FAULTS:
                    admin(emulator, "POST", f)
            big = ["--big"] if scale(False, True) or segment == SEGMENTS - 1 else []
            fsx(mp, ref, "--seed", seed * 100 + segment, "--ops", OPS, *big)
        finally:
            if faulty:
                admin(emulator, "DELETE", "/-/faults")
        mp = mounts.remount(mp, name, extra=["multipart_size=5"])
        fsx(mp, ref, "--check")
        bucket_matches(bucket, ref)
