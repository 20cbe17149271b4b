"""Reliability: hostile names through a FUSE mount (`./ossgw mount`, real syscalls), issue 9 items 2 and 4.

- Names that are not valid UTF-8 (`col\\xff.txt`, `col\\xfe.txt`, a truncated sequence, an encoded surrogate, an
  overlong `/`) are refused with EINVAL by every call (create, mkdir, stat, rename onto them, symlink; also a
  symlink target that is not UTF-8); they never become `col\\uFFFD.txt`, so two of them can never be merged into
  one object. A real U+FFFD (EF BF BD) is an ordinary name and works.
- Other hostile names round-trip exactly and stay distinct: newlines, tabs, leading dashes, backslashes, spaces at
  either end, `%`/`+`, emoji, NFC and NFD forms of one word (two objects, never normalised).
- Lengths: a 255-byte component works and 256 is ENAMETOOLONG (also in 2-byte characters); a 1,023-byte key works,
  written through FUSE or by the SDK (listed and read through FUSE), and 1,024 is ENAMETOOLONG.
The short and long forms are the same (a few seconds).
"""
import errno
import os

import pytest

from e2e_support import all_keys

INVALID = [b"col\xff.txt", b"col\xfe.txt", b"trunc\xc3", b"surrogate\xed\xa0\x80", b"overlong\xc0\xaf"]
ODD = ["line\nbreak", "tab\tname", "-rf", "--", "-", "back\\slash", " lead", "trail ", "per%25cent+plus",
       "emoji\U0001F600", "caf\u00e9", "cafe\u0301", "real\ufffdreplacement", "quote'\"", "star*?[x]"]


def expect_errno(code, fn, *args):
    with pytest.raises(OSError) as e:
        fn(*args)
    assert e.value.errno == code, f"{fn.__name__}{args}: {e.value}"


def test_invalid_utf8_names_are_einval_and_never_merge(mounts, new_bucket):
    name, bucket = new_bucket
    mp = os.fsencode(mounts.mount(name))
    d = mp + b"/bad"
    os.mkdir(d)
    with open(d + b"/ok.txt", "w") as f:
        f.write("ok")
    for bad in INVALID:
        p = d + b"/" + bad
        expect_errno(errno.EINVAL, os.open, p, os.O_CREAT | os.O_WRONLY, 0o644)
        expect_errno(errno.EINVAL, os.mkdir, p)
        expect_errno(errno.EINVAL, os.stat, p)
        expect_errno(errno.EINVAL, os.symlink, b"ok.txt", p)
        expect_errno(errno.EINVAL, os.rename, d + b"/ok.txt", p)
    # a symlink's target is stored as UTF-8 too: one that is not would come back changed
    expect_errno(errno.EINVAL, os.symlink, b"target\xff", d + b"/badlink")
    # a real U+FFFD is an ordinary name: it works, and is not what an invalid name was turned into
    real = d + "/col\ufffd.txt".encode()
    with open(real, "wb") as f:
        f.write(b"real replacement character")
    with open(real, "rb") as f:
        assert f.read() == b"real replacement character"
    expect_errno(errno.EINVAL, os.stat, d + b"/col\xff.txt")
    assert sorted(os.listdir(d)) == sorted([b"ok.txt", "col\ufffd.txt".encode()])
    assert sorted(all_keys(bucket, "bad/")) == ["bad/", "bad/col\ufffd.txt", "bad/ok.txt"]


def test_odd_names_round_trip_and_stay_distinct(mounts, new_bucket):
    name, bucket = new_bucket
    mp = mounts.mount(name)
    d = os.path.join(mp, "odd")
    os.mkdir(d)
    for i, n in enumerate(ODD):
        with open(os.path.join(d, n), "w") as f:
            f.write(f"content {i}")
    os.mkdir(os.path.join(d, "-dir\nwith newline"))
    assert sorted(os.listdir(d)) == sorted(ODD + ["-dir\nwith newline"])
    for i, n in enumerate(ODD):
        with open(os.path.join(d, n)) as f:
            assert f.read() == f"content {i}", repr(n)
    keys = set(all_keys(bucket, "odd/"))
    assert {"odd/" + n for n in ODD} <= keys
    assert "odd/caf\u00e9" in keys and "odd/cafe\u0301" in keys  # NFC and NFD: two objects
    nfd = ODD.index("cafe\u0301")
    assert bucket.get_object("odd/cafe\u0301").read() == f"content {nfd}".encode()


def test_lengths_255_byte_components_and_1023_byte_keys(mounts, new_bucket):
    name, bucket = new_bucket
    mp = mounts.mount(name)
    d = os.path.join(mp, "len")
    os.mkdir(d)
    for ok, too_long in [("a" * 255, "a" * 256), ("\u00e9" * 127 + "a", "\u00e9" * 128)]:
        with open(os.path.join(d, ok), "w") as f:
            f.write("x")
        assert os.path.getsize(os.path.join(d, ok)) == 1
        expect_errno(errno.ENAMETOOLONG, os.open, os.path.join(d, too_long), os.O_CREAT | os.O_WRONLY, 0o644)
        expect_errno(errno.ENAMETOOLONG, os.mkdir, os.path.join(d, too_long))
    # 1,023-byte keys: four 250-byte directories (1,004 bytes with slashes) and a 19-byte name
    dirs = "/".join(["d" * 250] * 4)
    name19 = "f" * (1023 - len(dirs) - 1)
    key = f"{dirs}/{name19}"
    assert len(key.encode()) == 1023
    bucket.put_object(key, b"written by the SDK")
    path = os.path.join(mp, key)
    assert name19 in os.listdir(os.path.join(mp, dirs))
    with open(path, "rb") as f:
        assert f.read() == b"written by the SDK"
    with open(path, "ab") as f:
        f.write(b", appended through FUSE")
    assert bucket.get_object(key).read() == b"written by the SDK, appended through FUSE"
    expect_errno(errno.ENAMETOOLONG, os.open, path + "g", os.O_CREAT | os.O_WRONLY, 0o644)
    os.rename(path, os.path.join(mp, dirs, "g" * len(name19)))
    assert bucket.get_object(f"{dirs}/{'g' * len(name19)}").read() == b"written by the SDK, appended through FUSE"
    expect_errno(errno.ENAMETOOLONG, os.mkdir, path)  # a directory's marker needs one byte more for its slash
