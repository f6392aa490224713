#!/usr/bin/env bash
# Proves that a purchase's trace reaches `make run`'s trace UI, asking the viewer's own
# REST API: a new reader buys a priced book of the shop through the gateway, the buy
# request carrying a `traceparent` whose trace id this script chose, and the trace UI must
# then hold that trace with the gateway's span and the gRPC spans of wallet (the trade) and
# catalog (the book's price and seller) under it. Prints the spans and the trace's address.
#
#   trace-check.sh
#
# When a stack answers at QUIRE_BASE_URL (default http://127.0.0.1:$QUIRE_HTTP_PORT, 8080),
# that stack and its trace UI (QUIRE_TRACE_UI_PORT, default 6006) are used as they are.
# Otherwise it starts `make run`'s stack in the background (stack.sh start-bg, binaries
# from QUIRE_BIN_DIR, default $CARGO_TARGET_DIR/release) with its trace UI and demo shop,
# and stops it at the end. Not part of `make test`: it needs the whole stack, and a first
# run installs Phoenix from PyPI.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export QUIRE_HTTP_PORT="${QUIRE_HTTP_PORT:-8080}"
BASE="${QUIRE_BASE_URL:-http://127.0.0.1:$QUIRE_HTTP_PORT}"
TRACE_UI="$ROOT/deploy/local/trace-ui.sh"
STACK="$ROOT/deploy/local/stack.sh"
ADMIN_EMAIL="${QUIRE_ADMIN_EMAIL:-admin@quire.local}"
ADMIN_PASSWORD="${QUIRE_ADMIN_PASSWORD:-quire-admin-pass}"
# Ended spans wait up to OTEL_BSP_SCHEDULE_DELAY (5 s by default) for their batch.
WAIT_SECONDS="${QUIRE_TRACE_CHECK_WAIT:-60}"

log() { printf '[trace-check] %s\n' "$*" >&2; }
die() { printf '[trace-check] FAILED: %s\n' "$*" >&2; exit 1; }

command -v curl >/dev/null || die "curl is missing"
command -v python3 >/dev/null || die "python3 is missing"

answers() { curl -fsS -o /dev/null --max-time 5 "$BASE/api/settings" 2>/dev/null; }

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
  log "using the stack at $BASE"
else
  log "no stack at $BASE: starting one (deploy/local/stack.sh start-bg)"
  started=1
  QUIRE_TRACE_UI=on "$STACK" start-bg
fi
"$TRACE_UI" status 2>&1 | grep -q ' up:' \
  || die "no trace UI runs beside the stack (started with QUIRE_TRACE_UI=off, or an OTEL_EXPORTER_OTLP_ENDPOINT of its own?)"

# call <method> <path> [curl options...]: the `data` of the reply's envelope; fails on
# anything but 2xx.
call() {
  local method="$1" path="$2"
  shift 2
  curl -fsS --max-time 30 -X "$method" "$BASE$path" "$@" \
    | python3 -c 'import json, sys; print(json.dumps(json.load(sys.stdin).get("data")))'
}
field() { python3 -c "import json, sys; r = json.load(sys.stdin); print($1)"; }
hex() { python3 -c "import secrets; print(secrets.token_hex($1))"; }

log "a new reader buys a priced book of the shop"
admin_token="$(call POST /api/login/ -H 'Content-Type: application/json' \
  -d "{\"email\": \"$ADMIN_EMAIL\", \"password\": \"$ADMIN_PASSWORD\"}" | field 'r["access_token"]')" \
  || die "the admin could not log in at $BASE"
tag="$(hex 6)"
reader_email="trace-reader-$tag@quire.test"
reader_password="trace-reader-pass-$tag"
call POST /api/users/ -H "Authorization: Bearer $admin_token" -H 'Content-Type: application/json' \
  -d "{\"email\": \"$reader_email\", \"username\": \"tracereader$tag\", \"password\": \"$reader_password\", \"roles\": [\"reader\"]}" \
  >/dev/null || die "the admin could not create a reader"
reader_token="$(call POST /api/login/ -H 'Content-Type: application/json' \
  -d "{\"email\": \"$reader_email\", \"password\": \"$reader_password\"}" | field 'r["access_token"]')"
reader_id="$(call GET /api/users/me/ -H "Authorization: Bearer $reader_token" | field 'r["user_id"]')"
read -r book_id price < <(call POST /api/get_all_books/ -H 'Content-Type: application/x-www-form-urlencoded' \
  -d 'page_size=50' | field '" ".join(next(([b.get("book_id") or b.get("id"), str(b["price"])]
    for b in r["result"] if (b.get("price") or 0) > 0), ["", ""]))') || true
[[ -n "${book_id:-}" ]] || die "the shop has no priced book (start the stack with its demo shop: QUIRE_DEMO=1, the default)"
call POST /api/wallet/open -H "Authorization: Bearer $reader_token" -H 'Content-Type: application/json' \
  -d '{}' >/dev/null || die "the reader's wallet did not open"
call POST /api/wallet/recharge -H "Authorization: Bearer $reader_token" -H 'Content-Type: application/json' \
  -H "Idempotency-Key: $(hex 16)" -d "{\"amount\": $price}" >/dev/null || die "the recharge of $price failed"

trace_id="$(hex 16)"
trade="$(call GET "/api/trade?buyer_uid=$reader_id&book_id=$book_id" -H "Authorization: Bearer $reader_token" \
  -H "Idempotency-Key: $(hex 16)" -H "traceparent: 00-$trace_id-$(hex 8)-01")" || die "the purchase of $book_id failed"
[[ "$(field 'r["book_id"]' <<<"$trade")" == "$book_id" ]] || die "GET /api/trade answered no trade of $book_id: $trade"
log "bought book $book_id for $price in trace $trace_id; asking the trace UI for it"

# The gateway's server span of the call, and the server spans of wallet (the trade) and
# of catalog (wallet asks it for the book), all in the one trace.
verdict=""
for ((i = 0; i < WAIT_SECONDS; i++)); do
  spans="$("$TRACE_UI" spans "$trace_id" 2>/dev/null)" || spans='{"data": []}'
  verdict="$(python3 -c '
import json, sys
spans = json.loads(sys.argv[1])["data"]
names = [s["name"] for s in spans]
need = {
    "the gateway span of GET /api/trade": any(s["attributes"].get("http.route") == "/api/trade" for s in spans),
    "a wallet gRPC span": any("wallet" in n.lower() for n in names),
    "a catalog gRPC span": any("catalog" in n.lower() for n in names),
}
missing = [k for k, ok in need.items() if not ok]
print("ok" if not missing else "missing " + ", ".join(missing) + f" ({len(spans)} spans so far)")
' "$spans")"
  [[ "$verdict" == ok ]] && break
  sleep 1
done
[[ "$verdict" == ok ]] || die "after ${WAIT_SECONDS}s the trace UI has, of trace $trace_id, $verdict"

python3 -c '
import json, sys
from datetime import datetime
spans = json.loads(sys.argv[1])["data"]
def ms(s):
    return (datetime.fromisoformat(s["end_time"]) - datetime.fromisoformat(s["start_time"])).total_seconds() * 1000
by_parent = {}
for s in spans:
    by_parent.setdefault(s["parent_id"], []).append(s)
ids = {s["context"]["span_id"] for s in spans}
def show(s, depth):
    route = s["attributes"].get("http.route") or ""
    print("  " + "  " * depth + " ".join(filter(None, [s["name"], route])) + "  %.1f ms" % ms(s))
    for c in sorted(by_parent.get(s["context"]["span_id"], []), key=lambda c: c["start_time"]):
        show(c, depth + 1)
for root in sorted((s for s in spans if s["parent_id"] not in ids), key=lambda s: s["start_time"]):
    show(root, 0)
print(f"{len(spans)} spans")
' "$spans"
log "OK: the purchase's trace is in the trace UI: $("$TRACE_UI" url "$trace_id")"
