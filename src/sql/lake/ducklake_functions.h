// The read-only ducklake_* table functions over the attached lake, with the official
// extension's signatures and result columns:
//
//   ducklake_snapshots(cat)            snapshot_id, snapshot_time, schema_version,
//                                      changes MAP(VARCHAR, VARCHAR[]), author,
//                                      commit_message, commit_extra_info
//   ducklake_current_snapshot(cat)     id UBIGINT
//   ducklake_last_committed_snapshot(cat)   id UBIGINT
//   ducklake_table_info(cat)           table_name, schema_id, table_id, table_uuid,
//                                      file_count, file_size_bytes, delete_file_count,
//                                      delete_file_size_bytes
//   ducklake_list_files(cat, table, schema =>, snapshot_version =>, snapshot_time =>)
//                                      data_file, data_file_size_bytes, data_file_footer_size,
//                                      data_file_encryption_key, and the same for delete_file
//   ducklake_table_insertions / _deletions / _changes(cat, schema, table, start, end)
//                                      snapshot_id, rowid[, change_type], <columns>; bounds
//                                      are snapshot ids or timestamps, inclusive
//   ducklake_options(cat)              option_name, description, value, scope, scope_entry
//
// The catalog argument may be left out (the attached lake is the only one). Each function
// reads the lake at the session's view (the latest snapshot, or the open transaction's) and
// materializes its rows. ducklake_set_option and ducklake_set_commit_message change the lake
// and run only through CALL (write_statements.h).
//
// Thread-safety: one thread at a time.
#pragma once

#include <memory>
#include <string_view>

#include "sql/parse/statement.h"
#include "sql/plan/source.h"

namespace tarn::sql {

// Whether `name` (any case) starts with "ducklake_": the extension's functions, which tarn
// binds here (the read-only ones), runs as writes (set_option, set_commit_message) or refuses.
bool IsDucklakeFunction(std::string_view name);
// Whether `name` is one of the read-only functions above.
bool IsReadOnlyDucklakeFunction(std::string_view name);

// Binds a ducklake_* call in FROM or CALL. Errors: no attached lake, a wrong catalog name, the
// wrong number or type of arguments, an unknown table or snapshot.
Result<std::unique_ptr<Source>> BindDucklakeFunction(const TableRef& ref,
                                                     std::string_view sql_text,
                                                     const ExecContext& context);

}  // namespace tarn::sql
