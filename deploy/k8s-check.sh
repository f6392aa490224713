#!/usr/bin/env bash
# Validates the Kubernetes manifests and the compose file offline (`make k8s-check`); exits
# non-zero on any error, and on any missing tool: nothing is ever skipped.
#
#   deploy/k8s-check.sh [--keep DIR]
#
# 1. Renders k8s/base, every k8s/overlays/* and every component (alone, on top of base)
#    with `kustomize build`, or `kubectl kustomize` (kustomize v5 built into kubectl).
# 2. Checks every rendered document with deploy/k8s_check.py: strict Kubernetes schemas of
#    QUIRE_K8S_VERSION (default 1.31) from the kubernetes-validate package, bundled and
#    offline, plus DESIGN.md's rules (non-root, read-only root, no capabilities, seccomp,
#    requests and limits, probes), selectors that meet, references that resolve, topics,
#    HPAs without fighting replicas, no Ingress path to /metrics, /readyz or an admin
#    port, the PostgreSQL connection budget and the migrations' order (deploy/k8s_budget.py,
#    tested first by deploy/k8s_budget_test.py), and that the OTel collector exports the
#    traces to a store rendered beside it, not to `debug` alone (deploy/k8s_traces.py,
#    tested first by deploy/k8s_traces_test.py).
# 3. Validates the Strimzi and CloudNativePG resources against the operators' schemas,
#    strictly (deploy/k8s-schemas/validate.mjs, packages pinned by package-lock.json).
# 4. Runs checkov over the rendered overlays (skips: deploy/.checkov.yaml, each with its
#    reason, also listed in k8s/README.md).
# 5. Checks that every component is used by an overlay, that the two copies of the OTel
#    collector config and of the Jaeger config match, and deploy/docker/compose.yaml
#    (k8s_check.py compose).
#
# Tools: the Python ones (deploy/k8s-schemas/requirements.txt) are installed once into the
# virtual environment $QUIRE_CACHE/k8s-check-venv, the Node ones (package-lock.json) into
# $QUIRE_CACHE/k8s-schemas; both are reinstalled when their pins change. kustomize (or
# kubectl) must be on PATH: no package registry reachable here ships it, so its absence is
# an error with the way to install it.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
K8S="$ROOT/k8s"
K8S_VERSION="${QUIRE_K8S_VERSION:-1.31}"
CHECK="$ROOT/deploy/k8s_check.py"
SCHEMAS="$ROOT/deploy/k8s-schemas"
CACHE="${QUIRE_CACHE:-$HOME/.cache/quire}"
VENV="$CACHE/k8s-check-venv"
NODE_DIR="$CACHE/k8s-schemas"

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
die() { printf '[k8s-check] error: %s\n[k8s-check] FAILED\n' "$*"; exit 1; }

# ---------------------------------------------------------------- tools
# Python: kubernetes-validate, checkov, PyYAML, in a virtual environment of their own.
command -v python3 >/dev/null || die "python3 is missing (Debian: apt-get install python3 python3-venv)"
stamp="$(sha256sum "$SCHEMAS/requirements.txt" | cut -d' ' -f1)"
if [[ ! -x "$VENV/bin/python" || "$(cat "$VENV/.quire-stamp" 2>/dev/null)" != "$stamp" ]]; then
  say "installing $(grep -v '^#' "$SCHEMAS/requirements.txt" | xargs) into $VENV (once, a minute or two)"
  python3 -m venv "$VENV" || die "cannot create a virtual environment (Debian: apt-get install python3-venv)"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$SCHEMAS/requirements.txt" \
    || die "pip could not install deploy/k8s-schemas/requirements.txt (see above); the schema and checkov checks cannot run"
  printf '%s\n' "$stamp" >"$VENV/.quire-stamp"
fi
PY="$VENV/bin/python"
"$PY" -c 'import yaml, kubernetes_validate' 2>/dev/null || die "$VENV lacks PyYAML or kubernetes-validate; delete it and run again"
[[ -x "$VENV/bin/checkov" ]] || die "$VENV lacks checkov; delete it and run again"

# Node: the CRD schemas (npm ci into the cache, pinned by package-lock.json).
command -v node >/dev/null && command -v npm >/dev/null \
  || die "node and npm are missing (Debian: apt-get install nodejs npm); the Strimzi and CloudNativePG schema check needs them"
stamp="$(cat "$SCHEMAS/package.json" "$SCHEMAS/package-lock.json" | sha256sum | cut -d' ' -f1)"
if [[ ! -d "$NODE_DIR/node_modules" || "$(cat "$NODE_DIR/.quire-stamp" 2>/dev/null)" != "$stamp" ]]; then
  say "installing the CRD schema packages (deploy/k8s-schemas/package-lock.json) into $NODE_DIR"
  mkdir -p "$NODE_DIR"
  cp "$SCHEMAS/package.json" "$SCHEMAS/package-lock.json" "$NODE_DIR/"
  (cd "$NODE_DIR" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) \
    || die "npm ci failed in $NODE_DIR (see above); the Strimzi and CloudNativePG schema check cannot run"
  printf '%s\n' "$stamp" >"$NODE_DIR/.quire-stamp"
fi

# kustomize: the real one, never a stand-in.
if command -v kustomize >/dev/null; then
  render=(kustomize build)
elif command -v kubectl >/dev/null && kubectl kustomize --help >/dev/null 2>&1; then
  render=(kubectl kustomize)
else
  die "neither kustomize nor kubectl is on PATH. Install one: kustomize v5 from
    https://github.com/kubernetes-sigs/kustomize/releases (a single binary), or kubectl 1.27+
    (e.g. Google Cloud's apt repository: apt-get install kubectl). Debian's kubernetes-client
    (kubectl 1.20, kustomize v2) is too old for components."
fi
if [[ "${render[0]}" == kustomize ]]; then
  say "rendering with: kustomize build ($(kustomize version 2>/dev/null | head -n1))"
else
  say "rendering with: kubectl kustomize ($(kubectl version --client 2>/dev/null | grep -i kustomize | head -n1))"
fi

# ---------------------------------------------------------------- render
targets=(base)
for dir in "$K8S"/overlays/*/; do
  targets+=("overlays/$(basename "$dir")")
done
# Every component alone on top of base, so that one no overlay uses is still checked.
for dir in "$K8S"/components/*/; do
  comp="$(basename "$dir")"
  mkdir -p "$OUT/component-$comp"
  cat >"$OUT/component-$comp/kustomization.yaml" <<EOF
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: quire-check
resources:
  - $(realpath --relative-to="$OUT/component-$comp" "$K8S/base")
components:
  - $(realpath --relative-to="$OUT/component-$comp" "$dir")
EOF
done

rendered=()
overlays=()
for target in "${targets[@]}" "$OUT"/component-*; do
  name="${target##*/}"
  src="$target"
  [[ "$target" == /* ]] || src="$K8S/$target"
  # kustomize refuses files outside the kustomization's folder unless told otherwise; the
  # component renders live in $OUT.
  extra=()
  [[ "$target" == /* ]] && extra=(--load-restrictor LoadRestrictionsNone)
  if "${render[@]}" "${extra[@]+"${extra[@]}"}" "$src" >"$OUT/$name.yaml" 2>"$OUT/$name.err"; then
    say "rendered ${target#"$OUT"/} ($(grep -c '^kind:' "$OUT/$name.yaml") objects)"
    rendered+=("$name=$OUT/$name.yaml")
    [[ "$target" == overlays/* ]] && overlays+=("$OUT/$name.yaml")
  else
    fail "cannot render ${target#"$OUT"/}:"
    sed 's/^/    /' "$OUT/$name.err"
  fi
done

# ---------------------------------------------------------------- checks
# The budget and rollout checks' own test first: a check that cannot fail proves nothing.
python3 "$ROOT/deploy/k8s_budget_test.py" 2>"$OUT/budget-test.err" \
  || { fail "deploy/k8s_budget_test.py failed:"; sed 's/^/    /' "$OUT/budget-test.err"; }
"$PY" "$ROOT/deploy/k8s_traces_test.py" 2>"$OUT/traces-test.err" \
  || { fail "deploy/k8s_traces_test.py failed:"; sed 's/^/    /' "$OUT/traces-test.err"; }
if ((${#rendered[@]})); then
  "$PY" "$CHECK" --k8s-version "$K8S_VERSION" "${rendered[@]}" || errors=$((errors + 1))
  node "$SCHEMAS/validate.mjs" "$NODE_DIR/node_modules" "${rendered[@]}" || errors=$((errors + 1))
fi

if ((${#overlays[@]})); then
  # checkov reads one folder; it gets the overlays as deployed (base alone has no
  # namespace, and the component renders repeat base) and the Dockerfile.
  mkdir -p "$OUT/checkov"
  for f in "${overlays[@]}"; do cp "$f" "$OUT/checkov/"; done
  cp "$ROOT/deploy/docker/Dockerfile" "$OUT/checkov/Dockerfile"
  if "$VENV/bin/checkov" --config-file "$ROOT/deploy/.checkov.yaml" -d "$OUT/checkov" \
    >"$OUT/checkov.out" 2>"$OUT/checkov.err"; then
    while read -r line; do say "checkov: $line"; done < <(grep -E '^(dockerfile|kubernetes) scan results|^Passed checks' "$OUT/checkov.out" | paste - - | sed 's/ scan results:\t/: /')
  else
    fail "checkov found problems:"
    sed 's/^/    /' "$OUT/checkov.out" "$OUT/checkov.err" | grep -v '^\s*$' | head -n 200
  fi
fi

for comp in "$K8S"/components/*/; do
  comp_name="$(basename "$comp")"
  [[ -f "$comp/README.md" ]] || fail "components/$comp_name has no README.md"
  grep -qs "components/$comp_name\$" "$K8S"/overlays/*/kustomization.yaml \
    || say "note: components/$comp_name is used by no overlay (rendered and checked on top of base above)"
done

# The alert rules: promtool (Debian: apt-get install prometheus) checks their syntax and
# runs their unit tests (deploy/monitoring/rules-test.yaml: each alert fires on its failure
# and stays quiet on a healthy run).
if command -v promtool >/dev/null; then
  mkdir -p "$OUT/rules"
  "$PY" -c 'import sys, yaml
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d and d.get("kind") == "PrometheusRule"]
yaml.safe_dump({"groups": [g for d in docs for g in d["spec"]["groups"]]}, open(sys.argv[2], "w"), sort_keys=False)' \
    "$K8S/components/monitoring/prometheus-rules.yaml" "$OUT/rules/quire-rules.yaml"
  cp "$ROOT/deploy/monitoring/rules-test.yaml" "$OUT/rules/"
  if promtool check rules "$OUT/rules/quire-rules.yaml" >"$OUT/promtool.out" 2>&1 \
    && promtool test rules "$OUT/rules/rules-test.yaml" >>"$OUT/promtool.out" 2>&1; then
    say "alert rules: $(grep -o '[0-9]* rules found' "$OUT/promtool.out"), their unit tests pass (promtool)"
  else
    fail "the alert rules fail promtool:"
    sed 's/^/    /' "$OUT/promtool.out"
  fi
else
  fail "promtool is missing (Debian: apt-get install prometheus); the alert rules cannot be checked"
fi

# compose mounts deploy/otel/*.yaml; kustomize reads only the component's own folder.
for pair in collector.yaml=collector-config.yaml jaeger.yaml=jaeger-config.yaml; do
  src="deploy/otel/${pair%%=*}"
  copy="k8s/components/otel/${pair#*=}"
  cmp -s "$ROOT/$src" "$ROOT/$copy" || fail "$src and $copy differ (keep them identical)"
  "$PY" -c 'import sys, yaml; yaml.safe_load(open(sys.argv[1]))' "$ROOT/$src" 2>"$OUT/yaml.err" \
    || { fail "$src is not valid YAML:"; sed 's/^/    /' "$OUT/yaml.err"; }
done
"$PY" "$CHECK" compose "$ROOT/deploy/docker/compose.yaml" || errors=$((errors + 1))

if ((errors)); then
  say "FAILED ($errors problems above)"
  exit 1
fi
say "OK"
