// libFuzzer target over tarn's SQL lexer, statement parser and expression parser and binder
// (see sql_fuzz_entry.h). Built and run by `scripts/fuzz.sh SECONDS BUILD_DIR sql`; not part
// of the normal build.
#include <cstddef>
#include <cstdint>

#include "sql_fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tarn::fuzz::FuzzSqlText(data, size);
}
