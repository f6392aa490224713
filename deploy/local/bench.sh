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
RUST_LOG=error cargo bench -p quire-bench --bench trades
