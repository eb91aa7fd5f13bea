// Column-chunk statistics as the footer stores them (plain-encoded min/max bytes, counts),
// decoded into ColumnStatistics holding Values of the column's logical type.
//
// Which bytes are trusted: min_value/max_value when present; the deprecated min/max only where
// their signed byte order is right for the type (signed integers, floats, dates, times,
// timestamps, booleans and decimals stored in INT32/INT64), never for strings, binary,
// unsigned integers, decimals in binary, INT96 or FLOAT16. Floating bounds: a NaN min or max
// is dropped; a min of +0.0 becomes -0.0 and a max of -0.0 becomes +0.0, since writers
// disagree on the sign of zero they record.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string_view>

#include "parquet/metadata.h"
#include "parquet/schema.h"
#include "tarn/parquet.h"

namespace tarn::parquet {

// The chunk's statistics, or nullopt when the chunk records none.
std::optional<ColumnStatistics> DecodeColumnStatistics(const ColumnMetaData& meta,
                                                       const LeafDescriptor& leaf);

// One plain-encoded statistics value as a Value of the leaf's type; nullopt when the bytes
// have the wrong size or the type has no usable order (INT96, INTERVAL).
std::optional<Value> DecodeStatisticsValue(const LeafDescriptor& leaf, std::string_view bytes);

}  // namespace tarn::parquet
