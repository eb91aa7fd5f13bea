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
  // While a recursive CTE's step runs: the rows the previous step added (its working table),
  // which a reference to the CTE reads. Null otherwise.
  std::shared_ptr<Batch> rows;
};

// The CTE `ref` names, or null.
const CteScope* FindCte(const ExecContext& context, const TableRef& ref);

// The operators of a CTE's query, its columns renamed by the CTE's column aliases.
//
// WITH RECURSIVE r AS (anchor UNION [ALL] step): the anchor runs, then the step runs again and
// again with r naming the rows the previous run added, until a run adds none; UNION keeps only
// rows not seen before. The rows are held (within memory_limit, else "Out of Memory Error:
// RECURSIVE_CTE needs ...") and the reference reads them all. Columns are the anchor's, named
// by the aliases; each step's columns are cast to their types.
Result<std::unique_ptr<Operator>> PlanCte(const CteScope& scope, std::string_view sql_text,
                                          const ExecContext& context);

// VALUES (...), (...): each column of the common type of its rows (DuckDB's rules), named
// col0, col1, ...; every row must have as many values as the first.
Result<std::unique_ptr<Operator>> PlanValues(const SelectStmt& values);

}  // namespace tarn::sql
