"""Reliability: what one NFS client may hold of the server (issue 21 item 2), at `memory_limit=256`.

A quick-form `./ossgw serve BUCKET --nfs -o memory_limit=256` on 127.0.0.1 is attacked from 127.0.0.2, another
loopback address of this host, so the attacker is another client machine. Meanwhile and afterwards a legitimate client
on 127.0.0.1 (libnfs's nfs-ls over NFSv3, and a fresh raw NFSv4.1 client reading a file, nfs4_rpc.py) must be served
within LEGIT_DEADLINE_S; the gateway must log no OutOfMemoryError and keep its peak RSS within memory_limit + 96 MB,
and the attacker gets the errors RFC 8881 has for what it asked:

  D1  8 connections pipeline 300 READs of 1 MiB each and never read a reply (held 8 s, long form 60 s): one address holds at most all but one
      connection's share of the calls in flight (which memory_limit=256 sets to 30), and a connection closed for not
      reading its replies is closed abortively, so its calls are released at once (it used to stay ESTABLISHED,
      holding them, for as long as the client kept it open);
  D3  sessions asking for 64 slots of 64 KiB cached replies, filled with 60,000-byte READ replies: the reply cache is
      reserved in bytes at CREATE_SESSION from the address's share (a smaller cache, fewer slots, then
      NFS4ERR_DELAY); with sa_cachethis READs shorten themselves to what the slot keeps and the next READ gets
      NFS4ERR_REP_TOO_BIG_TO_CACHE; a retry of a reply too big to keep gets NFS4ERR_RETRY_UNCACHED_REP;
  D4  SEQUENCE + PUTFH + 8 (and 14) READs of 1 MiB on a session of 1 MiB replies: the reply stays within
      ca_maxresponsesize (NFS4ERR_REP_TOO_BIG on the first READ that does not fit), and a request over
      ca_maxrequestsize gets NFS4ERR_REQ_TOO_BIG;
  D5  10,000 EXCHANGE_IDs (long form 100,000) with AUTH_NONE in a few seconds, renewed: the address's oldest unconfirmed records make room
      for its new ones and never for anyone else's; records it confirms end in NFS4ERR_DELAY.
"""
import os
import shutil
import threading
import time
import uuid

import pytest

import nfs4_rpc
import nfs_gateway
import onc_rpc
from conftest import scale
from e2e_support import http_get, scaled, wait_until
from nfs_gateway import PipelinedReads, quick_nfs_gateway

pytestmark = pytest.mark.skipif(shutil.which("nfs-ls") is None,
                                reason="libnfs-utils is not installed (apt-get install libnfs-utils; .ci/run does)")

ATTACKER = "127.0.0.2"
LEGIT_DEADLINE_S = 10
STALL_TIMEOUT_S = 3
MIB = 1 << 20
FLOOD = scale(10_000, 100_000)  # EXCHANGE_IDs of D5


@pytest.fixture
def gateway(emulator, ossgw_built, new_bucket, workdir):
    """A quick-form NFS gateway with memory_limit=256 over a fresh bucket holding `big.bin` (1 MiB, mode 0644)."""
    name, bucket = new_bucket
    data = os.urandom(MIB)
    bucket.put_object("big.bin", data, headers={"x-oss-meta-mode": "33188"})
    with quick_nfs_gateway(emulator, name, workdir, "limits", {"OSSGW_NFS_STALL_TIMEOUT": f"{STALL_TIMEOUT_S}s"},
                           "memory_limit=256") as g:
        g.data = data
        yield g
        assert "OutOfMemoryError" not in g.log.read_text(), g.log.read_text()[-4000:]
        # and the process stayed inside SEMANTICS.md's promise: peak RSS <= memory_limit + 96 MB
        peak = nfs_gateway.peak_rss_mb(g.pid)
        print(f"RELIABILITY nfs-limits peak RSS {peak:.0f} MB (memory_limit=256)")
        assert peak <= 256 + 96, f"peak RSS {peak:.0f} MB"


def nfs_ls(g, deadline=LEGIT_DEADLINE_S):
    """The legitimate NFSv3 client: lists the export with libnfs within `deadline` quiet-machine seconds,
    scaled; returns the seconds."""
    return nfs_gateway.nfs_ls(g.port, g.path, deadline)


def v41_read(g, deadline=LEGIT_DEADLINE_S):
    """The legitimate NFSv4.1 client: a new client record and session, then the first 64 KiB of big.bin through the
    pseudo root, all within `deadline` quiet-machine seconds, scaled;
    returns the seconds."""
    start = time.monotonic()
    c = nfs4_rpc.Client(g.port, f"legit-{uuid.uuid4()}".encode(), timeout=scaled(deadline))
    try:
        assert c.status == nfs4_rpc.NFS4_OK, f"legitimate client refused: status {c.status}"
        status, res = c.call([nfs4_rpc.putrootfh(), nfs4_rpc.lookup(g.name), nfs4_rpc.lookup("big.bin"),
                              nfs4_rpc.read(0, 64 << 10)])
        assert status == nfs4_rpc.NFS4_OK, nfs4_rpc.statuses(res)
        assert nfs4_rpc.read_data(res) == [g.data[:64 << 10]]
        assert c.destroy() == [nfs4_rpc.NFS4_OK, nfs4_rpc.NFS4_OK]  # as an unmount does: its share is free again
    finally:
        c.close()
    took = time.monotonic() - start
    assert took < scaled(deadline), f"NFSv4.1 READ took {took:.1f} s"
    return took


def legit_served(g, deadline=LEGIT_DEADLINE_S):
    return nfs_ls(g, deadline), v41_read(g, deadline)


def v4_handle(c, g, name="big.bin"):
    """The filehandle of a file of the export, through client `c`'s session."""
    status, res = c.call([nfs4_rpc.putrootfh(), nfs4_rpc.lookup(g.name), nfs4_rpc.lookup(name), nfs4_rpc.getfh()])
    assert status == nfs4_rpc.NFS4_OK, nfs4_rpc.statuses(res)
    return nfs4_rpc.getfh_result(res)


def established_from(port, address):
    """Server-side TCP connections of the gateway's port from `address` in state ESTABLISHED (/proc/net/tcp)."""
    a, b, c, d = (int(x) for x in address.split("."))
    remote = f"{d:02X}{c:02X}{b:02X}{a:02X}:"
    n = 0
    with open("/proc/net/tcp") as f:
        next(f)
        for line in f:
            fields = line.split()
            if fields[1].endswith(f":{port:04X}") and fields[2].startswith(remote) and fields[3] == "01":
                n += 1
    return n


def test_d1_connections_not_reading_replies_leave_room_and_are_closed_at_once(gateway):
    g = gateway
    fh = nfs_gateway.file_handle(g.port, g.path, "big.bin")
    flood = PipelinedReads(g.port, ATTACKER, 8, 300, fh)
    try:
        assert wait_until(flood.sent, 30)
        hold_until = time.monotonic() + scale(STALL_TIMEOUT_S + 5, 60)
        took = []
        while time.monotonic() < hold_until:
            took.append(legit_served(g))
        # the attacker's connections were closed for not reading, abortively: gone from the server at once, though
        # the attacker still holds them open and unread
        assert wait_until(lambda: established_from(g.port, ATTACKER) == 0, STALL_TIMEOUT_S + 10), \
            f"{established_from(g.port, ATTACKER)} connections of the attacker still ESTABLISHED"
        took.append(legit_served(g))
    finally:
        flood.close()
    assert "Failed to send RPC" not in g.log.read_text()
    print(f"legitimate client, {len(took)} rounds: slowest nfs-ls {max(t[0] for t in took):.2f} s, slowest NFSv4.1 "
          f"READ {max(t[1] for t in took):.2f} s")


def test_d1_same_address_waits_only_for_the_stall_timeout(gateway):
    """The attacker on the legitimate client's own address: the share is theirs together, so the client waits until
    the stalled connections are closed (the stall timeout plus a sweep), not for as long as they are held."""
    g = gateway
    flood = PipelinedReads(g.port, "127.0.0.1", 8, 300, nfs_gateway.file_handle(g.port, g.path, "big.bin"))
    try:
        assert wait_until(flood.sent, 30)  # every call with the kernel: the server takes what the share allows
        took = nfs_ls(g, STALL_TIMEOUT_S + LEGIT_DEADLINE_S)
        assert wait_until(lambda: flood.closed_by_server == 8 or established_from(g.port, "127.0.0.1") <= 1,
                          STALL_TIMEOUT_S + 10)
        legit_served(g)
    finally:
        flood.close()
    print("nfs-ls behind 8 stalled connections of its own address:", took)


def test_d3_reply_caches_are_reserved_from_the_address_share(gateway):
    g = gateway
    ask = nfs4_rpc.channel_attrs(64, max_cached=64 << 10)
    clients, statuses, granted = [], [], []
    try:
        for owner in range(60):
            c = nfs4_rpc.Client(g.port, f"attacker-{owner}".encode(), source=ATTACKER, fore=ask)
            statuses.append(c.status)
            if c.status != nfs4_rpc.NFS4_OK:
                c.close()
                continue
            clients.append(c)
            granted.append((c.fore["maxrequests"], c.fore["maxresponsesize_cached"]))
            if len(clients) == 30:
                break
        fh = v4_handle(clients[0], g)
        seen = {}
        for i, c in enumerate(clients):
            slots = c.fore["maxrequests"]
            # every slot: four 60,000-byte READs asked to be cached, then one READ not asked to be
            for cachethis in (True, False):
                for slot in range(slots):
                    reads = [nfs4_rpc.read(k * 60_000, 60_000) for k in range(4 if cachethis else 1)]
                    c.send([nfs4_rpc.putfh(fh)] + reads, slot, cachethis)
                for _ in range(slots):
                    status, res = c.receive()
                    seen[(cachethis, status)] = seen.get((cachethis, status), 0) + 1
                    if cachethis:  # the READs shortened to what the slot keeps, the rest refused
                        kept = nfs4_rpc.read_data(res)
                        assert 0 < sum(map(len, kept)) < c.fore["maxresponsesize_cached"], list(map(len, kept))
                        assert kept[0] == g.data[:len(kept[0])]
            if i % 10 == 9:
                legit_served(g)
        # a retransmission of a reply that was not kept
        c = clients[0]
        c.send([nfs4_rpc.putfh(fh), nfs4_rpc.read(0, 60_000)], 0, False, seq=c.seqs[0])
        retry_status, _res = c.receive()
        took = legit_served(g)
    finally:
        for c in clients:
            c.close()
    print("CREATE_SESSION statuses:", {s: statuses.count(s) for s in set(statuses)}, "granted (slots, cached):",
          granted, "READ statuses (cachethis, status): count", seen, "legit:", took)
    # the cache asked for was negotiated down (RFC 8881 §18.36.3), and the address's share ran out
    assert all(cached < 60_000 for _slots, cached in granted), granted
    assert nfs4_rpc.NFS4ERR_DELAY in statuses or sum(s for s, _c in granted) < 30 * 64, (statuses, granted)
    # a cached READ shortens itself to what the slot keeps and the next is refused; an uncached one is served whole
    assert seen.get((True, nfs4_rpc.NFS4ERR_REP_TOO_BIG_TO_CACHE)) == sum(s for s, _c in granted), seen
    assert seen.get((False, nfs4_rpc.NFS4_OK)) == sum(s for s, _c in granted), seen
    assert retry_status == nfs4_rpc.NFS4ERR_RETRY_UNCACHED_REP


def test_d4_replies_stay_within_ca_maxresponsesize(gateway):
    g = gateway
    fore = nfs4_rpc.channel_attrs(16, max_request=MIB, max_response=MIB, max_cached=4096)
    attackers = [nfs4_rpc.Client(g.port, f"reader-{i}".encode(), source=ATTACKER, fore=fore) for i in range(4)]
    try:
        assert all(c.status == nfs4_rpc.NFS4_OK for c in attackers), [c.status for c in attackers]
        fh = v4_handle(attackers[0], g)
        granted = attackers[0].fore
        assert granted["maxresponsesize"] <= MIB
        # every connection pipelines compounds of 8 and 14 READs of 1 MiB (8 MiB and 14 MiB of reply unbounded)
        for c in attackers:
            for slot, n in enumerate((8, 14, 8, 14)):
                c.send([nfs4_rpc.putfh(fh)] + [nfs4_rpc.read(0, MIB)] * n, slot + 1)
        legit_served(g)
        for c in attackers:
            for _ in range(4):
                status, res = c.receive()
                ops = nfs4_rpc.statuses(res)
                assert status == nfs4_rpc.NFS4ERR_REP_TOO_BIG, ops
                # SEQUENCE, PUTFH, the READs that fit (their data within the reply), then REP_TOO_BIG on the next
                assert ops[-1] == (nfs4_rpc.OP_READ, nfs4_rpc.NFS4ERR_REP_TOO_BIG), ops
                assert all(st == nfs4_rpc.NFS4_OK for _op, st in ops[:-1]), ops
                data = nfs4_rpc.read_data(res)
                assert sum(map(len, data)) <= granted["maxresponsesize"] and data and data[0] == g.data[:len(data[0])]
        # asked to be cached: a READ shortens itself to what the slot keeps (4 KiB asked for), the next one has no
        # room left: REP_TOO_BIG_TO_CACHE
        c = attackers[0]
        status, res = c.call([nfs4_rpc.putfh(fh), nfs4_rpc.read(0, 60_000), nfs4_rpc.read(60_000, 60_000)],
                             cachethis=True)
        assert status == nfs4_rpc.NFS4ERR_REP_TOO_BIG_TO_CACHE, nfs4_rpc.statuses(res)
        assert nfs4_rpc.statuses(res)[1:] == [(nfs4_rpc.OP_PUTFH, 0), (nfs4_rpc.OP_READ, 0),
                                              (nfs4_rpc.OP_READ, nfs4_rpc.NFS4ERR_REP_TOO_BIG_TO_CACHE)]
        short = nfs4_rpc.read_data(res)[0]
        assert 0 < len(short) < 4096 and short == g.data[:len(short)]
        # a request over ca_maxrequestsize: REQ_TOO_BIG, before anything runs
        small = nfs4_rpc.Client(g.port, b"small-requests", source=ATTACKER,
                                fore=nfs4_rpc.channel_attrs(4, max_request=8192))
        try:
            assert small.status == nfs4_rpc.NFS4_OK and small.fore["maxrequestsize"] == 8192, small.fore
            status, res = small.call([nfs4_rpc.putfh(fh), nfs4_rpc.write(0, b"x" * 16384)])
            assert status == nfs4_rpc.NFS4ERR_REQ_TOO_BIG and nfs4_rpc.statuses(res) == [
                (nfs4_rpc.OP_SEQUENCE, nfs4_rpc.NFS4ERR_REQ_TOO_BIG)], nfs4_rpc.statuses(res)
        finally:
            small.close()
        legit_served(g)
    finally:
        for c in attackers:
            c.close()


class ExchangeIdFlood:
    """EXCHANGE_IDs with AUTH_NONE from `source`, each for a new client owner, pipelined 250 at a time on 4
    connections, until stop(); counts the statuses."""

    def __init__(self, g, source):
        self.socks = [onc_rpc.connect(g.port, source=source, timeout=30) for _ in range(4)]
        self.sent = 0
        self.statuses = {}
        self.error = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        try:
            while not self._stop.is_set():
                for i, s in enumerate(self.socks):
                    batch = b"".join(nfs4_rpc.compound_call(
                        n, [nfs4_rpc.exchange_id(f"flood-{i}-{n}".encode())], cred=onc_rpc.auth_none())
                        for n in range(self.sent, self.sent + 250))
                    s.sendall(batch)
                    self.sent += 250
                for s in self.socks:
                    for _ in range(250):
                        _a, _s, status, _res = nfs4_rpc.compound_reply(s)
                        self.statuses[status] = self.statuses.get(status, 0) + 1
        except Exception as e:  # noqa: BLE001 - reported by stop()
            self.error = e

    def sent(self):
        """True once every call is with the kernel (the server reads what its caps let it)."""
        return all(not left for _, left in self.socks)

    def stop(self):
        self._stop.set()
        self._thread.join(60)
        for s in self.socks:
            s.close()
        assert self.error is None, self.error


def metric(g, name):
    text = http_get(f"http://127.0.0.1:{g.http_port}/q/metrics")[1]
    if isinstance(text, bytes):
        text = text.decode()
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    raise AssertionError(f"no metric {name}")


def test_d5_exchange_id_flood_evicts_its_own_unconfirmed_records(gateway):
    g = gateway
    flood = ExchangeIdFlood(g, ATTACKER)
    try:
        assert wait_until(lambda: flood.sent >= FLOOD or flood.error, scale(120, 600)), flood.error
        took = []
        # the flood goes on (renewing its share) while the legitimate client registers, is confirmed and reads
        for _ in range(3):
            took.append(legit_served(g))
        clients = metric(g, "ossgw_nfs4_clients")
    finally:
        flood.stop()
    print("flood:", flood.sent, "EXCHANGE_IDs, statuses", flood.statuses, "records held:", clients, "legit:", took)
    assert flood.sent >= FLOOD and flood.statuses.get(nfs4_rpc.NFS4_OK, 0) > 0
    assert clients <= 2_500 + 1, "the flooding address holds more than its share of client records"
    # records the attacker confirms (with a session each) cannot be evicted: at its share it gets NFS4ERR_DELAY
    delay, confirmed = None, 0
    with onc_rpc.connect(g.port, source=ATTACKER, timeout=30) as s:
        for n in range(20_000):
            status, _cid, _sid, _fore = nfs4_rpc.new_session(s, f"confirmed-{n}".encode(),
                                                              nfs4_rpc.channel_attrs(1, max_cached=0), xid=2 * n)
            if status != nfs4_rpc.NFS4_OK:
                delay = status
                break
            confirmed += 1
            if n % 1000 == 999:
                legit_served(g)
    legit_served(g)
    print("confirmed records before", delay, ":", confirmed)
    assert delay == nfs4_rpc.NFS4ERR_DELAY, delay
