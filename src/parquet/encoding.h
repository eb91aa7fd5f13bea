// Parquet value and level encodings: the RLE/bit-packed hybrid (levels, booleans, dictionary
// indices), legacy BIT_PACKED levels and PLAIN. (Encoders are in encoder.h.)
//
// Decoders read untrusted page bytes through bounds checks: running past the buffer, a bit
// width over 32, or a run longer than asked for is a Corruption status, never a crash.
//
// Thread-safety: a decoder or encoder object is used by one thread.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tarn/status.h"

namespace tarn::parquet {

int BitWidth(uint64_t max_value);  // bits needed for values 0..max_value (0 for 0)

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
  // Like GetBatch into uint8_t/int16_t destinations (levels). REQUIRES: values fit.
  Status GetLevels(int16_t* out, int64_t count);
  // Skips `count` values.
  Status Skip(int64_t count);

 private:
  Status NextRun();
  const uint8_t* data_ = nullptr;
  int64_t size_ = 0;
  int64_t pos_ = 0;
  int bit_width_ = 0;
  int64_t repeat_left_ = 0;   // values left in the current RLE run
  uint32_t repeat_value_ = 0;
  int64_t literal_left_ = 0;  // values left in the current bit-packed run
  int64_t literal_bit_pos_ = 0;  // bit offset of the next literal value in data_
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

}  // namespace tarn::parquet
