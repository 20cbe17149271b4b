"""The package decision of .ci/run (.ci/packages.sh), with a fake dpkg-query on PATH: nothing is installed or removed.
A machine with fuse3 (which provides fusermount and conflicts with fuse) must not get fuse (issue 13, item 1)."""
import os
import subprocess

from e2e_support import REPO, scaled

ALL = ["libfuse2", "fio", "attr", "python3-venv", "libnfs-utils", "libfuse3-3", "stunnel4", "haproxy", "libisal2"]


def missing(tmp_path, installed):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "dpkg-query"
    # dpkg-query -W -f='${Status}' PKG: "install ok installed" for the packages of the fake machine, else exit 1
    fake.write_text("#!/bin/sh\nfor p in " + " ".join(installed) + "; do\n"
                    '  [ "$p" = "$3" ] && { printf "install ok installed"; exit 0; }\ndone\nexit 1\n')
    fake.chmod(0o755)
    r = subprocess.run(["bash", "-c", "source .ci/packages.sh && ci_missing_packages"], cwd=REPO, text=True,
                       capture_output=True, env={**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"},
                       timeout=scaled(30))
    assert r.returncode == 0, r.stderr
    return r.stdout.split()


def test_fuse3_counts_as_fusermount(tmp_path):
    assert missing(tmp_path, ALL + ["fuse3"]) == []


def test_fuse_counts_too(tmp_path):
    assert missing(tmp_path, ALL + ["fuse"]) == []


def test_fuse_is_installed_only_when_neither_is_there(tmp_path):
    assert missing(tmp_path, ALL) == ["fuse"]


def test_a_fresh_machine_gets_everything(tmp_path):
    assert missing(tmp_path, []) == ALL + ["fuse"]


def test_every_apt_call_waits_for_the_dpkg_lock():
    for f in [".ci/run", ".ci/packages.sh", "src/test/packaging/install-tools.sh"]:
        for line in (REPO / f).read_text().splitlines():
            code = line.split("#")[0]
            if "apt-get " in code and "echo" not in code:
                assert "DPkg::Lock::Timeout" in code, f"{f}: {line}"


def test_ci_run_dry_run_with_fuse3_plans_no_fuse_and_calls_no_apt(tmp_path):
    missing(tmp_path, ALL + ["fuse3"])  # writes the fake dpkg-query into tmp_path/bin
    marker = tmp_path / "apt-called"
    apt = tmp_path / "bin" / "apt-get"
    apt.write_text(f"#!/bin/sh\necho \"$@\" >> {marker}\nexit 1\n")
    apt.chmod(0o755)
    r = subprocess.run(["bash", str(REPO / ".ci/run"), "--dry-run"], text=True, capture_output=True, timeout=scaled(60),
                       env={**os.environ, "PATH": f"{tmp_path / 'bin'}:{os.environ['PATH']}"})
    assert r.returncode == 0, r.stderr
    line = r.stdout.strip().splitlines()[-1]
    assert line.startswith(".ci/run --dry-run: would install:"), r.stdout
    assert "fuse" not in line.split(":", 1)[1].split(), line
    assert not marker.exists(), marker.read_text()
