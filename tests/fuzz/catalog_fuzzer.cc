// libFuzzer target over the catalog loader (see catalog_fuzz_entry.h for what the bytes mean).
// Built and run by scripts/fuzz.sh catalog; not part of the normal build. Needs the fixture
// lakes: TARN_SHARED_DIR names the shared folder (default ../shared).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "catalog_fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string shared_dir =
      std::getenv("TARN_SHARED_DIR") != nullptr ? std::getenv("TARN_SHARED_DIR") : "../shared";
  return tarn::fuzz::FuzzCatalogBytes(data, size, shared_dir);
}
