#!/usr/bin/env bash
# What `make schema` runs: regenerates each crate's src/db/schema.rs with diesel's
# print-schema, never by hand. Each service's migrations are applied to the `public`
# schema of a scratch database (print-schema reads `public` unqualified, which is what our
# search_path-confined connections need), then diesel.toml's filters pick the tables.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
CACHE="${QUIRE_CACHE:-$HOME/.cache/quire}"
DIESEL="$CACHE/diesel/bin/diesel"
SERVICES=(auth catalog wallet manuscript)
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$CACHE/target}"

if [[ ! -x "$DIESEL" ]]; then
  echo "installing diesel_cli into $CACHE/diesel (needs libpq-dev; once)"
  dpkg -s libpq-dev >/dev/null 2>&1 || apt-get install -y libpq-dev
  cargo install diesel_cli --no-default-features --features postgres --root "$CACHE/diesel"
fi
# Only the services printed here: the rest of the workspace need not build for this.
cargo build -q $(printf -- '-p quire-%s ' "${SERVICES[@]}")
url="postgres://postgres@127.0.0.1:5432/quire_schema"
for svc in "${SERVICES[@]}"; do
  psql -q -h 127.0.0.1 -U postgres -d postgres -c 'DROP DATABASE IF EXISTS quire_schema WITH (FORCE)' -c 'CREATE DATABASE quire_schema'
  QUIRE_DATABASE_URL="$url" QUIRE_DB_SCHEMA=public "$CARGO_TARGET_DIR/debug/quire-$svc" migrate >/dev/null
  (cd "services/$svc" && "$DIESEL" print-schema --database-url "$url" > src/db/schema.rs)
  echo "services/$svc/src/db/schema.rs"
  # The shared tables of quire-kit exist in every service's schema.
  (cd crates/kit && "$DIESEL" print-schema --database-url "$url" > src/db/schema.rs)
done
echo "crates/kit/src/db/schema.rs"
psql -q -h 127.0.0.1 -U postgres -d postgres -c 'DROP DATABASE IF EXISTS quire_schema WITH (FORCE)'
