// Scalar functions that convert numbers to temporal values, and md5:
//   to_timestamp(DOUBLE seconds) -> TIMESTAMP WITH TIME ZONE
//   to_microseconds(BIGINT), to_milliseconds(DOUBLE), to_seconds(DOUBLE), to_minutes(BIGINT),
//   to_hours(BIGINT), to_days/to_weeks/to_months/to_quarters/to_years/to_decades/
//   to_centuries/to_millennia(INTEGER) -> INTERVAL (what INTERVAL (x) UNIT parses to)
//   trunc(x): toward zero, keeping an integer or floating type
//   md5(VARCHAR) -> VARCHAR, 32 lower-case hex digits
//   murmur3_32(ANY) -> INTEGER: DuckLake's bucket hash (Murmur3Of)
// Fractional amounts round to the nearest microsecond; out-of-range results fail with
// DuckDB's messages ("Interval value 9223372036854775807 minutes out of range").
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "expr/functions/functions.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

bool IsConversionFunction(FunctionId id);
Status ResolveConversionFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                      std::vector<DataType>* cast_to, DataType* result);
Result<Value> InvokeConversionFunction(FunctionId id, std::span<const Value> args,
                                       const DataType& result_type);

// The to_* interval functions (to_seconds, to_days, ...): the interval of `amount` units,
// nullopt when it is out of range or when `id` is not one taking that kind of amount (DOUBLE
// for to_milliseconds and to_seconds, integers for the others). The kernels' row-wise core;
// the error message comes from InvokeConversionFunction.
bool IsIntervalUnitFunction(FunctionId id);
std::optional<Interval> IntervalOfUnits(FunctionId id, double amount);
std::optional<Interval> IntervalOfUnits(FunctionId id, int64_t amount);

// DuckLake's murmur3_32 of a value (Iceberg's bucket hash on DuckDB's physical values):
// booleans, integers up to 64 bits, decimals up to 18 digits (unscaled), dates, times and
// timestamps in their own units, as 8-byte little-endian integers; floats as the bits of the
// double with -0.0 made 0.0; varchar, json and blob as their bytes; other types as DuckDB
// prints them: unsigned and 128-bit integers, wider decimals, uuids, structs, lists and maps.
// nullopt for NULL and the types whose hash this does not reproduce (timetz, interval,
// variant, geometry).
std::optional<int32_t> Murmur3Of(const Value& value);

}  // namespace tarn::expr
