"""The NFS and SMB rows of the harness (issue 14: "no regression in the NFS and SMB numbers ... show them in the same
run"): the same engine behind `ossgw serve`'s NFS export and SMB share, one sequential file each way, beside the
raw-SDK put/get ceilings the `seq` step measured (run after it).

* nfs: libnfs `nfs-cp` of a SEQ_SIZE file into the export (NFSv3, one synchronous 1 MiB WRITE at a time, then
  COMMIT), then `nfs-cat` of it back (READs of 1 MiB) with the gateway's caches cold (a fresh gateway).
* smb: `smbclient put` and `get` (SMB 3.1.1) of the same size through the share; smbd is the gateway's child, so the
  row's CPU is the gateway's JVM and, beside it in the note, smbd's (its children's CPU reaped into it).
Each row gets the gateway's CPU seconds per GiB and per 1,000 OSS requests like the FUSE rows.
* nfsceil: nfs-ceiling.sh (issue 22): the NFS rows beside nfs-ganesha FSAL_MEM, same libnfs client, one private network
  namespace, the gateway on the launcher's own JVM options; its rows go to results["nfs_ceiling"]."""
import json
import os
import shutil
import subprocess

import benchlib as b
from benchlib import log

SMB_USER, SMB_PASSWORD = "ossgw-bench", "bench pw"


def _source(bench):
    """The file copied in: SEQ_SIZE bytes of a repeating random MiB in /dev/shm (not compressible, no disk read)."""
    d = "/dev/shm" if os.path.isdir("/dev/shm") else bench.work
    path = os.path.join(d, "ossgw-bench-net.bin")
    if not os.path.exists(path) or os.path.getsize(path) != bench.seq:
        block = os.urandom(1 << 20)
        with open(path, "wb") as f:
            for _ in range(bench.seq >> 20):
                f.write(block)
            f.write(block[:bench.seq & ((1 << 20) - 1)])
    return path


def _smbd_cpu():
    """CPU seconds of every smbd process, with their reaped children's (per-client smbd processes exit and are
    reaped by the parent smbd)."""
    total = 0.0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        if stat[stat.index("(") + 1:stat.rindex(")")] != "smbd":
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        total += sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    return total


def _same_engine(bench, key):
    """Config lines giving front end `key` the FUSE mount's engine options (serve refuses two engines of one bucket
    with different options)."""
    opts = dict(bench.gw_options, tmpdir=os.path.join(bench.work, "spool"))
    return [f"{key}.options.{k}={v}" for k, v in opts.items()]


def step_nfs(bench):
    if not shutil.which("nfs-cp"):
        log("nfs: no nfs-cp (libnfs-utils); step skipped")
        return
    src = _source(bench)
    port = b.free_port()
    lines = ["ossgw.exports.bench.bucket=bench", "ossgw.exports.bench.squash=none", "ossgw.nfs.bind=127.0.0.1",
             f"ossgw.nfs.port={port}", *_same_engine(bench, "ossgw.exports.bench")]
    url = f"nfs://127.0.0.1/bench/nfs-seq.bin?nfsport={port}&mountport={port}&version=3"
    bench.gateway(config=lines)
    _, ctx = bench.measure("NFSv3 nfs-cp write", lambda: b.timed(["nfs-cp", src, url]), True)
    bench.row("NFSv3 nfs-cp write 1 MiB WRITEs + COMMIT", bench.seq, ctx["wall_s"], ctx, "put", None,
              "libnfs nfs-cp: one synchronous 1 MiB WRITE at a time", native="curl-put")
    bench.gateway(config=lines)  # cold: a fresh gateway has nothing of the file in memory
    b.drop_caches()
    _, ctx = bench.measure("NFSv3 nfs-cat read", lambda: b.timed(["nfs-cat", url]), True)
    bench.row("NFSv3 nfs-cat read 1 MiB READs, cold", bench.seq, ctx["wall_s"], ctx, "get", None,
              "libnfs nfs-cat: one synchronous 1 MiB READ at a time", native="curl-get")


def step_nfsceil(bench):
    root = os.environ.get("BENCH_APP_ROOT")
    if not root or not shutil.which("unshare"):
        log("nfsceil: no BENCH_APP_ROOT (set by run.sh) or no unshare; step skipped")
        return
    out = os.path.join(bench.out, "nfs-ceiling.json")
    env = dict(os.environ, APP_ROOT=root, WORK=os.path.join(bench.work, "nfs-ceiling"), OUT=out)
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "nfs-ceiling.sh")
    r = subprocess.run([script], env=env, capture_output=True, text=True)
    log(r.stdout[-4000:])
    if r.returncode != 0:
        raise RuntimeError("nfs-ceiling.sh failed: " + r.stderr[-2000:])
    with open(out) as f:
        bench.results["nfs_ceiling"] = json.load(f)


def step_smb(bench):
    if not (shutil.which("smbclient") and os.path.exists("/usr/sbin/smbd")):
        log("smb: no smbd/smbclient; step skipped")
        return
    src = _source(bench)
    port = b.free_port()
    pw = os.path.join(bench.work, "smb.pw")
    with open(pw, "w") as f:
        f.write(SMB_PASSWORD + "\n")
    os.chmod(pw, 0o600)
    lines = ["ossgw.shares.bench.bucket=bench", "ossgw.smb.bind=127.0.0.1", f"ossgw.smb.port={port}",
             f"ossgw.smb.users.{SMB_USER}.password-file={pw}", *_same_engine(bench, "ossgw.shares.bench")]
    bench.gateway(config=lines)
    b.wait_until(lambda: subprocess.run(_smbclient(port, "ls"), capture_output=True).returncode == 0, 60,
                 "the SMB share")
    for verb, cmd, ceiling, native in (("put", f"put {os.path.basename(src)} smb-seq.bin", "put", "curl-put"),
                                       ("get", "get smb-seq.bin /dev/null", "get", "curl-get")):
        if verb == "get":
            b.drop_caches()
        smbd0 = _smbd_cpu()
        _, ctx = bench.measure(f"SMB smbclient {verb}", lambda: b.timed(_smbclient(port, cmd, os.path.dirname(src))),
                               True)
        smbd = round(_smbd_cpu() - smbd0, 2)
        bench.row(f"SMB 3.1.1 smbclient {verb}", bench.seq, ctx["wall_s"], dict(ctx, cpu_smbd_s=smbd), ceiling, None,
                  f"smbd (child of the gateway) used {smbd} CPU-s besides the gateway's {ctx['cpu_gateway_s']}",
                  native=native)


def _smbclient(port, command, cwd=None):
    argv = ["smbclient", "//127.0.0.1/bench", "-p", str(port), "-U", f"{SMB_USER}%{SMB_PASSWORD}", "-m", "SMB3",
            "-c", command]
    return argv if cwd is None else ["sh", "-c", f'cd "$1" && shift && exec "$@"', "sh", cwd, *argv]
