// Column kernels of the JSON functions: to_json, json_array and json_object over columns
// (AppendJsonValue per row), and the functions that read one document per row: json_extract (->),
// json_extract_string (->>), json_value, json_exists, json_type, json_array_length and
// json_valid over a column of JSON or VARCHAR text with one constant path (or none). The path
// is parsed once per batch and one document is reused for every row; the results are those
// of InvokeJsonFunction, which handles the other shapes row by row.
//
// Thread-safety: pure functions.
#pragma once

#include <vector>

#include "expr/bind/bound.h"
#include "expr/eval/evaluator.h"

namespace tarn::expr {

// The call's value over its arguments, or a Vec with a null column when no kernel covers it.
Result<Vec> JsonKernel(const BoundNode& node, const std::vector<Vec>& inputs, int64_t rows);

}  // namespace tarn::expr
