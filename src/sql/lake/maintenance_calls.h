// CALL of the DuckLake maintenance procedures on the attached lake: ducklake_flush_inlined_data,
// ducklake_merge_adjacent_files, ducklake_rewrite_data_files (tarn/table_write.h does the work).
// Each commits its own snapshot; inside BEGIN ... COMMIT their changes become part of the
// transaction's commit (WriteTransaction::FlushInlinedData has the rules), as the extension
// runs them there. ducklake_expire_snapshots and the cleanups are refused in a transaction.
//
// Thread-safety: one thread at a time (the session's).
#pragma once

#include <memory>
#include <string_view>

#include "sql/lake/write_statements.h"
#include "sql/parse/statement.h"
#include "tarn/columnar.h"

namespace tarn::sql {

// Whether `function` (ducklake_flush_inlined_data, ...) is a maintenance procedure tarn runs;
// IsMaintenanceCall: whether `statement` is a CALL of one.
bool IsMaintenanceCallName(std::string_view function);
bool IsMaintenanceCall(const Statement& statement);

// Runs the procedure `call` names on `lake` (null: none attached); `what` names the call in
// messages. The result rows are the procedure's (schema_name, table_name, rows_flushed) or
// (schema_name, table_name, files_processed, files_created). Called from FROM
// (SELECT ... FROM ducklake_merge_adjacent_files('lake')) it runs while the query is planned.
// Compactions and rewrites report the rows they read to `watch` and stop at its interrupt.
Result<std::shared_ptr<Batch>> RunMaintenanceCall(const TableRef& call, std::string_view what,
                                                  const LakeBinding* lake,
                                                  const WorkWatch& watch = {});
Result<std::shared_ptr<Batch>> RunMaintenanceCall(const Statement& statement, LakeState* lake,
                                                  const WorkWatch& watch = {});

}  // namespace tarn::sql
