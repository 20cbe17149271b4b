#!/usr/bin/env bash
# Runs every test of the project and prints a summary:
#   1. ./mvnw -B verify           all JUnit tests of all modules (and builds gateway-app/target/quarkus-app)
#   2. pytest src/test/python     the emulator's SDK cross-checks (oss2, alibabacloud-oss-v2)
#   3. pytest src/test/e2e        black-box tests of the built ./ossgw launcher (real FUSE mounts; needs root,
#                                 /dev/fuse, libfuse2 and fusermount)
#   4. pytest src/test/reliability  the reliability suite (faults, kill -9, RPC fuzz and floods, hostile names, load with
#                                 an RSS check) in its short form; OSSGW_RELIABILITY=long runs the long form
#   4b. pytest src/test/vm        the Linux kernel's NFS (and CIFS) clients in a QEMU guest against ./ossgw serve
#                                 (needs qemu-system-x86, debootstrap, cpio, busybox-static; the guest image is built
#                                 once into ~/.cache/ossgw-vm by src/test/vm/build-image.sh; OSSGW_VM=long: long form)
#   5. src/test/packaging/check.sh  Dockerfile (hadolint), Helm chart (lint, template, strict k8s.io/api decoding),
#                                 docs values table, the container entrypoint serving NFS on the host
#   6. src/test/packaging/container.sh  the image built from the Dockerfile with podman and run: NFS/SMB round trips
#                                 from the host, metrics, config file / Helm pod / env, wrong key, clean stop (needs
#                                 root, podman, runc, mmdebstrap; images cached in ~/.cache/ossgw-container)
# Exits non-zero if any step fails. Needs a JDK >= 25 and the venv (.venv, or OSSGW_VENV) with
# src/test/python/requirements.txt and src/test/e2e/requirements.txt installed; .ci/run sets all of that up.
# Options: OSSGW_TEST_STEPS="maven python e2e reliability vm packaging container" (the default) selects steps; extra arguments go to both pytest runs
# (e.g. src/test/run.sh -k stdlib).
set -uo pipefail

ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../.." && pwd)"
cd "$ROOT"
LOGS="$ROOT/target/test-logs"
mkdir -p "$LOGS"
STEPS="${OSSGW_TEST_STEPS:-maven python e2e reliability vm packaging container}"
VENV="${OSSGW_VENV:-$ROOT/.venv}"

java_major() {
  "$1" -version 2>&1 | awk -F'"' '/version/ {print $2; exit}' | awk -F. '{ if ($1 == "1") print $2; else print $1 }'
}
find_jdk() {
  local c v
  for c in ${JAVA_HOME:+"$JAVA_HOME"} $(ls -d /usr/lib/jvm/* 2>/dev/null | sort -rV); do
    [[ -x "$c/bin/java" && -x "$c/bin/javac" ]] || continue
    v="$(java_major "$c/bin/java" || true)"
    if [[ "$v" =~ ^[0-9]+$ ]] && (( v >= 25 )); then echo "$c"; return 0; fi
  done
  return 1
}
JAVA_HOME="$(find_jdk)" || { echo "run.sh: no JDK 25 or newer found (JAVA_HOME, /usr/lib/jvm/*); install Temurin 25" >&2; exit 2; }
export JAVA_HOME
export PATH="$JAVA_HOME/bin:$PATH"
echo "run.sh: JDK $JAVA_HOME; logs in $LOGS"

declare -a NAMES=() RESULTS=() TIMES=()
FAILED=0
record() { # name rc seconds
  NAMES+=("$1"); TIMES+=("$3")
  if [[ "$2" == 0 ]]; then RESULTS+=("ok"); else RESULTS+=("FAILED (exit $2)"); FAILED=1; fi
}

# --- 1. Maven: build everything and run every module's JUnit tests. Test failures do not stop the build, so the
# app is still packaged and the end-to-end tests still run; the failures are counted from the Surefire reports.
# The nfs-server tests drive nfs-rs (PyPI) through this python.
export OSSGW_PYTHON="${OSSGW_PYTHON:-$VENV/bin/python}"
if [[ " $STEPS " == *" maven "* ]]; then
  t0=$SECONDS
  rm -rf ./*/target/surefire-reports  # no stale reports in the counts
  ./mvnw -B verify -Dmaven.test.failure.ignore=true 2>&1 | tee "$LOGS/maven.log" | grep -E --line-buffered \
    '^\[(INFO|WARNING|ERROR)\] (Tests run:|Running |BUILD|Reactor Summary|ossgw|Total time)|FAIL|ERROR\]' || true
  rc=${PIPESTATUS[0]}
  if [[ $rc == 0 ]] && grep -q -E '<<< (FAILURE|ERROR)!|There are test failures|There were test errors' "$LOGS/maven.log"; then
    rc=1
  fi
  record "maven verify (JUnit, all modules)" "$rc" $((SECONDS - t0))
fi

[[ -x "$VENV/bin/python" ]] || { echo "run.sh: no Python venv at $VENV (create it: python3 -m venv .venv && .venv/bin/pip install -r src/test/python/requirements.txt -r src/test/e2e/requirements.txt)" >&2; exit 2; }

# --- 2./3. pytest: separate sessions, so each directory's own pytest.ini and conftest apply.
run_pytest() { # name dir junit-file
  local t0=$SECONDS rc
  "$VENV/bin/python" -m pytest "$2" -q -rA --durations=15 --junitxml="$LOGS/$3" -p no:cacheprovider "${@:4}" \
    2>&1 | tee "$LOGS/${3%.xml}.log"
  rc=${PIPESTATUS[0]}
  [[ $rc == 5 ]] && echo "run.sh: $2 collected no tests"
  record "$1" "$rc" $((SECONDS - t0))
}
if [[ " $STEPS " == *" python "* ]]; then
  run_pytest "pytest src/test/python (emulator vs SDKs)" src/test/python pytest-python.xml "$@"
fi
if [[ " $STEPS " == *" e2e "* ]]; then
  run_pytest "pytest src/test/e2e (./ossgw mount, FUSE)" src/test/e2e pytest-e2e.xml "$@"
fi
if [[ " $STEPS " == *" reliability "* ]]; then
  run_pytest "pytest src/test/reliability (${OSSGW_RELIABILITY:-short})" src/test/reliability pytest-reliability.xml "$@"
fi
# --- 4b. the VM lane: never skipped silently; without QEMU the step fails and says what to install.
if [[ " $STEPS " == *" vm "* ]]; then
  if command -v qemu-system-x86_64 >/dev/null 2>&1; then
    run_pytest "pytest src/test/vm (kernel clients in QEMU)" src/test/vm pytest-vm.xml "$@"
  else
    echo "run.sh: step vm FAILED: qemu-system-x86_64 is missing (apt-get install qemu-system-x86 qemu-utils debootstrap cpio busybox-static; .ci/run does)"
    record "pytest src/test/vm (qemu missing)" 1 0
  fi
fi
# --- 5. packaging (tools from src/test/packaging/install-tools.sh, run by .ci/run); JUnit XML packaging-check.xml
if [[ " $STEPS " == *" packaging "* ]]; then
  t0=$SECONDS
  rm -f "$LOGS/packaging-check.xml"
  OSSGW_TEST_LOGS="$LOGS" OSSGW_VENV="$VENV" src/test/packaging/check.sh 2>&1 | tee "$LOGS/packaging.log"
  record "packaging (Docker, Helm, entrypoint)" "${PIPESTATUS[0]}" $((SECONDS - t0))
fi

# --- 6. container image (podman); JUnit XML packaging-container.xml
if [[ " $STEPS " == *" container "* ]]; then
  t0=$SECONDS
  rm -f "$LOGS/packaging-container.xml"
  OSSGW_TEST_LOGS="$LOGS" OSSGW_VENV="$VENV" src/test/packaging/container.sh 2>&1 | tee "$LOGS/container.log"
  record "container (podman build + run)" "${PIPESTATUS[0]}" $((SECONDS - t0))
fi

# --- summary: per step, then the test counts of every report (Surefire and pytest JUnit XML).
echo
echo "==================================== summary ===================================="
for i in "${!NAMES[@]}"; do
  printf '  %-48s %-18s %5ss\n' "${NAMES[$i]}" "${RESULTS[$i]}" "${TIMES[$i]}"
done
if [[ $FAILED != 0 ]]; then echo "run.sh: FAILED"; else echo "run.sh: all steps passed"; fi
# The counts come last: CI reads the closing "N passed, N failed" line.
"$VENV/bin/python" - "$ROOT" "$LOGS" <<'PY' || true
import glob, sys, xml.etree.ElementTree as ET
root, logs = sys.argv[1], sys.argv[2]
def count(files):
    t = f = s = 0
    for path in files:
        try:
            r = ET.parse(path).getroot()
        except ET.ParseError:
            continue
        for suite in ([r] if r.tag == "testsuite" else r.iter("testsuite")):
            t += int(suite.get("tests", 0)); s += int(suite.get("skipped", 0))
            f += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
    return t, f, s
parts = {"JUnit": count(glob.glob(f"{root}/*/target/surefire-reports/TEST-*.xml")),
         "pytest": count(glob.glob(f"{logs}/pytest-*.xml")),
         "packaging": count(glob.glob(f"{logs}/packaging-check.xml")),
         "container": count(glob.glob(f"{logs}/packaging-container.xml"))}
for name, (t, f, s) in parts.items():
    print(f"  {name:9s} {t - f - s} passed, {f} failed, {s} skipped")
T = sum(p[0] for p in parts.values()); F = sum(p[1] for p in parts.values()); S = sum(p[2] for p in parts.values())
print(f"tests: {T - F - S} passed, {F} failed, {S} skipped")
PY
exit $FAILED
