// Shared by the text formatters: the VARCHAR text of a value known to be non-NULL.
#pragma once

#include <cstdint>
#include <string>

#include "tarn/columnar.h"

namespace tarn::format {

// REQUIRES: !column.IsNull(row). Nested children that are NULL print as "NULL".
void AppendNonNullText(const Column& column, int64_t row, std::string* out);

}  // namespace tarn::format
