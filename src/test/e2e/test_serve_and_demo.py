"""End-to-end: `./ossgw serve --config FILE` (mounts from configuration, health, metrics, clean SIGTERM) and
`./ossgw demo` (embedded emulator, seeded bucket, mounted), both as black boxes."""
import json
import os
import re
import subprocess

import oss2

from e2e_support import (OSSGW, force_unmount, free_port, http_get, is_mounted, kill_if_running, log, oss_bucket,
                         scaled, stop_process, wait_until)



def start(args, log_path):
    out = open(log_path, "wb")
    return subprocess.Popen([str(OSSGW), *map(str, args)], stdout=out, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL)




def test_serve_mounts_from_config_with_health_and_metrics(emulator, ossgw_built, new_bucket, workdir):
    name, bucket = new_bucket
    bucket.put_object("seeded.txt", b"from oss2\n")
    mp = workdir / "mnt-serve"
    mp.mkdir()
    passwd = workdir / "passwd"
    passwd.write_text(f"{name}:{emulator.ak}:{emulator.sk}\n")
    passwd.chmod(0o600)
    port = free_port()
    cfg = workdir / "ossgw.properties"
    cfg.write_text("\n".join([
        "quarkus.http.host=127.0.0.1",
        f"quarkus.http.port={port}",
        f"ossgw.oss.endpoint={emulator.endpoint}",
        f"ossgw.oss.passwd-file={passwd}",
        f"ossgw.state-dir={workdir / 'state'}",
        f"ossgw.mounts.data.bucket={name}",
        f"ossgw.mounts.data.mountpoint={mp}",
        "ossgw.mounts.data.options.stat_cache_expire=30",
        "ossgw.health.oss-check-interval=1s",
    ]) + "\n")
    p = start(["serve", "--config", cfg], workdir / "serve.log")
    try:
        assert wait_until(lambda: http_get(f"http://127.0.0.1:{port}/q/health/ready")[0] == 200
                          or p.poll() is not None, 120), (workdir / "serve.log").read_text()
        assert p.poll() is None, (workdir / "serve.log").read_text()
        status, body = http_get(f"http://127.0.0.1:{port}/q/health/ready")
        health = json.loads(body)
        assert health["status"] == "UP"
        assert health["checks"][0]["data"]["mount.data"] == str(mp)
        assert health["checks"][0]["data"][f"oss.{name}"] == "reachable"
        assert http_get(f"http://127.0.0.1:{port}/q/health/live")[0] == 200
        assert is_mounted(mp)
        assert (mp / "seeded.txt").read_bytes() == b"from oss2\n"
        (mp / "written.txt").write_text("through serve\n")
        assert bucket.get_object("written.txt").read() == b"through serve\n"
        status, metrics = http_get(f"http://127.0.0.1:{port}/q/metrics")
        assert status == 200
        assert "ossgw_engine_starts_total 1.0" in metrics
        assert 'ossgw_mount_up{mount="data"} 1.0' in metrics
        line = [m for m in metrics.splitlines() if m.startswith('ossgw_fuse_operations_total{mount="data",op="write"}')]
        assert line and float(line[0].split()[-1]) >= 1, line
        assert stop_process(p) == 0, (workdir / "serve.log").read_text()
        assert not is_mounted(mp)
    finally:
        kill_if_running(p)
        force_unmount(mp)


def test_serve_refuses_bad_configuration(ossgw_built, workdir):
    mp = workdir / "mnt-bad"
    mp.mkdir()
    cfg = workdir / "bad.properties"
    cfg.write_text(f"quarkus.http.port={free_port()}\nquarkus.http.host=127.0.0.1\n"
                   f"ossgw.state-dir={workdir / 'state'}\n"
                   f"ossgw.mounts.x.bucket=some-bucket\nossgw.mounts.x.mountpoint={mp}\n"
                   "ossgw.mounts.x.options.multipart_size=1\nossgw.mounts.x.options.bogus_option=1\n")
    r = subprocess.run([str(OSSGW), "serve", "--config", str(cfg)], capture_output=True, text=True, timeout=scaled(120),
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 2, r.stderr
    assert "ossgw.mounts.x" in r.stderr and "bogus_option" in r.stderr, r.stderr
    assert not is_mounted(mp)


def test_demo_mounts_a_seeded_bucket(ossgw_built, workdir):
    d = workdir / "demo"
    p = start(["demo", "--dir", d], workdir / "demo.log")
    mp = d / "mnt"
    try:
        assert wait_until(lambda: is_mounted(mp) or p.poll() is not None, 120), (workdir / "demo.log").read_text()
        assert wait_until(lambda: "Press Ctrl-C" in (workdir / "demo.log").read_text(), 30)
        out = (workdir / "demo.log").read_text()
        endpoint = re.search(r"http://127\.0\.0\.1:\d+", out).group(0)
        names = sorted(os.listdir(mp))
        assert {"README.txt", "hello.txt", "data", "notes"} <= set(names), names
        assert (mp / "hello.txt").read_text() == "Hello from OSS!\n"
        assert os.path.isdir(mp / "data" / "logs")
        (mp / "copied.txt").write_text("copied in\n")
        b = oss2.Bucket(oss2.Auth("any", "any"), endpoint, "demo")  # auth is off in the demo
        assert b.get_object("copied.txt").read() == b"copied in\n"
        assert http_get(endpoint + "/-/counters")[0] == 200
        assert stop_process(p) == 0, (workdir / "demo.log").read_text()
        assert not is_mounted(mp)
        log("demo stopped cleanly")
    finally:
        kill_if_running(p)
        force_unmount(mp)
