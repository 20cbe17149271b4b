"""A FUSE writer on the host and the kernel's NFSv4.1 client in the guest on one bucket (issue 11 "Tests"): the same
scenario as test_fuse_and_nfs_clients.py (its job and limits) with the guest's mounts over v4.1 instead of v3. A file
closed on one side is read whole and current on the other within the documented cache times (SEMANTICS.md
"Caches").
"""
import threading
import time

import test_fuse_and_nfs_clients as v3
from e2e_support import Deadline, log, scaled

JOB = v3.JOB.replace("mount_v3 ", "mount_v41 ")
assert JOB.count("mount_v41 ") == 2 and "mount_v3" not in JOB


def test_fuse_writer_and_v41_client_see_each_others_closed_files(gateway, guest, mounts, new_bucket):
    name, bucket = new_bucket
    mp = mounts.mount(name, extra=[f"stat_cache_expire={v3.CACHE_S}", "attr_timeout=1", "entry_timeout=1",
                                   "negative_timeout=1"])
    (mp / "shared").write_bytes(v3.SHARED_V1)
    gw = gateway({"ossgw.exports.vm.options.stat_cache_expire": str(v3.CACHE_S)})
    seen, errors, writes = {}, [], {}

    def host_side():
        """Waits for the guest's file through FUSE, then writes its own and replaces `shared`."""
        try:
            deadline = Deadline(600)
            while not deadline.expired():
                try:
                    data = (mp / "from-nfs").read_bytes()
                except FileNotFoundError:
                    data = None
                if data == v3.FROM_NFS:
                    seen["from-nfs"] = int(time.time() * 1000)
                    break
                if data:  # before the guest's CLOSE the file may show empty (its OPEN created it), never partly
                    errors.append(f"from-nfs read through FUSE with {len(data)} of {len(v3.FROM_NFS)} bytes")
                time.sleep(0.1)
            else:
                errors.append("from-nfs never seen through FUSE")
                return
            (mp / "from-fuse").write_bytes(v3.FROM_FUSE)
            writes["from-fuse"] = int(time.time() * 1000)
            (mp / "shared").write_bytes(v3.SHARED_V2)
            writes["shared"] = int(time.time() * 1000)
        except Exception as e:  # reported below
            errors.append(repr(e))

    t = threading.Thread(target=host_side, daemon=True)
    t.start()
    rc, out = guest(JOB, env={"NFS_PORT": gw.nfs_port, "BUCKET": gw.bucket})
    t.join(scaled(30))
    assert rc == 0 and "BOTH OK" in out, out
    assert not errors, errors
    marks = {k: int(v) for k, v in (ln.split() for ln in out.splitlines()
                                      if ln.startswith(("NFS_CLOSED ", "NFS_SAW_")))}
    nfs_to_fuse = seen["from-nfs"] - marks["NFS_CLOSED"]
    fuse_to_nfs = marks["NFS_SAW_FUSE_FILE"] - writes["from-fuse"]
    shared_to_nfs = marks["NFS_SAW_SHARED_V2"] - writes["shared"]
    log(out[out.find("DEFAULT_LOOKUPCACHE_SAW"):].splitlines()[0] + " (v4.1)")
    log(f"v4.1: closed on NFS -> whole through FUSE: {nfs_to_fuse} ms; closed on FUSE -> whole over NFS: "
        f"{fuse_to_nfs} ms; replaced on FUSE -> current over NFS: {shared_to_nfs} ms")
    for what, ms in (("NFS -> FUSE", nfs_to_fuse), ("FUSE -> NFS (new file)", fuse_to_nfs),
                     ("FUSE -> NFS (replaced file)", shared_to_nfs)):
        assert ms <= v3.LIMIT_MS, f"{what}: {ms} ms, more than {v3.LIMIT_MS} ms"
    assert bucket.get_object("from-nfs").read() == v3.FROM_NFS
    assert bucket.get_object("shared").read() == v3.SHARED_V2
