// The functions that build nested values: struct_pack ({'k': v}), list_value ([a, b]),
// map(keys, values) (MAP {k: v}) and the scalar range(n) / range(a, b[, step]) giving a
// BIGINT[]. The binder types struct_pack and list_value itself (field names, the elements'
// common type); map and range resolve here. Semantics and messages are DuckDB's.
//
// Thread-safety: pure functions.
#pragma once

#include <span>
#include <vector>

#include "expr/functions/functions.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

bool IsNestedFunction(FunctionId id);
// map and range (struct_pack and list_value are typed by the binder: an error here).
Status ResolveNestedFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                  std::vector<DataType>* cast_to, DataType* result);
Result<Value> InvokeNestedFunction(FunctionId id, std::span<const Value> args,
                                   const DataType& result_type);

}  // namespace tarn::expr
