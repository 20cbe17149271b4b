"""The directory-backed emulator on a full disk (issue 21, D2 note): a write that finds no space is answered 500
InternalError on a connection that stays usable, instead of a dropped connection; the key keeps its stored version, the
failed write's partial files are removed (so a smaller write fits again), and a multipart upload survives a failed part.

The emulator runs in a mount namespace of its own with a 2 MiB tmpfs as its data directory (`unshare`: root, or an
unprivileged user namespace), so nothing outside the test sees that file system.
"""
import os
import shutil
import subprocess
import time

import oss2
import pytest

from conftest import CLASSES, JAVA_HOME

BUCKET = "disk-full"
AK, SK = "dfak", "dfsecret"
MIB = 1 << 20


@pytest.fixture
def full_disk_emulator(tmp_path):
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is not installed")
    data, port_file = tmp_path / "data", tmp_path / "port"
    data.mkdir()
    java = os.path.join(JAVA_HOME, "bin", "java")
    script = (f'mount -t tmpfs -o size=2m tmpfs "{data}" && exec "{java}" -cp "{CLASSES}" io.ossgw.emulator.EmulatorMain '
              f'--port 0 --port-file "{port_file}" --data "{data}" --bucket {BUCKET} --access-key {AK} '
              f'--secret-key {SK}')
    ns = ["unshare", "--mount", "--propagation", "private"] if os.geteuid() == 0 else ["unshare", "-r", "-m"]
    proc = subprocess.Popen([*ns, "sh", "-c", script], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.time() + 60
    while not port_file.exists():
        if proc.poll() is not None:
            pytest.skip("cannot give the emulator a small file system of its own: "
                        + proc.stdout.read().decode(errors="replace"))
        assert time.time() < deadline, "the emulator did not start in 60 s"
        time.sleep(0.05)
    endpoint = f"http://127.0.0.1:{int(port_file.read_text())}"
    try:
        yield oss2.Bucket(oss2.AuthV4(AK, SK), endpoint, BUCKET, region="cn-hangzhou")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _internal_error(call):
    with pytest.raises(oss2.exceptions.OssError) as e:
        call()
    assert e.value.status == 500 and e.value.code == "InternalError", (e.value.status, e.value.code, e.value.message)
    assert "store failed" in e.value.message, e.value.message


def test_a_full_disk_is_internal_error_and_keeps_what_was_stored(full_disk_emulator):
    b = full_disk_emulator
    kept = os.urandom(1000)
    b.put_object("kept", kept)
    _internal_error(lambda: b.put_object("big", os.urandom(4 * MIB)))
    _internal_error(lambda: b.put_object("kept", os.urandom(4 * MIB)))  # an overwrite that does not fit
    assert b.get_object("kept").read() == kept
    assert not b.object_exists("big")
    # the failed writes left nothing behind: 1.5 MiB of the 2 MiB fits, once
    fits = os.urandom(3 * MIB // 2)
    b.put_object("fits", fits)
    assert b.get_object("fits").read() == fits
    _internal_error(lambda: b.put_object("fits-too", os.urandom(3 * MIB // 2)))
    b.delete_object("fits")
    b.put_object("fits-too", fits)  # deleting made room again
    assert b.get_object("fits-too").read() == fits


def test_a_part_that_does_not_fit_leaves_the_upload_usable(full_disk_emulator):
    b = full_disk_emulator
    upload_id = b.init_multipart_upload("mpu").upload_id
    _internal_error(lambda: b.upload_part("mpu", upload_id, 1, os.urandom(4 * MIB)))
    assert [p.part_number for p in b.list_parts("mpu", upload_id).parts] == []
    part = b.upload_part("mpu", upload_id, 1, b"last and only part")
    b.complete_multipart_upload("mpu", upload_id, [oss2.models.PartInfo(1, part.etag)])
    assert b.get_object("mpu").read() == b"last and only part"
