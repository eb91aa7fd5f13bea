// Subqueries in expressions, rewritten before a SELECT is planned.
//
// The statement parser keeps each subquery of an expression as a "#subquery" call node
// ("#exists" for EXISTS) holding the subquery's text. RewriteSubqueries returns the SELECT
// without them:
//   - a WHERE conjunct [NOT] EXISTS (SELECT ... FROM f WHERE c) becomes a SEMI (ANTI) JOIN of
//     the FROM clause with f ON c, so a correlated EXISTS is a join, not a loop; names in c
//     resolve to f's columns first, then to the outer query's;
//   - a WHERE conjunct x IN (subquery) becomes a SEMI JOIN with the subquery on x = its
//     column; x NOT IN (subquery) an ANTI JOIN when the subquery's column holds no NULL (DuckDB:
//     a NULL there makes NOT IN never true; an empty subquery makes it always true; a NULL x
//     is never true otherwise);
//   - a correlated scalar subquery (decorrelate.h) becomes a column of a join with a grouped
//     derived table: an inner join when it is a side of a comparison that is a WHERE conjunct
//     (no row makes the comparison NULL, so the outer row goes either way), else a LEFT JOIN,
//     in WHERE and, in a query without aggregation, in the select list; the derived table
//     (alias "#subqueryN") adds no columns to `*`;
//   - any other uncorrelated subquery is run now: a scalar subquery becomes its value (NULL
//     for no row; more than one row is DuckDB's error), EXISTS true or false, x IN (subquery)
//     an IN list of its values (up to 1,000; IN is false for an empty subquery).
// What remains (a correlated subquery in GROUP BY, HAVING or ORDER BY, of another shape than
// decorrelate.h takes, IN or EXISTS under OR with correlation) fails as not yet supported.
//
// Thread-safety: plain functions.
#pragma once

#include <memory>
#include <string_view>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

// True when some expression of `select` (not of its FROM subqueries) holds a subquery.
bool HasSubqueries(const SelectStmt& select);

// REQUIRES: HasSubqueries(select).
Result<std::unique_ptr<SelectStmt>> RewriteSubqueries(const SelectStmt& select,
                                                      const ExecContext& context);

}  // namespace tarn::sql
