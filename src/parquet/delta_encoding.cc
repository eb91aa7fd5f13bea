#include "parquet/delta_encoding.h"

#include <algorithm>
#include <cstring>

namespace tarn::parquet {

namespace {

// ULEB128 of at most 10 bytes at data[*pos]; false when it runs past `size` or is too long.
bool ReadUleb(const uint8_t* data, int64_t size, int64_t* pos, uint64_t* value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 70; shift += 7) {
    if (*pos >= size) return false;
    const uint8_t byte = data[(*pos)++];
    if (shift == 63 && (byte & 0x7E) != 0) return false;  // bits past 64
    result |= static_cast<uint64_t>(byte & 0x7F) << shift;
    if ((byte & 0x80) == 0) {
      *value = result;
      return true;
    }
  }
  return false;
}

bool ReadZigZag(const uint8_t* data, int64_t size, int64_t* pos, uint64_t* value) {
  uint64_t raw = 0;
  if (!ReadUleb(data, size, pos, &raw)) return false;
  *value = (raw >> 1) ^ (~(raw & 1) + 1);  // two's complement bits of the signed value
  return true;
}

// Unpacks 32 values of `width` (33..64) bits, LSB first, from `in` (4 * width bytes readable).
void UnpackWide(const uint8_t* in, int width, uint64_t* out) {
  const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  for (int i = 0; i < 32; ++i) {
    const int64_t bit = static_cast<int64_t>(i) * width;
    const int64_t byte = bit / 8;
    const int shift = static_cast<int>(bit % 8);
    const int64_t last_byte = (bit + width - 1) / 8;  // within the group
    // The value spans up to 9 bytes: the first 8 in one word, the ninth (only when shift > 0)
    // added on top.
    const int64_t bytes = std::min<int64_t>(8, last_byte - byte + 1);
    uint64_t word = 0;
    for (int64_t b = bytes - 1; b >= 0; --b) word = (word << 8) | in[byte + b];
    uint64_t value = word >> shift;
    if (last_byte - byte == 8) value |= static_cast<uint64_t>(in[last_byte]) << (64 - shift);
    out[i] = value & mask;
  }
}

}  // namespace

Status DeltaBitPackedDecoder::Fail(const char* what) const {
  return Status::Corruption("DELTA_BINARY_PACKED: ", what, " at byte ", pos_, " of ", size_);
}

Status DeltaBitPackedDecoder::Init(const uint8_t* data, int64_t size, int value_bits,
                                   int64_t max_values) {
  data_ = data;
  size_ = size;
  pos_ = 0;
  value_bits_ = value_bits;
  values_read_ = 0;
  total_values_ = 0;
  delta_pos_ = 32;
  miniblock_left_ = 0;
  uint64_t block = 0, miniblocks = 0, total = 0, first = 0;
  if (!ReadUleb(data, size, &pos_, &block) || !ReadUleb(data, size, &pos_, &miniblocks) ||
      !ReadUleb(data, size, &pos_, &total) || !ReadZigZag(data, size, &pos_, &first)) {
    return Fail("header runs past the end or holds an overlong varint");
  }
  if (block == 0 || block % 128 != 0 || block > (uint64_t{1} << 31)) {
    return Status::Corruption("DELTA_BINARY_PACKED: block size ", block,
                              " is not a positive multiple of 128 (at most 2^31)");
  }
  if (miniblocks == 0 || miniblocks > block / 32 || block % miniblocks != 0 ||
      (block / miniblocks) % 32 != 0) {
    return Status::Corruption("DELTA_BINARY_PACKED: ", miniblocks,
                              " miniblocks do not divide a block of ", block,
                              " values into multiples of 32");
  }
  if (total > static_cast<uint64_t>(max_values)) {
    return Status::Corruption("DELTA_BINARY_PACKED: the header declares ", total,
                              " values, more than the page's ", max_values);
  }
  values_per_block_ = static_cast<int64_t>(block);
  miniblocks_per_block_ = static_cast<int64_t>(miniblocks);
  values_per_miniblock_ = values_per_block_ / miniblocks_per_block_;
  total_values_ = static_cast<int64_t>(total);
  last_value_ = first;
  bit_widths_.clear();
  miniblock_ = miniblocks_per_block_;  // a block header comes first
  return Status::OK();
}

Status DeltaBitPackedDecoder::StartBlock() {
  if (!ReadZigZag(data_, size_, &pos_, &min_delta_)) {
    return Fail("block's min delta runs past the end or is overlong");
  }
  if (size_ - pos_ < miniblocks_per_block_) return Fail("miniblock bit widths run past the end");
  bit_widths_.assign(data_ + pos_, data_ + pos_ + miniblocks_per_block_);
  pos_ += miniblocks_per_block_;
  miniblock_ = 0;
  return Status::OK();
}

Status DeltaBitPackedDecoder::StartMiniblock() {
  if (miniblock_ == miniblocks_per_block_) TARN_RETURN_NOT_OK(StartBlock());
  const int width = bit_widths_[static_cast<size_t>(miniblock_)];
  if (width > value_bits_) {
    return Status::Corruption("DELTA_BINARY_PACKED: miniblock ", miniblock_, " has bit width ",
                              width, ", over ", value_bits_, " (at byte ", pos_, " of ", size_,
                              ")");
  }
  ++miniblock_;
  const int64_t full = values_per_miniblock_ / 8 * width;
  // The last miniblock of the stream should be padded to full size; accept it cut short as
  // long as the bits of the values still to come are present.
  const int64_t deltas_left = values_left() - (values_read_ == 0 ? 1 : 0);
  const int64_t needed = (std::min(values_per_miniblock_, deltas_left) * width + 7) / 8;
  const int64_t available = size_ - pos_;
  if (available < needed) return Fail("miniblock runs past the end");
  bit_width_ = width;
  miniblock_data_ = data_ + pos_;
  miniblock_bytes_ = std::min(full, available);
  pos_ += miniblock_bytes_;
  miniblock_left_ = values_per_miniblock_;
  groups_done_ = 0;
  return Status::OK();
}

void DeltaBitPackedDecoder::UnpackGroup() {
  const int64_t group_bytes = 4 * static_cast<int64_t>(bit_width_);
  const int64_t offset = groups_done_ * group_bytes;
  const uint8_t* src = miniblock_data_ + offset;
  uint8_t padded[4 * 64 + 8];
  if (offset + group_bytes > miniblock_bytes_) {
    std::memset(padded, 0, sizeof padded);
    const int64_t present = std::max<int64_t>(0, miniblock_bytes_ - offset);
    if (present > 0) std::memcpy(padded, src, static_cast<size_t>(present));
    src = padded;
  }
  if (bit_width_ <= 32) {
    uint32_t narrow[32];
    UnpackBits(src, bit_width_, 32, narrow);
    for (int i = 0; i < 32; ++i) deltas_[i] = narrow[i];
  } else {
    UnpackWide(src, bit_width_, deltas_);
  }
  ++groups_done_;
  miniblock_left_ -= 32;
  delta_pos_ = 0;
}

template <typename T>
Status DeltaBitPackedDecoder::Decode(T* out, int64_t count) {
  if (count > values_left()) {
    return Status::Corruption("DELTA_BINARY_PACKED: ", count, " values requested, ",
                              values_left(), " left in the stream");
  }
  int64_t done = 0;
  if (count > 0 && values_read_ == 0) {
    out[done++] = static_cast<T>(last_value_);
    ++values_read_;
  }
  while (done < count) {
    if (delta_pos_ == 32) {
      if (miniblock_left_ == 0) TARN_RETURN_NOT_OK(StartMiniblock());
      UnpackGroup();
    }
    const int64_t n = std::min<int64_t>(count - done, 32 - delta_pos_);
    uint64_t value = last_value_;
    const uint64_t min_delta = min_delta_;
    for (int64_t i = 0; i < n; ++i) {
      value += min_delta + deltas_[delta_pos_ + i];  // wraps, as the encoding intends
      out[done + i] = static_cast<T>(value);
    }
    last_value_ = value;
    delta_pos_ += static_cast<int>(n);
    done += n;
    values_read_ += n;
  }
  return Status::OK();
}

Status DeltaBitPackedDecoder::Skip(int64_t count) {
  int64_t scratch[256];
  while (count > 0) {
    const int64_t n = std::min<int64_t>(count, 256);
    TARN_RETURN_NOT_OK(Decode(scratch, n));
    count -= n;
  }
  return Status::OK();
}

Result<int64_t> DeltaBitPackedDecoder::Finish() {
  TARN_RETURN_NOT_OK(Skip(values_left()));
  return pos_;
}

Status DeltaLengthByteArrayDecoder::Init(const uint8_t* data, int64_t size, int64_t max_values) {
  DeltaBitPackedDecoder lengths;
  TARN_RETURN_NOT_OK(lengths.Init(data, size, 32, max_values));
  lengths_.resize(static_cast<size_t>(lengths.total_values()));
  TARN_RETURN_NOT_OK(lengths.Get(lengths_.data(), lengths.total_values()));
  TARN_ASSIGN_OR_RETURN(int64_t start, lengths.Finish());
  int64_t total = 0;
  for (size_t i = 0; i < lengths_.size(); ++i) {
    if (lengths_[i] < 0) {
      return Status::Corruption("DELTA_LENGTH_BYTE_ARRAY: value ", i, " has negative length ",
                                lengths_[i]);
    }
    total += lengths_[i];
  }
  if (total > size - start) {
    return Status::Corruption("DELTA_LENGTH_BYTE_ARRAY: ", lengths_.size(), " values of ", total,
                              " bytes starting at byte ", start, " run past the ", size,
                              "-byte section");
  }
  data_ = data;
  pos_ = start;
  end_ = start + total;
  next_ = 0;
  return Status::OK();
}

Status DeltaByteArrayDecoder::Init(const uint8_t* data, int64_t size, int64_t max_values) {
  DeltaBitPackedDecoder prefixes;
  TARN_RETURN_NOT_OK(prefixes.Init(data, size, 32, max_values));
  prefixes_.resize(static_cast<size_t>(prefixes.total_values()));
  TARN_RETURN_NOT_OK(prefixes.Get(prefixes_.data(), prefixes.total_values()));
  TARN_ASSIGN_OR_RETURN(int64_t start, prefixes.Finish());
  Status status = suffixes_.Init(data + start, size - start, max_values);
  if (!status.ok()) return status.WithContext(StrCat("DELTA_BYTE_ARRAY suffixes at byte ", start));
  if (suffixes_.total_values() != static_cast<int64_t>(prefixes_.size())) {
    return Status::Corruption("DELTA_BYTE_ARRAY: ", prefixes_.size(), " prefix lengths but ",
                              suffixes_.total_values(), " suffixes");
  }
  next_ = 0;
  value_.clear();
  decoded_bytes_ = 0;
  return Status::OK();
}

Result<std::string_view> DeltaByteArrayDecoder::Next() {
  const int32_t prefix = prefixes_[static_cast<size_t>(next_)];
  if (prefix < 0 || static_cast<size_t>(prefix) > value_.size()) {
    return Status::Corruption("DELTA_BYTE_ARRAY: value ", next_, " has prefix length ", prefix,
                              ", but the previous value has ", value_.size(), " bytes");
  }
  const std::string_view suffix = suffixes_.Next();
  value_.resize(static_cast<size_t>(prefix));
  value_.append(suffix);
  decoded_bytes_ += static_cast<int64_t>(value_.size());
  if (decoded_bytes_ > kMaxDecodedBytes) {
    return Status::Corruption("DELTA_BYTE_ARRAY: prefixes expand the page past ",
                              kMaxDecodedBytes, " bytes");
  }
  ++next_;
  return std::string_view(value_);
}

Status DeltaValueReader::Reset(Encoding encoding, PhysicalType physical, int type_length,
                               const uint8_t* data, int64_t size, int64_t max_values) {
  encoding_ = encoding;
  physical_ = physical;
  type_length_ = type_length;
  bool applies = false;
  switch (encoding) {
    case Encoding::kDeltaBinaryPacked:
      applies = physical == PhysicalType::kInt32 || physical == PhysicalType::kInt64;
      break;
    case Encoding::kDeltaLengthByteArray:
      applies = physical == PhysicalType::kByteArray;
      break;
    case Encoding::kDeltaByteArray:
      applies = physical == PhysicalType::kByteArray ||
                physical == PhysicalType::kFixedLenByteArray;
      break;
    default:
      break;
  }
  if (!applies) {
    return Status::Corruption("encoding ", EncodingName(encoding),
                              " does not apply to physical type ", PhysicalTypeName(physical));
  }
  // A page of only NULLs may carry no value bytes at all: read it as two empty streams
  // (128 values per block, 4 miniblocks, 0 values, first value 0), enough for every encoding.
  static const uint8_t kEmpty[10] = {128, 1, 4, 0, 0, 128, 1, 4, 0, 0};
  if (size == 0) {
    data = kEmpty;
    size = sizeof kEmpty;
  }
  switch (encoding) {
    case Encoding::kDeltaBinaryPacked:
      return integers_.Init(data, size, physical == PhysicalType::kInt32 ? 32 : 64, max_values);
    case Encoding::kDeltaLengthByteArray:
      return lengths_.Init(data, size, max_values);
    default:
      return prefixed_.Init(data, size, max_values);
  }
}

Status DeltaValueReader::Available(int64_t count, int64_t left) const {
  if (count > left) {
    return Status::Corruption(EncodingName(encoding_), ": ", count,
                              " values needed, the page's stream holds ", left, " more");
  }
  return Status::OK();
}

Status DeltaValueReader::GatherByteArrays(int64_t count) {
  plain_.clear();
  const bool fixed = physical_ == PhysicalType::kFixedLenByteArray;
  for (int64_t i = 0; i < count; ++i) {
    std::string_view value;
    if (encoding_ == Encoding::kDeltaLengthByteArray) {
      value = lengths_.Next();
    } else {
      TARN_ASSIGN_OR_RETURN(value, prefixed_.Next());
    }
    if (fixed) {
      if (static_cast<int64_t>(value.size()) != type_length_) {
        return Status::Corruption(EncodingName(encoding_), ": a value of ", value.size(),
                                  " bytes in a FIXED_LEN_BYTE_ARRAY(", type_length_, ") column");
      }
    } else {
      const auto length = static_cast<uint32_t>(value.size());
      plain_.append(reinterpret_cast<const char*>(&length), 4);
    }
    plain_.append(value);
  }
  return Status::OK();
}

Status DeltaValueReader::Decode(int64_t count, ValueSink* sink, int64_t pos) {
  if (count <= 0) return Status::OK();
  int64_t read_pos = 0;
  if (encoding_ == Encoding::kDeltaBinaryPacked) {
    TARN_RETURN_NOT_OK(Available(count, integers_.values_left()));
    const size_t width = physical_ == PhysicalType::kInt32 ? 4 : 8;
    plain_.resize(static_cast<size_t>(count) * width);
    // Decoded through an aligned scratch, then handed over as PLAIN bytes.
    if (width == 4) {
      ints32_.resize(static_cast<size_t>(count));
      TARN_RETURN_NOT_OK(integers_.Get(ints32_.data(), count));
      std::memcpy(plain_.data(), ints32_.data(), plain_.size());
    } else {
      ints64_.resize(static_cast<size_t>(count));
      TARN_RETURN_NOT_OK(integers_.Get(ints64_.data(), count));
      std::memcpy(plain_.data(), ints64_.data(), plain_.size());
    }
  } else {
    TARN_RETURN_NOT_OK(Available(count, encoding_ == Encoding::kDeltaLengthByteArray
                                            ? lengths_.values_left()
                                            : prefixed_.values_left()));
    TARN_RETURN_NOT_OK(GatherByteArrays(count));
  }
  return DecodePlainValues(layout_, reinterpret_cast<const uint8_t*>(plain_.data()),
                           static_cast<int64_t>(plain_.size()), &read_pos, count, sink, pos);
}

Status DeltaValueReader::Skip(int64_t count) {
  if (count <= 0) return Status::OK();
  switch (encoding_) {
    case Encoding::kDeltaBinaryPacked:
      TARN_RETURN_NOT_OK(Available(count, integers_.values_left()));
      return integers_.Skip(count);
    case Encoding::kDeltaLengthByteArray:
      TARN_RETURN_NOT_OK(Available(count, lengths_.values_left()));
      for (int64_t i = 0; i < count; ++i) lengths_.Next();
      return Status::OK();
    default:
      TARN_RETURN_NOT_OK(Available(count, prefixed_.values_left()));
      for (int64_t i = 0; i < count; ++i) TARN_RETURN_NOT_OK(prefixed_.Next().status());
      return Status::OK();
  }
}

}  // namespace tarn::parquet
