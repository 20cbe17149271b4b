"""Shared pytest fixtures: the project's OSS emulator as a subprocess.

The fixture builds nothing: it runs the compiled classes in oss-emulator/target/classes (build them with
`./mvnw -pl oss-emulator install` or `compile` first) on a free port, waits for the port file, and kills
the process at the end.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(REPO / "src" / "test" / "e2e"))  # deadlines: waits scaled with the machine's load
from deadlines import scale_test_timeouts, scaled, wait_exit, wait_until  # noqa: E402
CLASSES = REPO / "oss-emulator" / "target" / "classes"
JAVA_HOME = os.environ.get("JAVA_HOME") or "/usr/lib/jvm/temurin-25-jdk-amd64"


@dataclass
class Emulator:
    endpoint: str
    port: int
    bucket: str
    ak: str
    sk: str
    data_dir: str
    process: subprocess.Popen

    def counters(self):
        """GET /-/counters parsed into a dict (operation name -> count, plus BytesReceived/BytesSent)."""
        with urllib.request.urlopen(self.endpoint + "/-/counters", timeout=scaled(10)) as r:
            return json.loads(r.read())

    def reset_counters(self):
        req = urllib.request.Request(self.endpoint + "/-/counters/reset", data=b"", method="POST")
        urllib.request.urlopen(req, timeout=scaled(10)).read()


def start_emulator(bucket="pytest-bucket", ak="pytestak", sk="pytestsecret", data_dir=None, extra_args=()):
    """Starts an emulator process and returns an Emulator once it listens."""
    java = Path(JAVA_HOME) / "bin" / "java"
    if not (CLASSES / "io" / "ossgw" / "emulator" / "EmulatorMain.class").exists():
        raise RuntimeError(f"{CLASSES} has no compiled emulator: run ./mvnw -pl oss-emulator install first")
    data_dir = data_dir or tempfile.mkdtemp(prefix="ossemu-data-")
    port_file = Path(tempfile.mkdtemp(prefix="ossemu-port-")) / "port"
    cmd = [str(java), "-cp", str(CLASSES), "io.ossgw.emulator.EmulatorMain", "--port", "0",
           "--port-file", str(port_file), "--data", data_dir, "--bucket", bucket,
           "--access-key", ak, "--secret-key", sk, *extra_args]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if not wait_until(lambda: port_file.exists() or proc.poll() is not None, 30):
        proc.kill()
        raise RuntimeError(f"emulator did not write its port file in {scaled(30):.0f} s")
    if not port_file.exists():
        raise RuntimeError("emulator exited: " + proc.stdout.read().decode(errors="replace"))
    port = int(port_file.read_text().strip())
    return Emulator(f"http://127.0.0.1:{port}", port, bucket, ak, sk, data_dir, proc)


def stop_emulator(emu):
    emu.process.terminate()
    try:
        wait_exit(emu.process, 10)
    except subprocess.TimeoutExpired:
        emu.process.kill()
        emu.process.wait()


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    """Each test's pytest-timeout limit scaled with the machine's load (deadlines.py)."""
    scale_test_timeouts(item)
    yield


@pytest.fixture(scope="session")
def emulator():
    """A running emulator (directory store in a temp dir, auth on) for the whole session."""
    emu = start_emulator()
    try:
        yield emu
    finally:
        stop_emulator(emu)
        shutil.rmtree(emu.data_dir, ignore_errors=True)
