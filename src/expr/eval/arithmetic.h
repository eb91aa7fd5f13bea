// Row-at-a-time arithmetic on Values with DuckDB's semantics: integer overflow is an error
// ("Overflow in addition of INT32 (2147483647 + 1)!"), `//` and `%` by zero give NULL,
// floating point follows IEEE, DECIMAL results are checked against their width, and
// DATE/TIMESTAMP/INTERVAL arithmetic follows calendar rules. The evaluator's typed loops
// implement the common integer and floating cases with the same semantics.
//
// Thread-safety: pure functions.
#pragma once

#include "expr/parse/ast.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

// `left op right` for non-NULL operands of the types the binder chose; result_type is the
// node's type. May return a NULL Value (division by zero).
Result<Value> ArithmeticValues(ast::Op op, const Value& left, const Value& right,
                               const DataType& result_type);
Result<Value> NegateValue(const Value& v);

// The overflow error for an integer operation, in DuckDB's words.
Status OverflowError(ast::Op op, TypeId type, __int128 left, __int128 right);

}  // namespace tarn::expr
