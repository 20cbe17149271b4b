"""ossgw benchmark harness (issue 6): the six workloads of docs/benchmarks.md against the OSS emulator on loopback, each
transfer beside the raw-SDK ceiling measured in the same run. Started by run.sh, which installs the tools, builds the
jars and copies them into the work directory; this file only measures and writes results.json (report.py, run after
it, turns that into results.md, chart.png and the docs/benchmarks.md headline).

Knobs (environment, sizes like 1g / 128k): SEQ_SIZE=1g SMALL_COUNT=10000 SMALL_SIZE=128k SMALL_THREADS=128
LS_COUNTS=1000,3000 LS_FILE_SIZE=1k DR_FILES=10 DR_SIZE=256m SB_FILES=128 SB_FILE_SIZE=8m SB_TIME=20 SB_FLAGS=direct
RND_TIME=10 STEPS=seq,https,small,ls,touch,dr,sysbench,nfs,smb PROFILE=1 GW_JAVA_OPTS="" GW_OPTIONS="opt=v,flag"
DR_OPTIONS="direct_read"."""
import json
import os
import signal
import subprocess
import sys
import time

import benchlib as b
import benchnet
from benchlib import log

BUCKET, AK, SK = "bench", "bench-ak", "bench-sk-0123456789"


def size(v):
    v = v.strip().lower()
    mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(v[-1], 1)
    return int(v[:-1] if mult > 1 else v) * mult


def options(spec):
    out = {}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        k, _, v = part.partition("=")
        out[k] = v if v else "true"
    return out


class Bench:
    def __init__(self, work, out, java):
        e = os.environ.get
        self.work, self.out, self.java = work, out, java
        self.app = os.path.join(work, "app", "quarkus-run.jar")
        self.jar = os.path.join(work, "benchmarks.jar")
        self.seq = size(e("SEQ_SIZE", "1g"))
        self.small_n, self.small_size = int(e("SMALL_COUNT", "10000")), size(e("SMALL_SIZE", "128k"))
        self.small_threads = int(e("SMALL_THREADS", "128"))
        self.ls_counts = [int(x) for x in e("LS_COUNTS", "1000,3000").split(",")]
        self.ls_file_size = size(e("LS_FILE_SIZE", "1k"))
        self.dr_files, self.dr_size = int(e("DR_FILES", "10")), size(e("DR_SIZE", "256m"))
        self.sb_files, self.sb_file_size = int(e("SB_FILES", "128")), size(e("SB_FILE_SIZE", "8m"))
        self.sb_time, self.rnd_time = int(e("SB_TIME", "20")), int(e("RND_TIME", "10"))
        self.sb_flags = e("SB_FLAGS", "direct")
        self.steps = e("STEPS", "seq,https,small,ls,touch,dr,sysbench,nfs,smb,nfsceil").split(",")
        self.profile = e("PROFILE", "1") == "1"
        self.gw_java_opts = e("GW_JAVA_OPTS", "").split()
        # the JIT mode users run: ./ossgw and the image's entrypoint start the gateway with C1 only unless the user's
        # options name a tiered mode (docs/benchmarks.md "Start-up and JIT"); runs before 2026-11-26 used C1 + C2
        if not any("Tiered" in o for o in self.gw_java_opts):
            self.gw_java_opts.append("-XX:TieredStopAtLevel=1")
        self.gw_options = options(e("GW_OPTIONS", ""))
        self.dr_options = options(e("DR_OPTIONS", "direct_read"))
        knobs = ("SEQ_SIZE", "SMALL_COUNT", "SMALL_SIZE", "SMALL_THREADS", "LS_COUNTS", "LS_FILE_SIZE", "DR_FILES",
                 "DR_SIZE", "SB_FILES", "SB_FILE_SIZE", "SB_TIME", "SB_FLAGS", "RND_TIME", "STEPS", "GW_JAVA_OPTS",
                 "GW_OPTIONS", "DR_OPTIONS")
        self.results = {"knobs": {k: e(k) for k in knobs if e(k) is not None},
                        "rows": [], "ls": [], "dr": None, "sysbench": [], "profiles": {}, "ceiling": {}}
        self.passwd = os.path.join(work, "passwd")
        with open(self.passwd, "w") as f:
            f.write(f"{BUCKET}:{AK}:{SK}\n")
        os.chmod(self.passwd, 0o600)
        self.emu = b.Emulator(java, self.app, work, BUCKET, AK, SK)
        self.gw = None

    # --- plumbing -------------------------------------------------------------------------------------------------
    def gateway(self, extra=None, fresh=True, java_opts=(), config=(), endpoint=None):
        """A gateway with the default options (+ GW_OPTIONS, + extra) and more config lines; fresh = state dir wiped
        (never seen a key)."""
        if self.gw:
            self.gw.stop()
        if fresh:
            b.wipe(os.path.join(self.work, "state"))
        opts = dict(self.gw_options, **(extra or {}))
        log(f"gateway up, options {opts or 'default'}")
        self.gw = b.Gateway(self.java, self.app, self.work, self.emu, BUCKET, self.passwd, opts,
                            [*self.gw_java_opts, *java_opts], config, endpoint)
        return self.gw

    def tool(self, cls, *args):
        """Runs one of our Java tools from benchmarks.jar; returns its stdout lines split into fields."""
        r = subprocess.run([self.java, "-cp", self.jar, f"io.ossgw.jmh.{cls}", *map(str, args)],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{cls} failed:\n{r.stdout}\n{r.stderr[-3000:]}")
        return [line.split() for line in r.stdout.splitlines() if line.strip()]

    def sdk(self, *args):
        """Runs SdkCeiling; per transfer: MB/s, seconds, the tool's own CPU seconds, and the load before."""
        load = round(os.getloadavg()[0], 2)
        out = {}
        for f in self.tool("SdkCeiling", self.emu.endpoint, BUCKET, AK, SK, *args):
            extra = {k: float(v) for k, _, v in (x.partition("=") for x in f[3:] if "=" in x)}
            out[f[0]] = {"mbps": float(f[1]), "s": float(f[2]), "load1": load, "cpu_tool_s": extra.get("cpu"),
                         **({"ops": float(f[3])} if len(f) > 3 and "=" not in f[3] else {})}
        return out

    def ceiling(self, *args):
        """One more SdkCeiling sample: each transfer's ceiling is the best sample of the run (every workload with a
        ceiling takes one before and one after itself, so a build that starts on the shared CPUs during one sample
        does not pass for the ceiling)."""
        for k, v in self.sdk(*args).items():
            self.results.setdefault("ceiling_samples", {}).setdefault(k, []).append(v)
            best = self.results["ceiling"].get(k)
            if best is None or v["mbps"] > best["mbps"]:
                self.results["ceiling"][k] = v

    def curl_ceiling(self):
        """One more curl sample (curl-put, curl-get: the non-SDK ceiling of issue 14), kept like the SDK's samples."""
        shm = "/dev/shm" if os.path.isdir("/dev/shm") else self.work
        for k, v in b.curl_ceiling(self.emu.endpoint, BUCKET, AK, SK, self.seq, shm).items():
            self.results.setdefault("ceiling_samples", {}).setdefault(k, []).append(v)
            best = self.results["ceiling"].get(k)
            if best is None or v["mbps"] > best["mbps"]:
                self.results["ceiling"][k] = v

    def seed(self, prefix, count, nbytes, threads=32):
        log(f"seeding {count} x {nbytes} B under {prefix}")
        self.tool("SeedObjects", self.emu.endpoint, BUCKET, AK, SK, f"prefix={prefix}", f"count={count}",
                  f"size={nbytes}", f"threads={threads}")

    def measure(self, name, fn, profile=False):
        """Runs fn() with the load average, CPU use per process and (optionally) JFR profiles recorded."""
        load = os.getloadavg()[0]
        alloc = None
        jcmd = os.path.join(os.path.dirname(self.java), "jcmd")
        jfr = os.path.join(os.path.dirname(self.java), "jfr")
        tag = "p" + str(len(self.results["profiles"]))  # jcmd splits arguments at spaces and commas
        if profile and self.profile:
            for who, pid in (("gateway", self.gw.pid), ("emulator", self.emu.pid)):
                subprocess.run([jcmd, str(pid), "JFR.start", f"name={tag}", "settings=profile"], capture_output=True)
        oss0 = self.emu.counters()
        with b.Usage(self.gw.pid, self.emu.pid, threads=profile) as u:
            value = fn()
        oss = b.counter_delta(oss0, self.emu.counters())
        if profile and self.profile:
            self.results["profiles"][name] = {}
            for who, pid in (("gateway", self.gw.pid), ("emulator", self.emu.pid)):
                f = os.path.join(self.work, f"{tag}-{who}.jfr")
                subprocess.run([jcmd, str(pid), "JFR.stop", f"name={tag}", f"filename={f}"], capture_output=True)
                v = subprocess.run([jfr, "view", "--width", "150", "hot-methods", f], capture_output=True, text=True)
                lines = [x for x in v.stdout.splitlines() if x.strip()]
                self.results["profiles"][name][who] = "\n".join(lines[:16])
                if who == "gateway":
                    alloc = b.jfr_allocated(jfr, f)
            self.results["profiles"][name]["threads"] = u.top_threads
        ctx = {"load1": round(load, 2), "wall_s": round(u.wall, 3), "oss": oss, **u.as_dict()}
        if profile and self.profile and alloc is not None:
            ctx["alloc_gateway_bytes"] = alloc
        log(f"{name}: {ctx}")
        return value, ctx

    def row(self, name, nbytes, seconds, ctx, ceiling_key, target=None, note="", files=None, native=None):
        """One transfer row. Beside MB/s and the ratio to the SDK ceiling: CPU seconds of the gateway per GiB moved,
        per 1,000 OSS requests and (for file workloads) per 1,000 files, and the same per GiB for the SDK ceiling and
        the non-SDK ceiling `native` (curl), which stay steady when MB/s does not (issue 14)."""
        ceil = self.results["ceiling"].get(ceiling_key)
        mbps = nbytes / 1e6 / seconds
        ratio = mbps / ceil["mbps"] if ceil else None
        gib = nbytes / 2**30
        requests = sum(v for k, v in ctx.get("oss", {}).items() if not k.startswith("Bytes"))
        cpu = ctx.get("cpu_gateway_s")
        per = lambda c, n: round(c / n, 3) if c is not None and n else None  # noqa: E731
        nat = self.results["ceiling"].get(native) if native else None
        self.results["rows"].append({"name": name, "mbps": round(mbps, 1), "seconds": round(seconds, 3),
                                     "ceiling": ceiling_key if ceil else None,
                                     "ceiling_mbps": ceil["mbps"] if ceil else None,
                                     "ratio": round(ratio, 3) if ratio else None, "target": target,
                                     "met": (ratio >= target) if (ratio and target) else None, "note": note,
                                     "oss_requests": requests, "cpu_per_gib": per(cpu, gib),
                                     "cpu_per_1k_requests": per(cpu, requests / 1000),
                                     "cpu_per_1k_files": per(cpu, files / 1000) if files else None,
                                     "alloc_mb_per_gib": per(ctx["alloc_gateway_bytes"] / 1e6, gib)
                                     if ctx.get("alloc_gateway_bytes") is not None else None,
                                     "ceiling_cpu_per_gib": per(ceil.get("cpu_tool_s") if ceil else None, gib),
                                     "native": native if nat else None,
                                     "native_mbps": nat["mbps"] if nat else None,
                                     "native_cpu_per_gib": per(nat["cpu_tool_s"] if nat else None, self.seq / 2**30),
                                     **ctx})

    def fio(self, args):
        t0 = time.monotonic()
        r = subprocess.run(["fio", "--output-format=json", "--ioengine=psync", "--bs=1M", *args],
                           capture_output=True, text=True)
        wall = time.monotonic() - t0
        if r.returncode != 0:
            raise RuntimeError("fio failed: " + r.stdout[-2000:] + r.stderr[-2000:])
        return wall, json.loads(r.stdout[r.stdout.index("{"):])

    # --- 1 + 2: fio sequential ------------------------------------------------------------------------------------
    def step_seq(self):
        gw = self.gateway()
        f = os.path.join(gw.mnt, "fio-seq.bin")
        common = [f"--filename={f}", f"--size={self.seq}"]
        sdk_args = (f"size={self.seq}", "part=10m", "chunk=4m", "parallel=5", f"rnd={self.rnd_time}", "block=16k")
        self.ceiling(*sdk_args)
        self.curl_ceiling()
        (wall, j), ctx = self.measure("fio seq write 1 MiB, 1 job, direct=1", lambda: self.fio(
            ["--name=seqwr", "--rw=write", "--direct=1", "--fallocate=none", "--end_fsync=1", *common]), True)
        fio_bw = j["jobs"][0]["write"]["bw_bytes"] / 1e6
        self.ceiling(*sdk_args)
        self.curl_ceiling()
        self.row("fio seq write 1 MiB, 1 job, direct=1", self.seq, wall, ctx, "put", 1.2,
                 f"fio's own figure (excl. open/close): {fio_bw:.1f} MB/s; wall includes end_fsync and close",
                 native="curl-put")
        for jobs in (1, 4):
            b.drop_caches()
            part = self.seq // jobs
            args = ["--name=seqrd", "--rw=read", "--direct=0", f"--filename={f}", f"--size={part}",
                    f"--numjobs={jobs}", f"--offset_increment={part}", "--group_reporting"]
            (wall, j), ctx = self.measure(f"fio seq read 1 MiB, {jobs} job(s), cold cache",
                                          lambda: self.fio(args), jobs == 1)
            self.row(f"fio seq read 1 MiB, {jobs} job(s), cold cache", part * jobs, wall, ctx, "get",
                     1.5 if jobs == 1 else 1.2,
                     f"fio's own figure: {j['jobs'][0]['read']['bw_bytes'] / 1e6:.1f} MB/s", native="curl-get")
        os.unlink(f)

    # --- 1 + 2 over TLS (issue 22): the same fio rows against an https:// endpoint ---------------------------------------
    def step_https(self):
        """The sequential write and 1-job cold read of step seq again through a fresh gateway whose endpoint is
        https:// (stunnel in front of the same emulator, a CA made for the run trusted through javax.net.ssl.trustStore),
        each row beside the same run's http:// row: CPU per GiB (target <= 1.2x) and MB/s (target >= 0.9x); with the
        TLS sessions stunnel negotiated and resumed."""
        front = b.TlsFront(self.java, self.work, self.emu)
        try:
            gw = self.gateway(java_opts=front.java_opts, endpoint=front.endpoint)
            f = os.path.join(gw.mnt, "fio-tls.bin")
            common = [f"--filename={f}", f"--size={self.seq}"]
            plain = {r["name"]: r for r in self.results["rows"]}
            for name, args, ceil, nat in (
                    ("fio seq write 1 MiB, 1 job, direct=1", ["--name=seqwr", "--rw=write", "--direct=1",
                                                              "--fallocate=none", "--end_fsync=1", *common], "put",
                     "curl-put"),
                    ("fio seq read 1 MiB, 1 job(s), cold cache", ["--name=seqrd", "--rw=read", "--direct=0",
                                                                  *common], "get", "curl-get")):
                if "read" in name:
                    b.drop_caches()
                hs0 = front.handshakes()
                (wall, _), ctx = self.measure(name + ", https://", lambda: self.fio(args), True)
                hs1 = front.handshakes()
                note = f"TLS sessions: {hs1[0] - hs0[0]} new, {hs1[1] - hs0[1]} resumed (stunnel)"
                p = plain.get(name)
                if p and p.get("cpu_per_gib") and ctx.get("cpu_gateway_s"):
                    cpu = ctx["cpu_gateway_s"] / (self.seq / 2**30)
                    note += (f"; {cpu / p['cpu_per_gib']:.2f}x the CPU per GiB and "
                             f"{self.seq / 1e6 / wall / p['mbps']:.2f}x the MB/s of the http:// row "
                             "(targets <= 1.2x, >= 0.9x)")
                self.row(name + ", https://", self.seq, wall, ctx, ceil, None, note, native=nat)
            os.unlink(f)
        finally:
            if self.gw:
                self.gw.stop()
                self.gw = None
            front.stop()

    # --- 3: many small files ----------------------------------------------------------------------------------------
    def step_small(self):
        gw = self.gateway()
        d = os.path.join(gw.mnt, "rw")
        n, s, t = self.small_n, self.small_size, self.small_threads
        sdk_args = ("size=0", f"count={n}", f"smallSize={s}", f"threads={t}")
        self.ceiling(*sdk_args)
        w, ctx_w = self.measure(f"rw-bench write {n} x {s // 1024} KiB, {t} threads",
                                lambda: self.tool("RwBench", d, "phase=write", f"count={n}", f"size={s}",
                                                  f"threads={t}")[0], True)
        b.drop_caches()
        r, ctx_r = self.measure(f"rw-bench read {n} x {s // 1024} KiB, {t} threads, cold cache",
                                lambda: self.tool("RwBench", d, "phase=read", f"count={n}", f"size={s}",
                                                  f"threads={t}")[0], True)
        self.ceiling(*sdk_args)
        ceil = self.results["ceiling"]
        self.row(f"rw-bench write {n} x {s // 1024} KiB, {t} threads", n * s, float(w[2]), ctx_w, "small-put", 0.85,
                 f"{float(w[3]):.0f} files/s (SDK {n / ceil['small-put']['s']:.0f}/s)", files=n)
        self.row(f"rw-bench read {n} x {s // 1024} KiB, {t} threads, cold cache", n * s, float(r[2]), ctx_r,
                 "small-get", 0.85, f"{float(r[3]):.0f} files/s (SDK {n / ceil['small-get']['s']:.0f}/s)",
                 files=n)

    # --- 4: ls -l and find ------------------------------------------------------------------------------------------
    def listing(self, n, cmd, label, gw):
        d = os.path.join(gw.mnt, f"ls{n}")
        argv = {"ls -l": ["ls", "-l", d], "find": ["find", d]}[cmd]
        self.emu.reset()
        ops0 = gw.fuse_ops()

        secs, ctx = self.measure(f"{cmd} {n} {label}", lambda: b.timed(argv))
        c = self.emu.counters()
        ops = b.counter_delta(ops0, gw.fuse_ops())
        extra = {}
        if label.startswith("warm"):  # one sample is at the mercy of the shared CPUs: median (and best) of 5
            times = sorted([secs] + [b.timed(argv) for _ in range(4)])
            secs, extra = times[2], {"best_s": round(times[0], 3), "runs": 5}
        self.results["ls"].append({"n": n, "cmd": cmd, "state": label, "seconds": round(secs, 3),
                                   "head": c.get("HeadObject", 0), "list": c.get("ListObjectsV2", 0)
                                   + c.get("ListObjects", 0), "get": c.get("GetObject", 0),
                                   "fuse_ops": sum(ops.values()), "fuse_by_op": ops, **extra, **ctx})

    def step_ls(self):
        for n in self.ls_counts:
            self.seed(f"ls{n}/f", n, self.ls_file_size)
        variants = [({}, "")]
        if "readdir_optimize" not in self.gw_options:
            variants.append(({"readdir_optimize": "true"}, ", readdir_optimize"))
        for extra, suffix in variants:
            for n in self.ls_counts if not suffix else self.ls_counts[-1:]:
                for cmd in ("ls -l", "find"):
                    gw = self.gateway(extra)  # fresh mount, empty state dir: the gateway has never seen the keys
                    os.stat(os.path.join(gw.mnt, f"ls{n}"))  # the directory's own lookup is not part of the listing
                    self.listing(n, cmd, "cold" + suffix, gw)
                    self.listing(n, cmd, "warm" + suffix, gw)
        self.local_listing(self.ls_counts[-1])

    def step_touch(self):
        """Issue 14: 1,000 `touch` processes (coreutils: open O_CREAT, dup2, close, futimens, close) creating new files
        in a directory the gateway made and listed; gateway CPU and OSS requests (target: <= 1.5 CPU-s, 1 each)."""
        gw = self.gateway()
        d = os.path.join(gw.mnt, "touch")
        os.mkdir(d)
        os.listdir(d)
        n = 1000
        self.emu.reset()
        _, ctx = self.measure(f"touch {n}", lambda: sum(b.timed(["touch", os.path.join(d, f"f{i}")])
                                                          for i in range(n)))
        oss = {k: v for k, v in ctx["oss"].items() if not k.startswith("Bytes") and v}
        self.results["touch"] = {"n": n, "seconds": round(ctx["wall_s"], 3), "requests": sum(oss.values()),
                                 "by_op": ", ".join(f"{k} {v}" for k, v in sorted(oss.items())), **ctx}

    def local_listing(self, n):
        """The same listings of a local ext4 directory, warm: what the client itself costs on this machine now."""
        d = os.path.join(self.work, f"local{n}")
        os.makedirs(d, exist_ok=True)
        for i in range(n):
            with open(os.path.join(d, f"f{i}"), "wb") as f:
                f.write(b"x" * self.ls_file_size)
        for cmd, argv in (("ls -l", ["ls", "-l", d]), ("find", ["find", d])):
            subprocess.run(argv, stdout=subprocess.DEVNULL, check=True)  # warm the dentry/inode caches
            times, ctx = self.measure(f"{cmd} {n} local", lambda: sorted(b.timed(argv) for _ in range(5)))
            self.results["ls"].append({"n": n, "cmd": cmd, "state": "warm, local ext4 (reference)",
                                       "seconds": round(times[2], 3), "best_s": round(times[0], 3), "runs": 5,
                                       "head": 0, "list": 0, "get": 0, "fuse_ops": 0, "fuse_by_op": {}, **ctx})

    # --- 5: concurrent direct_read ----------------------------------------------------------------------------------
    def step_dr(self):
        self.seed("dr/f", self.dr_files, self.dr_size, threads=self.dr_files)
        self.ceiling("size=0", f"many={self.dr_files}", "manyPrefix=dr/f")
        # Native memory tracking: what the peak RSS is made of (heap, direct buffers under "Other", threads ...)
        gw = self.gateway(self.dr_options, java_opts=["-XX:NativeMemoryTracking=summary"])
        b.drop_caches()
        state0 = b.disk_bytes(gw.state)
        files = [os.path.join(gw.mnt, "dr", f"f{i}") for i in range(self.dr_files)]

        def run():
            with b.Sampler(gw.pid, [gw.tmp, gw.state]) as smp:
                t0 = time.monotonic()
                errs = [open(os.path.join(self.work, f"dd-{i}.err"), "w+") for i in range(len(files))]
                ps = [subprocess.Popen(["dd", f"if={f}", "of=/dev/null", "bs=1M"], stderr=e)
                      for f, e in zip(files, errs)]
                done = {}
                while len(done) < len(ps):
                    for i, p in enumerate(ps):
                        if i not in done and p.poll() is not None:
                            done[i] = time.monotonic() - t0
                    time.sleep(0.02)
                failed = [f"{files[i]}: {(e.seek(0), e.read().strip())[1]}" for i, (p, e) in enumerate(zip(ps, errs))
                          if p.returncode]
                if failed:
                    raise RuntimeError("direct_read readers failed:\n" + "\n".join(failed))
                done = list(done.values())
            return max(done), sum(done) / len(done), smp
        # no JFR here: a recording's buffers would count in the RSS this workload measures
        (last, mean, smp), ctx = self.measure(f"{self.dr_files} concurrent sequential reads, {self.dr_options}", run)
        self.ceiling("size=0", f"many={self.dr_files}", "manyPrefix=dr/f")
        ceil = self.results["ceiling"]
        total = self.dr_files * self.dr_size
        # The engine's own figure (ossgw_memory_budget_bytes: capped by the JVM's direct memory, memory_limit, ...);
        # older gateways without the metric: the documented default, min(direct_read_prefetch_limit, memory / 4).
        budget, budget_peak = gw.metric("ossgw_memory_budget_bytes"), gw.metric("ossgw_memory_peak_bytes")
        if budget is None:
            mem_total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
            limit = int(self.dr_options.get("direct_read_prefetch_limit", "1024")) << 20
            budget = max(64 << 20, min(limit, mem_total // 4))
            if "memory_limit" in self.dr_options:
                budget = min(budget, int(self.dr_options["memory_limit"]) << 20)
        budget = int(budget)
        hwm = b.status_kb(gw.pid, "VmHWM") * 1024
        nmt = subprocess.run([os.path.join(os.path.dirname(self.java), "jcmd"), str(gw.pid), "VM.native_memory",
                              "summary", "scale=MB"], capture_output=True, text=True).stdout
        nmt = [ln.strip() for ln in nmt.splitlines() if "committed=" in ln and ln.lstrip().startswith(("Total", "-"))]
        self.results["dr"] = {"files": self.dr_files, "file_bytes": self.dr_size, "options": self.dr_options,
                              "completion_s": round(last, 3), "mean_s": round(mean, 3),
                              "mbps": round(total / 1e6 / last, 1), "ceiling_mbps": ceil["many-get"]["mbps"],
                              "ceiling_s": ceil["many-get"]["s"], "peak_rss": max(hwm, smp.peak_rss_kb * 1024),
                              "budget": budget, "budget_peak": budget_peak, "peak_spool": smp.peak_disk[gw.tmp],
                              "state_growth": max(0, smp.peak_disk[gw.state] - state0), "nmt": nmt, **ctx}
        opts = ",".join(self.dr_options)
        self.row(f"{self.dr_files} concurrent sequential reads of {self.dr_size >> 20} MiB ({opts})", total, last, ctx,
                 "many-get", 1.5, "completion time of the last reader")

    # --- 6: sysbench fileio -----------------------------------------------------------------------------------------
    def step_sysbench(self):
        gw = self.gateway()
        d = os.path.join(gw.mnt, "sb")
        os.makedirs(d, exist_ok=True)
        total = self.sb_files * self.sb_file_size
        base = ["sysbench", "fileio", f"--file-num={self.sb_files}", f"--file-total-size={total}"]
        flags = [f"--file-extra-flags={self.sb_flags}"] if self.sb_flags else []

        def sb(*args):
            r = subprocess.run([*base, *args], cwd=d, capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"sysbench {args} failed:\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
            return r.stdout
        _, ctx = self.measure("sysbench prepare", lambda: sb("prepare"))
        self.results["sysbench"].append({"mode": "prepare", "mbps": round(total / 1e6 / ctx["wall_s"], 1), **ctx})
        ceil = {"seqwr": "put", "seqrd": "get", "rndrd": "rndget", "rndwr": None}
        # seqwr last: sysbench deletes and re-creates the files for it (a creation test), so a timed seqwr leaves
        # them short and seqrd/rndrd/rndwr after it would refuse to run.
        for mode in ("seqrd", "rndrd", "rndwr", "seqwr"):
            b.drop_caches()
            out, ctx = self.measure(f"sysbench {mode}", lambda: sb(*flags, f"--file-test-mode={mode}",
                                                                   f"--time={self.sb_time}", "run"))
            vals = {}
            for line in out.splitlines():
                k, _, v = line.strip().partition(":")
                if k in ("read, MiB/s", "written, MiB/s", "reads/s", "writes/s", "fsyncs/s"):
                    vals[k] = float(v)
            mbps = (vals.get("read, MiB/s", 0) + vals.get("written, MiB/s", 0)) * 1.048576
            c = self.results["ceiling"].get(ceil[mode]) if ceil[mode] else None
            self.results["sysbench"].append({"mode": mode, "mbps": round(mbps, 1), "raw": vals,
                                             "ceiling": ceil[mode], "ceiling_mbps": c["mbps"] if c else None,
                                             "ratio": round(mbps / c["mbps"], 3) if c else None, **ctx})
        sb("cleanup")

    # --- 7, 8: the same engine over NFS and SMB (benchnet.py) ---------------------------------------------------------
    def step_nfs(self):
        benchnet.step_nfs(self)

    def step_smb(self):
        benchnet.step_smb(self)

    def step_nfsceil(self):
        benchnet.step_nfsceil(self)

    def run(self):
        t0 = time.monotonic()
        try:
            for step in self.steps:
                log(f"=== {step}")
                getattr(self, "step_" + step)()
        finally:
            if self.gw:
                self.gw.stop()
            self.emu.stop()
            self.results["duration_s"] = round(time.monotonic() - t0, 1)
            with open(os.path.join(self.out, "results.json"), "w") as f:
                json.dump(self.results, f, indent=1)


def main():
    # SIGTERM unwinds like Ctrl-C, so the finally blocks stop the JVMs and unmount
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work, out, java = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    try:
        Bench(work, out, java).run()
    finally:
        b.close_all()


if __name__ == "__main__":
    main()
