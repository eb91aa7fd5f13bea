// Applying matched deletions to a transaction's state.
//
// Per committed data file, over the whole transaction: every row gone → EndDataFile; at most
// data_inlining_row_limit positions deleted by this transaction → InlinedFileDeletes; more →
// a cumulative delete file (every position deleted so far: the old delete file, the inlined
// deletions and the new ones, sorted) that replaces the file's visible delete file. A later
// delete in the same transaction re-decides and replaces the delete file it wrote.
// Committed inlined rows → InlinedRowDeletes. Rows the transaction inserted itself leave the
// pending change: its data files are rewritten without them (or dropped when empty), its
// inlined rows are removed.
//
// Thread-safety: uses one WriteState.
#pragma once

#include <cstdint>

#include "table/write_match.h"
#include "table/write_state.h"

namespace tarn::table_internal {

// Deletes the matched rows: delete files for committed files, rewrites of the transaction's own
// files, and the inlined rows. The committed files' positions are moved out of `matched`.
// Returns the number of files written (delete files and rewritten data files).
Result<int64_t> ApplyDeletes(WriteState& state, const TableInfo& table,
                             const WriteSettings& settings, MatchedRows& matched);

}  // namespace tarn::table_internal
