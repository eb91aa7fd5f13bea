// Aggregate functions: per-group state arrays updated a batch at a time.
//
// count(*), count(x), sum, avg, min, max with DuckDB's result types: sum of any integer is
// HUGEINT, of DECIMAL(p, s) is DECIMAL(38, s), of FLOAT/DOUBLE is DOUBLE; avg is DOUBLE
// (computed as DuckDB does: integer sums divided in double or long double); min/max keep the
// argument's type, with NaN above every number. NULL inputs are skipped; a group with no
// non-NULL input gives NULL (count gives 0).
//
// States combine: a parallel aggregate fills one partial state per input batch and folds the
// partials into the final state in input order. Combining in that order gives exactly what
// updating row by row gives (ties in min/max keep the first value seen), except for floating
// sums, whose rounding depends on the order of additions: those states are order_sensitive()
// and the aggregate replays their rows into the final state instead.
//
// Thread-safety: one state object per thread.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::sql {

class AggregateState {
 public:
  virtual ~AggregateState() = default;
  const DataType& result_type() const { return result_type_; }
  // Grows the state to `groups` groups (new groups start empty).
  virtual void Resize(int64_t groups) = 0;
  // Adds row i of `input` (null for count(*)) to group group_ids[i], for rows where `keep` is
  // null or has bit i set.
  Status Update(const Column* input, const uint32_t* group_ids, int64_t rows,
                const uint8_t* keep) {
    return UpdateRange(input, group_ids, 0, rows, keep);
  }
  // The same for rows i in [begin, end) only (row numbers, group_ids and keep still count from
  // the column's first row): a caller that feeds several states can go through a batch in
  // parts small enough to stay in cache.
  virtual Status UpdateRange(const Column* input, const uint32_t* group_ids, int64_t begin,
                             int64_t end, const uint8_t* keep) = 0;
  // Folds group g of `other` (a state of the same function and type, with `other_groups`
  // groups) into group mapping[g] of this state, as if other's rows came after this state's.
  // REQUIRES: this state has more than every mapping[g] groups.
  virtual void Combine(AggregateState& other, const uint32_t* mapping, int64_t other_groups) = 0;
  // count(x): adds `rows` values known not to be NULL to group 0, without the values, and
  // returns true; states that need the values return false.
  virtual bool AddValueCount(int64_t rows) {
    (void)rows;
    return false;
  }
  // Whether Combine can differ from updating with the same rows in order (floating sums).
  virtual bool order_sensitive() const { return false; }
  // One value per group.
  virtual Result<std::shared_ptr<Column>> Finish(int64_t groups) = 0;
  // Memory per group, for the memory limit (variable-length values add what they hold).
  virtual int64_t MemoryBytes(int64_t groups) const = 0;

 protected:
  DataType result_type_;
};

// Whether `name` (lower case) names an aggregate function: count, sum, avg, mean, min, max,
// count_star, and those of aggregate_library.h.
bool IsAggregateName(std::string_view name);

// The state of `name` over arguments of `input_type` (ignored for count_star); `parameters`
// are the constant arguments after the first (string_agg's separator, a quantile's
// fraction). A type error names the function and type: "No function matches sum(VARCHAR)".
Result<std::unique_ptr<AggregateState>> MakeAggregateState(
    std::string_view name, const DataType& input_type, const std::vector<Value>& parameters = {});

}  // namespace tarn::sql
