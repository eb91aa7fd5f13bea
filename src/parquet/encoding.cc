#include "parquet/encoding.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <utility>

namespace tarn::parquet {

int BitWidth(uint64_t max_value) {
  int width = 0;
  while (max_value != 0) {
    ++width;
    max_value >>= 1;
  }
  return width;
}

namespace {

// Unpacks `groups` groups of 8 values of W bits (W bytes each) from `in`, of which
// `readable` bytes may be read: at least every group's first byte; a last group cut short
// reads its missing bits as zeros. Each value comes from an 8-byte window at its first byte;
// groups whose windows stay within `readable` are read in place, the others through a
// zero-padded copy.
template <int W>
void UnpackGroups(const uint8_t* in, int64_t groups, int64_t readable, uint32_t* out) {
  if constexpr (W == 0) {
    std::memset(out, 0, static_cast<size_t>(groups) * 8 * sizeof(uint32_t));
  } else {
    constexpr uint64_t kMask = (W == 32) ? 0xFFFFFFFFull : ((1ull << W) - 1);
    constexpr int64_t kWindowEnd = (7 * W) / 8 + 8;  // the last value's window end
    auto unpack8 = [](const uint8_t* group, uint32_t* values) {
      for (int i = 0; i < 8; ++i) {
        const int bit = i * W;
        uint64_t word;
        std::memcpy(&word, group + bit / 8, 8);
        values[i] = static_cast<uint32_t>((word >> (bit % 8)) & kMask);
      }
    };
    int64_t g = 0;
    for (; g < groups && g * W + kWindowEnd <= readable; ++g) unpack8(in + g * W, out + g * 8);
    for (; g < groups; ++g) {
      uint8_t padded[W + 8] = {};
      std::memcpy(padded, in + g * W, static_cast<size_t>(std::min<int64_t>(W, readable - g * W)));
      unpack8(padded, out + g * 8);
    }
  }
}

using UnpackFn = void (*)(const uint8_t*, int64_t, int64_t, uint32_t*);

template <size_t... Ws>
constexpr std::array<UnpackFn, sizeof...(Ws)> MakeUnpackTable(std::index_sequence<Ws...>) {
  return {&UnpackGroups<static_cast<int>(Ws)>...};
}

constexpr auto kUnpackTable = MakeUnpackTable(std::make_index_sequence<33>());

Status StreamEnded(const char* what, int64_t pos, int64_t size) {
  return Status::Corruption("RLE/bit-packed stream: ", what, " at byte ", pos, " of ", size);
}

}  // namespace

void UnpackBits(const uint8_t* in, int bit_width, int64_t count, uint32_t* out) {
  kUnpackTable[bit_width](in, count / 8, count / 8 * bit_width, out);
}

RleBitPackedDecoder::RleBitPackedDecoder(const uint8_t* data, int64_t size, int bit_width)
    : data_(data), size_(size), bit_width_(bit_width) {
  if (bit_width < 0 || bit_width > 32) {
    bad_width_ = true;
    bit_width_ = 0;
  }
}

Status RleBitPackedDecoder::NextRun() {
  if (bad_width_) return Status::Corruption("RLE/bit-packed stream: bit width over 32");
  if (broken_) return StreamEnded("malformed run header", pos_, size_);
  // ULEB128 run header.
  uint64_t header = 0;
  int shift = 0;
  while (true) {
    if (pos_ >= size_) return StreamEnded("stream ended in a run header", pos_, size_);
    const uint8_t byte = data_[pos_++];
    header |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) break;
    shift += 7;
    if (shift > 35) return StreamEnded("run header over 5 bytes", pos_, size_);
  }
  if (header & 1) {
    const int64_t groups = static_cast<int64_t>(header >> 1);
    if (groups == 0) return StreamEnded("empty bit-packed run", pos_, size_);
    const int64_t available = size_ - pos_;
    int64_t values = groups * 8;
    int64_t bytes = groups * bit_width_;
    if (bytes > available) {
      // Writers may cut the last run short; keep only the values whose bits are present.
      values = bit_width_ == 0 ? values : available * 8 / bit_width_;
      bytes = available;
      if (values == 0) return StreamEnded("bit-packed run past the end", pos_, size_);
    }
    literal_left_ = values;
    literal_bit_pos_ = pos_ * 8;
    group_pos_ = 8;
    pos_ += bytes;
  } else {
    const int64_t count = static_cast<int64_t>(header >> 1);
    if (count == 0) return StreamEnded("empty RLE run", pos_, size_);
    const int value_bytes = (bit_width_ + 7) / 8;
    if (size_ - pos_ < value_bytes) return StreamEnded("RLE run value past the end", pos_, size_);
    uint32_t value = 0;
    for (int i = 0; i < value_bytes; ++i) value |= static_cast<uint32_t>(data_[pos_ + i]) << (8 * i);
    pos_ += value_bytes;
    if (bit_width_ < 32 && (value >> bit_width_) != 0) {
      return StreamEnded("RLE run value wider than the bit width", pos_, size_);
    }
    repeat_left_ = count;
    repeat_value_ = value;
  }
  return Status::OK();
}

template <typename T>
int64_t RleBitPackedDecoder::ReadLiterals(T* out, int64_t count) {
  const int64_t want = std::min(count, literal_left_);
  int64_t done = 0;
  // Values already unpacked from a partly consumed group.
  while (group_pos_ < 8 && done < want) out[done++] = static_cast<T>(group_[group_pos_++]);
  // The stream's bytes past the run (the next headers) may be read: their bits are masked off.
  const UnpackFn unpack = kUnpackTable[bit_width_];
  while (done < want) {
    const int64_t byte_pos = literal_bit_pos_ / 8;
    int64_t groups = (want - done) / 8;
    if (groups == 0) {  // a part of the next group: keep the rest for the next call
      unpack(data_ + byte_pos, 1, size_ - byte_pos, group_);
      literal_bit_pos_ += 8 * bit_width_;
      group_pos_ = 0;
      while (done < want) out[done++] = static_cast<T>(group_[group_pos_++]);
      break;
    }
    if constexpr (sizeof(T) == sizeof(uint32_t)) {
      unpack(data_ + byte_pos, groups, size_ - byte_pos, reinterpret_cast<uint32_t*>(out + done));
    } else {
      constexpr int64_t kGroups = 32;
      uint32_t values[kGroups * 8];
      groups = std::min(groups, kGroups);
      unpack(data_ + byte_pos, groups, size_ - byte_pos, values);
      for (int64_t i = 0; i < groups * 8; ++i) out[done + i] = static_cast<T>(values[i]);
    }
    literal_bit_pos_ += groups * 8 * bit_width_;
    done += groups * 8;
  }
  literal_left_ -= want;
  return want;
}

template <typename T>
Status RleBitPackedDecoder::Decode(T* out, int64_t count) {
  int64_t done = 0;
  while (done < count) {
    if (repeat_left_ > 0) {
      const int64_t n = std::min(count - done, repeat_left_);
      std::fill(out + done, out + done + n, static_cast<T>(repeat_value_));
      repeat_left_ -= n;
      done += n;
    } else if (literal_left_ > 0) {
      done += ReadLiterals(out + done, count - done);
    } else {
      TARN_RETURN_NOT_OK(NextRun());
    }
  }
  return Status::OK();
}

Status RleBitPackedDecoder::GetBatch(uint32_t* out, int64_t count) { return Decode(out, count); }

Status RleBitPackedDecoder::GetLevels(int16_t* out, int64_t count) {
  if (bit_width_ > 16) return Status::Corruption("level bit width ", bit_width_, " over 16");
  return Decode(out, count);
}

Status RleBitPackedDecoder::Skip(int64_t count) {
  while (count > 0) {
    if (repeat_left_ > 0) {
      const int64_t n = std::min(count, repeat_left_);
      repeat_left_ -= n;
      count -= n;
    } else if (literal_left_ > 0) {
      // Drop buffered values, then whole groups by arithmetic.
      int64_t n = std::min(count, literal_left_);
      int64_t dropped = 0;
      while (group_pos_ < 8 && dropped < n) {
        ++group_pos_;
        ++dropped;
      }
      const int64_t groups = (n - dropped) / 8;
      literal_bit_pos_ += groups * 8 * bit_width_;
      dropped += groups * 8;
      literal_left_ -= dropped;
      count -= dropped;
      if (dropped < n) {
        uint32_t sink[8];
        const int64_t rest = n - dropped;
        ReadLiterals(sink, rest);
        count -= rest;
      }
    } else {
      TARN_RETURN_NOT_OK(NextRun());
    }
  }
  return Status::OK();
}

bool RleBitPackedDecoder::PeekRun(int64_t count, uint32_t* value) {
  if (repeat_left_ == 0 && literal_left_ == 0 && pos_ < size_) {
    if (!NextRun().ok()) {
      broken_ = true;  // the next Decode reports the error
      return false;
    }
  }
  if (repeat_left_ >= count) {
    *value = repeat_value_;
    return true;
  }
  return false;
}

Status DecodeBitPackedLevels(const uint8_t* data, int64_t size, int bit_width, int64_t count,
                             int16_t* out) {
  if (bit_width < 0 || bit_width > 16) {
    return Status::Corruption("BIT_PACKED levels: bit width ", bit_width, " over 16");
  }
  if (count < 0 || (count * bit_width + 7) / 8 > size) {
    return Status::Corruption("BIT_PACKED levels: ", count, " levels of ", bit_width,
                              " bits need more than the ", size, " bytes present");
  }
  int64_t bit = 0;
  for (int64_t i = 0; i < count; ++i) {
    uint32_t value = 0;
    for (int b = 0; b < bit_width; ++b, ++bit) {
      const int v = (data[bit >> 3] >> (7 - (bit & 7))) & 1;  // MSB first
      value = (value << 1) | static_cast<uint32_t>(v);
    }
    out[i] = static_cast<int16_t>(value);
  }
  return Status::OK();
}

Status DecodePlainFixed(const uint8_t* data, int64_t size, int64_t* pos, int width, int64_t count,
                        uint8_t* out) {
  if (width <= 0 || count < 0 || *pos < 0 || *pos > size ||
      count > (size - *pos) / width) {
    return Status::Corruption("PLAIN: ", count, " values of ", width, " bytes at offset ", *pos,
                              " run past the ", size, "-byte page");
  }
  const int64_t bytes = count * width;
  if (bytes > 0) std::memcpy(out, data + *pos, static_cast<size_t>(bytes));
  *pos += bytes;
  return Status::OK();
}

Status DecodePlainBooleans(const uint8_t* data, int64_t size, int64_t* bit_pos, int64_t count,
                           uint8_t* out_bitmap, int64_t out_offset) {
  if (count < 0 || *bit_pos < 0 || (*bit_pos + count + 7) / 8 > size) {
    return Status::Corruption("PLAIN booleans: ", count, " values at bit ", *bit_pos,
                              " run past the ", size, "-byte page");
  }
  int64_t src = *bit_pos;
  for (int64_t i = 0; i < count; ++i, ++src) {
    const int64_t dst = out_offset + i;
    if ((data[src >> 3] >> (src & 7)) & 1) {
      out_bitmap[dst >> 3] |= static_cast<uint8_t>(1u << (dst & 7));
    } else {
      out_bitmap[dst >> 3] &= static_cast<uint8_t>(~(1u << (dst & 7)));
    }
  }
  *bit_pos = src;
  return Status::OK();
}

Status DecodePlainByteArrays(const uint8_t* data, int64_t size, int64_t* pos, int64_t count,
                             int64_t* offsets_out, std::string* bytes_out) {
  int64_t p = *pos;
  for (int64_t i = 0; i < count; ++i) {
    if (size - p < 4) {
      return Status::Corruption("PLAIN byte array: length prefix past the end at offset ", p);
    }
    uint32_t length;
    std::memcpy(&length, data + p, 4);
    p += 4;
    if (static_cast<int64_t>(length) > size - p) {
      return Status::Corruption("PLAIN byte array: length ", length, " at offset ", p - 4,
                                " runs past the ", size, "-byte page");
    }
    bytes_out->append(reinterpret_cast<const char*>(data + p), length);
    p += length;
    offsets_out[i] = static_cast<int64_t>(bytes_out->size());
  }
  *pos = p;
  return Status::OK();
}

Status SkipPlainByteArrays(const uint8_t* data, int64_t size, int64_t* pos, int64_t count) {
  int64_t p = *pos;
  for (int64_t i = 0; i < count; ++i) {
    if (size - p < 4) {
      return Status::Corruption("PLAIN byte array: length prefix past the end at offset ", p);
    }
    uint32_t length;
    std::memcpy(&length, data + p, 4);
    p += 4;
    if (static_cast<int64_t>(length) > size - p) {
      return Status::Corruption("PLAIN byte array: length ", length, " at offset ", p - 4,
                                " runs past the ", size, "-byte page");
    }
    p += length;
  }
  *pos = p;
  return Status::OK();
}

float HalfToFloat(uint16_t half) {
  const uint32_t sign = static_cast<uint32_t>(half & 0x8000) << 16;
  const int exponent = (half >> 10) & 0x1F;
  uint32_t mantissa = half & 0x3FF;
  uint32_t bits;
  if (exponent == 0x1F) {
    bits = sign | 0x7F800000u | (mantissa << 13);  // inf or NaN
  } else if (exponent != 0) {
    bits = sign | (static_cast<uint32_t>(exponent + 112) << 23) | (mantissa << 13);
  } else if (mantissa == 0) {
    bits = sign;  // signed zero
  } else {
    // Subnormal half: normalize.
    int shift = 0;
    while ((mantissa & 0x400) == 0) {
      mantissa <<= 1;
      ++shift;
    }
    mantissa &= 0x3FF;
    bits = sign | (static_cast<uint32_t>(113 - shift) << 23) | (mantissa << 13);
  }
  float out;
  std::memcpy(&out, &bits, sizeof(out));
  return out;
}

__int128 BigEndianToInt128(const uint8_t* bytes, int size) {
  if (size <= 0) return 0;
  uint8_t buffer[16];
  const int kept = size < 16 ? size : 16;  // past 16 bytes, the low 16 (as a shift would)
  std::memset(buffer, (bytes[0] & 0x80) ? 0xFF : 0, static_cast<size_t>(16 - kept));
  std::memcpy(buffer + 16 - kept, bytes + (size - kept), static_cast<size_t>(kept));
  return Int128FromBigEndian16(buffer);
}

int64_t Int96ToMicros(const uint8_t* bytes) {
  constexpr int64_t kJulianEpochDay = 2440588;  // 1970-01-01
  constexpr int64_t kMicrosPerDay = 86400LL * 1000000;
  uint64_t nanos;
  uint32_t julian_day;
  std::memcpy(&nanos, bytes, 8);
  std::memcpy(&julian_day, bytes + 8, 4);
  const int64_t days = static_cast<int64_t>(julian_day) - kJulianEpochDay;
  // Unsigned arithmetic: hostile values wrap instead of overflowing.
  return static_cast<int64_t>(static_cast<uint64_t>(days) * kMicrosPerDay +
                              static_cast<uint64_t>(static_cast<int64_t>(nanos) / 1000));
}

}  // namespace tarn::parquet
