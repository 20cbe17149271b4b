"""A minimal NFSv4.1 client over onc_rpc (RFC 8881 XDR, encoded by hand): NULL, COMPOUND headers, the session
operations EXCHANGE_ID, CREATE_SESSION and SEQUENCE, and the few operations the e2e and reliability suites send
(PUTROOTFH, PUTFH, LOOKUP, GETFH, OPEN, LOCK, LOCKT, READ, WRITE, RECLAIM_COMPLETE). Tests only."""
import struct

import onc_rpc

NFS4_VERSION = 4
NFSPROC4_NULL, NFSPROC4_COMPOUND = 0, 1
OP_GETFH, OP_LOCK, OP_LOOKUP, OP_OPEN, OP_PUTFH, OP_PUTROOTFH, OP_READ, OP_WRITE = 10, 12, 15, 18, 22, 24, 25, 38
READ_LT, WRITE_LT = 1, 2
OP_LOCKT, OP_RECLAIM_COMPLETE = 13, 58
OPEN4_SHARE_ACCESS_BOTH, CLAIM_PREVIOUS, CLAIM_FH = 3, 1, 4
NFS4ERR_DENIED, NFS4ERR_GRACE, NFS4ERR_STALE_CLIENTID = 10010, 10013, 10022
NFS4ERR_NO_GRACE, NFS4ERR_RECLAIM_BAD = 10033, 10034
OP_EXCHANGE_ID, OP_CREATE_SESSION, OP_DESTROY_SESSION, OP_SEQUENCE, OP_DESTROY_CLIENTID = 42, 43, 44, 53, 57
OPEN4_SHARE_ACCESS_READ, OPEN4_SHARE_DENY_NONE, OPEN4_NOCREATE, CLAIM_NULL = 1, 0, 0, 0
NFS4_OK = 0
NFS4ERR_DELAY = 10008
NFS4ERR_MINOR_VERS_MISMATCH = 10021
NFS4ERR_REQ_TOO_BIG, NFS4ERR_REP_TOO_BIG, NFS4ERR_REP_TOO_BIG_TO_CACHE = 10065, 10066, 10067
NFS4ERR_RETRY_UNCACHED_REP = 10068
ANONYMOUS_STATEID = b"\0" * 16
PROG_MISMATCH = 2


def u32(v):
    return struct.pack(">I", v)


def u64(v):
    return struct.pack(">Q", v)


def exchange_id(owner, verifier=b"ossgwtst"):
    """EXCHANGE_ID4args: client_owner4 (verifier4, co_ownerid), eia_flags 0, SP4_NONE, no implementation id."""
    assert len(verifier) == 8
    return u32(OP_EXCHANGE_ID) + verifier + onc_rpc.xdr_string(owner) + u32(0) + u32(0) + u32(0)


def channel_attrs(max_requests=8, max_request=1 << 20, max_response=1 << 20, max_cached=64 << 10, max_ops=16):
    """channel_attrs4: headerpadsize, maxrequestsize, maxresponsesize, maxresponsesize_cached, maxoperations,
    maxrequests, no rdma_ird."""
    return (u32(0) + u32(max_request) + u32(max_response) + u32(max_cached) + u32(max_ops) + u32(max_requests)
            + u32(0))


def create_session(clientid, sequenceid, fore=None):
    """CREATE_SESSION4args with no back channel use: cb_program 0, one AUTH_NONE callback security; `fore` the fore
    channel asked for (channel_attrs(...), default channel_attrs())."""
    return (u32(OP_CREATE_SESSION) + u64(clientid) + u32(sequenceid) + u32(0) + (fore or channel_attrs())
            + channel_attrs(1) + u32(0) + u32(1) + u32(0))


def granted_fore(results):
    """The fore channel a successful one-operation CREATE_SESSION reply granted, as a dict (maxrequestsize,
    maxresponsesize, maxresponsesize_cached, maxoperations, maxrequests)."""
    count, resop, status = struct.unpack(">III", results[:12])
    assert count == 1 and resop == OP_CREATE_SESSION and status == NFS4_OK, (count, resop, status)
    # sessionid (16), sequenceid, flags, then channel_attrs4 (headerpadsize first)
    pad, req, resp, cached, ops, reqs = struct.unpack(">IIIIII", results[12 + 16 + 8:12 + 16 + 8 + 24])
    return {"maxrequestsize": req, "maxresponsesize": resp, "maxresponsesize_cached": cached, "maxoperations": ops,
            "maxrequests": reqs}


def compound_call(xid, ops, minor=1, tag=b"ossgw-e2e", cred=None):
    """One COMPOUND call as a whole RPC record (to pipeline several before reading replies)."""
    args = onc_rpc.xdr_string(tag) + u32(minor) + u32(len(ops)) + b"".join(ops)
    return onc_rpc.record(onc_rpc.call(xid, onc_rpc.NFS_PROGRAM, NFS4_VERSION, NFSPROC4_COMPOUND, args, cred))


def compound(s, xid, ops, minor=1, tag=b"ossgw-e2e", cred=None):
    """One COMPOUND (already encoded operations); returns (accepted, accept_stat, status, results bytes) where results
    start at resarray's count."""
    s.sendall(compound_call(xid, ops, minor, tag, cred))
    return compound_reply(s)


def compound_reply(s):
    """The next reply on `s`, as compound() returns it."""
    _xid, accepted, stat, rest = onc_rpc.read_reply(s)
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


def sequence(sessionid, seq, slot=0, cachethis=False):
    """SEQUENCE4args: sessionid, sequenceid, slotid, highest_slotid (= slotid), sa_cachethis."""
    assert len(sessionid) == 16
    return u32(OP_SEQUENCE) + sessionid + u32(seq) + u32(slot) + u32(slot) + u32(1 if cachethis else 0)


def putrootfh():
    return u32(OP_PUTROOTFH)


def putfh(fh):
    return u32(OP_PUTFH) + onc_rpc.xdr_string(fh)


def getfh():
    return u32(OP_GETFH)


def read(offset, count, stateid=ANONYMOUS_STATEID):
    """READ4args: stateid (default the anonymous one), offset, count."""
    return u32(OP_READ) + stateid + u64(offset) + u32(count)


def write(offset, data, stateid=ANONYMOUS_STATEID, stable=0):
    """WRITE4args: stateid (default the anonymous one), offset, stable_how (UNSTABLE4), data."""
    return u32(OP_WRITE) + stateid + u64(offset) + u32(stable) + onc_rpc.xdr_string(data)


def lookup(name):
    return u32(OP_LOOKUP) + onc_rpc.xdr_string(name)


def open_read(clientid, owner, name):
    """OPEN4args of an existing file for reading: seqid 0, READ / DENY_NONE, open_owner4 (clientid, owner),
    OPEN4_NOCREATE, CLAIM_NULL of `name` in the current directory."""
    return (u32(OP_OPEN) + u32(0) + u32(OPEN4_SHARE_ACCESS_READ) + u32(OPEN4_SHARE_DENY_NONE) + u64(clientid)
            + onc_rpc.xdr_string(owner) + u32(OPEN4_NOCREATE) + u32(CLAIM_NULL) + onc_rpc.xdr_string(name))


def open_both(clientid, owner, name=None, reclaim=False):
    """OPEN4args for reading and writing (DENY_NONE), never creating, by open_owner4 (clientid, owner): of `name` in
    the current directory (CLAIM_NULL), of the current filehandle (CLAIM_FH, `name` None), or, with `reclaim`, of the
    current filehandle as held before the server's restart (CLAIM_PREVIOUS, no delegation)."""
    if reclaim:
        claim = u32(CLAIM_PREVIOUS) + u32(0)
    else:
        claim = u32(CLAIM_FH) if name is None else u32(CLAIM_NULL) + onc_rpc.xdr_string(name)
    return (u32(OP_OPEN) + u32(0) + u32(OPEN4_SHARE_ACCESS_BOTH) + u32(OPEN4_SHARE_DENY_NONE) + u64(clientid)
            + onc_rpc.xdr_string(owner) + u32(OPEN4_NOCREATE) + claim)


def lock_new(locktype, clientid, owner, open_stateid, offset, length, reclaim=False):
    """LOCK4args by a new lock owner (open_to_lock_owner4 through `open_stateid`), `reclaim` set for a lock held
    before the server's restart (RFC 8881 §18.10)."""
    assert len(open_stateid) == 16
    return (u32(OP_LOCK) + u32(locktype) + u32(1 if reclaim else 0) + u64(offset) + u64(length) + u32(1) + u32(0)
            + open_stateid + u32(0) + u64(clientid) + onc_rpc.xdr_string(owner))


def lockt(locktype, clientid, owner, offset, length):
    """LOCKT4args: would this lock owner get the lock?"""
    return u32(OP_LOCKT) + u32(locktype) + u64(offset) + u64(length) + u64(clientid) + onc_rpc.xdr_string(owner)


def reclaim_complete():
    """RECLAIM_COMPLETE4args, rca_one_fs false: the client has reclaimed everything."""
    return u32(OP_RECLAIM_COMPLETE) + u32(0)


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
    """(resop, status) of each result, reading past the results of SEQUENCE, PUTROOTFH, PUTFH, LOOKUP, GETFH and READ
    (any operation may come last)."""
    return _walk(results)[0]


def read_data(results):
    """The data of every successful READ result, in order."""
    return [body for op, body in _walk(results)[2] if op == OP_READ]


def last_body(results):
    """The bytes after the last result's status (e.g. OPEN4resok, which starts with the open stateid)."""
    return _walk(results)[1]


def _walk(results):
    count = struct.unpack(">I", results[:4])[0]
    out, at, data = [], 4, []
    for i in range(count):
        resop, status = struct.unpack(">II", results[at:at + 8])
        out.append((resop, status))
        at += 8
        if status != NFS4_OK or resop in (OP_PUTROOTFH, OP_PUTFH, OP_LOOKUP):
            continue
        if resop == OP_SEQUENCE:
            at += 16 + 5 * 4  # sessionid, sequenceid, slotid, highest_slotid, target_highest_slotid, status_flags
        elif resop in (OP_GETFH, OP_READ):
            if resop == OP_READ:
                at += 4  # eof
            n = struct.unpack(">I", results[at:at + 4])[0]
            data.append((resop, results[at + 4:at + 4 + n]))
            at += 4 + n + (-n % 4)
        elif i < count - 1:
            raise ValueError(f"cannot skip the result of operation {resop}")
    return out, results[at:], data


def getfh_result(results):
    """The filehandle of the last successful GETFH."""
    return [body for op, body in _walk(results)[2] if op == OP_GETFH][-1]


def new_session(s, owner, fore=None, cred=None, xid=1):
    """EXCHANGE_ID then CREATE_SESSION on `s` (xids `xid` and `xid` + 1): (status, clientid, sessionid, granted fore
    channel) where status is the first failure's (and the later fields None), NFS4_OK when both worked."""
    accepted, stat, status, res = compound(s, xid, [exchange_id(owner)], cred=cred)
    assert accepted and stat == 0, (accepted, stat)
    if status != NFS4_OK:
        return status, None, None, None
    _op, _st, clientid, seq = exchange_id_result(res)
    accepted, stat, status, res = compound(s, xid + 1, [create_session(clientid, seq, fore)], cred=cred)
    assert accepted and stat == 0, (accepted, stat)
    if status != NFS4_OK:
        return status, clientid, None, None
    return NFS4_OK, clientid, session_id(res), granted_fore(res)


class Client:
    """One NFSv4.1 client on a connection of its own: a client record and a session (`status` says whether they were
    granted), and the next sequence id of each slot. call() runs a COMPOUND under SEQUENCE and waits for it; send()
    and receive() pipeline several."""

    def __init__(self, port, owner, source=None, fore=None, cred=None, timeout=30):
        self.sock = onc_rpc.connect(port, source=source, timeout=timeout)
        self.cred = cred
        self.xid = 10
        self.seqs = {}
        self.status, self.clientid, self.sessionid, self.fore = new_session(self.sock, owner, fore, cred)

    def send(self, ops, slot=0, cachethis=False, seq=None):
        """Sends SEQUENCE (the slot's next sequence id, or `seq` for a retransmission) and `ops`; returns the
        sequence id used."""
        if seq is None:
            seq = self.seqs.get(slot, 0) + 1
            self.seqs[slot] = seq
        self.xid += 1
        self.sock.sendall(compound_call(self.xid, [sequence(self.sessionid, seq, slot, cachethis)] + list(ops),
                                        cred=self.cred))
        return seq

    def receive(self):
        """The next reply: (status, results)."""
        accepted, stat, status, res = compound_reply(self.sock)
        assert accepted and stat == 0, (accepted, stat)
        return status, res

    def call(self, ops, slot=0, cachethis=False):
        self.send(ops, slot, cachethis)
        return self.receive()

    def destroy(self):
        """DESTROY_SESSION then DESTROY_CLIENTID, as a client does when it unmounts: the server frees what they held.
        Returns their statuses."""
        statuses = []
        for op in (u32(OP_DESTROY_SESSION) + self.sessionid, u32(OP_DESTROY_CLIENTID) + u64(self.clientid)):
            self.xid += 1
            accepted, stat, status, _res = compound(self.sock, self.xid, [op], cred=self.cred)
            assert accepted and stat == 0, (accepted, stat)
            statuses.append(status)
        return statuses

    def close(self):
        self.sock.close()
