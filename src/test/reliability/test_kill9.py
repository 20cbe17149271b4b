"""Reliability scenario "kill -9 + restart + verify" (issue 9 item 3 and intro).

Files are written through `./ossgw mount`; some are closed (they must be intact after the restart), one large file is
mid-write with its multipart upload in flight when the mount process gets SIGKILL. After clearing the dead mount and
mounting again on the same state_dir, every closed file must read back with its sha256 (through FUSE and oss2), and
ListMultipartUploads must be empty: the new run aborted the upload the dead one left (SEMANTICS.md "Incomplete
multipart uploads").
"""
import hashlib
import os
import random
import signal
import time

import oss2

from conftest import scale
from e2e_support import daemon_pids, force_unmount, is_mounted, log, sha256_file, wait_until

MIB = 1 << 20
SIZES = [0, 1, 4096, 100_000, MIB, 3 * MIB + 17, 6 * MIB + 5]  # 6 MiB: a multipart upload with multipart_size=5


def incomplete_uploads(bucket):
    return [(u.key, u.upload_id) for u in oss2.MultipartUploadIterator(bucket)]


def test_kill9_keeps_closed_files_and_aborts_the_orphan_upload(mounts, new_bucket, capsys):
    name, bucket = new_bucket
    opts = ("multipart_size=5",)
    mp = mounts.mount(name, extra=opts)
    rnd = random.Random(9)
    count = scale(21, 210)
    expected = {}
    t0 = time.time()
    for i in range(count):
        data = rnd.randbytes(SIZES[i % len(SIZES)])
        rel = f"d{i % 3}/f{i:04d}.bin"
        (mp / rel).parent.mkdir(exist_ok=True)
        with open(mp / rel, "wb") as f:
            f.write(data)
        expected[rel] = hashlib.sha256(data).hexdigest()

    # A large file mid-write: 12 MiB written and not closed, so parts 1 and 2 stream while it stays open.
    fd = os.open(mp / "inflight.bin", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    chunk = rnd.randbytes(MIB)
    for _ in range(12):
        os.write(fd, chunk)
    assert wait_until(lambda: any(k == "inflight.bin" for k, _ in incomplete_uploads(bucket)), 60), \
        "the open file's multipart upload never started"

    pids = daemon_pids(mp)
    assert pids, "no ossgw mount process found"
    for pid in pids:
        os.kill(pid, signal.SIGKILL)
    assert wait_until(lambda: not daemon_pids(mp), 30)
    try:
        os.close(fd)
    except OSError:
        pass  # the file system died under it
    orphans = incomplete_uploads(bucket)
    assert [k for k, _ in orphans] == ["inflight.bin"], orphans
    force_unmount(mp)  # clear the dead mount (fusermount -u), as a user would before mounting again
    assert not is_mounted(mp)
    log(f"killed {pids} with {len(orphans)} upload(s) in flight")

    mp = mounts.mount(name, mp, extra=opts)
    left = incomplete_uploads(bucket)
    assert left == [], f"uploads left after restart: {left}"
    bad = [rel for rel, digest in expected.items() if sha256_file(mp / rel) != digest]
    assert bad == [], f"closed files changed by the crash: {bad}"
    for rel, digest in expected.items():
        assert hashlib.sha256(bucket.get_object(rel).read()).hexdigest() == digest, rel
    with capsys.disabled():
        print(f"\nRELIABILITY kill9: files_closed={count} verified={len(expected)} "
              f"bytes={sum(SIZES[i % len(SIZES)] for i in range(count))} in_flight_at_kill={len(orphans)} "
              f"uploads_left_after_restart={len(left)} elapsed_s={time.time() - t0:.1f}")
