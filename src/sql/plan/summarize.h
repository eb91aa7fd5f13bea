// SUMMARIZE (DuckDB's statement) rewritten into a query.
//
// SUMMARIZE relation is, for the relation's columns c1, c2, ... (found by planning it),
//   SELECT unnest(column_name) AS column_name, ..., unnest(null_percentage) AS null_percentage
//   FROM (SELECT ['c1', 'c2'] AS column_name, [type of c1, ...] AS column_type,
//                [min(c1)::VARCHAR, ...] AS min, ... FROM (SELECT * FROM relation))
// with DuckDB's columns: min, max, approx_unique (approx_count_distinct), avg (numbers, dates
// and timestamps), std (stddev of numbers), q25 / q50 / q75 (approx_quantile of numbers, dates,
// timestamps and times), count (all rows) and null_percentage (DECIMAL(9,2), NULL without
// rows); the statistics a column's type has not are NULL.
//
// Thread-safety: RewriteSummarize plans the relation on `context` (planning runs nothing but
// sources that act when planned).
#pragma once

#include <memory>
#include <string_view>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

// REQUIRES: select.summarize. The query the statement means (its ORDER BY, LIMIT and OFFSET
// applied over it).
Result<std::unique_ptr<SelectStmt>> RewriteSummarize(const SelectStmt& select,
                                                     std::string_view sql_text,
                                                     const ExecContext& context);

}  // namespace tarn::sql
