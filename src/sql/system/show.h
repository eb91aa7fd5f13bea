// SHOW TABLES, SHOW ALL TABLES and DESCRIBE of lake tables, as DuckDB shows them.
//
//   SHOW TABLES       name: the tables and views of the default database's default schema
//                     (with the SqlCatalog's tables while "memory" is the default); sorted
//   SHOW ALL TABLES   database, schema, name, column_names VARCHAR[], column_types VARCHAR[],
//                     temporary BOOLEAN: every table and view of every database ("memory",
//                     the attached lakes, "temp") and the SqlCatalog's tables (database
//                     "memory", schema "main"), ordered by database, schema, name
//   DESCRIBE t        column_name, column_type, null (YES/NO), key, default, extra (also in
//                     FROM: (DESCRIBE t), (SHOW t))
//
// Thread-safety: one thread at a time.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "sql/exec/operator.h"
#include "sql/lake/lake_source.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

Result<std::shared_ptr<Batch>> ShowTables(bool all, const ExecContext& context);

// DuckDB's spelling of a column's default: an expression's text, a literal as SQL.
std::string DefaultText(const ColumnInfo& column);

// The DESCRIBE rows of `select` when it is exactly `SELECT * FROM <lake table>`; null when it
// is anything else (the caller then describes the query's output columns).
Result<std::shared_ptr<Batch>> DescribeLakeTable(const SelectStmt& select,
                                                 std::string_view sql_text,
                                                 const ExecContext& context);

// DESCRIBE's rows for `select`: a lake table's columns as its catalog declares them
// (DescribeLakeTable), else the query's output columns (nullable; no key, default or extra).
// Also what `FROM (DESCRIBE …)` reads.
Result<std::shared_ptr<Batch>> DescribeRows(const SelectStmt& select, std::string_view sql_text,
                                            const ExecContext& context);

}  // namespace tarn::sql
