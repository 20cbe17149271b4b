"""Processes and measurements for the benchmark harness (bench.py): the OSS emulator and the gateway as child JVMs,
their counters (emulator /-/counters, gateway /q/metrics), CPU time per process, a peak RSS / disk-use sampler, and
page-cache dropping. Everything binds 127.0.0.1; every child is stopped (and the mount unmounted) by close_all()."""
import base64
import email.utils
import hashlib
import hmac
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.request

CLK_TCK = os.sysconf("SC_CLK_TCK")
_children = []  # every Proc started, stopped in reverse order by close_all()


def log(msg):
    print(time.strftime("%H:%M:%S"), msg, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def http(url, method="GET", timeout=10):
    """Body of a request as text; raises on connection errors and HTTP errors."""
    req = urllib.request.Request(url, method=method, data=b"" if method == "POST" else None)
    with urllib.request.urlopen(req, timeout=timeout) as r:
        return r.read().decode()


def wait_until(pred, timeout, what):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            if pred():
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"timed out after {timeout} s waiting for {what}")


def wait_serving(proc, what, up, limit, late, step=0.2):
    """Waits until `up()` is true (an OSError from it counts as not yet); SystemExit if `proc` exits, or with the
    message `late` once `limit` seconds passed."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise SystemExit(f"{what} exited")
        try:
            if up():
                return
        except OSError:
            pass
        time.sleep(step)
    raise SystemExit(late)


def wait_port(port, proc, what, limit=300):
    """Waits until 127.0.0.1:`port` accepts a connection; SystemExit if `proc` exits or `limit` seconds pass."""
    def listening():
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    wait_serving(proc, what, listening, limit, f"{what} did not listen on {port}")


def start_cluster_backends(ossgw, work, bucket, ak, sk):
    """For the cluster benchmarks: `ossgw emulator` (V4 credentials ak/sk, one bucket, data in work/oss, log
    work/emu.log) and a Valkey (or Redis) server without persistence (files in work/store), each on a free loopback
    port. Returns (emulator Popen, endpoint URL, store Popen, store URL); stop both with stop_popens."""
    eport = free_port()
    emu = subprocess.Popen([str(ossgw), "emulator", "--port", str(eport), "--bind", "127.0.0.1", "--data",
                            str(work / "oss"), "--bucket", bucket, "--access-key", ak],
                           env=dict(os.environ, OSSGW_EMULATOR_SECRET_KEY=sk), stdout=open(work / "emu.log", "wb"),
                           stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        wait_port(eport, emu, "emulator")
        valkey = shutil.which("valkey-server") or shutil.which("redis-server")
        vport = free_port()
        (work / "store").mkdir()
        v = subprocess.Popen([valkey, "--port", str(vport), "--bind", "127.0.0.1", "--dir", str(work / "store"),
                              "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    except BaseException:
        stop_popens([emu])
        raise
    try:
        wait_port(vport, v, "valkey")
    except BaseException:
        stop_popens([emu, v])
        raise
    return emu, f"http://127.0.0.1:{eport}", v, f"redis://127.0.0.1:{vport}"


def stop_popens(procs, grace=30):
    """SIGTERM to each process (last started first), SIGKILL after `grace` seconds."""
    for p in reversed(procs):
        p.terminate()
        try:
            p.wait(grace)
        except subprocess.TimeoutExpired:
            p.kill()


def is_mounted(path):
    path = os.path.realpath(path)
    with open("/proc/self/mounts") as f:
        return any(line.split()[1] == path for line in f)


def drop_caches():
    """Writes back dirty pages and drops the page, dentry and inode caches (the kernel's FUSE caches included)."""
    os.sync()
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3\n")


def cpu_times(pid):
    """(utime + stime, stime) of a process in seconds, from one read of /proc/PID/stat ((0, 0) if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK, int(fields[12]) / CLK_TCK
    except OSError:
        return 0.0, 0.0


def cpu_seconds(pid):
    """utime + stime of a process in seconds (0 if it is gone)."""
    return cpu_times(pid)[0]


def context_switches(pid):
    """Voluntary plus involuntary context switches of a process's live threads (0 if it is gone)."""
    total = 0
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0
    for t in tasks:
        try:
            with open(f"/proc/{pid}/task/{t}/status") as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        total += int(line.split()[1])
        except OSError:
            pass  # the thread ended meanwhile
    return total


def thread_cpu(pid):
    """CPU seconds per thread group of a process ("top -H" folded by name: digits dropped, so 'pool-3-thread-17' and
    'pool-3-thread-2' count together as 'pool-N-thread-N')."""
    out = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return out
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat") as f:
                head, tail = f.read().rsplit(")", 1)
            name = re.sub(r"[0-9]+", "N", head.split("(", 1)[1])
            fields = tail.split()
            out[name] = out.get(name, 0.0) + (int(fields[11]) + int(fields[12])) / CLK_TCK
        except (OSError, IndexError):
            pass
    return out


def machine_busy():
    """(busy, total) jiffies of all CPUs since boot, from /proc/stat (idle and iowait are not busy)."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    total = sum(v[:8])
    return total - v[3] - v[4], total


def status_kb(pid, key):
    """A kB field of /proc/PID/status (VmRSS, VmHWM), or 0."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def disk_bytes(path):
    """Bytes allocated on disk under path (st_blocks, like du), 0 if missing."""
    total = 0
    stack = [path]
    while stack:
        p = stack.pop()
        try:
            with os.scandir(p) as it:
                for e in it:
                    try:
                        if e.is_dir(follow_symlinks=False):
                            stack.append(e.path)
                        else:
                            total += e.stat(follow_symlinks=False).st_blocks * 512
                    except FileNotFoundError:
                        pass
        except (FileNotFoundError, NotADirectoryError):
            pass
    return total


class Sampler:
    """Samples every `interval` seconds, until stop(): the peak VmRSS of pid and the peak disk use of each path."""

    def __init__(self, pid, paths, interval=0.2):
        self.pid, self.paths, self.interval = pid, paths, interval
        self.peak_rss_kb = 0
        self.peak_disk = {p: 0 for p in paths}
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)

    def __enter__(self):
        self._t.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._t.join()
        self._sample()

    def _sample(self):
        self.peak_rss_kb = max(self.peak_rss_kb, status_kb(self.pid, "VmRSS"))
        for p in self.paths:
            self.peak_disk[p] = max(self.peak_disk[p], disk_bytes(p))

    def _run(self):
        while not self._stop.wait(self.interval):
            self._sample()


class Usage:
    """CPU seconds used by the gateway and the emulator, and the machine's busy share, over a `with` block."""

    def __init__(self, gw_pid, emu_pid, threads=False):
        self.pids = {"gateway": gw_pid, "emulator": emu_pid}
        self.threads = threads

    def __enter__(self):
        self.t0 = time.monotonic()
        self.th0 = {k: thread_cpu(p) for k, p in self.pids.items()} if self.threads else {}
        self.c0 = {k: cpu_seconds(p) for k, p in self.pids.items()}
        self.m0 = machine_busy()
        return self

    def __exit__(self, *exc):
        self.wall = time.monotonic() - self.t0
        self.cpu = {k: round(cpu_seconds(p) - self.c0[k], 2) for k, p in self.pids.items()}
        m1 = machine_busy()
        self.machine_busy = round((m1[0] - self.m0[0]) / max(1, m1[1] - self.m0[1]), 3)
        self.top_threads = {}
        for k, before in self.th0.items():
            after = thread_cpu(self.pids[k])  # threads that ended during the block are not counted
            d = {n: round(v - before.get(n, 0.0), 2) for n, v in after.items()}
            # CPU of threads that ended inside the block (e.g. libfuse workers, each a fresh jffi-attached thread)
            gone = round(self.cpu[k] - sum(v for v in d.values() if v > 0), 2)
            if gone > 0.05:
                d["(threads that exited)"] = gone
            self.top_threads[k] = sorted(((n, v) for n, v in d.items() if v > 0), key=lambda x: -x[1])[:8]

    def as_dict(self):
        return {"cpu_gateway_s": self.cpu["gateway"], "cpu_emulator_s": self.cpu["emulator"],
                "machine_busy": self.machine_busy}


class Proc:
    """A child process whose output goes to a log file; stop() sends SIGTERM, then SIGKILL after `grace` s."""

    def __init__(self, args, log_path, env=None):
        self.log_path = log_path
        self._out = open(log_path, "ab")
        self.p = subprocess.Popen(args, stdout=self._out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                  env=env, start_new_session=True)
        self.pid = self.p.pid
        _children.append(self)

    def alive(self):
        return self.p.poll() is None

    def stop(self, grace=60):
        if self.alive():
            self.p.send_signal(signal.SIGTERM)
            try:
                self.p.wait(grace)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        self._out.close()
        if self in _children:
            _children.remove(self)

    def tail(self, n=30):
        try:
            with open(self.log_path, errors="replace") as f:
                return "".join(f.readlines()[-n:])
        except OSError:
            return ""


def java_cmd(java, *args):
    return [java, "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", *args]


class Emulator:
    """`ossgw emulator` on the local disk with one bucket and V4 credentials."""

    def __init__(self, java, app_jar, work, bucket, ak, sk):
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        data = os.path.join(work, "emu")
        os.makedirs(data, exist_ok=True)
        self.proc = Proc(java_cmd(java, "-jar", app_jar, "emulator", "--port", str(self.port), "--bind", "127.0.0.1",
                                  "--data", data, "--bucket", bucket, "--access-key", ak, "--secret-key", sk),
                         os.path.join(work, "emulator.log"))
        self.pid = self.proc.pid
        wait_until(lambda: self.proc.alive() and "ok" in http(self.endpoint + "/-/health"), 60, "the emulator")

    def counters(self):
        return json.loads(http(self.endpoint + "/-/counters"))

    def reset(self):
        http(self.endpoint + "/-/counters/reset", method="POST")

    def stop(self):
        self.proc.stop()


class TlsFront:
    """stunnel (Debian's stunnel4, OpenSSL) on 127.0.0.1 in front of the emulator, with a certificate for 127.0.0.1
    issued by a CA made for the run (openssl): the https:// rows of issue 22. `endpoint` is https://127.0.0.1:PORT,
    `java_opts` the JVM options that make the gateway trust the CA (javax.net.ssl.trustStore, a PKCS12 made with the
    JDK's keytool). stunnel's own CPU is not the gateway's and is not counted."""

    def __init__(self, java, work, emulator):
        d = os.path.join(work, "tls")
        os.makedirs(d, exist_ok=True)

        def run(*argv):
            subprocess.run(argv, cwd=d, check=True, capture_output=True, timeout=120)
        run("openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=ossgw bench CA")
        run("openssl", "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout",
            "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1")
        with open(os.path.join(d, "ext.cnf"), "w") as f:
            f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
        run("openssl", "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "server.pem", "-days", "2", "-extfile", "ext.cnf")
        run(os.path.join(os.path.dirname(java), "keytool"), "-importcert", "-noprompt", "-alias", "ca", "-file",
            "ca.pem", "-keystore", "trust.p12", "-storetype", "PKCS12", "-storepass", "changeit")
        port = free_port()
        self.log_path = os.path.join(d, "stunnel.log")
        conf = os.path.join(d, "stunnel.conf")
        with open(conf, "w") as f:
            f.write(f"foreground = yes\npid =\ndebug = 6\noutput = {self.log_path}\n[oss]\n"
                    f"accept = 127.0.0.1:{port}\nconnect = 127.0.0.1:{emulator.port}\n"
                    f"cert = {d}/server.pem\nkey = {d}/server.key\n")
        stunnel = shutil.which("stunnel4") or shutil.which("stunnel")
        self.proc = Proc([stunnel, conf], os.path.join(d, "stunnel.out"))
        self.endpoint = f"https://127.0.0.1:{port}"
        self.java_opts = [f"-Djavax.net.ssl.trustStore={d}/trust.p12", "-Djavax.net.ssl.trustStorePassword=changeit"]
        wait_until(lambda: os.path.exists(self.log_path) and "Accepting new connections" in open(self.log_path).read(),
                   60, "stunnel")

    def handshakes(self):
        """(new, resumed) TLS sessions stunnel has logged so far."""
        text = open(self.log_path, errors="replace").read()
        return text.count("new session negotiated"), text.count("previous session reused")

    def stop(self):
        self.proc.stop()


class Gateway:
    """`ossgw serve --config` with one FUSE mount `bench` of the bucket (and the config lines given); metrics on a free
    HTTP port. `endpoint` replaces the emulator's own (the https:// of a TlsFront)."""

    def __init__(self, java, app_jar, work, emulator, bucket, passwd, options, java_opts=(), config=(), endpoint=None):
        self.mnt = os.path.join(work, "mnt")
        self.state = os.path.join(work, "state")
        self.tmp = os.path.join(work, "spool")
        for d in (self.mnt, self.state, self.tmp):
            os.makedirs(d, exist_ok=True)
        self.port = free_port()
        lines = ["quarkus.http.host=127.0.0.1", f"quarkus.http.port={self.port}",
                 f"ossgw.oss.endpoint={endpoint or emulator.endpoint}", f"ossgw.oss.passwd-file={passwd}",
                 f"ossgw.state-dir={self.state}", f"ossgw.mounts.bench.bucket={bucket}",
                 f"ossgw.mounts.bench.mountpoint={self.mnt}", f"ossgw.mounts.bench.options.tmpdir={self.tmp}"]
        lines += [f"ossgw.mounts.bench.options.{k}={v}" for k, v in options.items()]
        lines += list(config)  # more front ends of the same engine: NFS exports, SMB shares (benchnet.py)
        cfg = os.path.join(work, "serve.properties")
        with open(cfg, "w") as f:
            f.write("\n".join(lines) + "\n")
        self.proc = Proc(java_cmd(java, *java_opts, "-jar", app_jar, "serve", "--config", cfg),
                         os.path.join(work, "gateway.log"))
        self.pid = self.proc.pid
        try:
            wait_until(lambda: self._ready(), 180, "the gateway's mount")
        except RuntimeError:
            self.stop()
            raise RuntimeError("the gateway did not come up:\n" + self.proc.tail())

    def _ready(self):
        if not self.proc.alive():
            raise RuntimeError("the gateway exited:\n" + self.proc.tail())
        return is_mounted(self.mnt) and '"UP"' in http(f"http://127.0.0.1:{self.port}/q/health/ready")

    def fuse_ops(self):
        """FUSE callbacks so far by operation (lower-case names), from ossgw_fuse_operations_total."""
        ops = {}
        for m in re.finditer(r'^ossgw_fuse_operations_total\{([^}]*)\}\s+([0-9.eE+]+)',
                             http(f"http://127.0.0.1:{self.port}/q/metrics"), re.M):
            op = re.search(r'op="([^"]+)"', m.group(1)).group(1)
            ops[op] = ops.get(op, 0) + int(float(m.group(2)))
        return ops

    def metric(self, name):
        """Sum of a Prometheus metric's samples on /q/metrics (all label sets), or None if it is not there."""
        vals = [float(m.group(1)) for m in re.finditer(rf'^{re.escape(name)}(?:{{[^}}]*}})?\s+([0-9.eE+-]+)',
                                                          http(f"http://127.0.0.1:{self.port}/q/metrics"), re.M)]
        return sum(vals) if vals else None

    def stop(self):
        self.proc.stop()
        if is_mounted(self.mnt):
            subprocess.run(["fusermount", "-u", "-z", self.mnt], check=False)


def jfr_allocated(jfr, recording):
    """Bytes the recorded JVM allocated on its heap, estimated from JFR's jdk.ObjectAllocationSample events (each
    carries a `weight`: the bytes allocated since the thread's previous sample); None if the recording has none."""
    r = subprocess.run([jfr, "print", "--json", "--events", "jdk.ObjectAllocationSample", recording],
                       capture_output=True, text=True)
    weights = [int(w) for w in re.findall(r'"weight"\s*:\s*(\d+)', r.stdout)]
    return sum(weights) if weights else None


def timed(argv):
    """Seconds a command takes, its output read (as a terminal would) and dropped; raises if it fails."""
    t0 = time.monotonic()
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise RuntimeError(f"{argv} failed: {r.stderr[-500:]!r}")
    return time.monotonic() - t0


def wipe(path):
    shutil.rmtree(path, ignore_errors=True)


def close_all():
    for c in reversed(list(_children)):
        try:
            c.stop(grace=30)
        except Exception as e:  # keep stopping the others
            log(f"stopping pid {c.pid}: {e}")


def counter_delta(before, after):
    keys = set(before) | set(after)
    return {k: after.get(k, 0) - before.get(k, 0) for k in keys if after.get(k, 0) != before.get(k, 0)}


def v1_authorization(ak, sk, verb, resource, date, content_type=""):
    """OSS signature V1 header value for a request without Content-MD5 or x-oss-* headers (OSS API: "Include
    signatures in the Authorization header"): `OSS ak:base64(HMAC-SHA1(sk, VERB\\n\\nType\\nDate\\n/bucket/key))`."""
    sts = f"{verb}\n\n{content_type}\n{date}\n{resource}"
    return f"OSS {ak}:" + base64.b64encode(hmac.new(sk.encode(), sts.encode(), hashlib.sha1).digest()).decode()


def curl_transfer(endpoint, bucket, ak, sk, key, verb, src=None):
    """One PutObject (from file `src`) or GetObject (to /dev/null) with curl; (wall seconds, curl's CPU seconds).
    curl is C with no TLS here: the least CPU this machine spends to move the bytes over loopback HTTP, the yardstick
    that is not the Java SDK (issue 14)."""
    date = email.utils.formatdate(usegmt=True)
    ctype = "application/octet-stream" if verb == "PUT" else ""
    auth = v1_authorization(ak, sk, verb, f"/{bucket}/{key}", date, ctype)
    argv = ["curl", "-sS", "-f", "-o", "/dev/null", "-H", f"Date: {date}", "-H", f"Authorization: {auth}"]
    if verb == "PUT":
        argv += ["-H", f"Content-Type: {ctype}", "-H", "Expect:", "-T", src]
    t0 = time.monotonic()
    p = subprocess.Popen([*argv, f"{endpoint}/{bucket}/{key}"], stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.monotonic() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise RuntimeError(f"curl {verb} {key} failed ({p.returncode}): {p.stderr.read().decode()[-500:]}")
    return wall, ru.ru_utime + ru.ru_stime


def curl_ceiling(endpoint, bucket, ak, sk, size, tmpdir):
    """{"curl-put": ..., "curl-get": ...}: one object of `size` bytes sent and fetched with curl (MB/s, seconds and
    curl's CPU seconds, like SdkCeiling's rows). The source file lives in tmpdir (use tmpfs: /dev/shm) so reading it
    costs no disk I/O."""
    src = os.path.join(tmpdir, "curl-ceiling.bin")
    with open(src, "wb") as f:
        f.truncate(size)  # zeros; the emulator stores what it receives, content does not change the cost
    key = "curl-ceiling.bin"
    out = {}
    try:
        for name, verb in (("curl-put", "PUT"), ("curl-get", "GET")):
            wall, cpu = curl_transfer(endpoint, bucket, ak, sk, key, verb, src if verb == "PUT" else None)
            out[name] = {"mbps": round(size / 1e6 / wall, 1), "s": round(wall, 3), "cpu_tool_s": round(cpu, 3),
                         "load1": round(os.getloadavg()[0], 2)}
    finally:
        os.unlink(src)
    return out
