// Whether a word is a DuckDB SQL keyword (case-insensitive), which must be quoted when used as
// an identifier in DuckDB's spelling of a type.
//
// Thread-safety: pure function over constant data.
#pragma once

#include <string_view>

namespace tarn::internal {

bool IsSqlKeyword(std::string_view word);

}  // namespace tarn::internal
