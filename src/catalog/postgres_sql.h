// The PostgreSQL dialect of the catalog: the SQL rewriting, the connection-string handling and
// the column types a PostgreSQL catalog declares (as the DuckLake extension creates them there).
#pragma once

#include <string>
#include <string_view>

#include "tarn/status.h"
#include "tarn/type.h"

namespace tarn::catalog_internal {

struct PostgresSql {
  std::string sql;        // with $1, $2, ... placeholders
  size_t num_params = 0;  // the highest placeholder number
};

// Rewrites SQLite placeholders (?N and bare ?) outside string literals and quoted names to
// PostgreSQL's $N. InvalidArgument for an unterminated literal or a placeholder ?0.
Result<PostgresSql> TranslateToPostgres(std::string_view sql);

// The connection string as keyword=value pairs without its password, for messages.
// InvalidArgument (with libpq's reason) when libpq cannot parse it.
Result<std::string> RedactConninfo(const std::string& conninfo);

// A PostgreSQL type name (format_type) in DuckDB's spelling, as DuckDB's PostgreSQL scanner
// shows catalog columns: "bigint" -> "BIGINT", "character varying" -> "VARCHAR", ...
std::string PostgresTypeToDuckDb(std::string_view type);

// The PostgreSQL column type of an inlined-data column of `type`, as the extension creates
// it there: numbers and booleans natively, VARCHAR/JSON and BLOB as bytea, UUID as uuid,
// everything else as its DuckDB text in character varying.
std::string PostgresInlinedColumnType(const DataType& type);

}  // namespace tarn::catalog_internal
