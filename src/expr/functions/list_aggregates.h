// DuckDB's aggregates over each list's elements:
//   list_aggregate / list_aggr / aggregate / array_aggregate / array_aggr(l, 'name') with
//       name one of count, sum, avg / mean, min, max, and the one-argument aggregates of
//       sql/exec/aggregate_library.h (first, last, median, mode, string_agg, stddev, ...)
//   list_count(l), list_sum(l), list_avg(l), list_min(l), list_max(l), list_first, list_last,
//   list_median, list_mode, list_product, list_string_agg, list_stddev_samp / _pop,
//   list_var_samp / _pop, list_bool_and / _or, list_bit_and / _or / _xor, list_kurtosis(_pop),
//   list_skewness, list_entropy, list_histogram, list_approx_count_distinct, list_mad
// with the aggregates' own result types (sum of an integer list is HUGEINT, avg DOUBLE, ...).
// They run vectorized: every element of a batch's lists goes into one aggregate state (the
// SQL aggregates', sql/exec/aggregate_function.h) grouped by the row it belongs to. A NULL list
// gives NULL, an empty one what the aggregate gives for no rows (count 0, the others NULL).
//
// Thread-safety: pure functions.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "expr/eval/evaluator.h"
#include "expr/functions/functions.h"
#include "expr/functions/list_functions.h"
#include "tarn/status.h"

namespace tarn::expr {

bool IsListAggregate(FunctionId id);
FunctionId LookupListAggregate(std::string_view lower_name);
const char* ListAggregateName(FunctionId id);

// Types a call (the aggregate name of list_aggregate must be a constant), with DuckDB's
// messages.
Status ResolveListAggregateTypes(FunctionId id, std::string_view name,
                                 std::span<const ListArgument> args,
                                 std::vector<DataType>* cast_to, DataType* result);

// The call's value for `rows` rows from its arguments' values.
Result<Vec> EvaluateListAggregate(FunctionId id, const DataType& result_type,
                                  const std::vector<Vec>& inputs, int64_t rows);

}  // namespace tarn::expr
