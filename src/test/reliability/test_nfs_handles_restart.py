"""Reliability: NFSv3 file handles given just before the gateway stops stay valid after its restart, for a clean stop
(SIGTERM) and for kill -9 (SEMANTICS.md "NFS file handles": a handle the client holds is never lost by a crash).

The handle table writes nothing for most handles (a new plain file gets a named handle: its parent directory's number
and its name, issue 21/22) and commits at the end of each call that recorded something (a directory, a name too long
for a named handle). Each phase makes every kind through the real NFSv3 procedures (raw ONC RPC, onc_rpc.py) on a
quick-form `./ossgw serve --nfs`, stops the gateway right after the last reply, starts it again on the same state
directory and checks that every handle of every phase still answers GETATTR and READ with its bytes.
"""
import os
import signal
import struct

import onc_rpc
from nfs_gateway import quick_nfs_gateway

GETATTR, READ, WRITE, CREATE, MKDIR, COMMIT = 1, 6, 7, 8, 9, 21
FILE_SYNC = 2
LONG = "a-name-longer-than-a-named-handle-carries-"  # over FileHandles.MAX_NAME bytes: a recorded handle


class Client:
    """NFSv3 calls on one connection; each returns the reply's body after a NFS3_OK status (asserted)."""

    def __init__(self, gw):
        self.s = onc_rpc.connect(gw.port)
        self.xid = 10
        accepted, stat, self.root = onc_rpc.mnt(self.s, gw.path)
        assert accepted and stat == 0, (accepted, stat)

    def call(self, proc, args, what):
        self.xid += 1
        _xid, accepted, stat, rest = onc_rpc.rpc(self.s, self.xid, onc_rpc.NFS_PROGRAM, 3, proc, args,
                                                 onc_rpc.auth_sys())
        assert accepted and stat == 0, (what, accepted, stat)
        status = struct.unpack(">I", rest[:4])[0]
        return status, rest[4:]

    def ok(self, proc, args, what):
        status, body = self.call(proc, args, what)
        assert status == 0, f"{what}: nfsstat3 {status}"
        return body

    @staticmethod
    def _new_handle(body):
        follows = struct.unpack(">I", body[:4])[0]
        assert follows == 1, "no handle in the reply"
        n = struct.unpack(">I", body[4:8])[0]
        return body[8:8 + n]

    def mkdir(self, dir_fh, name):
        sattr = struct.pack(">II", 1, 0o755) + struct.pack(">IIIII", 0, 0, 0, 0, 0)
        return self._new_handle(self.ok(MKDIR, onc_rpc.fh3(dir_fh) + onc_rpc.xdr_string(name.encode()) + sattr,
                                        f"MKDIR {name}"))

    def put(self, dir_fh, name, data):
        """CREATE (UNCHECKED, mode 0644), one FILE_SYNC WRITE, COMMIT: the file's handle (from CREATE)."""
        how = struct.pack(">I", 0) + struct.pack(">II", 1, 0o644) + struct.pack(">IIIII", 0, 0, 0, 0, 0)
        fh = self._new_handle(self.ok(CREATE, onc_rpc.fh3(dir_fh) + onc_rpc.xdr_string(name.encode()) + how,
                                      f"CREATE {name}"))
        self.ok(WRITE, onc_rpc.fh3(fh) + struct.pack(">QII", 0, len(data), FILE_SYNC) + onc_rpc.xdr_string(data),
                f"WRITE {name}")
        self.ok(COMMIT, onc_rpc.fh3(fh) + struct.pack(">QI", 0, 0), f"COMMIT {name}")
        return fh

    def read(self, fh, what):
        status, body = self.call(GETATTR, onc_rpc.fh3(fh), f"GETATTR {what}")
        assert status == 0, f"GETATTR of {what}'s handle after the restart: nfsstat3 {status}"
        size = struct.unpack(">Q", body[20:28])[0]
        body = self.ok(READ, onc_rpc.read_args(fh, 0, 4096), f"READ {what}")
        at = 4 + (84 if struct.unpack(">I", body[:4])[0] else 0)
        count = struct.unpack(">I", body[at:at + 4])[0]
        n = struct.unpack(">I", body[at + 8:at + 12])[0]
        assert n == count
        return size, body[at + 12:at + 12 + n]

    def close(self):
        self.s.close()


def make_handles(gw, tag):
    """Every kind of handle, each written to the handle table only if the procedure records it: {what: (fh, data)}."""
    c = Client(gw)
    try:
        made = {}
        d = c.mkdir(c.root, f"dir-{tag}")
        for what, dir_fh, name in ((f"/{tag}.txt", c.root, f"{tag}.txt"),
                                   (f"/dir-{tag}/in-{tag}", d, f"in-{tag}"),
                                   (f"/{LONG}{tag}", c.root, LONG + tag)):
            data = f"bytes of {what}".encode()
            made[what] = (c.put(dir_fh, name, data), data)
        return made
    finally:
        c.close()


def check_handles(gw, handles):
    c = Client(gw)
    try:
        for what, (fh, data) in handles.items():
            assert c.read(fh, what) == (len(data), data), what
    finally:
        c.close()


def test_handles_given_before_kill9_and_a_clean_stop_resolve_after_the_restart(emulator, ossgw_built, new_bucket,
                                                                                 workdir):
    name, _bucket = new_bucket
    handles = {}
    with quick_nfs_gateway(emulator, name, workdir, "gw") as gw:
        handles.update(make_handles(gw, "killed"))
        os.kill(gw.pid, signal.SIGKILL)  # right after the last reply: nothing waits for a background commit
        gw.killed = True
    with quick_nfs_gateway(emulator, name, workdir, "gw") as gw:
        check_handles(gw, handles)
        handles.update(make_handles(gw, "stopped"))
    # the context ended the gateway with SIGTERM (a clean stop)
    with quick_nfs_gateway(emulator, name, workdir, "gw") as gw:
        check_handles(gw, handles)
