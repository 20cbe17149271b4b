"""End-to-end: what creating a file costs in OSS requests through `./ossgw mount` (SEMANTICS.md "No zero-byte PUT at
create"): coreutils `touch` and a shell's `echo hi > f` cost one PutObject each, `touch` and the redirection return
only once the object is in OSS, and a bare `: > f` is written by the release that follows its close."""
import os
import subprocess

from e2e_support import log


def _ops(counters):
    return {k: v for k, v in counters.items() if v and not k.startswith("Bytes")}


def test_touch_and_redirect_cost_one_put_each(emulator, mounts, new_bucket):
    name, bucket = new_bucket
    mp = mounts.mount(name)
    d = mp / "d"
    d.mkdir()
    assert os.listdir(d) == []  # the directory's listing is cached: creating in it needs no lookup request
    emulator.reset_counters()

    subprocess.run(["touch", str(d / "t")], check=True)
    assert _ops(emulator.counters()) == {"PutObject": 1}
    # touch returned: the object exists, carrying the times its futimens set
    head = bucket.head_object("d/t")
    assert head.content_length == 0
    assert int(head.headers["x-oss-meta-mtime"].split(".")[0]) == int(os.stat(d / "t").st_mtime)

    emulator.reset_counters()
    subprocess.run(["sh", "-c", f"echo hi > '{d / 'r'}'"], check=True)
    assert _ops(emulator.counters()) == {"PutObject": 1}
    assert bucket.get_object("d/r").read() == b"hi\n"  # the last close uploaded it

    emulator.reset_counters()
    subprocess.run(["sh", "-c", f": > '{d / 'e'}'"], check=True)
    mounts.unmount(mp)  # every release has been handled once the mount process has exited
    c = _ops(emulator.counters())
    log(f"requests for : > f, through the unmount: {c}")
    assert c == {"PutObject": 1}, c
    assert bucket.head_object("d/e").content_length == 0
