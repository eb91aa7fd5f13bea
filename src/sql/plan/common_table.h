// WITH: common table expressions in scope while a query is planned, and VALUES lists.
//
// PlanSelect makes a query's CTEs visible through ExecContext::ctes, a chain innermost first;
// each CTE sees the ones written before it and the enclosing query's. A FROM item that names a
// CTE (one part, no AT clause) reads the CTE's query, with the CTE's column aliases; CTEs shadow
// tables of the same name. A CTE the query names once is planned in place (filters and limits
// reach its scans). One it names more than once, or written AS MATERIALIZED, is planned once and
// run once: its rows are held (within memory_limit) and every reference reads them, so a chain
// of CTEs each reading the one before twice plans and runs in linear time. AS NOT MATERIALIZED
// plans it at each reference.
//
// Thread-safety: plain functions.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "sql/exec/operator.h"
#include "sql/exec/shared_rows.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

// One link of the chain of CTEs in scope.
struct CteScope {
  const CteScope* parent = nullptr;
  const CommonTableExpr* cte = nullptr;
  // While a recursive CTE's step runs: the rows the previous step added (its working table),
  // which a reference to the CTE reads. Null otherwise.
  std::shared_ptr<Batch> rows;
  // A materialized CTE: its plan and rows, shared by every reference. Null otherwise.
  std::shared_ptr<SharedRows> shared;
};

// Adds to `counts` how many FROM items of `select` name each table of one part without an AT
// clause (by its lowercase name): in its FROM clause, joins, derived tables, set operation
// sides, subqueries of its expressions and, when `with_ctes`, the queries of its own CTEs. An
// inner CTE of the same name is not told apart (a count may be high, never low).
using TableNameCounts = std::unordered_map<std::string, int>;
void CountTableNames(const SelectStmt& select, bool with_ctes, TableNameCounts* counts);

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
