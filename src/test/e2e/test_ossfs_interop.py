"""Interop with ossfs 1.91's on-bucket format (issue 12; reference/ossfs-compat.md §3.1), both ways, through
`./ossgw mount` and the aliyun SDK (oss2) against the emulator:

1. objects written the way ossfs 1.91 writes them (x-oss-meta-mode in decimal with the file type bits, setuid, setgid
   and sticky included; -uid/-gid; -mtime as seconds or sec.nnnnnnnnn; symlinks whose body is the target; dir/ markers;
   fifos and devices as zero-byte objects, without a device number) stat, list and readlink right through ossgw;
2. what ossgw writes reads back under ossfs's rules (ossfs_view below: the parsing ossfs's metaheader.cpp does) as the
   same mode, owner, times and link target the mount shows.

test_mount.py covers objects without metadata and implicit directories; test_special_files.py the special files'
round trip; this file the metadata rules themselves."""
import os
import stat

SEC = 1577934245
NS = 123456789
DT_DIR, DT_REG, DT_LNK = 4, 8, 10


def ossfs_meta(mode, uid=1234, gid=2345, mtime=str(SEC)):
    return {"x-oss-meta-mode": str(mode), "x-oss-meta-uid": str(uid), "x-oss-meta-gid": str(gid),
            "x-oss-meta-mtime": mtime}


def ossfs_time(value):
    """ossfs's cvt_string_to_time: seconds, and after a '.' the nanoseconds as an integer (so always 9 digits)."""
    sec, _, frac = value.partition(".")
    return int(sec) * 1_000_000_000 + (int(frac) if frac else 0)


def ossfs_view(bucket, key):
    """What ossfs 1.91 shows for an object: (st_mode, uid, gid, mtime_ns, symlink target or None)."""
    h = bucket.head_object(key)
    meta = {k.lower(): v for k, v in h.headers.items()}
    if "x-oss-meta-mode" in meta:
        mode = int(meta["x-oss-meta-mode"])
    else:
        mode = (stat.S_IFDIR | 0o750) if key.endswith("/") else (stat.S_IFREG | 0o640)
    if key.endswith("/") or meta.get("content-type") == "application/x-directory":
        mode = stat.S_IFDIR | stat.S_IMODE(mode)
    target = bucket.get_object(key).read().decode() if stat.S_ISLNK(mode) else None
    return mode, int(meta.get("x-oss-meta-uid", -1)), int(meta.get("x-oss-meta-gid", -1)), \
        ossfs_time(meta["x-oss-meta-mtime"]), target


def test_objects_written_the_ossfs_way_read_right(mounts, new_bucket):
    name, bucket = new_bucket
    files = {  # name -> (st_mode, mtime as ossfs wrote it)
        "setuid": (stat.S_IFREG | 0o4755, str(SEC)),
        "setgid": (stat.S_IFREG | 0o2750, f"{SEC}.{NS:09d}"),
        "both": (stat.S_IFREG | 0o6711, f"{SEC}.000000001"),
        "plain": (stat.S_IFREG | 0o600, str(SEC)),
        "\u65e5\u672c\u8a9e \u00e9": (stat.S_IFREG | 0o644, str(SEC)),
    }
    for n, (mode, mtime) in files.items():
        bucket.put_object(n, n.encode(), headers=ossfs_meta(mode, mtime=mtime))
    bucket.put_object("tmp/", b"", headers={**ossfs_meta(stat.S_IFDIR | 0o1777, 0, 0),
                                            "Content-Type": "application/x-directory"})
    bucket.put_object("shared/", b"", headers={**ossfs_meta(stat.S_IFDIR | 0o2775, 1234, 2345),
                                               "Content-Type": "application/x-directory"})
    bucket.put_object("shared/inside", b"i", headers=ossfs_meta(stat.S_IFREG | 0o664))
    bucket.put_object("link", b"shared/inside", headers=ossfs_meta(stat.S_IFLNK | 0o777))
    bucket.put_object("dangling", b"../no/such target", headers=ossfs_meta(stat.S_IFLNK | 0o777))
    bucket.put_object("fifo", b"", headers=ossfs_meta(stat.S_IFIFO | 0o644))
    bucket.put_object("tty", b"", headers=ossfs_meta(stat.S_IFCHR | 0o620, 0, 5))
    bucket.put_object("sock", b"", headers=ossfs_meta(stat.S_IFSOCK | 0o755))
    mp = mounts.mount(name)

    assert sorted(os.listdir(mp)) == sorted([*files, "tmp", "shared", "link", "dangling", "fifo", "tty", "sock"])
    for n, (mode, mtime) in files.items():
        st = os.lstat(mp / n)
        assert st.st_mode == mode, (n, oct(st.st_mode))
        assert (st.st_uid, st.st_gid) == (1234, 2345), n
        assert st.st_mtime_ns == ossfs_time(mtime), n
        assert (mp / n).read_bytes() == n.encode()
    st = os.stat(mp / "tmp")
    assert st.st_mode == stat.S_IFDIR | 0o1777 and (st.st_uid, st.st_gid) == (0, 0)
    st = os.stat(mp / "shared")
    assert st.st_mode == stat.S_IFDIR | 0o2775 and st.st_mtime_ns == SEC * 1_000_000_000
    assert os.readlink(mp / "link") == "shared/inside"
    assert os.lstat(mp / "link").st_mode == stat.S_IFLNK | 0o777
    assert os.lstat(mp / "link").st_size == len("shared/inside")
    assert (mp / "link").read_bytes() == b"i"
    assert os.readlink(mp / "dangling") == "../no/such target"
    assert stat.S_ISFIFO(os.lstat(mp / "fifo").st_mode)
    st = os.lstat(mp / "tty")
    assert st.st_mode == stat.S_IFCHR | 0o620 and st.st_rdev == 0 and st.st_gid == 5  # ossfs keeps no rdev
    assert stat.S_ISSOCK(os.lstat(mp / "sock").st_mode)
    types = {e.name: e for e in os.scandir(mp)}
    assert types["link"].is_symlink() and types["tmp"].is_dir(follow_symlinks=False)
    assert types["setuid"].is_file(follow_symlinks=False)
    # a listing (attributes from ListObjects plus the stored metadata) agrees with stat
    assert {n: types[n].stat(follow_symlinks=False).st_mode for n in files} == {n: m for n, (m, _) in files.items()}


def test_what_ossgw_writes_reads_the_same_under_ossfs_rules(mounts, new_bucket):
    name, bucket = new_bucket
    mp = mounts.mount(name)
    (mp / "prog").write_bytes(b"#!/bin/sh\n")
    os.chown(mp / "prog", 1234, 2345)  # before the chmod: a chown clears setuid
    os.chmod(mp / "prog", 0o4755)
    os.utime(mp / "prog", ns=(SEC * 1_000_000_000, SEC * 1_000_000_000 + NS))
    (mp / "whole").write_bytes(b"w")
    os.chmod(mp / "whole", 0o2640)
    os.utime(mp / "whole", ns=(SEC * 1_000_000_000, SEC * 1_000_000_000))
    os.mkdir(mp / "tmp")
    os.chmod(mp / "tmp", 0o1777)
    os.mkdir(mp / "grp", 0o750)
    os.chown(mp / "grp", 0, 2345)
    os.chmod(mp / "grp", 0o2770)
    os.symlink("grp/../prog", mp / "ln")
    os.mkfifo(mp / "fifo", 0o600)
    os.mknod(mp / "null", stat.S_IFCHR | 0o666, os.makedev(1, 3))
    (mp / "\u00fcn\u00efc\u00f8d\u00e9").write_bytes(b"u")

    keys = {"prog": "prog", "whole": "whole", "tmp": "tmp/", "grp": "grp/", "ln": "ln", "fifo": "fifo",
            "null": "null", "\u00fcn\u00efc\u00f8d\u00e9": "\u00fcn\u00efc\u00f8d\u00e9"}
    for n, key in keys.items():
        mode, uid, gid, mtime_ns, target = ossfs_view(bucket, key)
        st = os.lstat(mp / n)
        assert mode == st.st_mode, (n, oct(mode), oct(st.st_mode))
        assert (uid, gid) == (st.st_uid, st.st_gid), n
        assert mtime_ns == st.st_mtime_ns, n
        if stat.S_ISLNK(mode):
            assert target == os.readlink(mp / n)
    h = bucket.head_object("prog").headers
    assert h["x-oss-meta-mode"] == str(stat.S_IFREG | 0o4755)
    assert h["x-oss-meta-mtime"] == f"{SEC}.{NS:09d}"  # ossfs reads the part after '.' as nanoseconds
    assert bucket.head_object("whole").headers["x-oss-meta-mtime"] == str(SEC)
    d = bucket.head_object("tmp/")
    assert d.content_length == 0 and d.headers["Content-Type"] == "application/x-directory"
    assert int(d.headers["x-oss-meta-mode"]) == stat.S_IFDIR | 0o1777
    assert int(bucket.head_object("grp/").headers["x-oss-meta-mode"]) == stat.S_IFDIR | 0o2770
    assert bucket.get_object("ln").read() == b"grp/../prog"  # the body is the target (not symlink_in_meta)
    assert bucket.head_object("fifo").content_length == 0
    assert bucket.head_object("null").headers["x-oss-meta-rdev"] == str(os.makedev(1, 3))
    # and back: a fresh mount reads its own objects the same
    mp = mounts.remount(mp, name)
    assert os.lstat(mp / "prog").st_mode == stat.S_IFREG | 0o4755
    assert os.lstat(mp / "prog").st_mtime_ns == SEC * 1_000_000_000 + NS
    assert os.stat(mp / "grp").st_mode == stat.S_IFDIR | 0o2770
    assert os.readlink(mp / "ln") == "grp/../prog"
