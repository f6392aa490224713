#!/usr/bin/env bash
# Fuzzes a running gateway against its own OpenAPI document with Schemathesis: no answer
# may be a 5xx, and every answer's status, content type and body, and the 405 with Allow
# for another method on a known path, must be what the document declares. `test.sh e2e`
# runs it while the e2e stack is up; it fails when Schemathesis finds anything.
#
#   schemathesis.sh [BASE_URL]     default $QUIRE_BASE_URL, else http://127.0.0.1:8080
#
# It runs as three callers, each over every operation: anonymous, a reader it creates, and
# the admin ($QUIRE_ADMIN_EMAIL / $QUIRE_ADMIN_PASSWORD, as the stack was started with).
# QUIRE_FUZZ_EXAMPLES (default 15) bounds the generated cases per operation and phase;
# QUIRE_FUZZ_SEED (default fixed) makes a run repeatable. With QUIRE_E2E_SMTP_PORT set and
# nothing listening there, a mail sink takes the verification mails the fuzzing asks for
# (else every one of them is a 503: the mail server is down). Schemathesis and the sink
# are installed once into ~/.cache/quire/venv-schemathesis (PyPI, pinned below).
set -euo pipefail

PINS="schemathesis==4.32.5 aiosmtpd==1.4.6"
VENV="$HOME/.cache/quire/venv-schemathesis"
BASE="${1:-${QUIRE_BASE_URL:-http://127.0.0.1:8080}}"
EXAMPLES="${QUIRE_FUZZ_EXAMPLES:-15}"
SEED="${QUIRE_FUZZ_SEED:-20240611}"
ADMIN_EMAIL="${QUIRE_ADMIN_EMAIL:-admin@quire.local}"
ADMIN_PASSWORD="${QUIRE_ADMIN_PASSWORD:-quire-admin-pass}"

say() { printf '\n== %s\n' "$*"; }
die() { printf 'schemathesis.sh: %s\n' "$*" >&2; exit 1; }

install() {
  if [[ -x "$VENV/bin/st" && "$(cat "$VENV/quire-pins" 2>/dev/null)" == "$PINS" ]]; then
    return
  fi
  command -v python3 >/dev/null || die "python3 is missing: apt-get install -y python3 python3-venv"
  echo "installing $PINS into $VENV"
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  # shellcheck disable=SC2086 # one argument per pin
  "$VENV/bin/pip" install --quiet --disable-pip-version-check $PINS
  printf '%s\n' "$PINS" >"$VENV/quire-pins"
}

# tcp_open <port>: something listens on 127.0.0.1:<port>.
# shellcheck disable=SC2016 # $1 expands in the inner bash
tcp_open() { timeout 2 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$1"' _ "$1" 2>/dev/null; }

# call <method> <path> [curl options...]: the reply's body; fails on anything but 2xx.
call() {
  local method="$1" path="$2"
  shift 2
  curl -fsS --max-time 30 -X "$method" "$BASE$path" "$@"
}

# field <python expression on the parsed reply `r`>, reading the reply on stdin.
field() { python3 -c "import json, sys; r = json.load(sys.stdin); print($1)"; }

access_token() {
  call POST /api/login/ -H 'Content-Type: application/json' \
    -d "{\"email\": \"$1\", \"password\": \"$2\"}" | field 'r["data"]["access_token"]'
}

# A TOML array of strings.
toml_list() { printf '"%s", ' "$@" | sed 's/, $//'; }

install
# Tokens first: fuzzing the login route with wrong passwords soon locks this address out.
admin_token="$(access_token "$ADMIN_EMAIL" "$ADMIN_PASSWORD")" || die "admin login at $BASE failed"
reader_email="fuzz-reader-$(date +%s)-$RANDOM@quire.test"
reader_password="fuzz-reader-pass-$RANDOM$RANDOM"
call POST /api/users/ -H "Authorization: Bearer $admin_token" -H 'Content-Type: application/json' \
  -d "{\"email\": \"$reader_email\", \"username\": \"fuzzreader$RANDOM\", \"password\": \"$reader_password\", \"roles\": [\"reader\"]}" \
  >/dev/null || die "the admin could not create a reader"
reader_token="$(access_token "$reader_email" "$reader_password")" || die "reader login failed"
reader_id="$(call GET /api/users/me/ -H "Authorization: Bearer $reader_token" | field 'r["data"]["user_id"]')"

# Ids that exist, so that part of the cases of the book, shelf and user routes get past
# "not found"; the other cases use generated values.
mapfile -t books < <(call POST /api/get_all_books/ -H 'Content-Type: application/x-www-form-urlencoded' \
  -d 'page_size=8' | field '"\n".join(b["book_id"] for b in r["data"]["result"])')
mapfile -t publishers < <(call GET /api/publishers | field '"\n".join(p["publisher_id"] for p in r["data"])')
((${#books[@]})) || die "no book in the shop to fuzz the book routes with"
((${#publishers[@]})) || publishers=("$reader_id")

work="$(mktemp -d /tmp/quire-schemathesis.XXXXXX)"
sink_pid=""
cleanup() {
  [[ -z "$sink_pid" ]] || kill "$sink_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
smtp_port="${QUIRE_E2E_SMTP_PORT:-}"
if [[ -n "$smtp_port" ]] && ! tcp_open "$smtp_port"; then
  "$VENV/bin/python" -m aiosmtpd -n -u -c aiosmtpd.handlers.Sink -l "127.0.0.1:$smtp_port" &
  sink_pid=$!
  for _ in $(seq 50); do tcp_open "$smtp_port" && break; sleep 0.1; done
  tcp_open "$smtp_port" || die "the mail sink did not start on port $smtp_port"
fi
cat >"$work/schemathesis.toml" <<TOML
# Without this, Schemathesis signs up through /api/register/ by itself and uses that
# account, also in the pass meant to be anonymous.
[auth]
auto-signup = false

[dictionaries.books]
values = [$(toml_list "${books[@]}")]

[dictionaries.publishers]
values = [$(toml_list "${publishers[@]}")]

[dictionaries.users]
values = [$(toml_list "$reader_id")]

[parameters]
"path.book_id" = { dictionary = "books", probability = 0.6 }
"query.book_id" = { dictionary = "books", probability = 0.6 }
"path.publisher_id" = { dictionary = "publishers", probability = 0.6 }
"query.uid" = { dictionary = "users", probability = 0.3 }
"query.user_id" = { dictionary = "users", probability = 0.3 }
"query.buyer_uid" = { dictionary = "users", probability = 0.3 }
TOML
# Schemathesis writes nothing into the repository from here.
cd "$work"

# run <caller> [st run options...]: one pass over the document.
status=0
run() {
  local caller="$1"
  shift
  say "schemathesis as $caller"
  # One worker: Python 3.11's parser is not safe across Hypothesis' threads ("AST
  # constructor recursion depth mismatch"), and the stack has the cores to itself.
  "$VENV/bin/st" --config-file "$work/schemathesis.toml" run "$BASE/api/openapi.json" \
    --url "$BASE" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,unsupported_method,allow_header_conformance \
    --phases coverage,fuzzing --max-examples "$EXAMPLES" --seed "$SEED" --workers 1 \
    --request-timeout 30 --generation-database none --no-color --output-truncate true \
    "$@" || status=1
}

run anonymous
# Logout revokes the token it is called with, which every later case of the pass would
# then carry: the token passes leave it out, and it runs last, in a pass of its own.
run reader -H "Authorization: Bearer $reader_token" --exclude-path /api/users/logout
# The platform settings pass runs last of all: a valid random change may close
# registration or set a rate limit of one request a minute, which would turn every later
# case into a 409 or a 429.
run admin -H "Authorization: Bearer $admin_token" --exclude-path /api/users/logout \
  --exclude-path /api/admin/settings
run "reader, logging out" -H "Authorization: Bearer $reader_token" --include-path /api/users/logout
run "admin, changing the platform settings" -H "Authorization: Bearer $admin_token" \
  --include-path /api/admin/settings

if [[ $status -ne 0 ]]; then
  echo "schemathesis found answers the OpenAPI document does not allow (above)" >&2
fi
exit $status
