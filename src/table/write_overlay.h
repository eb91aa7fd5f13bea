// Read-your-writes: the catalog and a table as a write transaction sees them — its start
// snapshot plus its own changes, in the shapes the scan consumes (LakeSnapshot,
// TableMetadata).
//
// A table's view is its metadata at the start snapshot with:
//   - data files ended by the transaction removed;
//   - a data file's delete file replaced by the one the transaction wrote, or its inlined
//     deletions extended (begin_snapshot = the start snapshot, so the scan counts them);
//   - the transaction's data files appended with provisional (negative) data_file_ids;
//   - the transaction's inlined rows in TableMetadata::pending_inlined_rows and the committed
//     inlined rows it deleted in pending_inlined_row_deletes.
// Rows the transaction inserted get provisional rowids from the table's next_row_id at the
// start snapshot on (files in write order, then inlined rows); the commit assigns the real
// ones, which are the same unless another transaction inserted into the table meanwhile.
// Rewritten rows keep their real rowids.
//
// Thread-safety: uses one WriteState.
#pragma once

#include <memory>

#include "table/write_state.h"

namespace tarn::table_internal {

std::shared_ptr<const LakeSnapshot> OverlaySnapshot(const WriteState& state);

Result<std::shared_ptr<const TableMetadata>> OverlayTable(WriteState& state,
                                                          std::shared_ptr<const TableInfo> table);

// The first provisional rowid of the table's rows inserted by the transaction.
int64_t ProvisionalRowIdBase(const TableMetadata& base);

}  // namespace tarn::table_internal
