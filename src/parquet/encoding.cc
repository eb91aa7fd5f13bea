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

// Unpacks one group of 8 values of W bits (W bytes of input). The group is copied into a
// zero-padded local first so that the 8-byte window loads never touch memory past the group.
template <int W>
void Unpack8(const uint8_t* in, uint32_t* out) {
  if constexpr (W == 0) {
    for (int i = 0; i < 8; ++i) out[i] = 0;
  } else {
    uint8_t buf[W + 8];
    std::memcpy(buf, in, W);
    std::memset(buf + W, 0, 8);
    constexpr uint64_t kMask = (W == 32) ? 0xFFFFFFFFull : ((1ull << W) - 1);
    for (int i = 0; i < 8; ++i) {
      const int bit = i * W;
      uint64_t word;
      std::memcpy(&word, buf + bit / 8, 8);
      out[i] = static_cast<uint32_t>((word >> (bit % 8)) & kMask);
    }
  }
}

using Unpack8Fn = void (*)(const uint8_t*, uint32_t*);

template <size_t... Ws>
constexpr std::array<Unpack8Fn, sizeof...(Ws)> MakeUnpackTable(std::index_sequence<Ws...>) {
  return {&Unpack8<static_cast<int>(Ws)>...};
}

constexpr auto kUnpackTable = MakeUnpackTable(std::make_index_sequence<33>());

Status StreamEnded(const char* what, int64_t pos, int64_t size) {
  return Status::Corruption("RLE/bit-packed stream: ", what, " at byte ", pos, " of ", size);
}

}  // namespace

void UnpackBits(const uint8_t* in, int bit_width, int64_t count, uint32_t* out) {
  const Unpack8Fn fn = kUnpackTable[bit_width];
  for (int64_t group = 0; group < count / 8; ++group) {
    fn(in + group * bit_width, out + group * 8);
  }
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
  const int64_t end_byte = pos_;  // the run's bytes end where the next header starts
  while (done < want) {
    const int64_t byte_pos = literal_bit_pos_ / 8;
    const Unpack8Fn fn = kUnpackTable[bit_width_];
    const uint8_t* src = data_ + byte_pos;
    uint8_t padded[32] = {};
    if (end_byte - byte_pos < bit_width_) {
      std::memcpy(padded, src, static_cast<size_t>(end_byte - byte_pos));
      src = padded;
    }
    literal_bit_pos_ += 8 * bit_width_;
    if (want - done >= 8) {
      if constexpr (sizeof(T) == sizeof(uint32_t)) {
        fn(src, reinterpret_cast<uint32_t*>(out + done));
      } else {
        uint32_t tmp[8];
        fn(src, tmp);
        for (int i = 0; i < 8; ++i) out[done + i] = static_cast<T>(tmp[i]);
      }
      done += 8;
    } else {
      fn(src, group_);
      group_pos_ = 0;
      while (done < want) out[done++] = static_cast<T>(group_[group_pos_++]);
    }
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
  unsigned __int128 value = (bytes[0] & 0x80) ? ~static_cast<unsigned __int128>(0) : 0;
  for (int i = 0; i < size; ++i) value = (value << 8) | bytes[i];
  return static_cast<__int128>(value);
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

// ---- typed value decoding -----------------------------------------------------------------

namespace tarn::parquet {

namespace {

template <typename T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

template <typename T>
void Store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof(T));
}

Status PlainOverrun(int64_t count, int width, int64_t pos, int64_t size) {
  return Status::Corruption("PLAIN: ", count, " values of ", width, " bytes at offset ", pos,
                            " run past the ", size, "-byte page");
}

// Converts `count` fixed-width physical values at `src` into `dst`.
void ConvertFixed(const ValueLayout& layout, const uint8_t* src, int64_t count, uint8_t* dst) {
  const int pw = layout.physical_width;
  switch (layout.kind) {
    case ValueKind::kCopy:
      std::memcpy(dst, src, static_cast<size_t>(count * pw));
      break;
    case ValueKind::kInt32ToInt8:
      for (int64_t i = 0; i < count; ++i) dst[i] = static_cast<uint8_t>(Load<int32_t>(src + 4 * i));
      break;
    case ValueKind::kInt32ToInt16:
      for (int64_t i = 0; i < count; ++i) {
        Store<int16_t>(dst + 2 * i, static_cast<int16_t>(Load<int32_t>(src + 4 * i)));
      }
      break;
    case ValueKind::kInt32ToInt64: {
      const int64_t factor = layout.factor;
      for (int64_t i = 0; i < count; ++i) {
        Store<int64_t>(dst + 8 * i, static_cast<int64_t>(Load<int32_t>(src + 4 * i)) * factor);
      }
      break;
    }
    case ValueKind::kInt64Multiply: {
      const uint64_t factor = static_cast<uint64_t>(layout.factor);
      for (int64_t i = 0; i < count; ++i) {
        // Unsigned: out-of-range values wrap rather than overflow.
        Store<int64_t>(dst + 8 * i,
                       static_cast<int64_t>(Load<uint64_t>(src + 8 * i) * factor));
      }
      break;
    }
    case ValueKind::kInt64Divide: {
      const int64_t factor = layout.factor;
      for (int64_t i = 0; i < count; ++i) {
        const int64_t v = Load<int64_t>(src + 8 * i);
        int64_t q = v / factor;
        if (v % factor < 0) --q;
        Store<int64_t>(dst + 8 * i, q);
      }
      break;
    }
    case ValueKind::kInt32ToInt128:
      for (int64_t i = 0; i < count; ++i) {
        Store<__int128>(dst + 16 * i, static_cast<__int128>(Load<int32_t>(src + 4 * i)));
      }
      break;
    case ValueKind::kInt64ToInt128:
      for (int64_t i = 0; i < count; ++i) {
        Store<__int128>(dst + 16 * i, static_cast<__int128>(Load<int64_t>(src + 8 * i)));
      }
      break;
    case ValueKind::kFlbaToInt128:
      for (int64_t i = 0; i < count; ++i) {
        Store<__int128>(dst + 16 * i, BigEndianToInt128(src + pw * i, pw));
      }
      break;
    case ValueKind::kInt96ToMicros:
      for (int64_t i = 0; i < count; ++i) Store<int64_t>(dst + 8 * i, Int96ToMicros(src + 12 * i));
      break;
    case ValueKind::kFloat16ToFloat:
      for (int64_t i = 0; i < count; ++i) {
        Store<float>(dst + 4 * i, HalfToFloat(Load<uint16_t>(src + 2 * i)));
      }
      break;
    case ValueKind::kIntervalToInterval:
      for (int64_t i = 0; i < count; ++i) {
        const uint8_t* s = src + 12 * i;
        Interval v;
        v.months = static_cast<int32_t>(Load<uint32_t>(s));
        v.days = static_cast<int32_t>(Load<uint32_t>(s + 4));
        v.nanos = static_cast<int64_t>(Load<uint32_t>(s + 8)) * 1000000;
        Store<Interval>(dst + 16 * i, v);
      }
      break;
    default:
      break;
  }
}

}  // namespace

Status DecodePlainValues(const ValueLayout& layout, const uint8_t* data, int64_t size,
                         int64_t* pos, int64_t count, ValueSink* sink, int64_t out_pos) {
  if (count <= 0) return Status::OK();
  switch (layout.kind) {
    case ValueKind::kBoolean:
      return DecodePlainBooleans(data, size, pos, count, sink->values->mutable_data(), out_pos);
    case ValueKind::kBytes: {
      // Pass 1: validate lengths and total the bytes; pass 2: copy.
      int64_t p = *pos;
      int64_t total = 0;
      for (int64_t i = 0; i < count; ++i) {
        if (size - p < 4) {
          return Status::Corruption("PLAIN byte array: length prefix past the end at offset ", p);
        }
        const uint32_t length = Load<uint32_t>(data + p);
        p += 4;
        if (static_cast<int64_t>(length) > size - p) {
          return Status::Corruption("PLAIN byte array: length ", length, " at offset ", p - 4,
                                    " runs past the ", size, "-byte page");
        }
        if (layout.utf8 && !IsValidUtf8(data + p, length)) {
          return Status::Corruption("PLAIN string at offset ", p - 4, " is not valid UTF-8");
        }
        p += length;
        total += length;
      }
      int64_t* offsets = sink->values->mutable_data_as<int64_t>() + out_pos;
      int64_t base = offsets[0];
      sink->data->Resize(base + total);
      uint8_t* out = sink->data->mutable_data();
      p = *pos;
      for (int64_t i = 0; i < count; ++i) {
        const uint32_t length = Load<uint32_t>(data + p);
        std::memcpy(out + base, data + p + 4, length);
        p += 4 + length;
        base += length;
        offsets[i + 1] = base;
      }
      *pos = p;
      return Status::OK();
    }
    case ValueKind::kBytesToInt128: {
      int64_t p = *pos;
      uint8_t* out = sink->values->mutable_data() + out_pos * 16;
      for (int64_t i = 0; i < count; ++i) {
        if (size - p < 4) {
          return Status::Corruption("PLAIN decimal: length prefix past the end at offset ", p);
        }
        const uint32_t length = Load<uint32_t>(data + p);
        p += 4;
        if (length > 16 || static_cast<int64_t>(length) > size - p) {
          return Status::Corruption("PLAIN decimal: byte length ", length, " at offset ", p - 4,
                                    " is over 16 or runs past the page");
        }
        Store<__int128>(out + 16 * i, length == 0 ? 0 : BigEndianToInt128(data + p, length));
        p += length;
      }
      *pos = p;
      return Status::OK();
    }
    case ValueKind::kFlbaToBytes: {
      const int pw = layout.physical_width;
      if (*pos < 0 || *pos > size || count > (size - *pos) / pw) {
        return PlainOverrun(count, pw, *pos, size);
      }
      int64_t* offsets = sink->values->mutable_data_as<int64_t>() + out_pos;
      const int64_t base = offsets[0];
      sink->data->Resize(base + count * pw);
      std::memcpy(sink->data->mutable_data() + base, data + *pos, static_cast<size_t>(count * pw));
      for (int64_t i = 0; i < count; ++i) offsets[i + 1] = base + (i + 1) * pw;
      *pos += count * pw;
      return Status::OK();
    }
    default: {
      const int pw = layout.physical_width;
      if (*pos < 0 || *pos > size || count > (size - *pos) / pw) {
        return PlainOverrun(count, pw, *pos, size);
      }
      ConvertFixed(layout, data + *pos, count,
                   sink->values->mutable_data() + out_pos * layout.output_width);
      *pos += count * pw;
      return Status::OK();
    }
  }
}

Status Dictionary::Decode(const ValueLayout& layout, const uint8_t* data, int64_t size,
                          int64_t num_values) {
  if (num_values < 0) return Status::Corruption("dictionary: negative size ", num_values);
  // Every dictionary entry takes at least one bit (booleans) or 4 bytes (byte arrays) or its
  // fixed width on the page, so the page size bounds what may be allocated.
  const int64_t min_bits = layout.boolean() ? 1 : (layout.physical_width > 0 ? layout.physical_width * 8 : 32);
  if (num_values > size * 8 / min_bits) {
    return Status::Corruption("dictionary: ", num_values, " entries cannot fit in ", size,
                              " bytes");
  }
  size_ = num_values;
  if (layout.var_length()) {
    values_ = Buffer::Allocate((num_values + 1) * 8);
    data_ = Buffer::Allocate(0);
  } else if (layout.boolean()) {
    values_ = Buffer::Allocate((num_values + 7) / 8);
  } else {
    values_ = Buffer::Allocate(num_values * layout.output_width);
  }
  ValueSink sink{values_.get(), data_.get()};
  int64_t pos = 0;
  return DecodePlainValues(layout, data, size, &pos, num_values, &sink, 0);
}

void ValueDecoder::ResetPlain(const uint8_t* data, int64_t size) {
  mode_ = Mode::kPlain;
  data_ = data;
  size_ = size;
  pos_ = 0;
}

Status ValueDecoder::ResetDictionary(const uint8_t* data, int64_t size,
                                     const Dictionary* dictionary) {
  mode_ = Mode::kDictionary;
  if (dictionary == nullptr) {
    return Status::Corruption("dictionary-encoded page without a dictionary page");
  }
  if (size < 1) {
    // A page of only NULLs may have no index bytes at all.
    indices_ = RleBitPackedDecoder(data, 0, 0);
    dictionary_ = dictionary;
    return Status::OK();
  }
  const int bit_width = data[0];
  if (bit_width > 32) {
    return Status::Corruption("dictionary indices: bit width ", bit_width, " over 32");
  }
  indices_ = RleBitPackedDecoder(data + 1, size - 1, bit_width);
  dictionary_ = dictionary;
  return Status::OK();
}

Status ValueDecoder::ResetRleBooleans(const uint8_t* data, int64_t size) {
  mode_ = Mode::kRleBoolean;
  if (size < 4) return Status::Corruption("RLE booleans: missing the 4-byte length prefix");
  const uint32_t length = Load<uint32_t>(data);
  if (static_cast<int64_t>(length) > size - 4) {
    return Status::Corruption("RLE booleans: length ", length, " exceeds the ", size - 4,
                              " bytes present");
  }
  indices_ = RleBitPackedDecoder(data + 4, length, 1);
  return Status::OK();
}

Status ValueDecoder::Decode(int64_t count, ValueSink* sink, int64_t pos) {
  switch (mode_) {
    case Mode::kPlain:
      return DecodePlainValues(layout_, data_, size_, &pos_, count, sink, pos);
    case Mode::kDictionary:
      return DecodeDictionary(count, sink, pos);
    case Mode::kRleBoolean: {
      index_buffer_.resize(1024);
      uint8_t* bits = sink->values->mutable_data();
      while (count > 0) {
        const int64_t n = std::min<int64_t>(count, 1024);
        TARN_RETURN_NOT_OK(indices_.GetBatch(index_buffer_.data(), n));
        for (int64_t i = 0; i < n; ++i, ++pos) {
          if (index_buffer_[i]) {
            bits[pos >> 3] |= static_cast<uint8_t>(1u << (pos & 7));
          } else {
            bits[pos >> 3] &= static_cast<uint8_t>(~(1u << (pos & 7)));
          }
        }
        count -= n;
      }
      return Status::OK();
    }
  }
  return Status::OK();
}

namespace {

template <typename T>
Status Gather(const uint32_t* indices, int64_t n, const T* dict, int64_t dict_size, T* out) {
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t index = indices[i];
    if (index >= dict_size) {
      return Status::Corruption("dictionary index ", index, " out of range for a dictionary of ",
                                dict_size, " entries");
    }
    out[i] = dict[index];
  }
  return Status::OK();
}

struct Bytes16 {
  uint64_t lo, hi;
};

}  // namespace

Status ValueDecoder::DecodeDictionary(int64_t count, ValueSink* sink, int64_t pos) {
  constexpr int64_t kChunk = 1024;
  index_buffer_.resize(kChunk);
  uint32_t* indices = index_buffer_.data();
  const int64_t dict_size = dictionary_->size();
  while (count > 0) {
    const int64_t n = std::min(count, kChunk);
    TARN_RETURN_NOT_OK(indices_.GetBatch(indices, n));
    if (layout_.var_length()) {
      const int64_t* dict_offsets = dictionary_->offsets();
      int64_t total = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (indices[i] >= dict_size) {
          return Status::Corruption("dictionary index ", indices[i],
                                    " out of range for a dictionary of ", dict_size, " entries");
        }
        total += dict_offsets[indices[i] + 1] - dict_offsets[indices[i]];
      }
      int64_t* offsets = sink->values->mutable_data_as<int64_t>() + pos;
      int64_t base = offsets[0];
      sink->data->Resize(base + total);
      uint8_t* out = sink->data->mutable_data();
      const uint8_t* dict_bytes = dictionary_->bytes();
      for (int64_t i = 0; i < n; ++i) {
        const int64_t begin = dict_offsets[indices[i]];
        const int64_t length = dict_offsets[indices[i] + 1] - begin;
        std::memcpy(out + base, dict_bytes + begin, static_cast<size_t>(length));
        base += length;
        offsets[i + 1] = base;
      }
    } else if (layout_.boolean()) {
      uint8_t* bits = sink->values->mutable_data();
      const uint8_t* dict_bits = dictionary_->values();
      for (int64_t i = 0; i < n; ++i) {
        if (indices[i] >= dict_size) {
          return Status::Corruption("dictionary index ", indices[i],
                                    " out of range for a dictionary of ", dict_size, " entries");
        }
        const int64_t dst = pos + i;
        if ((dict_bits[indices[i] >> 3] >> (indices[i] & 7)) & 1) {
          bits[dst >> 3] |= static_cast<uint8_t>(1u << (dst & 7));
        } else {
          bits[dst >> 3] &= static_cast<uint8_t>(~(1u << (dst & 7)));
        }
      }
    } else {
      uint8_t* out = sink->values->mutable_data() + pos * layout_.output_width;
      const uint8_t* dict = dictionary_->values();
      Status status;
      switch (layout_.output_width) {
        case 1:
          status = Gather(indices, n, dict, dict_size, out);
          break;
        case 2:
          status = Gather(indices, n, reinterpret_cast<const uint16_t*>(dict), dict_size,
                          reinterpret_cast<uint16_t*>(out));
          break;
        case 4:
          status = Gather(indices, n, reinterpret_cast<const uint32_t*>(dict), dict_size,
                          reinterpret_cast<uint32_t*>(out));
          break;
        case 8:
          status = Gather(indices, n, reinterpret_cast<const uint64_t*>(dict), dict_size,
                          reinterpret_cast<uint64_t*>(out));
          break;
        case 16:
          status = Gather(indices, n, reinterpret_cast<const Bytes16*>(dict), dict_size,
                          reinterpret_cast<Bytes16*>(out));
          break;
        default:
          status = Status::Internal("dictionary of ", layout_.output_width, "-byte values");
      }
      TARN_RETURN_NOT_OK(status);
    }
    count -= n;
    pos += n;
  }
  return Status::OK();
}

Status ValueDecoder::Skip(int64_t count) {
  if (count <= 0) return Status::OK();
  switch (mode_) {
    case Mode::kDictionary:
    case Mode::kRleBoolean:
      return indices_.Skip(count);
    case Mode::kPlain:
      break;
  }
  switch (layout_.kind) {
    case ValueKind::kBoolean:
      if ((pos_ + count + 7) / 8 > size_) {
        return Status::Corruption("PLAIN booleans: skipping ", count, " values runs past the page");
      }
      pos_ += count;
      return Status::OK();
    case ValueKind::kBytes:
    case ValueKind::kBytesToInt128:
      return SkipPlainByteArrays(data_, size_, &pos_, count);
    default: {
      const int pw = layout_.physical_width;
      if (count > (size_ - pos_) / pw) return PlainOverrun(count, pw, pos_, size_);
      pos_ += count * pw;
      return Status::OK();
    }
  }
}

}  // namespace tarn::parquet
