// Shared by the text formatters: the VARCHAR text of a value known to be non-NULL.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tarn/columnar.h"

namespace tarn::format {

// REQUIRES: !column.IsNull(row). Nested children that are NULL print as "NULL".
void AppendNonNullText(const Column& column, int64_t row, std::string* out);

// Inside a list, struct or map DuckDB quotes a value's text with '...' when it would otherwise
// be ambiguous (empty, "null", edge spaces, quotes, brackets, ',', ':', '=').
bool NestedTextNeedsQuotes(std::string_view text);
// 'text' with ' and \ escaped by a backslash.
void AppendQuotedNested(std::string_view text, std::string* out);

}  // namespace tarn::format
