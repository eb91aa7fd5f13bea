// Inlined rows (ducklake_inlined_data_<table>_<version>) as internal batches: each row under
// the schema version it was written with, mapped to the table's current columns by column id
// (initial defaults for columns added since, promoted types cast); rowid = row_id,
// snapshot_id = begin_snapshot, position = -1.
//
// Thread-safety: pure function.
#pragma once

#include <memory>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/columnar.h"

namespace tarn::table_internal {

// `inlined` is what Lake::ReadInlinedRows returned (row_id, begin_snapshot, end_snapshot,
// then the columns with field_id = column_id).
Result<std::shared_ptr<Batch>> InlinedToInternal(const Batch& inlined,
                                                 const std::vector<const ColumnInfo*>& columns,
                                                 std::shared_ptr<const Schema> internal_schema);

}  // namespace tarn::table_internal
