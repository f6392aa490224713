#!/usr/bin/env bash
# What `make bench` runs: every benchmark, each writing its report under bench/.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
deploy/local/infra.sh up
RUST_LOG=error cargo bench -p quire-gateway --bench users_me
RUST_LOG=error cargo bench -p quire-gateway --bench search
