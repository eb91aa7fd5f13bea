// Deep copies of parsed queries, for rewrites that build new statements from parts of one
// (subquery_rewrite.h, decorrelate.h).
//
// Thread-safety: plain functions.
#pragma once

#include <memory>

#include "sql/parse/statement.h"

namespace tarn::sql {

TableRef CloneTableRef(const TableRef& ref);
std::unique_ptr<SelectStmt> CloneSelect(const SelectStmt& select);

}  // namespace tarn::sql
