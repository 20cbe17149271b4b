"""End-to-end: link counts through `./ossgw mount` (issue 12 item 4): st_nlink is 1 for directories (the mount root,
a directory with subdirectories, an implicit directory) as for files, the convention for "unknown" that find and fts
understand, as over NFS."""
import os
import subprocess


def test_directory_link_count_is_one(mounts, new_bucket):
    name, bucket = new_bucket
    bucket.put_object("implicit/x.txt", b"x")
    mp = mounts.mount(name)
    (mp / "d" / "a").mkdir(parents=True)
    (mp / "d" / "b").mkdir()
    (mp / "d" / "f").write_bytes(b"f")
    for p in (mp, mp / "d", mp / "d" / "a", mp / "implicit"):
        assert os.stat(p).st_nlink == 1, p
    assert os.stat(mp / "d" / "f").st_nlink == 1
    # find descends into every subdirectory (no leaf optimisation from a link count)
    out = subprocess.run(["find", str(mp), "-mindepth", "1"], capture_output=True, text=True, check=True).stdout
    found = sorted(os.path.relpath(p, mp) for p in out.split())
    assert found == ["d", "d/a", "d/b", "d/f", "implicit", "implicit/x.txt"]
