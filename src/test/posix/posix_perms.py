"""The suite's permission cases (see posix_suite.py): run as root, each check drops to another uid in a forked child
(os.setresuid), so the mount's permission checks (FUSE default_permissions, the NFS server's) decide."""
import os
import stat
import time

from posix_suite import fs_now_ns, GID, GID2, UID, UID2, as_user, read, write

T_NS = 1_234_567_890_123_456_789


def j(*p):
    return os.path.join(*p)


def opener(path, flags):
    return lambda: os.close(os.open(path, flags))


def allowed(mode, who, want):
    """POSIX: the owner class, else the group class, else other; bit 4 read, 2 write."""
    shift = {"owner": 6, "group": 3, "other": 0}[who]
    return bool((mode >> shift) & {"r": 4, "w": 2}[want])


def file_modes(s, d):
    p = j(d, "f")
    write(p, b"data")
    os.chown(p, UID, GID)
    who = {"owner": (UID, GID, ()), "group": (UID2, GID2, (GID,)), "other": (UID2, GID2, ())}
    # 0o477 and 0o277: the owner class binds the owner even where group and other may do more (open/06.t)
    for mode in (0o000, 0o400, 0o200, 0o600, 0o040, 0o020, 0o060, 0o004, 0o002, 0o006, 0o644, 0o640, 0o604, 0o446,
                 0o464, 0o477, 0o277, 0o777):
        os.chmod(p, mode)
        for name, (uid, gid, groups) in who.items():
            for want, flags in (("r", os.O_RDONLY), ("w", os.O_WRONLY)):
                exp = "OK" if allowed(mode, name, want) else "EACCES"
                s.check(f"perm.file:{oct(mode)}:{name}:{want}", as_user(uid, gid, opener(p, flags), groups), exp)
    os.chmod(p, 0o000)
    s.value("perm.root-reads-mode-000", "data", read(p), b"data")


def dir_modes(s, d):
    closed = j(d, "closed")  # root's 0755: others may look, not write
    os.mkdir(closed, 0o755)
    write(j(closed, "f"), b"f")
    s.check("perm.dir-0755-create", as_user(UID, GID, lambda: write(j(closed, "new"))), "EACCES")
    s.check("perm.dir-0755-unlink", as_user(UID, GID, lambda: os.unlink(j(closed, "f"))), "EACCES")
    s.check("perm.dir-0755-mkdir", as_user(UID, GID, lambda: os.mkdir(j(closed, "sub"))), "EACCES")
    s.check("perm.dir-0755-rename", as_user(UID, GID, lambda: os.rename(j(closed, "f"), j(closed, "g"))), "EACCES")
    s.check("perm.dir-0755-list", as_user(UID, GID, lambda: os.listdir(closed)), "OK")
    noexec = j(d, "noexec")
    os.mkdir(noexec)
    write(j(noexec, "f"), b"f")
    os.chmod(noexec, 0o766)
    s.check("perm.dir-no-x-stat", as_user(UID, GID, lambda: os.stat(j(noexec, "f"))), "EACCES")
    s.check("perm.dir-no-x-list", as_user(UID, GID, lambda: os.listdir(noexec)), "OK")
    noread = j(d, "noread")
    os.mkdir(noread)
    write(j(noread, "f"), b"f")
    os.chmod(noread, 0o711)
    s.check("perm.dir-no-r-list", as_user(UID, GID, lambda: os.listdir(noread)), "EACCES")
    s.check("perm.dir-no-r-stat-known-name", as_user(UID, GID, lambda: os.stat(j(noread, "f"))), "OK")
    s.check("perm.dir-no-r-read-known-name", as_user(UID, GID, lambda: read(j(noread, "f"))), "OK")
    shared = j(d, "shared")
    os.mkdir(shared)
    os.chmod(shared, 0o777)
    s.check("perm.dir-0777-create", as_user(UID, GID, lambda: write(j(shared, "mine"), b"m", 0o640)), "OK")
    st = os.stat(j(shared, "mine"))
    s.value("perm.create-owner", "uid", st.st_uid, UID)
    s.value("perm.create-group", "gid", st.st_gid, GID)
    s.value("perm.create-mode", "mode", oct(stat.S_IMODE(st.st_mode)), oct(0o640))
    s.check("perm.dir-0777-mkdir", as_user(UID, GID, lambda: os.mkdir(j(shared, "mydir"))), "OK")
    s.value("perm.mkdir-owner", "uid", os.stat(j(shared, "mydir")).st_uid, UID)
    s.check("perm.dir-0777-symlink", as_user(UID, GID, lambda: os.symlink("mine", j(shared, "myln"))), "OK")
    s.value("perm.symlink-owner", "uid", os.lstat(j(shared, "myln")).st_uid, UID)
    s.check("perm.dir-0777-mkfifo", as_user(UID, GID, lambda: os.mkfifo(j(shared, "myfifo"))), "OK")
    s.value("perm.mkfifo-owner", "uid", os.lstat(j(shared, "myfifo")).st_uid, UID)
    s.check("perm.other-unlinks-in-0777", as_user(UID2, GID2, lambda: os.unlink(j(shared, "myfifo"))), "OK")
    s.check("perm.mknod-chr-unprivileged", as_user(UID, GID, lambda: os.mknod(j(shared, "c"), 0o600 | stat.S_IFCHR,
                                                                            os.makedev(1, 3))), "EPERM")


def chmod_chown(s, d):
    p = j(d, "f")
    write(p, b"f")
    os.chown(p, UID, GID)
    os.chmod(p, 0o644)
    s.check("chmod.by-owner", as_user(UID, GID, lambda: os.chmod(p, 0o600)), "OK")
    s.value("chmod.by-owner-mode", "mode", oct(stat.S_IMODE(os.stat(p).st_mode)), oct(0o600))
    s.check("chmod.by-other", as_user(UID2, GID2, lambda: os.chmod(p, 0o666)), "EPERM")
    s.value("chmod.by-other-unchanged", "mode", oct(stat.S_IMODE(os.stat(p).st_mode)), oct(0o600))
    os.chown(p, UID, GID2)  # owner not in the file's group: setting setgid drops it silently
    s.check("chmod.setgid-not-member", as_user(UID, GID, lambda: os.chmod(p, 0o2755)), "OK")
    s.value("chmod.setgid-not-member-cleared", "mode", oct(stat.S_IMODE(os.stat(p).st_mode)), oct(0o755))
    os.chown(p, UID, GID)
    s.check("chmod.setgid-member", as_user(UID, GID, lambda: os.chmod(p, 0o2755)), "OK")
    s.value("chmod.setgid-member-kept", "mode", oct(stat.S_IMODE(os.stat(p).st_mode)), oct(0o2755))
    q = j(d, "g")
    write(q, b"g")
    s.expect("chown.root", "OK", os.chown, q, UID, GID)
    st = os.stat(q)
    s.value("chown.root-uid", "uid", st.st_uid, UID)
    s.value("chown.root-gid", "gid", st.st_gid, GID)
    s.check("chown.owner-gives-away", as_user(UID, GID, lambda: os.chown(q, UID2, -1)), "EPERM")
    s.check("chown.owner-to-non-member-group", as_user(UID, GID, lambda: os.chown(q, -1, GID2)), "EPERM")
    s.check("chown.owner-to-supplementary-group", as_user(UID, GID, lambda: os.chown(q, -1, GID2), (GID2,)), "OK")
    s.value("chown.owner-to-supplementary-gid", "gid", os.stat(q).st_gid, GID2)
    s.check("chown.owner-to-own-group", as_user(UID, GID, lambda: os.chown(q, -1, GID)), "OK")
    s.check("chown.no-change", as_user(UID, GID, lambda: os.chown(q, -1, -1)), "OK")
    s.check("chown.other", as_user(UID2, GID2, lambda: os.chown(q, UID2, GID2)), "EPERM")
    s.value("chown.other-unchanged", "uid", os.stat(q).st_uid, UID)
    # a non-owner may not even "change" the ids to the ones the file has (chown/07.t)
    s.check("chown.other-to-current-ids", as_user(UID2, GID2, lambda: os.chown(q, UID, GID)), "EPERM")
    s.check("chown.other-to-current-group", as_user(UID2, GID2, lambda: os.chown(q, -1, GID), (GID,)), "EPERM")
    os.mkdir(j(d, "dir"))
    s.expect("chown.root-dir", "OK", os.chown, j(d, "dir"), UID2, GID2)
    s.value("chown.root-dir-uid", "uid", os.stat(j(d, "dir")).st_uid, UID2)
    os.symlink("g", j(d, "ln"))
    s.expect("chown.lchown", "OK", os.lchown, j(d, "ln"), UID, GID)
    s.value("chown.lchown-link", "uid", os.lstat(j(d, "ln")).st_uid, UID)
    s.value("chown.lchown-not-target", "gid", os.stat(j(d, "g")).st_gid, GID)
    s.check("chown.lchown-other-to-current-ids", as_user(UID2, GID2, lambda: os.lchown(j(d, "ln"), UID, GID)),
            "EPERM")
    x = j(d, "suid")
    write(x, b"#!/bin/sh\n", 0o755)
    os.chmod(x, 0o4755)
    os.chown(x, UID, GID)  # chown of an executable clears setuid (Linux, root included)
    s.value("chown.clears-setuid", "mode", oct(stat.S_IMODE(os.stat(x).st_mode)), oct(0o755))


def sticky(s, d):
    t = j(d, "tmp")
    os.mkdir(t)
    os.chmod(t, 0o1777)
    s.check("sticky.create", as_user(UID, GID, lambda: write(j(t, "a"), b"a")), "OK")
    as_user(UID, GID, lambda: write(j(t, "b"), b"b"))
    as_user(UID, GID, lambda: write(j(t, "c"), b"c"))
    s.check("sticky.other-unlink", as_user(UID2, GID2, lambda: os.unlink(j(t, "a"))), "EPERM")
    s.check("sticky.other-rename", as_user(UID2, GID2, lambda: os.rename(j(t, "a"), j(t, "z"))), "EPERM")
    as_user(UID2, GID2, lambda: write(j(t, "mine"), b"m"))
    s.check("sticky.other-rename-onto", as_user(UID2, GID2, lambda: os.rename(j(t, "mine"), j(t, "a"))), "EPERM")
    s.value("sticky.kept", "data", read(j(t, "a")), b"a")
    s.check("sticky.owner-unlink", as_user(UID, GID, lambda: os.unlink(j(t, "a"))), "OK")
    s.check("sticky.owner-rename", as_user(UID, GID, lambda: os.rename(j(t, "b"), j(t, "b2"))), "OK")
    s.expect("sticky.root-unlink", "OK", os.unlink, j(t, "c"))
    os.chown(t, UID2, GID2)
    as_user(UID, GID, lambda: write(j(t, "d"), b"d"))
    s.check("sticky.dir-owner-unlink", as_user(UID2, GID2, lambda: os.unlink(j(t, "d"))), "OK")
    s.value("sticky.mode", "mode", oct(stat.S_IMODE(os.stat(t).st_mode)), oct(0o1777))


def rename_dirs(s, d):
    """Moving a directory to another parent rewrites its "..": it needs write permission on the directory itself,
    even where the sticky bit lets the caller move it (rename/09.t); within its parent, and for files, it does not."""
    src = j(d, "src")  # sticky and the caller's: the sticky bit allows every move out of it
    os.mkdir(src)
    os.chown(src, UID, GID)
    os.chmod(src, 0o1777)
    dst = j(d, "dst")
    os.mkdir(dst)
    os.chmod(dst, 0o777)
    for owner in (0, UID2):
        sub = j(src, f"d{owner}")
        os.mkdir(sub, 0o755)
        os.chown(sub, owner, owner)
        s.check(f"rename.dir-to-other-parent-not-writable:{owner}",
                as_user(UID, GID, lambda: os.rename(sub, j(dst, f"d{owner}"))), "EACCES")
        s.check(f"rename.dir-same-parent-not-writable:{owner}",
                as_user(UID, GID, lambda: os.rename(sub, j(src, f"e{owner}"))), "OK")
    open_dir = j(src, "writable")
    os.mkdir(open_dir)
    os.chown(open_dir, UID2, GID2)
    os.chmod(open_dir, 0o777)
    s.check("rename.dir-to-other-parent-writable", as_user(UID, GID, lambda: os.rename(open_dir, j(dst, "w"))), "OK")
    write(j(src, "f"), b"f")
    os.chown(j(src, "f"), UID2, GID2)
    s.check("rename.file-to-other-parent", as_user(UID, GID, lambda: os.rename(j(src, "f"), j(dst, "f"))), "OK")
    s.expect("rename.dir-to-other-parent-by-root", "OK", os.rename, j(src, "e0"), j(dst, "e0"))


def utime_perms(s, d):
    p = j(d, "f")
    write(p, b"f")
    os.chown(p, UID, GID)
    os.chmod(p, 0o666)
    start = fs_now_ns(d)
    s.check("utime.now-by-writer", as_user(UID2, GID2, lambda: os.utime(p)), "OK")
    s.check("utime.now-by-writer-took", os.stat(p).st_mtime_ns >= start - 20_000_000, True)
    s.check("utime.explicit-by-non-owner", as_user(UID2, GID2, lambda: os.utime(p, ns=(T_NS, T_NS))), "EPERM")
    s.check("utime.explicit-by-owner", as_user(UID, GID, lambda: os.utime(p, ns=(T_NS, T_NS))), "OK")
    s.value("utime.explicit-by-owner-value", "mtime", os.stat(p).st_mtime_ns, T_NS)
    os.chmod(p, 0o644)
    s.check("utime.now-by-non-writer", as_user(UID2, GID2, lambda: os.utime(p)), "EACCES")
    s.check("truncate.by-non-writer", as_user(UID2, GID2, lambda: os.truncate(p, 0)), "EACCES")
    s.check("truncate.by-owner", as_user(UID, GID, lambda: os.truncate(p, 0)), "OK")


def setid_bits(s, d):
    sg = j(d, "sgid")
    os.mkdir(sg)
    os.chown(sg, 0, GID2)
    os.chmod(sg, 0o2777)
    s.check("setgid-dir.create", as_user(UID, GID, lambda: write(j(sg, "f"), b"f")), "OK")
    s.value("setgid-dir.file-group", "gid", os.stat(j(sg, "f")).st_gid, GID2)
    s.check("setgid-dir.mkdir", as_user(UID, GID, lambda: os.mkdir(j(sg, "sub"))), "OK")
    st = os.stat(j(sg, "sub"))
    s.value("setgid-dir.subdir-group", "gid", st.st_gid, GID2)
    s.check("setgid-dir.subdir-inherits-setgid", bool(st.st_mode & stat.S_ISGID), True)
    x = j(d, "suid")
    write(x, b"#!/bin/sh\n", 0o755)
    os.chmod(x, 0o4777)
    s.check("setuid.write-by-other", as_user(UID, GID, lambda: write(x, b"changed", 0o644, os.O_WRONLY)), "OK")
    s.value("setuid.write-by-other-clears", "mode", oct(stat.S_IMODE(os.stat(x).st_mode)), oct(0o777))


CASES = [
    ("permissions-files", file_modes),
    ("permissions-dirs", dir_modes),
    ("chmod-chown", chmod_chown),
    ("sticky", sticky),
    ("rename-directories", rename_dirs),
    ("utime-permissions", utime_perms),
    ("setid-bits", setid_bits),
]
