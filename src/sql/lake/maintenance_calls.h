// CALL of the DuckLake maintenance procedures on the attached lake: ducklake_flush_inlined_data,
// ducklake_merge_adjacent_files, ducklake_rewrite_data_files (tarn/table_write.h does the work).
// Each commits its own snapshot; inside BEGIN ... COMMIT they are refused, as a compaction
// may hold no other change.
//
// Thread-safety: one thread at a time (the session's).
#pragma once

#include <memory>

#include "sql/lake/write_statements.h"
#include "sql/parse/statement.h"
#include "tarn/columnar.h"

namespace tarn::sql {

// Whether `statement` is a CALL of a maintenance procedure tarn runs.
bool IsMaintenanceCall(const Statement& statement);

// Runs it; the result rows are the procedure's (schema_name, table_name, rows_flushed) or
// (schema_name, table_name, files_processed, files_created).
Result<std::shared_ptr<Batch>> RunMaintenanceCall(const Statement& statement, LakeState* lake);

}  // namespace tarn::sql
