// Encoders of Parquet's delta encodings: DELTA_BINARY_PACKED (INT32, INT64),
// DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY. The decoders are in delta_encoding.h.
//
// DELTA_BINARY_PACKED is written with blocks of 128 values in 4 miniblocks of 32 (the layout
// other writers use); deltas wrap in the column's width (32 bits for INT32), so every input is
// encodable. The last miniblock holding values is zero-padded to full size; miniblocks after
// it get bit width 0 and no bytes.
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tarn::parquet {

void EncodeDeltaBinaryPacked(const int32_t* values, int64_t count, std::string* out);
void EncodeDeltaBinaryPacked(const int64_t* values, int64_t count, std::string* out);
// Lengths (DELTA_BINARY_PACKED), then the bytes of every value back to back.
void EncodeDeltaLengthByteArray(const std::string_view* values, int64_t count, std::string* out);
// Prefix lengths shared with the previous value (DELTA_BINARY_PACKED), then the suffixes
// (DELTA_LENGTH_BYTE_ARRAY). Works for BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY values.
void EncodeDeltaByteArray(const std::string_view* values, int64_t count, std::string* out);

}  // namespace tarn::parquet
