# Sourced by checks.sh (so by check.sh and container.sh): deadlines that scale with how busy the machine is, as
# src/test/e2e/deadlines.py computes them (README "Run the tests"). A wait on a condition gives up after N seconds of
# a quiet machine times the factor: `deadline=$((SECONDS + $(scaled 90)))`, `podman stop -t "$(scaled 30)"`.
#   ossgw_slowdown: OSSGW_TEST_SLOWDOWN when set (>= 1), else max(1 min, 5 min load average) / CPUs, between 1 and 5;
#                   printed as a whole number (rounded up), what shell arithmetic needs
#   scaled N:       N times that factor
ossgw_slowdown() {
  local cpus
  cpus="$(nproc 2>/dev/null || echo 1)"
  awk -v forced="${OSSGW_TEST_SLOWDOWN:-}" -v cpus="$cpus" '
    BEGIN {
      if (forced != "") { f = forced + 0 }
      else {
        getline line < "/proc/loadavg"; split(line, l, " ")
        f = (l[1] > l[2] ? l[1] : l[2]) / (cpus > 0 ? cpus : 1)
        if (f > 5) f = 5
      }
      n = int(f); if (n < f) n++; if (n < 1) n = 1
      print n
    }'
}
scaled() { echo $(( $1 * $(ossgw_slowdown) )); }
