#!/usr/bin/env bash
# tarn's main job: sets up, builds the release binary, and shows what it does on real data.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--no-setup" ]; then
  scripts/setup.sh
  scripts/build.sh release
fi
flights=tools/oracle/node_modules/vega-datasets/data/flights-3m.parquet
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
set -x
build/tarn parquet meta "$flights"
build/tarn parquet cat "$flights" --limit 20 --format table
build/tarn parquet cat "$flights" --where "origin = 'SFO' AND delay > 300" --with-position --limit 10
build/tarn parquet write "$flights" "$work/flights.zstd.parquet" --compression zstd:3
build/tarn parquet meta "$work/flights.zstd.parquet" --format json
build/tarn parquet cat "$work/flights.zstd.parquet" --limit 5 --format csv
{ set +x; } 2>/dev/null
original=$(build/tarn parquet cat "$flights" --format csv | md5sum)
copied=$(build/tarn parquet cat "$work/flights.zstd.parquet" --format csv | md5sum)
if [ "$original" != "$copied" ]; then
  echo "round trip of flights-3m changed its values" >&2
  exit 1
fi
echo "round trip of flights-3m.parquet: identical values ($original)"
