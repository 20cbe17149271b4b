"""Reliability scenario: an old mount process must not unmount a newer mount at the same path (issue 9 item 1).

Linux hands a freed mount id (and a freed anonymous device number) to the next mount, lowest number first. The old
check in the mount process compared only the id and the path, so when mount A's process finished late (its last close
was still uploading against a failing OSS) and mount B had meanwhile been made at the same path with A's old id, A
detached B ("FUSE session at ... ended ... while still mounted; detaching it").

The scenario runs in a private mount namespace (`unshare --mount --propagation private`) where tmpfs filler mounts
take every free id and device number below A's, so that B gets both of A's numbers, as on a busy machine:
  1. mount A (retries=40); write a file; inject faults: the next PutObject is refused (403, so close fails at once)
     and every PutObject after it gets 503 SlowDown; close -> error; the kernel's RELEASE then makes A retry the upload;
  2. `ossgw umount --timeout 0` A: it unmounts, and says (exit 3) that A's process is still uploading 1 file;
  3. fill the id/device holes below A's, free A's numbers, mount B at the same path (B gets A's id and device);
  4. clear the faults: A's upload succeeds, its session ends and its process exits;
  5. B must stay mounted and usable for several seconds after that, and show the file A uploaded.
Whether B got A's id (and device) is printed: on a busy machine another mount may take them first (up to 4 tries).

Run this file with `--inner CONFIG_JSON` to run the scenario itself (what the test does inside the namespace).
"""
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[0] / "e2e"))

from e2e_support import daemon_pids, run_ossgw, scaled, wait_until  # noqa: E402

# conftest.scale's rule, written out because the scenario also runs as a script (--inner) where there is no conftest
WATCH_SECONDS = 30 if os.environ.get("OSSGW_RELIABILITY", "short") == "long" else 6


# ------------------------------------------------------------------------------------------------ the outer test
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root (mount namespaces, FUSE)")
def test_an_old_mount_process_does_not_unmount_a_newer_mount_at_the_same_path(emulator, ossgw_built, workdir,
                                                                              new_bucket):
    name, bucket = new_bucket
    passwd = workdir / "passwd-ossfs"
    passwd.write_text(f"{emulator.ak}:{emulator.sk}\n")
    passwd.chmod(0o600)
    config = {"endpoint": emulator.endpoint, "bucket": name, "passwd": str(passwd), "workdir": str(workdir),
              "watch": WATCH_SECONDS}
    t0 = time.time()
    try:
        r = subprocess.run(["unshare", "--mount", "--propagation", "private", sys.executable, __file__, "--inner",
                            json.dumps(config)], capture_output=True, text=True, timeout=scaled(300))
    finally:
        _admin(emulator.endpoint, "DELETE", "")
    sys.stderr.write(r.stderr)
    assert r.returncode == 0, f"scenario failed (rc={r.returncode}):\n{r.stdout}\n{r.stderr}"
    result = json.loads(r.stdout.strip().splitlines()[-1])
    print(f"mount reuse scenario in {time.time() - t0:.1f} s: {result}", file=sys.stderr)
    assert result["a_close_failed"], result
    assert result["umount_rc"] == 3, result
    assert "still uploading 1 file" in result["umount_stderr"] and str(result["a_pid"]) in result["umount_stderr"]
    assert result["a_exited"], result
    assert result["b_alive_after_a"] >= WATCH_SECONDS, result
    assert result["uploaded_by_a"] == "written by A", result
    assert bucket.get_object("from-a.txt").read() == b"written by A"


def _admin(endpoint, method, query):
    req = urllib.request.Request(f"{endpoint}/-/faults{query}", data=b"" if method == "POST" else None, method=method)
    with urllib.request.urlopen(req, timeout=scaled(10)) as r:
        return r.read()


# ------------------------------------------------------------------------------------- the scenario (namespace)
def _entries(mp):
    """(id, minor of the anonymous device) of every mount at MP, bottom first."""
    out = []
    with open("/proc/self/mountinfo", encoding="latin-1") as f:
        for line in f:
            fields = line.split()
            if fields[4] == str(mp):
                major, minor = fields[2].split(":")
                out.append((int(fields[0]), int(minor) if major == "0" else -1))
    return out


def _top(mp):
    e = _entries(mp)
    return e[-1] if e else None


class Fillers:
    """tmpfs mounts, one per directory, that hold mount ids and anonymous device numbers."""

    def __init__(self, base):
        self.base = base
        self.held = []  # (dir, id, minor)

    def add(self):
        d = self.base / f"f{len(self.held)}-{time.monotonic_ns()}"
        d.mkdir()
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4k", "ossgw-filler", str(d)], check=True)
        i, m = _top(d)
        self.held.append((d, i, m))
        return i, m

    def fill_below(self, mount_id, minor):
        """Takes every free id below MOUNT_ID and device minor below MINOR, then frees the filler that took both of
        them (else the one that took the id), so that the next mount gets them, if nothing else mounts meanwhile."""
        start = len(self.held)
        for _ in range(500):
            i, m = self.add()
            if i > mount_id and m > minor:
                break
        new = self.held[start:]
        target = [f for f in new if f[1] == mount_id and f[2] == minor] or [f for f in new if f[1] == mount_id]
        for f in target:
            subprocess.run(["umount", str(f[0])], check=True)
            self.held.remove(f)
        time.sleep(0.2)  # a freed mount id returns to the pool after an RCU grace period

    def remove_all(self):
        for d, _, _ in self.held:
            subprocess.run(["umount", "-l", str(d)], capture_output=True)
        self.held.clear()


def _options(cfg, tag, extra=""):
    w = Path(cfg["workdir"])
    return (f"url={cfg['endpoint']},passwd_file={cfg['passwd']},sigv4,region=cn-hangzhou,logfile={w}/mount-{tag}.log,"
            f"state_dir={w}/state-{tag}{extra}")


def inner(cfg):
    w = Path(cfg["workdir"])
    mp = w / "mnt"
    (w / "fill").mkdir()
    mp.mkdir()
    fillers = Fillers(w / "fill")
    res = {}
    pids = []
    try:
        for _ in range(20):  # take the free low numbers first, so that A gets numbers that are easy to free for B
            fillers.add()
        r = run_ossgw("mount", cfg["bucket"], mp, "-o", _options(cfg, "a", ",retries=40"), timeout=180)
        assert r.returncode == 0, r.stderr
        a_id, a_minor = _top(mp)
        a_pid = daemon_pids(mp)[0]
        pids.append(a_pid)
        res.update(a_id=a_id, a_minor=a_minor, a_pid=a_pid)

        f = open(mp / "from-a.txt", "w")
        f.write("written by A")
        ep = cfg["endpoint"]
        _admin(ep, "POST", "?status=403&code=AccessDenied&next=1&ops=PutObject")
        _admin(ep, "POST", "?status=503&code=SlowDown&rate=1&ops=PutObject")
        try:
            f.close()  # FLUSH: 403, not retried; then RELEASE retries the upload with 503s in the background
            res["a_close_failed"] = False
        except OSError as e:
            res["a_close_failed"] = True
            res["a_close_error"] = str(e)

        t = time.time()
        r = run_ossgw("umount", "--timeout", "0", mp)  # no wait: A's numbers are free from here on
        res.update(umount_rc=r.returncode, umount_stderr=r.stderr.strip(), umount_seconds=round(time.time() - t, 1))
        assert _top(mp) is None, "A is still mounted after ossgw umount"
        assert a_pid in daemon_pids(mp), "A's process ended before the scenario could mount B"

        attempts = 4  # other processes on the machine mount too, and may take A's numbers first
        for attempt in range(attempts):
            fillers.fill_below(a_id, a_minor)
            r = run_ossgw("mount", cfg["bucket"], mp, "-o", _options(cfg, f"b{attempt}"), timeout=180)
            assert r.returncode == 0, r.stderr
            b_id, b_minor = _top(mp)
            pids.extend(p for p in daemon_pids(mp) if p not in pids)
            res.update(b_id=b_id, b_minor=b_minor, b_attempts=attempt + 1)
            if b_id == a_id or attempt == attempts - 1 or a_pid not in daemon_pids(mp):
                break
            subprocess.run(["fusermount", "-u", str(mp)], check=True)  # B got another id: try again
        res["reused_id"] = res["b_id"] == a_id
        res["reused_device"] = res["b_minor"] == a_minor

        _admin(ep, "DELETE", "")
        res["a_exited"] = wait_until(lambda: not os.path.exists(f"/proc/{a_pid}"), 60, step=0.1)
        t = time.time()
        b_top = (res["b_id"], res["b_minor"])  # as mounted: B may already be gone (then the directory is empty)
        alive = _top(mp) == b_top
        while alive and time.time() - t < cfg["watch"]:
            try:
                (mp / "probe.txt").write_text("b")
                os.listdir(mp)
            except OSError as e:
                res["b_error"] = str(e)
                alive = False
            alive = alive and _top(mp) == b_top
            time.sleep(0.25)
        res["b_alive_after_a"] = round(time.time() - t, 1) if alive else -round(time.time() - t, 1)
        res["uploaded_by_a"] = (mp / "from-a.txt").read_text() if alive else None
        print(json.dumps(res))
        return 0
    finally:
        _admin(cfg["endpoint"], "DELETE", "")
        if _top(mp):
            subprocess.run(["fusermount", "-u", str(mp)], capture_output=True)  # B's process exits by itself
        wait_until(lambda: not any(os.path.exists(f"/proc/{p}") for p in pids), 30)
        for p in pids:
            if os.path.exists(f"/proc/{p}"):
                os.kill(p, 9)
        while _top(mp):
            subprocess.run(["umount", "-l", str(mp)])
        fillers.remove_all()


if __name__ == "__main__" and len(sys.argv) == 3 and sys.argv[1] == "--inner":
    sys.exit(inner(json.loads(sys.argv[2])))
