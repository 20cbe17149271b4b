"""End-to-end: keys another tool put straight into the bucket that no path can show one for one (issue 21, D7;
SEMANTICS.md "Names the gateway cannot show"): objects `x`, `x/` and `x/child.txt` list `x` as the directory (as ossfs
does), so `x/child.txt` is reachable; keys with an empty, `.` or `..` component are left out, and each directory
holding such keys is logged once."""
import os
import subprocess


def test_a_directory_hides_a_file_of_its_name_and_unnamable_keys_are_left_out(mounts, new_bucket, workdir):
    name, bucket = new_bucket
    for k in ["x", "x/", "x/child.txt", "a//b", "./c", "../d", "w"]:
        bucket.put_object(k, b"" if k.endswith("/") else f"body of {k}".encode())
    mp = mounts.mount(name)
    assert sorted(os.listdir(mp)) == ["a", "w", "x"]
    assert (mp / "x").is_dir()
    assert (mp / "x" / "child.txt").read_bytes() == b"body of x/child.txt"
    assert os.listdir(mp / "x") == ["child.txt"]
    assert os.listdir(mp / "a") == [], "a//b has an empty component"
    out = subprocess.run(["ls", "-l", str(mp)], capture_output=True, text=True, check=True).stdout
    assert [line.split()[-1] for line in out.splitlines()[1:]] == ["a", "w", "x"]
    os.listdir(mp)  # listed again: logged once
    logs = "".join(p.read_text(errors="replace") for p in workdir.glob(f"mount-{name}-*.log"))
    assert logs.count("directory /: 3 object name(s) cannot be shown") == 1, logs[-3000:]
    assert "'x' (a directory 'x/' has its name and is shown)" in logs
    assert logs.count("directory /a: 1 object name(s) cannot be shown") == 1
