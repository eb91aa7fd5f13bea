// UNION [ALL], INTERSECT [ALL] and EXCEPT [ALL] of two inputs with the same column types.
//
// Rows compare as whole rows with NULL equal to NULL (and NaN to NaN, -0.0 to 0.0), as GROUP BY
// compares them, which is DuckDB's rule for set operations:
//   UNION ALL       every row of left, then every row of right;
//   UNION           each distinct row of either, once;
//   INTERSECT       each distinct row of left that right has, once;
//   INTERSECT ALL   a row left has l times and right r times, min(l, r) times;
//   EXCEPT          each distinct row of left that right lacks, once;
//   EXCEPT ALL      a row left has l times and right r times, max(l - r, 0) times.
// Rows come out in the order of their first (kept) occurrence in left, then right. The output
// takes left's column names. INTERSECT and EXCEPT read right whole first; the distinct forms
// keep a set of the rows seen; both stay within `memory_limit` or fail naming the operator.
//
// Thread-safety: one thread at a time (an Operator).
#pragma once

#include <cstdint>
#include <memory>

#include "sql/exec/operator.h"

namespace tarn::sql {

enum class SetOperationKind : uint8_t { kUnion, kIntersect, kExcept };

// REQUIRES: left and right have as many columns, of the same types.
std::unique_ptr<Operator> MakeSetOperation(SetOperationKind kind, bool all,
                                           std::unique_ptr<Operator> left,
                                           std::unique_ptr<Operator> right,
                                           int64_t memory_limit);

}  // namespace tarn::sql
