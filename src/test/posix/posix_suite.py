#!/usr/bin/env python3
"""ossgw's own POSIX suite (issue 12): real syscalls against a directory on an ossgw mount (FUSE, NFS, SMB-over-FUSE
or, to check the suite itself, a local file system), as root.

    python3 posix_suite.py DIR [--transport fuse|nfs|nfs4|local] [--save-inodes FILE | --check-inodes FILE]

Prints one line per case (PASS/FAIL and its assertion counts) and a total; exits 1 if any assertion failed
unexpectedly, 2 on a usage error. Python 3 standard library only (os, errno, stat, socket, subprocess): it runs in a
Debian guest that has python3-minimal and coreutils.

Every assertion has an id. An assertion whose outcome differs from POSIX/Linux on purpose is listed in DIFFERENCES
with what ossgw gives per transport; that outcome counts as a known difference, anything else as a failure. nfs is
NFSv3, nfs4 NFSv4.1, which has nfs's differences unless an entry names nfs4. Running with --transport local applies
no differences (a local file system must pass everything except them).
SEMANTICS.md's POSIX section lists the same table.

--save-inodes FILE creates a small tree, renames parts of it and writes the inode numbers it saw; after a remount,
--check-inodes FILE checks the same names have the same st_ino (nothing else runs).
"""
import errno
import os
import stat
import sys
import time
import traceback

# id -> ({transport: outcome ossgw gives, or a tuple of them}, why). Outcomes are "OK", an errno name, or
# "name=value" for a value.
DIFFERENCES = {
    "link.hard-link": ({"fuse": "EPERM", "nfs": "EPERM"},
                       "OSS has no hard links; link(2) is refused with EPERM (\"file system does not support links\")"),
    "nlink.dir-two-plus-subdirs": ({"fuse": "nlink=1", "nfs": "nlink=1"},
                                   "a directory's st_nlink is 1 (\"unknown\" to find/fts): counting subdirectories "
                                   "would take a listing per stat"),
    "nlink.dir-after-mkdir": ({"fuse": "nlink=1", "nfs": "nlink=1"}, "as above"),
    "fstat.after-unlink": ({"nfs": "nlink=1"},
                           "NFS: the Linux client renames the open file (.nfsXXXX), so it still has a name. FUSE "
                           "answers nlink 0 (libfuse's hidden name, kept in memory by the gateway); with -o "
                           "hard_remove it would be ENOENT (libfuse 2) or ESTALE (libfuse 3)"),
    "names.key-over-1023-bytes": ({"fuse": "ENAMETOOLONG", "nfs": "ENAMETOOLONG"},
                                  "OSS keys are at most 1,023 bytes: a path whose key is longer is ENAMETOOLONG"),
    "rename.dir-onto-nonempty-dir": ({"nfs4": "EEXIST"},
                                     "NFSv4.1 answers NFS4ERR_EXIST for a non-empty target directory as RFC 8881 "
                                     "§18.26.4 says (Linux's knfsd answers NFS4ERR_NOTEMPTY); the Linux client shows "
                                     "EEXIST, which POSIX allows beside ENOTEMPTY"),
}
# transports that have another's differences unless an entry names them
BASE_TRANSPORT = {"nfs4": "nfs"}

UID, GID = 4242, 4242  # unprivileged identities for the permission cases
UID2, GID2 = 4343, 4343


def outcome(fn, *args):
    """'OK' if fn(*args) returns, else the errno name of the OSError it raised."""
    try:
        fn(*args)
        return "OK"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))


def as_user(uid, gid, fn, groups=()):
    """Runs fn() in a forked child with real/effective/saved ids uid:gid; returns its outcome ('OK' or an errno)."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        res = "EXC"
        try:
            os.close(r)
            os.setgroups(list(groups))
            os.setresgid(gid, gid, gid)
            os.setresuid(uid, uid, uid)
            res = outcome(fn)
        except BaseException as e:  # noqa: BLE001 - reported to the parent
            res = "EXC:" + type(e).__name__ + ":" + str(e)[:200]
        finally:
            try:
                os.write(w, res.encode())
            finally:
                os._exit(0)
    os.close(w)
    data = b""
    while True:
        chunk = os.read(r, 4096)
        if not chunk:
            break
        data += chunk
    os.close(r)
    os.waitpid(pid, 0)
    return data.decode() or "EXC:no result"


class Suite:
    def __init__(self, root, transport):
        self.root = root
        self.transport = transport
        self.passed = self.failed = self.known = self.skipped = 0
        self.case_failed = 0
        self.failures = []
        self.seen_ids = set()

    def check(self, aid, got, want):
        """One assertion: got must equal want, or be the outcome DIFFERENCES lists for aid on this transport."""
        self.seen_ids.add(aid)
        if got == want:
            self.passed += 1
            return True
        diff = DIFFERENCES.get(aid)
        known = None
        if diff:
            known = diff[0].get(self.transport, diff[0].get(BASE_TRANSPORT.get(self.transport)))
        if got == known or (isinstance(known, tuple) and got in known):
            self.known += 1
            return True
        self.failed += 1
        self.failures.append(f"{aid}: got {got!r}, want {want!r}")
        return False

    def expect(self, aid, want, fn, *args):
        """Asserts the outcome ('OK' or an errno name) of fn(*args)."""
        return self.check(aid, outcome(fn, *args), want)

    def value(self, aid, name, got, want):
        return self.check(aid, f"{name}={got}", f"{name}={want}")

    def skip(self, aid, why):
        self.seen_ids.add(aid)
        self.skipped += 1
        print(f"  SKIP {aid}: {why}")

    def run(self, name, fn):
        d = os.path.join(self.root, name)
        os.mkdir(d)
        before = (self.passed, self.failed, self.known, len(self.failures))
        cwd = os.getcwd()
        try:
            fn(self, d)
        except Exception as e:  # noqa: BLE001 - a case that crashes is one failure, the others still run
            self.failed += 1
            self.failures.append(f"{name}: crashed: {type(e).__name__}: {e}\n{traceback.format_exc()}")
        finally:
            os.chdir(cwd)
        p, f, k = self.passed - before[0], self.failed - before[1], self.known - before[2]
        verdict = "PASS" if f == 0 else "FAIL"
        if f:
            self.case_failed += 1
        extra = f", {k} known difference(s)" if k else ""
        print(f"{verdict} {name}: {p + k} of {p + k + f} assertions{extra}")
        for line in self.failures[before[3]:]:
            print(f"    {line}")


def write(path, data=b"", mode=0o644, flags=os.O_CREAT | os.O_WRONLY | os.O_TRUNC):
    fd = os.open(path, flags, mode)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def fs_now_ns(d):
    """Now, in ns, on the clock that stamps times in the file system holding directory d: this machine's clock plus
    the file system's offset from it, measured with a probe file next to d (not in it: d's own times stay untouched).
    Over NFS the server stamps "now"; a VM guest's clock drifts from the host's under emulation (TCG calibrates its
    TSC on a loaded host), by more than the cases' 20 ms slack in a few seconds."""
    probe = os.path.join(os.path.dirname(os.path.abspath(d)), f".clock-probe-{os.getpid()}")
    t0 = time.time_ns()
    write(probe, b"")
    t1 = time.time_ns()
    stamped = os.stat(probe).st_mtime_ns
    os.unlink(probe)
    return time.time_ns() + stamped - (t0 + t1) // 2


def read(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        out = b""
        while True:
            b = os.read(fd, 65536)
            if not b:
                return out
            out += b
    finally:
        os.close(fd)


INODE_TREE = ["ino-file-renamed", "ino-dir-renamed", "ino-dir-renamed/sub", "ino-dir-renamed/sub/child"]


def save_inodes(root, path):
    os.mkdir(os.path.join(root, "ino"))
    base = os.path.join(root, "ino")
    write(os.path.join(base, "f"), b"f")
    os.makedirs(os.path.join(base, "d", "sub"))
    write(os.path.join(base, "d", "sub", "child"), b"c")
    os.rename(os.path.join(base, "f"), os.path.join(base, "ino-file-renamed"))
    os.rename(os.path.join(base, "d"), os.path.join(base, "ino-dir-renamed"))
    with open(path, "w") as out:
        for rel in INODE_TREE:
            out.write(f"{os.stat(os.path.join(base, rel)).st_ino} {rel}\n")
    print(f"saved the inode numbers of {len(INODE_TREE)} names under {base} to {path}")


def check_inodes(suite, path):
    base = os.path.join(suite.root, "ino")
    with open(path) as f:
        for line in f:
            ino, rel = line.rstrip("\n").split(" ", 1)
            suite.value("ino.after-remount:" + rel, "st_ino", os.stat(os.path.join(base, rel)).st_ino, int(ino))


def parents(path):
    out = []
    while True:
        out.append(path)
        up = os.path.dirname(path)
        if up == path:
            return out
        path = up


def main(argv):
    import posix_cases  # noqa: E402 - next to this file
    import posix_perms  # noqa: E402

    args = list(argv)
    transport, save, check = "local", None, None
    while len(args) > 1:
        if args[0] == "--transport":
            transport = args[1]
        elif args[0] == "--save-inodes":
            save = args[1]
        elif args[0] == "--check-inodes":
            check = args[1]
        else:
            break
        del args[:2]
    if len(args) != 1 or transport not in ("fuse", "nfs", "nfs4", "local") or not os.path.isdir(args[0]):
        print(__doc__, file=sys.stderr)
        return 2
    if os.geteuid() != 0:
        print("the suite runs as root (it drops to other uids for the permission cases)", file=sys.stderr)
        return 2
    root = os.path.abspath(args[0])
    if save:
        save_inodes(root, save)
        return 0
    suite = Suite(root, transport)
    if check:
        before = suite.failed
        check_inodes(suite, check)
        print(f"{'PASS' if suite.failed == before else 'FAIL'} inodes-after-remount: {suite.passed} passed")
        for line in suite.failures:
            print(f"    {line}")
    else:
        os.umask(0o022)
        suite.root = os.path.join(root, f"posix-{os.getpid()}")
        os.mkdir(suite.root, 0o755)
        os.chmod(suite.root, 0o755)
        closed = [p for p in parents(suite.root) if not os.stat(p).st_mode & stat.S_IXOTH]
        if closed:
            print(f"other users cannot search {closed}: the permission cases need it", file=sys.stderr)
            return 2
        for name, fn in posix_cases.CASES + posix_perms.CASES:
            suite.run(name, fn)
    total = suite.passed + suite.known + suite.failed
    print(f"TOTAL ({transport}): {total} assertions: {suite.passed} passed, {suite.known} known differences, "
          f"{suite.failed} failed, {suite.skipped} skipped")
    return 1 if suite.failed else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main(sys.argv[1:]))
