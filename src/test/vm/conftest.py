"""Fixtures of the VM lane: the Linux kernel's NFS (and CIFS) clients in a QEMU guest against `./ossgw serve` on the
host. See README.md here for how to add a test.

The e2e fixtures (emulator, new_bucket, workdir, mounts, ossgw_built, the session clean-up) are loaded from
src/test/e2e/conftest.py, as the reliability suite does, so all suites share one definition. This file adds:
- `gateway`: a factory that starts `ossgw serve --config` on 127.0.0.1 (free ports unless told) with any extra
  properties (NFS exports, rpcbind, SMB shares ...) and stops it at the end of the test;
- `guest`: runs a shell script in the guest (src/test/vm/run.sh) and returns (rc, output); jobs/lib.sh is next to
  it as /job/lib.sh;
- `scale(short, long)`: the size of a workload; OSSGW_VM=long selects the long form.
"""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
_E2E = HERE.parents[0] / "e2e"
sys.path.insert(0, str(_E2E))  # e2e_support, importable by the tests of this lane
from e2e_fixtures import export_e2e_fixtures  # noqa: E402
from e2e_support import OSSGW, free_port, http_get, log, scaled, slowdown, stop_process, wait_until  # noqa: E402

export_e2e_fixtures(globals(), "ossgw_e2e_fixtures_vm")

LONG = os.environ.get("OSSGW_VM", "short") == "long"
RUN = HERE / "run.sh"
LIB = HERE / "jobs" / "lib.sh"
HOST = "10.0.2.2"  # the host's loopback as the guest sees it (QEMU user-mode networking)


def scale(short, long):
    """The size of a workload: `short` in CI, `long` with OSSGW_VM=long."""
    return long if LONG else short


def _port_free(port, kind=socket.SOCK_STREAM):
    with socket.socket(socket.AF_INET, kind) as s:
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def skip_unless_standard_nfs_ports_free():
    """Skips the test when 127.0.0.1's standard ports 111 (rpcbind, TCP and UDP) or 2049 (NFS) are taken: the
    tests that mount without port options (the kernel asks rpcbind on 111) need the gateway there."""
    busy = [p for p, k in ((111, socket.SOCK_STREAM), (111, socket.SOCK_DGRAM), (2049, socket.SOCK_STREAM))
            if not _port_free(p, k)]
    if busy:
        pytest.skip(f"ports {busy} of 127.0.0.1 are taken; the short form needs 111 (rpcbind) and 2049")


def skip_unless_nfs_port_free():
    """Skips the test when 127.0.0.1:2049 is taken: NFSv4.1's short form (`mount -t nfs HOST:/BUCKET`, no port
    option) needs the gateway there; it needs nothing on 111."""
    if not _port_free(2049):
        pytest.skip("port 2049 of 127.0.0.1 is taken; the NFSv4.1 short form needs it")


@pytest.fixture(scope="session")
def vm_image():
    """Builds (or finds) the guest image once per session; skips when QEMU is missing."""
    if shutil.which("qemu-system-x86_64") is None:
        pytest.skip("qemu-system-x86_64 is missing (apt-get install qemu-system-x86; .ci/run does)")
    t0 = time.monotonic()
    r = subprocess.run([str(HERE / "build-image.sh")], capture_output=True, text=True, timeout=scaled(3600))
    assert r.returncode == 0, r.stderr
    log(f"guest image {r.stdout.strip()} ready after {time.monotonic() - t0:.0f} s")
    return Path(r.stdout.strip())


@dataclass
class Gateway:
    """A running `ossgw serve`: its ports, the bucket it exports (path /BUCKET), its log and config file."""
    proc: subprocess.Popen
    bucket: str
    nfs_port: int
    http_port: int
    log_path: Path
    config: Path
    props: dict = field(default_factory=dict)

    def metrics(self):
        return http_get(f"http://127.0.0.1:{self.http_port}/q/metrics")[1]

    def log_text(self):
        return self.log_path.read_text(errors="replace")

    def stop(self):
        """SIGTERM and wait; returns the exit code."""
        if self.proc.poll() is None:
            return stop_process(self.proc)
        return self.proc.returncode


@pytest.fixture
def gateway(emulator, ossgw_built, new_bucket, workdir):
    """Factory: gateway(props=None, nfs_port=None, bucket=None) starts `ossgw serve --config` and returns a Gateway.

    The default config exports the test's bucket at /BUCKET with no_root_squash (the guest's jobs run as root) on
    127.0.0.1:<free port>; `props` adds or overrides ossgw.* properties (e.g. {"ossgw.nfs.rpcbind": "true"}, SMB
    shares), `nfs_port` fixes the port (2049 for the short mount form). Every gateway is stopped at the end."""
    started = []

    def start(props=None, nfs_port=None, bucket=None, name="gw"):
        bucket = bucket or new_bucket[0]
        passwd = workdir / "passwd-serve"
        passwd.write_text(f"{bucket}:{emulator.ak}:{emulator.sk}\n")
        passwd.chmod(0o600)
        port = nfs_port or free_port()
        http_port = free_port()
        base = {
            "ossgw.oss.endpoint": emulator.endpoint,
            "ossgw.oss.passwd-file": str(passwd),
            "ossgw.nfs.bind": "127.0.0.1",
            "ossgw.nfs.port": str(port),
            "ossgw.exports.vm.bucket": bucket,
            "ossgw.exports.vm.squash": "none",
        }
        base.update(props or {})
        cfg = workdir / f"{name}-{len(started)}.properties"
        cfg.write_text("".join(f"{k}={v}\n" for k, v in base.items()))
        log_path = workdir / f"{name}-{len(started)}.log"
        env = dict(os.environ, QUARKUS_HTTP_PORT=str(http_port), QUARKUS_HTTP_HOST="127.0.0.1",
                   OSSGW_STATE_DIR=str(workdir / f"state-{name}"))
        out = open(log_path, "wb")
        p = subprocess.Popen([str(OSSGW), "serve", "--config", str(cfg)], stdout=out, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, env=env)
        gw = Gateway(p, bucket, port, http_port, log_path, cfg, base)
        started.append(gw)
        ok = wait_until(lambda: http_get(f"http://127.0.0.1:{http_port}/q/health/ready")[0] == 200
                        or p.poll() is not None, 120)
        assert ok and p.poll() is None, gw.log_text()
        return gw

    try:
        yield start
    finally:
        for gw in started:
            if gw.proc.poll() is None:
                gw.proc.kill()
                gw.proc.wait()


@pytest.fixture
def guest(vm_image, workdir):
    """guest(script, env=None, files=(), timeout=None, netdev=None) -> (rc, output): runs `script` (shell text; a
    `#!/bin/sh` line is added when missing) in a fresh guest with `env` in its environment and /job/lib.sh beside it.
    `timeout` (default OSSGW_VM_TIMEOUT or 600 s) is of a quiet machine and scaled with the load (deadlines.py); the
    guest gets the same factor as OSSGW_TEST_SLOWDOWN, which lib.sh's `t` applies to the job's own limits. `netdev`:
    more options of QEMU's `-netdev user` (run.sh's OSSGW_VM_NETDEV: hostfwd=..., guestfwd=...)."""

    def run(script, env=None, files=(), timeout=None, netdev=None):
        if not script.startswith("#!"):
            script = "#!/bin/sh\n" + script
        job = Path(tempfile.mkstemp(prefix="job-", suffix=".sh", dir=workdir)[1])
        job.write_text(script)
        factor = slowdown()
        args = [str(RUN), "-e", f"OSSGW_TEST_SLOWDOWN={factor:.2f}"]
        for k, v in (env or {}).items():
            args += ["-e", f"{k}={v}"]
        for f in [LIB, *files]:
            args += ["-f", str(f)]
        args.append(str(job))
        t0 = time.monotonic()
        # run.sh kills QEMU first (and prints the guest's console), well before pytest.ini's 900 s
        timeout = int((timeout or int(os.environ.get("OSSGW_VM_TIMEOUT", 600))) * factor)
        penv = dict(os.environ, OSSGW_VM_TIMEOUT=str(timeout))
        if netdev:
            penv["OSSGW_VM_NETDEV"] = netdev
        r = subprocess.run(args, capture_output=True, text=True, env=penv, stdin=subprocess.DEVNULL,
                           timeout=timeout + scaled(120))
        log(f"guest job {job.name}: exit {r.returncode} after {time.monotonic() - t0:.0f} s")
        out = r.stdout + r.stderr
        (workdir / (job.name + ".out")).write_text(out)
        if os.environ.get("OSSGW_VM_KEEP_OUTPUT"):
            Path(os.environ["OSSGW_VM_KEEP_OUTPUT"]).joinpath(job.name + ".out").write_text(out)
        return r.returncode, out

    return run
