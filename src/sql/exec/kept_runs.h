// Copying the rows a filter keeps as runs of consecutive rows.
//
// A filter that keeps most rows of a batch (TPC-H Q1's keeps 98%) leaves long runs of
// consecutive kept rows; copying each run with one memcpy per column is cheaper than gathering
// every row by its index (tarn::Take).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "tarn/columnar.h"

namespace tarn::sql {

// [start, start + length) ranges of rows, in order, not overlapping.
using RowRuns = std::vector<std::pair<int64_t, int64_t>>;

// The runs of set bits among the first `rows` bits of `keep`.
RowRuns KeptRuns(const uint8_t* keep, int64_t rows);

// True when copying by runs pays: the runs are long on average.
inline bool RunsPay(const RowRuns& runs, int64_t kept) {
  return static_cast<int64_t>(runs.size()) * 16 <= kept;
}

// The rows of `column` in `runs` (kept rows in total), equal to tarn::Take of their indices.
// Boolean, list, map, struct and NULL-typed columns are gathered by index.
std::shared_ptr<Column> CopyRuns(const Column& column, const RowRuns& runs, int64_t kept);

}  // namespace tarn::sql
