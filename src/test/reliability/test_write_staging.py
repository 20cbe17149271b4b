"""Reliability scenario "write staging in memory" (issue 14): many writers at once through `./ossgw mount -o
memory_limit=128`, so the pool that stages small files in memory (a quarter of the 32 MiB budget, at most 2 MiB a
file) is exhausted all the time and files spill to the spool mid-write, while PutObject and UploadPart fail now and
then (503/500 and connection resets: the gateway retries them with the same bytes). The files mix every size around
the 128 KiB chunk and the 5 MiB spill point with the shapes that leave the sequential path: a read back while open, a
partial overwrite, a truncate mid-file then more writes. Every object must equal, byte for byte (sha256 through oss2
with the faults cleared), what its writer wrote; a close that surfaced EIO is retried by writing the file again.

Short form (CI): 96 writers, 300 files. Long form (OSSGW_RELIABILITY=long): 128 writers, 5,000 files.
"""
import errno
import hashlib
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from conftest import scale
from e2e_support import emulator_admin as admin

KIB = 1024
MIB = 1 << 20
WRITERS = scale(96, 128)
FILES = scale(300, 5000)
SIZES = (0, 1, 128 * KIB - 1, 128 * KIB, 128 * KIB + 1, 2 * MIB - 1, 2 * MIB + 1, 5 * MIB + 3)



def content(i):
    """File i's final bytes and how to write them (shape)."""
    rnd = random.Random(i)
    size = SIZES[i % len(SIZES)] if i % 3 else rnd.randint(0, 3 * MIB)
    return rnd.randbytes(size), ("plain", "readback", "overwrite", "truncate")[i % 4]


def write(path, data, shape):
    with open(path, "w+b", buffering=0) as f:
        if shape == "truncate" and len(data) > 10:
            f.write(data)
            f.truncate(len(data) // 2 + 1)  # mid-file, then the rest again from there
            f.seek(len(data) // 2 + 1)
            f.write(data[len(data) // 2 + 1:])
            return
        for off in range(0, len(data), 128 * KIB):
            f.write(data[off:off + 128 * KIB])
        if shape == "readback":
            f.seek(0)
            assert f.read() == data, path
        elif shape == "overwrite" and len(data) > 100:
            f.seek(17)
            f.write(data[17:100])  # the same bytes again: a write below the streamed offset
        if not data:
            return


def test_writers_exhaust_the_staging_pool_under_faults_and_every_object_is_exact(emulator, mounts, new_bucket):
    name, bucket = new_bucket
    mp = mounts.mount(name, extra=("memory_limit=128",))
    admin(emulator, "POST", "/-/faults?status=503&code=SlowDown&rate=0.03&ops=PutObject,UploadPart")
    admin(emulator, "POST", "/-/faults?status=500&code=InternalError&rate=0.02&ops=PutObject,UploadPart")
    admin(emulator, "POST", "/-/faults?resetRate=0.01&ops=PutObject,UploadPart")
    eio = [0]
    lock = threading.Lock()

    def one(i):
        data, shape = content(i)
        for attempt in range(4):
            try:
                write(mp / f"f{i:05d}", data, shape)
                return i, hashlib.sha256(data).hexdigest()
            except OSError as e:
                if e.errno != errno.EIO or attempt == 3:
                    raise
                with lock:
                    eio[0] += 1
                time.sleep(0.2)

    t0 = time.time()
    try:
        with ThreadPoolExecutor(WRITERS) as pool:
            expected = dict(pool.map(one, range(FILES)))
    finally:
        admin(emulator, "DELETE", "/-/faults")
    seconds = time.time() - t0
    wrong = [i for i, digest in expected.items()
             if hashlib.sha256(bucket.get_object(f"f{i:05d}").read()).hexdigest() != digest]
    assert not wrong, f"objects differ from what was written: {wrong[:10]}"
    print(f"RELIABILITY write_staging: {FILES} files, {WRITERS} writers, {seconds:.1f} s, EIO retried {eio[0]}")
