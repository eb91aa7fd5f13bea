#!/usr/bin/env bash
# Sets up everything, builds with AddressSanitizer + UndefinedBehaviorSanitizer and runs the
# whole test suite there, then builds the release binary and runs the CLI smoke job on it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh asan
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
(cd build-asan && ctest -j "$(nproc)" --output-on-failure --timeout 1200)
scripts/build.sh release
scripts/main.sh --no-setup
