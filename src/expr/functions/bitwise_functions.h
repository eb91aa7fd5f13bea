// Bitwise functions on integers, as DuckDB defines them for every integer type T:
//   a & b, a | b, xor(a, b), ~a -> T
//   a << s -> T: Out of Range for a negative a or s, for s past the width (unless a is 0) and
//     for a result that does not fit ("Overflow in left shift (1 << 31)")
//   a >> s -> T: 0 for s negative or past the width; signed types shift arithmetically
//   bit_count(a) -> T: the set bits of a's two's-complement form in T's width
// Both operands of a binary one have one type (the binder casts them to their common type).
//
// Thread-safety: pure functions.
#pragma once

#include <span>
#include <vector>

#include "expr/functions/functions.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

bool IsBitwiseFunction(FunctionId id);
Status ResolveBitwiseFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                   std::vector<DataType>* cast_to, DataType* result);
Result<Value> InvokeBitwiseFunction(FunctionId id, std::span<const Value> args,
                                    const DataType& result_type);

}  // namespace tarn::expr
