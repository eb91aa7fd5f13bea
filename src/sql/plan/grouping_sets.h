// GROUP BY GROUPING SETS / ROLLUP / CUBE: a query with several grouping sets becomes the
// UNION ALL of one plain GROUP BY query per set, in the order of the sets.
//
// In the query for one set, outside aggregate calls, each GROUP BY expression the set lacks is
// NULL and grouping(a, b, ...) (also grouping_id) the BIGINT whose bit for each argument,
// the last argument lowest, is 1 when the set lacks it, as in DuckDB. Every select item keeps
// its name. A set without expressions aggregates all rows into one, even when the select list
// holds no aggregate. DISTINCT makes the union UNION; ORDER BY, LIMIT and OFFSET apply to the
// whole result (ORDER BY through names, positions or select-list expressions).
//
// Thread-safety: plain functions.
#pragma once

#include <memory>

#include "sql/parse/statement.h"
#include "tarn/status.h"

namespace tarn::sql {

// REQUIRES: !select.grouping_sets.empty().
Result<std::unique_ptr<SelectStmt>> ExpandGroupingSets(const SelectStmt& select);

}  // namespace tarn::sql
