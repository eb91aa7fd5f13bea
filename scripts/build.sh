#!/usr/bin/env bash
# Configures and builds one flavour: `release` (build/) or `asan` (build-asan/).
set -euo pipefail
cd "$(dirname "$0")/.."
flavour="${1:-release}"
# Release trees target x86-64-v2 on x86-64 (POPCNT, SSE4.2); the sanitizer tree the default.
arch=""
case "$(uname -m)" in x86_64|amd64) arch=x86-64-v2 ;; esac
case "$flavour" in
  release) dir=build; flags=(-DCMAKE_BUILD_TYPE=Release "-DTARN_ARCH=$arch") ;;
  asan) dir=build-asan; flags=(-DCMAKE_BUILD_TYPE=Debug -DTARN_SANITIZE=ON -DTARN_BUILD_BENCH=OFF) ;;
  *) echo "usage: scripts/build.sh release|asan" >&2; exit 2 ;;
esac
# ccache: share hits between checkouts in different folders (CI builds a fresh clone).
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
cmake -S . -B "$dir" "${flags[@]}" >/dev/null
cmake --build "$dir" -j "$(nproc)"
