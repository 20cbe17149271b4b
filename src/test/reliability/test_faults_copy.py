"""Reliability scenario "faults + copy + verify" (issue 9 intro: keep it true).

With faults injected in the emulator (503 SlowDown, 500 InternalError, TCP resets without reply, added latency), N
files of mixed sizes are copied through `./ossgw mount`; after a remount (cold caches, faults still on) every file is
stat'ed and read back: stat may fail with EIO but never with ENOENT for a file that exists, and every file's sha256
matches. With the faults cleared, every object is checked again through oss2. The figures (files, bytes, faults the
emulator injected, errors surfaced) are printed as one `RELIABILITY faults_copy:` line for docs/reliability.md.

Short form (CI): 60 files, 0 B..8 MiB, 4 clients at once. Long form (OSSGW_RELIABILITY=long): 3,000 files, about
1.6 GB, 16 clients at once.
"""
import errno
import hashlib
import json
import os
import random
import shutil
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import oss2

from conftest import scale
from e2e_support import emulator_admin as admin, sha256_file

MIB = 1 << 20
FILES = scale(60, 3000)
LATENCY_MS = scale(5, 20)
STAT_ROUNDS = scale(3, 2)
# Clients working at once (the adversarial run had 40): the copy, the stats and the reads each fan out over them.
WORKERS = scale(4, 16)
_COUNTS_LOCK = threading.Lock()
NO_CACHE = ("max_stat_cache_size=0", "attr_timeout=0", "entry_timeout=0", "negative_timeout=0")



def injected(emu):
    f = json.loads(admin(emu, "GET", "/-/faults"))
    return f.get("injectedErrors", 0), f.get("injectedResets", 0)


def start_faults(emu):
    admin(emu, "POST", "/-/faults?status=503&code=SlowDown&rate=0.03")
    admin(emu, "POST", "/-/faults?status=500&code=InternalError&rate=0.02")
    admin(emu, "POST", "/-/faults?resetRate=0.01")
    admin(emu, "POST", f"/-/faults?latencyMs={LATENCY_MS}")


def sizes(rnd, n):
    """Mixed sizes: a third tiny (0..4 KiB, empty files included), a third medium, a third large with some exactly
    8 MiB. Short form: medium up to 1 MiB, large up to 8 MiB (~100 MB for 60 files). Long form: medium up to 256 KiB,
    large up to 2 MiB, so 3,000 files come to about 1.6 GB."""
    medium = scale(MIB, MIB // 4)
    large = scale(8 * MIB, 2 * MIB)
    every8 = scale(10, 100)
    out = []
    for i in range(n):
        kind = i % 3
        if kind == 0:
            out.append(0 if i % 12 == 0 else rnd.randint(1, 4096))
        elif kind == 1:
            out.append(rnd.randint(4097, medium))
        else:
            out.append(8 * MIB if i % every8 == 2 else rnd.randint(MIB + 1, large))
    return out


def retry_eio(what, call, counts, attempts=4):
    """Runs call(); EIO (what faults may surface after the gateway's own retries) is counted and retried."""
    for n in range(attempts):
        try:
            return call()
        except OSError as e:
            if e.errno != errno.EIO or n == attempts - 1:
                raise
            with _COUNTS_LOCK:
                counts[what] += 1
            time.sleep(0.2)



def test_copy_under_faults_verifies_and_stat_never_says_enoent(emulator, mounts, new_bucket, workdir, capsys):
    name, bucket = new_bucket
    rnd = random.Random(20)
    src = workdir / "src"
    src.mkdir()
    expected = {}
    total = 0
    for i, size in enumerate(sizes(rnd, FILES)):
        rel = f"d{i % 7}/f{i:05d}.bin"
        (src / rel).parent.mkdir(exist_ok=True)
        data = rnd.randbytes(size)
        (src / rel).write_bytes(data)
        expected[rel] = hashlib.sha256(data).hexdigest()
        total += size

    counts = {"copy_eio": 0, "stat_eio": 0, "stat_enoent": 0, "read_eio": 0, "listing_eio": 0}
    mp = mounts.mount(name)
    before = injected(emulator)
    t0 = time.time()
    start_faults(emulator)
    def copy(rel):
        retry_eio("copy_eio", lambda: (mp / rel).parent.mkdir(exist_ok=True), counts)
        retry_eio("copy_eio", lambda: shutil.copyfile(src / rel, mp / rel), counts)

    def stat(rel):
        """None, or rel when stat said ENOENT (EIO is retried once and counted)."""
        for _ in range(2):
            try:
                st = os.stat(mp / rel)
                assert st.st_size == (src / rel).stat().st_size, rel
                return None
            except OSError as e:
                assert e.errno in (errno.ENOENT, errno.EIO), f"stat {rel}: {e}"
                with _COUNTS_LOCK:
                    counts["stat_enoent" if e.errno == errno.ENOENT else "stat_eio"] += 1
                if e.errno == errno.ENOENT:
                    return rel
        return None

    try:
        with ThreadPoolExecutor(WORKERS) as pool:
            list(pool.map(copy, expected))
            copied = time.time() - t0

            # cold caches, and none kept: every stat below is a LOOKUP that asks OSS, under faults
            mp = mounts.remount(mp, name, extra=NO_CACHE)
            missing = [r for r in pool.map(stat, [r for _ in range(STAT_ROUNDS) for r in expected]) if r]
            listed = set()
            for d in {rel.split("/")[0] for rel in expected}:
                names = retry_eio("listing_eio", lambda: os.listdir(mp / d), counts)
                listed.update(f"{d}/{n}" for n in names)
            digests = pool.map(lambda rel: retry_eio("read_eio", lambda: sha256_file(mp / rel), counts), expected)
            bad = [rel for rel, got in zip(expected, digests) if got != expected[rel]]
        faults = tuple(a - b for a, b in zip(injected(emulator), before))
    finally:
        admin(emulator, "DELETE", "/-/faults")

    assert missing == [], f"stat said ENOENT under faults for existing files: {missing[:10]}"
    assert listed == set(expected), f"listing differs: {sorted(set(expected) ^ listed)[:10]}"
    assert bad == [], f"sha256 mismatch through FUSE: {bad[:10]}"
    for rel, digest in expected.items():
        assert hashlib.sha256(bucket.get_object(rel).read()).hexdigest() == digest, rel
    assert sorted(o.key for o in oss2.ObjectIteratorV2(bucket) if not o.key.endswith("/")) == sorted(expected)
    assert faults[0] + faults[1] > 0, "no fault was injected: the scenario tested nothing"
    with capsys.disabled():
        print(f"\nRELIABILITY faults_copy: files={len(expected)} bytes={total} "
              f"faults=503:3%,500:2%,reset:1%,latency:{LATENCY_MS}ms injected_errors={faults[0]} "
              f"injected_resets={faults[1]} copy_eio={counts['copy_eio']} stat_eio={counts['stat_eio']} "
              f"stats={STAT_ROUNDS * len(expected)} stat_enoent={counts['stat_enoent']} "
              f"listing_eio={counts['listing_eio']} read_eio={counts['read_eio']} workers={WORKERS} "
              f"copy_s={copied:.1f} total_s={time.time() - t0:.1f}")
