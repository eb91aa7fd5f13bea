// DuckDB's aggregate functions beyond count, sum, avg, min and max, with its result types,
// NULL handling and messages:
//
//   list / array_agg (NULLs kept; no row: NULL), string_agg / group_concat / listagg (NULLs
//   skipped; separator a constant, default ','), bool_and / bool_or (BOOLEAN), count_if /
//   countif (HUGEINT), first / arbitrary (the first value, NULL included), last, any_value
//   (the first non-NULL value), product (DOUBLE), var_samp / variance, var_pop, stddev_samp /
//   stddev, stddev_pop (DOUBLE, Welford's update in row order as DuckDB computes them),
//   bit_and / bit_or / bit_xor (the integer's type), median and quantile_cont (integers and
//   floats: DOUBLE, interpolated), quantile_disc / quantile (any ordered type: a value of the
//   group), mode (the most frequent value, the first seen among equals), arg_min / min_by /
//   arg_max / max_by (the first argument at the row with the smallest / largest second one;
//   rows where either is NULL are skipped; the argument is a two-field struct),
//   json_group_array (JSON: to_json(list(x)), NULLs kept), json_group_object(k, v) (JSON: an
//   object of every row, repeated keys kept; the argument is a two-field struct).
//
// States hold their values (Value objects for the collecting ones); they combine in input
// order, so a parallel aggregate gives what a row-by-row one gives.
//
// Thread-safety: one state object per thread.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sql/exec/aggregate_function.h"

namespace tarn::sql {

// Whether `name` (lower case) is one of this file's aggregates.
bool IsLibraryAggregateName(std::string_view name);

// How many arguments the aggregate takes: its minimum and maximum (string_agg 1–2, the
// quantiles 2, arg_min 2–3, corr and regr_* 2, the others 1).
std::pair<int, int> LibraryAggregateArity(std::string_view name);

// How many of the arguments are read per row (2 for arg_min, corr and regr_*: given as one
// struct; 1 for the others); the arguments after them are constant parameters (string_agg's
// separator, a quantile's fraction, arg_min's n).
int LibraryAggregateRowArguments(std::string_view name);

// Whether the aggregate sees NULL inputs (list, first, last): FILTER cannot then be written
// as a CASE that gives NULL for the rows it drops.
bool LibraryAggregateKeepsNulls(std::string_view name);

// The state of `name` over `input_type`; `parameters` are the constant arguments after the
// first (string_agg's separator, a quantile's fraction).
Result<std::unique_ptr<AggregateState>> MakeLibraryAggregateState(
    std::string_view name, const DataType& input_type, const std::vector<Value>& parameters);

// Ordered aggregates, f(x ORDER BY k1, k2, ...): the state sorts each group's rows by the
// keys (stably: ties keep input order) and feeds x to f's state in that order. Its argument is
// the struct (x, k1, k2, ...), NULL for a row that FILTER drops; its name encodes the keys'
// directions around f's name. The same state, with no keys, gives FILTER to the aggregates
// that see NULL values (list, first, last).
struct OrderKey {
  bool descending = false;
  bool nulls_first = false;
};
std::string OrderedAggregateName(std::string_view inner, const std::vector<OrderKey>& keys);
bool IsOrderedAggregateName(std::string_view name);
Result<std::unique_ptr<AggregateState>> MakeOrderedAggregateState(
    std::string_view name, const DataType& input_type, const std::vector<Value>& parameters);

}  // namespace tarn::sql
