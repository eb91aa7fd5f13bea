// BYTE_STREAM_SPLIT: the k-th bytes of all N values of a page stored together, stream after
// stream (N·width bytes in all). Applies to FLOAT, DOUBLE, INT32, INT64 and
// FIXED_LEN_BYTE_ARRAY. Encoder and decoder of the same concept.
//
// Thread-safety: a reader object is used by one thread; the encoder is stateless.
#pragma once

#include <cstdint>
#include <string>

#include "parquet/encoding.h"
#include "parquet/metadata.h"
#include "tarn/status.h"

namespace tarn::parquet {

// The width of one value of `physical` in BYTE_STREAM_SPLIT, or 0 when the encoding does not
// apply to it.
int ByteStreamSplitWidth(PhysicalType physical, int type_length);

// Appends the split form of `count` PLAIN values of `width` bytes each (`values` holds
// count * width bytes).
void EncodeByteStreamSplit(const uint8_t* values, int64_t count, int width, std::string* out);

// Decodes the values section of one BYTE_STREAM_SPLIT data page into a ValueSink in the
// in-memory layout of the leaf (the conversions of PLAIN values apply).
class ByteStreamSplitReader {
 public:
  explicit ByteStreamSplitReader(const ValueLayout& layout) : layout_(layout) {}

  // Fails with Corruption when the encoding does not apply to the physical type or the
  // section's size is not a multiple of the value width.
  Status Reset(PhysicalType physical, int type_length, const uint8_t* data, int64_t size);
  Status Decode(int64_t count, ValueSink* sink, int64_t pos);
  Status Skip(int64_t count);

 private:
  ValueLayout layout_;
  const uint8_t* data_ = nullptr;
  int width_ = 0;
  int64_t num_values_ = 0;  // values in the page (N)
  int64_t next_ = 0;        // next value to decode
  std::string plain_;       // scratch: values joined back in PLAIN form
};

}  // namespace tarn::parquet
