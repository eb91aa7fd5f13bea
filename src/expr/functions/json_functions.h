// DuckDB's JSON functions (its json extension), over JSON or VARCHAR text:
//   json_extract / json_extract_path(j, path) -> JSON, also `j -> path`: the value at path,
//       minified; NULL when the path misses
//   json_extract_string / json_extract_path_text(j, path) -> VARCHAR, also `j ->> path`: the
//       same with a string unquoted and JSON null as NULL
//   json_value(j, path) -> VARCHAR: a scalar's JSON text, NULL for arrays, objects, null
//   json_exists(j, path) -> BOOLEAN, json_type(j [, path]) -> VARCHAR,
//   json_array_length(j [, path]) -> UBIGINT (0 for a non-array), json_keys(j [, path]) ->
//       VARCHAR[]
//   Each of these takes a list of paths too and answers a list, one element per path.
//   json_valid(s) -> BOOLEAN, json(s) -> JSON (validated and minified), json_pretty(j) ->
//       VARCHAR (indented by four spaces, as yyjson writes), json_structure(j) ->
//       JSON (each value's type; elements and members merged: UBIGINT with BIGINT is HUGEINT,
//       integers with DOUBLE are DOUBLE, NULL takes the other, other mixtures are JSON),
//   json_contains(haystack, needle) -> BOOLEAN, json_merge_patch(a, b, ...) -> JSON (RFC 7386)
//   to_json / json_quote(x), json_array(x, ...), json_object(k, v, ...) -> JSON: values as
//       DuckDB's JSON writer spells them (AppendJsonValue)
// Paths are json_document.h's. A constant path is checked while binding ("Binder Error: JSON
// path error near '...'"); malformed JSON is "Invalid Input Error: Malformed JSON at byte N
// of input: ...". A constant path with wildcards ('$.a[*]', '$.*', '$..a') answers a list of
// every match; in a list of paths it is DuckDB's Binder Error.
//
// Thread-safety: pure functions (the parsed document is thread-local).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "expr/functions/functions.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

bool IsJsonFunction(FunctionId id);
FunctionId LookupJsonFunction(std::string_view lower_name);
const char* JsonFunctionName(FunctionId id);
bool JsonFunctionPropagatesNull(FunctionId id);
Status ResolveJsonFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                const std::vector<const Value*>& constant_args,
                                std::vector<DataType>* cast_to, DataType* result);
Result<Value> InvokeJsonFunction(FunctionId id, std::span<const Value> args,
                                 const DataType& result_type);

// VARCHAR -> JSON: `text` if it is valid JSON, else DuckDB's conversion error.
Status ValidateJsonText(std::string_view text);
// JSON -> any other type, as DuckDB reads JSON into it: JSON null as NULL, a string's contents
// or a scalar's text cast to scalar types (booleans as booleans), arrays into lists, objects
// into structs (every field present, no other key) and maps; a mismatch is DuckDB's
// Conversion Error ("Expected ARRAY, but got OBJECT: ...", "Failed to cast value to
// numerical: [1]").
Result<Value> CastJsonToValue(std::string_view json, const DataType& to);

}  // namespace tarn::expr
