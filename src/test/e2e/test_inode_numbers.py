"""End-to-end: st_ino follows a file through rename and survives a restart of `./ossgw mount` (issue 12 item 2),
under both FUSE bindings (use_ino) with real syscalls. The numbers come from the engine's inode table in the mount's
state directory (gateway-core io.ossgw.core.inode, the implementation NFS's file handles use too); before it, st_ino
was a hash of the object key and changed with every rename. readdir's d_ino (os.scandir) shows the same numbers."""
import os

import pytest

BINDINGS = ["jnr", "jfuse"]


@pytest.fixture(params=BINDINGS)
def binding(request, monkeypatch):
    monkeypatch.setenv("OSSGW_JAVA_OPTS", f"-Dio.ossgw.fuse.binding={request.param}")
    return request.param


def listed(d):
    return {e.name: e.inode() for e in os.scandir(d)}


def test_rename_of_a_file_and_a_directory_with_children_keeps_st_ino_across_a_remount(mounts, new_bucket, binding):
    name, bucket = new_bucket
    mp = mounts.mount(name)
    (mp / "f.txt").write_bytes(b"f")
    os.makedirs(mp / "d" / "sub")
    (mp / "d" / "sub" / "g.txt").write_bytes(b"g")
    f = os.stat(mp / "f.txt").st_ino
    d = os.stat(mp / "d").st_ino
    sub = os.stat(mp / "d" / "sub").st_ino
    g = os.stat(mp / "d" / "sub" / "g.txt").st_ino
    assert len({f, d, sub, g}) == 4

    os.rename(mp / "f.txt", mp / "f2.txt")
    os.rename(mp / "d", mp / "e")
    assert os.stat(mp / "f2.txt").st_ino == f
    assert os.stat(mp / "e").st_ino == d
    assert os.stat(mp / "e" / "sub").st_ino == sub
    assert os.stat(mp / "e" / "sub" / "g.txt").st_ino == g
    assert listed(mp)["f2.txt"] == f
    assert listed(mp)["e"] == d
    assert listed(mp / "e" / "sub")["g.txt"] == g
    # a new file under a freed name is another file
    (mp / "f.txt").write_bytes(b"new")
    fresh = os.stat(mp / "f.txt").st_ino
    assert fresh != f

    mp = mounts.remount(mp, name)
    assert os.stat(mp / "f2.txt").st_ino == f
    assert os.stat(mp / "e" / "sub" / "g.txt").st_ino == g
    assert os.stat(mp / "e").st_ino == d
    assert os.stat(mp / "f.txt").st_ino == fresh
    assert listed(mp / "e")["sub"] == sub
    assert bucket.get_object("e/sub/g.txt").read() == b"g"
