#!/usr/bin/env bash
# Records or checks the state of a read-only folder (the shared fixtures and data sets): every
# file and folder under it with its type, size, modification time and SHA-256.
#
#   scripts/shared_manifest.sh record DIR MANIFEST   writes DIR's manifest to MANIFEST
#   scripts/shared_manifest.sh check DIR MANIFEST    exits 1, listing the differences, when DIR
#                                                    no longer matches MANIFEST
#
# scripts/test.sh records ../shared/{fixtures,data,ducklake-suite} before the test suite and
# checks them afterwards, so a test that writes into the shared fixtures fails the run. A
# missing or empty DIR is an error: the check must never pass on nothing.
set -euo pipefail

usage() { echo "usage: scripts/shared_manifest.sh record|check DIR MANIFEST" >&2; exit 2; }
[ $# -eq 3 ] || usage
mode="$1" dir="$2" manifest="$3"

describe() {
  if [ ! -d "$dir" ]; then
    echo "shared_manifest: '$dir' is not a folder" >&2
    exit 2
  fi
  # Every entry's type, path, size, modification time and mode (a folder's mtime moves when an
  # entry is added or removed), then every file's SHA-256.
  (cd "$dir" &&
    find . -mindepth 1 -printf 'entry %y %p %s %T@ %m\n' &&
    find . -type f -print0 | xargs -0 -r sha256sum | sed 's/^/sha256 /') | LC_ALL=C sort
}

case "$mode" in
  record)
    describe >"$manifest.tmp"
    if [ ! -s "$manifest.tmp" ]; then
      echo "shared_manifest: '$dir' holds nothing" >&2
      rm -f "$manifest.tmp"
      exit 2
    fi
    mv "$manifest.tmp" "$manifest"
    echo "shared_manifest: recorded $(wc -l <"$manifest") entries of $dir"
    ;;
  check)
    if [ ! -s "$manifest" ]; then
      echo "shared_manifest: no manifest '$manifest' to check against" >&2
      exit 2
    fi
    describe >"$manifest.now"
    if ! diff -u "$manifest" "$manifest.now" >"$manifest.diff"; then
      rm -f "$manifest.now"
      echo "shared_manifest: files under $dir changed during the run (- before, + after):" >&2
      grep '^[-+][^-+]' "$manifest.diff" >&2 || true
      exit 1
    fi
    rm -f "$manifest.diff" "$manifest.now"
    echo "shared_manifest: $dir unchanged ($(wc -l <"$manifest") entries)"
    ;;
  *) usage ;;
esac
