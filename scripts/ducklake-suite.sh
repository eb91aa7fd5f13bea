#!/usr/bin/env bash
# Runs the official DuckLake sqllogictest suite (../shared/ducklake-suite) through tarn and
# prints the counts and the failures grouped by cause.
#   scripts/ducklake-suite.sh                 # the whole suite
#   scripts/ducklake-suite.sh --only alter/   # files whose path contains "alter/"
#   scripts/ducklake-suite.sh --update        # also rewrite tests/ducklake_suite/expected.txt
# Uses the ASan build (build-asan/, as CI does) unless TARN_SUITE_BUILD names another folder.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${TARN_SUITE_BUILD:-build-asan}"
while [ $# -gt 0 ]; do
  case "$1" in
    --update) export TARN_SUITE_UPDATE=1 ;;
    --only) shift; export TARN_SUITE_ONLY="$1" ;;
    *) echo "usage: scripts/ducklake-suite.sh [--update] [--only PATTERN]" >&2; exit 2 ;;
  esac
  shift
done
if [ ! -x "$build/ducklake_suite_tests" ]; then
  flavour=asan
  [ "$build" = build ] && flavour=release
  scripts/build.sh "$flavour"
fi
export TARN_SUITE_REPORT=1
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
"$build/ducklake_suite_tests" --gtest_filter='DucklakeSuiteTest.*' || true
