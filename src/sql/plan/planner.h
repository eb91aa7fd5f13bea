// The planner: a SelectStmt → a tree of operators, ready to pull batches from.
//
// Shape: source scan (projection and statistics predicate pushed into the reader) → FILTER
// (WHERE) → [HASH_GROUP_BY → FILTER (HAVING)] → [WINDOW → FILTER (QUALIFY)] → PROJECTION
// (select list plus hidden ORDER BY keys) → [DISTINCT] → [ORDER_BY | TOP_N] → [LIMIT]. Names resolve case-insensitively;
// ORDER BY and GROUP BY accept select-list aliases and 1-based positions as DuckDB does.
//
// Thread-safety: one thread at a time.
#pragma once

#include <memory>
#include <string_view>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

// `sql_text` is the statement's source, for error positions.
Result<std::unique_ptr<Operator>> PlanSelect(const SelectStmt& select, std::string_view sql_text,
                                             const ExecContext& context);

}  // namespace tarn::sql
