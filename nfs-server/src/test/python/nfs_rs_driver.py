"""Drives the gateway's NFS server with nfs-rs (PyPI `nfs-rs`, NFSv3 client in Rust) for NfsRsClientTest.

Each subcommand checks what it did and exits non-zero with a message on the first mismatch; on success it prints one
JSON object on the last line of stdout for the Java side to cross-check against OSS.

    python nfs_rs_driver.py ops URL BASE
    python nfs_rs_driver.py big URL NAME SIZE SEED
    python nfs_rs_driver.py listing URL DIR COUNT
    python nfs_rs_driver.py restart URL          (interactive: prints READY, waits for a line on stdin)
"""
import hashlib
import json
import random
import sys

from nfs_rs import Client, DirectoryCookie, DirectoryRef, NfsAlreadyExistsError, NfsNotFoundError


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr, flush=True)
    sys.exit(1)


def check(cond, msg):
    if not cond:
        fail(msg)


def connect(url, **kw):
    return Client.connect(url, uid=1000, gid=1000, noresvport=True, connect_timeout=10, operation_timeout=120, **kw)


def pattern(size, seed):
    """Deterministic bytes, cheap to make for hundreds of MB."""
    rnd = random.Random(seed)
    block = rnd.randbytes(1 << 20)
    out = bytearray()
    i = 0
    while len(out) < size:
        out += block[i % 7:] + block[: i % 7]
        i += 1
    return bytes(out[:size])


def ops(url, base):
    out = {}
    with connect(url) as c:
        limits = c.io_limits
        check(limits.max_read == 1 << 20 and limits.max_write == 1 << 20, f"io limits {limits}")
        c.mkdir(base, 0o755)
        check(c.stat(base).type.value == "directory", "mkdir")
        # write and read 1 MiB with checksums
        data = pattern(1 << 20, 1)
        with c.open(f"{base}/one.bin", "wb") as f:
            f.write(data)
        st = c.stat(f"{base}/one.bin")
        check(st.size == len(data), f"size {st.size}")
        back = c.open(f"{base}/one.bin", "rb").read()
        check(hashlib.sha256(back).hexdigest() == hashlib.sha256(data).hexdigest(), "1 MiB round trip")
        out["one_sha256"] = hashlib.sha256(data).hexdigest()
        # lookup
        check(c.exists(f"{base}/one.bin") and not c.exists(f"{base}/none"), "exists")
        try:
            c.stat(f"{base}/none")
            fail("stat of a missing file")
        except NfsNotFoundError:
            pass
        # create (nfs-rs has no exclusive create; NfsRpcTest covers GUARDED and EXCLUSIVE)
        c.touch(f"{base}/t")
        c.touch(f"{base}/t")
        check(c.stat(f"{base}/t").size == 0, "touch")
        try:
            c.mkdir(base)
            fail("mkdir of an existing directory")
        except NfsAlreadyExistsError:
            pass
        # setattr: size, mode, mtime (a size change sets mtime to now, as truncate(2) does: the times go last)
        c.truncate(f"{base}/one.bin", 1000)
        c.chmod(f"{base}/one.bin", 0o600)
        mtime = 1_600_000_000_123_456_789
        c.utime(f"{base}/one.bin", ns=(mtime, mtime))
        st = c.stat(f"{base}/one.bin")
        check(st.mode & 0o7777 == 0o600, f"mode {oct(st.mode)}")
        check(st.mtime == mtime, f"mtime {st.mtime}")
        check(st.size == 1000, f"truncate {st.size}")
        check(c.open(f"{base}/one.bin", "rb").read() == data[:1000], "content after truncate")
        out["one_mode"] = st.mode & 0o7777
        out["one_mtime"] = st.mtime
        # rename, symlink, remove, rmdir
        c.rename(f"{base}/one.bin", f"{base}/renamed.bin")
        check(not c.exists(f"{base}/one.bin") and c.stat(f"{base}/renamed.bin").size == 1000, "rename")
        c.symlink("renamed.bin", f"{base}/link")
        check(c.readlink(f"{base}/link") == "renamed.bin", "readlink")
        c.mkdir(f"{base}/sub", 0o700)
        c.mkdir(f"{base}/sub/deeper")
        try:
            c.rmdir(f"{base}/sub")
            fail("rmdir of a non-empty directory")
        except OSError:
            pass
        c.rmdir(f"{base}/sub/deeper")
        c.rmdir(f"{base}/sub")
        c.unlink(f"{base}/link")
        c.unlink(f"{base}/t")
        check(sorted(c.listdir(base)) == ["renamed.bin"], f"listdir {c.listdir(base)}")
        out["fs_stat_free"] = c.fs_stat().free_bytes
    print(json.dumps(out))


def big(url, name, size, seed):
    data = pattern(size, seed)
    want = hashlib.sha256(data).hexdigest()
    with connect(url) as c:
        with c.open(name, "wb") as f:
            f.write(data)  # one batch: UNSTABLE WRITEs, one COMMIT
        del data
        h = hashlib.sha256()
        with c.open(name, "rb") as f:
            while True:
                chunk = f.read(8 << 20)
                if not chunk:
                    break
                h.update(chunk)
        check(h.hexdigest() == want, "big file checksum")
        check(c.stat(name).size == size, "big file size")
    print(json.dumps({"sha256": want}))


def listing(url, directory, count):
    with connect(url, readdir_buffer=(4096, 8192)) as c:
        names = c.listdir(directory)
        names = [n for n in names if n not in (".", "..")]
        check(len(names) == count and len(set(names)) == count, f"listdir gave {len(names)} names")
        # page by hand, creating and removing entries between pages: no NfsBadCookieError, no repeats
        seen = []
        pos = DirectoryCookie()
        pages = 0
        while True:
            page = c.scandir_page(directory, pos)
            seen += [e.name for e in page.entries if e.name not in (".", "..")]
            pages += 1
            if page.eof:
                break
            pos = page.next
            c.touch(f"{directory}/zz-added-{pages}")
            c.unlink(f"{directory}/{names[(pages * 37) % count]}")
        check(len(seen) == len(set(seen)), "a name came twice while paging")
        check(pages > 10, f"only {pages} pages")
    print(json.dumps({"count": len(names), "pages": pages}))


def restart(url):
    with connect(url) as c:
        c.mkdir("rst")
        data = pattern(3 << 20, 5)
        with c.open("rst/file.bin", "wb") as f:
            f.write(data)
        dir_fh = {e.name: e for e in c.scandir(".")}["rst"].fh
        file_fh = {e.name: e for e in c.scandir(DirectoryRef("rst", fh=dir_fh))}["file.bin"].fh
        check(dir_fh and file_fh, "handles from READDIRPLUS")
        held = c.open("rst/file.bin", "rb")  # an open file reads through its handle
        print("READY", flush=True)
        sys.stdin.readline()  # the gateway restarts meanwhile
        back = held.read()
        check(back == data, "read through a handle from before the restart")
        # the old directory handle, used directly (no lookup), lists the same file with the same handle
        again = {e.name: e for e in c.scandir(DirectoryRef("rst", fh=dir_fh))}
        check("file.bin" in again and again["file.bin"].fh == file_fh, "the same handle after the restart")
        check(c.stat("rst/file.bin").size == len(data), "stat after restart")
    print(json.dumps({"ok": True}))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "ops":
        ops(sys.argv[2], sys.argv[3])
    elif cmd == "big":
        big(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    elif cmd == "listing":
        listing(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    elif cmd == "restart":
        restart(sys.argv[2])
    else:
        fail("unknown command " + cmd)
