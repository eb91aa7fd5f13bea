// How catalog names compare: schema, table, view and column names match case-insensitively
// (ASCII letters only), as in DuckDB. Shared by the snapshot lookups (model.cc) and the write
// transaction's view of the catalog (table/write_state.cc).
//
// Thread-safety: pure functions.
#pragma once

#include <string_view>

namespace tarn::catalog_internal {

// Whether `a` and `b` name the same catalog object.
bool NameEquals(std::string_view a, std::string_view b);

}  // namespace tarn::catalog_internal
