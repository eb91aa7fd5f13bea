#!/usr/bin/env bash
# Builds and runs one of tarn's libFuzzer targets with Debian's clang-14 and libFuzzer, under
# AddressSanitizer + UndefinedBehaviorSanitizer:
#   parquet  tests/fuzz/parquet_fuzzer.cc, Parquet decoding, corpus tests/fuzz/corpus
#   sql      tests/fuzz/sql_fuzzer.cc, the SQL lexer, parsers and binder, corpus tests/fuzz/corpus_sql
#   catalog  tests/fuzz/catalog_fuzzer.cc, the catalog loader over damaged copies of the fixture
#            catalogs, corpus tests/fuzz/corpus_catalog (needs ../shared, or TARN_SHARED_DIR)
#   rowsum   tests/fuzz/rowsum_fuzzer.cc, .rowsum sidecars and their set and order decoders,
#            corpus tests/fuzz/corpus_rowsum
#
#   scripts/fuzz.sh [SECONDS] [BUILD_DIR] [TARGET]     default: 300 seconds, build-fuzz, parquet
#
# Installs clang-14 and libfuzzer-14-dev with apt-get when they are missing. The library sources
# the target needs (src/{parquet,columnar,io,util,expr,format}, the statement parser for sql,
# all of src/ for catalog and rowsum) are compiled with coverage instrumentation into BUILD_DIR; the
# normal CMake build is not involved. New inputs go to BUILD_DIR/<corpus>, seeded from the
# target's corpus in tests/fuzz; crashes are written to BUILD_DIR/crash-*. Keep the inputs
# that once failed in the target's corpus (small files), where corpus_replay_test.cc and
# catalog_fuzz_test.cc replay them.
set -euo pipefail

SECONDS_TO_RUN="${1:-300}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="${2:-$ROOT/build-fuzz}"
TARGET="${3:-parquet}"
case "$TARGET" in
  parquet) CORPUS=corpus; MAX_LEN=65536 ;;
  sql) CORPUS=corpus_sql; MAX_LEN=65536 ;;
  # A fixture, a snapshot and at most 16 mutations of 5 bytes (catalog_fuzz_entry.h).
  catalog) CORPUS=corpus_catalog; MAX_LEN=82 ;;
  rowsum) CORPUS=corpus_rowsum; MAX_LEN=65536 ;;
  *) echo "usage: scripts/fuzz.sh [SECONDS] [BUILD_DIR] [parquet|sql|catalog|rowsum]" >&2; exit 2 ;;
esac
# The catalog target copies the fixture lakes' catalogs; it runs from BUILD_DIR.
export TARN_SHARED_DIR="${TARN_SHARED_DIR:-$(cd "$ROOT/.." && pwd)/shared}"
case "$BUILD" in /*) ;; *) BUILD="$ROOT/$BUILD" ;; esac

if ! command -v clang++-14 >/dev/null ||
   ! ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "installing clang-14 and libfuzzer-14-dev" >&2
  sudo_cmd=""
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd="sudo"; fi
  $sudo_cmd apt-get update
  $sudo_cmd apt-get install -y clang-14 libfuzzer-14-dev
fi

CXX=clang++-14
mkdir -p "$BUILD/obj" "$BUILD/$CORPUS"

# clang 14 with libstdc++ 12 instantiates std::vector<Field>'s constexpr destructor inside
# DataType's inline constructor, where Field is still incomplete (g++ does not). The fuzz build
# reads a copy of include/ whose tarn/type.h defines that constructor out of line, in
# clang_compat.cc.
rm -rf "$BUILD/include.new" && cp -r "$ROOT/include" "$BUILD/include.new"
sed -i 's|  explicit DataType(TypeId type_id) : id(type_id) {}|  explicit DataType(TypeId type_id);|' \
  "$BUILD/include.new/tarn/type.h"
grep -q 'explicit DataType(TypeId type_id);' "$BUILD/include.new/tarn/type.h"
if ! diff -r -q "$BUILD/include.new" "$BUILD/include" >/dev/null 2>&1; then
  rm -rf "$BUILD/include" && mv "$BUILD/include.new" "$BUILD/include"
  rm -f "$BUILD"/obj/*.o
else
  rm -rf "$BUILD/include.new"
fi
cat > "$BUILD/clang_compat.cc" <<'CC'
#include "tarn/type.h"
namespace tarn {
DataType::DataType(TypeId type_id) : id(type_id) {}
}  // namespace tarn
CC

FLAGS=(-std=gnu++20 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined
       -fno-sanitize-recover=undefined -I"$BUILD/include" -I"$ROOT/src"
       -I"$ROOT/tests/fuzz" -DTARN_VERSION=\"fuzz\")

# Compile each library source whose object is older than it (headers: delete BUILD/obj).
# (expr and format: a scan evaluates pushed-down WHERE clauses while decoding.)
# (sql: the statement parser too, which needs nothing but expr.)
if [ "$TARGET" = catalog ] || [ "$TARGET" = rowsum ]; then
  # The loader, the table scan and what they reach (the rowid module reaches the catalog and
  # the Parquet reader too): the whole library.
  mapfile -t SOURCES < <(cd "$ROOT" && find src -name '*.cc' ! -name '*_test.cc' | sort)
else
  mapfile -t SOURCES < <(cd "$ROOT" && ls src/parquet/*.cc src/columnar/*.cc src/io/*.cc \
                         src/util/*.cc src/expr/*.cc src/format/*.cc src/sql/parse/*.cc \
                         2>/dev/null | grep -v '_test\.cc$')
fi
# Recompile a source when it or any header is newer than its object.
HEADER_STAMP="$(find "$BUILD/include" "$ROOT/src" -name '*.h' -printf '%T@\n' | sort -n | tail -1)"
HEADER_STAMP="${HEADER_STAMP%.*}"
compile() {
  local source="$1" object="$BUILD/obj/$(echo "$1" | tr '/' '_').o"
  if [ ! -f "$object" ] || [ "$ROOT/$source" -nt "$object" ] ||
     [ "$(stat -c %Y "$object")" -lt "$HEADER_STAMP" ]; then
    $CXX "${FLAGS[@]}" -fsanitize=fuzzer-no-link -c "$ROOT/$source" -o "$object"
  fi
}
export -f compile
export CXX BUILD ROOT HEADER_STAMP
export FLAGS_STRING="${FLAGS[*]}"
for source in "${SOURCES[@]}"; do echo "$source"; done |
  xargs -P 2 -I{} bash -c 'FLAGS=($FLAGS_STRING); compile "$@"' _ {}

# Only this target's objects (BUILD_DIR/obj also holds the other targets').
OBJECTS=()
for source in "${SOURCES[@]}"; do OBJECTS+=("$BUILD/obj/$(echo "$source" | tr '/' '_').o"); done
$CXX "${FLAGS[@]}" -fsanitize=fuzzer "$ROOT/tests/fuzz/${TARGET}_fuzzer.cc" "$BUILD/clang_compat.cc" \
  "${OBJECTS[@]}" \
  -lzstd -llz4 -lbrotlienc -lbrotlidec -lsnappy -lz -lutf8proc -lsqlite3 -lxxhash -lpthread \
  -o "$BUILD/${TARGET}_fuzzer"

cd "$BUILD"
# -malloc_limit_mb: a single allocation past this is a finding (inputs are at most 64 KiB).
exec "./${TARGET}_fuzzer" -max_total_time="$SECONDS_TO_RUN" -max_len="$MAX_LEN" -timeout=30 \
  -rss_limit_mb=3072 -malloc_limit_mb=512 -print_final_stats=1 \
  "$CORPUS" "$ROOT/tests/fuzz/$CORPUS"
