#!/usr/bin/env bash
# Makes sure the servers Quire needs answer on this machine: PostgreSQL, Redis and a
# Kafka-compatible broker (tansu), plus the database and the topics.
#
#   infra.sh up                      start what is missing (idempotent)
#   infra.sh down [postgres|redis|broker ...]
#                                    stop what infra.sh started (all of it by default);
#                                    a server it found running is left alone
#   infra.sh status                  what answers, where, and who started it
#
# It reuses a server that already answers (the machine's PostgreSQL and Redis), starts the
# machine's PostgreSQL cluster when it is stopped, and otherwise runs private servers whose
# data, pid files and logs live under $QUIRE_DATA_DIR (default .quire-data in the repo).
# Addresses come from QUIRE_DATABASE_URL, QUIRE_REDIS_URL and QUIRE_KAFKA_BROKERS (see
# .env.example); only servers on this machine are started. When QUIRE_INFRA_STARTED
# names a file, 'up' appends to it the parts it started (stack.sh uses this to stop only those).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DATA_DIR="${QUIRE_DATA_DIR:-$ROOT/.quire-data}"
mkdir -p "$DATA_DIR"
DATA_DIR="$(cd "$DATA_DIR" && pwd)"
CACHE_DIR="${QUIRE_CACHE:-$HOME/.cache/quire}"
RUN_DIR="$DATA_DIR/run"
LOG_DIR="$DATA_DIR/logs"

DATABASE_URL="${QUIRE_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/quire}"
REDIS_URL="${QUIRE_REDIS_URL:-redis://127.0.0.1:6379}"
KAFKA_BROKERS="${QUIRE_KAFKA_BROKERS:-127.0.0.1:9092}"

TANSU_VERSION="^0.6"
TANSU_BIN="${QUIRE_TANSU_BIN:-$CACHE_DIR/tansu/bin/tansu}"
TOPICS=(quire.user.v1 quire.book.v1 quire.trade.v1 quire.wallet.v1 quire.manuscript.v1 quire.campaign.v1)
TOPIC_PARTITIONS="${QUIRE_TOPIC_PARTITIONS:-3}"

# Seconds to wait for each server to answer after starting it.
START_TIMEOUT="${QUIRE_INFRA_TIMEOUT:-60}"

log() { printf '[infra] %s\n' "$*" >&2 2>/dev/null || true; }
die() { printf '[infra] error: %s\n' "$*" >&2; exit 1; }

# Splits scheme://[user[:password]@]host[:port][/path] into URL_USER URL_PASS URL_HOST
# URL_PORT URL_PATH (no URL decoding: local dev URLs don't need it).
parse_url() {
  local url="$1" default_port="$2"
  local re='^[a-zA-Z][a-zA-Z0-9+.-]*://(([^:@/]*)(:([^@/]*))?@)?(\[[^]]*\]|[^:/?]*)(:([0-9]+))?(/([^?]*))?'
  [[ "$url" =~ $re ]] || die "cannot parse URL: $url"
  URL_USER="${BASH_REMATCH[2]}"
  URL_PASS="${BASH_REMATCH[4]}"
  URL_HOST="${BASH_REMATCH[5]:-127.0.0.1}"
  URL_PORT="${BASH_REMATCH[7]:-$default_port}"
  URL_PATH="${BASH_REMATCH[9]}"
}

is_local() { [[ "$1" == 127.0.0.1 || "$1" == localhost || "$1" == "[::1]" || "$1" == ::1 ]]; }

# shellcheck disable=SC2016 # $1 and $2 expand in the inner bash
tcp_open() { timeout 2 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$1" "$2" 2>/dev/null; }

# wait_until <what> <seconds> <command...>: retries the command once a second.
wait_until() {
  local what="$1" seconds="$2"
  shift 2
  local i
  for ((i = 0; i < seconds; i++)); do
    if "$@"; then return 0; fi
    sleep 1
  done
  log "$what did not answer within ${seconds}s"
  return 1
}

# Parts started by this run of 'up' are appended to $QUIRE_INFRA_STARTED when it names a
# file, so that a caller (stack.sh) can later stop exactly those.
record_started() { [[ -z "${QUIRE_INFRA_STARTED:-}" ]] || printf '%s\n' "$1" >>"$QUIRE_INFRA_STARTED"; }

# Installs Debian packages the machine lacks (as root, with apt-get), saying so.
apt_install() {
  if [[ $EUID -ne 0 ]] || ! command -v apt-get >/dev/null; then
    die "missing $*; install it (Debian: apt-get install $*)"
  fi
  log "installing $* with apt-get (missing on this machine)"
  apt-get install -y -q "$@" >/dev/null 2>&1 \
    || { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "$@" >/dev/null; } \
    || die "apt-get install $* failed"
}

pid_alive() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

rel() { printf '%s' "${1#"$ROOT"/}"; }

# Stops the process in a pid file: SIGTERM, then SIGKILL after a grace period.
stop_pidfile() {
  local name="$1" pidfile="$2" pid i
  pid_alive "$pidfile" || { rm -f "$pidfile"; return 0; }
  pid="$(cat "$pidfile")"
  log "stopping $name (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 20; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "$name did not stop in 10s; killing it"
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

###############################################################################
# PostgreSQL

parse_url "$DATABASE_URL" 5432
PG_HOST="$URL_HOST" PG_PORT="$URL_PORT" PG_USER="${URL_USER:-postgres}" PG_PASS="$URL_PASS"
PG_DB="${URL_PATH:-quire}"
PG_PRIVATE="$DATA_DIR/postgres"           # private cluster: $PG_PRIVATE/data, log inside
PG_MARK="$RUN_DIR/postgres.private"       # present while infra.sh runs the private cluster

pg_ready() { pg_isready -q -h "$PG_HOST" -p "$PG_PORT" -t 2; }

pg_bindir() {
  local dir
  dir="$(find /usr/lib/postgresql -maxdepth 2 -type d -name bin 2>/dev/null | sort -V | tail -n 1)"
  if [[ -n "$dir" ]]; then printf '%s' "$dir"; return; fi
  command -v initdb >/dev/null && { dirname "$(command -v initdb)"; return; }
  apt_install postgresql
  find /usr/lib/postgresql -maxdepth 2 -type d -name bin | sort -V | tail -n 1
}

# PostgreSQL refuses to run as root; a root caller runs the private cluster as 'postgres'.
as_pg_owner() {
  if [[ $EUID -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

pg_start_private() {
  local bin
  bin="$(pg_bindir)"
  if [[ ! -f "$PG_PRIVATE/data/PG_VERSION" ]]; then
    log "creating a private PostgreSQL cluster in $(rel "$PG_PRIVATE/data") (trust auth, user $PG_USER)"
    mkdir -p "$PG_PRIVATE"
    if [[ $EUID -eq 0 ]]; then
      getent passwd postgres >/dev/null || die "running as root needs a 'postgres' user to own the cluster"
      chown postgres: "$PG_PRIVATE"
      runuser -u postgres -- test -w "$PG_PRIVATE" \
        || die "user postgres cannot write $PG_PRIVATE (a parent folder is closed); set QUIRE_DATA_DIR elsewhere"
    fi
    as_pg_owner "$bin/initdb" -D "$PG_PRIVATE/data" -U "$PG_USER" --auth=trust -E UTF8 --locale=C \
      >"$PG_PRIVATE/initdb.log" 2>&1 || { cat "$PG_PRIVATE/initdb.log" >&2; die "initdb failed"; }
    # TCP only: a socket path under a deep data folder can exceed the 107-byte limit.
    as_pg_owner tee -a "$PG_PRIVATE/data/postgresql.conf" >/dev/null <<EOF
# added by deploy/local/infra.sh
listen_addresses = '$PG_HOST'
port = $PG_PORT
unix_socket_directories = ''
fsync = off
EOF
  fi
  log "starting the private PostgreSQL cluster on $PG_HOST:$PG_PORT (data $(rel "$PG_PRIVATE/data"), log $(rel "$PG_PRIVATE/postgres.log"))"
  as_pg_owner "$bin/pg_ctl" -D "$PG_PRIVATE/data" -l "$PG_PRIVATE/postgres.log" -o "-p $PG_PORT" \
    -w -t "$START_TIMEOUT" start >/dev/null 8>&- \
    || { tail -n 20 "$PG_PRIVATE/postgres.log" >&2 || true; die "the private PostgreSQL cluster did not start"; }
  touch "$PG_MARK"
  record_started postgres
}

# The version of the machine's (Debian) 'main' cluster configured for $PG_PORT, if any.
system_cluster() {
  command -v pg_ctlcluster >/dev/null || return 0
  local conf version port
  for conf in /etc/postgresql/*/main/postgresql.conf; do
    [[ -f "$conf" ]] || continue
    version="$(basename "$(dirname "$(dirname "$conf")")")"
    port="$(sed -n 's/^[[:space:]]*port[[:space:]]*=[[:space:]]*\([0-9]*\).*/\1/p' "$conf" | tail -n 1)"
    if [[ "${port:-5432}" == "$PG_PORT" ]]; then
      printf '%s' "$version"
      return 0
    fi
  done
}

postgres_up() {
  if ! command -v pg_isready >/dev/null || ! command -v psql >/dev/null; then
    apt_install postgresql-client
  fi
  if pg_ready; then
    log "postgres: answering on $PG_HOST:$PG_PORT"
  elif ! is_local "$PG_HOST"; then
    die "PostgreSQL at $PG_HOST:$PG_PORT does not answer, and infra.sh only starts local servers"
  else

    local version
    version="$(system_cluster)"
    if [[ -f "$PG_PRIVATE/data/PG_VERSION" ]]; then
      pg_start_private
    elif [[ -n "$version" ]]; then
      log "postgres: starting the machine's cluster ($version/main) with pg_ctlcluster"
      pg_ctlcluster --skip-systemctl-redirect "$version" main start 8>&- \
        || die "pg_ctlcluster $version main start failed (see /var/log/postgresql/)"
    else
      pg_start_private
    fi
    wait_until "PostgreSQL on $PG_HOST:$PG_PORT" "$START_TIMEOUT" pg_ready || die "PostgreSQL is not answering"
    log "postgres: answering on $PG_HOST:$PG_PORT"
  fi
  local exists
  exists="$(PGPASSWORD="$PG_PASS" psql -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" -d postgres -v ON_ERROR_STOP=1 \
    -tAc "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'")" || die "cannot query PostgreSQL as $PG_USER"
  if [[ "$exists" != 1 ]]; then
    log "postgres: creating database $PG_DB"
    PGPASSWORD="$PG_PASS" createdb -h "$PG_HOST" -p "$PG_PORT" -U "$PG_USER" "$PG_DB"
  fi
}

postgres_down() {
  if [[ -f "$PG_MARK" && -f "$PG_PRIVATE/data/postmaster.pid" ]]; then
    log "stopping the private PostgreSQL cluster ($(rel "$PG_PRIVATE/data"))"
    as_pg_owner "$(pg_bindir)/pg_ctl" -D "$PG_PRIVATE/data" -m fast -w stop >/dev/null || true
  fi
  rm -f "$PG_MARK"
}

postgres_status() {
  local who="found running (not managed by infra.sh)"
  [[ -f "$PG_MARK" ]] && who="private cluster started by infra.sh, data $(rel "$PG_PRIVATE/data"), log $(rel "$PG_PRIVATE/postgres.log")"
  if pg_ready; then
    log "postgres  up    $PG_HOST:$PG_PORT db=$PG_DB  ($who)"
  else
    log "postgres  DOWN  $PG_HOST:$PG_PORT"
  fi
}

###############################################################################
# Redis

parse_url "$REDIS_URL" 6379
REDIS_HOST="$URL_HOST" REDIS_PORT="$URL_PORT" REDIS_PASS="$URL_PASS"
REDIS_PID="$RUN_DIR/redis.pid"

redis_ready() {
  [[ "$(REDISCLI_AUTH="$REDIS_PASS" redis-cli -h "$REDIS_HOST" -p "$REDIS_PORT" ping 2>/dev/null)" == PONG ]]
}

redis_up() {
  command -v redis-cli >/dev/null || apt_install redis-tools
  if redis_ready; then
    log "redis: answering on $REDIS_HOST:$REDIS_PORT"
    return
  fi
  is_local "$REDIS_HOST" || die "Redis at $REDIS_HOST:$REDIS_PORT does not answer, and infra.sh only starts local servers"
  command -v redis-server >/dev/null || apt_install redis-server
  mkdir -p "$DATA_DIR/redis"
  log "redis: starting redis-server on $REDIS_HOST:$REDIS_PORT (no persistence, log $(rel "$LOG_DIR/redis.log"))"
  redis-server --daemonize yes --bind "$REDIS_HOST" --port "$REDIS_PORT" --save "" --appendonly no \
    --dir "$DATA_DIR/redis" --logfile "$LOG_DIR/redis.log" --pidfile "$REDIS_PID" 8>&-
  wait_until "Redis on $REDIS_HOST:$REDIS_PORT" "$START_TIMEOUT" redis_ready \
    || { tail -n 20 "$LOG_DIR/redis.log" >&2 || true; die "Redis is not answering"; }
  log "redis: answering on $REDIS_HOST:$REDIS_PORT (pid $(cat "$REDIS_PID"))"
  record_started redis
}

redis_down() { stop_pidfile redis "$REDIS_PID"; }

redis_status() {
  local who="found running (not managed by infra.sh)"
  pid_alive "$REDIS_PID" && who="started by infra.sh, pid $(cat "$REDIS_PID"), log $(rel "$LOG_DIR/redis.log")"
  if redis_ready; then
    log "redis     up    $REDIS_HOST:$REDIS_PORT  ($who)"
  else
    log "redis     DOWN  $REDIS_HOST:$REDIS_PORT"
  fi
}

###############################################################################
# Kafka-compatible broker: tansu, storing its log in SQLite under the data folder

BROKER="${KAFKA_BROKERS%%,*}"
BROKER="${BROKER#*://}"
BROKER_HOST="${BROKER%:*}"
BROKER_PORT="${BROKER##*:}"
[[ "$BROKER_PORT" =~ ^[0-9]+$ ]] || die "QUIRE_KAFKA_BROKERS must be host:port[,...], got $KAFKA_BROKERS"
BROKER_URL="tcp://$BROKER_HOST:$BROKER_PORT"
TANSU_DIR="$DATA_DIR/tansu"
TANSU_PID="$RUN_DIR/tansu.pid"
# SQLite keeps events and committed offsets across broker restarts (a path relative to
# TANSU_DIR: 0.6 mangles absolute ones); memory://tansu/ keeps nothing, for throwaway runs.
TANSU_STORAGE="${QUIRE_TANSU_STORAGE:-sqlite://tansu.db}"

broker_ready() { tcp_open "$BROKER_HOST" "$BROKER_PORT"; }

# tansu reads .env files and generic variables (STORAGE_ENGINE, LISTENER_URL,
# OTEL_EXPORTER_OTLP_ENDPOINT, ...); run it from its own folder with those unset so that
# the services' settings don't leak into it. 0.6 also resolves sqlite:// paths against the
# working directory, which is why the storage URL is relative.
tansu_run() {
  (cd "$TANSU_DIR" && exec env -u OTEL_EXPORTER_OTLP_ENDPOINT -u STORAGE_ENGINE -u LISTENER_URL \
    -u ADVERTISED_LISTENER_URL -u CLUSTER_ID -u SCHEMA_REGISTRY "$@")
}

tansu_install() {
  [[ -x "$TANSU_BIN" ]] && return 0
  if [[ -z "${QUIRE_TANSU_BIN:-}" ]] && command -v tansu >/dev/null \
    && [[ "$(tansu --version 2>/dev/null)" == *" 0.6."* ]]; then
    TANSU_BIN="$(command -v tansu)"
    return 0
  fi
  mkdir -p "$CACHE_DIR"
  local other
  other="$(pgrep -f 'cargo install tansu' | head -n 1 || true)"
  if [[ -n "$other" ]]; then
    log "broker: another 'cargo install tansu' is running (pid $other); waiting for it (up to 40 min)"
    local i
    for ((i = 0; i < 2400; i++)); do
      kill -0 "$other" 2>/dev/null || break
      sleep 1
    done
  fi
  [[ -x "$TANSU_BIN" ]] && return 0
  command -v cargo >/dev/null || die "tansu is missing and cargo is not installed"
  log "broker: installing tansu $TANSU_VERSION from crates.io into $CACHE_DIR/tansu (once; 10-20 minutes)"
  (
    flock 9
    [[ -x "$TANSU_BIN" ]] || cargo install tansu --version "$TANSU_VERSION" --locked \
      --features libsql,dynostore --root "$CACHE_DIR/tansu"
  ) 9>"$CACHE_DIR/tansu.install.lock" || die "cargo install tansu failed"
  [[ -x "$TANSU_BIN" ]] || die "tansu was installed but $TANSU_BIN is missing"
}

broker_start() {
  mkdir -p "$TANSU_DIR"
  log "broker: starting tansu on $BROKER_URL (storage $TANSU_STORAGE in $(rel "$TANSU_DIR"), log $(rel "$LOG_DIR/tansu.log"))"
  {
    printf '\n=== %s infra.sh starts tansu\n' "$(date -Is)"
  } >>"$LOG_DIR/tansu.log"
  # setsid: a Ctrl-C in the terminal must not reach the broker before the services stop.
  # One subshell that execs all the way down, so that $! is the broker's own pid.
  (
    cd "$TANSU_DIR" && exec env -u OTEL_EXPORTER_OTLP_ENDPOINT -u STORAGE_ENGINE -u LISTENER_URL \
      -u ADVERTISED_LISTENER_URL -u CLUSTER_ID -u SCHEMA_REGISTRY \
      RUST_LOG="${QUIRE_TANSU_LOG:-warn}" NO_COLOR=1 \
      setsid "$TANSU_BIN" broker \
      --cluster-id quire-local \
      --listener-url "$BROKER_URL" \
      --advertised-listener-url "$BROKER_URL" \
      --storage-engine "$TANSU_STORAGE"
  ) >>"$LOG_DIR/tansu.log" 2>&1 </dev/null 8>&- &
  echo $! >"$TANSU_PID"
  local i
  for ((i = 0; i < START_TIMEOUT; i++)); do
    broker_ready && break
    if ! pid_alive "$TANSU_PID"; then
      tail -n 20 "$LOG_DIR/tansu.log" >&2 || true
      rm -f "$TANSU_PID"
      die "tansu exited while starting (log $LOG_DIR/tansu.log)"
    fi
    sleep 1
  done
  broker_ready || die "tansu did not answer on $BROKER_URL within ${START_TIMEOUT}s"
  log "broker: answering on $BROKER_HOST:$BROKER_PORT (pid $(cat "$TANSU_PID"))"
  record_started broker
}

topics_ensure() {
  local listed="" i t missing=()
  for ((i = 0; i < 10; i++)); do
    listed="$(tansu_run "$TANSU_BIN" topic list --broker "$BROKER_URL" 2>/dev/null)" && break
    listed=""
    sleep 1
  done
  [[ -n "$listed" ]] || die "cannot list topics on $BROKER_URL"
  for t in "${TOPICS[@]}"; do
    grep -qF "\"$t\"" <<<"$listed" || missing+=("$t")
  done
  if ((${#missing[@]} == 0)); then
    log "broker: topics present: ${TOPICS[*]}"
    return
  fi
  for t in "${missing[@]}"; do
    log "broker: creating topic $t ($TOPIC_PARTITIONS partitions)"
    tansu_run "$TANSU_BIN" topic create "$t" --broker "$BROKER_URL" --partitions "$TOPIC_PARTITIONS" \
      >>"$LOG_DIR/tansu.log" 2>&1 || true
  done
  listed="$(tansu_run "$TANSU_BIN" topic list --broker "$BROKER_URL" 2>/dev/null)" || true
  for t in "${TOPICS[@]}"; do
    grep -qF "\"$t\"" <<<"$listed" || die "topic $t is missing after creating it (log $LOG_DIR/tansu.log)"
  done
}

broker_up() {
  if broker_ready; then
    if pid_alive "$TANSU_PID"; then
      log "broker: tansu already running on $BROKER_HOST:$BROKER_PORT (pid $(cat "$TANSU_PID"))"
    else
      rm -f "$TANSU_PID"
      log "broker: something already answers on $BROKER_HOST:$BROKER_PORT; using it"
    fi
  else
    is_local "$BROKER_HOST" || die "the broker at $BROKER_HOST:$BROKER_PORT does not answer, and infra.sh only starts local servers"
    rm -f "$TANSU_PID"
    tansu_install
    broker_start
  fi
  if [[ -x "$TANSU_BIN" ]] || { [[ -z "${QUIRE_TANSU_BIN:-}" ]] && command -v tansu >/dev/null && TANSU_BIN="$(command -v tansu)"; }; then
    mkdir -p "$TANSU_DIR"
    topics_ensure
  else
    log "broker: tansu CLI not installed here; not checking topics on the running broker"
  fi
}

broker_down() { stop_pidfile tansu "$TANSU_PID"; }

broker_status() {
  local who="found running (not managed by infra.sh)"
  pid_alive "$TANSU_PID" && who="tansu started by infra.sh, pid $(cat "$TANSU_PID"), data $(rel "$TANSU_DIR")/tansu.db, log $(rel "$LOG_DIR/tansu.log")"
  if broker_ready; then
    log "broker    up    $BROKER_HOST:$BROKER_PORT  ($who)"
  else
    log "broker    DOWN  $BROKER_HOST:$BROKER_PORT"
  fi
}

###############################################################################

main() {
  local cmd="${1:-}"
  shift || true
  mkdir -p "$RUN_DIR" "$LOG_DIR"
  # The data folder ignores itself, wherever it is.
  [[ -f "$DATA_DIR/.gitignore" ]] || printf '*\n' >"$DATA_DIR/.gitignore"
  case "$cmd" in
    up)
      # One 'up' at a time on this machine: two would race for the same ports. The servers
      # it starts must not inherit fd 8, or they would hold the lock for their lifetime.
      mkdir -p "$CACHE_DIR"
      exec 8>"$CACHE_DIR/infra.lock"
      flock -w 3600 8 || die "another infra.sh up holds $CACHE_DIR/infra.lock"
      log "data folder: $DATA_DIR"
      postgres_up
      redis_up
      broker_up
      log "ready: postgres $PG_HOST:$PG_PORT/$PG_DB, redis $REDIS_HOST:$REDIS_PORT, broker $BROKER_HOST:$BROKER_PORT"
      ;;
    down)
      trap '' INT PIPE # finish stopping even if the terminal or a pipe goes away
      local parts=("$@") p
      ((${#parts[@]})) || parts=(broker redis postgres)
      for p in "${parts[@]}"; do
        case "$p" in
          broker | tansu | kafka) broker_down ;;
          redis) redis_down ;;
          postgres) postgres_down ;;
          *) die "unknown part: $p (postgres, redis, broker)" ;;
        esac
      done
      ;;
    status)
      postgres_status
      redis_status
      broker_status
      ;;
    *)
      awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}" >&2
      exit 2
      ;;
  esac
}

main "$@"
