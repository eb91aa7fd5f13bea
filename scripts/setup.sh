#!/usr/bin/env bash
# Installs everything tarn's build, tests and benchmarks need. Idempotent.
#   Debian packages: compiler toolchain, compression libraries, SQLite, utf8proc (Unicode case
#   mapping), RE2 (regular expressions, the engine DuckDB embeds), GoogleTest/Benchmark,
#   libpq (the PostgreSQL catalog) and the PostgreSQL 15 server the tests run against, libcurl,
#   OpenSSL and TinyXML-2 (object storage), RapidJSON (the JSON functions' parser).
#   npm (pinned in tools/oracle/package-lock.json): DuckDB as test oracle and benchmark peer,
#   vega-datasets for flights-3m.parquet, s3rver (the S3-compatible server of the tests).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(g++ cmake make ccache pkg-config nodejs npm
          libsnappy-dev libzstd-dev liblz4-dev libbrotli-dev zlib1g-dev libsqlite3-dev libxxhash-dev
          libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev nlohmann-json3-dev
          postgresql libpq-dev
          libutf8proc-dev libre2-dev libedit-dev
          libcurl4-openssl-dev libssl-dev libtinyxml2-dev libdivide-dev
          rapidjson-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  # nodejs/npm may come from elsewhere on this machine: only ask apt for what has no binary.
  filtered=()
  for p in "${missing[@]}"; do
    case "$p" in
      nodejs) command -v node >/dev/null || filtered+=("$p") ;;
      npm) command -v npm >/dev/null || filtered+=("$p") ;;
      *) filtered+=("$p") ;;
    esac
  done
  if [ ${#filtered[@]} -gt 0 ]; then
    echo "setup: installing ${filtered[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${filtered[@]}" >/dev/null
  fi
fi

if [ ! -d tools/oracle/node_modules/@duckdb/node-api ] || \
   [ ! -f tools/oracle/node_modules/vega-datasets/data/flights-3m.parquet ] || \
   [ ! -d tools/oracle/node_modules/s3rver ] || \
   [ tools/oracle/package-lock.json -nt tools/oracle/node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  (cd tools/oracle && npm ci --no-audit --no-fund --loglevel=error)
fi
