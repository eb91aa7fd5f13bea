// How catalog names and keywords compare: schema, table, view and column names match
// case-insensitively (ASCII letters only), as in DuckDB. Shared by the snapshot lookups (model.cc) and the write
// transaction's view of the catalog (table/write_state.cc).
//
// Thread-safety: pure functions.
#pragma once

#include <string_view>

namespace tarn::catalog_internal {

// Whether `a` and `b` are equal with ASCII letters compared case-insensitively (keywords such
// as NULL, nan or true in catalog text, and names).
bool EqualsIgnoreCase(std::string_view a, std::string_view b);

// Whether `a` and `b` name the same catalog object.
inline bool NameEquals(std::string_view a, std::string_view b) { return EqualsIgnoreCase(a, b); }

}  // namespace tarn::catalog_internal
