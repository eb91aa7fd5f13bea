#include "parquet/delta_encoder.h"

#include <algorithm>
#include <cstring>
#include <type_traits>
#include <vector>

namespace tarn::parquet {

namespace {

constexpr int64_t kBlockValues = 128;
constexpr int64_t kMiniblocks = 4;
constexpr int64_t kMiniblockValues = kBlockValues / kMiniblocks;  // 32

void PutUleb(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

void PutZigZag(int64_t value, std::string* out) {
  PutUleb((static_cast<uint64_t>(value) << 1) ^ static_cast<uint64_t>(value >> 63), out);
}

int BitsOf(uint64_t value) { return value == 0 ? 0 : 64 - __builtin_clzll(value); }

// Appends 32 values of `width` bits, LSB first (4 * width bytes).
template <typename U>
void PackMiniblock(const U* values, int width, std::string* out) {
  const size_t start = out->size();
  out->resize(start + static_cast<size_t>(4 * width), '\0');
  if (width == 0) return;
  auto* dst = reinterpret_cast<uint8_t*>(out->data() + start);
  unsigned __int128 buffer = 0;
  int bits = 0;
  for (int i = 0; i < 32; ++i) {
    buffer |= static_cast<unsigned __int128>(values[i]) << bits;
    bits += width;
    while (bits >= 8) {
      *dst++ = static_cast<uint8_t>(buffer);
      buffer >>= 8;
      bits -= 8;
    }
  }
}

// S is the column's signed type; U its unsigned twin, in which deltas wrap.
template <typename S>
void EncodeDelta(const S* values, int64_t count, std::string* out) {
  using U = std::make_unsigned_t<S>;
  PutUleb(kBlockValues, out);
  PutUleb(kMiniblocks, out);
  PutUleb(static_cast<uint64_t>(count), out);
  PutZigZag(count > 0 ? static_cast<int64_t>(values[0]) : 0, out);
  U deltas[kBlockValues];
  for (int64_t block_start = 1; block_start < count; block_start += kBlockValues) {
    const int64_t n = std::min(kBlockValues, count - block_start);
    S min_delta = 0;
    for (int64_t i = 0; i < n; ++i) {
      const U delta = static_cast<U>(static_cast<U>(values[block_start + i]) -
                                     static_cast<U>(values[block_start + i - 1]));
      deltas[i] = delta;
      const S signed_delta = static_cast<S>(delta);
      if (i == 0 || signed_delta < min_delta) min_delta = signed_delta;
    }
    for (int64_t i = 0; i < n; ++i) deltas[i] = static_cast<U>(deltas[i] - static_cast<U>(min_delta));
    std::fill(deltas + n, deltas + kBlockValues, U{0});
    PutZigZag(static_cast<int64_t>(min_delta), out);
    const int64_t used = (n + kMiniblockValues - 1) / kMiniblockValues;
    int widths[kMiniblocks] = {};
    for (int64_t m = 0; m < used; ++m) {
      U highest = 0;
      for (int64_t i = 0; i < kMiniblockValues; ++i) highest |= deltas[m * kMiniblockValues + i];
      widths[m] = BitsOf(static_cast<uint64_t>(highest));
    }
    for (int64_t m = 0; m < kMiniblocks; ++m) out->push_back(static_cast<char>(widths[m]));
    for (int64_t m = 0; m < used; ++m) {
      PackMiniblock(deltas + m * kMiniblockValues, widths[m], out);
    }
  }
}

}  // namespace

void EncodeDeltaBinaryPacked(const int32_t* values, int64_t count, std::string* out) {
  EncodeDelta(values, count, out);
}

void EncodeDeltaBinaryPacked(const int64_t* values, int64_t count, std::string* out) {
  EncodeDelta(values, count, out);
}

void EncodeDeltaLengthByteArray(const std::string_view* values, int64_t count, std::string* out) {
  std::vector<int32_t> lengths(static_cast<size_t>(count));
  size_t total = 0;
  for (int64_t i = 0; i < count; ++i) {
    lengths[static_cast<size_t>(i)] = static_cast<int32_t>(values[i].size());
    total += values[i].size();
  }
  EncodeDelta(lengths.data(), count, out);
  out->reserve(out->size() + total);
  for (int64_t i = 0; i < count; ++i) out->append(values[i]);
}

void EncodeDeltaByteArray(const std::string_view* values, int64_t count, std::string* out) {
  std::vector<int32_t> prefixes(static_cast<size_t>(count));
  std::vector<std::string_view> suffixes(static_cast<size_t>(count));
  std::string_view previous;
  for (int64_t i = 0; i < count; ++i) {
    const std::string_view value = values[i];
    const size_t limit = std::min(previous.size(), value.size());
    size_t prefix = 0;
    while (prefix < limit && previous[prefix] == value[prefix]) ++prefix;
    prefixes[static_cast<size_t>(i)] = static_cast<int32_t>(prefix);
    suffixes[static_cast<size_t>(i)] = value.substr(prefix);
    previous = value;
  }
  EncodeDelta(prefixes.data(), count, out);
  EncodeDeltaLengthByteArray(suffixes.data(), count, out);
}

}  // namespace tarn::parquet
