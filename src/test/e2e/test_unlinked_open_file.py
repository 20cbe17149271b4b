"""End-to-end: an open file whose name was unlinked, through `./ossgw mount` under both FUSE bindings (issue 12
item 5). When the kernel asks for the attributes of such a file with its handle (FUSE_GETATTR_FH: a read past the
cached size with expired attributes, lseek SEEK_END), the gateway answers from the handle, with st_nlink 0, instead of
looking the vanished path up (ENOENT). fstat(2), which the kernel sends without the handle, reaches the gateway by the
`.fuse_hidden` name libfuse gives the node (the mount has no hard_remove): answered from the open file too, while that
name is never an object in the bucket and never listed. Reads and writes on the descriptor keep working; nothing is
left in the bucket."""
import errno
import os
import subprocess

import pytest
from e2e_support import all_keys, log, scaled

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


def _ops(counters):
    return {k: v for k, v in counters.items() if v and not k.startswith("Bytes")}


def test_fstat_of_an_unlinked_open_file_leaves_no_hidden_name(emulator, mounts, new_bucket, binding):
    name, bucket = new_bucket
    mp = mounts.mount(name)
    (mp / "d").mkdir()
    (mp / "d" / "f.txt").write_bytes(b"0123456789")
    fd = os.open(mp / "d" / "f.txt", os.O_RDWR)
    try:
        assert os.pread(fd, 100, 0) == b"0123456789"
        emulator.reset_counters()
        os.unlink(mp / "d" / "f.txt")
        # the unlink is DeleteObject; libfuse's probe of its hidden name (getattr, must be ENOENT) is answered from the
        # engine's caches here, else it costs a HEAD
        c = _ops(emulator.counters())
        log(f"{binding}: requests of unlinking an open file: {c}")
        assert c == {"DeleteObject": 1}, c
        st = os.fstat(fd)
        assert (st.st_nlink, st.st_size) == (0, 10)
        assert os.listdir(mp / "d") == []
        assert all_keys(bucket) == ["d/"]
        assert os.pwrite(fd, b"ab", 10) == 2
        assert os.fstat(fd).st_size == 12
        emulator.reset_counters()
    finally:
        os.close(fd)
    mounts.unmount(mp)  # every release (and libfuse's unlink of the hidden name) has been handled
    c = _ops(emulator.counters())
    assert c == {}, c  # the unlinked file is not uploaded, its hidden name costs nothing
    assert all_keys(bucket) == ["d/"]


def test_rename_onto_an_open_file_and_a_user_fuse_hidden_name(mounts, new_bucket, binding):
    name, bucket = new_bucket
    mp = mounts.mount(name)
    (mp / "b").write_bytes(b"old")
    (mp / "a").write_bytes(b"new")
    fd = os.open(mp / "b", os.O_RDONLY)
    try:
        os.rename(mp / "a", mp / "b")  # libfuse hides the open target first
        assert os.fstat(fd).st_nlink == 0
        assert (mp / "b").read_bytes() == b"new"
        assert sorted(os.listdir(mp)) == ["b"]
        assert all_keys(bucket) == ["b"]
    finally:
        os.close(fd)
    # a name of libfuse's form that a user makes is an ordinary file
    user = mp / ".fuse_hidden0000000a00000001"
    user.write_bytes(b"mine")
    assert user.stat().st_nlink == 1
    assert ".fuse_hidden0000000a00000001" in os.listdir(mp)
    os.rename(user, mp / "c")
    (mp / "c").rename(user)
    assert bucket.get_object(".fuse_hidden0000000a00000001").read() == b"mine"
    user.unlink()
    assert all_keys(bucket) == ["b"]


def test_unlinking_an_open_file_looked_up_after_a_remount(emulator, mounts, new_bucket, binding):
    """What libfuse's probe of the hidden name costs when the directory's listing is not cached (after a remount)."""
    name, bucket = new_bucket
    bucket.put_object("d/", b"")
    bucket.put_object("d/g.txt", b"abc")
    mp = mounts.mount(name)
    fd = os.open(mp / "d" / "g.txt", os.O_RDONLY)
    try:
        emulator.reset_counters()
        os.unlink(mp / "d" / "g.txt")
        c = _ops(emulator.counters())
        log(f"{binding}: requests of unlinking an open file, listing not cached: {c}")
        # the probe of the hidden name is the stat of a missing name, cold: HEAD + LIST max-keys=1
        assert c == {"HeadObject": 1, "ListObjectsV2": 1, "DeleteObject": 1}, c
        assert os.fstat(fd).st_nlink == 0
    finally:
        os.close(fd)
    assert all_keys(bucket) == ["d/"]


def test_hard_remove_forgets_the_name_at_unlink(mounts, new_bucket, binding):
    """-o hard_remove (jnr: a libfuse -o option; jfuse: fuse_config.hard_remove): libfuse keeps no hidden name, and
    answers fstat itself: ENOENT (libfuse 2), ESTALE (libfuse 3). Reads on the descriptor still work."""
    name, bucket = new_bucket
    mp = mounts.mount(name, extra=("hard_remove",))
    (mp / "h.txt").write_bytes(b"hard")
    fd = os.open(mp / "h.txt", os.O_RDONLY)
    try:
        assert os.pread(fd, 10, 0) == b"hard"
        os.unlink(mp / "h.txt")
        with pytest.raises(OSError) as e:
            os.fstat(fd)
        assert e.value.errno == (errno.ENOENT if binding == "jnr" else errno.ESTALE)
        assert os.pread(fd, 10, 0) == b"hard"
    finally:
        os.close(fd)
    assert all_keys(bucket) == []


def test_a_users_rename_onto_a_fuse_hidden_name_is_a_rename(mounts, new_bucket, binding):
    """Issue 21, D6: `echo data > m/v.txt; exec 3<m/v.txt; mv m/v.txt m/.fuse_hidden00000000000000aa` returned 0 and
    lost the file (neither name listed, neither key in the bucket): the rename of an open file onto a name of libfuse's
    hidden form was taken for libfuse's own hide. A user's rename onto such a name (the file open or not, the name
    with libfuse's node id and counter digits or not) moves the bytes: listed, readable and in the bucket under the new
    name, also after the last close; libfuse's hide of an unlinked open file in the same mount still leaves nothing."""
    name, bucket = new_bucket
    mp = mounts.mount(name)
    # the reproduction, in a shell: the descriptor stays open in the shell across the mv
    r = subprocess.run(["bash", "-c", 'set -e; cd "$1"; echo data > v.txt; exec 3<v.txt; '
                        'mv v.txt .fuse_hidden00000000000000aa; ls -a; cat <&3; cat .fuse_hidden00000000000000aa',
                        "repro", str(mp)], capture_output=True, text=True, timeout=scaled(120))
    assert r.returncode == 0, r.stderr
    assert ".fuse_hidden00000000000000aa" in r.stdout.split() and "v.txt" not in r.stdout.split(), r.stdout
    assert r.stdout.count("data") == 2, r.stdout
    # open through Python, a name exactly of libfuse's form (node id 2, counter 1), and a closed file
    (mp / "w.txt").write_bytes(b"open")
    (mp / "c.txt").write_bytes(b"closed")
    fd = os.open(mp / "w.txt", os.O_RDONLY)
    try:
        os.rename(mp / "w.txt", mp / ".fuse_hidden0000000200000001")
        assert os.fstat(fd).st_nlink == 1
        assert os.pread(fd, 10, 0) == b"open"
        assert (mp / ".fuse_hidden0000000200000001").read_bytes() == b"open"
    finally:
        os.close(fd)
    os.rename(mp / "c.txt", mp / ".fuse_hidden0000000300000002")
    moved = {".fuse_hidden00000000000000aa": b"data\n", ".fuse_hidden0000000200000001": b"open",
             ".fuse_hidden0000000300000002": b"closed"}
    assert sorted(os.listdir(mp)) == sorted(moved)
    assert sorted(all_keys(bucket)) == sorted(moved)
    for key, data in moved.items():
        assert (mp / key).read_bytes() == data
        assert bucket.get_object(key).read() == data
    # libfuse's own hide of an unlinked open file, in the same mount, still makes no object and lists nothing
    (mp / "u.txt").write_bytes(b"unlinked")
    fd = os.open(mp / "u.txt", os.O_RDONLY)
    try:
        os.unlink(mp / "u.txt")
        assert os.fstat(fd).st_nlink == 0
        assert sorted(os.listdir(mp)) == sorted(moved)
        assert sorted(all_keys(bucket)) == sorted(moved)
    finally:
        os.close(fd)
    mounts.unmount(mp)  # every release has been handled: nothing unlinked the moved names
    assert sorted(all_keys(bucket)) == sorted(moved)
