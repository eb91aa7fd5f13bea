// PIVOT and UNPIVOT (DuckDB's statements) rewritten into queries.
//
// UNPIVOT source ON a, b INTO NAME n VALUE v is
//   SELECT * EXCLUDE (a, b), unnest(['a', 'b']) AS n, unnest([a, b]) AS v FROM source
// without the rows whose v is NULL (unless INCLUDE NULLS): every other column, then one row per
// named column.
//
// PIVOT source ON k [IN (v1, ...)] USING agg(x) [AS name], ... [GROUP BY g, ...] is
//   SELECT g, ..., agg(x) FILTER (WHERE k = v1) AS "v1", ... FROM source GROUP BY g, ...
// with, when GROUP BY is absent, every column of the source that neither k nor an aggregate
// reads as the groups (`* EXCLUDE (...)` with GROUP BY ALL); without IN the values are k's
// distinct non-NULL values, sorted, read from the source while planning. Without USING each
// cell counts its rows. A column is named by its value's text, followed by `_name` (the
// aggregate's alias, else its text) when USING lists several aggregates or names one.
//
// Thread-safety: RewritePivot runs the query that finds the values on `context`.
#pragma once

#include <memory>
#include <string_view>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

// REQUIRES: select.pivot. The query the statement means (its ORDER BY, LIMIT and OFFSET
// applied over it).
Result<std::unique_ptr<SelectStmt>> RewritePivot(const SelectStmt& select, std::string_view sql_text,
                                                 const ExecContext& context);

}  // namespace tarn::sql
