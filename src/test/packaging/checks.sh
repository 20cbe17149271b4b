# Sourced by check.sh and container.sh: `check` runs one named check as one JUnit test case, `write_junit` writes the
# cases. The caller sets WORK (scratch directory), CHECK_CLASS (the JUnit classname and testsuite name) and, to keep
# every check's output, CHECK_LOG (a file appended to); CHECK_TAIL lines of a failure's output are shown (default 40).
PASSED=0
FAILED=0
CASES=()
# shellcheck source=src/test/packaging/slowdown.sh
source "$(dirname "${BASH_SOURCE[0]}")/slowdown.sh"  # scaled N: deadlines that scale with the machine's load

# check NAME COMMAND...: runs the command; its output is shown when it fails and goes to CHECK_LOG when that is set.
check() {
  local name="$1" t0=$SECONDS rc
  shift
  "$@" >"$WORK/out.log" 2>&1
  rc=$?
  [[ -n "${CHECK_LOG:-}" ]] && { echo "=== $name: exit $rc"; cat "$WORK/out.log"; } >>"$CHECK_LOG"
  if [[ $rc == 0 ]]; then
    PASSED=$((PASSED + 1))
    printf '  ok    %s (%ss)\n' "$name" $((SECONDS - t0))
    CASES+=("<testcase classname=\"$CHECK_CLASS\" name=\"$name\" time=\"$((SECONDS - t0))\"/>")
  else
    FAILED=$((FAILED + 1))
    printf '  FAIL  %s (exit %s)\n' "$name" "$rc"
    sed 's/^/        /' "$WORK/out.log" | tail -"${CHECK_TAIL:-40}"
    local msg
    msg="$(tail -20 "$WORK/out.log" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/"/\&quot;/g')"
    CASES+=("<testcase classname=\"$CHECK_CLASS\" name=\"$name\" time=\"$((SECONDS - t0))\"><failure message=\"exit $rc\">$msg</failure></testcase>")
  fi
}

# write_junit FILE: the cases so far as one JUnit testsuite named CHECK_CLASS.
write_junit() {
  {
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo "<testsuite name=\"$CHECK_CLASS\" tests=\"$((PASSED + FAILED))\" failures=\"$FAILED\" errors=\"0\" skipped=\"0\">"
    printf '%s\n' "${CASES[@]}"
    echo '</testsuite>'
  } >"$1"
}
