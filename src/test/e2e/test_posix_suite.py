"""ossgw's POSIX suite (src/test/posix, issue 12) over `./ossgw mount` under both FUSE bindings, as root with
allow_other (the permission cases drop to other uids) and default_permissions (the default). The suite exits non-zero
on any outcome that is neither POSIX's nor an intentional difference listed in its DIFFERENCES table (SEMANTICS.md
"POSIX conformance"). Then (jnr) the mount is restarted and the st_ino of renamed names is checked again.
About 15 s of syscalls per binding; the rest is mounting."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_support import scaled

SUITE = Path(__file__).resolve().parents[1] / "posix" / "posix_suite.py"
BINDINGS = ["jnr", "jfuse"]


@pytest.fixture(params=BINDINGS)
def binding(request, monkeypatch):
    monkeypatch.setenv("OSSGW_JAVA_OPTS", f"-Dio.ossgw.fuse.binding={request.param}")
    return request.param


def suite(*args):
    r = subprocess.run([sys.executable, str(SUITE), "--transport", "fuse", *map(str, args)], capture_output=True,
                       text=True, timeout=scaled(600))
    print(r.stdout)
    print(r.stderr, file=sys.stderr)
    return r


@pytest.mark.skipif(os.geteuid() != 0, reason="the POSIX suite runs as root")
def test_posix_suite_over_fuse(mounts, new_bucket, binding, workdir):
    name, _ = new_bucket
    mp = mounts.mount(name, extra=("allow_other",))
    for d in (workdir.parent, workdir):  # the permission cases run as other users, who must reach the mount point
        os.chmod(d, 0o755)
    r = suite(mp)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    total = [l for l in r.stdout.splitlines() if l.startswith("TOTAL")]
    assert total and " 0 failed" in total[0], total
    if binding != "jnr":
        return  # st_ino across a restart is the engine's: one binding suffices (test_inode_numbers has both)
    inodes = workdir / "inodes.txt"
    assert suite("--save-inodes", inodes, mp).returncode == 0
    mp = mounts.remount(mp, name, extra=("allow_other",))
    r = suite("--check-inodes", inodes, mp)
    assert r.returncode == 0, r.stdout[-4000:]
