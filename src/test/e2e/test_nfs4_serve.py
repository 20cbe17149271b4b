"""End-to-end: `./ossgw serve` answers NFSv4.1 on its NFS port by default (ossgw.nfs.versions=3,4.1): a NULL call, a
COMPOUND with EXCHANGE_ID then CREATE_SESSION (minor version 1; 0 gets NFS4ERR_MINOR_VERS_MISMATCH) and one that
opens a file of the export through the pseudo root and one that locks a range of it, NFSv3 beside it on the same port, readiness naming both versions
and /q/metrics counting the v4 operations, clients, sessions, the heap they are charged, open and lock state. Then `ossgw.nfs.versions` set to what is not served is refused at start-up, naming the key."""
import json
import os
import re
import subprocess

import nfs4_rpc
import onc_rpc
from e2e_support import OSSGW, free_port, http_get, kill_if_running, run_ossgw, stop_process, wait_until


def serve(args, workdir, http_port, name, env=None):
    e = dict(os.environ, QUARKUS_HTTP_PORT=str(http_port), QUARKUS_HTTP_HOST="127.0.0.1",
             OSSGW_STATE_DIR=str(workdir / f"state-{name}"), **(env or {}))
    out = open(workdir / f"{name}.log", "wb")
    p = subprocess.Popen([str(OSSGW), *map(str, args)], stdout=out, stderr=subprocess.STDOUT,
                         stdin=subprocess.DEVNULL, env=e)
    ok = wait_until(lambda: http_get(f"http://127.0.0.1:{http_port}/q/health/ready")[0] == 200
                    or p.poll() is not None, 120)
    assert ok and p.poll() is None, (workdir / f"{name}.log").read_text()
    return p


def metrics(http_port):
    text = http_get(f"http://127.0.0.1:{http_port}/q/metrics")[1]
    if isinstance(text, bytes):
        text = text.decode()
    return {m.group(1): float(m.group(2)) for m in re.finditer(r"^(ossgw_nfs4?_\S+) (\S+)$", text, re.M)}


def test_serve_answers_nfs41_and_nfs3_on_one_port_by_default(emulator, ossgw_built, new_bucket, workdir):
    name, bucket = new_bucket
    # 0644 as ossfs writes it, so the AUTH_SYS uid 1000 caller may open it for reading
    bucket.put_object("f.txt", b"over NFSv4.1\n", headers={"x-oss-meta-mode": "33188"})
    passwd = workdir / "passwd"
    passwd.write_text(f"{name}:{emulator.ak}:{emulator.sk}\n")
    passwd.chmod(0o600)
    port, http_port = free_port(), free_port()
    p = serve(["serve", name, "--nfs", "--nfs-port", port, "-o", f"url={emulator.endpoint},passwd_file={passwd}"],
              workdir, http_port, "v41")
    try:
        health = json.loads(http_get(f"http://127.0.0.1:{http_port}/q/health/ready")[1])
        assert health["checks"][0]["data"]["nfs.versions"] == "3,4.1"
        before = metrics(http_port)
        assert before['ossgw_nfs4_operations_total{op="exchange_id"}'] == 0
        assert before["ossgw_nfs4_sessions"] == 0
        with onc_rpc.connect(port) as s:
            _x, accepted, stat, _r = onc_rpc.rpc(s, 1, onc_rpc.NFS_PROGRAM, 4, nfs4_rpc.NFSPROC4_NULL)
            assert accepted and stat == 0
            _x, accepted, stat, _r = onc_rpc.rpc(s, 2, onc_rpc.NFS_PROGRAM, 3, 0)  # v3 NULL on the same port
            assert accepted and stat == 0
            # minor version 0 is not served: the Linux client then tries 4.1
            _a, _s, status, _res = nfs4_rpc.compound(s, 3, [nfs4_rpc.exchange_id(b"e2e-client")], minor=0)
            assert status == nfs4_rpc.NFS4ERR_MINOR_VERS_MISMATCH
            accepted, stat, status, res = nfs4_rpc.compound(s, 4, [nfs4_rpc.exchange_id(b"e2e-client")])
            assert accepted and stat == 0 and status == nfs4_rpc.NFS4_OK
            resop, opstatus, clientid, seq = nfs4_rpc.exchange_id_result(res)
            assert (resop, opstatus) == (nfs4_rpc.OP_EXCHANGE_ID, nfs4_rpc.NFS4_OK) and clientid
            _a, _s, status, res = nfs4_rpc.compound(s, 5, [nfs4_rpc.create_session(clientid, seq)])
            assert status == nfs4_rpc.NFS4_OK, status
            sessionid = nfs4_rpc.session_id(res)
            # the export through the pseudo root, and an open held: the state gauge counts it
            _a, _s, status, res = nfs4_rpc.compound(s, 6, [
                nfs4_rpc.sequence(sessionid, 1), nfs4_rpc.putrootfh(), nfs4_rpc.lookup(name),
                nfs4_rpc.open_read(clientid, b"e2e-owner", "f.txt")])
            assert nfs4_rpc.statuses(res) == [(nfs4_rpc.OP_SEQUENCE, 0), (nfs4_rpc.OP_PUTROOTFH, 0),
                                              (nfs4_rpc.OP_LOOKUP, 0), (nfs4_rpc.OP_OPEN, 0)], status
            open_stateid = nfs4_rpc.last_body(res)[:16]
            # a read lock on it (the file found again by path: filehandles last one compound); the lock gauge counts
            # the new lock stateid
            _a, _s, status, res = nfs4_rpc.compound(s, 7, [
                nfs4_rpc.sequence(sessionid, 2), nfs4_rpc.putrootfh(), nfs4_rpc.lookup(name), nfs4_rpc.lookup("f.txt"),
                nfs4_rpc.lock_read(clientid, b"e2e-lock-owner", open_stateid, 0, 100)])
            assert nfs4_rpc.statuses(res) == [(nfs4_rpc.OP_SEQUENCE, 0), (nfs4_rpc.OP_PUTROOTFH, 0),
                                              (nfs4_rpc.OP_LOOKUP, 0), (nfs4_rpc.OP_LOOKUP, 0),
                                              (nfs4_rpc.OP_LOCK, 0)], status
        after = metrics(http_port)
        assert after['ossgw_nfs4_operations_total{op="exchange_id"}'] == 1  # minor version 0 runs no operation
        assert after['ossgw_nfs4_operations_total{op="create_session"}'] == 1
        assert after['ossgw_nfs4_operations_total{op="sequence"}'] == 2
        assert after['ossgw_nfs4_operations_total{op="open"}'] == 1
        assert after["ossgw_nfs4_clients"] == 1
        assert after["ossgw_nfs4_sessions"] == 1
        assert after['ossgw_nfs4_states{kind="open"}'] == 1
        assert after['ossgw_nfs4_operations_total{op="lock"}'] == 1
        assert after['ossgw_nfs4_states{kind="lock"}'] == 1
        # the client record and the session's reply cache (8 slots of 16 KiB: the most granted) are charged, within
        # the state's share of the heap
        assert before["ossgw_nfs4_state_bytes"] == 0
        assert 8 * (16 << 10) < after["ossgw_nfs4_state_bytes"] < 8 * (16 << 10) + 4096
        assert after["ossgw_nfs4_state_limit_bytes"] >= 4 << 20
        assert after["ossgw_nfs4_clients_evicted_total"] == 0
        assert stop_process(p) == 0, (workdir / "v41.log").read_text()
    finally:
        kill_if_running(p)


def test_versions_not_served_are_refused_at_start_up(emulator, ossgw_built, new_bucket, workdir):
    name, _bucket = new_bucket
    r = run_ossgw("serve", name, "--nfs", "--nfs-port", free_port(), "-o", f"url={emulator.endpoint}",
                  env={"OSSGW_NFS_VERSIONS": "3,4.2", "QUARKUS_HTTP_PORT": str(free_port()),
                       "OSSGW_STATE_DIR": str(workdir / "state")}, timeout=120)
    assert r.returncode != 0
    out = r.stdout + r.stderr
    assert "ossgw.nfs.versions: '4.2' is not a version ossgw serves; accepted: 3 and 4.1" in out, out
