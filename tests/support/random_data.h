// Random, adversarial test data for every type tarn stores: types, schemas, columns, batches,
// and a comparison that explains the first difference between two batches.
//
// Values lean on the edges: empty and long (> 64 KiB) strings, multi-byte UTF-8, NUL bytes in
// blobs, ±0.0, ±inf, NaN with and without the sign bit, integer minima and maxima, decimals at
// the precision limit, the earliest and latest dates and timestamps DuckDB can represent,
// empty and NULL lists, and NULLs at every nesting level.
//
// Thread-safety: functions only; each call uses the caller's generator.
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include "tarn/columnar.h"

namespace tarn::testing {

// A random type over every TypeId except kNull; nested types (struct, list, map) only while
// max_depth > 0, each level using one less.
DataType RandomType(std::mt19937_64& rng, int max_depth);

// `num_fields` fields named c0, c1, ... of random types; a few are NOT NULL. Field ids are
// assigned 1, 2, ... in pre-order over nested fields too, as DuckLake numbers columns.
Schema RandomSchema(std::mt19937_64& rng, int num_fields, int max_depth);

// A column of `rows` random values; each row (and each nullable nested position) is NULL with
// probability null_fraction. The result passes Column::Validate().
std::shared_ptr<Column> RandomColumn(std::mt19937_64& rng, const DataType& type, int64_t rows,
                                     double null_fraction);

// A random value of `type` (never NULL at the top; nested nullable positions may be).
Value RandomValue(std::mt19937_64& rng, const DataType& type, double null_fraction);

// One RandomColumn per field; NOT NULL fields get no NULLs.
std::shared_ptr<Batch> RandomBatch(std::mt19937_64& rng, const Schema& schema, int64_t rows,
                                   double null_fraction);

// "" when the batches hold the same rows (Value ==, so NaN matches NaN and -0.0 differs from
// 0.0); otherwise the first difference: row count, column count or type, or the first
// differing row/column with both values.
std::string DescribeMismatch(const Batch& expected, const Batch& actual);

}  // namespace tarn::testing
