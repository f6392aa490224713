#!/usr/bin/env bash
# Fuzzes quire-bookfile's manuscript extraction and the cover decoder (quire-covers): every
# target (epub, pdf, pdf_guard, txt, docx, markdown, cover) for SECONDS each (default 20),
# one after the other.
#
#   deploy/local/fuzz.sh [SECONDS] [TARGET...]
#
# cargo-fuzz is installed from crates.io when missing. It passes -Z flags (sanitizer,
# coverage) that only a nightly rustc takes; RUSTC_BOOTSTRAP=1 lets the stable toolchain
# take them. The seeds committed under crates/bookfile/fuzz/corpus/<target> are read;
# new inputs go to a corpus kept with the build, outside the repository. A crash or a slow
# input is saved under crates/bookfile/fuzz/artifacts/<target>/ and fails the run.
set -euo pipefail

seconds="${1:-20}"
shift || true
targets=("$@")
if [ "${#targets[@]}" -eq 0 ]; then
    targets=(epub pdf pdf_guard txt docx markdown cover)
fi
case "$seconds" in
    '' | *[!0-9]*) echo "usage: $0 [SECONDS] [TARGET...]" >&2; exit 2 ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
fuzz_dir="$root/crates/bookfile/fuzz"

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz.sh: installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked
fi

export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="${QUIRE_FUZZ_TARGET_DIR:-$HOME/.cache/quire/fuzz-target}"
work_corpus="$CARGO_TARGET_DIR/corpus"

cd "$fuzz_dir"
# Build every target first, so that the time given is spent fuzzing.
for target in "${targets[@]}"; do
    cargo fuzz build "$target"
done

failed=()
for target in "${targets[@]}"; do
    mkdir -p "$work_corpus/$target"
    echo "fuzz.sh: $target for ${seconds}s" >&2
    # -timeout: an input taking longer is a finding (the extraction's own bound is 30 s);
    # -max_len: inputs up to 32 KiB; -print_final_stats: executions and coverage.
    if ! cargo fuzz run "$target" "$work_corpus/$target" "corpus/$target" -- \
        -max_total_time="$seconds" -timeout=10 -max_len=32768 -rss_limit_mb=2048 \
        -print_final_stats=1 2>"$work_corpus/$target.log"; then
        failed+=("$target")
        tail -n 40 "$work_corpus/$target.log" >&2
    else
        grep -E "^stat::number_of_executed_units|^stat::new_units_added" \
            "$work_corpus/$target.log" | sed "s/^/fuzz.sh: $target /" >&2 || true
    fi
done

if [ "${#failed[@]}" -gt 0 ]; then
    echo "fuzz.sh: findings in: ${failed[*]} (inputs in $fuzz_dir/artifacts/)" >&2
    exit 1
fi
echo "fuzz.sh: ${targets[*]}: no findings in ${seconds}s each" >&2
