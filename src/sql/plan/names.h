// How DuckDB names a select-list column that has no alias: a column reference by its name,
// count(*) as "count_star()", operators fully parenthesized "(a + 1)", functions as
// "sum(x)", casts as "CAST(x AS INTEGER)", literals as written ('text' quoted).
//
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "expr/parse/ast.h"

namespace tarn::sql {

std::string DefaultColumnName(const ast::Expr& expr);

// Lower-cased ASCII copy.
std::string LowerAscii(std::string text);

}  // namespace tarn::sql
