// AND and OR trees of a condition taken apart and put back together, shared by the planners
// of single tables and of joins.
//
// Thread-safety: pure functions.
#pragma once

#include <memory>
#include <vector>

#include "expr/parse/ast.h"

namespace tarn::sql {

// Splits an AND tree into its conjuncts (moved into *out).
void SplitConjuncts(std::unique_ptr<ast::Expr> expr, std::vector<std::unique_ptr<ast::Expr>>* out);

// The conjuncts ANDed left to right; null for none.
std::unique_ptr<ast::Expr> AndAll(std::vector<std::unique_ptr<ast::Expr>> conjuncts);

// `expr` with each OR's shared conjuncts taken out of it: (A AND B) OR (A AND C) becomes
// A AND (B OR C), and (A) OR (A AND B) becomes A. AND and OR distribute in three-valued logic,
// so the value is the same at every row, NULLs included; TPC-H Q19 then tests its shipping
// conditions once rather than once per branch, and a scan can take them. Conjuncts calling a
// volatile function (random()) or holding a subquery stay where they are.
std::unique_ptr<ast::Expr> FactorCommonConjuncts(std::unique_ptr<ast::Expr> expr);

}  // namespace tarn::sql
