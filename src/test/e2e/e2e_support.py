"""Helpers of the end-to-end tests: running the built `./ossgw` launcher, watching /proc for mounts and ossgw
processes, and oss2 access to the emulator. Fixtures live in conftest.py."""
import hashlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import oss2

from deadlines import Deadline, scaled, slowdown, wait_exit, wait_until  # noqa: F401 (re-exported for the tests)

# A suite started in the background by a shell without job control (`bash .ci/run &`, nohup) inherits SIGINT
# ignored, and an ignored signal stays ignored in every process it starts: `ossgw` then rightly keeps ignoring Ctrl-C
# (POSIX's rule for background jobs), and the tests that stop it with SIGINT wait in vain. Handled here, SIGINT is
# back to its default in the processes the tests start.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

REPO = Path(__file__).resolve().parents[3]
OSSGW = REPO / "ossgw"
REGION = "cn-hangzhou"

# Every mount point of this session lives under BASE, so the session clean-up can find leftovers exactly.
BASE = Path(tempfile.mkdtemp(prefix="ossgw-e2e-"))


def log(msg):
    print(f"[e2e {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------------------- mounts
def _unescape(field):
    """Decodes the octal escapes of /proc/self/mountinfo (space = \\040) as bytes, so UTF-8 paths come out right."""
    raw = field.encode("latin-1")
    out = bytearray()
    i = 0
    while i < len(raw):
        if raw[i] == 0x5C and i + 3 < len(raw) and raw[i + 1:i + 4].isdigit():
            out.append(int(raw[i + 1:i + 4], 8))
            i += 4
        else:
            out.append(raw[i])
            i += 1
    return out.decode("utf-8", errors="surrogateescape")


def mounted_paths():
    """Mount points of FUSE mounts in this namespace (from /proc/self/mountinfo)."""
    out = []
    with open("/proc/self/mountinfo", encoding="latin-1") as f:
        for line in f:
            fields = line.split()
            sep = fields.index("-")
            if fields[sep + 1].startswith("fuse"):
                out.append(_unescape(fields[4]))
    return out


def is_mounted(mp):
    return str(mp) in mounted_paths()


def daemon_pids(mp):
    """PIDs of `ossgw mount ... MP ... -f` processes (the detached children) serving mount point MP."""
    pids = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            args = (d / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"quarkus-run.jar" in b" ".join(args) and b"mount" in args and os.fsencode(str(mp)) in args:
            pids.append(int(d.name))
    return pids


# `ossgw mount` (detached) and `ossgw umount` wait for the mount's process themselves, up to --timeout (their defaults);
# the tests give them those defaults scaled with the machine's load, like every other wait
_CLI_WAITS = {"mount": 120, "umount": 30, "unmount": 30}


def _scaled_cli_wait(args):
    args = [str(a) for a in args]
    base = _CLI_WAITS.get(args[0]) if args else None
    if base is None or "--timeout" in args or (args[0] == "mount" and "-f" in args):
        return args
    return [args[0], "--timeout", str(int(scaled(base))), *args[1:]]


def run_ossgw(*args, timeout=300, env=None, check=False):
    """Runs the launcher; returns the CompletedProcess (text output). `timeout`: quiet-machine seconds, scaled; so is
    the --timeout of `ossgw mount` and `ossgw umount` when the test names none."""
    args = _scaled_cli_wait(args)
    e = dict(os.environ)
    e.pop("OSS_ACCESS_KEY_ID", None)
    e.pop("OSS_ACCESS_KEY_SECRET", None)
    if env:
        e.update(env)
    t0 = time.time()
    r = subprocess.run([str(OSSGW), *args], capture_output=True, text=True, timeout=scaled(timeout),
                       env=e, stdin=subprocess.DEVNULL)
    log(f"ossgw {' '.join(map(str, args))[:160]} -> rc={r.returncode} in {time.time() - t0:.1f}s "
        f"(slowdown {slowdown():.1f})")
    if check and r.returncode != 0:
        raise AssertionError(f"ossgw {args} failed rc={r.returncode}\nstdout:{r.stdout}\nstderr:{r.stderr}")
    return r


def stop_process(p, sig=signal.SIGTERM, timeout=60):
    """Sends `sig` to a started launcher (SIGINT is what Ctrl-C sends) and returns its exit status; kills it and raises
    TimeoutExpired when it has not ended within `timeout` quiet-machine seconds, scaled."""
    p.send_signal(sig)
    t0 = time.time()
    try:
        rc = wait_exit(p, timeout)
        log(f"{os.path.basename(str(p.args[0]))} {p.args[1] if len(p.args) > 1 else ''} stopped by signal {int(sig)}: "
            f"exit {rc} after {time.time() - t0:.1f} s (slowdown {slowdown():.1f})")
        return rc
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        raise


def kill_if_running(p):
    """Kills a started process that has not ended and reaps it; for `finally` blocks, never fails."""
    if p.poll() is None:
        p.kill()
        p.wait()


def force_unmount(mp):
    """Unmounts MP whatever state it is in and ends its ossgw process; used by fixtures, never fails."""
    mp = str(mp)
    if is_mounted(mp):
        subprocess.run(["fusermount", "-u", mp], capture_output=True, timeout=scaled(60))
        if not wait_until(lambda: not is_mounted(mp), 15):
            subprocess.run(["umount", "-l", mp], capture_output=True, timeout=scaled(60))
    if not wait_until(lambda: not daemon_pids(mp), 30):
        for pid in daemon_pids(mp):
            log(f"killing leftover ossgw mount process {pid} of {mp}")
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if is_mounted(mp):
            subprocess.run(["umount", "-l", mp], capture_output=True, timeout=scaled(60))


class Mounts:
    """Mounts buckets of the emulator through `./ossgw mount` and unmounts them again."""

    def __init__(self, emu, workdir):
        self.emu = emu
        self.workdir = Path(workdir)
        self.active = []
        self.passwd = self.workdir / "passwd-ossfs"
        self.passwd.write_text(f"{emu.ak}:{emu.sk}\n")
        self.passwd.chmod(0o600)
        self.count = 0

    def options(self, bucket, extra=()):
        self.count += 1
        opts = [f"url={self.emu.endpoint}", f"passwd_file={self.passwd}", "sigv4", f"region={REGION}",
                f"logfile={self.workdir / f'mount-{bucket}-{self.count}.log'}",
                f"state_dir={self.workdir / 'state'}"]
        return ",".join([*opts, *extra])

    def mount(self, bucket, mountpoint=None, extra=(), source=None):
        """`ossgw mount BUCKET MP -o ...`; asserts success and returns the mount point."""
        mp = Path(mountpoint) if mountpoint else self.workdir / f"mnt-{bucket}"
        mp.mkdir(parents=True, exist_ok=True)
        r = run_ossgw("mount", source or bucket, mp, "-o", self.options(bucket, extra))
        assert r.returncode == 0, f"mount failed rc={r.returncode}: {r.stderr}"
        assert is_mounted(mp), f"{mp} not in /proc/self/mountinfo after a successful ossgw mount"
        self.active.append(mp)
        return mp

    def unmount(self, mp):
        """`ossgw umount MP`, then waits until the mount and its process are gone."""
        r = run_ossgw("umount", mp)
        assert r.returncode == 0, f"umount failed: {r.stderr}"
        t0 = time.time()
        assert wait_until(lambda: not is_mounted(mp), 30), f"{mp} still mounted"
        assert wait_until(lambda: not daemon_pids(mp), 60), \
            f"ossgw mount process of {mp} did not exit within {time.time() - t0:.0f} s (slowdown {slowdown():.1f})"
        log(f"mount process of {mp.name} gone {time.time() - t0:.1f} s after ossgw umount returned")
        if mp in self.active:
            self.active.remove(mp)

    def remount(self, mp, bucket, extra=()):
        self.unmount(mp)
        return self.mount(bucket, mp, extra)

    def cleanup(self):
        for mp in list(self.active):
            force_unmount(mp)
        self.active.clear()


def oss_bucket(emu, name):
    """An oss2 Bucket of the emulator (V4 signatures, path style)."""
    return oss2.Bucket(oss2.AuthV4(emu.ak, emu.sk), emu.endpoint, name, region=REGION)


def sha256_file(path, bufsize=1 << 20):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while True:
            chunk = f.read(bufsize)
            if not chunk:
                return h.hexdigest()
            h.update(chunk)


def all_keys(bucket, prefix=""):
    return [o.key for o in oss2.ObjectIteratorV2(bucket, prefix=prefix)]


def free_port():
    """A TCP port free on 127.0.0.1 right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port):
    """True when something accepts TCP connections on 127.0.0.1:`port` (a server started, or still listening)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


# the emulator's faults of the randomized file-system checks (fsx_diff over FUSE, NFS, SMB): 5 % of requests answer
# 503 SlowDown, 2 % of connections are reset; POST each to `/-/faults` (emulator_admin)
FSX_FAULTS = ("/-/faults?status=503&code=SlowDown&rate=0.05", "/-/faults?resetRate=0.02")


def emulator_admin(emu, method, path):
    """The body of a call to the emulator's admin endpoints (`/-/faults`, `/-/counters`): POST with an empty body, GET,
    DELETE; raises on an error status."""
    req = urllib.request.Request(emu.endpoint + path, data=b"" if method == "POST" else None, method=method)
    with urllib.request.urlopen(req, timeout=scaled(10)) as r:
        return r.read().decode()


def http_get(url):
    """(status, body) of a GET; error statuses are returned, not raised; (None, "") when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=scaled(10)) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()
    except OSError:
        return None, ""
