// Vectorized kernels of the most used scalar functions: string building and searching
// (||, concat, lower, upper, length, replace, trim, starts_with, ends_with, contains),
// greatest / least / nullif over numbers, struct_pack and list_value, and element access of
// lists. Each reads its arguments' buffers directly and writes the result column without a
// Value per row; the semantics are those of the row-wise InvokeFunction, which stays the
// reference (tests compare both with DuckDB).
//
// Thread-safety: pure functions.
#pragma once

#include <vector>

#include "expr/bind/bound.h"
#include "expr/eval/evaluator.h"

namespace tarn::expr {

// The value of the function call `node` over its arguments' values, or a Vec with a null
// column when no kernel covers this function with these argument types (the caller then
// evaluates row by row). Calls whose arguments are all constants are left to the row-wise path.
Result<Vec> FunctionKernel(const BoundNode& node, const std::vector<Vec>& inputs, int64_t rows);

// list[index] (1-based, negative from the end, NULL outside) of a list column.
Result<Vec> ListIndexKernel(const BoundNode& node, const Vec& list, const Vec& index,
                            int64_t rows);

}  // namespace tarn::expr
