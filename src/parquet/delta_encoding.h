// Decoders of Parquet's delta encodings: DELTA_BINARY_PACKED (INT32, INT64),
// DELTA_LENGTH_BYTE_ARRAY (BYTE_ARRAY) and DELTA_BYTE_ARRAY (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY).
// The encoders are in delta_encoder.h.
//
// Untrusted bytes: every header field, miniblock bit width (at most 32 for INT32, 64 for
// INT64), value count (at most the page's level entries), length (never negative, never past
// the page) and prefix length (never longer than the previous value) is checked; a violation is
// a Corruption status naming what and where (byte offset in the page's values section). The
// caller adds the column and the page's file offset.
//
// Thread-safety: a decoder object is used by one thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "parquet/encoding.h"
#include "parquet/metadata.h"
#include "tarn/status.h"

namespace tarn::parquet {

// DELTA_BINARY_PACKED: a header (block size, miniblocks per block, value count, first value),
// then blocks of (min delta, one bit width per miniblock, bit-packed miniblocks). Values are
// reconstructed with wrapping arithmetic in 64 bits (INT32 columns keep the low 32 bits).
class DeltaBitPackedDecoder {
 public:
  // Parses the header at `data`. `value_bits` is 32 or 64; the header's value count must not
  // exceed `max_values`.
  Status Init(const uint8_t* data, int64_t size, int value_bits, int64_t max_values);

  int64_t total_values() const { return total_values_; }
  int64_t values_left() const { return total_values_ - values_read_; }

  // Decodes the next `count` values. REQUIRES: count <= values_left().
  Status Get(int32_t* out, int64_t count) { return Decode(out, count); }
  Status Get(int64_t* out, int64_t count) { return Decode(out, count); }
  Status Skip(int64_t count);

  // Consumes every value left and returns the byte offset just past the encoded stream (where
  // the next section of the page starts).
  Result<int64_t> Finish();

 private:
  template <typename T>
  Status Decode(T* out, int64_t count);
  Status StartBlock();
  Status StartMiniblock();
  // Unpacks the next group of 32 deltas of the current miniblock into deltas_.
  void UnpackGroup();
  Status Fail(const char* what) const;

  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t pos_ = 0;  // next unread byte (after the current miniblock's bytes once started)
  int value_bits_ = 64;
  int64_t values_per_block_ = 0;
  int64_t miniblocks_per_block_ = 0;
  int64_t values_per_miniblock_ = 0;
  int64_t total_values_ = 0;
  int64_t values_read_ = 0;
  uint64_t last_value_ = 0;
  // The current block.
  uint64_t min_delta_ = 0;
  std::vector<uint8_t> bit_widths_;
  int64_t miniblock_ = 0;  // index of the current miniblock in the block
  // The current miniblock.
  const uint8_t* miniblock_data_ = nullptr;
  int64_t miniblock_bytes_ = 0;  // bytes present (may be short at the end of the page)
  int bit_width_ = 0;
  int64_t miniblock_left_ = 0;  // values not yet unpacked from the current miniblock
  int64_t groups_done_ = 0;     // groups of 32 unpacked from the current miniblock
  uint64_t deltas_[32] = {};
  int delta_pos_ = 32;  // next unread entry of deltas_
};

// DELTA_LENGTH_BYTE_ARRAY: the lengths (DELTA_BINARY_PACKED), then the bytes back to back.
class DeltaLengthByteArrayDecoder {
 public:
  // Decodes every length up front and checks that they fit in the bytes that follow.
  Status Init(const uint8_t* data, int64_t size, int64_t max_values);
  int64_t total_values() const { return static_cast<int64_t>(lengths_.size()); }
  int64_t values_left() const { return total_values() - next_; }
  // The next value. REQUIRES: values_left() > 0.
  std::string_view Next() {
    const int32_t length = lengths_[static_cast<size_t>(next_++)];
    std::string_view value(reinterpret_cast<const char*>(data_ + pos_), static_cast<size_t>(length));
    pos_ += length;
    return value;
  }
  // Byte offset just past the last value.
  int64_t end() const { return end_; }

 private:
  const uint8_t* data_ = nullptr;
  int64_t pos_ = 0;
  int64_t end_ = 0;
  std::vector<int32_t> lengths_;
  int64_t next_ = 0;
};

// DELTA_BYTE_ARRAY: prefix lengths (DELTA_BINARY_PACKED), then the suffixes
// (DELTA_LENGTH_BYTE_ARRAY); value i is the first prefix[i] bytes of value i-1 + suffix[i].
class DeltaByteArrayDecoder {
 public:
  Status Init(const uint8_t* data, int64_t size, int64_t max_values);
  int64_t values_left() const { return suffixes_.values_left(); }
  // The next value, valid until the next call. REQUIRES: values_left() > 0.
  Result<std::string_view> Next();

  // Decoded bytes of one page are capped: a hostile page could otherwise repeat a long prefix
  // until memory runs out.
  static constexpr int64_t kMaxDecodedBytes = int64_t{1} << 31;

 private:
  std::vector<int32_t> prefixes_;
  DeltaLengthByteArrayDecoder suffixes_;
  int64_t next_ = 0;
  std::string value_;
  int64_t decoded_bytes_ = 0;
};

// The values section of one data page in a delta encoding, decoded into a ValueSink in the
// in-memory layout of the leaf (the conversions of PLAIN values apply).
class DeltaValueReader {
 public:
  explicit DeltaValueReader(const ValueLayout& layout) : layout_(layout) {}

  // `physical` is the leaf's physical type and `type_length` its FIXED_LEN_BYTE_ARRAY width;
  // `max_values` the page's level entries. Fails with Corruption when the encoding does not
  // apply to the physical type or the header is malformed.
  Status Reset(Encoding encoding, PhysicalType physical, int type_length, const uint8_t* data,
               int64_t size, int64_t max_values);

  Status Decode(int64_t count, ValueSink* sink, int64_t pos);
  Status Skip(int64_t count);

 private:
  Status Available(int64_t count, int64_t left) const;
  // Gathers `count` byte arrays into plain_ in PLAIN form (BYTE_ARRAY: length + bytes;
  // FIXED_LEN_BYTE_ARRAY: the bytes, each checked to be type_length_ long).
  Status GatherByteArrays(int64_t count);

  ValueLayout layout_;
  Encoding encoding_ = Encoding::kDeltaBinaryPacked;
  PhysicalType physical_ = PhysicalType::kInt32;
  int type_length_ = 0;
  DeltaBitPackedDecoder integers_;
  DeltaLengthByteArrayDecoder lengths_;
  DeltaByteArrayDecoder prefixed_;
  std::string plain_;  // scratch: values in PLAIN form before conversion
  std::vector<int32_t> ints32_;
  std::vector<int64_t> ints64_;
};

}  // namespace tarn::parquet
