"""End-to-end SMB: the built `./ossgw serve` shares a bucket of the emulator through Samba's smbd (SMB2/3 only) on
127.0.0.1 and a free port, and smbclient talks to it as a user would.

One gateway (config file) serves bucket B as share `data`, mounts B with FUSE and exports it over NFS (same engine, one
cache), so files written through the mount and through NFS (libnfs nfs-cp) are read back over SMB. The quick form (`serve BUCKET --smb --smb-user NAME:FILE`)
gets a test of its own. Skipped only where Samba is not installed; CI installs it (.ci/run), so there it runs.

Sizes: 1 MiB and 300 MB round trips, as issue 4 asks (about 5 s each way on the emulator).
"""
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import oss2
import pytest

from e2e_support import (OSSGW, force_unmount, free_port, http_get, is_mounted, log, scaled, sha256_file, wait_exit,
                         wait_until)

SMB_USER = "ossgw-e2e"
SMB_PASSWORD = "e2e pass!7"

pytestmark = pytest.mark.skipif(
    (shutil.which("smbd") is None and not os.path.exists("/usr/sbin/smbd") or shutil.which("smbclient") is None)
    and not os.environ.get("CI"),
    reason="Samba is not installed (apt-get install samba smbclient)")


class Gateway:
    """A running `ossgw serve` with SMB; stopped with SIGTERM at the end."""

    def __init__(self, args, workdir, http_port, smb_port, state, env=None):
        self.workdir, self.http_port, self.smb_port, self.state = workdir, http_port, smb_port, state
        self.log_path = workdir / f"serve-{smb_port}.log"
        e = dict(os.environ)
        e.pop("OSS_ACCESS_KEY_ID", None)
        e.pop("OSS_ACCESS_KEY_SECRET", None)
        e.update(env or {})
        self.p = subprocess.Popen([str(OSSGW), *map(str, args)], stdout=open(self.log_path, "wb"),
                                  stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=e)
        t0 = time.time()
        ok = wait_until(lambda: self.ready() or self.p.poll() is not None, 180, step=0.2)
        assert ok and self.p.poll() is None, self.log()
        log(f"serve with SMB on port {smb_port} ready in {time.time() - t0:.1f}s")

    def log(self):
        return self.log_path.read_text(errors="replace")

    def health(self):
        status, body = http_get(f"http://127.0.0.1:{self.http_port}/q/health/ready")
        return status, (json.loads(body) if body.startswith("{") else {})

    def ready(self):
        return self.health()[0] == 200

    def metrics(self):
        return http_get(f"http://127.0.0.1:{self.http_port}/q/metrics")[1]

    def smbd_pid(self):
        try:
            return int((self.state / "smb" / "pid" / "smbd.pid").read_text().strip())
        except (OSError, ValueError):
            return None

    def stop(self):
        if self.p.poll() is None:
            self.p.send_signal(signal.SIGTERM)
            try:
                wait_exit(self.p, 60)
            except subprocess.TimeoutExpired:
                self.p.kill()
                self.p.wait()
        mnt = self.state / "smb" / "mnt"
        if mnt.exists():
            for d in mnt.iterdir():
                force_unmount(d)
        return self.p.returncode


def smbclient(port, share, commands, user=SMB_USER, password=SMB_PASSWORD, cwd=None, timeout=300, posix=False):
    """Runs smbclient -c COMMANDS against //127.0.0.1/SHARE (SMB3); returns the CompletedProcess.

    posix: offer the SMB3 POSIX extensions (smbclient negotiates them when its own `smb3 unix extensions` is set;
    COMMANDS then starts with `posix` to use them)."""
    t0 = time.time()
    opts = ["--option=smb3 unix extensions=yes"] if posix else []
    r = subprocess.run(["smbclient", f"//127.0.0.1/{share}", "-p", str(port), "-U", f"{user}%{password}",
                        "-m", "SMB3", *opts, "-c", commands], capture_output=True, text=True, timeout=scaled(timeout),
                       cwd=cwd, stdin=subprocess.DEVNULL)
    log(f"smbclient {share}: {commands[:80]} -> rc={r.returncode} in {time.time() - t0:.1f}s")
    return r


def ok(r):
    assert r.returncode == 0 and "NT_STATUS" not in r.stdout + r.stderr, r.stdout + r.stderr
    return r.stdout


def random_file(path, size):
    with open(path, "wb") as f:
        left = size
        while left:
            n = min(left, 1 << 20)
            f.write(os.urandom(n))
            left -= n


@pytest.fixture(scope="module")
def smb(emulator, ossgw_built, tmp_path_factory):
    """serve --config: bucket B shared as `data` (user SMB_USER) and mounted at WORK/mnt, one engine for both."""
    work = tmp_path_factory.mktemp("smb")
    name = "e2e-smb-" + os.urandom(3).hex()
    bucket = oss2.Bucket(oss2.AuthV4(emulator.ak, emulator.sk), emulator.endpoint, name, region="cn-hangzhou")
    bucket.create_bucket()
    for i in range(1000):  # a directory of 1,000 objects written by another OSS client
        bucket.put_object(f"many/f{i:04d}.txt", f"object {i}\n".encode())
    passwd = work / "passwd-ossfs"
    passwd.write_text(f"{emulator.ak}:{emulator.sk}\n")
    passwd.chmod(0o600)
    pw = work / "smb.pw"
    pw.write_text(SMB_PASSWORD + "\n")
    pw.chmod(0o600)
    mnt = work / "mnt"
    mnt.mkdir()
    http_port, smb_port, nfs_port, state = free_port(), free_port(), free_port(), work / "state"
    cfg = work / "ossgw.properties"
    cfg.write_text("\n".join([
        "quarkus.http.host=127.0.0.1",
        f"quarkus.http.port={http_port}",
        f"ossgw.oss.endpoint={emulator.endpoint}",
        f"ossgw.oss.passwd-file={passwd}",
        f"ossgw.state-dir={state}",
        "ossgw.health.oss-check-interval=1s",
        f"ossgw.mounts.m.bucket={name}",
        f"ossgw.mounts.m.mountpoint={mnt}",
        f"ossgw.shares.data.bucket={name}",
        "ossgw.smb.bind=127.0.0.1",
        f"ossgw.smb.port={smb_port}",
        f"ossgw.smb.users.{SMB_USER}.password-file={pw}",
        f"ossgw.exports.x.bucket={name}",
        "ossgw.exports.x.squash=none",
        "ossgw.nfs.bind=127.0.0.1",
        f"ossgw.nfs.port={nfs_port}",
        "ossgw.nfs.open-idle-timeout=1s",
    ]) + "\n")
    gw = Gateway(["serve", "--config", cfg], work, http_port, smb_port, state)
    gw.bucket, gw.name, gw.mnt, gw.nfs_port = bucket, name, mnt, nfs_port
    try:
        yield gw
    finally:
        rc = gw.stop()
        force_unmount(mnt)
        assert rc == 0, gw.log()[-3000:]


def test_ready_with_smbd_and_the_share(smb):
    status, health = smb.health()
    data = health["checks"][0]["data"]
    assert data["smb"] == f"smbd listening on 127.0.0.1:{smb.smb_port}"
    assert data["share.data"].endswith("/smb/mnt/data")
    assert "ossgw_smb_smbd_up 1.0" in smb.metrics()
    conf = (smb.state / "smb" / "smb.conf").read_text()
    assert "server min protocol = SMB2_02" in conf and "/var/lib/samba" not in conf


def test_put_get_1mib_and_300mb_with_checksums_as_plain_objects(smb, tmp_path):
    ok(smbclient(smb.smb_port, "data", "mkdir up"))
    for name, size in (("one.bin", 1 << 20), ("big.bin", 300 * 1000 * 1000)):
        up = tmp_path / name
        random_file(up, size)
        t0 = time.time()
        ok(smbclient(smb.smb_port, "data", f"put {name} up/{name}", cwd=tmp_path))
        t1 = time.time()
        ok(smbclient(smb.smb_port, "data", f"get up/{name} back-{name}", cwd=tmp_path))
        log(f"{name}: {size / 1e6:.0f} MB put in {t1 - t0:.1f}s, get in {time.time() - t1:.1f}s")
        assert sha256_file(tmp_path / f"back-{name}") == sha256_file(up)
        # one plain object per file, with the bytes and ossfs metadata
        head = smb.bucket.head_object(f"up/{name}")
        assert head.content_length == size
        assert int(head.headers["x-oss-meta-mode"]) & 0o170000 == 0o100000
        assert float(head.headers["x-oss-meta-mtime"]) > 0
    keys = sorted(o.key for o in oss2.ObjectIteratorV2(smb.bucket, prefix="up/"))
    assert keys == ["up/", "up/big.bin", "up/one.bin"]


def test_mkdir_rename_del_and_ls_of_1000_files(smb, tmp_path):
    (tmp_path / "a.txt").write_text("alpha\n")
    ok(smbclient(smb.smb_port, "data", "mkdir work; put a.txt work/a.txt; rename work/a.txt work/b.txt; "
                 "mkdir work/sub; rename work/b.txt work/sub/c.txt", cwd=tmp_path))
    assert smb.bucket.get_object("work/sub/c.txt").read() == b"alpha\n"
    assert not smb.bucket.object_exists("work/a.txt") and not smb.bucket.object_exists("work/b.txt")
    ok(smbclient(smb.smb_port, "data", "del work/sub/c.txt; rmdir work/sub"))
    assert sorted(o.key for o in oss2.ObjectIteratorV2(smb.bucket, prefix="work/")) == ["work/"]
    out = ok(smbclient(smb.smb_port, "data", "ls many/*"))
    names = re.findall(r"^\s+(f\d{4}\.txt)\s+N?A?\s+\d+", out, re.M)
    assert len(names) == 1000 and names[0] == "f0000.txt" and "f0999.txt" in names, out[-500:]
    ok(smbclient(smb.smb_port, "data", "get many/f0500.txt f0500.txt", cwd=tmp_path))
    assert (tmp_path / "f0500.txt").read_text() == "object 500\n"


def test_a_file_written_through_the_fuse_mount_is_identical_over_smb(smb, tmp_path):
    src = tmp_path / "src.bin"
    random_file(src, 3 * 1000 * 1000 + 17)
    (smb.mnt / "via-fuse").mkdir()
    shutil.copyfile(src, smb.mnt / "via-fuse" / "f.bin")
    ok(smbclient(smb.smb_port, "data", "get via-fuse/f.bin back.bin", cwd=tmp_path))
    assert sha256_file(tmp_path / "back.bin") == sha256_file(src)
    # and the other way: written over SMB, read through the mount
    (tmp_path / "s.txt").write_text("over smb\n")
    ok(smbclient(smb.smb_port, "data", "put s.txt via-fuse/s.txt", cwd=tmp_path))
    assert (smb.mnt / "via-fuse" / "s.txt").read_text() == "over smb\n"


def test_posix_clients_see_the_engines_symlinks_and_others_do_not(smb):
    """smb.conf has `smb3 unix extensions = yes`: a client that negotiates the SMB3 POSIX extensions (Linux
    `mount -t cifs -o vers=3.1.1,posix`, smbclient `posix`) gets symlinks listed (as reparse points, `r`), so it can
    readlink them; a client that does not (Windows, macOS) is served as before, without them (SEMANTICS.md, SMB)."""
    d = smb.mnt / "posix-view"
    d.mkdir()
    (d / "f.txt").write_text("target\n")
    os.symlink("f.txt", d / "rel")
    os.symlink("/etc/passwd", d / "abs")
    listed = lambda out: set(re.findall(r"^\s+(\S+)\s+[A-Za-z]*\s+\d+\s+\w{3} ", out, re.M))
    plain = ok(smbclient(smb.smb_port, "data", "ls posix-view/*"))
    assert listed(plain) == {".", "..", "f.txt"}, plain
    r = smbclient(smb.smb_port, "data", "posix; ls posix-view/*", posix=True)
    out = ok(r)
    assert "doesn't support" not in out + r.stderr, out + r.stderr  # the server took the POSIX negotiate context
    assert listed(out) == {".", "..", "f.txt", "rel", "abs"}, out
    assert re.search(r"^\s+rel\s+r\s+5\s", out, re.M), out  # a reparse point: the target's length, not followed


@pytest.mark.skipif(shutil.which("nfs-cp") is None, reason="libnfs-utils is not installed (.ci/run installs it)")
def test_a_file_written_over_nfs_is_identical_over_smb(smb, tmp_path):
    src = tmp_path / "n.bin"
    random_file(src, 2 * 1000 * 1000 + 3)
    ok(smbclient(smb.smb_port, "data", "mkdir via-nfs"))
    url = f"nfs://127.0.0.1/{smb.name}/via-nfs/n.bin?nfsport={smb.nfs_port}&mountport={smb.nfs_port}&version=3"
    r = subprocess.run(["nfs-cp", str(src), url], capture_output=True, text=True, timeout=scaled(120))
    assert r.returncode == 0, r.stdout + r.stderr
    # nfs-cp does not COMMIT: the export uploads the file once it is idle (1 s here); SMB reads it either way
    assert wait_until(lambda: smb.bucket.object_exists("via-nfs/n.bin"), 30)
    ok(smbclient(smb.smb_port, "data", "get via-nfs/n.bin back.bin", cwd=tmp_path))
    assert sha256_file(tmp_path / "back.bin") == sha256_file(src)


def test_a_wrong_password_is_a_logon_failure_and_nothing_else_changes(smb):
    r = smbclient(smb.smb_port, "data", "ls", password="wrong")
    assert r.returncode != 0 and "NT_STATUS_LOGON_FAILURE" in r.stdout + r.stderr, r.stdout + r.stderr
    r = smbclient(smb.smb_port, "data", "ls", user="nobody-here", password="x")
    assert r.returncode != 0 and "NT_STATUS_LOGON_FAILURE" in r.stdout + r.stderr, r.stdout + r.stderr
    assert "many" in ok(smbclient(smb.smb_port, "data", "ls"))
    assert smb.ready()


def test_a_killed_smbd_is_restarted_and_clients_reconnect(smb):
    pid = smb.smbd_pid()
    assert pid and os.path.exists(f"/proc/{pid}")
    os.kill(pid, signal.SIGKILL)
    assert wait_until(lambda: smb.smbd_pid() not in (None, pid) and smb.ready(), 60, step=0.1), smb.log()[-3000:]
    assert wait_until(lambda: smbclient(smb.smb_port, "data", "ls").returncode == 0, 30, step=0.2)
    assert "many" in ok(smbclient(smb.smb_port, "data", "ls"))
    assert "ossgw_smb_smbd_restarts_total 1.0" in smb.metrics()
    assert "exited with status" in smb.log()


def test_quick_form_serve_bucket_smb(emulator, ossgw_built, new_bucket, workdir):
    """The credentials come from the environment, as the Helm chart passes them: smbd must not inherit them."""
    name, bucket = new_bucket
    bucket.put_object("hello.txt", b"hello over smb\n")
    pw = workdir / "pw"
    pw.write_text(SMB_PASSWORD)
    pw.chmod(0o600)
    http_port, smb_port, state = free_port(), free_port(), workdir / "state"
    gw = Gateway(["serve", name, "--smb", "--smb-port", smb_port, "--smb-bind", "127.0.0.1",
                  "--smb-user", f"{SMB_USER}:{pw}", "-o", f"url={emulator.endpoint},sigv4,region=cn-hangzhou"],
                 workdir, http_port, smb_port, state,
                 env={"OSSGW_JAVA_OPTS": f"-Dquarkus.http.port={http_port} -Dquarkus.http.host=127.0.0.1 "
                                         f"-Dossgw.state-dir={state}",
                      "OSS_ACCESS_KEY_ID": emulator.ak, "OSS_ACCESS_KEY_SECRET": emulator.sk})
    try:
        pid = gw.smbd_pid()
        assert pid, gw.log()[-3000:]
        environ = (Path("/proc") / str(pid) / "environ").read_bytes().split(b"\0")
        assert environ and not [v for v in environ if v.startswith(b"OSS")], environ
        assert emulator.sk.encode() not in b"\0".join(environ)
        ok(smbclient(smb_port, name, "get hello.txt hello.txt", cwd=workdir))
        assert (workdir / "hello.txt").read_text() == "hello over smb\n"
        (workdir / "up.txt").write_text("up\n")
        ok(smbclient(smb_port, name, "put up.txt up.txt", cwd=workdir))
        assert bucket.get_object("up.txt").read() == b"up\n"
    finally:
        assert gw.stop() == 0, gw.log()[-3000:]
    assert not is_mounted(state / "smb" / "mnt" / name)
    assert "smbd stopped" in gw.log()
