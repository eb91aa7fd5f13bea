// WITH: common table expressions in scope while a query is planned, and VALUES lists.
//
// PlanSelect makes a query's CTEs visible through ExecContext::ctes, a chain innermost first;
// each CTE sees the ones written before it and the enclosing query's. A FROM item that names a
// CTE (one part, no AT clause) is planned from the CTE's query at each reference, with the
// CTE's column aliases; CTEs shadow tables of the same name.
//
// Thread-safety: plain functions.
#pragma once

#include <memory>
#include <string_view>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

// One link of the chain of CTEs in scope.
struct CteScope {
  const CteScope* parent = nullptr;
  const CommonTableExpr* cte = nullptr;
};

// The CTE `ref` names, or null.
const CteScope* FindCte(const ExecContext& context, const TableRef& ref);

// The operators of a CTE's query, its columns renamed by the CTE's column aliases.
Result<std::unique_ptr<Operator>> PlanCte(const CteScope& scope, std::string_view sql_text,
                                          const ExecContext& context);

// VALUES (...), (...): each column of the common type of its rows (DuckDB's rules), named
// col0, col1, ...; every row must have as many values as the first.
Result<std::unique_ptr<Operator>> PlanValues(const SelectStmt& values);

}  // namespace tarn::sql
