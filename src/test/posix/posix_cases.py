"""The suite's file-system cases (see posix_suite.py): each takes the suite and a fresh directory of its own."""
import errno
import os
import socket
import stat
import time

from posix_suite import fs_now_ns, outcome, read, write

OLD_NS = 981_173_106_123_456_789  # 2001-02-03T04:05:06.123456789Z
SLACK_NS = 20_000_000  # a file system's clock may be coarse (jiffies) or keep microseconds only


def j(*p):
    return os.path.join(*p)


def special_files(s, d):
    fifo, chr_, blk, sock = j(d, "fifo"), j(d, "chr"), j(d, "blk"), j(d, "sock")
    s.expect("special.mkfifo", "OK", os.mkfifo, fifo, 0o640)
    st = os.lstat(fifo)
    s.check("special.fifo-type", stat.S_ISFIFO(st.st_mode), True)
    s.value("special.fifo-mode", "mode", oct(stat.S_IMODE(st.st_mode)), oct(0o640))
    s.expect("special.mkfifo-again", "EEXIST", os.mkfifo, fifo)
    s.expect("special.mkfifo-missing-parent", "ENOENT", os.mkfifo, j(d, "none", "fifo"))
    dev = os.makedev(1, 7)
    s.expect("special.mknod-chr", "OK", os.mknod, chr_, 0o600 | stat.S_IFCHR, dev)
    st = os.lstat(chr_)
    s.check("special.chr-type", stat.S_ISCHR(st.st_mode), True)
    s.value("special.chr-rdev", "rdev", st.st_rdev, dev)
    bdev = os.makedev(7, 3)
    s.expect("special.mknod-blk", "OK", os.mknod, blk, 0o600 | stat.S_IFBLK, bdev)
    st = os.lstat(blk)
    s.check("special.blk-type", stat.S_ISBLK(st.st_mode), True)
    s.value("special.blk-rdev", "rdev", st.st_rdev, bdev)
    os.chdir(d)  # sun_path holds 108 bytes: bind a relative name
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.expect("special.bind-unix-socket", "OK", srv.bind, "sock")
    finally:
        srv.close()
    s.check("special.socket-type", stat.S_ISSOCK(os.lstat(sock).st_mode), True)
    s.check("special.listed", sorted(os.listdir(d)), ["blk", "chr", "fifo", "sock"])
    kinds = {e.name: (e.is_file(follow_symlinks=False), e.is_dir(follow_symlinks=False)) for e in os.scandir(d)}
    s.check("special.listed-not-files", set(kinds.values()), {(False, False)})
    s.expect("special.chmod-fifo", "OK", os.chmod, fifo, 0o604)
    s.value("special.chmod-fifo-mode", "mode", oct(stat.S_IMODE(os.lstat(fifo).st_mode)), oct(0o604))
    s.check("special.chmod-fifo-type", stat.S_ISFIFO(os.lstat(fifo).st_mode), True)
    s.expect("special.rename-fifo", "OK", os.rename, fifo, j(d, "fifo2"))
    s.check("special.renamed-fifo-type", stat.S_ISFIFO(os.lstat(j(d, "fifo2")).st_mode), True)
    for n in ("fifo2", "chr", "blk", "sock"):
        s.expect("special.unlink-" + n, "OK", os.unlink, j(d, n))
    s.check("special.all-gone", os.listdir(d), [])


def inode_numbers(s, d):
    write(j(d, "f"), b"x")
    os.makedirs(j(d, "dir", "sub"))
    write(j(d, "dir", "sub", "g"), b"g")
    f, dd, sub, g = (os.stat(j(d, p)).st_ino for p in ("f", "dir", "dir/sub", "dir/sub/g"))
    s.check("ino.distinct", len({f, dd, sub, g}), 4)
    s.value("ino.scandir-matches-stat", "ino", {e.name: e.inode() for e in os.scandir(d)}.get("f"), f)
    os.rename(j(d, "f"), j(d, "f2"))
    s.value("ino.file-rename", "st_ino", os.stat(j(d, "f2")).st_ino, f)
    s.value("ino.file-rename-readdir", "ino", {e.name: e.inode() for e in os.scandir(d)}.get("f2"), f)
    os.rename(j(d, "dir"), j(d, "dir2"))
    s.value("ino.dir-rename", "st_ino", os.stat(j(d, "dir2")).st_ino, dd)
    s.value("ino.dir-rename-child-dir", "st_ino", os.stat(j(d, "dir2", "sub")).st_ino, sub)
    s.value("ino.dir-rename-grandchild", "st_ino", os.stat(j(d, "dir2", "sub", "g")).st_ino, g)
    write(j(d, "victim"), b"v")
    os.rename(j(d, "f2"), j(d, "victim"))  # onto an existing name: the moved file keeps its number
    s.value("ino.rename-onto-existing", "st_ino", os.stat(j(d, "victim")).st_ino, f)
    fd = os.open(j(d, "victim"), os.O_RDONLY)
    try:
        s.value("ino.fstat-matches-stat", "st_ino", os.fstat(fd).st_ino, f)
    finally:
        os.close(fd)


def times_of(p):
    st = os.stat(p)
    return st.st_mtime_ns, st.st_ctime_ns


def dir_times(s, d):
    write(j(d, "victim"), b"v")
    os.mkdir(j(d, "rmme"))
    os.symlink("t", j(d, "oldlink"))
    os.mkdir(j(d, "other"))
    write(j(d, "other", "moved-in"), b"m")
    changes = [
        ("create", lambda: write(j(d, "new"), b"n")),
        ("mkdir", lambda: os.mkdir(j(d, "newdir"))),
        ("rmdir", lambda: os.rmdir(j(d, "rmme"))),
        ("unlink", lambda: os.unlink(j(d, "victim"))),
        ("symlink", lambda: os.symlink("target", j(d, "link"))),
        ("unlink-symlink", lambda: os.unlink(j(d, "oldlink"))),
        ("mkfifo", lambda: os.mkfifo(j(d, "fifo"))),
        ("rename-within", lambda: os.rename(j(d, "new"), j(d, "renamed"))),
        ("rename-out", lambda: os.rename(j(d, "renamed"), j(d, "other", "renamed"))),
        ("rename-in", lambda: os.rename(j(d, "other", "moved-in"), j(d, "moved-in"))),
    ]
    for name, change in changes:
        os.utime(d, ns=(OLD_NS, OLD_NS))
        m0, c0 = times_of(d)
        s.value("dirtimes.utime-sets-mtime", "mtime", m0, OLD_NS)
        start = fs_now_ns(d)
        change()
        m1, c1 = times_of(d)
        s.check("dirtimes.mtime-advances:" + name, m1 >= start - SLACK_NS, True)
        s.check("dirtimes.ctime-advances:" + name, c1 >= c0 and c1 >= start - SLACK_NS, True)
    # the other end of a rename between directories changes too
    os.utime(j(d, "other"), ns=(OLD_NS, OLD_NS))
    os.rename(j(d, "moved-in"), j(d, "other", "moved-back"))
    s.check("dirtimes.rename-target-dir", os.stat(j(d, "other")).st_mtime_ns > OLD_NS, True)
    # an explicit time wins until the next change
    os.utime(d, ns=(OLD_NS, OLD_NS))
    s.value("dirtimes.explicit-kept", "mtime", os.stat(d).st_mtime_ns, OLD_NS)


def nlink(s, d):
    write(j(d, "f"), b"x")
    s.value("nlink.file", "nlink", os.stat(j(d, "f")).st_nlink, 1)
    os.mkdir(j(d, "dir"))
    s.value("nlink.dir-after-mkdir", "nlink", os.stat(j(d, "dir")).st_nlink, 2)
    os.mkdir(j(d, "dir", "a"))
    os.mkdir(j(d, "dir", "b"))
    s.value("nlink.dir-two-plus-subdirs", "nlink", os.stat(j(d, "dir")).st_nlink, 4)
    os.symlink("f", j(d, "l"))
    s.value("nlink.symlink", "nlink", os.lstat(j(d, "l")).st_nlink, 1)


def fstat_after_unlink(s, d):
    p = j(d, "open")
    fd = os.open(p, os.O_CREAT | os.O_RDWR, 0o644)
    try:
        s.value("unlinked.write", "n", os.write(fd, b"0123456789"), 10)
        s.expect("unlinked.unlink", "OK", os.unlink, p)
        s.expect("unlinked.name-gone", "ENOENT", os.stat, p)
        try:
            got = f"nlink={os.fstat(fd).st_nlink}"
        except OSError as e:
            got = errno.errorcode.get(e.errno, str(e.errno))
        s.check("fstat.after-unlink", got, "nlink=0")
        s.value("unlinked.pread", "data", os.pread(fd, 100, 0), b"0123456789")
        s.value("unlinked.pwrite", "n", os.pwrite(fd, b"abc", 10), 3)
        s.value("unlinked.pread-after-write", "data", os.pread(fd, 100, 8), b"89abc")
        s.value("unlinked.seek-end", "offset", os.lseek(fd, 0, os.SEEK_END), 13)
    finally:
        os.close(fd)
    # the Linux NFS client keeps an open file it unlinks as .nfsXXXX and removes that after the last close
    s.check("unlinked.nothing-left", [n for n in os.listdir(d) if not n.startswith(".nfs")], [])


def efbig_and_link(s, d):
    p = j(d, "f")
    write(p, b"keep")
    s.expect("truncate.huge-is-efbig", "EFBIG", os.truncate, p, 999_999_999_999_999)
    s.value("truncate.huge-keeps-size", "size", os.stat(p).st_size, 4)
    s.expect("link.hard-link", "OK", os.link, p, j(d, "hard"))
    s.value("link.source-intact", "data", read(p), b"keep")


def names(s, d):
    s.expect("names.component-256", "ENAMETOOLONG", write, j(d, "x" * 256))
    s.expect("names.component-255", "OK", write, j(d, "y" * 255), b"ok")
    s.value("names.component-255-read", "data", read(j(d, "y" * 255)), b"ok")
    s.expect("names.mkdir-256", "ENAMETOOLONG", os.mkdir, j(d, "z" * 256))
    s.expect("names.utf8-256-bytes", "ENAMETOOLONG", write, j(d, "\u00e9" * 128))
    deep, got = d, "OK"
    for level in range(6):  # 6 x 201 bytes: past the 1,023 bytes of an OSS key wherever the suite runs
        deep = j(deep, chr(ord("a") + level) * 200)
        got = outcome(os.mkdir, deep)
        if got != "OK":
            break
    s.check("names.key-over-1023-bytes", got, "OK")
    for n in ("sp ace", "uni\u65e5\u672c", "per%25cent", "plus+sign", "-dash", "back\\slash", "new\nline"):
        s.expect("names.create:" + repr(n), "OK", write, j(d, n), n.encode())
        s.value("names.read:" + repr(n), "data", read(j(d, n)), n.encode())


CASES = [
    ("special-files", special_files),
    ("inode-numbers", inode_numbers),
    ("directory-times", dir_times),
    ("nlink", nlink),
    ("fstat-after-unlink", fstat_after_unlink),
    ("efbig-and-link", efbig_and_link),
    ("names", names),
]

import posix_cases2  # noqa: E402 - the ordinary cases, in their own file to keep both small

CASES += posix_cases2.CASES
