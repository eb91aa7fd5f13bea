// Measuring a row order: the size of a Parquet file of the rows in that order, written by
// tarn's own writer into a sink that only counts bytes.
//
// Thread-safety: pure functions; each call has its own writer.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/parquet.h"

namespace tarn::layout {

// The size of the file of `batch`'s rows in `order` (row indices), written with `properties`.
Result<int64_t> MeasureOrder(const Batch& batch, std::span<const int64_t> order,
                             const std::shared_ptr<const WriterProperties>& properties);

// Rows 0..rows-1 sorted by the rank columns (each `rows` long), lexicographically; equal rows
// keep their index order.
std::vector<int64_t> SortByRanks(int64_t rows,
                                 std::span<const std::vector<uint32_t>* const> ranks);

}  // namespace tarn::layout
