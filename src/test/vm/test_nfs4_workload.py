"""The kernel-client workload over NFSv4.1 (issue 11 "Tests"): `mount -t nfs -o vers=4.1,port=P`, the steps of
jobs/nfs-workload.sh (dd with checksums, small files, tar x and cp -a compared by manifest, renames, rm -rf, chmod,
touch -d, ln -s, ln refused with EPERM, truncate, append, df, umount + mount + verify), asserted in the guest and on
the bucket; and the same workload over v3 and v4.1 side by side in one guest, with the OSS requests of each step
(docs/nfs-benchmarks.md; OSSGW_VM=long or OSSGW_VM_COMPARE=1).
"""
import json
import os
import re

import pytest

from conftest import HERE, LONG, scale
from e2e_support import all_keys, log

WORKLOAD = HERE / "jobs" / "nfs-workload.sh"
MiB = 1 << 20


def step_times(out):
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^TIME (\S+) ([0-9.]+)$", out, re.M)}


def oss_requests(out):
    """{step: {operation: count}} from the job's "OSS step {json}" lines (bytes and zero counts left out)."""
    steps = {}
    for m in re.finditer(r"^OSS (\S+) (\{.*\})$", out, re.M):
        counts = json.loads(m.group(2))
        steps[m.group(1)] = {k: v for k, v in counts.items() if v and not k.startswith("Bytes")}
    return steps


def assert_bucket(bucket, prefix, dd_mb, small):
    keys = set(all_keys(bucket))
    assert bucket.head_object(prefix + "big").content_length == dd_mb * MiB
    assert len([k for k in keys if k.startswith(prefix + "small/") and k != prefix + "small/"]) == small
    assert bucket.get_object(prefix + "small/f1").read() == b"small file 1\n"
    for tree in ("tarx/tree/", "cpa/"):
        for k in ("a/file1", "a/b/c/file1", "d/e/file1", "private/file3", "a/link-to-d", "dangling", "empty/"):
            assert prefix + tree + k in keys, f"{prefix + tree + k} missing in the bucket"
    assert not [k for k in keys if k.startswith(prefix + "doomed/")], "rm -rf left objects"
    for gone in ("p/hard", "p/one", "p/q/r/inner"):
        assert prefix + gone not in keys, gone
    assert bucket.get_object(prefix + "p/q2/r/inner").read() == b"inner\n"
    assert bucket.get_object(prefix + "p/append").read() == b"first\nsecond\n"
    assert prefix + "p/sym" in keys


def test_v41_mount_runs_the_workload(gateway, guest, new_bucket):
    _, bucket = new_bucket
    gw = gateway()
    # CI: smaller than the v3 test's 200 MB / 1,000 files (the lane's budget); the long form is the v3 test's
    dd_mb, small = scale(32, 1024), scale(200, 3000)
    rc, out = guest(WORKLOAD.read_text(), env={"NFS_PORT": gw.nfs_port, "BUCKET": gw.bucket, "DD_MB": dd_mb,
                                               "SMALL_FILES": small})
    assert rc == 0 and "WORKLOAD OK 4.1" in out, out
    log(f"NFSv4.1 workload times in the guest ({dd_mb} MB, {small} files): {step_times(out)}")
    assert_bucket(bucket, "", dd_mb, small)
    assert "Exception" not in gw.log_text(), gw.log_text()


COMPARE = r"""
set -e
export NFS_VERS=3 SUBDIR=v3
bash /job/nfs-workload.sh
export NFS_VERS=4.1 SUBDIR=v41
bash /job/nfs-workload.sh
echo COMPARE OK
"""


@pytest.mark.skipif(not LONG and not os.environ.get("OSSGW_VM_COMPARE"),
                    reason="the v3/v4.1 comparison runs with OSSGW_VM=long or OSSGW_VM_COMPARE=1")
def test_v3_and_v41_side_by_side(gateway, guest, new_bucket, emulator):
    """One guest, one gateway: the workload over v3 then over v4.1 (each in its own directory of the bucket), the
    guest's time and the OSS requests of every step, for docs/nfs-benchmarks.md."""
    _, bucket = new_bucket
    gw = gateway()
    dd_mb = int(os.environ.get("OSSGW_VM_COMPARE_MB", scale(200, 1024)))
    small = int(os.environ.get("OSSGW_VM_COMPARE_FILES", scale(1000, 3000)))
    port = emulator.endpoint.rsplit(":", 1)[1].strip("/")
    rc, out = guest(COMPARE, env={"NFS_PORT": gw.nfs_port, "BUCKET": gw.bucket, "DD_MB": dd_mb,
                                  "SMALL_FILES": small, "EMU_PORT": port}, files=(WORKLOAD,), timeout=1800)
    assert rc == 0 and "COMPARE OK" in out, out
    halves = out.split("WORKLOAD OK 3")
    for vers, part in (("3", halves[0]), ("4.1", halves[1])):
        log(f"NFS {vers} ({dd_mb} MB, {small} files) times: {step_times(part)}")
        log(f"NFS {vers} OSS requests per step: {oss_requests(part)}")
    assert_bucket(bucket, "v3/", dd_mb, small)
    assert_bucket(bucket, "v41/", dd_mb, small)
