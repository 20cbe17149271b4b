"""A minimal NFSv4.1 client over onc_rpc (RFC 8881 XDR, encoded by hand): NULL, COMPOUND headers and the session
operations EXCHANGE_ID and CREATE_SESSION, enough to check that a server answers version 4 on its port. Tests only."""
import struct

import onc_rpc

NFS4_VERSION = 4
NFSPROC4_NULL, NFSPROC4_COMPOUND = 0, 1
OP_EXCHANGE_ID, OP_CREATE_SESSION = 42, 43
NFS4_OK = 0
NFS4ERR_MINOR_VERS_MISMATCH = 10021
PROG_MISMATCH = 2


def u32(v):
    return struct.pack(">I", v)


def u64(v):
    return struct.pack(">Q", v)


def exchange_id(owner, verifier=b"ossgwtst"):
    """EXCHANGE_ID4args: client_owner4 (verifier4, co_ownerid), eia_flags 0, SP4_NONE, no implementation id."""
    assert len(verifier) == 8
    return u32(OP_EXCHANGE_ID) + verifier + onc_rpc.xdr_string(owner) + u32(0) + u32(0) + u32(0)


def channel_attrs(max_requests=8):
    """channel_attrs4: headerpadsize, maxrequestsize, maxresponsesize, maxresponsesize_cached, maxoperations,
    maxrequests, no rdma_ird."""
    return u32(0) + u32(1 << 20) + u32(1 << 20) + u32(64 << 10) + u32(16) + u32(max_requests) + u32(0)


def create_session(clientid, sequenceid):
    """CREATE_SESSION4args with no back channel use: cb_program 0, one AUTH_NONE callback security."""
    return (u32(OP_CREATE_SESSION) + u64(clientid) + u32(sequenceid) + u32(0) + channel_attrs() + channel_attrs(1)
            + u32(0) + u32(1) + u32(0))


def compound(s, xid, ops, minor=1, tag=b"ossgw-e2e"):
    """One COMPOUND (already encoded operations); returns (accepted, accept_stat, status, results bytes) where results
    start at resarray's count."""
    args = onc_rpc.xdr_string(tag) + u32(minor) + u32(len(ops)) + b"".join(ops)
    _xid, accepted, stat, rest = onc_rpc.rpc(s, xid, onc_rpc.NFS_PROGRAM, NFS4_VERSION, NFSPROC4_COMPOUND, args)
    if not accepted or stat != 0:
        return accepted, stat, None, None
    status = struct.unpack(">I", rest[:4])[0]
    taglen = struct.unpack(">I", rest[4:8])[0]
    return accepted, stat, status, rest[8 + taglen + (-taglen % 4):]


def exchange_id_result(results):
    """(resop, status, clientid, sequenceid) of a one-operation EXCHANGE_ID reply's results."""
    count, resop, status = struct.unpack(">III", results[:12])
    assert count == 1, count
    if status != NFS4_OK:
        return resop, status, None, None
    clientid, sequenceid = struct.unpack(">QI", results[12:24])
    return resop, status, clientid, sequenceid


def first_result(results):
    """(resop, status) of the first operation's result."""
    count, resop, status = struct.unpack(">III", results[:12])
    assert count >= 1, count
    return resop, status
