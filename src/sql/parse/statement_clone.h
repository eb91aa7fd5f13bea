// Deep copies of parsed queries, and the statements rewrites wrap around one, for rewrites
// that build new statements from parts of one (subquery_rewrite.h, decorrelate.h, pivot.h).
//
// Thread-safety: plain functions.
#pragma once

#include <memory>

#include "sql/parse/statement.h"

namespace tarn::sql {

TableRef CloneTableRef(const TableRef& ref);
std::unique_ptr<SelectStmt> CloneSelect(const SelectStmt& select);
OrderItem CloneOrderItem(const OrderItem& item);

// SELECT * FROM (query), the derived table without an alias.
std::unique_ptr<SelectStmt> SelectAllFrom(std::unique_ptr<SelectStmt> query);
// Copies `from`'s ORDER BY, LIMIT and OFFSET onto `to`.
void CopyOrderAndLimit(const SelectStmt& from, SelectStmt* to);

}  // namespace tarn::sql
