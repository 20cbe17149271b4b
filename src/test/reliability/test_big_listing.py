"""Big directories in bounded memory (issue 21): one directory of N objects (N = 15,000 short, 200,000 long;
OSSGW_RELIABILITY=long), more than a gateway started with memory_limit=256 keeps whole (about 4 MB of listing: 5,000
to 11,000 entries), so its listing is streamed page by page. Listed through a FUSE mount (os.scandir: getdents, FUSE READDIR in offset mode) and through an NFSv3
export (READDIRPLUS with cookies, over raw RPC) while names are added and removed during the listing: every name that
exists throughout is listed exactly once, a name removed before the listing reaches it is not listed, a name added
ahead of it is, and the gateway's peak RSS (VmHWM) stays within memory_limit + 96 MB (SEMANTICS.md "Memory").
"""
import os
import re
import struct
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import onc_rpc
from conftest import scale
from e2e_support import daemon_pids, scaled
from nfs_gateway import quick_nfs_gateway

MEMORY_LIMIT_MB = 256
OVERHEAD_MB = 96  # SEMANTICS.md "Memory": the JVM's own memory above memory_limit
N = scale(15_000, 200_000)
# seeding N objects with oss2 takes a minute on a quiet 2-core machine, several under load
pytestmark = pytest.mark.timeout(scale(1800, 7200))
NFSPROC3_READDIRPLUS, NFSPROC3_CREATE, NFSPROC3_REMOVE = 17, 8, 12


def name(i):
    return f"f{i:07d}"


def seed(bucket, prefix, n):
    body = b"x" * 1024
    with ThreadPoolExecutor(32) as pool:
        list(pool.map(lambda i: bucket.put_object(f"{prefix}{name(i)}", body), range(n)))


def vm_hwm_mb(pid):
    m = re.search(r"^VmHWM:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text(), re.M)
    return int(m.group(1)) // 1024


def check_listing(seen, removed_ahead, added_ahead, removed_behind, added_behind):
    """The listing's names against what changed during it: each name once; changes ahead of the position shown,
    changes behind it (already listed, or sorting before it) not repeated."""
    assert len(seen) == len(set(seen)), "a name was listed twice"
    got = set(seen)
    expected = {name(i) for i in range(N)} - set(removed_ahead)
    missing = expected - got
    assert not missing, f"{len(missing)} names that existed throughout were not listed, e.g. {sorted(missing)[:5]}"
    assert not got & set(removed_ahead), "a name removed ahead of the listing was listed"
    assert set(added_ahead) <= got, "a name added ahead of the listing was not listed"
    assert not got & set(added_behind), "a name added behind the listing's position was listed"
    assert set(removed_behind) <= got, "a name listed before its removal is missing"


def changes(position):
    """Names to remove and add, ahead of and behind entry `position` (ahead: far enough that no client buffer holds
    them yet)."""
    ahead = position + N // 3
    removed_ahead = [name(i) for i in range(ahead, ahead + 50)]
    added_ahead = [name(ahead + 100) + "-new"]
    removed_behind = [name(i) for i in range(10, 20)]
    added_behind = [name(5) + "-new"]
    return removed_ahead, added_ahead, removed_behind, added_behind


def test_a_big_directory_lists_each_name_once_within_the_memory_promise_over_fuse(mounts, new_bucket, workdir):
    bucket_name, bucket = new_bucket
    seed(bucket, "big/", N)
    mp = mounts.mount(bucket_name, extra=[f"memory_limit={MEMORY_LIMIT_MB}"])  # the default mode: a HEAD per object
    (pid,) = daemon_pids(mp)
    d = mp / "big"
    seen = []
    removed_ahead, added_ahead, removed_behind, added_behind = changes(N // 10)
    with os.scandir(d) as it:
        for entry in it:
            seen.append(entry.name)
            if len(seen) == N // 10:
                for n in removed_ahead + removed_behind:
                    os.unlink(d / n)
                for n in added_ahead + added_behind:
                    (d / n).write_bytes(b"new")
    check_listing(seen, removed_ahead, added_ahead, removed_behind, added_behind)
    peak = vm_hwm_mb(pid)
    assert peak <= MEMORY_LIMIT_MB + OVERHEAD_MB, f"peak RSS {peak} MB over {MEMORY_LIMIT_MB} + {OVERHEAD_MB} MB"
    # ls -l (a listing and a stat of every entry) stays within it too
    entries = N - len(removed_ahead) - len(removed_behind) + len(added_ahead) + len(added_behind)
    ls = subprocess.run(["ls", "-l", str(d)], capture_output=True, check=True,
                        timeout=scaled(600)).stdout.splitlines()
    assert len(ls) == entries + 1  # and "total"
    peak = vm_hwm_mb(pid)
    assert peak <= MEMORY_LIMIT_MB + OVERHEAD_MB, f"peak RSS {peak} MB over {MEMORY_LIMIT_MB} + {OVERHEAD_MB} MB"


def readdirplus(s, xid, fh, cookie, verf, maxcount=16384):
    """One READDIRPLUS3 call: (names, last cookie, cookieverf, eof)."""
    args = onc_rpc.fh3(fh) + struct.pack(">Q", cookie) + verf + struct.pack(">II", maxcount // 4, maxcount)
    _x, accepted, stat, r = onc_rpc.rpc(s, xid, onc_rpc.NFS_PROGRAM, 3, NFSPROC3_READDIRPLUS, args)
    assert accepted and stat == 0
    status = struct.unpack(">I", r[:4])[0]
    assert status == 0, f"READDIRPLUS: nfsstat3 {status}"
    at = 4
    if struct.unpack(">I", r[at:at + 4])[0]:
        at += 84  # fattr3
    at += 4
    verf = r[at:at + 8]
    at += 8
    names = []
    while struct.unpack(">I", r[at:at + 4])[0]:
        at += 4 + 8  # value_follows, fileid
        n = struct.unpack(">I", r[at:at + 4])[0]
        names.append(r[at + 4:at + 4 + n].decode())
        at += 4 + n + (-n % 4)
        cookie = struct.unpack(">Q", r[at:at + 8])[0]
        at += 8
        if struct.unpack(">I", r[at:at + 4])[0]:
            at += 84
        at += 4
        if struct.unpack(">I", r[at:at + 4])[0]:
            n = struct.unpack(">I", r[at + 4:at + 8])[0]
            at += 4 + n + (-n % 4)
        at += 4
    eof = struct.unpack(">I", r[at + 4:at + 8])[0] == 1
    return names, cookie, verf, eof


def nfs_call(s, xid, proc, args):
    _x, accepted, stat, r = onc_rpc.rpc(s, xid, onc_rpc.NFS_PROGRAM, 3, proc, args)
    assert accepted and stat == 0 and struct.unpack(">I", r[:4])[0] == 0, (proc, accepted, stat, r[:4])


def test_a_big_directory_lists_each_name_once_within_the_memory_promise_over_nfs(emulator, ossgw_built, new_bucket,
                                                                                 workdir):
    bucket_name, bucket = new_bucket
    seed(bucket, "big/", N)
    # uid/gid 1000: the objects (written without ossfs metadata) belong to the RPC caller below
    with quick_nfs_gateway(emulator, bucket_name, workdir, "big-nfs",
                           options=f"memory_limit={MEMORY_LIMIT_MB},readdir_optimize,uid=1000,gid=1000") as gw:
        s = onc_rpc.connect(gw.port, timeout=120)
        try:
            accepted, stat, root = onc_rpc.mnt(s, gw.path)
            assert accepted and stat == 0, (accepted, stat)
            d = onc_rpc.lookup(s, root, "big")
            seen, cookie, verf, xid = [], 0, b"\0" * 8, 10
            removed_ahead = added_ahead = removed_behind = added_behind = None
            while True:
                xid += 1
                names, cookie, verf, eof = readdirplus(s, xid, d, cookie, verf)
                seen += [n for n in names if n not in (".", "..")]
                if removed_ahead is None and len(seen) >= N // 10:
                    removed_ahead, added_ahead, removed_behind, added_behind = changes(len(seen))
                    for n in removed_ahead + removed_behind:
                        xid += 1
                        nfs_call(s, xid, NFSPROC3_REMOVE, onc_rpc.fh3(d) + onc_rpc.xdr_string(n))
                    for n in added_ahead + added_behind:
                        xid += 1  # CREATE UNCHECKED, mode 0644
                        nfs_call(s, xid, NFSPROC3_CREATE, onc_rpc.fh3(d) + onc_rpc.xdr_string(n)
                                 + struct.pack(">IIIIIIII", 0, 1, 0o644, 0, 0, 0, 0, 0))
                if eof:
                    break
        finally:
            s.close()
        check_listing(seen, removed_ahead, added_ahead, removed_behind, added_behind)
        peak = vm_hwm_mb(gw.pid)
        assert peak <= MEMORY_LIMIT_MB + OVERHEAD_MB, f"peak RSS {peak} MB over {MEMORY_LIMIT_MB} + {OVERHEAD_MB} MB"
