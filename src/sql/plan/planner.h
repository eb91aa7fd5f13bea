// The planner: a SelectStmt → a tree of operators, ready to pull batches from.
//
// Shape: source scan (projection and statistics predicate pushed into the reader) → FILTER
// (WHERE) → [HASH_GROUP_BY → FILTER (HAVING)] → [WINDOW → FILTER (QUALIFY)] → PROJECTION
// (select list plus hidden ORDER BY keys) → [DISTINCT] → [ORDER_BY | TOP_N] → [LIMIT]. Names resolve case-insensitively;
// ORDER BY and GROUP BY accept select-list aliases and 1-based positions as DuckDB does.
//
// Thread-safety: one thread at a time.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

// Queries planned within queries (derived tables, CTEs, subqueries, set operation sides) recurse,
// and a chain of CTEs each reading the one before nests as deep as it is long. PlanSelect fails
// with "query nested too deeply" rather than start a level with less than this much of the
// thread's stack left (what running the plan, which recurses as deep, needs besides).
inline constexpr int64_t kPlanStackReserve = 256 << 10;

// `sql_text` is the statement's source, for error positions.
Result<std::unique_ptr<Operator>> PlanSelect(const SelectStmt& select, std::string_view sql_text,
                                             const ExecContext& context);

}  // namespace tarn::sql
