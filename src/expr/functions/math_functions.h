// DuckDB's numeric functions beyond functions.cc's:
//   gcd / greatest_common_divisor(a, b), lcm / least_common_multiple(a, b) -> BIGINT (HUGEINT
//       for HUGEINT arguments; lcm of negatives is positive)
//   factorial(n) -> HUGEINT ("factorial of a negative number is undefined"; past 33!: out of
//       range)
//   even(x) -> DOUBLE: x rounded away from zero to an even integer
//   nextafter(x, y): the next representable DOUBLE (FLOAT for FLOATs) after x towards y
//   signbit(x) -> BOOLEAN
//   round_even / roundbankers(x, n) -> DOUBLE: half to even at n decimal places
//   fmod(x, y) -> DOUBLE: x - y * floor(x / y)
//   sinh, cosh, tanh, asinh, acosh, atanh, gamma, lgamma -> DOUBLE
//
// Thread-safety: pure functions.
#pragma once

#include <span>
#include <vector>

#include "expr/functions/functions.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

bool IsMathFunction(FunctionId id);
Status ResolveMathFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                std::vector<DataType>* cast_to, DataType* result);
Result<Value> InvokeMathFunction(FunctionId id, std::span<const Value> args,
                                 const DataType& result_type);

}  // namespace tarn::expr
