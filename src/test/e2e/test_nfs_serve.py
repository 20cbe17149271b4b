"""End-to-end: `./ossgw serve` with NFS exports, driven by the libnfs-utils clients (nfs-ls, nfs-cp, nfs-cat) as a
black box: the quick form `serve BUCKET --nfs`, the config-file form next to a FUSE mount of the same bucket (one
engine, one cache), client networks, and usage errors."""
import hashlib
import ipaddress
import json
import os
import shutil
import subprocess

import pytest

import onc_rpc
from e2e_support import (OSSGW, force_unmount, free_port, http_get, is_mounted, kill_if_running, scaled, stop_process,
                         wait_until)

pytestmark = pytest.mark.skipif(shutil.which("nfs-ls") is None,
                                reason="libnfs-utils is not installed (apt-get install libnfs-utils; .ci/run does)")


def nfs_url(port, path):
    return f"nfs://127.0.0.1{path}?nfsport={port}&mountport={port}&version=3"


def nfs(*args, check=True):
    r = subprocess.run(list(args), capture_output=True, text=True, timeout=scaled(120), stdin=subprocess.DEVNULL)
    if check:
        assert r.returncode == 0, f"{args}: {r.stdout} {r.stderr}"
    return r


def serve(args, workdir, http_port, name):
    env = dict(os.environ, QUARKUS_HTTP_PORT=str(http_port), QUARKUS_HTTP_HOST="127.0.0.1",
               OSSGW_STATE_DIR=str(workdir / f"state-{name}"))
    out = open(workdir / f"{name}.log", "wb")
    p = subprocess.Popen([str(OSSGW), *map(str, args)], stdout=out, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, env=env)
    ok = wait_until(lambda: http_get(f"http://127.0.0.1:{http_port}/q/health/ready")[0] == 200
                    or p.poll() is not None, 120)
    assert ok and p.poll() is None, (workdir / f"{name}.log").read_text()
    return p


def test_quick_form_exports_a_bucket_over_nfs(emulator, ossgw_built, new_bucket, workdir):
    name, bucket = new_bucket
    # 0644 as ossfs writes it: a foreign object without x-oss-meta-mode is 0640 and owned by the gateway's user, which
    # a root-squashed NFS client (nobody) may not read (SEMANTICS.md, NFS)
    bucket.put_object("from-oss2.txt", b"written with oss2\n", headers={"x-oss-meta-mode": "33188"})
    passwd = workdir / "passwd"
    passwd.write_text(f"{name}:{emulator.ak}:{emulator.sk}\n")
    passwd.chmod(0o600)
    port, http_port = free_port(), free_port()
    p = serve(["serve", name, "--nfs", "--nfs-port", port, "--nfs-bind", "127.0.0.1",
               "-o", f"url={emulator.endpoint},passwd_file={passwd}"], workdir, http_port, "quick")
    try:
        health = json.loads(http_get(f"http://127.0.0.1:{http_port}/q/health/ready")[1])
        assert health["checks"][0]["data"][f"export.{name}"] == f"/{name}"
        assert health["checks"][0]["data"]["nfs.port"] == port
        assert "from-oss2.txt" in nfs("nfs-ls", nfs_url(port, f"/{name}")).stdout
        assert nfs("nfs-cat", nfs_url(port, f"/{name}/from-oss2.txt")).stdout == "written with oss2\n"
        data = os.urandom(5 * 1024 * 1024 + 7)
        src = workdir / "random.bin"
        src.write_bytes(data)
        nfs("nfs-cp", str(src), nfs_url(port, f"/{name}/random.bin"))
        # nfs-cp closes without COMMIT; the export uploads once the file is idle (ossgw.nfs.open-idle-timeout, 5 s)
        assert wait_until(lambda: bucket.object_exists("random.bin")
                          and bucket.head_object("random.bin").content_length == len(data), 60)
        assert hashlib.sha256(bucket.get_object("random.bin").read()).digest() == hashlib.sha256(data).digest()
        back = workdir / "back.bin"
        nfs("nfs-cp", nfs_url(port, f"/{name}/random.bin"), str(back))
        assert back.read_bytes() == data
        assert stop_process(p) == 0, (workdir / "quick.log").read_text()
    finally:
        kill_if_running(p)


def listen_addresses(port):
    """The local addresses a TCP socket listens on at `port` (from /proc/net/tcp and tcp6; v4-mapped v6 addresses,
    as Java's sockets use, are given as v4)."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table).read().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            f = line.split()
            addr, p = f[1].split(":")
            if f[3] != "0A" or int(p, 16) != port:
                continue
            raw = bytes.fromhex(addr)
            # /proc prints each 32-bit word in host (little-endian) order
            raw = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
            ip = ipaddress.ip_address(raw)
            if ip.version == 6 and ip.ipv4_mapped:
                ip = ip.ipv4_mapped
            found.add(str(ip))
    return found


def test_quick_form_listens_on_loopback_by_default_and_refuses_auth_none(emulator, ossgw_built, new_bucket,
                                                                         workdir):
    """Issue 9 item 9: without --nfs-bind/--http-bind the quick form listens on 127.0.0.1 only (NFS, health,
    metrics), and an export without all_squash refuses AUTH_NONE with AUTH_ERROR/AUTH_TOOWEAK over the wire."""
    name, bucket = new_bucket
    passwd = workdir / "passwd-lo"
    passwd.write_text(f"{name}:{emulator.ak}:{emulator.sk}\n")
    passwd.chmod(0o600)
    port, http_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("OSSGW_NFS_BIND", "QUARKUS_HTTP_HOST")}
    env.update(QUARKUS_HTTP_PORT=str(http_port), OSSGW_STATE_DIR=str(workdir / "state-lo"))
    log = workdir / "loopback.log"
    with open(log, "wb") as out:
        p = subprocess.Popen([str(OSSGW), "serve", name, "--nfs", "--nfs-port", str(port),
                              "-o", f"url={emulator.endpoint},passwd_file={passwd}"], stdout=out,
                             stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=env)
    try:
        assert wait_until(lambda: http_get(f"http://127.0.0.1:{http_port}/q/health/ready")[0] == 200
                          or p.poll() is not None, 120) and p.poll() is None, log.read_text()
        assert listen_addresses(port) == {"127.0.0.1"}
        assert listen_addresses(http_port) == {"127.0.0.1"}
        assert "is open to every client" not in log.read_text()  # loopback: nobody else can reach it
        s = onc_rpc.connect(port)
        try:
            accepted, stat, rest = onc_rpc.rpc(s, 7, onc_rpc.MOUNT_PROGRAM, 3, onc_rpc.MOUNTPROC3_MNT,
                                               onc_rpc.xdr_string(f"/{name}"), cred=onc_rpc.auth_none())[1:]
            assert (accepted, stat) == (False, 1), "MSG_DENIED / AUTH_ERROR"
            assert rest[:4] == (5).to_bytes(4, "big"), "AUTH_TOOWEAK"
            accepted, stat, fh = onc_rpc.mnt(s, f"/{name}")  # AUTH_SYS on the same connection
            assert accepted and stat == 0 and fh
        finally:
            s.close()
        nfs("nfs-ls", nfs_url(port, f"/{name}"))
        assert stop_process(p) == 0, log.read_text()
    finally:
        kill_if_running(p)


def test_config_form_shares_one_engine_with_a_fuse_mount_and_checks_client_networks(emulator, ossgw_built,
                                                                                    new_bucket, workdir):
    name, bucket = new_bucket
    passwd = workdir / "passwd"
    passwd.write_text(f"{name}:{emulator.ak}:{emulator.sk}\n")
    passwd.chmod(0o600)
    mp = workdir / "mnt-nfs-serve"
    mp.mkdir()
    port, http_port = free_port(), free_port()
    cfg = workdir / "ossgw.properties"
    cfg.write_text("\n".join([
        f"ossgw.oss.endpoint={emulator.endpoint}",
        f"ossgw.oss.passwd-file={passwd}",
        f"ossgw.mounts.m.bucket={name}",
        f"ossgw.mounts.m.mountpoint={mp}",
        "ossgw.nfs.bind=127.0.0.1",
        f"ossgw.nfs.port={port}",
        f"ossgw.exports.open.bucket={name}",
        f"ossgw.exports.closed.bucket={name}",
        "ossgw.exports.closed.prefix=/private",
        # not /BUCKET/private: libnfs-utils 5.0 mounts /BUCKET/private (its first export that starts with the path)
        # when asked for /BUCKET, which would make the open export look refused
        "ossgw.exports.closed.path=/restricted",
        "ossgw.exports.closed.clients=10.0.0.0/8",
    ]) + "\n")
    p = serve(["serve", "--config", cfg], workdir, http_port, "config")
    try:
        assert is_mounted(mp)
        (mp / "via-fuse.txt").write_text("written through FUSE\n")
        # same engine: NFS sees the FUSE write at once, whatever the caches hold
        assert nfs("nfs-cat", nfs_url(port, f"/{name}/via-fuse.txt")).stdout == "written through FUSE\n"
        metrics = http_get(f"http://127.0.0.1:{http_port}/q/metrics")[1]
        # the mount and export "open" share one engine; "closed" (another prefix) has its own
        assert "ossgw_engine_starts_total 2.0" in metrics, [m for m in metrics.splitlines() if "engine" in m]
        refused = nfs("nfs-ls", nfs_url(port, "/restricted"), check=False)
        assert refused.returncode != 0
        assert "MNT3ERR_ACCES" in refused.stderr + refused.stdout, refused
        assert stop_process(p) == 0, (workdir / "config.log").read_text()
        assert not is_mounted(mp)
    finally:
        kill_if_running(p)
        force_unmount(mp)


@pytest.mark.parametrize("args,expect", [
    (["serve", "some-bucket"], "--nfs"),
    (["serve", "--nfs"], "BUCKET"),
    (["serve", "Bad_Bucket", "--nfs"], "invalid bucket name"),
    (["serve", "some-bucket", "--nfs", "-o", "no_such_option"], "no_such_option"),
])
def test_quick_form_mistakes_are_refused_by_name(ossgw_built, args, expect):
    r = subprocess.run([str(OSSGW), *args], capture_output=True, text=True, timeout=scaled(120),
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 2, r.stderr
    assert expect in r.stderr, r.stderr
