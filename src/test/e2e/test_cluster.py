"""End-to-end: several `./ossgw serve` processes on one bucket, coordinated through a Valkey (or Redis) server that the
test starts (ossgw.cluster.*, issue 23 phase 1), with HAProxy in front health-checking /q/health/ready as a Kubernetes
Service or any TCP balancer would.

Standby mode: only the lease holder is ready, so HAProxy sends every NFS client to it; a SIGKILLed holder is replaced
after the lease TTL; a paused (SIGSTOP) holder writes nothing once its lease ran out; a holder cut off from the store
fences itself (readiness DOWN, NFS port closed, "LOST" logged) before the standby takes over. Active mode: a file
closed through one gateway is read through the other within a second. The timings measured are written to
`cluster-timings.json` in the test's work directory and logged.
"""
import hashlib
import json
import os
import re
import shutil
import signal
import socket
import struct
import subprocess
import threading
import time

import pytest

import nfs4_rpc
import onc_rpc

from e2e_support import OSSGW, force_unmount, free_port, http_get, is_mounted, kill_if_running, log, port_open, \
    scaled, slowdown, stop_process, wait_until

VALKEY = shutil.which("valkey-server") or shutil.which("redis-server")
HAPROXY = shutil.which("haproxy") or (os.path.exists("/usr/sbin/haproxy") and "/usr/sbin/haproxy") or None

pytestmark = [
    pytest.mark.skipif(shutil.which("nfs-ls") is None, reason="libnfs-utils is not installed (.ci/run installs it)"),
    pytest.mark.skipif(VALKEY is None, reason="valkey-server (or redis-server) is not installed (.ci/run installs it)"),
    pytest.mark.skipif(HAPROXY is None, reason="haproxy is not installed (.ci/run installs it)"),
]

TTL = 5  # seconds: ossgw.cluster.lease-ttl of every test here
# Where the timings of every run are appended (one JSON object a line), beside the e2e logs
TIMINGS_LOG = os.environ.get("OSSGW_CLUSTER_TIMINGS", "/tmp/ossgw-cluster-timings.jsonl")


def nfs_url(port, path):
    return f"nfs://127.0.0.1{path}?nfsport={port}&mountport={port}&version=3"


NLM_PROGRAM, NLMPROC4_LOCK, NLMPROC4_UNLOCK = 100021, 2, 4
NLM4_GRANTED, NLM4_DENIED, NLM4_DENIED_NOLOCKS, NLM4_DENIED_GRACE_PERIOD = 0, 1, 2, 4


def nlm_lock(port, bucket, name, unlock=False, host="testhost", reclaim=False):
    """A raw NLM v4 LOCK (exclusive, non-blocking, whole file; a reclaim with `reclaim`) or UNLOCK of /BUCKET/NAME by
    owner 4242 of client `host`, over the gateway's one NFS port (RFC 1813 appendix II; MOUNT and LOOKUP first for the
    handle): the nlm4_stats answered."""
    s = onc_rpc.connect(port)
    try:
        accepted, stat, root = onc_rpc.mnt(s, f"/{bucket}")
        assert accepted and stat == 0 and root, (accepted, stat)
        fh = onc_rpc.lookup(s, root, name)
        x = onc_rpc.xdr_string
        alock = x(host) + x(fh) + x(f"4242@{host}".encode()) + struct.pack(">iQQ", 4242, 0, 0)
        if unlock:
            args, proc = x(b"ck") + alock, NLMPROC4_UNLOCK
        else:  # cookie, block, exclusive, alock, reclaim, state
            args, proc = x(b"ck") + struct.pack(">II", 0, 1) + alock + struct.pack(">Ii", int(reclaim), 1), NLMPROC4_LOCK
        # as root, squashed like nfs-cp's root that created the files: the caller may lock (RFC 1813 leaves it open)
        _xid, accepted, stat, rest = onc_rpc.rpc(s, 7, NLM_PROGRAM, 4, proc, args, cred=onc_rpc.auth_sys(0, 0))
        assert accepted and stat == 0, (accepted, stat)
        n = struct.unpack(">I", rest[:4])[0]
        return struct.unpack(">I", rest[4 + n + (-n % 4):8 + n + (-n % 4)])[0]
    finally:
        s.close()


def nfs(*args, check=True, timeout=120):
    r = subprocess.run(list(args), capture_output=True, text=True, timeout=scaled(timeout), stdin=subprocess.DEVNULL)
    if check:
        assert r.returncode == 0, f"{args}: {r.stdout} {r.stderr}"
    return r


class Store:
    """A Valkey/Redis server on a free loopback port, files in `dir`, no persistence (a restart loses everything)."""

    def __init__(self, workdir):
        self.dir = workdir / "store"
        self.dir.mkdir()
        self.port = free_port()
        self.proc = None
        self.start()

    def start(self, appendonly=False):
        """Starts the server on the store's port and directory; `appendonly` reads back (and keeps) its AOF."""
        self.proc = subprocess.Popen([VALKEY, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.dir),
                                      "--save", "", "--appendonly", "yes" if appendonly else "no",
                                      "--logfile", str(self.dir / "server.log")],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        assert wait_until(lambda: port_open(self.port) or self.proc.poll() is not None, 60) and self.proc.poll() is None

    def stop(self):
        kill_if_running(self.proc)

    @property
    def url(self):
        return f"redis://127.0.0.1:{self.port}"


class CutProxy:
    """A TCP forwarder to the store that can be cut like a network partition: after `cut()` no byte passes either way
    and new connections hang, but no socket is closed (no RST): the gateway behind it sees only silence."""

    def __init__(self, target_port):
        self.target = target_port
        self.cutoff = threading.Event()
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(16)
        self.port = self.listener.getsockname()[1]
        self.sockets = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            self.sockets.append(client)
            if self.cutoff.is_set():
                continue  # accepted and never served: the connect succeeds, nothing answers
            upstream = socket.create_connection(("127.0.0.1", self.target))
            self.sockets.append(upstream)
            threading.Thread(target=self._pipe, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client), daemon=True).start()

    def _pipe(self, src, dst):
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                return
            if not data:
                return
            if self.cutoff.is_set():
                continue  # swallowed
            try:
                dst.sendall(data)
            except OSError:
                return

    def cut(self):
        self.cutoff.set()

    def close(self):
        self.listener.close()
        for s in self.sockets:
            try:
                s.close()
            except OSError:
                pass


class Haproxy:
    """HAProxy (mode tcp) in front of the gateways' NFS ports, sending clients only to those whose /q/health/ready says
    200 (checked every 250 ms); the sessions of a gateway marked down are shut, so clients reconnect to the new one."""

    def __init__(self, workdir, replicas, port_of=lambda r: r.nfs_port, name="haproxy", addr_of=lambda r: "127.0.0.1"):
        """`port_of(replica)`, `addr_of(replica)`: the port and address of each gateway it forwards to (their NFS ports
        on 127.0.0.1 by default); the health checks go to 127.0.0.1 (their HTTP ports)."""
        self.port = free_port()
        cfg = workdir / f"{name}.cfg"
        servers = "\n".join(f"  server {r.name} {addr_of(r)}:{port_of(r)} check addr 127.0.0.1 port {r.http_port}"
                            for r in replicas)
        cfg.write_text(f"""global
  maxconn 256
defaults
  mode tcp
  timeout connect 2s
  timeout check 1s
  timeout client 10m
  timeout server 10m
frontend nfs
  bind 127.0.0.1:{self.port}
  default_backend gateways
backend gateways
  option httpchk GET /q/health/ready
  http-check expect status 200
  default-server inter 250ms fastinter 250ms downinter 250ms fall 1 rise 1 on-marked-down shutdown-sessions
{servers}
""")
        self.log = open(workdir / f"{name}.log", "wb")
        self.proc = subprocess.Popen([HAPROXY, "-f", str(cfg), "-db"], stdout=self.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL)
        assert wait_until(lambda: port_open(self.port) or self.proc.poll() is not None, 30) and self.proc.poll() is None

    def url(self, path):
        return nfs_url(self.port, path)

    def stop(self):
        kill_if_running(self.proc)
        self.log.close()


class Replica:
    """One `ossgw serve` of the cluster: an NFS export of the bucket (and, with `mount`, a FUSE mount of it); `props`
    are more `key=value` lines of its config file (one naming a key set here, like ossgw.nfs.bind, replaces it)."""

    def __init__(self, name, workdir, bucket, emulator, store_url, mode="standby", mount=False, options=(),
                 props=()):
        self.name = name
        self.workdir = workdir
        self.nfs_port, self.http_port = free_port(), free_port()
        self.log_path = workdir / f"{name}.log"
        self.mountpoint = workdir / f"mnt-{name}" if mount else None
        passwd = workdir / f"passwd-{name}"
        passwd.write_text(f"{bucket}:{emulator.ak}:{emulator.sk}\n")
        passwd.chmod(0o600)
        lines = [f"ossgw.oss.endpoint={emulator.endpoint}", f"ossgw.oss.passwd-file={passwd}",
                 f"ossgw.exports.x.bucket={bucket}", "ossgw.nfs.bind=127.0.0.1", f"ossgw.nfs.port={self.nfs_port}",
                 "ossgw.nfs.open-idle-timeout=1s", *[f"ossgw.options.{o}" for o in options], *props]
        if store_url != "none":  # "none": a single gateway, its tables in its state directory
            lines += [f"ossgw.cluster.store={store_url}", f"ossgw.cluster.mode={mode}", f"ossgw.cluster.node-id={name}",
                      f"ossgw.cluster.lease-ttl={TTL}s", "ossgw.cluster.name=e2e"]
        if mount:
            self.mountpoint.mkdir()
            lines += [f"ossgw.mounts.m.bucket={bucket}", f"ossgw.mounts.m.mountpoint={self.mountpoint}"]
        cfg = workdir / f"{name}.properties"
        given = {p.split("=", 1)[0] for p in props}  # a key in `props` replaces the default line above
        lines = [ln for ln in lines if ln.split("=", 1)[0] not in given or ln in props]
        cfg.write_text("\n".join(lines) + "\n")
        env = dict(os.environ, QUARKUS_HTTP_PORT=str(self.http_port), QUARKUS_HTTP_HOST="127.0.0.1",
                   OSSGW_STATE_DIR=str(workdir / f"state-{name}"))
        self.out = open(self.log_path, "wb")
        self.proc = subprocess.Popen([str(OSSGW), "serve", "--config", str(cfg)], stdout=self.out,
                                     stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)

    def health(self):
        return http_get(f"http://127.0.0.1:{self.http_port}/q/health/ready")

    def ready(self):
        return self.health()[0] == 200

    def answering(self):
        """True once serve runs and answers health checks with its cluster state (a standby answers 503)."""
        return self.cluster_status() is not None

    def wait_answering(self, ready=None):
        ok = wait_until(lambda: (self.ready() if ready else self.answering()) or self.proc.poll() is not None, 180)
        assert ok and self.proc.poll() is None, self.log()

    def cluster_status(self):
        status, body = self.health()
        if status not in (200, 503) or not body:
            return None
        return json.loads(body)["checks"][0].get("data", {}).get("cluster")

    def log(self):
        return self.log_path.read_text(errors="replace")

    def log_time(self, pattern):
        """The time of day (seconds) of the first log line matching `pattern`, or None."""
        for line in self.log().splitlines():
            if re.search(pattern, line):
                h, m, s = line[:12].split(":")
                return int(h) * 3600 + int(m) * 60 + float(s)
        return None

    def stop(self):
        if self.proc.poll() is None:
            try:
                os.kill(self.proc.pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
            stop_process(self.proc)
        kill_if_running(self.proc)
        self.out.close()
        if self.mountpoint is not None and is_mounted(self.mountpoint):
            force_unmount(self.mountpoint)


@pytest.fixture
def cluster(emulator, ossgw_built, new_bucket, workdir):
    """Starts the store and hands out replicas and a balancer; stops everything at the end."""
    store = Store(workdir)
    started = []
    extra = []
    timings = {}

    class Cluster:
        bucket_name, bucket = new_bucket

        def replica(self, name, store_url=None, **kw):
            r = Replica(name, workdir, self.bucket_name, emulator, store_url or store.url, **kw)
            started.append(r)
            return r

        def haproxy(self, replicas):
            h = Haproxy(workdir, replicas)
            extra.append(h)
            return h

        def proxy(self):
            p = CutProxy(store.port)
            extra.append(p)
            return p

        def timing(self, name, seconds):
            load = os.getloadavg()[0]
            timings[name] = {"seconds": round(seconds, 3), "load": round(load, 1)}
            log(f"cluster timing {name}: {seconds:.3f} s (load {load:.1f}, slowdown {slowdown():.1f})")
            with open(TIMINGS_LOG, "a") as f:  # every run's figures in one place, for docs/deploy.md
                f.write(json.dumps({"name": name, "seconds": round(seconds, 3), "load": round(load, 1)}) + "\n")

    Cluster.store = store
    try:
        yield Cluster()
    finally:
        for r in started:
            r.stop()
        for e in extra:
            (e.stop if hasattr(e, "stop") else e.close)()
        store.stop()
        if timings:
            (workdir / "cluster-timings.json").write_text(json.dumps(timings, indent=1))


def wait_one_ready(replicas, timeout=120):
    """The one replica that becomes ready (exactly one may)."""
    found = []
    assert wait_until(lambda: bool(found.extend(r for r in replicas if r.ready()) or found), timeout), \
        [r.log()[-3000:] for r in replicas]
    return found[0]


def test_standby_failover_after_kill_9_of_the_holder(cluster, workdir):
    a = cluster.replica("a")
    a.wait_answering(ready=True)  # the first one up takes the lease
    b, c = cluster.replica("b"), cluster.replica("c")
    b.wait_answering()
    c.wait_answering()
    assert not b.ready() and not c.ready()
    assert b.cluster_status().startswith("standby (node b; holder: a")
    lb = cluster.haproxy([a, b, c])
    # HAProxy starts with every server up until its first checks mark the standbys down
    assert wait_until(lambda: nfs("nfs-ls", lb.url(f"/{cluster.bucket_name}"), check=False).returncode == 0, 60)
    data = os.urandom(3 * 1024 * 1024 + 5)
    src = workdir / "before.bin"
    src.write_bytes(data)
    nfs("nfs-cp", str(src), lb.url(f"/{cluster.bucket_name}/before.bin"))
    assert wait_until(lambda: cluster.bucket.object_exists("before.bin"), 60)
    assert "token 1" in a.cluster_status()
    # standby mode serves locks (one server at a time): the holder grants an NLM lock
    assert nlm_lock(a.nfs_port, cluster.bucket_name, "before.bin") == NLM4_GRANTED

    a.proc.kill()  # SIGKILL: no release; the lease expires after its TTL
    t0 = time.monotonic()
    holder = wait_one_ready([b, c])
    t_ready = time.monotonic() - t0
    assert wait_until(lambda: nfs("nfs-ls", lb.url(f"/{cluster.bucket_name}"), check=False).returncode == 0, 60)
    t_served = time.monotonic() - t0
    other = c if holder is b else b
    assert not other.ready()
    cluster.timing("kill9_to_ready", t_ready)
    cluster.timing("kill9_to_first_nfs_ls_through_haproxy", t_served)
    assert t_ready > TTL * 0.5, "a standby took the lease while the holder's could not have expired"
    assert re.search(rf"node {holder.name} now HOLDS the serving lease \(token 2", holder.log())
    back = workdir / "back.bin"
    nfs("nfs-cp", lb.url(f"/{cluster.bucket_name}/before.bin"), str(back))
    assert hashlib.sha256(back.read_bytes()).digest() == hashlib.sha256(data).digest()
    # the other standby notices the new holder at its next watch (every second): it may not have yet
    assert wait_until(lambda: f"the serving lease is held by node {holder.name}" in other.log(), 30), other.log()
    metrics = http_get(f"http://127.0.0.1:{holder.http_port}/q/metrics")[1]
    assert "ossgw_cluster_lease_acquisitions_total 1.0" in metrics
    assert re.search(r'ossgw_cluster_lease_holder\{node="' + holder.name + r'"\} 1\.0', metrics)
    # the new holder's first renewal comes a renew interval (1 s) after it took the lease, which on a quiet machine
    # can be after the requests above
    renewed = 'ossgw_cluster_store_requests_seconds_count{op="lease_renew",outcome="ok"}'
    assert wait_until(lambda: renewed in http_get(f"http://127.0.0.1:{holder.http_port}/q/metrics")[1], 10), metrics


def v41_open(client, bucket, name):
    """OPEN of /BUCKET/NAME for reading and writing by open owner "p": (status, filehandle, open stateid)."""
    status, res = client.call([nfs4_rpc.putrootfh(), nfs4_rpc.lookup(bucket), nfs4_rpc.lookup(name), nfs4_rpc.getfh()])
    assert status == nfs4_rpc.NFS4_OK, status
    fh = nfs4_rpc.getfh_result(res)
    status, res = client.call([nfs4_rpc.putfh(fh), nfs4_rpc.open_both(client.clientid, b"p")])
    if status != nfs4_rpc.NFS4_OK:
        return status, None, None
    return status, fh, nfs4_rpc.last_body(res)[:16]


def v41_session(port, owner, deadline):
    """A v4.1 client record and session of `owner` on the gateway at `port`, as soon as it answers (None if it does
    not within `deadline` seconds)."""
    found = []

    def attempt():
        try:
            c = nfs4_rpc.Client(port, owner, timeout=10)
        except OSError:
            return False
        if c.status != nfs4_rpc.NFS4_OK:
            c.close()
            return False
        found.append(c)
        return True

    return found[0] if wait_until(attempt, deadline) else None


def test_standby_takeover_keeps_v41_opens_and_locks_and_aborts_the_dead_holders_upload(cluster, workdir):
    """Issue 23 item 2: a v4.1 client holds an open and a write lock on A and has a large file half written (a
    multipart upload open); A is SIGKILLed; B, taking the lease over, loads A's client records from the store and runs
    the grace period: the client reclaims its open (CLAIM_PREVIOUS, with A's filehandle) and its lock on B, another
    client's conflicting lock waits (NFS4ERR_GRACE, NLM too), and after RECLAIM_COMPLETE the reclaimed lock holds.
    B aborts the upload A left open."""
    opts = ("multipart_size=5",)  # files of 5 MiB and more upload in parts while written
    a = cluster.replica("a", options=opts)
    a.wait_answering(ready=True)
    b = cluster.replica("b", options=opts)
    b.wait_answering()
    assert not b.ready()
    bucket = cluster.bucket
    rw = {"x-oss-meta-mode": str(0o100666)}  # ossfs's mode header: the test's uid may write
    bucket.put_object("locked.txt", b"0123456789" * 10, headers=rw)
    bucket.put_object("big.bin", b"", headers=rw)

    c1 = v41_session(a.nfs_port, b"host-c1", 60)
    assert c1 is not None, a.log()[-3000:]
    status, fh, opened = v41_open(c1, cluster.bucket_name, "locked.txt")
    assert status == nfs4_rpc.NFS4_OK, status
    status, res = c1.call([nfs4_rpc.putfh(fh), nfs4_rpc.lock_new(nfs4_rpc.WRITE_LT, c1.clientid, b"lo", opened, 0, 100)])
    assert status == nfs4_rpc.NFS4_OK, status
    status, big_fh, big = v41_open(c1, cluster.bucket_name, "big.bin")
    assert status == nfs4_rpc.NFS4_OK, status
    chunk = os.urandom(512 << 10)  # a 1 MiB WRITE and its header exceed the 1 MiB request the session allows
    for i in range(24):  # 12 MiB, unstable and never committed: parts go up while it is written
        status, _ = c1.call([nfs4_rpc.putfh(big_fh), nfs4_rpc.write(i * len(chunk), chunk, big)])
        assert status == nfs4_rpc.NFS4_OK, status

    def open_uploads():
        return [u.upload_id for u in bucket.list_multipart_uploads(prefix="big.bin").upload_list]

    assert wait_until(lambda: open_uploads(), 60), "no multipart upload of big.bin was started on A"
    left = open_uploads()

    a.proc.kill()  # SIGKILL: nothing released, nothing uploaded, the lease expires after its TTL
    t0 = time.monotonic()
    c1.close()
    c1 = v41_session(b.nfs_port, b"host-c1", 120)  # the client's recovery: a new client id and session on B
    assert c1 is not None, b.log()[-3000:]
    status, res = c1.call([nfs4_rpc.putfh(fh), nfs4_rpc.open_both(c1.clientid, b"p", reclaim=True)])
    t_reclaim = time.monotonic() - t0
    assert status == nfs4_rpc.NFS4_OK, f"OPEN CLAIM_PREVIOUS on the new holder: {status}\n{b.log()[-3000:]}"
    cluster.timing("kill9_to_first_v41_reclaim", t_reclaim)
    reopened = nfs4_rpc.last_body(res)[:16]
    status, _ = c1.call([nfs4_rpc.putfh(fh), nfs4_rpc.lock_new(nfs4_rpc.WRITE_LT, c1.clientid, b"lo", reopened, 0, 100,
                                                                 reclaim=True)])
    assert status == nfs4_rpc.NFS4_OK, f"LOCK reclaim on the new holder: {status}"

    c2 = v41_session(b.nfs_port, b"host-c2", 60)
    try:
        # a client A did not know: no reclaim, and nothing new while the known one may still reclaim
        status, _ = c2.call([nfs4_rpc.putfh(fh), nfs4_rpc.open_both(c2.clientid, b"q", reclaim=True)])
        assert status == nfs4_rpc.NFS4ERR_RECLAIM_BAD, status
        status, _ = c2.call([nfs4_rpc.putfh(fh), nfs4_rpc.lockt(nfs4_rpc.WRITE_LT, c2.clientid, b"x", 50, 1)])
        assert status == nfs4_rpc.NFS4ERR_GRACE, status
        assert v41_open(c2, cluster.bucket_name, "locked.txt")[0] == nfs4_rpc.NFS4ERR_GRACE
        assert nlm_lock(b.nfs_port, cluster.bucket_name, "locked.txt") == NLM4_DENIED_GRACE_PERIOD

        status, _ = c1.call([nfs4_rpc.reclaim_complete()])  # the only client A knew: the grace period ends
        assert status == nfs4_rpc.NFS4_OK, status
        status, _, other = v41_open(c2, cluster.bucket_name, "locked.txt")
        assert status == nfs4_rpc.NFS4_OK, status
        status, _ = c2.call([nfs4_rpc.putfh(fh), nfs4_rpc.lock_new(nfs4_rpc.WRITE_LT, c2.clientid, b"x", other, 50, 1)])
        assert status == nfs4_rpc.NFS4ERR_DENIED, "the reclaimed lock must hold"
        assert nlm_lock(b.nfs_port, cluster.bucket_name, "locked.txt") == NLM4_DENIED
    finally:
        c2.close()
        c1.close()
    # the upload A left open is aborted by B (what A had not completed is lost, as in a crash)
    assert wait_until(lambda: not set(left) & set(open_uploads()), 60), (left, open_uploads(), b.log()[-3000:])
    assert wait_until(lambda: re.search(r"node b aborted 1 multipart upload", b.log()), 30), b.log()[-3000:]
    assert bucket.get_object("locked.txt").read() == b"0123456789" * 10


class FakeStatd:
    """An NFSv3 client host's status monitor as a gateway sees it: a statd (NSM v1, program 100024) and an rpcbind
    (portmapper v2) over UDP on 127.0.0.1, on ports the OS picked; GETPORT of statd over UDP answers statd's port, and
    each SM_NOTIFY (stat_chge {mon_name, state}, XNFS chapter 11) is recorded. RPC by hand (RFC 5531)."""

    def __init__(self):
        self.notices = []
        self.statd, self.rpcbind = (socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(2))
        for s in (self.statd, self.rpcbind):
            s.bind(("127.0.0.1", 0))
        self.rpcbind_port = self.rpcbind.getsockname()[1]
        for s, handler in ((self.statd, self._statd), (self.rpcbind, self._rpcbind)):
            threading.Thread(target=self._serve, args=(s, handler), daemon=True).start()

    def _serve(self, sock, handler):
        while True:
            try:
                data, peer = sock.recvfrom(65536)
            except OSError:
                return  # closed
            xid, _mtype, _rpcvers, prog, vers, proc = struct.unpack(">6I", data[:24])
            off = 24
            for _ in range(2):  # credential and verifier
                _flavor, n = struct.unpack(">II", data[off:off + 8])
                off += 8 + n + (-n % 4)
            result = handler(prog, vers, proc, data[off:], peer)
            # REPLY, MSG_ACCEPTED, AUTH_NONE verifier, SUCCESS
            sock.sendto(struct.pack(">6I", xid, 1, 0, 0, 0, 0) + result, peer)

    def _rpcbind(self, prog, vers, proc, args, peer):
        if proc != 3:  # PMAPPROC_GETPORT
            return b""
        p, v, prot, _port = struct.unpack(">4I", args[:16])
        return struct.pack(">I", self.statd.getsockname()[1] if (p, v, prot) == (100024, 1, 17) else 0)

    def _statd(self, prog, vers, proc, args, peer):
        if proc == 6:  # SM_NOTIFY
            n = struct.unpack(">I", args[:4])[0]
            state = struct.unpack(">i", args[4 + n + (-n % 4):8 + n + (-n % 4)])[0]
            self.notices.append((args[4:4 + n].decode(), state, peer[0]))
        return b""

    def close(self):
        for s in (self.statd, self.rpcbind):
            s.close()


def test_standby_takeover_notifies_the_dead_holders_nlm_hosts_and_they_reclaim(cluster, workdir):
    """Issue 23 item 2, NLM: a client host takes an NLM lock on A, which records it in the store; A is SIGKILLed; B,
    taking the lease over, raises the NSM state number and sends the host's statd SM_NOTIFY (found through its
    rpcbind, here a fake one) with the configured name; the host reclaims its lock on B in the grace period, another
    host's new lock waits (NLM4_DENIED_GRACE_PERIOD) and, after the grace period, finds the reclaimed lock held."""
    statd = FakeStatd()
    try:
        props = (f"ossgw.nfs.nsm-rpcbind-port={statd.rpcbind_port}", "ossgw.nfs.nsm-name=nfs.example.com",
                 "ossgw.nfs.v4.grace-time=15s")
        a = cluster.replica("a", props=props)
        a.wait_answering(ready=True)
        b = cluster.replica("b", props=props)
        b.wait_answering()
        rw = {"x-oss-meta-mode": str(0o100666)}
        cluster.bucket.put_object("nlm.txt", b"x", headers=rw)
        assert nlm_lock(a.nfs_port, cluster.bucket_name, "nlm.txt", host="client1") == NLM4_GRANTED
        assert statd.notices == []

        a.proc.kill()
        t0 = time.monotonic()
        assert wait_one_ready([b]) is b
        assert wait_until(lambda: statd.notices, 60), b.log()[-3000:]
        cluster.timing("kill9_to_sm_notify", time.monotonic() - t0)
        assert statd.notices[0] == ("nfs.example.com", 3, "127.0.0.1"), statd.notices
        assert nlm_lock(b.nfs_port, cluster.bucket_name, "nlm.txt", host="client2") == NLM4_DENIED_GRACE_PERIOD
        assert nlm_lock(b.nfs_port, cluster.bucket_name, "nlm.txt", host="client1", reclaim=True) == NLM4_GRANTED
        cluster.timing("kill9_to_nlm_reclaim", time.monotonic() - t0)
        # after the grace period (15 s from B's start) the reclaimed lock holds against the other host
        assert wait_until(lambda: nlm_lock(b.nfs_port, cluster.bucket_name, "nlm.txt", host="client2")
                          != NLM4_DENIED_GRACE_PERIOD, 60)
        assert nlm_lock(b.nfs_port, cluster.bucket_name, "nlm.txt", host="client2") == NLM4_DENIED
        assert "SM_NOTIFY sent to client1@127.0.0.1" in b.log()
    finally:
        statd.close()


def test_a_paused_holder_writes_nothing_once_its_lease_ran_out(cluster, workdir):
    a = cluster.replica("a")
    a.wait_answering(ready=True)
    b = cluster.replica("b")
    b.wait_answering()
    lb = cluster.haproxy([a, b])
    os.kill(a.proc.pid, signal.SIGSTOP)
    t0 = time.monotonic()
    # a client already talking to a (not through the balancer) sends a file while a is stopped: the kernel queues it
    src = workdir / "late.bin"
    src.write_bytes(b"written to the paused holder\n")
    late = subprocess.Popen(["nfs-cp", str(src), nfs_url(a.nfs_port, f"/{cluster.bucket_name}/late.bin")],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        b_ready = wait_one_ready([b])
        cluster.timing("sigstop_to_standby_ready", time.monotonic() - t0)
        assert b_ready is b
        # the balancer follows once its checks marked the paused a down (no answer within `timeout check`) and b up
        assert wait_until(lambda: nfs("nfs-ls", lb.url(f"/{cluster.bucket_name}"), check=False, timeout=30)
                          .returncode == 0, 60)
        nfs("nfs-cp", str(src), lb.url(f"/{cluster.bucket_name}/from-b.bin"))
        os.kill(a.proc.pid, signal.SIGCONT)
        assert wait_until(lambda: "LOST the serving lease (token 1)" in a.log(), 60), a.log()[-3000:]
        assert wait_until(lambda: not port_open(a.nfs_port), 60), "the fenced holder still listens"
        late.wait(timeout=scaled(120))
    finally:
        kill_if_running(late)
    # a's NFS server has stopped (its stop uploads what clients wrote): whatever a did with the late file is done
    assert not cluster.bucket.object_exists("late.bin"), a.log()[-3000:]
    assert wait_until(lambda: cluster.bucket.object_exists("from-b.bin"), 60)
    assert not a.ready()
    assert "no renewal succeeded for" in a.log()
    assert b.ready()


def test_a_holder_cut_from_the_store_stops_before_the_standby_takes_over(cluster, workdir):
    proxy = cluster.proxy()
    a = cluster.replica("a", store_url=f"redis://127.0.0.1:{proxy.port}")
    a.wait_answering(ready=True)
    b = cluster.replica("b")
    b.wait_answering()
    proxy.cut()
    t0 = time.monotonic()
    seen = {}

    def watch():
        now = time.monotonic() - t0
        if "a_down" not in seen and not a.ready():
            seen["a_down"] = now
        if "a_closed" not in seen and not port_open(a.nfs_port):
            seen["a_closed"] = now
        if "b_ready" not in seen and b.ready():
            seen["b_ready"] = now
        return "b_ready" in seen

    assert wait_until(watch, 120), (a.log()[-3000:], b.log()[-3000:])
    assert "a_down" in seen and "a_closed" in seen, seen
    for k, v in seen.items():
        cluster.timing(f"store_cut_to_{k}", v)
    assert seen["a_down"] < seen["b_ready"] and seen["a_closed"] < seen["b_ready"], seen
    lost = a.log_time(r"node a LOST the serving lease")
    took = b.log_time(r"node b now HOLDS the serving lease")
    assert lost is not None and took is not None and lost < took, (lost, took)
    assert a.answering() and not a.ready()
    assert "no renewal succeeded for" in a.log()


def test_active_mode_a_file_closed_on_one_gateway_is_read_on_the_other_within_a_second(cluster, workdir):
    a = cluster.replica("a", mode="active", mount=True, options=["stat_cache_expire=600"])
    b = cluster.replica("b", mode="active", options=["stat_cache_expire=600"])
    a.wait_answering(ready=True)
    b.wait_answering(ready=True)
    name = cluster.bucket_name
    # b caches "no such file" and the listing (for 600 s without invalidations)
    assert nfs("nfs-cat", nfs_url(b.nfs_port, f"/{name}/shared.txt"), check=False).returncode != 0
    nfs("nfs-ls", nfs_url(b.nfs_port, f"/{name}"))
    # the control: a change straight to OSS (no gateway) stays unseen by b
    cluster.bucket.put_object("direct.txt", b"direct\n", headers={"x-oss-meta-mode": "33188"})
    assert nfs("nfs-cat", nfs_url(b.nfs_port, f"/{name}/direct.txt"), check=False).returncode != 0

    def read_on_b(path, expect):
        t0 = time.monotonic()
        while time.monotonic() - t0 < scaled(30):
            r = nfs("nfs-cat", nfs_url(b.nfs_port, f"/{name}/{path}"), check=False)
            if (r.returncode == 0 and r.stdout == expect) or (expect is None and r.returncode != 0):
                return time.monotonic() - t0
        raise AssertionError(f"b never saw {path} as {expect!r}: {b.log()[-2000:]}")

    with open(a.mountpoint / "shared.txt", "w") as f:
        f.write("version 1\n")
    seen = read_on_b("shared.txt", "version 1\n")  # close returned: the bytes are in OSS, the invalidation sent
    cluster.timing("active_create_seen_on_b", seen)
    assert seen < scaled(1.0), seen  # 1 s on a quiet machine (each try starts an nfs-cat process)
    with open(a.mountpoint / "shared.txt", "w") as f:
        f.write("version 2, longer\n")
    seen = read_on_b("shared.txt", "version 2, longer\n")
    cluster.timing("active_rewrite_seen_on_b", seen)
    assert seen < scaled(1.0), seen  # 1 s on a quiet machine (each try starts an nfs-cat process)
    os.rename(a.mountpoint / "shared.txt", a.mountpoint / "renamed.txt")
    seen = read_on_b("shared.txt", None)
    cluster.timing("active_rename_seen_on_b", seen)
    assert seen < scaled(1.0), seen  # 1 s on a quiet machine (each try starts an nfs-cat process)
    assert nfs("nfs-cat", nfs_url(b.nfs_port, f"/{name}/renamed.txt")).stdout == "version 2, longer\n"
    # no byte-range lock in active mode: one gateway's lock would not exclude the other's clients
    assert nlm_lock(a.nfs_port, name, "renamed.txt") == NLM4_DENIED_NOLOCKS
    assert nlm_lock(b.nfs_port, name, "renamed.txt") == NLM4_DENIED_NOLOCKS
    assert nlm_lock(b.nfs_port, name, "renamed.txt", unlock=True) == NLM4_GRANTED
    metrics_b = http_get(f"http://127.0.0.1:{b.http_port}/q/metrics")[1]
    received = re.search(r"ossgw_cluster_invalidations_received_total (\S+)", metrics_b)
    assert received and float(received.group(1)) >= 3, metrics_b
    assert b.cluster_status() == "active (node b)"


NFSPROC3_GETATTR, NFSPROC3_REMOVE, NFSPROC3_RENAME = 1, 12, 14
NFS3ERR_STALE, NFS3ERR_JUKEBOX = 70, 10008


def nfs3(port, proc, args):
    """One raw NFSv3 call (as root, squashed like nfs-cp's root): (nfsstat3, the rest of the reply)."""
    s = onc_rpc.connect(port)
    try:
        _xid, accepted, stat, rest = onc_rpc.rpc(s, 9, onc_rpc.NFS_PROGRAM, 3, proc, args, cred=onc_rpc.auth_sys(0, 0))
        assert accepted and stat == 0, (accepted, stat)
        return struct.unpack(">I", rest[:4])[0], rest[4:]
    finally:
        s.close()


def root_and_handle(port, bucket, name):
    """MOUNT /BUCKET and LOOKUP NAME on one gateway: (root handle, the object's handle)."""
    s = onc_rpc.connect(port)
    try:
        accepted, stat, root = onc_rpc.mnt(s, f"/{bucket}")
        assert accepted and stat == 0 and root, (accepted, stat)
        return root, onc_rpc.lookup(s, root, name)
    finally:
        s.close()


def getattr3(port, fh):
    """GETATTR: (nfsstat3, (type, mode, size, fileid, mtime seconds, mtime nanoseconds) or None)."""
    status, rest = nfs3(port, NFSPROC3_GETATTR, onc_rpc.fh3(fh))
    if status != 0:
        return status, None
    ftype, mode, _nlink, _uid, _gid, size, _used, _rdev, _fsid, fileid, _at, _atn, mt, mtn = struct.unpack(
        ">IIIIIQQQQQIIII", rest[:76])
    return 0, (ftype, mode, size, fileid, mt, mtn)


def diropargs(dir_fh, name):
    return onc_rpc.fh3(dir_fh) + onc_rpc.xdr_string(name)


def test_active_mode_a_handle_of_one_gateway_is_valid_on_the_other(cluster, workdir):
    """Issue 23 item 1: the handle table in the store, so a handle LOOKUP gave on A works on B and C with the same
    attributes, through a rename on A, and is STALE on all of them once the file is removed."""
    a = cluster.replica("a", mode="active")
    b = cluster.replica("b", mode="active")
    c = cluster.replica("c", mode="active")
    for r in (a, b, c):
        r.wait_answering(ready=True)
    log("shared handles: three gateways ready")
    name = cluster.bucket_name
    src = workdir / "payload"
    src.write_bytes(b"shared handles\n" * 100)
    nfs("nfs-cp", str(src), nfs_url(a.nfs_port, f"/{name}/made-on-a.bin"))
    root_a, fh = root_and_handle(a.nfs_port, name, "made-on-a.bin")
    root_b, fh_b = root_and_handle(b.nfs_port, name, "made-on-a.bin")
    assert fh_b == fh and root_b == root_a, "B gave another handle for the same object"
    status_a, attrs_a = getattr3(a.nfs_port, fh)
    status_b, attrs_b = getattr3(b.nfs_port, fh)
    assert status_a == status_b == 0 and attrs_b == attrs_a and attrs_a[2] == 1500, (status_a, status_b, attrs_a, attrs_b)
    assert getattr3(c.nfs_port, fh) == (0, attrs_a), "C, never asked for the name, resolves A's handle otherwise"
    # renamed through A: A's handle still names the file on B, with the same attributes
    status, _ = nfs3(a.nfs_port, NFSPROC3_RENAME, diropargs(root_a, "made-on-a.bin") + diropargs(root_a, "moved.bin"))
    assert status == 0, status
    assert wait_until(lambda: getattr3(b.nfs_port, fh)[0] == 0, 30)
    status_b, moved = getattr3(b.nfs_port, fh)
    assert status_b == 0 and moved[2:4] == attrs_a[2:4], (moved, attrs_a)
    assert wait_until(lambda: getattr3(c.nfs_port, fh) == (0, moved), 30), getattr3(c.nfs_port, fh)
    # the file was created through the gateway, so fh is a named handle (SEMANTICS.md "File handles"): after the
    # rename, LOOKUP of the new name answers the recorded handle the rename made; both lead to the one object
    moved_fh = root_and_handle(b.nfs_port, name, "moved.bin")[1]
    assert root_and_handle(a.nfs_port, name, "moved.bin")[1] == moved_fh, "A and B gave different handles"
    assert getattr3(b.nfs_port, moved_fh) == getattr3(b.nfs_port, fh) == (0, moved), "not the same object"
    # removed through A: the handle is STALE on both
    status, _ = nfs3(a.nfs_port, NFSPROC3_REMOVE, diropargs(root_a, "moved.bin"))
    assert status == 0, status
    assert getattr3(a.nfs_port, fh)[0] == NFS3ERR_STALE
    assert wait_until(lambda: getattr3(b.nfs_port, fh)[0] == NFS3ERR_STALE, 30), getattr3(b.nfs_port, fh)
    assert wait_until(lambda: getattr3(c.nfs_port, fh)[0] == NFS3ERR_STALE, 30), getattr3(c.nfs_port, fh)
    assert getattr3(b.nfs_port, moved_fh)[0] == NFS3ERR_STALE
    # a new file at the same name gets a new handle (the next generation), on both
    nfs("nfs-cp", str(src), nfs_url(b.nfs_port, f"/{name}/moved.bin"))
    again = root_and_handle(b.nfs_port, name, "moved.bin")[1]
    assert again != fh and root_and_handle(a.nfs_port, name, "moved.bin")[1] == again
    # the store down: the table cannot answer, so the gateway says "try later" (JUKEBOX), never a guessed handle
    log("shared handles: stopping the store")
    cluster.store.stop()
    status, _ = nfs3(a.nfs_port, onc_rpc.NFSPROC3_LOOKUP, diropargs(root_a, "moved.bin"))
    assert status == NFS3ERR_JUKEBOX, status
    assert getattr3(b.nfs_port, again)[0] == NFS3ERR_JUKEBOX
    log("shared handles: JUKEBOX seen on both")


def test_import_inodes_keeps_a_single_gateways_handles_valid_in_the_cluster(cluster, workdir):
    """`ossgw cluster import-inodes`: a handle of a single gateway (tables in its state directory) resolves on a
    cluster gateway after the import (the refusal of another table is RedisInodeTableTest's)."""
    name = cluster.bucket_name
    solo = cluster.replica("a", store_url="none")
    solo.wait_answering(ready=True)
    src = workdir / "payload"
    src.write_bytes(b"before the cluster\n")
    nfs("nfs-cp", str(src), nfs_url(solo.nfs_port, f"/{name}/old.txt"))
    _root, fh = root_and_handle(solo.nfs_port, name, "old.txt")
    status, attrs = getattr3(solo.nfs_port, fh)
    assert status == 0
    solo.stop()
    cfg = workdir / "import.properties"
    cfg.write_text(f"ossgw.cluster.store={cluster.store.url}\nossgw.cluster.name=e2e\n")
    r = subprocess.run([str(OSSGW), "cluster", "import-inodes", "--state-dir", str(workdir / "state-a"),
                        "--config", str(cfg)], capture_output=True, text=True, timeout=scaled(300),
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stdout + r.stderr
    assert re.search(r"imported nfs: \d+ numbers", r.stdout), r.stdout
    # a cluster gateway with an empty state directory answers the old handle
    b = cluster.replica("b", mode="active")
    b.wait_answering(ready=True)
    status_b, attrs_b = getattr3(b.nfs_port, fh)
    assert status_b == 0 and attrs_b == attrs, (status_b, attrs_b, attrs)
    # the old handle also works after a rename through the cluster gateway (the imported paths are indexed)
    root_b, _ = root_and_handle(b.nfs_port, name, "old.txt")
    status, _ = nfs3(b.nfs_port, NFSPROC3_RENAME, diropargs(root_b, "old.txt") + diropargs(root_b, "new.txt"))
    assert status == 0 and getattr3(b.nfs_port, fh)[0] == 0


def test_an_unknown_ossgw_property_is_named_with_the_nearest_known_one(ossgw_built, workdir):
    env = dict(os.environ, OSSGW_JAVA_OPTS="-Dossgw.cluster.stor=redis://127.0.0.1:1", QUARKUS_HTTP_PORT="0",
               OSSGW_STATE_DIR=str(workdir / "state"))
    r = subprocess.run([str(OSSGW), "serve", "demo", "--nfs", "--nfs-port", "0"], capture_output=True, text=True,
                       timeout=scaled(300), stdin=subprocess.DEVNULL, env=env)
    assert r.returncode != 0
    assert ("ossgw: unknown property ossgw.cluster.stor (in SysPropConfigSource); did you mean "
            "'ossgw.cluster.store'?") in r.stderr, r.stderr
