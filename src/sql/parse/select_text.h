// A query as DuckDB prints it (its SelectNode::ToString), for the texts DuckDB and the
// extension store and show: view definitions, table macros.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>

#include "sql/parse/statement.h"

namespace tarn::sql {

// Expressions parenthesized, names quoted where DuckDB quotes them, aliases with AS. nullopt
// for shapes this does not print (joins, WITH, set operations, windows, VALUES, ...): the
// caller keeps the text as written.
std::optional<std::string> SelectText(const SelectStmt& select);

}  // namespace tarn::sql
