"""End-to-end: special files (issue 12) through `./ossgw mount` with real syscalls, under both FUSE bindings.

mkfifo, mknod of character and block devices (with rdev) and the name bind(2) gives an AF_UNIX socket are stored the
ossfs way: a zero-byte object whose x-oss-meta-mode carries the type bits (plus x-oss-meta-rdev for devices). Checked:
stat (type, permission bits, st_rdev), readdir's d_type, unlink, the objects through oss2, an object written the way
ossfs writes a fifo, and that a fifo's data goes through the kernel (opening it never reaches the gateway, which would
answer ENXIO)."""
import ctypes
import ctypes.util
import os
import socket
import stat

import pytest

DT_FIFO, DT_CHR, DT_BLK, DT_SOCK = 1, 2, 6, 12

# Each binding is chosen per mount process through the launcher's JVM options; run_ossgw copies os.environ.
BINDINGS = ["jnr", "jfuse"]


class _Dirent(ctypes.Structure):
    _fields_ = [("d_ino", ctypes.c_uint64), ("d_off", ctypes.c_int64), ("d_reclen", ctypes.c_ushort),
                ("d_type", ctypes.c_ubyte), ("d_name", ctypes.c_char * 256)]


def d_types(path):
    """{name: d_type} from readdir(3) itself (Python's scandir hides d_type)."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    libc.opendir.restype = ctypes.c_void_p
    libc.readdir.argtypes = [ctypes.c_void_p]
    libc.readdir.restype = ctypes.POINTER(_Dirent)
    libc.closedir.argtypes = [ctypes.c_void_p]
    d = libc.opendir(os.fsencode(str(path)))
    assert d, f"opendir {path}: errno {ctypes.get_errno()}"
    out = {}
    try:
        while True:
            e = libc.readdir(d)
            if not e:
                break
            out[e.contents.d_name.decode()] = e.contents.d_type
    finally:
        libc.closedir(d)
    return out


@pytest.fixture(params=BINDINGS)
def binding(request, monkeypatch):
    monkeypatch.setenv("OSSGW_JAVA_OPTS", f"-Dio.ossgw.fuse.binding={request.param}")
    return request.param


def test_mkfifo_mknod_and_socket_bind(mounts, new_bucket, binding):
    name, bucket = new_bucket
    mp = mounts.mount(name)
    old = os.umask(0)
    try:
        os.mkfifo(mp / "fifo", 0o640)
        os.mknod(mp / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        os.mknod(mp / "disk", 0o660 | stat.S_IFBLK, os.makedev(259, 70000))
        cwd = os.getcwd()
        os.chdir(mp)  # a relative name keeps the path within sun_path's 108 bytes
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                s.bind("sock")
        finally:
            os.chdir(cwd)
    finally:
        os.umask(old)

    st = os.stat(mp / "fifo")
    assert stat.S_ISFIFO(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o640 and st.st_size == 0
    st = os.stat(mp / "null")
    assert stat.S_ISCHR(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o666
    assert (os.major(st.st_rdev), os.minor(st.st_rdev)) == (1, 3)
    st = os.stat(mp / "disk")
    assert stat.S_ISBLK(st.st_mode) and (os.major(st.st_rdev), os.minor(st.st_rdev)) == (259, 70000)
    assert stat.S_ISSOCK(os.stat(mp / "sock").st_mode)
    assert sorted(os.listdir(mp)) == ["disk", "fifo", "null", "sock"]
    types = d_types(mp)
    assert (types["fifo"], types["null"], types["disk"], types["sock"]) == (DT_FIFO, DT_CHR, DT_BLK, DT_SOCK), types

    # the bucket holds ossfs-format objects
    h = bucket.head_object("fifo")
    assert h.content_length == 0 and h.headers["x-oss-meta-mode"] == str(stat.S_IFIFO | 0o640)
    h = bucket.head_object("null")
    assert h.headers["x-oss-meta-mode"] == str(stat.S_IFCHR | 0o666)
    assert h.headers["x-oss-meta-rdev"] == str(os.makedev(1, 3))
    assert stat.S_ISSOCK(int(bucket.head_object("sock").headers["x-oss-meta-mode"]))

    # a fifo is the kernel's: both ends open (non-blocking) and bytes pass between them on this host
    r = os.open(mp / "fifo", os.O_RDONLY | os.O_NONBLOCK)
    try:
        w = os.open(mp / "fifo", os.O_WRONLY | os.O_NONBLOCK)
        try:
            assert os.write(w, b"through the pipe") == 16
            assert os.read(r, 100) == b"through the pipe"
        finally:
            os.close(w)
    finally:
        os.close(r)
    assert bucket.head_object("fifo").content_length == 0

    # the same names after a remount (read back from the objects, cold caches)
    mp = mounts.remount(mp, name)
    assert stat.S_ISFIFO(os.stat(mp / "fifo").st_mode)
    assert os.stat(mp / "null").st_rdev == os.makedev(1, 3)

    for n in ("fifo", "null", "disk", "sock"):
        os.unlink(mp / n)
        assert not bucket.object_exists(n), n
    assert os.listdir(mp) == []


def test_ossfs_written_fifo_and_device_read_back(mounts, new_bucket):
    name, bucket = new_bucket
    # what ossfs 1.91's mknod writes: a zero-byte object with the mode, and no device number
    meta = {"x-oss-meta-uid": "0", "x-oss-meta-gid": "0", "x-oss-meta-mtime": "1577934245"}
    bucket.put_object("of-fifo", b"", headers={**meta, "x-oss-meta-mode": str(stat.S_IFIFO | 0o644)})
    bucket.put_object("of-chr", b"", headers={**meta, "x-oss-meta-mode": str(stat.S_IFCHR | 0o600)})
    mp = mounts.mount(name)
    st = os.stat(mp / "of-fifo")
    assert stat.S_ISFIFO(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o644 and int(st.st_mtime) == 1577934245
    st = os.stat(mp / "of-chr")
    assert stat.S_ISCHR(st.st_mode) and st.st_rdev == 0
    types = d_types(mp)
    assert (types["of-fifo"], types["of-chr"]) == (DT_FIFO, DT_CHR), types
