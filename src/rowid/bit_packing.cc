#include "rowid/bit_packing.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "tarn/rowid.h"

namespace tarn {

int BitsFor(uint64_t max_value) { return max_value == 0 ? 0 : std::bit_width(max_value); }

namespace rowid_internal {

Status PackBits(std::span<const uint32_t> values, int width, std::string* out) {
  if (width < 0 || width > 32) return Status::Internal("bit width ", width, " out of 0..32");
  const uint64_t limit = width == 32 ? (1ULL << 32) : (1ULL << width);
  const size_t start = out->size();
  out->resize(start + PackedBytes(values.size(), width), '\0');
  if (width == 0) {
    for (size_t i = 0; i < values.size(); ++i) {
      if (values[i] != 0) return Status::Internal("value ", values[i], " at ", i, " needs > 0 bits");
    }
    return Status::OK();
  }
  uint8_t* dst = reinterpret_cast<uint8_t*>(out->data() + start);
  uint64_t acc = 0;
  int acc_bits = 0;
  size_t byte = 0;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i] >= limit) {
      out->resize(start);
      return Status::Internal("value ", values[i], " at index ", i, " does not fit in ", width,
                              " bits");
    }
    acc |= static_cast<uint64_t>(values[i]) << acc_bits;
    acc_bits += width;
    while (acc_bits >= 8) {
      dst[byte++] = static_cast<uint8_t>(acc);
      acc >>= 8;
      acc_bits -= 8;
    }
  }
  if (acc_bits > 0) dst[byte++] = static_cast<uint8_t>(acc);
  return Status::OK();
}

uint32_t UnpackAt(std::string_view packed, uint64_t index, int width) {
  if (width == 0) return 0;
  const uint64_t bit = index * static_cast<uint64_t>(width);
  const uint64_t first = bit / 8;
  const uint64_t last = (bit + width + 7) / 8;  // exclusive
  uint64_t acc = 0;
  for (uint64_t b = first; b < last; ++b) {
    acc |= static_cast<uint64_t>(static_cast<uint8_t>(packed[b])) << (8 * (b - first));
  }
  acc >>= (bit % 8);
  return static_cast<uint32_t>(acc & ((1ULL << width) - 1));
}

void UnpackAll(std::string_view packed, uint64_t count, int width, uint32_t* out) {
  if (width == 0) {
    for (uint64_t i = 0; i < count; ++i) out[i] = 0;
    return;
  }
  // One unaligned 8-byte load per value (width <= 32 and a shift <= 7 fit in 64 bits); the
  // last values, near the end of the buffer, load what remains.
  const char* src = packed.data();
  const uint64_t size = packed.size();
  const uint64_t mask = (1ULL << width) - 1;
  const uint64_t w = static_cast<uint64_t>(width);
  // Values whose 8-byte load stays inside the buffer: a fixed-size load the compiler turns
  // into one move.
  const uint64_t fast = size >= 8 ? std::min<uint64_t>(count, ((size - 8) * 8) / w + 1) : 0;
  uint64_t bit = 0;
  for (uint64_t i = 0; i < fast; ++i, bit += w) {
    uint64_t word;
    std::memcpy(&word, src + (bit >> 3), 8);
    out[i] = static_cast<uint32_t>((word >> (bit & 7)) & mask);
  }
  for (uint64_t i = fast; i < count; ++i, bit += w) {
    const uint64_t byte = bit >> 3;
    uint64_t word = 0;
    std::memcpy(&word, src + byte, std::min<uint64_t>(8, size - byte));
    out[i] = static_cast<uint32_t>((word >> (bit & 7)) & mask);
  }
}

}  // namespace rowid_internal
}  // namespace tarn
