// Typed value decoding: PLAIN values into their in-memory layout, dictionaries, and the
// ValueDecoder that dispatches a data page's values section to its encoding.
#include <algorithm>
#include <cstring>
#include <memory>
#include <utility>

#include "parquet/byte_stream_split.h"
#include "parquet/delta_encoding.h"
#include "parquet/encoding.h"

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

// FIXED_LEN_BYTE_ARRAY decimals of width `width` to __int128, one loop per width so each
// conversion is two loads and two byte swaps.
template <int kSize>
void FlbaToInt128Of(const uint8_t* src, int64_t count, uint8_t* dst) {
  for (int64_t i = 0; i < count; ++i) {
    Store<__int128>(dst + 16 * i, BigEndianToInt128Fixed<kSize>(src + kSize * i));
  }
}

template <int... kSizes>
void FlbaToInt128Dispatch(const uint8_t* src, int width, int64_t count, uint8_t* dst,
                          std::integer_sequence<int, kSizes...>) {
  const bool done = ((width == kSizes + 1 ? (FlbaToInt128Of<kSizes + 1>(src, count, dst), true)
                                          : false) || ...);
  if (!done) {
    for (int64_t i = 0; i < count; ++i) {
      Store<__int128>(dst + 16 * i, BigEndianToInt128(src + width * i, width));
    }
  }
}

void FlbaToInt128(const uint8_t* src, int width, int64_t count, uint8_t* dst) {
  FlbaToInt128Dispatch(src, width, count, dst, std::make_integer_sequence<int, 16>());
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
        // ±(2^63 - 1) are the infinite timestamps, in every unit (as DuckDB reads them);
        // other out-of-range values wrap (unsigned) rather than overflow.
        const int64_t v = Load<int64_t>(src + 8 * i);
        Store<int64_t>(dst + 8 * i, v == INT64_MAX || v == -INT64_MAX
                                        ? v
                                        : static_cast<int64_t>(static_cast<uint64_t>(v) * factor));
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
      FlbaToInt128(src, pw, count, dst);
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
        p += length;
        total += length;
      }
      int64_t* offsets = sink->values->mutable_data_as<int64_t>() + out_pos;
      const int64_t start = offsets[0];
      int64_t base = start;
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
      // Strings: all ASCII in one pass over the copies (the usual case), else each checked.
      if (layout.utf8 && !IsAscii(out + start, total)) {
        int64_t at = *pos;
        for (int64_t i = 0; i < count; ++i) {
          const int64_t length = offsets[i + 1] - offsets[i];
          if (!IsValidUtf8(out + offsets[i], length)) {
            return Status::Corruption("PLAIN string at offset ", at, " is not valid UTF-8");
          }
          at += 4 + length;
        }
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
  TARN_RETURN_NOT_OK(DecodePlainValues(layout, data, size, &pos, num_values, &sink, 0));
  max_length_ = 0;
  if (layout.var_length()) {
    const int64_t* offsets = values_->data_as<int64_t>();
    for (int64_t i = 0; i < num_values; ++i) {
      max_length_ = std::max(max_length_, offsets[i + 1] - offsets[i]);
    }
    // Short entries are copied as whole 16- or 32-byte words, which may read past the last
    // entry.
    data_->Reserve(data_->size() + 32);
  }
  return Status::OK();
}

ValueDecoder::ValueDecoder(const ValueLayout& layout) : layout_(layout) {}
ValueDecoder::~ValueDecoder() = default;

Status ValueDecoder::ResetDelta(Encoding encoding, PhysicalType physical, int type_length,
                                const uint8_t* data, int64_t size, int64_t max_values) {
  mode_ = Mode::kDelta;
  if (delta_ == nullptr) delta_ = std::make_unique<DeltaValueReader>(layout_);
  return delta_->Reset(encoding, physical, type_length, data, size, max_values);
}

Status ValueDecoder::ResetByteStreamSplit(PhysicalType physical, int type_length,
                                          const uint8_t* data, int64_t size) {
  mode_ = Mode::kByteStreamSplit;
  if (split_ == nullptr) split_ = std::make_unique<ByteStreamSplitReader>(layout_);
  return split_->Reset(physical, type_length, data, size);
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
    case Mode::kDelta:
      return delta_->Decode(count, sink, pos);
    case Mode::kByteStreamSplit:
      return split_->Decode(count, sink, pos);
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

// The largest of `n` indices (a loop the compiler vectorizes).
uint32_t MaxIndex(const uint32_t* indices, int64_t n) {
  uint32_t max = 0;
  for (int64_t i = 0; i < n; ++i) max = std::max(max, indices[i]);
  return max;
}

Status IndexOutOfRange(uint32_t index, int64_t dict_size) {
  return Status::Corruption("dictionary index ", index, " out of range for a dictionary of ",
                            dict_size, " entries");
}

// REQUIRES: every index is below the dictionary's size.
template <typename T>
void Gather(const uint32_t* indices, int64_t n, const T* dict, T* out) {
  for (int64_t i = 0; i < n; ++i) out[i] = dict[indices[i]];
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
    if (const uint32_t max = MaxIndex(indices, n); max >= dict_size) {
      return IndexOutOfRange(max, dict_size);
    }
    if (layout_.var_length()) {
      if (sink->codes != nullptr) {
        std::memcpy(sink->codes + pos, indices, static_cast<size_t>(n) * sizeof(uint32_t));
      }
      const int64_t* dict_offsets = dictionary_->offsets();
      const uint8_t* dict_bytes = dictionary_->bytes();
      int64_t* offsets = sink->values->mutable_data_as<int64_t>() + pos;
      int64_t base = offsets[0];
      // Room for the rest of this call at the dictionary's average entry size beyond `needed`,
      // so the data buffer grows once per call rather than once per chunk.
      auto make_room = [&](int64_t needed) {
        if (sink->data->capacity() >= base + needed + 16) return;
        const int64_t average = dictionary_->bytes_size() / std::max<int64_t>(dict_size, 1) + 1;
        sink->data->Reserve(base + needed + 16 + (count - n) * average);
      };
      if (dictionary_->max_length() <= 32) {
        // One pass of fixed 16- or 32-byte copies into room for the longest entries: each
        // lands before the next value's start overwrites its tail; the last one's tail is
        // cleared below (bytes past a buffer's size stay zero). The dictionary's bytes have
        // that much room past its last entry.
        make_room(n * dictionary_->max_length() + 16);
        uint8_t* out = sink->data->mutable_data();
        auto copy_all = [&](auto width) {
          for (int64_t i = 0; i < n; ++i) {
            const int64_t begin = dict_offsets[indices[i]];
            std::memcpy(out + base, dict_bytes + begin, decltype(width)::value);
            base += dict_offsets[indices[i] + 1] - begin;
            offsets[i + 1] = base;
          }
        };
        if (dictionary_->max_length() <= 16) {
          copy_all(std::integral_constant<size_t, 16>{});
        } else {
          copy_all(std::integral_constant<size_t, 32>{});
        }
        std::memset(out + base, 0, 32);
        sink->data->Resize(base);
      } else {
        int64_t total = 0;
        for (int64_t i = 0; i < n; ++i) {
          total += dict_offsets[indices[i] + 1] - dict_offsets[indices[i]];
        }
        make_room(total);
        sink->data->Resize(base + total);
        uint8_t* out = sink->data->mutable_data();
        for (int64_t i = 0; i < n; ++i) {
          const int64_t begin = dict_offsets[indices[i]];
          const int64_t length = dict_offsets[indices[i] + 1] - begin;
          std::memcpy(out + base, dict_bytes + begin, static_cast<size_t>(length));
          base += length;
          offsets[i + 1] = base;
        }
      }
    } else if (layout_.boolean()) {
      uint8_t* bits = sink->values->mutable_data();
      const uint8_t* dict_bits = dictionary_->values();
      for (int64_t i = 0; i < n; ++i) {
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
      auto gather = [&](auto tag) {
        using T = decltype(tag);
        Gather(indices, n, reinterpret_cast<const T*>(dict), reinterpret_cast<T*>(out));
      };
      switch (layout_.output_width) {
        case 1: gather(uint8_t{}); break;
        case 2: gather(uint16_t{}); break;
        case 4: gather(uint32_t{}); break;
        case 8: gather(uint64_t{}); break;
        case 16: gather(Bytes16{}); break;
        default:
          return Status::Internal("dictionary of ", layout_.output_width, "-byte values");
      }
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
    case Mode::kDelta:
      return delta_->Skip(count);
    case Mode::kByteStreamSplit:
      return split_->Skip(count);
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
