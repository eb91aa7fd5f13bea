// VARIANT in expressions: casts to and from VARIANT, variant_typeof, and field / index
// extraction (v.name, v['name'], v[1], variant_extract). Semantics and messages are DuckDB
// 1.5's: extraction from a value that is no object or array, or lacks the field, is NULL;
// a variant null at the top level is SQL NULL; a cast that cannot convert names the variant's
// type and value ("Can't convert VARIANT(VARCHAR) value 'hello' to 'INTEGER'").
//
// Thread-safety: pure functions.
#pragma once

#include <span>
#include <vector>

#include "expr/functions/functions.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

// CAST(v AS VARIANT): NULL stays NULL.
Result<Value> CastToVariant(const Value& v);
// CAST(variant AS to). REQUIRES: v is a non-NULL kVariant value.
Result<Value> CastFromVariant(const Value& v, const DataType& to, bool try_cast);
// CAST(variant AS VARCHAR); bytes that do not decode print as a blob.
std::string VariantText(const Value& v);

bool IsVariantFunction(FunctionId id);
Status ResolveVariantFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                   std::vector<DataType>* cast_to, DataType* result);
Result<Value> InvokeVariantFunction(FunctionId id, std::span<const Value> args,
                                    const DataType& result_type);

}  // namespace tarn::expr
