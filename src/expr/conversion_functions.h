// Scalar functions that convert numbers to temporal values, and md5:
//   to_timestamp(DOUBLE seconds) -> TIMESTAMP WITH TIME ZONE
//   to_microseconds(BIGINT), to_milliseconds(DOUBLE), to_seconds(DOUBLE), to_minutes(BIGINT),
//   to_hours(BIGINT), to_days/to_weeks/to_months/to_quarters/to_years/to_decades/
//   to_centuries/to_millennia(INTEGER) -> INTERVAL (what INTERVAL (x) UNIT parses to)
//   trunc(x): toward zero, keeping an integer or floating type
//   md5(VARCHAR) -> VARCHAR, 32 lower-case hex digits
// Fractional amounts round to the nearest microsecond; out-of-range results fail with
// DuckDB's messages ("Interval value 9223372036854775807 minutes out of range").
//
// Thread-safety: pure functions.
#pragma once

#include <span>
#include <vector>

#include "expr/functions.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

bool IsConversionFunction(FunctionId id);
Status ResolveConversionFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                      std::vector<DataType>* cast_to, DataType* result);
Result<Value> InvokeConversionFunction(FunctionId id, std::span<const Value> args,
                                       const DataType& result_type);

}  // namespace tarn::expr
