"""End-to-end: an open file whose name was unlinked, through `./ossgw mount` under both FUSE bindings (issue 12
item 5). When the kernel asks for the attributes of such a file with its handle (FUSE_GETATTR_FH: a read past the
cached size with expired attributes, lseek SEEK_END), the gateway answers from the handle, with st_nlink 0, instead of
looking the vanished path up (ENOENT). Reads and writes on the descriptor keep working; nothing is left in the bucket."""
import os

import pytest

BINDINGS = ["jnr", "jfuse"]


@pytest.fixture(params=BINDINGS)
def binding(request, monkeypatch):
    monkeypatch.setenv("OSSGW_JAVA_OPTS", f"-Dio.ossgw.fuse.binding={request.param}")
    return request.param


def test_reads_of_an_unlinked_open_file_past_its_cached_size(mounts, new_bucket, binding):
    name, bucket = new_bucket
    # attr_timeout=0: every size check of a read past the cached size asks the gateway, with the file handle
    mp = mounts.mount(name, extra=("attr_timeout=0",))
    # the bytes live in the gateway's staging (an unlinked name's object is deleted at once: data never read or
    # written through the descriptor before the unlink cannot be read after it)
    fd = os.open(mp / "kept.txt", os.O_CREAT | os.O_RDWR, 0o644)
    try:
        assert os.write(fd, b"0123456789") == 10
        os.unlink(mp / "kept.txt")
        assert not (mp / "kept.txt").exists()
        assert os.pread(fd, 100, 0) == b"0123456789"
        assert os.pwrite(fd, b"abc", 10) == 3
        assert os.pread(fd, 100, 8) == b"89abc"
        assert os.lseek(fd, 0, os.SEEK_END) == 13
    finally:
        os.close(fd)
    assert os.listdir(mp) == []
    assert not bucket.object_exists("kept.txt")
