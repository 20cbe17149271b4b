#!/usr/bin/env python3
"""fsx_diff: random file operations run on two directory trees at once (one on an ossgw mount, one on a local file
system), with every outcome compared: the return value or errno, the bytes read, sizes, types, modes, symlink targets.

    python3 fsx_diff.py MOUNT_DIR REFERENCE_DIR --seed S [--ops N] [--big]   one segment of N operations
    python3 fsx_diff.py MOUNT_DIR REFERENCE_DIR --check                      the two trees compared, nothing changed
    --nfs: the mount is an NFS client's (its .nfsXXXX names of unlinked open files are left out of the comparison)
    --nfs4: an NFSv4 client's: as --nfs, no O_RDONLY|O_TRUNC (the Linux v4 client refuses it with EACCES), and EEXIST
            accepted for ENOTEMPTY from a rename onto a non-empty directory (RFC 8881 §18.26.4)
    --smb: both trees are CIFS mounts (the reference a Samba share of a local directory): a name held open is never
           unlinked, removed or renamed onto, since SMB keeps it "delete pending" until its last handle closes, and
           when the client closes its cached handle differs between two servers

A segment opens up to four files at once (both trees get the same flags, offsets and bytes) and, at its end, closes
every descriptor it holds and compares the whole trees; run `--check` after a remount to compare what reached OSS.
The operations: open (O_RDONLY/O_WRONLY/O_RDWR with O_CREAT, O_EXCL, O_TRUNC, O_APPEND), close, pwrite and write
(within and past the end, up to 1 MiB; with --big, now and then 5-13 MiB, past a multipart part), pread and read,
lseek, ftruncate and truncate, fsync, fstat and lstat, rename, unlink (also of open files), mkdir, rmdir, listdir,
chmod, utime, symlink, readlink, copy_file_range, on a small set of names (files, directories and names of the wrong
type, so that ENOENT, EISDIR, ENOTDIR, ENOTEMPTY, EEXIST and EBADF are exercised as well).

Not compared, because ossgw differs on purpose (SEMANTICS.md): st_nlink, st_ino, directory sizes, times other than
those set with utime, and hard links (never made). Accepted: EIO, or a short read of the right bytes, for bytes an
open file never read before it was unlinked or replaced (SEMANTICS.md, unlink), and ESTALE or ENOENT for fstat of an
open directory that was removed (libfuse has no name for it any more). Exits 0 when every outcome matched,
1 on the first mismatch (with the operations that led to it), 2 on a usage error. FSX_TRACE=1 prints every operation
and its outcome. The same seed on the same starting trees gives the same operations. Python 3 standard library only.
"""
import argparse
import errno
import hashlib
import os
import random
import stat
import sys

FILES = ["a", "b", "c", "d0/a", "d0/b", "d1/a", "d0/e/a", "d0/e/b"]
DIRS = ["d0", "d1", "d0/e", "d2"]
NAMES = FILES + DIRS
MAX_OPEN = 4
MiB = 1 << 20
SILLY = False  # --nfs: the Linux NFS client renames an unlinked open file to .nfsXXXX until its last close
SMB = False  # --smb: no unlink, rmdir or rename onto a name held open (SMB's delete pending ends at a moment the
#               client chooses, so it cannot be compared between two servers)
NFS4 = False  # --nfs4: as --nfs, no O_RDONLY|O_TRUNC (the Linux v4 client answers EACCES; knfsd alike), and EEXIST
#               for ENOTEMPTY from a rename onto a non-empty directory (SEMANTICS.md, POSIX conformance)


def visible(names):
    """The names both trees must agree on: without the NFS client's .nfsXXXX names (--nfs)."""
    return [n for n in names if not (SILLY and n.startswith(".nfs"))]


def outcome(fn, *args):
    """('OK', value) or ('ERR', errno name)."""
    try:
        return ("OK", fn(*args))
    except OSError as e:
        return ("ERR", errno.errorcode.get(e.errno, str(e.errno)))


def describe_stat(st):
    """The parts of a stat both trees must agree on (type; size and permission bits except for directories)."""
    kind = stat.S_IFMT(st.st_mode)
    if stat.S_ISDIR(kind):
        return ("dir", stat.S_IMODE(st.st_mode))
    return (stat.filemode(kind)[0], st.st_size, stat.S_IMODE(st.st_mode))


class Mismatch(Exception):
    pass


class Exerciser:
    """One segment of operations on two roots; `self.fds` holds (fd in the mount, fd in the reference, flags, label)."""

    def __init__(self, mount, ref, seed, big):
        self.roots = (mount, ref)
        self.rng = random.Random(seed)
        self.big = big
        self.fds = []
        self.log = []
        self.counts = {}
        self.opened = 0
        self.trace = bool(os.environ.get("FSX_TRACE"))
        self.ops = [
            (12, self.op_open), (8, self.op_close), (14, self.op_pwrite), (8, self.op_write), (10, self.op_pread),
            (5, self.op_read), (3, self.op_lseek), (5, self.op_ftruncate), (3, self.op_truncate), (4, self.op_fsync),
            (4, self.op_fstat), (4, self.op_lstat), (6, self.op_rename), (5, self.op_unlink), (3, self.op_mkdir),
            (3, self.op_rmdir), (3, self.op_listdir), (4, self.op_readfile), (2, self.op_chmod), (2, self.op_utime),
            (2, self.op_symlink), (2, self.op_readlink), (2, self.op_copy_range),
        ]
        self.weights = [w for w, _ in self.ops]

    # --- helpers
    def path(self, i, name):
        return os.path.join(self.roots[i], name)

    def both(self, what, fn, reads=None, same=()):
        """Runs fn(i) for the mount (0) and the reference (1); compares and returns the two outcomes. `reads` is the
        descriptor pair an operation reads from: when its file was unlinked or replaced while open, the mount may
        answer EIO for bytes it never read before (SEMANTICS.md, unlink), and that outcome is accepted; so is a short
        read of the right bytes, which is how the kernel reports such an EIO after the first pages of a read. An open
        directory that was removed may answer ESTALE (libfuse 3) or ENOENT (libfuse 2) to fstat (SEMANTICS.md, POSIX
        conformance). `same` lists (mount, reference) outcome pairs that count as equal."""
        self.log.append(what)
        got = [outcome(fn, i) for i in (0, 1)]
        key = got[0][1] if got[0][0] == "ERR" else "OK"
        if got[0] != got[1] and (got[0], got[1]) in same:
            key = f"{got[0][1]} for {got[1][1]}"
        elif got[0] != got[1]:
            st = ref_stat(reads) if reads else None
            orphan = st is not None and st.st_nlink == 0
            gone_dir = orphan and stat.S_ISDIR(st.st_mode)
            if gone_dir and got[0] in (("ERR", "ESTALE"), ("ERR", "ENOENT")):
                key = "ESTALE (directory removed while open)"  # libfuse has no name for it any more
            elif orphan and got[0] == ("ERR", "EIO"):
                key = "EIO (unlinked while open)"
            elif orphan and got[0][0] == got[1][0] == "OK" and got[1][1].startswith(got[0][1]):
                key = "short read (unlinked while open)"
            else:
                raise Mismatch(f"{what}: mount {short(got[0])}, reference {short(got[1])}")
            os.lseek(reads[0], os.lseek(reads[1], 0, os.SEEK_CUR), os.SEEK_SET)  # read(2) moved only the reference
        if self.trace:
            print(f"{len(self.log)}: {what} -> {short(got[0])}")
        self.counts[key] = self.counts.get(key, 0) + 1
        return got[0]

    def name(self):
        return self.rng.choice(NAMES)

    def size(self):
        r = self.rng.random()
        if self.big and r < 0.03:
            return self.rng.randint(5 * MiB, 13 * MiB)
        if r < 0.15:
            return self.rng.randint(64 << 10, MiB)
        return self.rng.randint(0, 70000)

    def offset(self, fd_pair):
        end = ref_size(fd_pair)
        r = self.rng.random()
        if r < 0.4:
            return end
        if r < 0.8:
            return self.rng.randint(0, max(0, end))
        return end + self.rng.randint(1, 300000)

    def data(self, n):
        return self.rng.randbytes(n)

    def pick_fd(self):
        return self.rng.choice(self.fds) if self.fds else None

    # --- operations
    def op_open(self):
        if len(self.fds) >= MAX_OPEN:
            return self.op_close()
        name = self.name()
        flags = self.rng.choice([os.O_RDONLY, os.O_WRONLY, os.O_RDWR, os.O_RDWR])
        for f, p in ((os.O_CREAT, 0.5), (os.O_TRUNC, 0.15), (os.O_APPEND, 0.15)):
            if self.rng.random() < p:
                flags |= f
        if flags & os.O_CREAT and self.rng.random() < 0.2:
            flags |= os.O_EXCL
        if NFS4 and flags & os.O_ACCMODE == os.O_RDONLY:
            # the client truncates with a SETATTR under the read-only open's stateid, which RFC 8881 §18.30.3 (and
            # knfsd) refuse with NFS4ERR_OPENMODE, and shows EACCES
            flags &= ~os.O_TRUNC
        mode = self.rng.choice([0o644, 0o600, 0o666])
        opened = []

        def do(i):
            fd = os.open(self.path(i, name), flags, mode)
            opened.append(fd)
            return None
        try:
            self.both(f"open {name} flags={flags:#o} mode={mode:o}", do)
        finally:
            if len(opened) == 2:
                self.opened += 1
                self.fds.append((opened[0], opened[1], flags, f"fd#{self.opened}({name})"))
            else:
                for fd in opened:
                    os.close(fd)

    def op_close(self):
        p = self.pick_fd()
        if p is None:
            return self.op_open()
        self.fds.remove(p)
        self.both(f"close {p[3]}", lambda i: os.close(p[i]))

    def op_pwrite(self):
        p = self.pick_fd()
        if p is None:
            return self.op_open()
        off, n = self.offset(p), self.size()
        buf = self.data(n)
        self.both(f"pwrite {p[3]} off={off} len={n}", lambda i: os.pwrite(p[i], buf, off))

    def op_write(self):
        p = self.pick_fd()
        if p is None:
            return self.op_open()
        buf = self.data(self.size())
        self.both(f"write {p[3]} len={len(buf)}", lambda i: os.write(p[i], buf))

    def op_pread(self):
        p = self.pick_fd()
        if p is None:
            return self.op_open()
        off, n = self.offset(p), self.size() or 1
        self.both(f"pread {p[3]} off={off} len={n}", lambda i: Data(os.pread(p[i], n, off)), reads=p)

    def op_read(self):
        p = self.pick_fd()
        if p is None:
            return self.op_open()
        n = self.size() or 1
        self.both(f"read {p[3]} len={n}", lambda i: Data(os.read(p[i], n)), reads=p)

    def op_lseek(self):
        p = self.pick_fd()
        if p is None:
            return self.op_open()
        if stat.S_ISDIR(getattr(ref_stat(p), "st_mode", 0)):
            return self.op_fstat()  # a directory's offsets are each file system's own cookies
        how = self.rng.choice([os.SEEK_SET, os.SEEK_END, os.SEEK_CUR])
        off = self.rng.randint(0, 200000) if how == os.SEEK_SET else self.rng.randint(-100, 100000)
        self.both(f"lseek {p[3]} {off} whence={how}", lambda i: os.lseek(p[i], off, how))

    def op_ftruncate(self):
        p = self.pick_fd()
        if p is None:
            return self.op_open()
        n = self.rng.choice([0, self.rng.randint(0, 300000), ref_size(p) + self.rng.randint(-5000, 5000)])
        n = max(0, n)
        self.both(f"ftruncate {p[3]} {n}", lambda i: os.ftruncate(p[i], n))

    def op_truncate(self):
        name, n = self.name(), self.rng.randint(0, 200000)
        self.both(f"truncate {name} {n}", lambda i: os.truncate(self.path(i, name), n))

    def op_fsync(self):
        p = self.pick_fd()
        if p is None:
            return self.op_open()
        self.both(f"fsync {p[3]}", lambda i: os.fsync(p[i]))

    def op_fstat(self):
        p = self.pick_fd()
        if p is None:
            return self.op_open()
        self.both(f"fstat {p[3]}", lambda i: describe_stat(os.fstat(p[i])), reads=p)

    def op_lstat(self):
        name = self.name()
        self.both(f"lstat {name}", lambda i: describe_stat(os.lstat(self.path(i, name))))

    def op_rename(self):
        a, b = self.name(), self.name()
        if self.holds_silly_names(b) or self.held_open(b):
            return self.op_lstat()
        # NFSv4.1: a non-empty target directory is NFS4ERR_EXIST (RFC 8881 §18.26.4), which Linux shows as EEXIST
        same = [(("ERR", "EEXIST"), ("ERR", "ENOTEMPTY"))] if NFS4 else []
        self.both(f"rename {a} {b}", lambda i: os.rename(self.path(i, a), self.path(i, b)), same=same)

    def op_unlink(self):
        name = self.name()
        if self.held_open(name):
            return self.op_lstat()
        self.both(f"unlink {name}", lambda i: os.unlink(self.path(i, name)))

    def op_mkdir(self):
        name, mode = self.name(), self.rng.choice([0o755, 0o700])
        self.both(f"mkdir {name} {mode:o}", lambda i: os.mkdir(self.path(i, name), mode))

    def holds_silly_names(self, name):
        """True when the mount's directory `name` holds an NFS client's .nfsXXXX file, which the reference cannot
        have: removing or replacing that directory would then be ENOTEMPTY on the mount alone."""
        try:
            return SILLY and any(n.startswith(".nfs") for n in os.listdir(self.path(0, name)))
        except OSError:
            return False

    def held_open(self, name):
        """True with --smb when one of the open descriptors is the reference's `name` (its inode number, which the
        CIFS client takes from the server)."""
        if not SMB or not self.fds:
            return False
        try:
            ino = os.lstat(self.path(1, name)).st_ino
        except OSError:
            return False
        return any(getattr(ref_stat(p), "st_ino", None) == ino for p in self.fds)

    def op_rmdir(self):
        name = self.name()
        if self.holds_silly_names(name) or self.held_open(name):
            return self.op_lstat()
        self.both(f"rmdir {name}", lambda i: os.rmdir(self.path(i, name)))

    def op_listdir(self):
        name = self.rng.choice(DIRS + ["."] + FILES[:1])
        self.both(f"listdir {name}", lambda i: sorted(visible(os.listdir(self.path(i, name)))))

    def op_readfile(self):
        name = self.name()

        def do(i):
            with open(self.path(i, name), "rb") as f:
                return digest(f.read())
        self.both(f"readfile {name}", do)

    def op_chmod(self):
        name, mode = self.name(), self.rng.choice([0o600, 0o640, 0o644, 0o755, 0o700])
        self.both(f"chmod {name} {mode:o}", lambda i: os.chmod(self.path(i, name), mode))

    def op_utime(self):
        name, t = self.name(), self.rng.randint(1_000_000_000, 1_900_000_000)

        def do(i):
            os.utime(self.path(i, name), (t, t))
            return int(os.stat(self.path(i, name)).st_mtime)
        self.both(f"utime {name} {t}", do)

    def op_symlink(self):
        name = self.name()
        targets = ["a", "d0/e", "no-such", "x" * 200] + (["../a"] if "/" in name else [])  # never out of the root
        target = self.rng.choice(targets)
        self.both(f"symlink {target} {name}", lambda i: os.symlink(target, self.path(i, name)))

    def op_readlink(self):
        name = self.name()
        self.both(f"readlink {name}", lambda i: os.readlink(self.path(i, name)))

    def op_copy_range(self):
        if len(self.fds) < 2:
            return self.op_open()
        src, dst = self.rng.sample(self.fds, 2)
        if getattr(ref_stat(src), "st_nlink", 0) == 0:
            return self.op_fstat()  # a partial copy from an unlinked file's EIO would move the two trees apart
        n = self.rng.randint(0, 200000)
        off_in = self.rng.randint(0, ref_size(src))
        off_out = self.offset(dst)
        self.both(f"copy_file_range {src[3]} off={off_in} -> {dst[3]} off={off_out} len={n}",
                  lambda i: os.copy_file_range(src[i], dst[i], n, off_in, off_out))

    # --- a segment
    def run(self, count):
        try:
            for _ in range(count):
                op = self.rng.choices(self.ops, weights=self.weights)[0][1]
                op()
            while self.fds:
                p = self.fds.pop()
                self.both(f"close {p[3]} (end of segment)", lambda i: os.close(p[i]))
            compare_trees(*self.roots)
        finally:
            for p in self.fds:
                for fd in p[:2]:
                    try:
                        os.close(fd)
                    except OSError:
                        pass


def ref_stat(fd_pair):
    """fstat of the reference's descriptor, or None where the reference cannot answer (a CIFS mount: ENOENT for a
    file deleted while open, which it keeps as "delete pending"): the exerciser's choices then take size 0."""
    try:
        return os.fstat(fd_pair[1])
    except OSError:
        return None


def ref_size(fd_pair):
    st = ref_stat(fd_pair)
    return st.st_size if st else 0


class Data(bytes):
    """Bytes read, compared whole and printed as their length and a hash."""

    def __repr__(self):
        return repr(digest(self))


def digest(b):
    """Bytes read, short enough to print: their length and a hash (mismatches name both)."""
    return (len(b), hashlib.sha1(b).hexdigest()[:16])


def short(o):
    s = repr(o)
    return s if len(s) < 200 else s[:200] + "..."


def tree(root):
    """relative path -> what both trees must agree on, for every name under root."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for n in visible(dirnames + filenames):
            p = os.path.join(dirpath, n)
            rel = os.path.relpath(p, root)
            st = os.lstat(p)
            desc = describe_stat(st)
            if stat.S_ISLNK(st.st_mode):
                desc += (os.readlink(p),)
            elif stat.S_ISREG(st.st_mode):
                with open(p, "rb") as f:
                    desc += (digest(f.read()),)
            out[rel] = desc
    return out


def compare_trees(mount, ref):
    a, b = tree(mount), tree(ref)
    if a != b:
        lines = []
        for k in sorted(set(a) | set(b)):
            if a.get(k) != b.get(k):
                lines.append(f"  {k}: mount {a.get(k)}, reference {b.get(k)}")
        raise Mismatch("trees differ:\n" + "\n".join(lines))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mount")
    ap.add_argument("reference")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ops", type=int, default=300)
    ap.add_argument("--big", action="store_true", help="now and then a write of 5-13 MiB")
    ap.add_argument("--check", action="store_true", help="only compare the two trees")
    ap.add_argument("--nfs", action="store_true", help="the mount is NFS: its .nfsXXXX names are not compared")
    ap.add_argument("--nfs4", action="store_true", help="the mount is NFSv4.x: as --nfs, and no O_RDONLY|O_TRUNC")
    ap.add_argument("--smb", action="store_true", help="both trees are CIFS mounts: no removal of names held open")
    a = ap.parse_args()
    global SILLY, NFS4, SMB
    SMB = a.smb
    SILLY = a.nfs or a.nfs4
    NFS4 = a.nfs4
    for d in (a.mount, a.reference):
        if not os.path.isdir(d):
            print(f"fsx_diff: {d} is not a directory", file=sys.stderr)
            return 2
    try:
        if a.check:
            compare_trees(a.mount, a.reference)
            print("CHECK ok")
        else:
            ex = Exerciser(a.mount, a.reference, a.seed, a.big)
            try:
                ex.run(a.ops)
            except Mismatch:
                print(f"seed {a.seed}: the last operations before the mismatch:")
                for line in ex.log[-40:]:
                    print("   ", line)
                raise
            outcomes = " ".join(f"{k}={v}" for k, v in sorted(ex.counts.items(), key=lambda kv: -kv[1]))
            print(f"SEGMENT ok seed={a.seed} ops={a.ops} outcomes: {outcomes}")
    except Mismatch as e:
        print(f"MISMATCH {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
