// Shared by Arrow export and import: the format strings and extension names of tarn types.
//
// Thread-safety: pure functions and constants.
#pragma once

#include <string>
#include <string_view>

#include "tarn/type.h"

namespace tarn::internal {

// Nesting deeper than this is refused on export and import (it guards the recursion).
constexpr int kMaxArrowDepth = 64;
constexpr const char* kExtensionNameKey = "ARROW:extension:name";
constexpr const char* kFieldIdKey = "PARQUET:field_id";

// The Arrow format string of a tarn type (see the table in type.h).
Result<std::string> ArrowFormatOf(const DataType& type);
// The extension name that disambiguates `type`, or nullptr when the format says it all.
const char* ArrowExtensionOf(const DataType& type);
// The tarn type of a non-nested Arrow format string, refined by an extension name (may be
// empty). Nested formats ("+s", "+l", "+L", "+m") are handled by the caller. Anything else is
// NotSupported naming the format.
Result<DataType> TypeOfArrowFormat(std::string_view format, std::string_view extension);

}  // namespace tarn::internal
