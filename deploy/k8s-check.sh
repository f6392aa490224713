#!/usr/bin/env bash
# Validates the Kubernetes manifests offline (`make k8s-check`); exits non-zero on any error.
#
#   deploy/k8s-check.sh [--keep DIR]
#
# 1. Renders k8s/base and every k8s/overlays/* with `kustomize build` (or `kubectl kustomize`;
#    without either, a stand-in that checks every referenced file exists and concatenates
#    the unpatched resources).
# 2. Checks every rendered document with deploy/k8s_check.py: strict Kubernetes schemas of
#    QUIRE_K8S_VERSION (default 1.31) from the kubernetes-validate package, bundled and
#    offline, plus DESIGN.md's rules (non-root, read-only root, no capabilities, seccomp,
#    requests and limits, probes), selectors that meet, references that resolve, topics.
# 3. Checks that every component is used by an overlay, that the two copies of the OTel
#    collector config match, and that the compose and collector YAML parse.
# Installs kubernetes-validate (and PyYAML) with pip when missing, saying so.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
K8S="$ROOT/k8s"
K8S_VERSION="${QUIRE_K8S_VERSION:-1.31}"
CHECK="$ROOT/deploy/k8s_check.py"

OUT=""
if [[ "${1:-}" == --keep ]]; then
  OUT="${2:?--keep needs a folder}"
  mkdir -p "$OUT"
else
  OUT="$(mktemp -d)"
  trap 'rm -rf "$OUT"' EXIT
fi

errors=0
say() { printf '[k8s-check] %s\n' "$*"; }
fail() { printf '[k8s-check] error: %s\n' "$*"; errors=$((errors + 1)); }

python3 -c 'import yaml' 2>/dev/null || {
  say "installing PyYAML with pip (needed to read the manifests)"
  python3 -m pip install --quiet pyyaml
}

schema_flag=()
if ! python3 -c 'import kubernetes_validate' 2>/dev/null; then
  say "installing kubernetes-validate with pip (offline Kubernetes schemas)"
  if ! python3 -m pip install --quiet kubernetes-validate; then
    say "warning: kubernetes-validate could not be installed: schema checks SKIPPED"
    schema_flag=(--no-schema)
  fi
fi

render=()
approximate=()
if command -v kustomize >/dev/null; then
  render=(kustomize build)
elif command -v kubectl >/dev/null && kubectl kustomize --help >/dev/null 2>&1; then
  render=(kubectl kustomize)
else
  say "warning: neither kustomize nor kubectl found: checking unpatched files only"
  render=(python3 "$CHECK" render-approx)
  approximate=(--approximate)
fi
say "rendering with: ${render[*]}"

targets=(base)
for dir in "$K8S"/overlays/*/; do
  targets+=("overlays/$(basename "$dir")")
done

rendered=()
for target in "${targets[@]}"; do
  name="${target##*/}"
  if "${render[@]}" "$K8S/$target" >"$OUT/$name.yaml" 2>"$OUT/$name.err"; then
    say "rendered $target ($(grep -c '^kind:' "$OUT/$name.yaml") objects)"
    rendered+=("$name=$OUT/$name.yaml")
  else
    fail "cannot render $target:"
    sed 's/^/    /' "$OUT/$name.err"
  fi
done

if ((${#rendered[@]})); then
  python3 "$CHECK" --k8s-version "$K8S_VERSION" "${schema_flag[@]+"${schema_flag[@]}"}" \
    "${approximate[@]+"${approximate[@]}"}" "${rendered[@]}" || errors=$((errors + 1))
fi

for comp in "$K8S"/components/*/; do
  comp_name="$(basename "$comp")"
  [[ -f "$comp/README.md" ]] || fail "components/$comp_name has no README.md"
  grep -qs "components/$comp_name\$" "$K8S"/overlays/*/kustomization.yaml \
    || say "warning: components/$comp_name is used by no overlay, so nothing above rendered it"
done

cmp -s "$ROOT/deploy/otel/collector.yaml" "$K8S/components/otel/collector-config.yaml" \
  || fail "deploy/otel/collector.yaml and k8s/components/otel/collector-config.yaml differ (keep them identical)"

for f in deploy/docker/compose.yaml deploy/otel/collector.yaml; do
  python3 -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$ROOT/$f" 2>"$OUT/yaml.err" \
    || { fail "$f is not valid YAML:"; sed 's/^/    /' "$OUT/yaml.err"; }
done

if ((errors)); then
  say "FAILED ($errors problems above)"
  exit 1
fi
say "OK"
