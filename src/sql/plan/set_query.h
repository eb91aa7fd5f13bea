// Planning a set operation query: UNION [ALL], INTERSECT [ALL], EXCEPT [ALL] (DuckDB's
// semantics, see exec/set_operation.h).
//
// Both queries are planned in the same scope (the CTEs of the enclosing query). They must give
// as many columns ("Binder Error: Set operations can only apply to expressions with the same
// number of result columns"); each output column takes the type both sides convert to (VARCHAR
// when one side is VARCHAR, as in DuckDB; else DuckDB's implicit-cast rules) and the left
// query's name. ORDER BY, LIMIT and OFFSET of the whole query apply to its output, as those of
// SELECT * FROM (the set operation) would: ORDER BY names the output columns or their
// positions.
//
// Thread-safety: plain functions.
#pragma once

#include <memory>
#include <string_view>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

// REQUIRES: select.set_op != SetOp::kNone; `context` holds select's CTEs in scope.
Result<std::unique_ptr<Operator>> PlanSetQuery(const SelectStmt& select, std::string_view sql_text,
                                               const ExecContext& context);

}  // namespace tarn::sql
