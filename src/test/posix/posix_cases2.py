"""The suite's ordinary cases (see posix_suite.py): open flags, rename, utimensat, mkdir/rmdir, symlinks, truncate,
unlink, chmod. Each takes the suite and a fresh directory of its own."""
import os
import stat
import subprocess
import time

from posix_suite import fs_now_ns, read, write

SLACK_NS = 20_000_000
T1 = "1000000000.123456789"  # touch -d @T1
T1_NS = 1_000_000_000_123_456_789
T2_NS = 1_111_111_111_987_654_321


def j(*p):
    return os.path.join(*p)


def open_flags(s, d):
    p = j(d, "f")
    s.expect("open.creat-excl-new", "OK", write, p, b"0123456789", 0o644, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    s.expect("open.creat-excl-existing", "EEXIST", os.open, p, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    os.symlink("dangling-target", j(d, "dangling"))
    s.expect("open.creat-excl-dangling-symlink", "EEXIST", os.open, j(d, "dangling"),
             os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    s.check("open.excl-did-not-create-target", os.path.lexists(j(d, "dangling-target")), False)
    os.mkdir(j(d, "dir"))
    s.expect("open.creat-excl-dir", "EEXIST", os.open, j(d, "dir"), os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    s.expect("open.dir-for-write", "EISDIR", os.open, j(d, "dir"), os.O_WRONLY)
    s.expect("open.missing-parent", "ENOENT", os.open, j(d, "none", "f"), os.O_CREAT | os.O_WRONLY, 0o644)
    s.expect("open.through-file", "ENOTDIR", os.open, j(d, "f", "x"), os.O_CREAT | os.O_WRONLY, 0o644)
    s.expect("open.missing", "ENOENT", os.open, j(d, "nope"), os.O_RDONLY)
    fd = os.open(p, os.O_CREAT | os.O_WRONLY, 0o600)  # no O_TRUNC: content and mode stay
    os.close(fd)
    s.value("open.creat-existing-keeps-data", "data", read(p), b"0123456789")
    s.value("open.creat-existing-keeps-mode", "mode", oct(stat.S_IMODE(os.stat(p).st_mode)), oct(0o644))
    fd = os.open(p, os.O_WRONLY | os.O_TRUNC)
    s.value("open.trunc-size-at-once", "size", os.fstat(fd).st_size, 0)
    os.write(fd, b"ab")
    os.close(fd)
    s.value("open.trunc-then-write", "data", read(p), b"ab")
    fd = os.open(p, os.O_WRONLY | os.O_APPEND)
    os.write(fd, b"cd")
    os.lseek(fd, 0, os.SEEK_SET)
    os.write(fd, b"ef")  # O_APPEND: every write goes to the end
    os.close(fd)
    s.value("open.append", "data", read(p), b"abcdef")
    fd = os.open(p, os.O_RDONLY)
    s.expect("open.write-on-rdonly-fd", "EBADF", os.write, fd, b"x")
    os.close(fd)
    s.expect("open.create-mode-umask", "OK", write, j(d, "m"), b"", 0o777)
    s.value("open.create-mode-umask-value", "mode", oct(stat.S_IMODE(os.stat(j(d, "m")).st_mode)), oct(0o755))
    fd = os.open(j(d, "big"), os.O_CREAT | os.O_RDWR, 0o644)
    os.pwrite(fd, b"z", 5 * 1024 * 1024)
    os.close(fd)
    s.value("open.sparse-size", "size", os.stat(j(d, "big")).st_size, 5 * 1024 * 1024 + 1)
    s.value("open.sparse-zeros", "data", read(j(d, "big"))[:4096], b"\0" * 4096)


def rename_matrix(s, d):
    write(j(d, "a"), b"a")
    write(j(d, "b"), b"b")
    s.expect("rename.file-onto-file", "OK", os.rename, j(d, "a"), j(d, "b"))
    s.value("rename.file-onto-file-data", "data", read(j(d, "b")), b"a")
    s.check("rename.file-onto-file-source-gone", os.path.lexists(j(d, "a")), False)
    os.mkdir(j(d, "emptydir"))
    s.expect("rename.file-onto-dir", "EISDIR", os.rename, j(d, "b"), j(d, "emptydir"))
    os.mkdir(j(d, "dir"))
    write(j(d, "dir", "child"), b"c")
    s.expect("rename.dir-onto-file", "ENOTDIR", os.rename, j(d, "dir"), j(d, "b"))
    os.mkdir(j(d, "full"))
    write(j(d, "full", "x"), b"x")
    s.expect("rename.dir-onto-nonempty-dir", "ENOTEMPTY", os.rename, j(d, "dir"), j(d, "full"))
    s.expect("rename.dir-into-itself", "EINVAL", os.rename, j(d, "dir"), j(d, "dir", "sub"))
    s.expect("rename.dir-onto-empty-dir", "OK", os.rename, j(d, "dir"), j(d, "emptydir"))
    s.value("rename.dir-children-moved", "entries", os.listdir(j(d, "emptydir")), ["child"])
    s.value("rename.dir-child-data", "data", read(j(d, "emptydir", "child")), b"c")
    s.check("rename.dir-source-gone", os.path.lexists(j(d, "dir")), False)
    s.expect("rename.missing-source", "ENOENT", os.rename, j(d, "nope"), j(d, "x"))
    s.expect("rename.missing-target-parent", "ENOENT", os.rename, j(d, "b"), j(d, "none", "b"))
    s.expect("rename.through-file", "ENOTDIR", os.rename, j(d, "b"), j(d, "b", "c"))
    s.expect("rename.onto-itself", "OK", os.rename, j(d, "b"), j(d, "b"))
    s.value("rename.onto-itself-data", "data", read(j(d, "b")), b"a")
    os.symlink("b", j(d, "ln"))
    s.expect("rename.symlink", "OK", os.rename, j(d, "ln"), j(d, "ln2"))
    s.value("rename.symlink-target", "target", os.readlink(j(d, "ln2")), "b")
    s.check("rename.symlink-still-link", stat.S_ISLNK(os.lstat(j(d, "ln2")).st_mode), True)
    os.chmod(j(d, "b"), 0o600)
    os.utime(j(d, "b"), ns=(T1_NS, T1_NS))
    os.rename(j(d, "b"), j(d, "b2"))
    st = os.stat(j(d, "b2"))
    s.value("rename.keeps-mode", "mode", oct(stat.S_IMODE(st.st_mode)), oct(0o600))
    s.value("rename.keeps-mtime", "mtime", st.st_mtime_ns, T1_NS)
    s.expect("rename.dir-onto-dir-with-file-into", "OK", os.rename, j(d, "emptydir"), j(d, "moved"))
    s.check("rename.moved-dir-listed", "moved" in os.listdir(d) and "emptydir" not in os.listdir(d), True)


def touch(*args):
    subprocess.run(["touch", *args], check=True, capture_output=True)


def utimens(s, d):
    p = j(d, "f")
    write(p, b"x")
    os.utime(p, ns=(T1_NS, T2_NS))
    st = os.stat(p)
    s.value("utime.ns-atime", "atime", st.st_atime_ns, T1_NS)
    s.value("utime.ns-mtime", "mtime", st.st_mtime_ns, T2_NS)
    c0 = st.st_ctime_ns
    start = fs_now_ns(d)
    os.utime(p)  # both UTIME_NOW
    st = os.stat(p)
    s.check("utime.now-mtime", st.st_mtime_ns >= start - SLACK_NS, True)
    s.check("utime.now-atime", st.st_atime_ns >= start - SLACK_NS, True)
    s.check("utime.now-ctime", st.st_ctime_ns >= c0, True)
    os.utime(p, ns=(T1_NS, T2_NS))
    touch("-m", "-d", "@" + T1, p)  # mtime set, atime UTIME_OMIT
    st = os.stat(p)
    s.value("utime.omit-atime-kept", "atime", st.st_atime_ns, T1_NS)
    s.value("utime.omit-mtime-set", "mtime", st.st_mtime_ns, T1_NS)
    os.utime(p, ns=(T2_NS, T2_NS))
    touch("-a", "-d", "@" + T1, p)  # atime set, mtime UTIME_OMIT
    st = os.stat(p)
    s.value("utime.omit-mtime-kept", "mtime", st.st_mtime_ns, T2_NS)
    s.value("utime.omit-atime-set", "atime", st.st_atime_ns, T1_NS)
    start = fs_now_ns(d)
    touch("-m", p)  # mtime UTIME_NOW, atime UTIME_OMIT
    st = os.stat(p)
    s.check("utime.now-omit-mtime", st.st_mtime_ns >= start - SLACK_NS, True)
    s.value("utime.now-omit-atime-kept", "atime", st.st_atime_ns, T1_NS)
    os.mkdir(j(d, "dir"))
    os.utime(j(d, "dir"), ns=(T1_NS, T2_NS))
    s.value("utime.dir-mtime", "mtime", os.stat(j(d, "dir")).st_mtime_ns, T2_NS)
    os.utime(p, ns=(0, 0))
    s.value("utime.epoch", "mtime", os.stat(p).st_mtime_ns, 0)
    os.utime(p, ns=(T1_NS, 4_102_444_800_000_000_001))  # 2100-01-01 + 1 ns
    s.value("utime.year-2100", "mtime", os.stat(p).st_mtime_ns, 4_102_444_800_000_000_001)
    s.expect("utime.missing", "ENOENT", os.utime, j(d, "nope"))


def mkdir_rmdir(s, d):
    s.expect("mkdir.new", "OK", os.mkdir, j(d, "a"), 0o700)
    s.value("mkdir.mode", "mode", oct(stat.S_IMODE(os.stat(j(d, "a")).st_mode)), oct(0o700))
    s.check("mkdir.is-dir", stat.S_ISDIR(os.stat(j(d, "a")).st_mode), True)
    s.expect("mkdir.umask", "OK", os.mkdir, j(d, "u"), 0o777)
    s.value("mkdir.umask-mode", "mode", oct(stat.S_IMODE(os.stat(j(d, "u")).st_mode)), oct(0o755))
    s.expect("mkdir.existing", "EEXIST", os.mkdir, j(d, "a"))
    write(j(d, "f"), b"f")
    s.expect("mkdir.over-file", "EEXIST", os.mkdir, j(d, "f"))
    s.expect("mkdir.missing-parent", "ENOENT", os.mkdir, j(d, "none", "x"))
    s.expect("mkdir.under-file", "ENOTDIR", os.mkdir, j(d, "f", "x"))
    os.symlink("a", j(d, "la"))
    s.expect("mkdir.over-symlink", "EEXIST", os.mkdir, j(d, "la"))
    s.expect("mkdir.sticky-mode", "OK", os.mkdir, j(d, "t"), 0o1777)
    os.chmod(j(d, "t"), 0o1777)
    s.value("mkdir.sticky-kept", "mode", oct(stat.S_IMODE(os.stat(j(d, "t")).st_mode)), oct(0o1777))
    write(j(d, "a", "x"), b"x")
    s.expect("rmdir.nonempty", "ENOTEMPTY", os.rmdir, j(d, "a"))
    s.expect("rmdir.file", "ENOTDIR", os.rmdir, j(d, "f"))
    s.expect("rmdir.symlink-to-dir", "ENOTDIR", os.rmdir, j(d, "la"))
    s.expect("rmdir.missing", "ENOENT", os.rmdir, j(d, "nope"))
    s.expect("rmdir.dot", "EINVAL", os.rmdir, j(d, "a", "."))
    s.expect("rmdir.through-file", "ENOTDIR", os.rmdir, j(d, "f", "x"))
    os.unlink(j(d, "a", "x"))
    s.expect("rmdir.emptied", "OK", os.rmdir, j(d, "a"))
    s.expect("rmdir.gone", "ENOENT", os.stat, j(d, "a"))
    s.check("rmdir.not-listed", "a" in os.listdir(d), False)
    s.expect("mkdir.again-after-rmdir", "OK", os.mkdir, j(d, "a"))


def symlinks(s, d):
    write(j(d, "target"), b"t")
    s.expect("symlink.create", "OK", os.symlink, "target", j(d, "l"))
    s.value("symlink.readlink", "target", os.readlink(j(d, "l")), "target")
    st = os.lstat(j(d, "l"))
    s.check("symlink.lstat-type", stat.S_ISLNK(st.st_mode), True)
    s.value("symlink.lstat-size", "size", st.st_size, len("target"))
    s.value("symlink.stat-follows", "data", read(j(d, "l")), b"t")
    s.expect("symlink.existing-name", "EEXIST", os.symlink, "x", j(d, "target"))
    s.expect("symlink.dangling-create", "OK", os.symlink, "nowhere/at/all", j(d, "dangling"))
    s.expect("symlink.dangling-stat", "ENOENT", os.stat, j(d, "dangling"))
    s.expect("symlink.readlink-file", "EINVAL", os.readlink, j(d, "target"))
    s.expect("symlink.readlink-missing", "ENOENT", os.readlink, j(d, "nope"))
    long = "/".join(["d" * 100] * 10)  # 1,009 bytes
    os.symlink(long, j(d, "long"))
    s.value("symlink.long-target", "target", os.readlink(j(d, "long")), long)
    uni = "../\u65e5\u672c/\u00e9t\u00e9 space"
    os.symlink(uni, j(d, "uni"))
    s.value("symlink.unicode-target", "target", os.readlink(j(d, "uni")), uni)
    os.symlink("/absolute/path", j(d, "abs"))
    s.value("symlink.absolute-target", "target", os.readlink(j(d, "abs")), "/absolute/path")
    os.mkdir(j(d, "dir"))
    os.symlink("dir", j(d, "ldir"))
    write(j(d, "ldir", "through"), b"via link")
    s.value("symlink.through-dir-link", "data", read(j(d, "dir", "through")), b"via link")
    s.expect("symlink.unlink-link", "OK", os.unlink, j(d, "l"))
    s.value("symlink.unlink-keeps-target", "data", read(j(d, "target")), b"t")
    s.value("symlink.mode", "mode", oct(stat.S_IMODE(os.lstat(j(d, "uni")).st_mode)), oct(0o777))


def truncation(s, d):
    p = j(d, "f")
    write(p, b"0123456789")
    s.expect("truncate.extend", "OK", os.truncate, p, 100)
    s.value("truncate.extend-size", "size", os.stat(p).st_size, 100)
    s.value("truncate.extend-zeros", "data", read(p), b"0123456789" + b"\0" * 90)
    s.expect("truncate.shrink", "OK", os.truncate, p, 5)
    s.value("truncate.shrink-data", "data", read(p), b"01234")
    s.expect("truncate.zero", "OK", os.truncate, p, 0)
    s.value("truncate.zero-size", "size", os.stat(p).st_size, 0)
    os.mkdir(j(d, "dir"))
    s.expect("truncate.dir", "EISDIR", os.truncate, j(d, "dir"), 0)
    s.expect("truncate.negative", "EINVAL", os.truncate, p, -1)
    s.expect("truncate.missing", "ENOENT", os.truncate, j(d, "nope"), 0)
    write(p, b"abcdef")
    fd = os.open(p, os.O_RDONLY)
    try:
        s.expect("ftruncate.rdonly-fd", "EINVAL", os.ftruncate, fd, 0)
    finally:
        os.close(fd)
    fd = os.open(p, os.O_RDWR)
    try:
        s.expect("ftruncate.rdwr", "OK", os.ftruncate, fd, 3)
        s.value("ftruncate.fstat-size", "size", os.fstat(fd).st_size, 3)
        s.value("ftruncate.pread", "data", os.pread(fd, 10, 0), b"abc")
        os.pwrite(fd, b"Z", 6)
    finally:
        os.close(fd)
    s.value("ftruncate.after-close", "data", read(p), b"abc\0\0\0Z")
    os.mkfifo(j(d, "fifo"))
    s.expect("truncate.fifo", "EINVAL", os.truncate, j(d, "fifo"), 0)


def unlinks(s, d):
    write(j(d, "f"), b"f")
    os.mkdir(j(d, "dir"))
    s.expect("unlink.missing", "ENOENT", os.unlink, j(d, "nope"))
    s.expect("unlink.dir", "EISDIR", os.unlink, j(d, "dir"))
    s.expect("unlink.through-file", "ENOTDIR", os.unlink, j(d, "f", "x"))
    s.expect("unlink.file", "OK", os.unlink, j(d, "f"))
    s.expect("unlink.gone", "ENOENT", os.stat, j(d, "f"))
    s.expect("unlink.twice", "ENOENT", os.unlink, j(d, "f"))
    write(j(d, "f"), b"again")
    s.value("unlink.recreate", "data", read(j(d, "f")), b"again")
    s.value("unlink.listing", "entries", sorted(os.listdir(d)), ["dir", "f"])


def chmods(s, d):
    p = j(d, "f")
    write(p, b"#!/bin/sh\n", 0o755)
    for mode in (0o4755, 0o2755, 0o6755, 0o1755, 0o7777, 0o0, 0o644, 0o400):
        os.chmod(p, mode)
        s.value("chmod.file:" + oct(mode), "mode", oct(stat.S_IMODE(os.stat(p).st_mode)), oct(mode))
        s.check("chmod.file-type:" + oct(mode), stat.S_ISREG(os.stat(p).st_mode), True)
    os.mkdir(j(d, "dir"))
    for mode in (0o2775, 0o1777, 0o700):
        os.chmod(j(d, "dir"), mode)
        s.value("chmod.dir:" + oct(mode), "mode", oct(stat.S_IMODE(os.stat(j(d, "dir")).st_mode)), oct(mode))
    c0 = os.stat(p).st_ctime_ns
    os.chmod(p, 0o640)
    s.check("chmod.ctime", os.stat(p).st_ctime_ns >= c0, True)
    s.expect("chmod.missing", "ENOENT", os.chmod, j(d, "nope"), 0o644)


CASES = [
    ("open-flags", open_flags),
    ("rename", rename_matrix),
    ("utimensat", utimens),
    ("mkdir-rmdir", mkdir_rmdir),
    ("symlinks", symlinks),
    ("truncate", truncation),
    ("unlink", unlinks),
    ("chmod", chmods),
]
