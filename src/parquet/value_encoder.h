// The encoding of a column chunk's data pages when they do not hold dictionary indices, and
// the encoding of page values with it: PLAIN, DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
// DELTA_BYTE_ARRAY or BYTE_STREAM_SPLIT.
//
// The chunk writer asks RequestedEncoding first (WriterProperties::column_encoding); without a
// request, ChooseValueEncoding picks DELTA_BINARY_PACKED for INT32/INT64 chunks when
// delta_fallback is on and a probe of the chunk's first values encodes to at most
// kDeltaPaysRatio of their PLAIN size, else PLAIN.
//
// T is the chunk writer's value type: uint8_t (BOOLEAN), int32_t, int64_t, float, double or
// std::string_view (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY).
//
// Thread-safety: stateless functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "parquet/metadata.h"
#include "parquet/writer_schema.h"
#include "tarn/parquet.h"
#include "tarn/status.h"

namespace tarn::parquet {

inline constexpr double kDeltaPaysRatio = 0.8;
inline constexpr int64_t kDeltaProbeValues = 8192;

// The encoding requested for the leaf by the properties, if any.
std::optional<Encoding> RequestedEncoding(const WriterProperties& properties,
                                          const WriterLeaf& leaf);

// OK when `encoding` can encode the data pages of the leaf's physical type without a
// dictionary; InvalidArgument naming the column and both otherwise.
Status CheckValueEncoding(Encoding encoding, const WriterLeaf& leaf);

// The encoding of a chunk that is not dictionary-encoded and has no request.
template <typename T>
Encoding ChooseValueEncoding(const WriterProperties& properties, const WriterLeaf& leaf,
                             const T* values, int64_t count);

// Appends `count` values encoded with `encoding`. REQUIRES: CheckValueEncoding passed.
template <typename T>
void EncodeValuesAs(Encoding encoding, const WriterLeaf& leaf, const T* values, int64_t count,
                    std::string* out);

}  // namespace tarn::parquet
