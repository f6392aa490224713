#!/usr/bin/env bash
# What `make smoke` runs: the smoke load test (bench/src/bin/smoke.rs, bench/smoke.md).
# For a minute, simulated readers and writers walk the main journeys at a fixed arrival
# rate against the stack; it fails on any error or on a step's p99 over its bound.
#
#   smoke.sh [generator flags]   e.g. smoke.sh --duration 15 --rate 2 (see smoke --help)
#
# When a stack answers at QUIRE_BASE_URL (default http://127.0.0.1:$QUIRE_HTTP_PORT, 8080:
# `make run`'s), that stack is used as it is, and nothing is started or stopped. Otherwise
# this script starts `make run`'s stack in the background (deploy/local/stack.sh start-bg;
# binaries from QUIRE_BIN_DIR, default $CARGO_TARGET_DIR/release, which `make build`
# makes), runs the test and stops what it started. That stack sends its mail to the
# generator's SMTP sink (QUIRE_SMOKE_SMTP_PORT, default 2527), and, as the e2e stack
# does, allows more codes, log-ins, uploads and anonymous calls per address than a person
# needs: every simulated person here comes from this one address. Set any QUIRE_RATE_*
# to keep a limit as it is.
#
# QUIRE_SMOKE_BOUNCE=1 runs it against two replicas of every gRPC service (a stack it starts
# gets QUIRE_REPLICAS=2) and, while the load runs, SIGKILLs a replica of each service in
# turn and starts it again (stack.sh bounce): the run must still end with 0 errors.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/quire/target}"
export QUIRE_HTTP_PORT="${QUIRE_HTTP_PORT:-8080}"
export QUIRE_BASE_URL="${QUIRE_BASE_URL:-http://127.0.0.1:$QUIRE_HTTP_PORT}"
STACK="$ROOT/deploy/local/stack.sh"

log() { printf '[smoke] %s\n' "$*" >&2; }

# A public route of the gateway answers 2xx.
answers() { curl -fsS -o /dev/null --max-time 5 "$QUIRE_BASE_URL/api/settings" 2>/dev/null; }

command -v curl >/dev/null || { log "error: curl is missing"; exit 1; }

# The generator is a debug build: it only waits on the stack, so its build does not
# matter to the figures (the stack's does; bench/smoke.md says which it was).
# QUIRE_SMOKE_BIN names one already built (test.sh's cargo build --workspace --bins makes
# $CARGO_TARGET_DIR/debug/smoke), and nothing is built.
if [[ -n "${QUIRE_SMOKE_BIN:-}" ]]; then
  SMOKE="$QUIRE_SMOKE_BIN"
  [[ -x "$SMOKE" ]] || { log "error: QUIRE_SMOKE_BIN=$SMOKE is not an executable"; exit 1; }
else
  log "building the load generator (cargo build -p quire-bench --bin smoke)"
  cargo build -q -p quire-bench --bin smoke
  SMOKE="$CARGO_TARGET_DIR/debug/smoke"
fi

started=0
stop_started() {
  local rc=$?
  trap - EXIT
  if ((started)); then
    log "stopping the stack this script started"
    "$STACK" stop || true
  fi
  exit "$rc"
}
trap stop_started EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if answers; then
  log "a stack answers at $QUIRE_BASE_URL: testing it as it is"
else
  if [[ "$QUIRE_BASE_URL" != "http://127.0.0.1:$QUIRE_HTTP_PORT" && "$QUIRE_BASE_URL" != "http://localhost:$QUIRE_HTTP_PORT" ]]; then
    log "error: nothing answers at $QUIRE_BASE_URL, and this script starts stacks on this machine only (QUIRE_HTTP_PORT=$QUIRE_HTTP_PORT)"
    exit 1
  fi
  smtp_port="${QUIRE_SMOKE_SMTP_PORT:-2527}"
  export QUIRE_SMTP_URL="smtp://127.0.0.1:$smtp_port"
  export QUIRE_RATE_VERIFY_PER_MIN="${QUIRE_RATE_VERIFY_PER_MIN:-600}"
  export QUIRE_RATE_LOGIN_PER_MIN="${QUIRE_RATE_LOGIN_PER_MIN:-600}"
  export QUIRE_RATE_UPLOAD_PER_MIN="${QUIRE_RATE_UPLOAD_PER_MIN:-600}"
  export QUIRE_RATE_ANONYMOUS_PER_MIN="${QUIRE_RATE_ANONYMOUS_PER_MIN:-6000}"
  # The figures of bench/smoke.md were taken without span export; QUIRE_TRACE_UI=on adds
  # the trace viewer (and each request's export) to a run.
  export QUIRE_TRACE_UI="${QUIRE_TRACE_UI:-off}"
  [[ "${QUIRE_SMOKE_BOUNCE:-0}" == 1 ]] && export QUIRE_REPLICAS="${QUIRE_REPLICAS:-2}"
  log "nothing answers at $QUIRE_BASE_URL: starting the stack (binaries from ${QUIRE_BIN_DIR:-$CARGO_TARGET_DIR/release})"
  started=1
  QUIRE_BIN_DIR="${QUIRE_BIN_DIR:-$CARGO_TARGET_DIR/release}" "$STACK" start-bg
  for ((i = 0; i < 60; i++)); do
    answers && break
    sleep 1
  done
  answers || { log "error: the stack started but $QUIRE_BASE_URL/api/settings does not answer"; exit 1; }
fi

# One replica of each service killed and started again, in turn, while the load runs:
# first after BOUNCE_FIRST seconds, then every BOUNCE_EVERY.
bounce_all() {
  local first="${QUIRE_SMOKE_BOUNCE_FIRST:-8}" every="${QUIRE_SMOKE_BOUNCE_EVERY:-6}" s target n=0
  sleep "$first"
  for s in auth wallet catalog chat manuscript; do
    # Alternately the second and the first replica.
    if ((n++ % 2)); then target="$s"; else target="$s-2"; fi
    "$STACK" bounce "$target" || { log "error: bouncing $target failed"; return 1; }
    sleep "$every"
  done
}

if [[ "${QUIRE_SMOKE_BOUNCE:-0}" == 1 ]]; then
  stack_status="$("$STACK" status 2>&1 || true)"
  grep -q -- '-2  up' <<<"$stack_status" \
    || { log "error: QUIRE_SMOKE_BOUNCE=1 needs a stack with two replicas (QUIRE_REPLICAS=2 deploy/local/stack.sh start-bg)"; exit 1; }
  bounce_all &
  bouncer=$!
  rc=0
  "$SMOKE" "$@" || rc=$?
  wait "$bouncer" || { log "error: a replica could not be bounced"; ((rc)) || rc=1; }
  exit "$rc"
fi

"$SMOKE" "$@"
