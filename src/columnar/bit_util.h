// Bitmap helpers for the columnar kernels: LSB-first bitmaps as in the Arrow format.
// Little-endian hosts only (as is all of tarn's in-memory layout).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <cstring>

namespace tarn::internal {

// Number of set bits in bits [offset, offset + length).
inline int64_t CountSetBits(const uint8_t* bits, int64_t offset, int64_t length) {
  int64_t count = 0;
  int64_t pos = offset;
  const int64_t end = offset + length;
  while (pos < end && (pos & 7) != 0) {
    count += (bits[pos >> 3] >> (pos & 7)) & 1;
    ++pos;
  }
  while (pos + 64 <= end) {
    uint64_t word;
    std::memcpy(&word, bits + (pos >> 3), 8);
    count += __builtin_popcountll(word);
    pos += 64;
  }
  while (pos < end) {
    count += (bits[pos >> 3] >> (pos & 7)) & 1;
    ++pos;
  }
  return count;
}

// Reads `count` (<= 64) bits starting at bit `offset`, reading no byte past the last one
// holding those bits.
inline uint64_t LoadBits(const uint8_t* bits, int64_t offset, int count) {
  const int shift = static_cast<int>(offset & 7);
  const int bytes = (shift + count + 7) / 8;  // at most 9
  unsigned __int128 window = 0;
  std::memcpy(&window, bits + (offset >> 3), static_cast<size_t>(bytes));
  uint64_t value = static_cast<uint64_t>(window >> shift);
  return count == 64 ? value : value & ((uint64_t{1} << count) - 1);
}

// ORs the low `count` (<= 64) bits of `value` into bits starting at bit `offset`.
inline void OrBits(uint8_t* bits, int64_t offset, uint64_t value, int count) {
  const int shift = static_cast<int>(offset & 7);
  const int bytes = (shift + count + 7) / 8;
  unsigned __int128 window = static_cast<unsigned __int128>(value) << shift;
  uint8_t* out = bits + (offset >> 3);
  for (int byte = 0; byte < bytes; ++byte) out[byte] |= static_cast<uint8_t>(window >> (8 * byte));
}

// Copies `count` bits from src[src_offset..] to dst[dst_offset..].
// REQUIRES: the destination bits are zero (freshly allocated buffers are).
inline void CopyBits(const uint8_t* src, int64_t src_offset, uint8_t* dst, int64_t dst_offset,
                     int64_t count) {
  if ((src_offset & 7) == 0 && (dst_offset & 7) == 0) {
    std::memcpy(dst + (dst_offset >> 3), src + (src_offset >> 3), static_cast<size_t>(count >> 3));
    int64_t done = count & ~int64_t{7};
    if (done < count) {
      OrBits(dst, dst_offset + done, LoadBits(src, src_offset + done, static_cast<int>(count - done)),
             static_cast<int>(count - done));
    }
    return;
  }
  int64_t done = 0;
  while (done < count) {
    int chunk = static_cast<int>(count - done < 64 ? count - done : 64);
    OrBits(dst, dst_offset + done, LoadBits(src, src_offset + done, chunk), chunk);
    done += chunk;
  }
}

// Sets bits [offset, offset + count).
inline void SetBitRange(uint8_t* bits, int64_t offset, int64_t count) {
  int64_t pos = offset;
  const int64_t end = offset + count;
  while (pos < end && (pos & 7) != 0) {
    bits[pos >> 3] |= static_cast<uint8_t>(1u << (pos & 7));
    ++pos;
  }
  if (end - pos >= 8) {
    std::memset(bits + (pos >> 3), 0xFF, static_cast<size_t>((end - pos) >> 3));
    pos += (end - pos) & ~int64_t{7};
  }
  while (pos < end) {
    bits[pos >> 3] |= static_cast<uint8_t>(1u << (pos & 7));
    ++pos;
  }
}

}  // namespace tarn::internal
