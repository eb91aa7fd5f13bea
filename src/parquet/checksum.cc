#include "parquet/checksum.h"

#include <zlib.h>

#include <climits>
#include <cstdio>

namespace tarn::parquet {

uint32_t ExtendCrc32(uint32_t crc, std::string_view bytes) {
  uLong state = crc;
  const auto* data = reinterpret_cast<const Bytef*>(bytes.data());
  size_t left = bytes.size();
  while (left > 0) {  // zlib takes uInt lengths
    const size_t n = left > UINT_MAX ? UINT_MAX : left;
    state = crc32(state, data, static_cast<uInt>(n));
    data += n;
    left -= n;
  }
  return static_cast<uint32_t>(state);
}

std::string Hex32(uint32_t value) {
  char text[11];
  std::snprintf(text, sizeof text, "0x%08x", value);
  return text;
}

}  // namespace tarn::parquet
