# Quire: the commands. `make run` starts everything on this machine; `make test` runs
# every test against real Postgres, Redis, the Kafka-compatible broker and Chromium.

SHELL := /bin/bash
export CARGO_TARGET_DIR ?= $(HOME)/.cache/quire/target
export npm_config_cache ?= $(HOME)/.cache/quire/npm

.PHONY: schema run test test-rust test-frontend test-e2e deps-check fuzz bench smoke lint fmt k8s-check openapi frontend build clean infra

## Build release binaries and the web app, then start the whole stack (Ctrl-C stops it).
run: build frontend
	QUIRE_BIN_DIR=$(CARGO_TARGET_DIR)/release deploy/local/stack.sh run

## Every test: Rust unit + integration (real servers), frontend unit, browser e2e.
test:
	deploy/local/test.sh all

test-rust:
	deploy/local/test.sh rust

test-frontend:
	deploy/local/test.sh frontend

test-e2e:
	deploy/local/test.sh e2e

## The crates' dependencies against the plan in architecture.toml (part of make test).
deps-check:
	deploy/local/test.sh deps

## Fuzz manuscript extraction (quire-bookfile) and the cover decoder (quire-covers): every target for 300 s.
fuzz:
	deploy/local/fuzz.sh 300

## Benchmarks; reports go to bench/.
bench:
	deploy/local/bench.sh

## One minute of readers and writers on the main journeys at a fixed rate against the running
## stack (or one it starts); fails on any error or a p99 over its bound (bench/smoke.md).
smoke:
	deploy/local/smoke.sh

lint:
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	cd crates/bookfile/fuzz && cargo fmt --check && RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=$(HOME)/.cache/quire/fuzz-target cargo clippy --all-targets -- -D warnings
	cd frontend && npm run typecheck && npm run lint

fmt:
	cargo fmt --all

## Render and validate k8s/ and deploy/docker/compose.yaml offline: kustomize, strict Kubernetes
## and Strimzi/CloudNativePG schemas, Quire's rules, checkov. A missing tool fails it.
k8s-check:
	deploy/k8s-check.sh

## Write the gateway's OpenAPI document where the frontend generates its types from.
openapi:
	cargo run -q -p quire-gateway -- openapi > frontend/openapi.json
	cd frontend && npm run gen:api

## Regenerate every src/db/schema.rs from the migrations (diesel print-schema).
schema:
	deploy/local/print-schema.sh

build:
	cargo build --release --workspace --bins

frontend:
	cd frontend && (test -d node_modules || npm ci --no-audit --no-fund) && npm run build

infra:
	deploy/local/infra.sh up

clean:
	cargo clean
	rm -rf frontend/dist frontend/node_modules
