"""End-to-end: the documented precedence of `./ossgw serve --config FILE` (docs/deploy.md, LaunchSettings):
-D system properties > environment variables > the --config file > application.properties defaults.
The NFS listener shows which value won: its port and address are printed by the RPC server when it binds."""
import os
import re
import signal
import subprocess

from e2e_support import OSSGW, free_port, http_get, wait_exit, wait_until


def test_env_and_system_properties_win_over_the_config_file(ossgw_built, workdir):
    file_http, env_http = free_port(), free_port()
    file_nfs, env_nfs, sys_nfs = free_port(), free_port(), free_port()
    cfg = workdir / "ossgw.properties"
    cfg.write_text("\n".join([
        "quarkus.http.host=127.0.0.1",
        f"quarkus.http.port={file_http}",  # overridden by QUARKUS_HTTP_PORT
        "ossgw.nfs.bind=127.0.0.1",  # from the file only: wins over the built-in 0.0.0.0
        f"ossgw.nfs.port={file_nfs}",  # overridden by OSSGW_NFS_PORT, which -Dossgw.nfs.port overrides
        "ossgw.exports.demo.bucket=demo",
        "ossgw.exports.demo.path=/demo",
        f"ossgw.state-dir={workdir / 'state'}",
    ]) + "\n")
    env = dict(os.environ, QUARKUS_HTTP_PORT=str(env_http), OSSGW_NFS_PORT=str(env_nfs),
               OSSGW_JAVA_OPTS=(os.environ.get("OSSGW_JAVA_OPTS", "") + f" -Dossgw.nfs.port={sys_nfs}").strip())
    log_path = workdir / "serve.log"
    with open(log_path, "wb") as out:
        p = subprocess.Popen([str(OSSGW), "serve", "--config", str(cfg)], stdout=out, stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, env=env)
    try:
        assert wait_until(lambda: "ossgw serving" in log_path.read_text() or p.poll() is not None, 120), \
            log_path.read_text()
        assert p.poll() is None, log_path.read_text()
        listening = re.findall(r"RPC server listening on (\S+)", log_path.read_text())
        assert listening == [f"127.0.0.1:{sys_nfs}"], log_path.read_text()
        assert wait_until(lambda: http_get(f"http://127.0.0.1:{env_http}/q/health/ready")[0] == 200, 60), \
            log_path.read_text()
        assert http_get(f"http://127.0.0.1:{file_http}/q/health/ready")[0] != 200
    finally:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
            try:
                wait_exit(p, 60)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
