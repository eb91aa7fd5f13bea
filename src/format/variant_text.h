// DuckDB's text of VARIANT values: the VARCHAR cast ("42", "hello world",
// "{'a': 42, 'b': NULL}", "[1, 2, NULL]") and the JSON cast ({"a":42,"b":null}).
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "columnar/variant.h"
#include "tarn/status.h"

namespace tarn::format {

// The VARCHAR text of a variant. At the top level a string prints as it is; inside an object
// or array strings are quoted where DuckDB quotes them, keys always, and a variant null is NULL.
void AppendVariantText(const variant::VariantNode& node, std::string* out);
// The text of the scalar a primitive variant holds, as CAST(scalar AS VARCHAR) gives it.
void AppendScalarText(const Value& scalar, std::string* out);
// The JSON text of a variant (CAST(v AS JSON)): numbers and booleans as JSON literals, other
// scalars as JSON strings of their text, the variant null as null.
void AppendVariantJson(const variant::VariantNode& node, std::string* out);

// The VARCHAR text of in-memory variant bytes; Corruption when they do not decode.
Result<std::string> VariantBytesText(std::string_view bytes);

}  // namespace tarn::format
