"""ONC RPC over raw TCP sockets (RFC 5531 record marking), for tests that must send what no client library sends:
AUTH_NONE calls, pipelined calls whose replies are never read, partial records, garbage. Shared by the e2e and the
reliability suites."""
import socket
import struct

from deadlines import scaled

NFS_PROGRAM, MOUNT_PROGRAM = 100003, 100005
MOUNTPROC3_MNT = 1
NFSPROC3_LOOKUP, NFSPROC3_READ = 3, 6
AUTH_NONE, AUTH_SYS = 0, 1
LAST = 0x80000000


def xdr_string(b):
    if isinstance(b, str):
        b = b.encode()
    return struct.pack(">I", len(b)) + b + b"\0" * (-len(b) % 4)


def auth_sys(uid=1000, gid=1000, machine="test"):
    body = struct.pack(">I", 0) + xdr_string(machine) + struct.pack(">III", uid, gid, 0)
    return struct.pack(">II", AUTH_SYS, len(body)) + body


def auth_none():
    return struct.pack(">II", AUTH_NONE, 0)


def call(xid, prog, vers, proc, args=b"", cred=None):
    """One CALL message (no record mark); AUTH_SYS uid/gid 1000 unless `cred` is given."""
    return (struct.pack(">IIIIII", xid, 0, 2, prog, vers, proc) + (cred if cred is not None else auth_sys())
            + auth_none() + args)


def record(msg):
    """`msg` as one last fragment."""
    return struct.pack(">I", LAST | len(msg)) + msg


def connect(port, host="127.0.0.1", timeout=10, rcvbuf=None, source=None):
    """A TCP connection to host:port whose connect and reads give up after `timeout` quiet-machine seconds, scaled;
    `source` an address of this host to connect from (e.g. "127.0.0.2", another loopback address, to act as a second
    client machine)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    if source:
        s.bind((source, 0))
    s.settimeout(scaled(timeout))
    s.connect((host, port))
    return s


def _read_exact(s, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise EOFError("connection closed by the server")
        buf += chunk
    return bytes(buf)


def read_reply(s):
    """One reply record: (xid, accepted, stat, rest). accepted: stat is accept_stat, rest the results; rejected
    (MSG_DENIED): stat is reject_stat, rest what follows it (for AUTH_ERROR the auth_stat first)."""
    data = b""
    while True:
        mark = struct.unpack(">I", _read_exact(s, 4))[0]
        data += _read_exact(s, mark & 0x7fffffff)
        if mark & LAST:
            break
    xid, _mtype, reply_stat = struct.unpack(">III", data[:12])
    if reply_stat != 0:
        return xid, False, struct.unpack(">I", data[12:16])[0], data[16:]
    vlen = struct.unpack(">I", data[16:20])[0]
    at = 20 + vlen + (-vlen % 4)
    return xid, True, struct.unpack(">I", data[at:at + 4])[0], data[at + 4:]


def rpc(s, xid, prog, vers, proc, args=b"", cred=None):
    s.sendall(record(call(xid, prog, vers, proc, args, cred)))
    return read_reply(s)


def mnt(s, path, cred=None):
    """MOUNT v3 MNT: (accepted, stat, fhandle or None)."""
    _xid, accepted, stat, rest = rpc(s, 1, MOUNT_PROGRAM, 3, MOUNTPROC3_MNT, xdr_string(path), cred)
    if not accepted or stat != 0:
        return accepted, stat, None
    status = struct.unpack(">I", rest[:4])[0]
    if status != 0:
        return accepted, status, None
    n = struct.unpack(">I", rest[4:8])[0]
    return accepted, 0, rest[8:8 + n]


def fh3(handle):
    return xdr_string(handle)


def lookup(s, dir_fh, name):
    """NFSv3 LOOKUP: the object's handle, or raises with the nfsstat3."""
    _xid, accepted, stat, rest = rpc(s, 2, NFS_PROGRAM, 3, NFSPROC3_LOOKUP, fh3(dir_fh) + xdr_string(name))
    assert accepted and stat == 0, (accepted, stat)
    status = struct.unpack(">I", rest[:4])[0]
    assert status == 0, f"LOOKUP {name}: nfsstat3 {status}"
    n = struct.unpack(">I", rest[4:8])[0]
    return rest[8:8 + n]


def read_args(fh, offset, count):
    return fh3(fh) + struct.pack(">QI", offset, count)


def closed_by_server(s, timeout):
    """True if the server closes `s` (EOF or reset) within `timeout` quiet-machine seconds, scaled; replies still
    arriving are skipped."""
    s.settimeout(scaled(timeout))
    try:
        while s.recv(65536):
            pass
        return True
    except socket.timeout:
        return False
    except OSError:
        return True
