#!/usr/bin/env bash
# Sets up everything, builds with AddressSanitizer + UndefinedBehaviorSanitizer and runs the
# whole test suite there, then builds the release binary and runs the CLI smoke job on it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh asan
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
# The shared fixtures and data sets are read-only for tests: any change to them during the run
# (a test writing into a fixture's data folder) fails the run.
shared="$(cd .. && pwd)/shared"
manifests="$(mktemp -d)"
# A throwaway PostgreSQL server for the PostgreSQL catalog tests (TARN_TEST_PG); tests that need
# it fail without it. Its folder must be reachable by the server's unprivileged user.
pg_dir="$(mktemp -d)"
chmod 755 "$pg_dir"
# And a throwaway S3-compatible server (scripts/s3-server.sh) for object storage (TARN_TEST_S3).
s3_dir="$(mktemp -d)"
cleanup() {
  scripts/pg-server.sh stop "$pg_dir/server" || true
  scripts/s3-server.sh stop "$s3_dir" || true
  rm -rf "$manifests" "$pg_dir" "$s3_dir"
}
trap cleanup EXIT
TARN_TEST_PG="$(scripts/pg-server.sh start "$pg_dir/server")"
TARN_TEST_PG_DIR="$pg_dir/server"  # fault tests restart the server
export TARN_TEST_PG TARN_TEST_PG_DIR
TARN_TEST_S3="$(scripts/s3-server.sh start "$s3_dir")"
export TARN_TEST_S3
shared_folders=(fixtures data ducklake-suite)
check_shared() {
  for folder in "${shared_folders[@]}"; do
    scripts/shared_manifest.sh check "$shared/$folder" "$manifests/$folder"
  done
}
for folder in "${shared_folders[@]}"; do
  scripts/shared_manifest.sh record "$shared/$folder" "$manifests/$folder"
done
suite=0
(cd build-asan && ctest -j "$(nproc)" --output-on-failure --timeout 1200) || suite=$?
check_shared
[ "$suite" -eq 0 ] || exit "$suite"
scripts/build.sh release
scripts/main.sh --no-setup
check_shared
