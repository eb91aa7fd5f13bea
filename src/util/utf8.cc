#include "util/utf8.h"

#include <cstring>

namespace tarn {

bool IsValidUtf8(const uint8_t* bytes, int64_t size) {
  int64_t pos = 0;
  while (pos < size) {
    if (pos + 8 <= size) {
      uint64_t word;
      std::memcpy(&word, bytes + pos, 8);
      if ((word & 0x8080808080808080ULL) == 0) {
        pos += 8;
        continue;
      }
    }
    const uint8_t lead = bytes[pos];
    if (lead < 0x80) {
      ++pos;
      continue;
    }
    int extra;
    uint32_t code_point;
    if ((lead & 0xE0) == 0xC0) {
      extra = 1;
      code_point = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
      extra = 2;
      code_point = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
      extra = 3;
      code_point = lead & 0x07;
    } else {
      return false;
    }
    if (size - pos <= extra) return false;
    for (int i = 1; i <= extra; ++i) {
      const uint8_t next = bytes[pos + i];
      if ((next & 0xC0) != 0x80) return false;
      code_point = (code_point << 6) | (next & 0x3F);
    }
    static constexpr uint32_t kMinForLength[4] = {0, 0x80, 0x800, 0x10000};
    if (code_point < kMinForLength[extra] || code_point > 0x10FFFF ||
        (code_point >= 0xD800 && code_point <= 0xDFFF)) {
      return false;
    }
    pos += extra + 1;
  }
  return true;
}

bool IsAscii(const uint8_t* bytes, int64_t size) {
  uint64_t seen = 0;
  int64_t pos = 0;
  for (; pos + 32 <= size; pos += 32) {
    uint64_t words[4];
    std::memcpy(words, bytes + pos, 32);
    seen |= words[0] | words[1] | words[2] | words[3];
  }
  for (; pos < size; ++pos) seen |= bytes[pos];
  return (seen & 0x8080808080808080ULL) == 0;
}

}  // namespace tarn
