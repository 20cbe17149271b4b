"""The JIT mode the gateway's JVM runs with (issue 22 item 2; docs/benchmarks.md "JIT policy (issue 22 item 2)"):
C1 only (-XX:TieredStopAtLevel=1) unless the user's OSSGW_JAVA_OPTS name a tiered mode, the emulator on the JVM's
default, the same in ./ossgw and the image's entrypoint, and the image's AOT cache trained with the same option."""
import os
import re
import subprocess

from e2e_support import OSSGW, REPO

DEFAULT = "-XX:TieredStopAtLevel=1"


def block(path):
    text = path.read_text()
    return text[text.index("# >>> JIT"):text.index("# <<< JIT")]


def jit_options(*args, **env):
    """What the launcher's ossgw_jit_options prints for these arguments and environment."""
    script = f"source <(sed -n '/^# >>> JIT/,/^# <<< JIT/p' {OSSGW}); ossgw_jit_options \"$@\""
    e = {k: v for k, v in os.environ.items() if k != "OSSGW_JAVA_OPTS"}
    e.update(env)
    return subprocess.run(["bash", "-c", script, "jit", *args], capture_output=True, text=True, env=e,
                          check=True).stdout.strip()


def test_launcher_and_entrypoint_choose_the_jit_alike():
    """The JIT code is written out twice (the image has no ./ossgw); both copies must stay the same."""
    assert block(OSSGW) == block(REPO / "docker" / "entrypoint.sh")


def test_c1_only_by_default_and_the_users_tiered_mode_wins():
    for command in (["mount", "b", "/m"], ["serve", "b", "--nfs"], ["demo"], []):
        assert jit_options(*command) == DEFAULT, command
    assert jit_options("emulator", "--port", "0") == ""  # the emulator keeps the JVM's default (C1 + C2)
    assert jit_options("mount", OSSGW_JAVA_OPTS="-Xmx1g -XX:TieredStopAtLevel=4") == ""
    assert jit_options("serve", OSSGW_JAVA_OPTS="-XX:-TieredCompilation") == ""
    assert jit_options("serve", OSSGW_JAVA_OPTS="-Xmx1g -XX:+UseG1GC") == DEFAULT


def test_the_images_aot_cache_is_trained_with_the_default_jit_option():
    """The Dockerfile's training runs with the entrypoint's options: a cache's method profiles are the JIT mode's."""
    dockerfile = (REPO / "Dockerfile").read_text()
    training = re.search(r"&& ossgw-aot-train /[^\n]*\\\n([^\n]*)", dockerfile)
    assert training, "no ossgw-aot-train line in the Dockerfile"
    assert re.findall(r"-XX:\S*Tier\S*", training.group(1)) == [DEFAULT], training.group(1)


def flags(**env):
    """The final JVM flags of the JVM `./ossgw --version` starts (no build, no AOT cache)."""
    e = {k: v for k, v in os.environ.items() if k != "OSSGW_JAVA_OPTS"}
    e.update(OSSGW_NO_BUILD="1", OSSGW_AOT="0", **env)
    e["OSSGW_JAVA_OPTS"] = (e.get("OSSGW_JAVA_OPTS", "") + " -XX:+PrintFlagsFinal").strip()
    out = subprocess.run([str(OSSGW), "--version"], capture_output=True, text=True, env=e, timeout=120,
                         check=True).stdout
    return {m.group(1): (m.group(2), m.group(3)) for m in
            re.finditer(r"^\s*\S+\s+(\w+)\s+:?= (\S+)\s+\{[^}]*\}\s+\{([^}]*)\}", out, re.M)}


def test_the_started_jvm_runs_c1_only_unless_told():
    assert flags()["TieredStopAtLevel"] == ("1", "command line")
    assert flags(OSSGW_JAVA_OPTS="-XX:TieredStopAtLevel=4")["TieredStopAtLevel"] == ("4", "command line")
