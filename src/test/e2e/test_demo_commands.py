"""End-to-end: `./ossgw demo` works with the very commands it prints (issue 13, items 3-5), starts and stops without a
WARN or ERROR line (item 7), and `serve` names the documented way out when its HTTP port is taken (item 9)."""
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from e2e_support import (OSSGW, force_unmount, free_port, http_get, is_mounted, kill_if_running, log, run_ossgw,
                         scaled, stop_process, wait_exit, wait_until)

HELLO = "Hello from OSS!"


def short_dir(workdir):
    """The demo's --dir, with a short path: smbd fails to start when the Unix socket paths under DIR/state/smb pass
    sun_path's 108 bytes (pytest's workdir names are long); a symlink from the workdir helps find it."""
    d = Path(tempfile.mkdtemp(prefix="od-", dir="/tmp"))
    (workdir / "demo").symlink_to(d)
    return d


def start_demo(d, log_path):
    # --nfs-port 0 / --smb-port 0: free ports, so the test never takes 2049/445 from the machine
    out = open(log_path, "wb")
    return subprocess.Popen([str(OSSGW), "demo", "--dir", str(d), "--nfs-port", "0", "--smb-port", "0"],
                            stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


def wait_ready(p, log_path):
    assert wait_until(lambda: "Press Ctrl-C" in log_path.read_text() or p.poll() is not None, 180), \
        log_path.read_text()
    assert p.poll() is None, log_path.read_text()
    return log_path.read_text()




def printed_commands(out):
    """The commands of the demo's text: indented lines after 'Try, in another terminal:', a trailing backslash joining
    the next line, comment lines left out (bash drops the trailing '# ...' remarks itself)."""
    body = out[out.index("Try, in another terminal:"):out.index("Press Ctrl-C")]
    cmds, pending = [], None
    for line in body.splitlines():
        if pending is not None:
            pending += "\n" + line
            if not line.endswith("\\"):
                cmds.append(pending)
                pending = None
            continue
        if not line.startswith("  ") or line.startswith("   ") or line.lstrip().startswith("#"):
            continue
        if line.endswith("\\"):
            pending = line.strip()
        else:
            cmds.append(line.strip())
    return cmds


def test_demo_runs_every_command_it_prints(ossgw_built, workdir):
    d = short_dir(workdir)
    log_path = workdir / "demo.log"
    p = start_demo(d, log_path)
    mp = d / "mnt"
    ran, skipped = [], []
    try:
        out = wait_ready(p, log_path)
        cmds = printed_commands(out)
        log(f"demo printed {len(cmds)} commands")
        assert len(cmds) >= 6, out
        nfs_port = re.search(r"as 127\.0\.0\.1:/demo, port (\d+)", out)
        for cmd in cmds:
            tool = cmd.split()[0]
            if "mount -t nfs" in cmd:
                # no kernel NFS client here: check the form the demo's server needs (NFSv4.1: the port; NFSv3 without
                # rpcbind: both ports named, nolock)
                assert nfs_port, out
                port = nfs_port.group(1)
                opts = cmd.split(" -o ")[1].split()[0].split(",")
                if "vers=4.1" in opts:
                    assert re.search(r"mount -t nfs -o vers=4\.1,port=\d+ 127\.0\.0\.1:/demo /mnt/nfs$", cmd), cmd
                    assert f"port={port}" in opts, cmd
                    ran.append("mount -t nfs vers=4.1 (form checked)")
                    continue
                assert re.search(r"mount -t nfs -o \S*nfsvers=3\S* 127\.0\.0\.1:/demo /mnt/nfs$", cmd), cmd
                assert {"proto=tcp", "mountproto=tcp", f"port={port}", f"mountport={port}", "nolock"} <= set(opts), cmd
                assert "nfs-common" in out and "rpcbind" in out, out
                ran.append("mount -t nfs (form checked)")
                continue
            if tool == "python3":
                cmd = sys.executable + cmd[len("python3"):]  # a python with oss2, as the printed note asks
            elif shutil.which(tool) is None:
                skipped.append(tool)
                continue
            r = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True, timeout=scaled(120), cwd=workdir,
                               stdin=subprocess.DEVNULL)
            assert r.returncode == 0, f"{cmd}\nrc={r.returncode}\nstdout:{r.stdout}\nstderr:{r.stderr}"
            if tool in ("cat", "nfs-cat", "smbclient"):
                assert HELLO in r.stdout, f"{cmd}: {r.stdout}"
            if tool == "python3":
                assert "'hello.txt'" in r.stdout, r.stdout
            ran.append(tool)
        log(f"ran: {ran}; skipped (not installed): {skipped}")
        assert {"ls", "cat", "cp", "curl", "python3"} <= set(ran), (ran, out)
        if "nfs-cp" in ran:
            assert (mp / "from-nfs.txt").read_bytes() == open("/etc/hostname", "rb").read()
        assert (mp / "os-release").read_bytes() == open("/etc/os-release", "rb").read()
        assert stop_process(p, signal.SIGINT) == 0, log_path.read_text()
        assert not is_mounted(mp)
    finally:
        kill_if_running(p)
        force_unmount(mp)
        force_unmount(d / "state" / "smb" / "mnt" / "demo")
        if not is_mounted(d / "mnt") and not is_mounted(d / "state" / "smb" / "mnt" / "demo"):
            shutil.rmtree(d, ignore_errors=True)


def test_demo_starts_and_stops_without_warnings(ossgw_built, workdir):
    d = short_dir(workdir)
    log_path = workdir / "demo.log"
    p = start_demo(d, log_path)
    try:
        wait_ready(p, log_path)
        assert stop_process(p, signal.SIGINT) == 0, log_path.read_text()
        out = log_path.read_text()
        bad = [ln for ln in out.splitlines()
               if re.search(r"^\S+ (WARN|ERROR) ", ln) or ln.startswith("fuse:") or "Exception" in ln]
        assert not bad, out
        smb = shutil.which("smbd") or os.path.exists("/usr/sbin/smbd")
        assert ("smbd listens on" in out) == bool(smb), out
    finally:
        kill_if_running(p)
        force_unmount(d / "mnt")
        force_unmount(d / "state" / "smb" / "mnt" / "demo")
        if not is_mounted(d / "mnt") and not is_mounted(d / "state" / "smb" / "mnt" / "demo"):
            shutil.rmtree(d, ignore_errors=True)


def test_serve_says_how_to_pick_another_http_port(ossgw_built, workdir):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = run_ossgw("serve", "demo", "--nfs", "--nfs-port", "0", "--nfs-bind", "127.0.0.1", timeout=180,
                      env={"QUARKUS_HTTP_PORT": str(port), "QUARKUS_HTTP_HOST": "127.0.0.1",
                           "OSSGW_STATE_DIR": str(workdir / "state")})
    assert r.returncode != 0, r.stderr
    assert f"ossgw: the HTTP port {port} (health and metrics) is already in use" in r.stderr, r.stderr
    assert "QUARKUS_HTTP_PORT=PORT" in r.stderr, r.stderr


def test_serve_answers_readiness_probes_without_logging_each_down(ossgw_built, workdir):
    """An OSS endpoint that refuses connections keeps /q/health/ready DOWN (503); SmallRye Health logged one INFO line
    'Reporting health down status' per probe."""
    port = free_port()
    with socket.socket() as closed:  # a port nobody listens on: OSS is unreachable
        closed.bind(("127.0.0.1", 0))
        oss_port = closed.getsockname()[1]
    log_path = workdir / "serve.log"
    out = open(log_path, "wb")
    p = subprocess.Popen([str(OSSGW), "serve", "bkt", "--nfs", "--nfs-port", "0", "--nfs-bind", "127.0.0.1", "-o",
                          f"url=http://127.0.0.1:{oss_port}"], stdout=out, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL,
                         env={**os.environ, "QUARKUS_HTTP_PORT": str(port), "QUARKUS_HTTP_HOST": "127.0.0.1",
                              "OSSGW_STATE_DIR": str(workdir / "state"), "OSS_ACCESS_KEY_ID": "ak",
                              "OSS_ACCESS_KEY_SECRET": "sk"})
    try:
        downs = []
        assert wait_until(lambda: p.poll() is not None
                          or (downs.append(http_get(f"http://127.0.0.1:{port}/q/health/ready")[0]) or
                              downs.count(503) >= 3), 120), log_path.read_text()
        assert p.poll() is None, log_path.read_text()
        assert downs.count(503) >= 3, downs
        assert "Reporting health down" not in log_path.read_text(), log_path.read_text()
    finally:
        p.send_signal(signal.SIGTERM)
        try:
            wait_exit(p, 60)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
