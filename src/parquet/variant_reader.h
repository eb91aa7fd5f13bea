// Joins the columns of a Parquet VARIANT group into tarn's VARIANT column: the metadata and
// value binaries, and where the file shredded the variant, its typed_value columns (objects as
// groups of {value, typed_value} per field, arrays as lists of such groups, scalars as typed
// columns), as the Parquet Variant shredding rules lay them out.
//
// Thread-safety: pure functions.
#pragma once

#include <memory>

#include "parquet/schema.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::parquet {

// `group` is the assembled struct column of a VARIANT node (children in node order), whose
// validity is the group's. Returns the kVariant column; a row whose variant is the variant
// null is NULL. Corruption naming the row for bytes that do not decode.
Result<std::shared_ptr<Column>> AssembleVariant(const SchemaNode& node, const Column& group);

}  // namespace tarn::parquet
