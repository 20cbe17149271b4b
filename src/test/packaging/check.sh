#!/usr/bin/env bash
# Packaging check (issue 5), offline: no Docker engine and no cluster are needed.
#   1. hadolint on the Dockerfile (and a known-bad Dockerfile must fail: the linter really runs)
#   2. helm lint --strict on the chart with its default values and each helm/examples/*.yaml
#   3. helm template for each of those; every rendered manifest decoded strictly into the k8s.io/api types by
#      tools/manifest-check (plus the YAML manifests of docs/deploy.md); a manifest with an unknown field must fail
#   4. values.schema.json refuses an unknown key
#   5. the values table of docs/deploy.md matches values.yaml (values_table.py check)
#   6. docker/entrypoint.sh on the host: credentials from *_FILE, a missing OSSGW_CONFIG_FILE refused, and `serve`
#      with a config (embedded emulator, sized by OSSGW_MEMORY_LIMIT=512, one NFS export on a free port of 127.0.0.1, and a guest SMB share when smbd,
#      smbclient, /dev/fuse and root are there): nfs-cp a file in, nfs-ls lists it, nfs-cat reads it back, smbclient
#      puts and gets one, /q/health/ready is UP, /q/metrics counts exactly those bytes per front end, SIGTERM ends it
#      with exit 0
#   7. the JVM AOT cache of ./ossgw and docker/entrypoint.sh (src/test/packaging/launcher-aot.sh)
# Tools come from src/test/packaging/install-tools.sh (helm + manifest-check under $OSSGW_TOOLS, hadolint + PyYAML in
# the venv, nfs-ls/nfs-cp/nfs-cat from libnfs-utils); .ci/run runs it. Writes $LOGS/packaging-check.xml (JUnit) and
# ends with "packaging: N passed, N failed". Exit 1 if any check failed, 2 if a tool is missing.
set -uo pipefail

ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
cd "$ROOT"
TOOLS="${OSSGW_TOOLS:-$HOME/.cache/ossgw-tools}"
VENV="${OSSGW_VENV:-$ROOT/.venv}"
LOGS="${OSSGW_TEST_LOGS:-$ROOT/target/test-logs}"
HELM="$TOOLS/bin/helm"
MC="$TOOLS/bin/manifest-check"
HADOLINT="$VENV/bin/hadolint"
PY="$VENV/bin/python"
KUBE_VERSION=1.31.0
# A JDK >= 25 for the entrypoint and (when the app is stale) the build: JAVA_HOME, else the newest under /usr/lib/jvm.
java_major() {
  "$1" -version 2>&1 | awk -F'"' '/version/ {print $2; exit}' | awk -F. '{ if ($1 == "1") print $2; else print $1 }'
}
for c in ${JAVA_HOME:+"$JAVA_HOME"} $(ls -d /usr/lib/jvm/* 2>/dev/null | sort -rV); do
  v="$(java_major "$c/bin/java" 2>/dev/null || true)"
  if [[ "$v" =~ ^[0-9]+$ ]] && (( v >= 25 )); then export JAVA_HOME="$c"; break; fi
done
mkdir -p "$LOGS"
WORK="$(mktemp -d "${TMPDIR:-/tmp}/ossgw-packaging.XXXXXX")"
SERVE_PID=""
cleanup() {
  if [[ -n "$SERVE_PID" ]] && kill -0 "$SERVE_PID" 2>/dev/null; then
    kill "$SERVE_PID" 2>/dev/null
    wait "$SERVE_PID" 2>/dev/null
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

for t in "$HELM" "$MC" "$HADOLINT" "$PY"; do
  [[ -x "$t" ]] || { echo "packaging: $t is missing; run src/test/packaging/install-tools.sh" >&2; exit 2; }
done
for t in nfs-ls nfs-cp nfs-cat curl; do
  command -v "$t" >/dev/null || { echo "packaging: $t is missing (apt-get install libnfs-utils curl)" >&2; exit 2; }
done

CHECK_CLASS=packaging
# shellcheck source=src/test/packaging/checks.sh
source "$ROOT/src/test/packaging/checks.sh"
# fails COMMAND...: succeeds when the command fails (the negative checks: the tools really reject bad input).
fails() { ! "$@"; }

echo "packaging: helm $("$HELM" version --short), $("$HADOLINT" --version)"

# --- 1. Dockerfile
check "hadolint Dockerfile" "$HADOLINT" Dockerfile
printf 'FROM debian:latest\nRUN apt-get install curl\nCMD bash\n' >"$WORK/Dockerfile.bad"
check "hadolint rejects a bad Dockerfile" fails "$HADOLINT" "$WORK/Dockerfile.bad"
check "entrypoint is valid bash" bash -n docker/entrypoint.sh

# --- 2./3. chart: lint, render, validate
# External objects each values file names (created outside the chart).
declare -A EXTERNAL=([existing-secret]="Secret/oss-credentials,Secret/ossgw-smb-users" \
  [cluster-standby]="Secret/ossgw-valkey" [cluster-active]="Secret/ossgw-valkey")
VALUES=(default helm/examples/*.yaml)
render() { # name values-file|default -> $WORK/render-NAME.yaml
  local args=()
  [[ "$2" != default ]] && args=(-f "$2")
  "$HELM" template "pkg-$1" helm/ossgw "${args[@]}" --kube-version "$KUBE_VERSION" --namespace storage \
    >"$WORK/render-$1.yaml"
}
for v in "${VALUES[@]}"; do
  name="$(basename "$v" .yaml)"
  args=()
  [[ "$v" != default ]] && args=(-f "$v")
  check "helm lint --strict ($name)" "$HELM" lint --strict helm/ossgw "${args[@]}" --kube-version "$KUBE_VERSION"
  check "helm template ($name)" render "$name" "$v"
  check "manifest-check ($name)" "$MC" -external "${EXTERNAL[$name]:-}" "$WORK/render-$name.yaml"
done
check "manifest-check (docs/deploy.md)" "$MC" docs/deploy.md
# The offline render docs/deploy.md shows, as a user types it (only `helm` is this helm).
DOC_RENDER="$(grep -m1 '^helm template ' docs/deploy.md)"
check "docs/deploy.md's helm template line renders" bash -c "[[ -n \$1 ]] && \"\$0\" \${1#helm }" "$HELM" "$DOC_RENDER"
# Every fuse.mode and persistence on/off renders valid manifests too (mode none: NFS only, no persistence).
for mode in sysadmin privileged devicePlugin none; do
  if [[ $mode == none ]]; then set -- nfs-only false; else set -- both true; fi
  check "manifest-check (fuse.mode=$mode, $1, persistence=$2)" bash -c "\"$HELM\" template m helm/ossgw \
    -f helm/examples/$1.yaml --set fuse.mode=$mode --set persistence.enabled=$2 --kube-version $KUBE_VERSION \
    | \"$MC\" -"
done
# A cluster (cluster.*, docs/deploy.md "High availability"): the replicas, the store's keys and password file, a
# PodDisruptionBudget and ClientIP affinity in active mode only, anti-affinity, the short readiness period; and the
# layouts the chart refuses: replicas without a store, a store without its URL, per-replica volumes, SMB in active mode.
cluster_renders() {
  local s="$WORK/render-cluster-standby.yaml" a="$WORK/render-cluster-active.yaml"
  grep -q '^  replicas: 2$' "$s" && grep -q 'ossgw.cluster.store=redis://valkey.storage.svc:6379' "$s" \
    && grep -q 'ossgw.cluster.mode=standby' "$s" && grep -q 'ossgw.cluster.password-file=/etc/ossgw/cluster/password' "$s" \
    && grep -q 'type: Recreate' "$s" && grep -q 'preferredDuringSchedulingIgnoredDuringExecution' "$s" \
    && grep -q 'periodSeconds: 2' "$s" && ! grep -q 'kind: PodDisruptionBudget' "$s" && ! grep -q 'sessionAffinity' "$s" \
    && grep -q '^  replicas: 3$' "$a" && grep -q 'kind: PodDisruptionBudget' "$a" && grep -q 'maxUnavailable: 1' "$a" \
    && grep -q 'sessionAffinity: ClientIP' "$a" && grep -q 'type: RollingUpdate' "$a" \
    && ! grep -q 'ossgw.cluster' "$WORK/render-default.yaml"
}
check "cluster values render (standby, active)" cluster_renders
refuses() { # refuses MESSAGE-PART helm-template-args...: the render fails and says why
  local want="$1"
  shift
  ! "$HELM" template r helm/ossgw --kube-version "$KUBE_VERSION" "$@" >/dev/null 2>"$WORK/refused.txt" \
    && grep -qF "$want" "$WORK/refused.txt"
}
check "the chart refuses replicaCount > 1 without a cluster" refuses "replicaCount > 1 needs cluster.enabled" \
  --set replicaCount=2
check "the chart refuses a cluster without a store URL" refuses "cluster.enabled needs cluster.store.url" \
  --set cluster.enabled=true
check "the chart refuses a cluster with persistence" refuses "set persistence.enabled=false" \
  -f helm/examples/cluster-standby.yaml --set persistence.enabled=true
check "the chart refuses SMB shares in active mode" refuses "cluster.mode=active serves NFS only" \
  -f helm/examples/both.yaml --set persistence.enabled=false --set cluster.enabled=true --set cluster.mode=active \
  --set cluster.store.url=redis://valkey:6379 --set replicaCount=2
check "values.schema.json refuses a store URL of another scheme" refuses "/cluster/store/url" \
  --set cluster.enabled=true --set cluster.store.url=http://valkey:6379

# The checker really rejects what the API server would: an unknown field, a selector that matches nothing.
sed 's/imagePullPolicy:/imagePulPolicy:/' "$WORK/render-both.yaml" >"$WORK/bad-field.yaml"
check "manifest-check rejects an unknown field" fails "$MC" "$WORK/bad-field.yaml"
sed 's/targetPort: nfs/targetPort: nfs-typo/' "$WORK/render-both.yaml" >"$WORK/bad-port.yaml"
check "manifest-check rejects a Service targetPort the pod lacks" fails "$MC" "$WORK/bad-port.yaml"

# NOTES.txt (helm template does not render it): rendered through a copy of the chart, it gives the mount commands.
notes() { # notes OUT [helm template args...]: NOTES.txt rendered with both.yaml and the args, in $WORK/OUT
  local out="$WORK/$1"
  shift
  rm -rf "$WORK/notes-chart" && cp -r helm/ossgw "$WORK/notes-chart" && cp helm/ossgw/templates/NOTES.txt \
    "$WORK/notes-chart/notes.tpl" || return 1
  printf '%s\n' 'apiVersion: v1' 'kind: ConfigMap' 'metadata: {name: notes}' \
    'data: {notes: {{ tpl (.Files.Get "notes.tpl") . | toJson }}}' >"$WORK/notes-chart/templates/zz-notes.yaml"
  "$HELM" template pkg "$WORK/notes-chart" -f helm/examples/both.yaml --kube-version "$KUBE_VERSION" -n storage \
    --show-only templates/zz-notes.yaml "$@" >"$out" || return 1
  cat "$out"
}
notes_default() {
  notes notes.yaml || return 1
  grep -qF 'mount -t nfs pkg-ossgw.storage.svc:/shared-bucket /mnt/shared' "$WORK/notes.yaml" \
    && grep -qF 'mount -t nfs -o vers=3 pkg-ossgw.storage.svc:/shared-bucket /mnt/shared' "$WORK/notes.yaml" \
    && grep -qF 'mount -t nfs4 pkg-ossgw.storage.svc:/ /mnt' "$WORK/notes.yaml" \
    && grep -qF 'smbclient //pkg-ossgw.storage.svc/shared -p 445' "$WORK/notes.yaml"
}
check "NOTES.txt renders the mount commands (NFSv4.1 with no options, NFSv3 through rpcbind, SMB)" notes_default
# Without rpcbind the v3 line names both ports and nolock; on another port the v4.1 line names it; with versions=4.1
# there is no v3 line at all.
notes_variants() {
  notes notes-norpcbind.yaml --set nfs.rpcbind=false --set nfs.port=3049 || return 1
  grep -qF 'mount -t nfs -o vers=4.1,port=3049 pkg-ossgw.storage.svc:/shared-bucket /mnt/shared' \
    "$WORK/notes-norpcbind.yaml" || return 1
  grep -qF 'mount -t nfs -o vers=3,proto=tcp,port=3049,mountport=3049,nolock pkg-ossgw.storage.svc:/shared-bucket' \
    "$WORK/notes-norpcbind.yaml" || return 1
  notes notes-v41.yaml --set nfs.rpcbind=false --set nfs.versions=4.1 || return 1
  grep -qF 'mount -t nfs pkg-ossgw.storage.svc:/shared-bucket /mnt/shared' "$WORK/notes-v41.yaml" \
    && ! grep -q 'nfs -o vers=3' "$WORK/notes-v41.yaml"
}
check "NOTES.txt: v3 without rpcbind, another port, v4.1 only" notes_variants
# Standby mode: standbys are never Ready, so the wait line waits for one Ready replica, not for the rollout.
notes_standby() {
  notes notes-standby.yaml -f helm/examples/cluster-standby.yaml --set cluster.store.url=redis://v:6379 --set shares=null --set persistence.enabled=false || return 1
  grep -qF "wait --for=jsonpath='{.status.readyReplicas}'=1 deployment/pkg-ossgw" "$WORK/notes-standby.yaml" \
    && ! grep -q 'rollout status deployment' "$WORK/notes-standby.yaml" \
    && notes notes-active.yaml -f helm/examples/cluster-active.yaml --set cluster.store.url=redis://v:6379 --set shares=null --set persistence.enabled=false \
    && grep -q 'rollout status deployment/pkg-ossgw' "$WORK/notes-active.yaml"
}
check "NOTES.txt: standby mode waits for the lease holder, not the rollout" notes_standby
# The rendered properties carry the NFS versions, lease and grace; 111 is exposed only with rpcbind.
nfs_keys() {
  local out
  out="$("$HELM" template m helm/ossgw -f helm/examples/nfs-only.yaml --set nfs.versions=4.1 \
    --set nfs.v4.leaseTime=30s --set nfs.v4.graceTime=45s --kube-version "$KUBE_VERSION")" || return 1
  grep -q '^    ossgw.nfs.versions=4.1$' <<<"$out" && grep -q '^    ossgw.nfs.v4.lease-time=30s$' <<<"$out" \
    && grep -q '^    ossgw.nfs.v4.grace-time=45s$' <<<"$out" && ! grep -q 'port: 111' <<<"$out" || return 1
  "$HELM" template m helm/ossgw -f helm/examples/both.yaml --kube-version "$KUBE_VERSION" | grep -q 'port: 111' \
    || return 1
  # nfs.nsmName: the name NLM clients mounted, sent in SM_NOTIFY; unset, no key (the address each client called)
  "$HELM" template m helm/ossgw -f helm/examples/both.yaml --set nfs.nsmName=nfs.example.com \
    --kube-version "$KUBE_VERSION" | grep -q '^    ossgw.nfs.nsm-name=nfs.example.com$' \
    && ! "$HELM" template m helm/ossgw -f helm/examples/both.yaml --kube-version "$KUBE_VERSION" | grep -q 'nsm-name'
}
check "chart: nfs.versions, nfs.v4.* and nfs.nsmName reach ossgw.properties; port 111 only with rpcbind" nfs_keys

# --- 4. values schema
check "values.schema.json rejects an unknown key" fails "$HELM" lint --strict helm/ossgw --set imagePulPolicy=x \
  --kube-version "$KUBE_VERSION"
check "values.schema.json rejects a bad squash" fails "$HELM" lint --strict helm/ossgw --set exports.a.bucket=b1 \
  --set exports.a.squash=some --kube-version "$KUBE_VERSION"

check "values.schema.json rejects nfs.versions=4.2" fails "$HELM" lint --strict helm/ossgw --set nfs.versions=4.2 \
  --kube-version "$KUBE_VERSION"
check "chart refuses nfs.rpcbind without NFSv3" fails "$HELM" template x helm/ossgw -f helm/examples/both.yaml \
  --set nfs.versions=4.1 --kube-version "$KUBE_VERSION"

check "chart refuses SMB shares without FUSE" fails "$HELM" template x helm/ossgw -f helm/examples/smb-only.yaml \
  --set fuse.mode=none --kube-version "$KUBE_VERSION"

# --- memory: the entrypoint sizes the JVM from the container's limit; an explicit options.memory_limit passes through
memory_option() {
  local out
  out="$("$HELM" template m helm/ossgw --set resources.limits.memory=1.5Gi --kube-version "$KUBE_VERSION")" || return 1
  ! grep -q 'options.memory_limit=\|OSSGW_HEAP_PERCENT\|MaxDirectMemorySize' <<<"$out" || return 1
  "$HELM" template m helm/ossgw --set options.memory_limit=300 --kube-version "$KUBE_VERSION" \
    | grep -q '^    ossgw.options.memory_limit=300$'
}
check "memory sized by the entrypoint; options.memory_limit passes through" memory_option

# --- 5. docs
check "values table of docs/deploy.md" "$PY" src/test/packaging/values_table.py check

# --- 6. the entrypoint on the host
JAR_DIR="$ROOT/gateway-app/target/quarkus-app"
entrypoint() { OSSGW_HOME="$ROOT/gateway-app/target" docker/entrypoint.sh "$@"; }
secret_files() {
  printf 'AKID-from-file\n' >"$WORK/ak"
  printf 'SK-from-file' >"$WORK/sk"
  OSS_ACCESS_KEY_ID_FILE="$WORK/ak" OSS_ACCESS_KEY_SECRET_FILE="$WORK/sk" OSSGW_CONFIG_FILE=/nonexistent \
    entrypoint env >"$WORK/env.txt"
  grep -qx 'OSS_ACCESS_KEY_ID=AKID-from-file' "$WORK/env.txt" && grep -qx 'OSS_ACCESS_KEY_SECRET=SK-from-file' \
    "$WORK/env.txt" && ! grep -q '^OSS_ACCESS_KEY_[A-Z]*_FILE=' "$WORK/env.txt"
}
check "entrypoint: credentials from *_FILE" secret_files
missing_config() {
  OSSGW_CONFIG_FILE="$WORK/none.properties" entrypoint serve
  [[ $? == 64 ]]
}
check "entrypoint: missing OSSGW_CONFIG_FILE refused" missing_config

free_port() { "$PY" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
serve_nfs() {
  if [[ ! -f "$JAR_DIR/quarkus-run.jar" ]] || [[ -n "$(find "$ROOT"/*/src/main "$ROOT"/*/pom.xml -newer \
      "$JAR_DIR/quarkus-run.jar" -print -quit)" ]]; then
    echo "building gateway-app"
    ./mvnw -B -q -o -DskipTests package -pl gateway-app -am || ./mvnw -B -q -DskipTests package -pl gateway-app -am \
      || return 1
  fi
  local http nfs smb="" url deadline ready=""
  http="$(free_port)"
  nfs="$(free_port)"
  if command -v smbd >/dev/null && command -v smbclient >/dev/null && [[ -c /dev/fuse && "$(id -u)" == 0 ]]; then
    smb="$(free_port)"
  else
    echo "no SMB share: needs smbd, smbclient, /dev/fuse and root"
  fi
  cat >"$WORK/ossgw.properties" <<EOF
ossgw.state-dir=$WORK/state
quarkus.http.host=127.0.0.1
quarkus.http.port=$http
ossgw.emulator.storage=memory
ossgw.nfs.bind=127.0.0.1
ossgw.nfs.port=$nfs
ossgw.exports.pkg.bucket=demo
EOF
  if [[ -n "$smb" ]]; then
    printf 'ossgw.smb.bind=127.0.0.1\nossgw.smb.port=%s\nossgw.shares.pkgs.bucket=demo\nossgw.shares.pkgs.guest=true\n' \
      "$smb" >>"$WORK/ossgw.properties"
  fi
  # Started directly (not through a function): the entrypoint execs the JVM, so $! is the JVM that gets SIGTERM.
  # OSSGW_MEMORY_LIMIT=512 sizes it: heap 256 MB, direct memory 256 MB, buffers 128 MB (README "Memory").
  OSSGW_HOME="$ROOT/gateway-app/target" OSSGW_CONFIG_FILE="$WORK/ossgw.properties" OSSGW_MEMORY_LIMIT=512 \
    docker/entrypoint.sh >"$WORK/serve.log" 2>&1 &
  SERVE_PID=$!
  deadline=$((SECONDS + $(scaled 90)))
  while (( SECONDS < deadline )) && kill -0 "$SERVE_PID" 2>/dev/null; do
    if curl -fsS "http://127.0.0.1:$http/q/health/ready" >"$WORK/ready.json" 2>/dev/null; then ready=1; break; fi
    sleep 0.5
  done
  cat "$WORK/serve.log"
  [[ -n "$ready" ]] || { echo "not ready"; cat "$WORK/ready.json" 2>/dev/null; return 1; }
  grep -q '"status": *"UP"' "$WORK/ready.json" || { cat "$WORK/ready.json"; return 1; }
  grep -q 'embedded OSS emulator.*authentication OFF' "$WORK/serve.log" || { echo "no 'authentication OFF'"; return 1; }
  tr '\0' ' ' <"/proc/$SERVE_PID/cmdline" | grep -q -- '-Xms256m -Xmx256m -XX:MaxDirectMemorySize=256m ' \
    || { echo "JVM not sized from OSSGW_MEMORY_LIMIT=512: $(tr '\0' ' ' <"/proc/$SERVE_PID/cmdline")"; return 1; }
  url="nfs://127.0.0.1/demo?nfsport=$nfs&mountport=$nfs&version=3"
  head -c 300000 /dev/urandom >"$WORK/blob.bin"
  nfs-cp "$WORK/blob.bin" "nfs://127.0.0.1/demo/blob.bin?nfsport=$nfs&mountport=$nfs&version=3" || return 1
  nfs-ls "$url" | tee "$WORK/ls.txt"
  grep -q 'blob.bin' "$WORK/ls.txt" || { echo "blob.bin not listed"; return 1; }
  nfs-cat "nfs://127.0.0.1/demo/blob.bin?nfsport=$nfs&mountport=$nfs&version=3" >"$WORK/back.bin" || return 1
  cmp "$WORK/blob.bin" "$WORK/back.bin" || return 1
  if [[ -n "$smb" ]]; then
    head -c 200000 /dev/urandom >"$WORK/smb.bin"
    (cd "$WORK" && smbclient //127.0.0.1/pkgs -p "$smb" -N -m SMB3 -c 'put smb.bin s.bin; get s.bin smb-back.bin') \
      || return 1
    cmp "$WORK/smb.bin" "$WORK/smb-back.bin" || return 1
  fi
  # /q/metrics counts exactly the bytes each front end moved
  curl -fsS "http://127.0.0.1:$http/q/metrics" >"$WORK/metrics.txt" || return 1
  local w want=(
    'ossgw_frontend_written_bytes_total{frontend="nfs"} 300000.0'
    'ossgw_frontend_read_bytes_total{frontend="nfs"} 300000.0'
    'ossgw_frontend_read_bytes_total{frontend="fuse"} 0.0'
    'ossgw_nfs_operations_total{procedure="mknod"} 0.0'
    'ossgw_nfs4_operations_total{op="sequence"} 0.0')
  if [[ -n "$smb" ]]; then
    want+=('ossgw_frontend_written_bytes_total{frontend="smb"} 200000.0'
      'ossgw_frontend_read_bytes_total{frontend="smb"} 200000.0' 'ossgw_smb_smbd_up 1.0')
  fi
  for w in "${want[@]}"; do
    if ! grep -qxF "$w" "$WORK/metrics.txt"; then
      echo "/q/metrics lacks: $w"
      grep -E 'frontend|smbd' "$WORK/metrics.txt"
      return 1
    fi
  done
  grep -q '^ossgw_nfs_operations_total{procedure="write"} [1-9]' "$WORK/metrics.txt" || { echo "no NFS WRITE"; return 1; }
  awk '/^ossgw_memory_budget_bytes\{/ { found = 1; if ($2 + 0 != 134217728) bad = 1 } END { exit !(found && !bad) }' \
    "$WORK/metrics.txt" || { echo "buffer budget is not a quarter of 512 MB:"; grep ossgw_memory "$WORK/metrics.txt"; return 1; }
  kill -TERM "$SERVE_PID"
  wait "$SERVE_PID"
  local rc=$?
  SERVE_PID=""
  [[ $rc == 0 ]] || { echo "serve exited with $rc after SIGTERM"; tail -20 "$WORK/serve.log"; return 1; }
}
check "entrypoint: serve NFS + SMB (nfs-cp/ls/cat, smbclient, ready, /q/metrics bytes, SIGTERM)" serve_nfs

# --- 7. the JVM AOT cache of ./ossgw and the entrypoint: trained once per build and used, a rebuilt jar's new cache
# and the JVM's warning for a stale one, the overrides (OSSGW_AOT=0, -XX:AOT* in OSSGW_JAVA_OPTS)
# shellcheck source=src/test/packaging/launcher-aot.sh
source "$ROOT/src/test/packaging/launcher-aot.sh"

write_junit "$LOGS/packaging-check.xml"
echo "packaging: $PASSED passed, $FAILED failed"
[[ $FAILED == 0 ]]
