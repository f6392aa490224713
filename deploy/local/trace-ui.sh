#!/usr/bin/env bash
# The trace viewer of `make run`: Arize Phoenix, from PyPI (pinned below), installed once
# into ~/.cache/quire/venv-phoenix. It receives OTLP over gRPC, as every Quire binary
# exports it (crates/kit/src/telemetry.rs), keeps the spans in SQLite under
# $QUIRE_DATA_DIR/traces (a week of them), and shows each trace as a tree of spans with
# their durations, attributes and errors; its REST API answers the same questions.
# stack.sh starts it beside the stack unless QUIRE_TRACE_UI=off, and stops it with the
# stack.
#
#   trace-ui.sh start          start it in the background and wait until it answers
#   trace-ui.sh stop           stop what start started
#   trace-ui.sh status         up or down, and where
#   trace-ui.sh url [TRACE_ID] the UI's address, or that of one trace (a log line's trace_id)
#   trace-ui.sh spans TRACE_ID the spans of one trace as JSON (its REST API)
#   trace-ui.sh install        only install it
#
# Why Phoenix: of the OTLP viewers, the well-kept stand-alone ones (Jaeger, otel-tui,
# otel-desktop-viewer) ship as Go binaries or images, which no package registry here
# carries; Phoenix is a maintained PyPI package (Elastic License 2.0: free to run, as here,
# for oneself) that takes OTLP/gRPC as it is. It was made for LLM traces, so every Quire
# span shows with the kind "unknown"; that changes nothing in the tree or the timings.
#
# QUIRE_TRACE_UI_PORT (default 6006) is its UI and REST API, on 127.0.0.1 only (it has no
# login); QUIRE_TRACE_OTLP_PORT (default 4317) its OTLP/gRPC receiver, which Phoenix binds
# on every interface (it has no setting for that; it only accepts spans). Its own usage
# telemetry, its downloads at run time (web fonts, a sandbox binary) and its LLM
# assistant (which would run shell commands on the server) are off.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PINS="arize-phoenix==20.26.1"
VENV="${QUIRE_CACHE:-$HOME/.cache/quire}/venv-phoenix"
mkdir -p "${QUIRE_DATA_DIR:-$ROOT/.quire-data}"
DATA_DIR="$(cd "${QUIRE_DATA_DIR:-$ROOT/.quire-data}" && pwd)"
UI_PORT="${QUIRE_TRACE_UI_PORT:-6006}"
OTLP_PORT="${QUIRE_TRACE_OTLP_PORT:-4317}"
WORK_DIR="$DATA_DIR/traces"
PID_FILE="$DATA_DIR/run/trace-ui.pid"
LOG_FILE="$DATA_DIR/logs/trace-ui.log"
UI="http://127.0.0.1:$UI_PORT"
# Phoenix's first start creates its tables (about 20 s); later ones take a few seconds.
START_TIMEOUT="${QUIRE_TRACE_UI_TIMEOUT:-120}"

log() { printf '[trace-ui] %s\n' "$*" >&2 2>/dev/null || true; }
die() { printf '[trace-ui] error: %s\n' "$*" >&2; exit 1; }

# shellcheck disable=SC2016 # $1 expands in the inner bash
tcp_open() { timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1"' _ "$1" 2>/dev/null; }
answers() { curl -fsS -o /dev/null --max-time 3 "$UI/healthz" 2>/dev/null; }

install() {
  if [[ -x "$VENV/bin/phoenix" && "$(cat "$VENV/quire-pins" 2>/dev/null)" == "$PINS" ]]; then
    return
  fi
  command -v python3 >/dev/null || die "python3 is missing: apt-get install -y python3 python3-venv"
  python3 -c 'import sys; sys.exit(sys.version_info < (3, 10))' \
    || die "Phoenix needs Python 3.10 or later ($(python3 --version))"
  log "installing $PINS into $VENV (once, a minute or two)"
  rm -rf "$VENV"
  python3 -m venv "$VENV" || die "cannot create a virtual environment (Debian: apt-get install python3-venv)"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "$PINS" \
    || die "pip could not install $PINS (see above)"
  printf '%s\n' "$PINS" >"$VENV/quire-pins"
}

pid_alive() {
  local pid
  pid="$(cat "$PID_FILE" 2>/dev/null)" || return 1
  kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q phoenix
}

start() {
  if pid_alive && answers; then
    log "already running: $UI"
    return
  fi
  tcp_open "$UI_PORT" && die "port $UI_PORT is in use: set QUIRE_TRACE_UI_PORT, or QUIRE_TRACE_UI=off for no trace UI"
  tcp_open "$OTLP_PORT" && die "port $OTLP_PORT (OTLP/gRPC) is in use, by a collector? Set QUIRE_TRACE_OTLP_PORT, or QUIRE_TRACE_UI=off"
  install
  mkdir -p "$WORK_DIR" "$(dirname "$PID_FILE")" "$(dirname "$LOG_FILE")"
  [[ -f "$LOG_FILE" ]] && mv -f "$LOG_FILE" "$LOG_FILE.1"
  # setsid: a terminal Ctrl-C reaches stack.sh, which stops this in its turn.
  (cd "$WORK_DIR" && exec env \
    PHOENIX_WORKING_DIR="$WORK_DIR" \
    PHOENIX_HOST=127.0.0.1 \
    PHOENIX_PORT="$UI_PORT" \
    PHOENIX_GRPC_PORT="$OTLP_PORT" \
    PHOENIX_DEFAULT_RETENTION_POLICY_DAYS=7 \
    PHOENIX_TELEMETRY_ENABLED=false \
    PHOENIX_ALLOW_EXTERNAL_RESOURCES=false \
    PHOENIX_LOG_MIGRATIONS=false \
    PHOENIX_DISABLE_AGENT_ASSISTANT=true \
    PHOENIX_AGENTS_DISABLE_BASH=true \
    PHOENIX_AGENTS_DISABLE_WEB_ACCESS=true \
    PHOENIX_AGENTS_DISABLE_GITHUB=true \
    PHOENIX_ENABLE_MCP_SERVER=false \
    setsid "$VENV/bin/phoenix" serve) >>"$LOG_FILE" 2>&1 </dev/null &
  echo $! >"$PID_FILE"
  local i
  for ((i = 0; i < START_TIMEOUT; i++)); do
    if answers && tcp_open "$OTLP_PORT"; then
      log "up: UI $UI, OTLP/gRPC on port $OTLP_PORT (pid $(cat "$PID_FILE"), log ${LOG_FILE#"$ROOT"/})"
      return
    fi
    pid_alive || { tail -n 30 "$LOG_FILE" >&2; die "Phoenix exited while starting (log $LOG_FILE)"; }
    sleep 1
  done
  tail -n 30 "$LOG_FILE" >&2
  stop
  die "Phoenix did not answer on $UI within ${START_TIMEOUT}s (log $LOG_FILE)"
}

stop() {
  pid_alive || { rm -f "$PID_FILE"; return 0; }
  local pid i
  pid="$(cat "$PID_FILE")"
  log "stopping Phoenix (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 20; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null
  rm -f "$PID_FILE"
}

url() {
  # Phoenix resolves an OpenTelemetry trace id to its page itself.
  if [[ -n "${1:-}" ]]; then printf '%s/redirects/traces/%s\n' "$UI" "$1"; else printf '%s\n' "$UI"; fi
}

case "${1:-}" in
  install) install ;;
  start) start ;;
  stop) stop ;;
  status)
    if pid_alive && answers; then log "up: UI $UI, OTLP/gRPC on port $OTLP_PORT, data in $WORK_DIR"; else log "down"; fi
    ;;
  url) url "${2:-}" ;;
  spans)
    [[ -n "${2:-}" ]] || die "spans needs a trace id"
    # stack.sh puts Quire's spans in the project `quire` (OTEL_RESOURCE_ATTRIBUTES); a
    # sender that names none lands in `default`.
    curl -fsS --max-time 10 "$UI/v1/projects/${QUIRE_TRACE_PROJECT:-quire}/spans?trace_id=$2&limit=1000"
    ;;
  *)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}" >&2
    exit 2
    ;;
esac
