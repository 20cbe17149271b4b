"""Reliability: rename(2) of every kind of entry onto every kind, over FUSE (`./ossgw mount`, real syscalls) and NFS
(`./ossgw serve --nfs`, the nfs-rs client), issue 9 item 5.

Sources: a file, a directory (with a file inside), a symlink, and a file created but not yet uploaded ("pending": an
open fd written and not closed over FUSE; a CREATE with no COMMIT over NFS, the server's open-idle timeout raised so
it stays pending). Targets: nothing, a file, an empty directory, a symlink, a pending file. Each rename is followed by
a check of the new name (type, content, symlink target) and, in a second variant, by removing the new name before any
upload. Then the gateway is stopped (which uploads whatever is still pending) and the bucket is checked with oss2:
exactly the expected keys, each of the expected type (ossfs `x-oss-meta-mode`) and content; nothing left behind.
The matrix is the same in the short and long forms (40 renames per protocol, a few seconds each).
"""
import errno
import os
import stat

import pytest

from e2e_support import all_keys, free_port, scaled, stop_process
from test_nfs_serve import serve

KINDS = ["file", "dir", "symlink", "pending"]
TARGETS = ["absent", "file", "dir", "symlink", "pending"]
CASES = [(k, t, remove) for k in KINDS for t in TARGETS for remove in (False, True)]


def expected_error(kind, target):
    if kind == "dir":
        return None if target in ("absent", "dir") else errno.ENOTDIR
    return errno.EISDIR if target == "dir" else None


def content_of(kind, role, pending_content):
    if kind == "symlink":
        return f"{role}-link-target"
    if kind == "dir":
        return f"{role} inner" if role == "src" else ""
    if kind == "pending":
        return pending_content(role)
    return f"{role} {kind}"


def objects(name, kind, content):
    """What an entry is in the bucket: {key suffix: (type, content)}."""
    if kind in ("file", "pending"):
        return {name: ("file", content)}
    if kind == "symlink":
        return {name: ("link", content)}
    if kind == "dir":
        out = {name + "/": ("dir", "")}
        if content:
            out[name + "/inner"] = ("file", content)
        return out
    return {}


def bucket_state(bucket, prefix):
    out = {}
    for key in all_keys(bucket, prefix):
        if key == prefix:
            continue
        mode = int(bucket.head_object(key).headers["x-oss-meta-mode"])
        kind = {stat.S_IFREG: "file", stat.S_IFLNK: "link", stat.S_IFDIR: "dir"}.get(stat.S_IFMT(mode), oct(mode))
        out[key[len(prefix):]] = (kind, bucket.get_object(key).read().decode())
    return out


class FuseSide:
    """The matrix's operations as syscalls on a mount point."""

    def __init__(self, mp):
        self.mp = mp

    def pending_content(self, role):
        return f"{role} pending, written and not closed"

    def p(self, path):
        return os.path.join(self.mp, path)

    def mkdir(self, path):
        os.mkdir(self.p(path))

    def make(self, path, kind, content):
        full = self.p(path)
        if kind == "file":
            with open(full, "w") as f:
                f.write(content)
        elif kind == "symlink":
            os.symlink(content, full)
        elif kind == "dir":
            os.mkdir(full)
            if content:
                with open(full + "/inner", "w") as f:
                    f.write(content)
        elif kind == "pending":
            fd = os.open(full, os.O_CREAT | os.O_WRONLY, 0o644)
            os.write(fd, content.encode())
            return fd
        return None

    def rename(self, a, b):
        try:
            os.rename(self.p(a), self.p(b))
            return None
        except OSError as e:
            return e.errno

    def kind(self, path):
        m = os.lstat(self.p(path)).st_mode
        return "symlink" if stat.S_ISLNK(m) else "dir" if stat.S_ISDIR(m) else "file"

    def exists(self, path):
        return os.path.lexists(self.p(path))

    def readlink(self, path):
        return os.readlink(self.p(path))

    def read(self, path):
        with open(self.p(path)) as f:
            return f.read()

    def remove(self, path, kind):
        if kind == "dir":
            os.unlink(self.p(path + "/inner"))
            os.rmdir(self.p(path))
        else:
            os.unlink(self.p(path))

    def listdir(self, path):
        return os.listdir(self.p(path))

    def close(self, handle):
        if handle is not None:
            os.close(handle)


class NfsSide:
    """The matrix's operations through nfs-rs; a pending file is a CREATE whose File is left open (no COMMIT)."""

    def __init__(self, client):
        self.c = client

    def pending_content(self, role):
        return ""

    def mkdir(self, path):
        self.c.mkdir("/" + path, 0o755)

    def make(self, path, kind, content):
        path = "/" + path
        if kind == "file":
            with self.c.open(path, "wb") as f:
                f.write(content.encode())
        elif kind == "symlink":
            self.c.symlink(content, path)
        elif kind == "dir":
            self.c.mkdir(path, 0o755)
            if content:
                with self.c.open(path + "/inner", "wb") as f:
                    f.write(content.encode())
        elif kind == "pending":
            return self.c.open(path, "wb")
        return None

    def rename(self, a, b):
        try:
            self.c.rename("/" + a, "/" + b)
            return None
        except Exception as e:  # nfs-rs maps NFS3ERR_* to its own exceptions
            name = type(e).__name__
            return {"NfsIsADirectoryError": errno.EISDIR, "NfsNotADirectoryError": errno.ENOTDIR}.get(
                name, getattr(e, "errno", name))

    def kind(self, path):
        t = self.c.stat("/" + path).type.value
        return {"file": "file", "directory": "dir", "symlink": "symlink"}[t]

    def exists(self, path):
        return self.c.exists("/" + path)

    def readlink(self, path):
        return self.c.readlink("/" + path)

    def read(self, path):
        with self.c.open("/" + path, "rb") as f:
            return f.read().decode()

    def remove(self, path, kind):
        if kind == "dir":
            self.c.remove("/" + path + "/inner")
            self.c.rmdir("/" + path)
        else:
            self.c.remove("/" + path)

    def listdir(self, path):
        return self.c.listdir("/" + path)

    def close(self, handle):
        if handle is not None:
            try:
                handle.close()
            except Exception:  # the file was renamed over or removed: its handle may be stale
                pass


def run_matrix(side):
    """Runs every case; returns {case prefix: expected bucket state}. Handles stay open until all cases ran."""
    expected, handles = {}, []
    for i, (kind, target, remove) in enumerate(CASES):
        d = f"c{i:02d}-{kind}-onto-{target}{'-rm' if remove else ''}"
        side.mkdir(d)
        src_content = content_of(kind, "src", side.pending_content)
        dst_content = content_of(target, "dst", side.pending_content)
        handles.append(side.make(f"{d}/src", kind, src_content))
        handles.append(side.make(f"{d}/dst", target, dst_content))
        err = side.rename(f"{d}/src", f"{d}/dst")
        want = expected_error(kind, target)
        assert err == want, f"{d}: rename answered {err}, expected {want}"
        state = {}
        if want is not None:
            state.update(objects("src", kind, src_content))
            state.update(objects("dst", target, dst_content))
        else:
            assert not side.exists(f"{d}/src"), d
            assert side.kind(f"{d}/dst") == kind.replace("pending", "file"), d
            if kind == "symlink":
                assert side.readlink(f"{d}/dst") == src_content, d
            elif kind == "dir":
                assert side.read(f"{d}/dst/inner") == src_content, d
            elif not remove:  # reading opens and closes: that would upload a pending file
                assert side.read(f"{d}/dst") == src_content, d
            if remove:
                side.remove(f"{d}/dst", kind)
                assert side.listdir(d) == [], d
            else:
                state.update(objects("dst", kind, src_content))
        expected[d + "/"] = {k: ("link" if t == "link" else t, c) for k, (t, c) in state.items()}
    return expected, handles


def check_bucket(bucket, expected):
    wrong = {}
    for prefix, want in expected.items():
        got = bucket_state(bucket, prefix)
        if got != want:
            wrong[prefix] = {"expected": want, "in OSS": got}
    assert not wrong, wrong


def test_rename_matrix_over_fuse(mounts, new_bucket):
    name, bucket = new_bucket
    mp = mounts.mount(name)
    side = FuseSide(str(mp))
    expected, handles = run_matrix(side)
    for h in handles:
        side.close(h)  # the pending files: renamed ones are uploaded now, replaced or removed ones must not be
    mounts.unmount(mp)
    check_bucket(bucket, expected)


def test_rename_matrix_over_nfs(emulator, ossgw_built, new_bucket, workdir, monkeypatch):
    nfs_rs = pytest.importorskip("nfs_rs")
    name, bucket = new_bucket
    passwd = workdir / "passwd"
    passwd.write_text(f"{name}:{emulator.ak}:{emulator.sk}\n")
    passwd.chmod(0o600)
    port, http_port = free_port(), free_port()
    # creates stay pending for the whole matrix (the default idle release would upload them after 5 s)
    monkeypatch.setenv("OSSGW_NFS_OPEN_IDLE_TIMEOUT", "120s")
    p = serve(["serve", name, "--nfs", "--nfs-port", port, "--nfs-bind", "127.0.0.1",
               "-o", f"url={emulator.endpoint},passwd_file={passwd},uid=1000,gid=1000"], workdir, http_port, "nfs")
    try:
        url = f"nfs://127.0.0.1/{name}?version=3&nfsport={port}&mountport={port}"
        with nfs_rs.Client.connect(url, uid=1000, gid=1000, noresvport=True, connect_timeout=scaled(10),
                                   operation_timeout=scaled(60)) as c:
            side = NfsSide(c)
            expected, handles = run_matrix(side)
            for h in handles:
                side.close(h)
    finally:
        assert stop_process(p) == 0, (workdir / "nfs.log").read_text()[-3000:]  # a clean stop uploads what is pending
    check_bucket(bucket, expected)
