"""End-to-end: `./ossgw mount` against the OSS emulator (directory store, auth on, V4 signatures), driven with real
syscalls (Python os/shutil and shell tools) and checked from the OSS side with oss2."""
import errno
import hashlib
import os
import random
import stat
import subprocess
import sysconfig
import threading
import time
from pathlib import Path

import pytest

from e2e_support import (BASE, Mounts, OSSGW, all_keys, daemon_pids, force_unmount, is_mounted, kill_if_running, log,
                         oss_bucket, run_ossgw, sha256_file, wait_exit, wait_until)


MB = 1024 * 1024


# ----------------------------------------------------------------------------------------------------- helpers
MIN_TREE_FILES = 2000


def _library_files(root, skip_top=("site-packages", "dist-packages")):
    """(relative path, absolute path) of every regular file under root, sorted; __pycache__ (generated), symlinks
    and the top-level third-party directories skipped."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root)
        dirnames[:] = sorted(d for d in dirnames
                             if d != "__pycache__" and not (rel_dir == Path(".") and d in skip_top)
                             and not os.path.islink(os.path.join(dirpath, d)))
        for f in sorted(filenames):
            p = Path(dirpath) / f
            if p.is_symlink() or not p.is_file():
                continue
            out.append((str(rel_dir / f) if str(rel_dir) != "." else f, p))
    return out


def stdlib_files():
    """The Python standard library of this machine as the tree to copy: (root, files). The running interpreter's
    stdlib comes first; when it has fewer than MIN_TREE_FILES files (Debian's python3 has ~740; pyenv builds have
    ~2,450), the first other installed stdlib that is large enough is used instead (pyenv, /usr/local, /usr)."""
    candidates = [Path(sysconfig.get_paths()["stdlib"])]
    for pattern in ("/root/.pyenv/versions/*/lib/python3.*", "/usr/local/lib/python3.*", "/usr/lib/python3.*"):
        candidates += sorted(Path("/").glob(pattern.lstrip("/")), reverse=True)
    best = None
    for root in candidates:
        if not (root / "os.py").is_file():
            continue
        files = _library_files(root)
        if len(files) >= MIN_TREE_FILES:
            return root, files
        if best is None or len(files) > len(best[1]):
            best = (root, files)
    # No stdlib is large enough (a bare Debian python3): take the largest one with its third-party packages too.
    return best[0], _library_files(best[0], skip_top=())


def tree_listing(root):
    """Sorted (relative path, type, size) of everything under root; directories have size 0 here."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        for d in dirnames:
            out.append((os.path.relpath(os.path.join(dirpath, d), root), "dir", 0))
        for f in filenames:
            p = os.path.join(dirpath, f)
            st = os.lstat(p)
            kind = "file" if stat.S_ISREG(st.st_mode) else "link" if stat.S_ISLNK(st.st_mode) else "other"
            out.append((os.path.relpath(p, root), kind, st.st_size))
    return sorted(out)


def write_random(path, size, seed, chunk=MB):
    """Writes SIZE deterministic pseudo-random bytes; returns their sha256."""
    rnd = random.Random(seed)
    h = hashlib.sha256()
    with open(path, "wb") as f:
        left = size
        while left:
            n = min(chunk, left)
            b = rnd.randbytes(n)
            h.update(b)
            f.write(b)
            left -= n
    return h.hexdigest()


def meta(bucket, key):
    return {k.lower(): v for k, v in bucket.head_object(key).headers.items()}


# ------------------------------------------------------------------------------------------------------- tests
@pytest.mark.timeout(900)
def test_copy_stdlib_tree_remount_and_compare(emulator, mounts, new_bucket):
    name, bucket = new_bucket
    root, files = stdlib_files()
    assert len(files) >= MIN_TREE_FILES, f"no Python stdlib with {MIN_TREE_FILES} files; largest: {root} ({len(files)})"
    mp = mounts.mount(name)
    dest = mp / "stdlib"
    t0 = time.time()
    # cp -r semantics: create each file with its mode (O_CREAT mode), copy the bytes; directories with mkdir
    os.mkdir(dest)
    dirs = sorted({str(parent) for rel, _ in files for parent in Path(rel).parents if str(parent) != "."})
    for d in dirs:  # sorted: a parent comes before its children
        os.mkdir(dest / d)
    total = 0
    for rel, src in files:
        data = src.read_bytes()
        fd = os.open(dest / rel, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, src.stat().st_mode & 0o777)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        total += len(data)
    copy_s = time.time() - t0
    log(f"copied {len(files)} files, {total / MB:.1f} MiB of {root} in {copy_s:.1f} s")

    mp = mounts.remount(mp, name)  # new process: cold caches
    dest = mp / "stdlib"
    src_listing = sorted([(d, "dir", 0) for d in dirs] + [(rel, "file", src.stat().st_size) for rel, src in files])
    assert tree_listing(dest) == src_listing
    t0 = time.time()
    bad = [rel for rel, src in files if sha256_file(dest / rel) != sha256_file(src)]
    assert not bad, f"{len(bad)} files differ after remount, e.g. {bad[:5]}"
    log(f"sha256 of {len(files)} files through the remounted mount in {time.time() - t0:.1f} s")

    # OSS side: each file is exactly one plain object with the file's bytes and ossfs metadata
    keys = all_keys(bucket, "stdlib/")
    file_keys = {k for k in keys if not k.endswith("/")}
    assert file_keys == {"stdlib/" + rel for rel, _ in files}
    for rel, src in files:
        obj = bucket.get_object("stdlib/" + rel)
        body = obj.read()
        assert body == src.read_bytes(), f"object stdlib/{rel} differs from the file"
        headers = {k.lower(): v for k, v in obj.headers.items()}
        assert "x-oss-meta-mode" in headers and "x-oss-meta-mtime" in headers, f"stdlib/{rel}: {headers}"
        assert int(headers["x-oss-meta-mode"]) & 0o777 == src.stat().st_mode & 0o777


def test_foreign_objects_stat_and_ls(mounts, new_bucket):
    name, bucket = new_bucket
    bucket.put_object("plain.txt", b"no metadata at all\n")
    bucket.put_object("withmeta.txt", b"#!/bin/sh\necho hi\n", headers={
        "x-oss-meta-mode": str(0o100755), "x-oss-meta-mtime": "1577934245", "x-oss-meta-uid": "1234",
        "x-oss-meta-gid": "2345"})
    bucket.put_object("a/b/c.txt", b"deep\n")  # implicit directories a/ and a/b/
    bucket.put_object("dir/", b"")  # a directory marker without metadata
    bucket.put_object("dir/inside.txt", b"inside\n")
    mp = mounts.mount(name)

    assert sorted(os.listdir(mp)) == ["a", "dir", "plain.txt", "withmeta.txt"]
    st = os.stat(mp / "plain.txt")
    assert stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o640 and st.st_size == 19
    st = os.stat(mp / "withmeta.txt")
    assert stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o755
    assert int(st.st_mtime) == 1577934245 and st.st_uid == 1234 and st.st_gid == 2345
    for d in ("a", "a/b", "dir"):
        st = os.stat(mp / d)
        assert stat.S_ISDIR(st.st_mode), d
        assert stat.S_IMODE(st.st_mode) == 0o750, (d, oct(st.st_mode))
    assert os.listdir(mp / "a") == ["b"] and os.listdir(mp / "a/b") == ["c.txt"]
    assert (mp / "a/b/c.txt").read_bytes() == b"deep\n"
    assert os.listdir(mp / "dir") == ["inside.txt"]
    out = subprocess.run(["ls", "-l", str(mp)], capture_output=True, text=True, check=True).stdout
    assert "-rw-r----- " in out and "-rwxr-xr-x " in out and "drwxr-x--- " in out, out


@pytest.fixture(scope="module")
def shared(emulator, ossgw_built, tmp_path_factory):
    """One mount for the small POSIX tests of this module (each test works in its own directory)."""
    work = BASE / "shared"
    work.mkdir(parents=True, exist_ok=True)
    m = Mounts(emulator, work)
    name = "e2e-shared-" + os.urandom(3).hex()
    bucket = oss_bucket(emulator, name)
    bucket.create_bucket()
    mp = m.mount(name)
    try:
        yield m, mp, name, bucket
    finally:
        m.cleanup()


def test_rename_file(shared):
    _, mp, _, bucket = shared
    d = mp / "rename-file"
    d.mkdir()
    (d / "old.txt").write_bytes(b"payload\n")
    os.rename(d / "old.txt", d / "new.txt")
    assert not (d / "old.txt").exists()
    assert (d / "new.txt").read_bytes() == b"payload\n"
    assert set(all_keys(bucket, "rename-file/")) - {"rename-file/"} == {"rename-file/new.txt"}


@pytest.mark.timeout(600)
def test_rename_directory_with_500_entries(shared):
    _, mp, _, bucket = shared
    src = mp / "rdir-src"
    src.mkdir()
    for i in range(500):
        (src / f"f{i:03d}.txt").write_bytes(f"file {i}\n".encode() * (i % 7 + 1))
    t0 = time.time()
    os.rename(src, mp / "rdir-dst")
    log(f"rename of a 500-entry directory took {time.time() - t0:.1f} s")
    assert not src.exists()
    names = sorted(os.listdir(mp / "rdir-dst"))
    assert names == [f"f{i:03d}.txt" for i in range(500)]
    for i in range(500):
        assert (mp / "rdir-dst" / f"f{i:03d}.txt").read_bytes() == f"file {i}\n".encode() * (i % 7 + 1)
    assert all_keys(bucket, "rdir-src/") == []
    assert len([k for k in all_keys(bucket, "rdir-dst/") if not k.endswith("/")]) == 500


def test_truncate_shrink_and_extend(shared):
    _, mp, _, bucket = shared
    p = mp / "trunc.bin"
    data = bytes(range(256)) * 40  # 10240 bytes
    p.write_bytes(data)
    os.truncate(p, 1000)
    assert p.read_bytes() == data[:1000]
    os.truncate(p, 5000)
    assert p.read_bytes() == data[:1000] + b"\0" * 4000
    subprocess.run(["truncate", "-s", "3", str(p)], check=True)
    assert p.read_bytes() == data[:3]
    assert bucket.get_object("trunc.bin").read() == data[:3]


def test_append(shared):
    _, mp, _, bucket = shared
    p = mp / "append.txt"
    subprocess.run(["sh", "-c", f"echo first > '{p}'; echo second >> '{p}'"], check=True)
    with open(p, "ab") as f:
        f.write(b"third\n")
    assert p.read_bytes() == b"first\nsecond\nthird\n"
    assert bucket.get_object("append.txt").read() == b"first\nsecond\nthird\n"


@pytest.mark.timeout(600)
def test_overwrite_middle_of_50mb_file(shared):
    _, mp, _, bucket = shared
    p = mp / "big50.bin"
    size = 50 * MB
    write_random(p, size, seed=50)
    patch = random.Random(51).randbytes(MB + 12345)
    offset = 20 * MB + 777
    with open(p, "r+b") as f:
        f.seek(offset)
        f.write(patch)
    # recompute the expectation locally, chunk-wise as written
    rnd = random.Random(50)
    whole = bytearray()
    left = size
    while left:
        n = min(MB, left)
        whole += rnd.randbytes(n)
        left -= n
    whole[offset:offset + len(patch)] = patch
    want = hashlib.sha256(whole).hexdigest()
    assert os.stat(p).st_size == size
    assert sha256_file(p) == want
    assert hashlib.sha256(bucket.get_object("big50.bin").read()).hexdigest() == want


def test_symlink(shared):
    _, mp, _, bucket = shared
    os.symlink("target/of the link.txt", mp / "link")
    assert os.readlink(mp / "link") == "target/of the link.txt"
    assert stat.S_ISLNK(os.lstat(mp / "link").st_mode)
    obj = bucket.get_object("link")
    body = obj.read()
    headers = {k.lower(): v for k, v in obj.headers.items()}
    carried = body == b"target/of the link.txt" or "target/of%20the%20link.txt" in headers.get(
        "x-oss-meta-symlink-target", "") or "target/of the link.txt" in headers.get("x-oss-meta-symlink-target", "")
    assert carried, (body, headers)
    assert stat.S_ISLNK(int(headers["x-oss-meta-mode"]))


def test_zero_byte_file(shared):
    _, mp, _, bucket = shared
    p = mp / "empty.dat"
    subprocess.run(["touch", str(p)], check=True)
    assert os.stat(p).st_size == 0
    assert all_keys(bucket, "empty.dat") == ["empty.dat"]
    assert bucket.head_object("empty.dat").content_length == 0


def test_special_names_round_trip(shared):
    _, mp, _, bucket = shared
    d = mp / "names"
    d.mkdir()
    names = ["with space.txt", "ünïcødé-日本語.txt", "100%.txt", "%41%2F.txt", "a+b=c.txt", " lead and trail ",
             "semi;colon&amp.txt"]
    for n in names:
        (d / n).write_text(n)
    assert sorted(os.listdir(d)) == sorted(names)
    for n in names:
        assert (d / n).read_text() == n
    assert sorted(k for k in all_keys(bucket, "names/") if k != "names/") == sorted("names/" + n for n in names)
    for n in names:
        assert bucket.get_object("names/" + n).read() == n.encode()


def test_name_over_255_bytes_is_enametoolong(shared):
    _, mp, _, _ = shared
    for name in ("x" * 256, "é" * 128):  # 256 bytes, in ASCII and in 2-byte UTF-8
        with pytest.raises(OSError) as e:
            open(mp / name, "w").close()
        assert e.value.errno == errno.ENAMETOOLONG, e.value
    (mp / ("y" * 255)).write_text("ok")  # exactly 255 bytes is fine
    assert (mp / ("y" * 255)).read_text() == "ok"


def test_chmod_and_mtime_kept_across_remount(mounts, new_bucket):
    name, bucket = new_bucket
    mp = mounts.mount(name)
    p = mp / "attrs.txt"
    p.write_text("attributes\n")
    os.chmod(p, 0o600)
    subprocess.run(["touch", "-d", "2020-01-02 03:04:05 UTC", str(p)], check=True)
    os.mkdir(mp / "adir", 0o700)
    mp = mounts.remount(mp, name)
    st = os.stat(mp / "attrs.txt")
    assert stat.S_IMODE(st.st_mode) == 0o600
    assert int(st.st_mtime) == 1577934245
    assert stat.S_IMODE(os.stat(mp / "adir").st_mode) == 0o700
    h = meta(bucket, "attrs.txt")
    assert int(h["x-oss-meta-mode"]) == 0o100600
    assert h["x-oss-meta-mtime"].split(".")[0] == "1577934245"


@pytest.mark.timeout(900)
def test_300mb_file_is_multipart_and_intact_after_remount(emulator, mounts, new_bucket):
    name, bucket = new_bucket
    mp = mounts.mount(name)
    emulator.reset_counters()
    t0 = time.time()
    want = write_random(mp / "big300.bin", 300 * MB, seed=300)
    log(f"wrote 300 MiB in {time.time() - t0:.1f} s")
    c = emulator.counters()
    assert c.get("UploadPart", 0) > 1, c
    assert c.get("CompleteMultipartUpload", 0) == 1, c
    assert bucket.head_object("big300.bin").content_length == 300 * MB
    mp = mounts.remount(mp, name)
    t0 = time.time()
    assert sha256_file(mp / "big300.bin") == want
    log(f"read 300 MiB after remount in {time.time() - t0:.1f} s")


# ----------------------------------------------------------------------------------------- failures, CLI behaviour
def _no_leftovers(mp):
    assert not is_mounted(mp), f"{mp} is mounted after a failed ossgw mount"
    assert wait_until(lambda: not daemon_pids(mp), 20), "an ossgw mount process is left behind"


def test_wrong_credentials_fail_clearly(emulator, mounts, workdir):
    bad = workdir / "bad-passwd"
    bad.write_text(f"{emulator.ak}:not-the-secret\n")
    bad.chmod(0o600)
    mp = workdir / "mnt-badcreds"
    mp.mkdir()
    r = run_ossgw("mount", emulator.bucket, mp, "-o",
                  f"url={emulator.endpoint},passwd_file={bad},sigv4,region=cn-hangzhou,logfile={workdir}/m.log")
    assert r.returncode != 0
    assert "denied" in r.stderr and ("SignatureDoesNotMatch" in r.stderr or "InvalidAccessKeyId" in r.stderr), r.stderr
    assert "not-the-secret" not in r.stderr + r.stdout
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    _no_leftovers(mp)


def test_missing_bucket_fails_clearly(emulator, mounts, workdir):
    mp = workdir / "mnt-nobucket"
    mp.mkdir()
    r = run_ossgw("mount", "no-such-bucket-e2e", mp, "-o", mounts.options("no-such-bucket-e2e"))
    assert r.returncode != 0
    assert "no-such-bucket-e2e" in r.stderr and "does not exist" in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr
    _no_leftovers(mp)


@pytest.mark.parametrize("option,word", [
    ("no_such_option", "no_such_option"),
    ("use_xattr", "use_xattr"),  # an ossfs option ossgw does not implement
    ("multipart_size=1", "multipart_size"),
    ("stat_cache_expire=soon", "stat_cache_expire"),
    ("ro=1", "ro"),
])
def test_bad_or_unknown_option_is_refused_by_name(emulator, mounts, workdir, option, word):
    mp = workdir / "mnt-badopt"
    mp.mkdir()
    r = run_ossgw("mount", emulator.bucket, mp, "-o", mounts.options(emulator.bucket, [option]))
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert f"'{word}'" in r.stderr, r.stderr
    _no_leftovers(mp)


def test_world_readable_passwd_file_is_refused(emulator, mounts, workdir):
    mounts.passwd.chmod(0o644)
    mp = workdir / "mnt-perms"
    mp.mkdir()
    r = run_ossgw("mount", emulator.bucket, mp, "-o", mounts.options(emulator.bucket))
    assert r.returncode != 0 and "chmod 600" in r.stderr, r.stderr
    assert emulator.sk not in r.stderr
    _no_leftovers(mp)


def test_credentials_from_environment(emulator, mounts, workdir):
    mp = workdir / "mnt-env"
    mp.mkdir()
    opts = f"url={emulator.endpoint},sigv4,region=cn-hangzhou,logfile={workdir}/env.log,state_dir={workdir}/state"
    r = run_ossgw("mount", emulator.bucket, mp, "-o", opts,
                  env={"OSS_ACCESS_KEY_ID": emulator.ak, "OSS_ACCESS_KEY_SECRET": emulator.sk})
    try:
        assert r.returncode == 0, r.stderr
        assert is_mounted(mp)
        os.listdir(mp)
    finally:
        force_unmount(mp)


def test_two_mounts_in_parallel(emulator, mounts, new_bucket):
    """Two `ossgw mount` at the same time: no HTTP port (or anything else) is contended."""
    name, _ = new_bucket
    mps = [mounts.workdir / "par-a", mounts.workdir / "par-b"]
    results = {}

    def go(mp):
        mp.mkdir()
        results[mp] = run_ossgw("mount", name, mp, "-o", mounts.options(name))

    threads = [threading.Thread(target=go, args=(mp,)) for mp in mps]
    [t.start() for t in threads]
    [t.join() for t in threads]
    for mp in mps:
        if is_mounted(mp):
            mounts.active.append(mp)
    for mp in mps:
        assert results[mp].returncode == 0, results[mp].stderr
    (mps[0] / "from-a.txt").write_text("a")
    assert wait_until(lambda: "from-a.txt" in os.listdir(mps[1]), 10)
    for mp in mps:
        mounts.unmount(mp)


def test_foreground_mount_stops_cleanly_on_sigterm_and_on_external_unmount(emulator, mounts, workdir):
    for how in ("sigterm", "fusermount"):
        mp = workdir / f"mnt-fg-{how}"
        mp.mkdir()
        p = subprocess.Popen([str(OSSGW), "mount", emulator.bucket, str(mp), "-f", "-o",
                              mounts.options(emulator.bucket)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL)
        try:
            assert wait_until(lambda: is_mounted(mp) or p.poll() is not None, 120), "not mounted in 120 s"
            assert is_mounted(mp), p.stdout.read().decode(errors="replace")
            if how == "sigterm":
                p.terminate()
            else:
                subprocess.run(["fusermount", "-u", str(mp)], check=True)
            assert wait_exit(p, 60) == 0, p.stdout.read().decode(errors="replace")
            assert not is_mounted(mp)
        finally:
            kill_if_running(p)
            force_unmount(mp)
