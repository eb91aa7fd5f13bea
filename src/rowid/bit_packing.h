// Fixed-width bit packing, LSB-first: value i occupies bits [i*w, (i+1)*w) of the buffer, bit
// k of the buffer being bit (k % 8) of byte k / 8. Entry i is found by arithmetic alone, which
// is what lets a reader fetch single order entries of a sidecar.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "tarn/status.h"

namespace tarn::rowid_internal {

// The byte length of `count` values at `width` bits.
inline uint64_t PackedBytes(uint64_t count, int width) {
  return (count * static_cast<uint64_t>(width) + 7) / 8;
}

// Appends `values` packed at `width` (0..32) bits. A value that does not fit is Internal: a
// writer refuses rather than truncates.
Status PackBits(std::span<const uint32_t> values, int width, std::string* out);

// Value `index` of a packed buffer. REQUIRES: the buffer holds PackedBytes(index + 1, width)
// bytes (callers check once).
uint32_t UnpackAt(std::string_view packed, uint64_t index, int width);

// Unpacks `count` values. REQUIRES: packed.size() >= PackedBytes(count, width).
void UnpackAll(std::string_view packed, uint64_t count, int width, uint32_t* out);

}  // namespace tarn::rowid_internal
