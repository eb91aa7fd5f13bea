// INSERT, DELETE and UPDATE on a transaction's state.
//
// New rows: while the transaction's new rows for a table stay within data_inlining_row_limit
// they are kept as inlined rows; the insert that would exceed the limit writes them all (the
// earlier inlined ones too) as Parquet files. Rows rewritten by UPDATE keep their rowids: a
// small set is inlined with its row_ids, a larger one goes to files carrying
// _ducklake_internal_row_id. Rows of the transaction's own inserts that an UPDATE changes are
// simply new rows again (their rowids are assigned at commit).
//
// Thread-safety: uses one WriteState.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "table/write_state.h"
#include "tarn/table_write.h"

namespace tarn::table_internal {

// Inserts rows already arranged in the table's layout (ArrangeRows). Returns files written.
Result<int64_t> InsertNewRows(WriteState& state, const TableInfo& table,
                              std::vector<std::shared_ptr<Batch>> rows);

// Streams `rows` (the statement's input, matched to the table by ArrangeRows) into the
// table: held only while the transaction's new rows could still be inlined, then written to
// data files as they come. The earlier inlined rows of the transaction go to the files too.
Result<WriteResult> InsertRowStream(WriteState& state, const TableInfo& table,
                                    BatchReader& rows);

// Inserts rows that keep `row_ids` (UPDATE rewrites). Returns files written.
Result<int64_t> InsertRowsWithIds(WriteState& state, const TableInfo& table,
                                  std::shared_ptr<Batch> rows, std::vector<int64_t> row_ids);

// Writes the table's pending inlined rows as data files (before DDL changes its layout).
Status FlushPendingInlined(WriteState& state, const TableInfo& table);

// Forgets the table's DML and deletes the files it wrote (DROP TABLE).
void DiscardDml(WriteState& state, int64_t table_id);

Result<WriteResult> DeleteRows(WriteState& state, const std::string& schema,
                               const std::string& table,
                               const std::optional<std::string>& predicate);

// Every row of the table rewritten in the order of its sort key, keeping its rowid (as an
// UPDATE that changes nothing): the old files end, the new ones roll at target_file_size.
Result<WriteResult> RewriteSortedRows(WriteState& state, const std::string& schema,
                                      const std::string& table);
Result<WriteResult> UpdateRows(WriteState& state, const std::string& schema,
                               const std::string& table,
                               const std::vector<UpdateAssignment>& assignments,
                               const std::optional<std::string>& predicate);
// WriteTransaction::UpdateByRowId.
Result<WriteResult> UpdateRowsById(WriteState& state, const std::string& schema,
                                   const std::string& table, const Batch& changes);

// The transaction's changes in commit order: DDL as made, then per table its deletions and
// then its insertions.
LakeChanges BuildChanges(const WriteState& state);

}  // namespace tarn::table_internal
