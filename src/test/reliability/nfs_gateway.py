"""The quick-form NFS gateway the NFS scenarios of the reliability suite attack, the ordinary NFSv3 client they check
it with (libnfs's nfs-ls), and a flood of pipelined READs whose replies are never read. Shared by test_nfs_flood.py and
test_nfs_limits.py."""
import contextlib
import os
import subprocess
import threading
import time
import types

import pytest

import onc_rpc
from e2e_support import OSSGW, free_port, http_get, scaled, wait_exit, wait_until


@contextlib.contextmanager
def quick_nfs_gateway(emulator, name, workdir, tag, env=None, options=""):
    """`./ossgw serve NAME --nfs` on 127.0.0.1 (a free port) over the emulator's bucket NAME, with `env` added to the
    environment (ossgw.nfs.* as OSSGW_NFS_...) and `options` appended to `-o`. Yields (port, http_port, name, path,
    log, pid: the JVM's, the launcher execs it); afterwards asserts the gateway is still running, unless the test set
    `killed` on what it was given (it ended the gateway itself)."""
    passwd = workdir / f"passwd-{tag}"
    passwd.write_text(f"{name}:{emulator.ak}:{emulator.sk}\n")
    passwd.chmod(0o600)
    port, http_port = free_port(), free_port()
    e = dict(os.environ, QUARKUS_HTTP_PORT=str(http_port), OSSGW_STATE_DIR=str(workdir / f"state-{tag}"),
             **(env or {}))
    log = workdir / f"{tag}.log"
    with open(log, "wb") as out:
        p = subprocess.Popen([str(OSSGW), "serve", name, "--nfs", "--nfs-port", str(port), "--nfs-bind", "127.0.0.1",
                              "-o", f"url={emulator.endpoint},passwd_file={passwd}" + (f",{options}" if options else "")],
                             stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=e)
    try:
        assert wait_until(lambda: http_get(f"http://127.0.0.1:{http_port}/q/health/ready")[0] == 200
                          or p.poll() is not None, 120) and p.poll() is None, log.read_text()
        gw = types.SimpleNamespace(port=port, http_port=http_port, name=name, path=f"/{name}", log=log, pid=p.pid,
                                   killed=False)
        yield gw
        if gw.killed:
            p.wait(timeout=60)
        else:
            assert p.poll() is None, "the gateway died:\n" + log.read_text()[-4000:]
    finally:
        if p.poll() is None:
            p.terminate()
            try:
                wait_exit(p, 60)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def nfs_ls(port, path, timeout=15):
    """Lists the export with libnfs within `timeout` quiet-machine seconds, scaled; returns the seconds it took
    (asserts it worked and shows big.bin). Callers compare what it took with `scaled(5)`."""
    url = f"nfs://127.0.0.1{path}?nfsport={port}&mountport={port}&version=3"
    start = time.monotonic()
    try:
        r = subprocess.run(["nfs-ls", url], capture_output=True, text=True, timeout=scaled(timeout),
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail(f"nfs-ls not served within {scaled(timeout):.0f} s")
    took = time.monotonic() - start
    assert r.returncode == 0, f"nfs-ls after {took:.1f} s: {r.stdout} {r.stderr}"
    assert "big.bin" in r.stdout
    return took


def file_handle(port, path, name):
    """The NFSv3 handle of `name` in the export at `path` (MOUNT, then LOOKUP)."""
    s = onc_rpc.connect(port)
    try:
        accepted, stat, root = onc_rpc.mnt(s, path)
        assert accepted and stat == 0, (accepted, stat)
        return onc_rpc.lookup(s, root, name)
    finally:
        s.close()


class PipelinedReads:
    """`connections` connections from `source` (None: the default address) that send `calls` NFSv3 READs of 1 MiB of
    file handle `fh` each, as fast as the server takes them, and never read a reply; a thread keeps feeding them until
    stop(). `closed_by_server` counts those the server reset."""

    def __init__(self, port, source, connections, calls, fh):
        read = onc_rpc.record(onc_rpc.call(9, onc_rpc.NFS_PROGRAM, 3, onc_rpc.NFSPROC3_READ,
                                           onc_rpc.read_args(fh, 0, 1 << 20)))
        self.socks = []
        for _ in range(connections):
            s = onc_rpc.connect(port, rcvbuf=16 * 1024, source=source)
            s.setblocking(False)  # the server stops reading at its caps: send what the socket takes, never block
            self.socks.append([s, read * calls])
        self.closed_by_server = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._feed, daemon=True)
        self._thread.start()

    def _feed(self):
        while not self._stop.is_set():
            for entry in self.socks:
                s, left = entry
                if left:
                    try:
                        entry[1] = left[s.send(left):]
                    except BlockingIOError:
                        pass
                    except OSError:  # reset by the server
                        entry[1] = b""
                        self.closed_by_server += 1
            time.sleep(0.01)

    def sent(self):
        """True once every call is with the kernel (the server reads what its caps let it)."""
        return all(not left for _, left in self.socks)

    def stop(self):
        self._stop.set()
        self._thread.join()

    def close(self):
        self.stop()
        for s, _ in self.socks:
            s.close()


def peak_rss_mb(pid):
    """The process's peak resident set (VmHWM of /proc/PID/status), MB."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmHWM for {pid}")
