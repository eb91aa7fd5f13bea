// libFuzzer target over tarn's .rowsum decoding (see rowsum_fuzz_entry.h for what the bytes
// mean). Built and run by scripts/fuzz.sh; not part of the normal build.
#include <cstddef>
#include <cstdint>

#include "rowsum_fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tarn::fuzz::FuzzRowsumBytes(data, size);
}
