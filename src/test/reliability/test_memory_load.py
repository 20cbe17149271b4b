"""Memory inside the budget (issue 9 item 8): under concurrent readers and writers through `./ossgw mount ... -o
memory_limit=256`, the mount process's peak RSS (VmHWM of /proc/PID/status) stays within memory_limit plus the JVM's
own memory, OVERHEAD_MB (code, metaspace, thread stacks, GC and malloc: SEMANTICS.md "Memory").

The launcher turns memory_limit into the JVM's sizes (heap, direct memory; the engine's buffers take a quarter), so
the test also checks that the mount process was started with them. Short form: 8 readers + 4 writers for ~20 s;
long form (OSSGW_RELIABILITY=long): 32 readers + 8 writers for 3 minutes, as the adversarial run did. On a busy machine
the load runs longer, until the readers have read and the writers have written as many whole files as there are of
them (within a deadline scaled with the machine's load), so the peak is measured under a full load.
"""
import hashlib
import os
import re
import subprocess
import threading
import time
from pathlib import Path

from conftest import scale
from e2e_support import OSSGW, REPO, Deadline, all_keys, daemon_pids, log, wait_until

MEMORY_LIMIT_MB = 256
OVERHEAD_MB = 96  # the JVM's own memory above memory_limit (code, metaspace, threads), as SEMANTICS.md "Memory" states
READERS, WRITERS, SECONDS = scale((8, 4, 20), (32, 8, 180))
FILE_MB = 24  # each reader reads whole files of this size (read-ahead at full window), each writer writes them
FILES = 8


def status_kb(pid, field):
    m = re.search(rf"^{field}:\s+(\d+) kB", Path(f"/proc/{pid}/status").read_text(), re.M)
    return int(m.group(1))


def test_peak_rss_stays_within_memory_limit_plus_the_stated_overhead(mounts, new_bucket, workdir):
    name, bucket = new_bucket
    blob = os.urandom(1 << 20)
    digests = {}
    for i in range(FILES):
        data = blob * FILE_MB
        data = i.to_bytes(4, "big") + data[4:]
        bucket.put_object(f"in/f{i}.bin", data)
        digests[i] = hashlib.sha256(data).hexdigest()
    mp = mounts.mount(name, extra=[f"memory_limit={MEMORY_LIMIT_MB}"])
    (pid,) = daemon_pids(mp)
    cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    (mp / "out").mkdir()

    stop = threading.Event()
    errors = []
    reads, writes = [0] * READERS, [0] * WRITERS  # whole files done, per thread

    peak = {"rss": 0}

    def enough():
        return sum(reads) >= READERS and sum(writes) >= WRITERS

    def reader(n):
        i = n
        while not stop.is_set():
            h = hashlib.sha256()
            with open(mp / "in" / f"f{i % FILES}.bin", "rb") as f:
                while chunk := f.read(1 << 17):
                    h.update(chunk)
            if h.hexdigest() != digests[i % FILES]:
                errors.append(f"f{i % FILES}.bin read back wrong")
            reads[n] += 1
            i += 1

    def writer(n):
        chunk = os.urandom(1 << 20)
        k = 0
        while not stop.is_set():
            with open(mp / "out" / f"w{n}-{k}.bin", "wb") as f:
                for _ in range(FILE_MB):
                    f.write(chunk)
            writes[n] += 1
            k += 1

    def guarded(fn, n):
        try:
            fn(n)
        except Exception as e:  # an I/O error fails the test below, with the rest of the figures
            errors.append(f"{fn.__name__} {n}: {e!r}")

    threads = [threading.Thread(target=guarded, args=(reader, n)) for n in range(READERS)]
    threads += [threading.Thread(target=guarded, args=(writer, n)) for n in range(WRITERS)]
    t0 = time.time()
    for t in threads:
        t.start()
    # SECONDS of load, and on a busy machine longer: until enough() (a deadline of 300 quiet seconds, scaled, bounds it)
    deadline = Deadline(SECONDS + 300)
    while not errors and not deadline.expired() and (time.time() - t0 < SECONDS or not enough()):
        peak["rss"] = max(peak["rss"], status_kb(pid, "VmRSS"))
        time.sleep(0.2)
    stop.set()
    assert wait_until(lambda: not any(t.is_alive() for t in threads), 300), "readers or writers still running"
    hwm_mb = status_kb(pid, "VmHWM") / 1024
    log(f"memory load: {READERS} readers + {WRITERS} writers for {time.time() - t0:.0f} s: {sum(reads)} files read, "
        f"{sum(writes)} written ({FILE_MB} MB each); peak RSS {hwm_mb:.0f} MB (sampled {peak['rss'] / 1024:.0f} MB), "
        f"limit {MEMORY_LIMIT_MB} MB + {OVERHEAD_MB} MB")
    assert not errors, errors[:5]
    half = MEMORY_LIMIT_MB // 2
    assert f"-Xmx{half}m".encode() in cmdline and f"-XX:MaxDirectMemorySize={half}m".encode() in cmdline, cmdline
    assert enough(), (reads, writes)
    assert hwm_mb <= MEMORY_LIMIT_MB + OVERHEAD_MB, f"peak RSS {hwm_mb:.0f} MB"
    mounts.unmount(mp)
    written = all_keys(bucket, prefix="out/")  # every page: the long form writes more than 1,000 files
    assert len(written) >= sum(writes)


def test_launcher_and_entrypoint_size_memory_alike():
    """The sizing code is written out twice (the image has no ./ossgw); both copies must stay the same."""
    def block(path):
        text = path.read_text()
        return text[text.index("# >>> memory sizing"):text.index("# <<< memory sizing")]
    assert block(OSSGW) == block(REPO / "docker" / "entrypoint.sh")


def test_the_limit_comes_from_the_option_the_environment_the_config_or_the_cgroup(tmp_path):
    """Each source of memory_limit, in order, and the JVM options it gives (the functions of the launcher)."""
    script = (f"source <(sed -n '/^# >>> memory sizing/,/^# <<< memory sizing/p' {OSSGW}); "
              'ossgw_memory_limit "$@"; echo "|$(ossgw_memory_jvm_options "${SIZE:-256}")"')

    def sizing(*args, **env):
        e = {k: v for k, v in os.environ.items() if k not in ("OSSGW_MEMORY_LIMIT", "OSSGW_JAVA_OPTS")}
        e["OSSGW_CGROUP_FS"] = str(tmp_path / "no-cgroup")
        e.update(env)
        r = subprocess.run(["bash", "-c", script, "sizing", *args], capture_output=True, text=True, env=e, check=True)
        return r.stdout.strip()

    assert sizing("mount", "b", "/m", "-o", "url=x,memory_limit=300,ro").startswith("300 -o memory_limit")
    assert sizing("mount", "b", "/m", "-omemory_limit=300").startswith("300 ")
    assert sizing("serve", OSSGW_MEMORY_LIMIT="512").startswith("512 OSSGW_MEMORY_LIMIT")
    cfg = tmp_path / "ossgw.properties"
    cfg.write_text("ossgw.oss.region=cn-hangzhou\nossgw.options.memory_limit = 768\n")
    assert sizing("serve", "--config", str(cfg)).startswith("768 ossgw.options.memory_limit")
    assert sizing("serve", f"--config={cfg}", "-o", "memory_limit=100").startswith("100 -o")
    assert "-Xms128m -Xmx128m -XX:MaxDirectMemorySize=128m -XX:+UseSerialGC" in sizing("serve")
    cgroup = tmp_path / "cgroup"
    cgroup.mkdir()
    (cgroup / "memory.max").write_text("max\n")  # cgroup v2 without a limit: the JVM's defaults
    assert sizing("serve", OSSGW_CGROUP_FS=str(cgroup)).startswith("|")
    (cgroup / "memory.max").write_text(f"{2 << 30}\n")  # a 2 GiB pod: a quarter is left to the JVM itself and smbd
    assert sizing("serve", OSSGW_CGROUP_FS=str(cgroup)).startswith("1536 cgroup limit 2048 MB")
    (cgroup / "memory.max").write_text(f"{512 << 20}\n")  # a small one keeps at least 192 MB back
    assert sizing("serve", OSSGW_CGROUP_FS=str(cgroup)).startswith("320 cgroup limit 512 MB")
    large = sizing("serve", SIZE="2048")  # a 1 GB heap: G1, grown as needed
    assert "-Xmx1024m -XX:MaxDirectMemorySize=1024m" in large and "-Xms" not in large and "Serial" not in large
    explicit = sizing("serve", OSSGW_JAVA_OPTS="-Xmx1g -XX:+UseG1GC")
    assert "-Xm" not in explicit and "SerialGC" not in explicit and "MaxDirectMemorySize=128m" in explicit
