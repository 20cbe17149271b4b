"""The NFS rows beside their ceiling (issue 22 items 3 and 5): the same libnfs client workloads against nfs-ganesha
with FSAL_MEM (the protocol alone: no storage behind it) and against `ossgw serve --nfs` backed by the OSS emulator,
in one run, with each server's own CPU per unit. Run by nfs-ceiling.sh inside a private network (and mount) namespace,
where ganesha's rpcbind and ports cannot meet anyone else's; see that script for the knobs.

Rows, per server (in SERVERS' order, by default ganesha, floor, ossgw; RUNS times):
* write: one file of SIZE_MIB MiB in 1 MiB UNSTABLE WRITEs, DEPTH in flight (nfsload write), then COMMIT; for ossgw
  the COMMIT returns when the object is in OSS.
* read: the same file read back in 1 MiB READs, DEPTH in flight, by a fresh gateway (ganesha keeps its data in the
  process, so it is not restarted).
* small: PROCS processes, each creating SMALL_COUNT/PROCS files of SMALL_KIB KiB (create, WRITE, COMMIT, close), in
  the export's root (which no client lists: every CREATE asks the gateway's store whether its name is free), or with
  SMALL_DIR=1 in a new directory per pass that the processes make first (MKDIR, as `cp -r` does), whose listing the
  gateway then knows.
* small read: the same files read back by PROCS processes from a fresh gateway.
* floor (write rows only): spoolfloor.c, the kernel work of the gateway's write path in C with no protocol at all
  (loopback receive in 256 KiB reads, ISA-L CRC-64, pwrite into a new file in the spool's directory, sendfile of each
  10 MiB part to a loopback sink): what any server that stages writes on a file system's page cache and uploads them
  pays before it decodes one RPC; the gateway's write rows minus this row are its RPC, engine and HTTP work.
* with WARM=1 (the default) each of those rows is followed by "<row> warm": the same workload again in the same
  server process, on other names (a long-lived gateway's steady state; see run_server); WARM=N runs N such passes
  ("<row> warm", "<row> warm2", ...), WARM=0 none. ganesha gets the same rows.
Every row carries the server's peak RSS over its workload (VmHWM after `clear_refs` 5 at the row's start, so neither
start-up nor the row before counts; docs/benchmarks.md "Inside memory_limit") and its RSS at the start; with NMT=1 the
gateway's `VM.native_memory summary` and `GC.heap_info` after each row go to $WORK/nmt-<row>-<tag>.txt.
CPU is utime + stime of the server process from /proc/PID/stat over the workload (ganesha.nfsd; the gateway's JVM,
not the emulator's, which is reported beside it), with its kernel share (sys_s, stime) and the context switches of its
live threads (from /proc/PID/task/*/status) in each row's JSON; the 1-minute load average is taken before each row.
With PROFILE=1 the gateway's write and read rows (PROFILE_ROWS=write,read,small,small read, each also with " warm":
which) also carry a JFR recording (settings=profile, or the .jfc file JFR_SETTINGS names): heap bytes allocated per
GiB (from the jdk.ObjectAllocationSample weights) and the hottest methods. PERF_ROWS (same names, none by default)
records `perf record -F 499 -g` of the gateway over those rows (PERF_HZ: another sampling rate).
"""
import json
import os
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib as b  # noqa: E402
from benchlib import log  # noqa: E402

GANESHA_CONF = """NFS_CORE_PARAM {{
  Protocols = 3, 4; NFS_Port = {nfs}; MNT_Port = {mnt}; NLM_Port = {nlm}; Rquota_Port = {rquota};
  Enable_RQUOTA = false; Enable_NLM = false;
}}
NFSV4 {{ Graceless = true; RecoveryBackend = fs; RecoveryRoot = {work}/ganesha-recovery; }}
EXPORT_DEFAULTS {{ Transports = TCP; SecType = sys; }}
EXPORT {{
  Export_Id = 1; Path = /mem; Pseudo = /mem; Access_Type = RW; Squash = No_Root_Squash; Protocols = 3, 4;
  MaxRead = 1048576; MaxWrite = 1048576; PrefRead = 1048576; PrefWrite = 1048576;
  FSAL {{ Name = MEM; }}
}}
LOG {{ Default_Log_Level = WARN; }}
"""


def env_int(name, default):
    return int(os.environ.get(name, default))


class Settings:
    def __init__(self):
        self.app = os.environ["APP_ROOT"]
        self.work = os.environ["WORK"]
        self.nfsload = os.environ["NFSLOAD"]
        self.spoolfloor = os.environ.get("SPOOLFLOOR", "")
        self.size_mib = env_int("SIZE_MIB", 1024)
        self.depth = env_int("DEPTH", 16)
        self.small_count = env_int("SMALL_COUNT", 2000)
        self.small_kib = env_int("SMALL_KIB", 128)
        self.small_dir = env_int("SMALL_DIR", 0) == 1
        self.procs = env_int("PROCS", 16)
        self.runs = env_int("RUNS", 1)
        self.profile = os.environ.get("PROFILE", "1") == "1"
        # the rows JFR records with PROFILE=1 (write, read, small, small read)
        self.profile_rows = os.environ.get("PROFILE_ROWS", "write,read").split(",")
        # JFR's settings for those rows: "profile", or a .jfc file (e.g. one with a higher allocation-sample rate)
        self.jfr_settings = os.environ.get("JFR_SETTINGS", "profile")
        self.perf_rows = [r for r in os.environ.get("PERF_ROWS", "").split(",") if r]
        self.servers = os.environ.get("SERVERS", "ganesha,floor,ossgw").split(",")
        self.steps = os.environ.get("STEPS", "write,read,small,smallread").split(",")
        self.gw_options = os.environ.get("GW_OPTIONS", "")
        self.gw_java_opts = os.environ.get("GW_JAVA_OPTS", "")
        self.nmt = os.environ.get("NMT", "0") == "1"
        # each row again in the same server process after the cold one (the steady state of a long-lived gateway)
        self.warm = int(os.environ.get("WARM", "1"))  # warm passes after the cold one
        java_home = os.environ.get("JAVA_HOME", "")
        self.jcmd = os.path.join(java_home, "bin", "jcmd")
        self.jfr = os.path.join(java_home, "bin", "jfr")


def wait_port(port, proc, what, timeout=180):
    def up():
        if not proc.alive():
            raise RuntimeError(f"{what} exited:\n" + proc.tail())
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    b.wait_until(up, timeout, what)


class Ganesha:
    name = "ganesha"

    def __init__(self, s):
        self.s = s
        os.makedirs(os.path.join(s.work, "ganesha-recovery"), exist_ok=True)
        conf = os.path.join(s.work, "ganesha.conf")
        with open(conf, "w") as f:
            f.write(GANESHA_CONF.format(nfs=2049, mnt=20048, nlm=32803, rquota=875, work=s.work))
        os.makedirs("/run/rpcbind", exist_ok=True)
        self.rpcbind = b.Proc(["rpcbind", "-w", "-f"], os.path.join(s.work, "rpcbind.log"))
        b.wait_until(lambda: subprocess.run(["rpcinfo", "-p", "127.0.0.1"], capture_output=True).returncode == 0,
                     30, "rpcbind")
        self.proc = b.Proc(["ganesha.nfsd", "-F", "-L", os.path.join(s.work, "ganesha.log"), "-f", conf, "-p",
                            os.path.join(s.work, "ganesha.pid"), "-N", "NIV_WARN"], os.path.join(s.work, "ganesha.out"))
        self.pid = self.proc.pid
        b.wait_until(lambda: b"100005" in subprocess.run(["rpcinfo", "-p", "127.0.0.1"],
                                                         capture_output=True).stdout, 60, "ganesha's mountd")
        wait_port(2049, self.proc, "ganesha")

    def url(self, name):
        return f"nfs://127.0.0.1/mem/{name}?version=3&nfsport=2049&mountport=20048"

    def fresh(self):
        """FSAL_MEM keeps the files in the process: a restart would lose them. Nothing to do."""

    def version(self):
        r = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "nfs-ganesha"], capture_output=True, text=True)
        return "nfs-ganesha " + r.stdout.strip() + " FSAL_MEM"

    def stop(self):
        self.proc.stop(grace=10)
        self.rpcbind.stop(grace=5)


class Ossgw:
    name = "ossgw"

    def __init__(self, s):
        self.s = s
        self.emu_port_file = os.path.join(s.work, "emulator.port")
        self.emu = None
        self.proc = None
        self.pid = None
        self.port = None
        self.new_store(1)

    def new_store(self, run):
        """An empty in-memory emulator for run `run` (its log emulator.log, emulator-RUN.log after the first); the
        gateway, if running, is stopped first. The objects of earlier runs go with the old one (kept, they filled it:
        RUNS=3 at the default 1 GiB held 6 GiB, all of the emulator's direct memory, a quarter of RAM by default)."""
        if self.proc:
            self.proc.stop(grace=60)
            self.proc = None
        if self.emu:
            self.emu.stop(grace=30)
        if os.path.exists(self.emu_port_file):
            os.remove(self.emu_port_file)
        log = os.path.join(self.s.work, "emulator.log" if run == 1 else f"emulator-{run}.log")
        self.emu = b.Proc([os.path.join(self.s.app, "ossgw"), "emulator", "--port", "0", "--port-file",
                           self.emu_port_file, "--bucket", "bench", "--access-key", "ak", "--secret-key", "sk"],
                          log, env=self._env())
        b.wait_until(lambda: os.path.exists(self.emu_port_file) and open(self.emu_port_file).read().strip(), 120,
                     "the emulator")
        self.endpoint = "http://127.0.0.1:" + open(self.emu_port_file).read().strip()

    def _env(self):
        env = dict(os.environ, OSSGW_NO_BUILD="1", OSSGW_AOT=os.environ.get("GW_AOT", "0"), OSS_ACCESS_KEY_ID="ak",
                   OSS_ACCESS_KEY_SECRET="sk")
        return env

    def start(self):
        self.port = b.free_port()
        http = b.free_port()
        opts = f"url={self.endpoint},state_dir={self.s.work}/state,tmpdir={self.s.work}/spool"
        if self.s.gw_options:
            opts += "," + self.s.gw_options
        # the gateway's own state (the NFS handle table) in the work directory, not /var/lib/ossgw
        java_opts = f"-Dquarkus.http.port={http} -Dossgw.state-dir={self.s.work}/gateway {self.s.gw_java_opts}"
        if self.s.nmt:
            java_opts += " -XX:NativeMemoryTracking=summary"
        env = dict(self._env(), OSSGW_JAVA_OPTS=java_opts.strip())
        self.proc = b.Proc([os.path.join(self.s.app, "ossgw"), "serve", "bench", "--nfs", "--nfs-port", str(self.port),
                            "-o", opts], os.path.join(self.s.work, "gateway.log"), env=env)
        self.pid = self.proc.pid
        wait_port(self.port, self.proc, "the gateway")
        time.sleep(1)  # start-up's last tasks (metrics, caches) settle before the CPU is read

    def counters(self):
        """The emulator's request counters (OSS API name -> count)."""
        return json.loads(b.http(self.endpoint + "/-/counters"))

    def fresh(self):
        if self.proc:
            self.proc.stop(grace=60)
        b.drop_caches()
        self.start()

    def url(self, name):
        return f"nfs://127.0.0.1/bench/{name}?version=3&nfsport={self.port}&mountport={self.port}"

    def version(self):
        r = subprocess.run(["git", "-C", self.s.app, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
        rev = r.stdout.strip()
        label = os.path.join(self.s.app, ".bench-rev")  # run.sh's export of a commit has no .git; it writes this
        if not rev and os.path.exists(label):
            with open(label) as f:
                rev = f.read().strip()
        return "ossgw " + (rev or "?")

    def stop(self):
        if self.proc:
            self.proc.stop(grace=60)
        self.emu.stop(grace=30)


class SpoolFloor:
    """Not a server: spoolfloor.c, the write path's syscalls in C (see the module's docstring). Write rows only."""
    name = "floor"

    def __init__(self, s):
        if not s.spoolfloor:
            raise RuntimeError("SERVERS names floor but SPOOLFLOOR (the built spoolfloor.c) is not set")
        self.s = s
        self.spool = os.path.join(s.work, "spool")  # the gateway's tmpdir: the same file system
        os.makedirs(self.spool, exist_ok=True)

    def write(self, name):
        load = os.getloadavg()[0]
        r = subprocess.run([self.s.spoolfloor, str(self.s.size_mib), self.spool], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"spoolfloor failed: {r.stderr.strip()}")
        return dict(json.loads(r.stdout), server=self.name, row=name, load1=round(load, 2))

    def version(self):
        return "spoolfloor (C: recv, ISA-L CRC-64, pwrite, sendfile)"

    def stop(self):
        """Nothing runs between rows."""


def nfsload(s, *args):
    r = subprocess.run([s.nfsload, *map(str, args)], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"nfsload {args} failed: {r.stderr.strip()}")
    return json.loads(r.stdout)


def parallel(s, mode, url_of, per_proc, *extra):
    """PROCS nfsload processes at once; their summed bytes and files, the wall time of the slowest."""
    t0 = time.monotonic()
    procs = [subprocess.Popen([s.nfsload, mode, url_of(i), str(per_proc), *map(str, extra)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for i in range(s.procs)]
    total = {"bytes": 0, "files": 0, "checksums": []}
    try:
        for p in procs:
            out, err = p.communicate()
            if p.returncode != 0:
                raise RuntimeError(f"nfsload {mode} failed: {err.strip()}")
            r = json.loads(out)
            total["bytes"] += r["bytes"]
            total["files"] += r["files"]
            total["checksums"].append(r["checksum"])
    finally:
        for p in procs:  # after a failure the others must not outlive the run and load the next one's measurements
            if p.poll() is None:
                p.kill()
                p.wait()
    total["seconds"] = time.monotonic() - t0
    return total


def measure(s, server, name, fn):
    load = os.getloadavg()[0]
    tag = "p" + str(int(time.time() * 1000) % 10**9)
    jfr_file = None
    profile = name in s.profile_rows
    if profile and s.profile and server.name == "ossgw":
        subprocess.run([s.jcmd, str(server.pid), "JFR.start", f"name={tag}", f"settings={s.jfr_settings}"],
                       capture_output=True)
    emu_pid = server.emu.pid if server.name == "ossgw" else None
    oss0 = server.counters() if emu_pid else {}
    with open(f"/proc/{server.pid}/clear_refs", "w") as f:
        f.write("5\n")  # resets VmHWM: the peak of this row, not of start-up or the row before
    rss0 = b.status_kb(server.pid, "VmRSS")
    (c0, k0), e0 = b.cpu_times(server.pid), b.cpu_seconds(emu_pid) if emu_pid else 0
    x0 = b.context_switches(server.pid)
    t0 = b.thread_cpu(server.pid)
    perf = None
    if name in s.perf_rows and server.name == "ossgw":
        perf_file = os.path.join(s.work, f"{name.replace(' ', '-')}-{tag}.perf.data")
        hz = os.environ.get("PERF_HZ", "499")
        perf = subprocess.Popen(["perf", "record", "-F", hz, "-g", "-o", perf_file, "-p", str(server.pid)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    result = fn()
    (c1, k1), e1 = b.cpu_times(server.pid), b.cpu_seconds(emu_pid) if emu_pid else 0
    x1 = b.context_switches(server.pid)
    t1 = b.thread_cpu(server.pid)
    if perf:
        perf.send_signal(2)  # SIGINT: perf writes its file and exits
        perf.wait(timeout=120)
    row = {"server": server.name, "row": name, "load1": round(load, 2), "cpu_s": round(c1 - c0, 3),
           "emulator_cpu_s": round(e1 - e0, 3) if emu_pid else None, "rss_before_mib": round(rss0 / 1024),
           "peak_rss_mib": round(b.status_kb(server.pid, "VmHWM") / 1024), **result,
           # the kernel's share of cpu_s, and the live threads' context switches (each costly in a VM)
           "sys_s": round(k1 - k0, 3), "context_switches": x1 - x0}
    # where the CPU went, by thread group (live threads only: ended ones are counted in cpu_s, not here)
    threads = {k: round(v - t0.get(k, 0), 2) for k, v in t1.items() if v - t0.get(k, 0) >= 0.05}
    row["threads"] = dict(sorted(threads.items(), key=lambda kv: -kv[1])[:8])
    if emu_pid:
        row["oss"] = {k: v for k, v in b.counter_delta(oss0, server.counters()).items() if v}
    if perf:
        row["perf"] = perf_file
    if s.nmt and server.name == "ossgw":
        # where the row left the memory: native (heap committed, "Other" = direct buffers, thread stacks) and the heap
        nmt = "".join(subprocess.run([s.jcmd, str(server.pid), *cmd], capture_output=True, text=True).stdout
                      for cmd in (["VM.native_memory", "summary"], ["GC.heap_info"]))
        row["nmt"] = os.path.join(s.work, f"nmt-{name.replace(' ', '-')}-{tag}.txt")
        with open(row["nmt"], "w") as f:
            f.write(nmt)
    if profile and s.profile and server.name == "ossgw":
        jfr_file = os.path.join(s.work, f"{name.replace(' ', '-')}-{tag}.jfr")
        subprocess.run([s.jcmd, str(server.pid), "JFR.stop", f"name={tag}", f"filename={jfr_file}"],
                       capture_output=True)
        alloc = b.jfr_allocated(s.jfr, jfr_file)
        if alloc is not None:
            row["alloc_bytes"] = alloc
        row["jfr"] = jfr_file
    return row


def summarize(row):
    gib = row["bytes"] / 2**30
    row["mbps"] = round(row["bytes"] / 1e6 / row["seconds"], 1)
    row["cpu_per_gib"] = round(row["cpu_s"] / gib, 3) if gib else None
    if row.get("files", 1) > 1:
        row["files_per_s"] = round(row["files"] / row["seconds"], 1)
        row["cpu_per_1k_files"] = round(row["cpu_s"] / (row["files"] / 1000), 3)
    if row.get("alloc_bytes") is not None and gib:
        row["alloc_mb_per_gib"] = round(row["alloc_bytes"] / 1e6 / gib, 1)
    log(json.dumps({k: v for k, v in row.items() if k != "checksums"}))
    return row


def run_server(s, server, run):
    """The cold rows (a fresh gateway for the write, the read and the small reads) and, with WARM=1, each followed by
    the same workload again in the same gateway process (the row's name + " warm") on other names: a second file
    written; the file the warm write made read (written by another process, so it comes from OSS, not from memory);
    another 2,000 small files written; and those read back (written by the previous process: from OSS too)."""
    rows = []
    per = s.small_count // s.procs
    passes = [""] + [" warm" + (str(i) if i > 1 else "") for i in range(1, s.warm + 1)]
    seq = {p: f"seq-{run}{p.strip()}.bin" for p in passes}
    small_url = {p: (lambda i, p=p: server.url(f"small-{run}{p.strip()}-p{i}")) for p in passes}
    small_dir = {p: [f"smalldir-{run}{p.strip()}"] if s.small_dir else [] for p in passes}
    if server.name == "floor":
        return [summarize(server.write("write" + p)) for p in passes] if "write" in s.steps else []
    if server.name == "ossgw":
        if run > 1:
            server.new_store(run)
        server.fresh()
    written = {}
    if "write" in s.steps:
        for p in passes:
            row = measure(s, server, "write" + p,
                          lambda: nfsload(s, "write", server.url(seq[p]), s.size_mib, s.depth))
            written[p] = row["checksum"]
            rows.append(summarize(row))
    if "read" in s.steps:
        server.fresh()
        for p in passes:
            row = measure(s, server, "read" + p, lambda: nfsload(s, "read", server.url(seq[p]), s.depth))
            if server.name == "ossgw" and written.get(p) and row["checksum"] != written[p]:
                raise RuntimeError(f"read back {row['checksum']}, written {written[p]}")
            rows.append(summarize(row))
    if "small" in s.steps:
        for p in passes:
            rows.append(summarize(measure(s, server, "small" + p,
                                          lambda: parallel(s, "small", small_url[p], per, s.small_kib, *small_dir[p]))))
    if "smallread" in s.steps:
        server.fresh()
        for p in passes:
            rows.append(summarize(measure(s, server, "small read" + p,
                                          lambda: parallel(s, "smallread", small_url[p], per, *small_dir[p]))))
    return rows


def main():
    s = Settings()
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    results = {"started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
               "settings": {k: v for k, v in vars(s).items() if k not in ("jcmd", "jfr")}, "rows": [], "versions": {}}
    servers = []
    try:
        for name in s.servers:
            server = {"ganesha": Ganesha, "floor": SpoolFloor}.get(name, Ossgw)(s)
            servers.append(server)
            results["versions"][name] = server.version()
        for run in range(1, s.runs + 1):
            for server in servers:
                for row in run_server(s, server, run):
                    row["run"] = run
                    results["rows"].append(row)
    finally:
        for server in reversed(servers):
            server.stop()
        b.close_all()
    results["finished"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    out = os.environ.get("OUT", os.path.join(s.work, "nfs-ceiling.json"))
    with open(out, "w") as f:
        json.dump(results, f, indent=1)
    print_table(results)


def print_table(results):
    print(f"\n{results['started']} .. {results['finished']}; " + ", ".join(results["versions"].values()))
    print("| run | server | row | MB/s | files/s | CPU-s | CPU-s/GiB | CPU-s/1,000 files | heap MB/GiB (JFR) | "
          "peak RSS MiB | emulator CPU-s | load | OSS requests |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in results["rows"]:
        cell = lambda k: "" if r.get(k) is None else str(r[k])  # noqa: E731
        print(f"| {r['run']} | {r['server']} | {r['row']} | {cell('mbps')} | {cell('files_per_s')} | {cell('cpu_s')} | "
              f"{cell('cpu_per_gib')} | {cell('cpu_per_1k_files')} | {cell('alloc_mb_per_gib')} | "
              f"{cell('peak_rss_mib')} | {cell('emulator_cpu_s')} | {r['load1']} | "
              + ", ".join(f"{k} {v}" for k, v in sorted(r.get("oss", {}).items()) if not k.startswith("Bytes")) + " |")


if __name__ == "__main__":
    main()
