#!/usr/bin/env bash
# What `make test` runs:
#   test.sh rust      Rust unit and integration tests against the real servers
#   test.sh frontend  the web app's unit tests and production build
#   test.sh e2e       the stack in the background (debug binaries), then browser tests, a
#                     short smoke load (make smoke) and the REST contract fuzzing
#                     (schemathesis.sh) against it
#   test.sh k8s       the Kubernetes manifests, compose file and Dockerfile (k8s-check.sh:
#                     schemas, the project's rules, checkov; a missing tool fails it)
#   test.sh deps      the crates' dependencies against architecture.toml
#                     (architecture_check.py, with its own test)
#   test.sh all       deps and k8s first (seconds), then the other three, in that order
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/quire/target}"
export npm_config_cache="${npm_config_cache:-$HOME/.cache/quire/npm}"
export QUIRE_TEST_DATABASE_URL="${QUIRE_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/quire_test}"

say() { printf '\n== %s\n' "$*"; }

deps() {
  say "dependency rules (architecture.toml)"
  python3 deploy/architecture_check_test.py
  python3 deploy/architecture_check.py
}

infra() {
  deploy/local/infra.sh up
}

rust() {
  infra
  oidc_provider_deps
  say "rust tests (fresh test database)"
  psql -q -h 127.0.0.1 -U postgres -d postgres -c 'DROP DATABASE IF EXISTS quire_test WITH (FORCE)' \
    -c 'CREATE DATABASE quire_test' >/dev/null
  say "demo shop sources (chat's precision test loads the demo shop)"
  deploy/demo/fetch-sources.sh
  say "sentence-embedding model (fetched once, checked by hash)"
  QUIRE_EMBED_MODEL_DIR="$(deploy/local/fetch-model.sh)"
  export QUIRE_EMBED_MODEL_DIR
  say "real books for quire-analysis's development set (fetched once, checked by hash)"
  QUIRE_REAL_BOOKS="$(deploy/local/fetch-real-books.sh)"
  export QUIRE_REAL_BOOKS
  # Test binaries link librdkafka and the whole stack: keep the logs quiet, the failures loud.
  RUST_LOG="${RUST_LOG:-warn,mailin_embedded=error}" cargo test --workspace --no-fail-fast
  say "fuzzing manuscript extraction and covers (20 s per target; make fuzz runs 300 s)"
  deploy/local/fuzz.sh 20
}

# The OpenID Connect provider the sign-in tests start on loopback (testing/oidc-provider).
oidc_provider_deps() {
  if [[ ! -d testing/oidc-provider/node_modules ]] || [[ testing/oidc-provider/package-lock.json -nt testing/oidc-provider/node_modules ]]; then
    (cd testing/oidc-provider && npm ci --no-audit --no-fund)
  fi
}

# Starts that provider for the browser tests' stack and points auth at it (QUIRE_OIDC_*):
# whoever the app sends there signs in as DEFAULT_LOGIN_HINT (a verified e-mail). Its
# pid goes to $OIDC_PID; its log next to the services'.
oidc_provider_start() {
  local port="$1" log="$2" i
  export QUIRE_OIDC_ISSUER="http://127.0.0.1:$port"
  export QUIRE_OIDC_CLIENT_ID="quire-e2e"
  export QUIRE_OIDC_CLIENT_SECRET="quire-e2e-client-secret"
  export QUIRE_OIDC_DISPLAY_NAME="Example ID"
  export QUIRE_OIDC_REDIRECT_URIS="$QUIRE_BASE_URL/platform/login/oidc"
  export QUIRE_E2E_OIDC_LOGIN="${QUIRE_E2E_OIDC_LOGIN:-oidc.reader@example.org}"
  mkdir -p "$(dirname "$log")"
  (cd testing/oidc-provider && PORT="$port" CLIENT_ID="$QUIRE_OIDC_CLIENT_ID" \
    CLIENT_SECRET="$QUIRE_OIDC_CLIENT_SECRET" REDIRECT_URIS="$QUIRE_OIDC_REDIRECT_URIS" \
    DEFAULT_LOGIN_HINT="$QUIRE_E2E_OIDC_LOGIN" exec node server.mjs) >"$log" 2>&1 </dev/null &
  OIDC_PID=$!
  for ((i = 0; i < 100; i++)); do
    grep -q '^ready ' "$log" && return 0
    kill -0 "$OIDC_PID" 2>/dev/null || { cat "$log" >&2; echo "the OIDC test provider exited" >&2; exit 1; }
    sleep 0.2
  done
  cat "$log" >&2
  echo "the OIDC test provider did not start" >&2
  exit 1
}

frontend_deps() {
  if [[ ! -d frontend/node_modules ]] || [[ frontend/package-lock.json -nt frontend/node_modules ]]; then
    (cd frontend && npm ci --no-audit --no-fund)
  fi
}

frontend() {
  frontend_deps
  say "frontend unit tests"
  (cd frontend && npm test)
  say "frontend build"
  (cd frontend && npm run build)
}

e2e() {
  infra
  frontend_deps
  oidc_provider_deps
  [[ -f frontend/dist/index.html ]] || (cd frontend && npm run build)
  command -v chromium >/dev/null || { echo "chromium is missing: apt-get install -y chromium" >&2; exit 1; }
  say "browser e2e tests"
  cargo build --workspace --bins
  local data smtp_port=2526 http_port=18080
  data="$(mktemp -d /tmp/quire-e2e.XXXXXX)"
  export QUIRE_DATA_DIR="$data"
  export QUIRE_BIN_DIR="$CARGO_TARGET_DIR/debug"
  export QUIRE_HTTP_PORT="$http_port"
  export QUIRE_SIWE_DOMAIN="127.0.0.1:$http_port"
  export QUIRE_SMTP_URL="smtp://127.0.0.1:$smtp_port"
  export QUIRE_E2E_SMTP_PORT="$smtp_port"
  export QUIRE_BASE_URL="http://127.0.0.1:$http_port"
  export QUIRE_DATABASE_URL="postgres://postgres@127.0.0.1:5432/quire_e2e"
  # The scenarios register and log in a dozen users from one address within a minute, and
  # the fuzzing after them sends a few thousand requests as one user or address: more than
  # a person would, so the limits are raised for this stack alone (the REST tests check
  # the limits themselves).
  export QUIRE_RATE_VERIFY_PER_MIN="${QUIRE_RATE_VERIFY_PER_MIN:-600}"
  export QUIRE_RATE_LOGIN_PER_MIN="${QUIRE_RATE_LOGIN_PER_MIN:-600}"
  export QUIRE_RATE_API_PER_MIN="${QUIRE_RATE_API_PER_MIN:-20000}"
  export QUIRE_RATE_ANONYMOUS_PER_MIN="${QUIRE_RATE_ANONYMOUS_PER_MIN:-6000}"
  export QUIRE_GATEWAY_ADMIN_PORT="${QUIRE_GATEWAY_ADMIN_PORT:-19100}"
  export QUIRE_ADMIN_EMAIL="${QUIRE_ADMIN_EMAIL:-admin@quire.local}"
  export QUIRE_ADMIN_PASSWORD="${QUIRE_ADMIN_PASSWORD:-quire-admin-pass}"
  # No trace viewer for this stack: it would take `make run`'s ports (6006, 4317), and a
  # first run would install it from PyPI; deploy/local/trace-check.sh proves the trace path.
  export QUIRE_TRACE_UI="${QUIRE_TRACE_UI:-off}"
  psql -q -h 127.0.0.1 -U postgres -d postgres -c 'DROP DATABASE IF EXISTS quire_e2e WITH (FORCE)' >/dev/null
  oidc_provider_start "${QUIRE_E2E_OIDC_PORT:-18090}" "$data/logs/oidc-provider.log"
  deploy/local/stack.sh start-bg
  local status=0
  (cd frontend && npm run e2e) || status=$?
  # Before the fuzzing, whose last pass changes the platform's settings at random. The
  # short version of `make smoke`: it reads QUIRE_BASE_URL and QUIRE_SMTP_URL above.
  say "smoke load (15 s at 2 journeys/s; make smoke runs 60 s at 5/s)"
  "$CARGO_TARGET_DIR/debug/smoke" --duration 15 --rate 2 || status=$?
  say "REST contract fuzzing (schemathesis)"
  deploy/local/schemathesis.sh "$QUIRE_BASE_URL" || status=$?
  deploy/local/stack.sh stop || true
  kill "$OIDC_PID" 2>/dev/null || true
  if [[ $status -ne 0 ]]; then
    echo "e2e failed; service logs in $data/logs" >&2
    tail -n 40 "$data"/logs/*.log >&2 || true
  else
    rm -rf "$data"
  fi
  return $status
}

case "${1:-all}" in
  rust) rust ;;
  frontend) frontend ;;
  e2e) e2e ;;
  k8s) say "kubernetes manifests"; deploy/k8s-check.sh ;;
  deps) deps ;;
  all) deps; say "kubernetes manifests"; deploy/k8s-check.sh; rust; frontend; e2e ;;
  *) echo "usage: $0 rust|frontend|e2e|k8s|deps|all" >&2; exit 2 ;;
esac
