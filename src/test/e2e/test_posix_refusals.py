"""End-to-end: what a program sees through `./ossgw mount` for the operations OSS cannot do the POSIX way (issue 12:
one errno everywhere, written in SEMANTICS.md), checked with real syscalls and from the OSS side with oss2."""
import errno
import os

import pytest

from e2e_support import all_keys


def test_hard_link_is_eperm_and_creates_nothing(mounts, new_bucket):
    name, bucket = new_bucket
    mp = mounts.mount(name)
    src = mp / "a.txt"
    src.write_bytes(b"a")
    with pytest.raises(OSError) as e:
        os.link(src, mp / "b.txt")
    assert e.value.errno == errno.EPERM, os.strerror(e.value.errno)
    assert not (mp / "b.txt").exists()
    assert all_keys(bucket) == ["a.txt"]


def test_truncate_past_the_largest_object_is_efbig_and_keeps_the_file(mounts, new_bucket):
    name, bucket = new_bucket
    mp = mounts.mount(name)
    f = mp / "t.bin"
    f.write_bytes(b"keep")
    with pytest.raises(OSError) as e:
        os.truncate(f, 999_999_999_999_999)  # the case: was EIO ("extend spool: File too large")
    assert e.value.errno == errno.EFBIG, os.strerror(e.value.errno)
    assert os.stat(f).st_size == 4
    assert bucket.get_object("t.bin").read() == b"keep"


def test_a_path_over_the_key_limit_is_enametoolong_and_logged_once_with_the_limit(mounts, new_bucket):
    name, bucket = new_bucket
    mp = mounts.mount(name)
    log = mounts.workdir / f"mount-{name}-{mounts.count}.log"
    deep = mp
    for c in "abcd":
        deep = deep / (c * 200)
    os.makedirs(deep)  # 4 x 201 = 804 bytes of key, the marker's slash included
    for n in range(5):
        with pytest.raises(OSError) as e:
            open(deep / f"{n}{'z' * 219}", "w").close()  # 804 + 220 = 1,024 bytes of key
        assert e.value.errno == errno.ENAMETOOLONG, os.strerror(e.value.errno)
    with pytest.raises(OSError) as e:
        os.mkdir(deep / ("d" * 219))  # 1,023 bytes, and the marker's slash
    assert e.value.errno == errno.ENAMETOOLONG
    # exactly 1,023 bytes of key; a byte in it, so its close uploads it (a bare new file is uploaded at RELEASE,
    # just after close(2) returns: SEMANTICS.md "No zero-byte PUT at create")
    (deep / ("f" * 219)).write_bytes(b"x")
    lines = [l for l in log.read_text(errors="replace").splitlines() if "ENAMETOOLONG" in l]
    assert len(lines) == 1, lines
    assert "1023 bytes" in lines[0]
    assert bucket.object_exists("/".join(c * 200 for c in "abcd") + "/" + "f" * 219)
