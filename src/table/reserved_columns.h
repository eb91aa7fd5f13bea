// Column names the catalog's inlined-data tables use for themselves (row_id, begin_snapshot,
// end_snapshot) and the data files' internal columns (_ducklake_internal_row_id,
// _ducklake_internal_snapshot_id). As the official extension does, a table whose inlining row
// limit is above 0 may not have a column of those names: CREATE TABLE, ADD COLUMN and RENAME
// COLUMN refuse them, and raising a table's limit above 0 is refused while it has one. With
// inlining off (limit 0) the names are ordinary.
//
// Thread-safety: reads one WriteState.
#pragma once

#include <optional>
#include <string>

#include "table/write_state.h"

namespace tarn::table_internal {

// Case-insensitive.
bool IsInlinedSystemColumn(const std::string& name);

// The data_inlining_row_limit in force for a table of `schema_id` (table_id: its options
// too; nullopt for a table being created): table > schema > global, default 10.
Result<int64_t> EffectiveInliningRowLimit(const WriteState& state, int64_t schema_id,
                                          std::optional<int64_t> table_id);

// OK unless `column` is reserved and inlining is on for the table. `error_kind` prefixes the
// message as DuckDB does ("Binder Error" for CREATE TABLE, "Catalog Error" for ALTER).
Status CheckColumnNameAllowed(const WriteState& state, int64_t schema_id,
                              std::optional<int64_t> table_id, const std::string& column,
                              const char* error_kind);

// For ducklake_set_option('data_inlining_row_limit', n > 0) at the given scope (table,
// schema, or global when both are null): every table it would turn inlining on for must have
// no reserved column. Tables kept at 0 by a narrower option are skipped.
Status CheckCanEnableInlining(const WriteState& state, std::optional<int64_t> schema_id,
                              std::optional<int64_t> table_id);

}  // namespace tarn::table_internal
