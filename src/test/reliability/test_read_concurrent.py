"""The read path under concurrency (issue 14 items 3 and 5), through `./ossgw mount` with direct_read: several threads
pread(2) one open file at once (the kernel's parallel READs), N readers stream N files at once while the budget is
split between them, and an object replaced in OSS while it is read never mixes versions (SEMANTICS.md: after bytes
were returned a change fails the read with EIO; a new open reads the new version).

Short form: 4 files of 16 MiB, 4 threads; long form (OSSGW_RELIABILITY=long): 10 files of 128 MiB, 8 threads.
"""
import errno
import hashlib
import os
import threading

from conftest import scale

FILES, FILE_MB, THREADS = scale((4, 16, 4), (10, 128, 8))
MIB = 1 << 20


def _body(i, mb):
    return hashlib.sha256(str(i).encode()).digest() * (mb * MIB // 32)


def test_threads_of_one_fd_and_files_streamed_at_once_read_the_right_bytes(mounts, new_bucket):
    name, bucket = new_bucket
    for i in range(FILES):
        bucket.put_object(f"c/f{i}.bin", _body(i, FILE_MB))
    # a small budget (memory_limit=512: 128 MiB of buffers, 1 MiB chunks) so N files share it for real
    mp = mounts.mount(name, extra=["direct_read", "memory_limit=512", "direct_read_chunk_size=1"])
    errors = []

    def one_fd_many_threads():
        fd = os.open(mp / "c" / "f0.bin", os.O_RDONLY)
        try:
            want = _body(0, FILE_MB)
            pieces = [(off, min(MIB, len(want) - off)) for off in range(0, len(want), MIB)]

            def worker(k):
                for off, n in pieces[k::THREADS]:
                    if os.pread(fd, n, off) != want[off:off + n]:
                        errors.append(f"f0.bin at {off} read back wrong")

            ts = [threading.Thread(target=worker, args=(k,)) for k in range(THREADS)]
            [t.start() for t in ts]
            [t.join() for t in ts]
        finally:
            os.close(fd)

    def stream(i):
        h = hashlib.sha256()
        with open(mp / "c" / f"f{i}.bin", "rb") as f:
            while chunk := f.read(MIB):
                h.update(chunk)
        if h.digest() != hashlib.sha256(_body(i, FILE_MB)).digest():
            errors.append(f"f{i}.bin streamed wrong")

    ts = [threading.Thread(target=one_fd_many_threads)] + [threading.Thread(target=stream, args=(i,))
                                                          for i in range(1, FILES)]
    [t.start() for t in ts]
    [t.join() for t in ts]
    assert not errors, errors


def test_an_object_replaced_while_read_is_never_mixed(mounts, new_bucket):
    name, bucket = new_bucket
    v1, v2 = _body(1, FILE_MB), _body(2, FILE_MB)
    bucket.put_object("moving.bin", v1)
    # one 1 MiB chunk ahead at most, so most of the file is fetched after the change
    mp = mounts.mount(name, extra=["direct_read", "direct_read_chunk_size=1", "direct_read_prefetch_chunks=1"])
    fd = os.open(mp / "moving.bin", os.O_RDONLY)
    got, eio = {}, []
    try:
        assert os.pread(fd, MIB, 0) == v1[:MIB]
        bucket.put_object("moving.bin", v2)

        def worker(k):
            for off in range(MIB * (1 + k), len(v1), MIB * THREADS):
                try:
                    got[off] = os.pread(fd, MIB, off)
                except OSError as e:
                    eio.append(e.errno)

        ts = [threading.Thread(target=worker, args=(k,)) for k in range(THREADS)]
        [t.start() for t in ts]
        [t.join() for t in ts]
    finally:
        os.close(fd)
    for off, data in got.items():
        assert data == v1[off:off + len(data)], f"bytes at {off} are not version one's"
    assert eio and set(eio) == {errno.EIO}, f"reads after the change: {len(got)} returned, errors {set(eio)}"
    with open(mp / "moving.bin", "rb") as f:
        assert f.read() == v2, "a new open reads the new version"
