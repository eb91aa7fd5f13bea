// Row-group and file pruning: decides from min/max/null/NaN statistics whether any row of a
// group can make a bound predicate TRUE.
//
// The analysis is three-valued per node: can the node be TRUE, FALSE or NULL for some row of
// the group? Comparisons of a column (possibly under a monotone widening cast) with a constant
// read the NaN-safe bounds ColumnStatistics::LowerBound/UpperBound; IS [NOT] NULL reads
// null_count against the group's row count; AND, OR and NOT combine (AnalyzeJunction and
// Negate, which the partition analysis of table/file_pruning.cc shares); anything else may be
// anything. A group is dropped only when no row can be TRUE.
//
// Thread-safety: the predicate is immutable; MayMatch may run on many threads.
#pragma once

#include <memory>
#include <span>

#include "expr/bind/bound.h"
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

// NOT of a node that can be `p`.
inline Possible Negate(const Possible& p) { return Possible{p.may_false, p.may_true, p.may_null}; }

// What an AND (node.kind == kAnd) or OR node can be, given what each child can be by
// `analyze_child(const BoundNode&) -> Possible`, in SQL's three-valued logic (FALSE AND NULL
// is FALSE, TRUE OR NULL is TRUE).
template <typename AnalyzeChild>
Possible AnalyzeJunction(const BoundNode& node, AnalyzeChild&& analyze_child) {
  const bool is_and = node.kind == BoundKind::kAnd;
  Possible result = is_and ? Possible{true, false, false} : Possible{false, true, false};
  bool any_null = false, all_true_or_null = true, all_false_or_null = true;
  for (const auto& child : node.children) {
    const Possible p = analyze_child(*child);
    if (is_and) {
      result.may_true = result.may_true && p.may_true;
      result.may_false = result.may_false || p.may_false;
    } else {
      result.may_true = result.may_true || p.may_true;
      result.may_false = result.may_false && p.may_false;
    }
    any_null = any_null || p.may_null;
    all_true_or_null = all_true_or_null && (p.may_true || p.may_null);
    all_false_or_null = all_false_or_null && (p.may_false || p.may_null);
  }
  result.may_null = any_null && (is_and ? all_true_or_null : all_false_or_null);
  return result;
}

}  // namespace tarn::expr
