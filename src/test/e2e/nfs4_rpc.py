"""A minimal NFSv4.1 client over onc_rpc (RFC 8881 XDR, encoded by hand): NULL, COMPOUND headers and the session
operations EXCHANGE_ID and CREATE_SESSION, enough to check that a server answers version 4 on its port. Tests only."""
import struct

import onc_rpc

NFS4_VERSION = 4
NFSPROC4_NULL, NFSPROC4_COMPOUND = 0, 1
OP_LOCK, OP_LOOKUP, OP_OPEN, OP_PUTFH, OP_PUTROOTFH = 12, 15, 18, 22, 24
READ_LT = 1
OP_EXCHANGE_ID, OP_CREATE_SESSION, OP_SEQUENCE = 42, 43, 53
OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, OPEN4_NOCREATE, CLAIM_NULL = 1, 0, 0, 0
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


def sequence(sessionid, seq, slot=0):
    """SEQUENCE4args: sessionid, sequenceid, slotid, highest_slotid, sa_cachethis false."""
    assert len(sessionid) == 16
    return u32(OP_SEQUENCE) + sessionid + u32(seq) + u32(slot) + u32(slot) + u32(0)


def putrootfh():
    return u32(OP_PUTROOTFH)


def lookup(name):
    return u32(OP_LOOKUP) + onc_rpc.xdr_string(name)


def open_read(clientid, owner, name):
    """OPEN4args of an existing file for reading: seqid 0, READ / DENY_NONE, open_owner4 (clientid, owner),
    OPEN4_NOCREATE, CLAIM_NULL of `name` in the current directory."""
    return (u32(OP_OPEN) + u32(0) + u32(OPEN4_SHARE_ACCESS_READ) + u32(OPEN4_SHARE_DENY_NONE) + u64(clientid)
            + onc_rpc.xdr_string(owner) + u32(OPEN4_NOCREATE) + u32(CLAIM_NULL) + onc_rpc.xdr_string(name))


def session_id(results):
    """The sessionid4 of a one-operation CREATE_SESSION reply's results."""
    count, resop, status = struct.unpack(">III", results[:12])
    assert count == 1 and resop == OP_CREATE_SESSION and status == NFS4_OK, (count, resop, status)
    return results[12:28]


def lock_read(clientid, owner, open_stateid, offset, length):
    """LOCK4args: READ_LT, not a reclaim, the range, a new lock owner (open_to_lock_owner4: open_seqid 0, the open's
    stateid, lock_seqid 0, lock_owner4 (clientid, owner))."""
    assert len(open_stateid) == 16
    return (u32(OP_LOCK) + u32(READ_LT) + u32(0) + u64(offset) + u64(length) + u32(1) + u32(0) + open_stateid + u32(0)
            + u64(clientid) + onc_rpc.xdr_string(owner))


def statuses(results):
    """(resop, status) of each result, reading past the SEQUENCE result only (enough for SEQUENCE, PUTROOTFH, LOOKUP
    and a last operation of any kind)."""
    return _walk(results)[0]


def last_body(results):
    """The bytes after the last result's status (e.g. OPEN4resok, which starts with the open stateid)."""
    return _walk(results)[1]


def _walk(results):
    count = struct.unpack(">I", results[:4])[0]
    out, at = [], 4
    for i in range(count):
        resop, status = struct.unpack(">II", results[at:at + 8])
        out.append((resop, status))
        at += 8
        if resop == OP_SEQUENCE and status == NFS4_OK:
            at += 16 + 5 * 4  # sessionid, sequenceid, slotid, highest_slotid, target_highest_slotid, status_flags
        elif resop not in (OP_PUTROOTFH, OP_PUTFH, OP_LOOKUP) and i < count - 1:
            raise ValueError(f"cannot skip the result of operation {resop}")
    return out, results[at:]
