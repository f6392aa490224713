#!/usr/bin/env bash
# Hostile pdf uploads against the manuscript service's release binary: a pdf of a million
# objects and a double-FlateDecode bomb (zlib of zlib of 300 MiB), each alone and both
# with an ordinary upload at the same time; how long each takes to be refused, how much
# the service and its extraction workers grow. Writes bench/hostile-uploads.md.
#
# The measurement is an ignored test of quire-manuscript
# (services/manuscript/tests/extraction_worker/hostile.rs): auth and catalog run in the
# test's process, the manuscript service is the release binary in a process of its own.
# Postgres, Redis and the broker come from infra.sh (running ones are reused).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/quire/target}"
export QUIRE_TEST_DATABASE_URL="${QUIRE_TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/quire_test}"
deploy/local/infra.sh up
# The worker's exact peak RSS is read with GNU time.
if [[ ! -x /usr/bin/time ]]; then
  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q time >/dev/null
fi
db="${QUIRE_TEST_DATABASE_URL##*/}"
if ! psql -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '$db'" | grep -q 1; then
  psql -q -h 127.0.0.1 -U postgres -d postgres -c "CREATE DATABASE \"$db\""
fi
cargo build --release -p quire-manuscript --bin quire-manuscript
QUIRE_BENCH_MANUSCRIPT_BIN="$CARGO_TARGET_DIR/release/quire-manuscript" \
  QUIRE_BENCH_REPORT="$ROOT/bench/hostile-uploads.md" RUST_LOG="${RUST_LOG:-error}" \
  cargo test -p quire-manuscript --test extraction_worker -- --ignored --exact --nocapture \
  hostile::measure_hostile_uploads_against_the_release_binary
