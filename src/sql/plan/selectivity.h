// How many of a table's rows a WHERE condition keeps, guessed from the condition's shape alone
// (for ordering joins and choosing build sides): an equality with a constant keeps a tenth,
// an IN list of k constants k tenths (half at most), any other comparison, LIKE or test three
// tenths; AND multiplies, OR adds the chances of the rows the earlier branches did not keep,
// NOT takes the rest. A conjunct that repeats one the rows already passed (an OR branch
// restating the shared part of the condition, as TPC-H Q19 does) keeps every row.
//
// Thread-safety: pure functions.
#pragma once

#include <memory>
#include <vector>

#include "expr/parse/ast.h"

namespace tarn::sql {

// The fraction (0, 1] of rows that pass every one of `conjuncts`.
double ConjunctsSelectivity(const std::vector<std::unique_ptr<ast::Expr>>& conjuncts);

}  // namespace tarn::sql
