// ducklake_add_data_files: existing Parquet files registered as data files of a table, as the
// official extension registers them. Each file's columns are matched to the table's by name
// (struct fields too, case-insensitively), their types checked against the table's with the
// extension's rules and messages, and the match recorded as a name mapping
// (ducklake_column_mapping / ducklake_name_mapping); `key=value` folders of the path supply
// columns the file lacks and the partition values of a partitioned table; the statistics come
// from the footer. The files stay the user's until the commit: a rollback leaves them.
//
// Thread-safety: uses one WriteState (one thread at a time).
#pragma once

#include <string>
#include <vector>

#include "table/write_state.h"
#include "tarn/table_write.h"

namespace tarn::table_internal {

// Registers `paths` (no globs) with `table` in the transaction. InvalidArgument with the
// extension's message when a file does not fit the table; nothing is registered then.
Result<WriteResult> AddDataFiles(WriteState& state, const TableInfo& table,
                                 const std::vector<std::string>& paths,
                                 const AddDataFilesOptions& options);

}  // namespace tarn::table_internal
