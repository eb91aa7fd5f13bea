#include "parquet/encoder.h"

#include <algorithm>

namespace tarn::parquet {

namespace {

void PutVarint(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

// Appends one RLE run: header, then the value in ceil(bit_width / 8) little-endian bytes.
void PutRleRun(uint32_t value, int64_t run_length, int bit_width, std::string* out) {
  PutVarint(static_cast<uint64_t>(run_length) << 1, out);
  int value_bytes = (bit_width + 7) / 8;
  for (int byte_idx = 0; byte_idx < value_bytes; ++byte_idx) {
    out->push_back(static_cast<char>((value >> (8 * byte_idx)) & 0xFF));
  }
}

// Appends one bit-packed run of `count` values (a multiple of 8, except at the end of the
// stream where the last group is zero-padded).
template <typename T>
void PutBitPackedRun(const T* values, int64_t count, int bit_width, std::string* out) {
  int64_t groups = (count + 7) / 8;
  PutVarint((static_cast<uint64_t>(groups) << 1) | 1, out);
  size_t start = out->size();
  out->resize(start + static_cast<size_t>(groups * bit_width));
  uint8_t* dst = reinterpret_cast<uint8_t*>(out->data() + start);
  uint64_t buffer = 0;
  int buffered_bits = 0;
  for (int64_t value_idx = 0; value_idx < groups * 8; ++value_idx) {
    uint64_t value = value_idx < count ? static_cast<uint64_t>(static_cast<uint32_t>(values[value_idx])) : 0;
    buffer |= value << buffered_bits;
    buffered_bits += bit_width;
    while (buffered_bits >= 8) {
      *dst++ = static_cast<uint8_t>(buffer);
      buffer >>= 8;
      buffered_bits -= 8;
    }
  }
}

template <typename T>
void EncodeHybrid(const T* values, int64_t count, int bit_width, std::string* out) {
  if (count == 0) return;
  if (bit_width == 0) {
    PutRleRun(0, count, 0, out);
    return;
  }
  // Values [literal_start, pos) wait to be bit-packed; their count is kept a multiple of 8
  // before any RLE run is emitted after them.
  int64_t literal_start = 0;
  int64_t pos = 0;
  while (pos < count) {
    T value = values[pos];
    int64_t run_end = pos + 1;
    while (run_end < count && values[run_end] == value) ++run_end;
    int64_t run_length = run_end - pos;
    if (run_length < 8) {
      pos = run_end;
      continue;
    }
    // Lend the run's first values to the pending literals until they fill whole groups.
    int64_t pending = pos - literal_start;
    int64_t pad = (8 - pending % 8) % 8;
    if (run_length - pad < 8) {
      pos = run_end;
      continue;
    }
    if (pending + pad > 0) PutBitPackedRun(values + literal_start, pending + pad, bit_width, out);
    PutRleRun(static_cast<uint32_t>(value), run_length - pad, bit_width, out);
    pos = run_end;
    literal_start = run_end;
  }
  if (literal_start < count) {
    PutBitPackedRun(values + literal_start, count - literal_start, bit_width, out);
  }
}

}  // namespace

void EncodeRleBitPacked(const uint32_t* values, int64_t count, int bit_width, std::string* out) {
  EncodeHybrid(values, count, bit_width, out);
}

void EncodeRleBitPackedLevels(const int16_t* levels, int64_t count, int bit_width,
                              std::string* out) {
  EncodeHybrid(levels, count, bit_width, out);
}

void EncodeLengthPrefixedLevels(const int16_t* levels, int64_t count, int bit_width,
                                std::string* out) {
  size_t length_pos = out->size();
  out->append(4, '\0');
  EncodeHybrid(levels, count, bit_width, out);
  uint32_t length = static_cast<uint32_t>(out->size() - length_pos - 4);
  std::memcpy(out->data() + length_pos, &length, 4);
}

void EncodePlainBooleans(const uint8_t* values, int64_t count, std::string* out) {
  size_t start = out->size();
  out->resize(start + static_cast<size_t>((count + 7) / 8), '\0');
  uint8_t* dst = reinterpret_cast<uint8_t*>(out->data() + start);
  for (int64_t value_idx = 0; value_idx < count; ++value_idx) {
    dst[value_idx >> 3] |= static_cast<uint8_t>((values[value_idx] & 1) << (value_idx & 7));
  }
}

void EncodePlainByteArrays(const std::string_view* values, int64_t count, std::string* out) {
  size_t total = 0;
  for (int64_t value_idx = 0; value_idx < count; ++value_idx) total += 4 + values[value_idx].size();
  size_t start = out->size();
  out->resize(start + total);
  char* dst = out->data() + start;
  for (int64_t value_idx = 0; value_idx < count; ++value_idx) {
    uint32_t length = static_cast<uint32_t>(values[value_idx].size());
    std::memcpy(dst, &length, 4);
    if (length != 0) std::memcpy(dst + 4, values[value_idx].data(), length);
    dst += 4 + length;
  }
}

void EncodePlainFixedLenByteArrays(const std::string_view* values, int64_t count,
                                   std::string* out) {
  for (int64_t value_idx = 0; value_idx < count; ++value_idx) {
    out->append(values[value_idx].data(), values[value_idx].size());
  }
}

uint64_t HashBytes(std::string_view bytes) {
  // 8 bytes at a time, each word mixed into the state; the length seeds the state so that
  // zero-padded tails of different lengths differ.
  uint64_t state = 0x9E3779B97F4A7C15ULL ^ (bytes.size() * 0xC2B2AE3D27D4EB4FULL);
  const char* data = bytes.data();
  size_t remaining = bytes.size();
  while (remaining >= 8) {
    uint64_t word;
    std::memcpy(&word, data, 8);
    state = (state ^ MixHash64(word)) * 0x9FB21C651E98DF25ULL;
    data += 8;
    remaining -= 8;
  }
  if (remaining > 0) {
    uint64_t word = 0;
    std::memcpy(&word, data, remaining);
    state = (state ^ MixHash64(word)) * 0x9FB21C651E98DF25ULL;
  }
  return MixHash64(state);
}

}  // namespace tarn::parquet
