// Parquet value and level encodings: the RLE/bit-packed hybrid (levels, booleans, dictionary
// indices), legacy BIT_PACKED levels and PLAIN. (Encoders are in encoder.h.)
//
// Decoders read untrusted page bytes through bounds checks: running past the buffer, a bit
// width over 32, or a run longer than asked for is a Corruption status, never a crash.
// Bit-packed runs are unpacked eight values at a time by a routine specialized per bit width;
// RLE runs are filled without per-value work.
//
// Thread-safety: a decoder or encoder object is used by one thread.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "parquet/metadata.h"
#include "tarn/columnar.h"
#include "tarn/status.h"
#include "util/utf8.h"  // IsValidUtf8

namespace tarn::parquet {

class DeltaValueReader;       // delta_encoding.h
class ByteStreamSplitReader;  // byte_stream_split.h

// How a leaf's physical values become the in-memory values of its logical type.
enum class ValueKind : uint8_t {
  kBoolean,            // BOOLEAN -> bitmap
  kCopy,               // same width in and out (INT32, INT64, FLOAT, DOUBLE, FLBA(16) UUID)
  kInt32ToInt8,        // INT32 narrowed to 1 byte (INT_8 / UINT_8)
  kInt32ToInt16,       // INT32 narrowed to 2 bytes
  kInt32ToInt64,       // INT32 widened and multiplied by `factor` (TIME millis -> micros)
  kInt64Multiply,      // INT64 * factor (TIMESTAMP millis -> micros)
  kInt64Divide,        // INT64 / factor, floored (nanos -> micros for TZ types)
  kInt32ToInt128,      // DECIMAL in INT32
  kInt64ToInt128,      // DECIMAL in INT64
  kFlbaToInt128,       // DECIMAL in FIXED_LEN_BYTE_ARRAY, big-endian two's complement
  kBytesToInt128,      // DECIMAL in BYTE_ARRAY, big-endian two's complement
  kInt96ToMicros,      // INT96 (nanos of day, Julian day) -> TIMESTAMP micros
  kFloat16ToFloat,     // FLBA(2) half float -> FLOAT
  kIntervalToInterval, // FLBA(12) months/days/millis -> Interval
  kBytes,              // BYTE_ARRAY -> var-length
  kFlbaToBytes,        // FLBA -> var-length
};

// What a leaf's values look like on disk and in memory.
struct ValueLayout {
  ValueKind kind = ValueKind::kCopy;
  int physical_width = 0;  // bytes per PLAIN value (0: boolean or BYTE_ARRAY)
  int output_width = 0;    // bytes per in-memory value (0: boolean or var-length)
  int64_t factor = 1;      // kInt32ToInt64, kInt64Multiply, kInt64Divide
  bool utf8 = false;       // var-length values must be valid UTF-8 (VARCHAR, JSON)
  bool var_length() const { return kind == ValueKind::kBytes || kind == ValueKind::kFlbaToBytes; }
  bool boolean() const { return kind == ValueKind::kBoolean; }
};

// Where decoded values go, in the in-memory layout of their type: `values` holds
// output_width bytes per value, a bitmap (booleans) or int64 offsets into `data`
// (var-length). Decoders write value i at position `pos + i` and grow `data` as needed; the
// caller sizes `values`. For var-length output the offset at `pos` must already be set.
struct ValueSink {
  Buffer* values = nullptr;
  Buffer* data = nullptr;
  // Optional, var-length values from a dictionary page: value i's dictionary index goes to
  // codes[pos + i].
  uint32_t* codes = nullptr;
};

int BitWidth(uint64_t max_value);  // bits needed for values 0..max_value (0 for 0)

// Unpacks `count` (a multiple of 8) LSB-first values of `bit_width` (0..32) bits from `in`.
// REQUIRES: `in` holds count * bit_width / 8 readable bytes.
void UnpackBits(const uint8_t* in, int bit_width, int64_t count, uint32_t* out);

// ---- RLE / bit-packed hybrid -----------------------------------------------------------

// Decodes the hybrid encoding of unsigned values of `bit_width` (0..32) bits. The caller has
// already stripped any length prefix.
class RleBitPackedDecoder {
 public:
  RleBitPackedDecoder() = default;
  RleBitPackedDecoder(const uint8_t* data, int64_t size, int bit_width);

  // Decodes exactly `count` values into `out`, or fails with Corruption if the stream ends
  // early or is malformed.
  Status GetBatch(uint32_t* out, int64_t count);
  // Like GetBatch into int16_t destinations (levels). REQUIRES: values fit.
  Status GetLevels(int16_t* out, int64_t count);
  // Skips `count` values.
  Status Skip(int64_t count);

  // When the next `count` values are all one RLE run value, returns true and sets *value
  // without consuming anything (lets callers take fast paths for runs of defined values).
  bool PeekRun(int64_t count, uint32_t* value);

 private:
  Status NextRun();
  template <typename T>
  Status Decode(T* out, int64_t count);
  // Copies up to `count` literal values of the current run into out; returns how many.
  template <typename T>
  int64_t ReadLiterals(T* out, int64_t count);

  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t pos_ = 0;
  int bit_width_ = 0;
  bool bad_width_ = false;
  bool broken_ = false;  // a peeked run header failed to parse
  int64_t repeat_left_ = 0;   // values left in the current RLE run
  uint32_t repeat_value_ = 0;
  int64_t literal_left_ = 0;  // values left in the current bit-packed run
  int64_t literal_bit_pos_ = 0;  // bit offset of the next literal value in data_
  // Literal values unpacked ahead of the caller (at most one group of 8).
  uint32_t group_[8] = {};
  int group_pos_ = 8;
};

// Legacy BIT_PACKED levels (MSB-first, deprecated encoding still written by old writers).
Status DecodeBitPackedLevels(const uint8_t* data, int64_t size, int bit_width, int64_t count,
                             int16_t* out);

// ---- PLAIN ---------------------------------------------------------------------------------

// Reads PLAIN values of a fixed width (4, 8, 12 or type_length bytes). Returns Corruption when
// fewer than count*width bytes remain.
Status DecodePlainFixed(const uint8_t* data, int64_t size, int64_t* pos, int width, int64_t count,
                        uint8_t* out);
// PLAIN booleans: bit-packed LSB-first; `bit_pos` carries the position between calls.
Status DecodePlainBooleans(const uint8_t* data, int64_t size, int64_t* bit_pos, int64_t count,
                           uint8_t* out_bitmap, int64_t out_offset);
// PLAIN byte arrays: 4-byte little-endian length + bytes, repeated. Appends to
// (offsets, bytes): offsets receives count new int64 end offsets.
Status DecodePlainByteArrays(const uint8_t* data, int64_t size, int64_t* pos, int64_t count,
                             int64_t* offsets_out, std::string* bytes_out);
// Skips `count` PLAIN byte arrays by walking their lengths.
Status SkipPlainByteArrays(const uint8_t* data, int64_t size, int64_t* pos, int64_t count);

// ---- typed value decoding -----------------------------------------------------------------

// A dictionary page's values, converted once to the in-memory layout so that dictionary
// indices decode by copying (fixed width) or memcpy from one contiguous byte block (strings).
class Dictionary {
 public:
  // Decodes `num_values` PLAIN values. Fails with Corruption when the page is too short.
  Status Decode(const ValueLayout& layout, const uint8_t* data, int64_t size, int64_t num_values);
  int64_t size() const { return size_; }
  const uint8_t* values() const { return values_->data(); }
  const int64_t* offsets() const { return values_->data_as<int64_t>(); }
  const uint8_t* bytes() const { return data_->data(); }
  // Var-length dictionaries: total bytes of the entries, and the longest entry. The bytes
  // buffer is readable for 16 bytes past every entry's start.
  int64_t bytes_size() const { return data_->size(); }
  int64_t max_length() const { return max_length_; }
  // The buffers themselves (var-length: int64 offsets and bytes), never changed once decoded:
  // columns may share them. A later Decode allocates new ones.
  const std::shared_ptr<Buffer>& values_buffer() const { return values_; }
  const std::shared_ptr<Buffer>& data_buffer() const { return data_; }

 private:
  std::shared_ptr<Buffer> values_;
  std::shared_ptr<Buffer> data_;
  int64_t size_ = 0;
  int64_t max_length_ = 0;
};

// Decodes the values section of one data page (PLAIN, dictionary indices, RLE booleans, the
// DELTA_* encodings or BYTE_STREAM_SPLIT) into a ValueSink, converting to the in-memory type in
// tight typed loops.
class ValueDecoder {
 public:
  explicit ValueDecoder(const ValueLayout& layout);
  ~ValueDecoder();
  ValueDecoder(const ValueDecoder&) = delete;
  ValueDecoder& operator=(const ValueDecoder&) = delete;

  void ResetPlain(const uint8_t* data, int64_t size);
  // `data` starts with the bit-width byte. REQUIRES: dictionary outlives the page.
  Status ResetDictionary(const uint8_t* data, int64_t size, const Dictionary* dictionary);
  // RLE booleans: a 4-byte length prefix, then the hybrid stream of 1-bit values.
  Status ResetRleBooleans(const uint8_t* data, int64_t size);
  // DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY or DELTA_BYTE_ARRAY of a leaf of `physical`
  // type (`type_length` for FIXED_LEN_BYTE_ARRAY); `max_values` is the page's level entries.
  Status ResetDelta(Encoding encoding, PhysicalType physical, int type_length,
                    const uint8_t* data, int64_t size, int64_t max_values);
  Status ResetByteStreamSplit(PhysicalType physical, int type_length, const uint8_t* data,
                              int64_t size);

  // Writes `count` values at positions [pos, pos + count) of the sink.
  Status Decode(int64_t count, ValueSink* sink, int64_t pos);
  Status Skip(int64_t count);
  // The dictionary the current page's values index, or null when the page is not
  // dictionary-encoded.
  const Dictionary* page_dictionary() const {
    return mode_ == Mode::kDictionary ? dictionary_ : nullptr;
  }

 private:
  enum class Mode { kPlain, kDictionary, kRleBoolean, kDelta, kByteStreamSplit };
  Status DecodePlain(int64_t count, ValueSink* sink, int64_t pos);
  Status DecodeDictionary(int64_t count, ValueSink* sink, int64_t pos);

  ValueLayout layout_;
  Mode mode_ = Mode::kPlain;
  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t pos_ = 0;      // byte position (PLAIN), bit position for PLAIN booleans
  const Dictionary* dictionary_ = nullptr;
  RleBitPackedDecoder indices_;
  std::vector<uint32_t> index_buffer_;
  std::unique_ptr<DeltaValueReader> delta_;           // made on first use
  std::unique_ptr<ByteStreamSplitReader> split_;      // made on first use
};

// Decodes `count` PLAIN values at *pos of `data` into the sink (the routine behind
// ValueDecoder and Dictionary).
Status DecodePlainValues(const ValueLayout& layout, const uint8_t* data, int64_t size,
                         int64_t* pos, int64_t count, ValueSink* sink, int64_t out_pos);

// ---- value conversions shared by the value decoders and the statistics decoder -------------

// IEEE 754 half precision (little-endian bytes) to float.
float HalfToFloat(uint16_t half);
// Big-endian two's complement of 1..16 bytes, sign-extended. REQUIRES: 1 <= size <= 16.
__int128 BigEndianToInt128(const uint8_t* bytes, int size);
// The same for a width known when compiling (the decoders' loops, one per FIXED_LEN width):
// the bytes land at the end of a 16-byte big-endian buffer whose head holds the sign, then
// two byte swaps.
// 16 big-endian bytes as a two's complement value.
inline __int128 Int128FromBigEndian16(const uint8_t* buffer) {
  uint64_t high;
  uint64_t low;
  std::memcpy(&high, buffer, 8);
  std::memcpy(&low, buffer + 8, 8);
  const unsigned __int128 value =
      (static_cast<unsigned __int128>(__builtin_bswap64(high)) << 64) | __builtin_bswap64(low);
  return static_cast<__int128>(value);
}
template <int kSize>
inline __int128 BigEndianToInt128Fixed(const uint8_t* bytes) {
  static_assert(kSize >= 1 && kSize <= 16);
  uint8_t buffer[16];
  std::memset(buffer, (bytes[0] & 0x80) ? 0xFF : 0, 16 - kSize);
  std::memcpy(buffer + 16 - kSize, bytes, kSize);
  return Int128FromBigEndian16(buffer);
}
// INT96 timestamp (8 bytes LE nanos of day, 4 bytes LE Julian day) to micros since epoch.
int64_t Int96ToMicros(const uint8_t* bytes);

}  // namespace tarn::parquet
