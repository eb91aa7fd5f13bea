// Correlated scalar subqueries as joins with a grouped derived table.
//
// A scalar subquery that reads columns of the query around it
//     (SELECT agg(...) FROM f WHERE inner_1 = outer_1 AND ... AND c)
// where each inner_i reads only f's columns, each outer_i only the outer query's, and c only
// f's, has the value of
//     d.v  for  d = (SELECT inner_1 AS k1, ..., agg(...) AS v FROM f WHERE c GROUP BY k1, ...)
// joined on outer_i = d.ki, with no row of d (NULL) when no row of f matches, so it is planned
// once as a join and not run per outer row. An outer row matches at most one row of d (the
// keys are grouped), and an outer key that is NULL matches none, as the subquery then reads no
// row. An aggregate whose value over no rows is not NULL (count(*), count(x) + 1) takes, for
// an outer row without a group, that value (computed once while planning): d is LEFT-joined
// and the value is CASE WHEN d.k1 IS NULL THEN <value over no rows> ELSE d.v END.
//
// Narrowing: when outer_i is a column of one table or file T of the outer query's FROM clause
// (not a CTE), d reads only the rows of f whose inner_i is one of T's values of that column
// among T's rows that pass the outer WHERE conjuncts reading only T (and no subquery but an
// uncorrelated IN): f is semi-joined with (SELECT outer_i FROM T WHERE those conjuncts). An
// outer row that survives the WHERE clause has its key among those values, so the answer is
// the same, and d's aggregate — and, through the semi join's key filter, the scan of f — reads
// only the rows whose group can be asked for. Done only when such conjuncts exist (else T's
// values are all of them, and reading T again would gain nothing).
//
// Names resolve as DuckDB resolves them: a name of one of f's tables or columns means f's,
// any other the outer query's.
//
// Thread-safety: plain functions.
#pragma once

#include <memory>
#include <string>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

struct DecorrelatedSubquery {
  TableRef derived;                // d, aliased `name` with columns #k1, ..., #v
  std::unique_ptr<ast::Expr> on;   // outer_1 = name."#k1" AND ...
  std::unique_ptr<ast::Expr> value;  // what replaces the subquery in the outer query
  bool needs_left_join = false;    // an outer row without a group still has a value
};

// The query around a correlated subquery, as written: what narrowing reads.
struct OuterQuery {
  const TableRef* from = nullptr;
  std::vector<const ast::Expr*> conjuncts;  // of its WHERE clause
};

// `subquery`: the parsed subquery; `name`: the derived table's alias, unique in the query;
// `outer`: the query around it (null: no narrowing). NotSupported (naming the construct) when
// the subquery is not of the shape above.
Result<DecorrelatedSubquery> DecorrelateScalarSubquery(const SelectStmt& subquery,
                                                       const std::string& name,
                                                       std::string_view sql_text,
                                                       const ExecContext& context,
                                                       const OuterQuery* outer);

// A LATERAL subquery in FROM, `left, LATERAL (SELECT items FROM f WHERE inner_1 = outer_1
// AND ... AND c ...) AS l`, whose items, ORDER BY and c read only f, as a derived table d
// joined to the tables before it on outer_i = d.ki — planned once, not run per left row:
//   - plain:      d = SELECT [DISTINCT] items, inner_1 AS "#k1", ... FROM f WHERE c, inner-joined;
//   - grouped:    GROUP BY g becomes GROUP BY g, inner_1, ... (HAVING as written), inner-joined;
//   - aggregates without GROUP BY: grouped by the keys and LEFT-joined (each left row has one
//     row), when each aggregate is NULL over no rows (else NotSupported: count over no rows
//     would need its 0);
//   - ORDER BY o LIMIT n [OFFSET m] (no aggregates): d numbers each key's rows,
//     row_number() OVER (PARTITION BY inner_1, ... ORDER BY o) AS "#rn", joined on
//     m < "#rn" <= m + n as well: each left row its key's first n rows past m.
// d's key columns come after the items and are hidden from `*`. An outer row whose key is
// NULL matches no row, as the subquery then reads none. Names resolve as in scalar
// subqueries: a name of f's tables or columns is f's, any other the outer query's.
struct DecorrelatedLateral {
  TableRef derived;                // aliased as the lateral subquery
  std::unique_ptr<ast::Expr> on;   // outer_1 = l."#k1" AND ... [AND the row number's bounds]
  bool left_join = false;          // aggregates without GROUP BY: every left row has a row
};

Result<DecorrelatedLateral> DecorrelateLateral(const TableRef& lateral, std::string_view sql_text,
                                               const ExecContext& context);

// Whether a FROM clause joins a LATERAL subquery.
bool HasLateralSubquery(const TableRef& from);

// Each LATERAL subquery of `from` decorrelated (DecorrelateLateral) into its join: a comma,
// CROSS or INNER join stays inner (LEFT for aggregates without GROUP BY, whose ON must then be
// absent or true), a LEFT join stays LEFT; RIGHT and FULL joins are refused as DuckDB refuses
// them.
Status RewriteLateralJoins(TableRef* from, std::string_view sql_text, const ExecContext& context);

}  // namespace tarn::sql
