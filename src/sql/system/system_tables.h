// DuckDB's catalog views over what the session sees: the table functions duckdb_databases(),
// duckdb_schemas(), duckdb_tables(), duckdb_views(), duckdb_columns() and the views
// information_schema.schemata, .tables and .columns (also `system.information_schema.x`), with
// DuckDB's column names, types and order.
//
// They list the session's own databases "memory" (with the SqlCatalog's tables in schema main)
// and "temp" (internal; its tables and views temporary, of information_schema.tables type
// 'LOCAL TEMPORARY'), DuckDB's "system" (its schemas only), every attached lake (type 'ducklake',
// tags {'data_path': ...}; its schemas, tables and views at the session's view of it, a
// transaction's own changes included) and a lake's catalog database when ATTACH named it
// (METADATA_CATALOG 'm': its tables in schema main), as the extension hides the default
// `__ducklake_metadata_<lake>`. Comments are the lake's committed `comment` tags.
// estimated_size is the table's record count in ducklake_table_stats; a view's columns are
// those of its planned query (none when it no longer plans). Object ids: lakes number
// their databases from 1000 up; schemas, tables and views take their catalog ids.
//
// Thread-safety: one thread at a time (the session's).
#pragma once

#include <memory>
#include <string_view>

#include "sql/parse/statement.h"
#include "sql/plan/source.h"

namespace tarn::sql {

// Whether `name` (lower case) is one of the duckdb_* table functions above.
bool IsSystemTableFunction(std::string_view name);

// Binds a duckdb_* call (no arguments). The rows are read now.
Result<std::unique_ptr<Source>> BindSystemTableFunction(const TableRef& ref,
                                                        std::string_view sql_text,
                                                        const ExecContext& context);

// The information_schema view `ref` names ([catalog.]information_schema.name); null when `ref`
// names none. NotFound for an unknown view of information_schema.
Result<std::unique_ptr<Source>> BindInformationSchema(const TableRef& ref,
                                                      std::string_view sql_text,
                                                      const ExecContext& context);

}  // namespace tarn::sql
