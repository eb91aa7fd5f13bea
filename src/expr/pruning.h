// Row-group and file pruning: decides from min/max/null/NaN statistics whether any row of a
// group can make a bound predicate TRUE.
//
// The analysis is three-valued per node: can the node be TRUE, FALSE or NULL for some row of
// the group? Comparisons of a column (possibly under a monotone widening cast) with a constant
// read the NaN-safe bounds ColumnStatistics::LowerBound/UpperBound; IS [NOT] NULL reads
// null_count against the group's row count; AND, OR and NOT combine; anything else may be
// anything. A group is dropped only when no row can be TRUE.
//
// Thread-safety: the predicate is immutable; MayMatch may run on many threads.
#pragma once

#include <memory>
#include <span>

#include "expr/bound.h"
#include "tarn/parquet.h"

namespace tarn::expr {

struct Possible {
  bool may_true = true;
  bool may_false = true;
  bool may_null = true;
};

// What `node` can evaluate to over a group, with `stats[i]` describing schema column
// `columns[i]` (nullptr = unknown).
Possible Analyze(const BoundNode& node, std::span<const int> columns,
                 std::span<const ColumnStatistics* const> stats, int64_t num_rows);

}  // namespace tarn::expr
