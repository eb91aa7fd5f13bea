// The DuckDB test oracle: runs SQL in DuckDB and returns its answer, so tests can compare
// tarn's output with DuckDB's.
//
// DuckDB is reached through node and the npm package @duckdb/node-api installed in
// OracleDir() (tools/oracle) by scripts/setup.sh; tools/oracle/query.mjs does the work.
// The SQL travels in a temporary JSON file, never through a shell. Relative paths in the SQL
// resolve against the calling process's working directory.
//
// Thread-safety: the functions may be called from several threads; each call runs its own
// node process.
#pragma once

#include <string>
#include <vector>

#include "tarn/status.h"

namespace tarn::testing {

// Runs `sql` (one or more statements; the result of the last) in a fresh in-memory DuckDB
// with SET threads=2 and returns its rows as CSV exactly as DuckDB's
// `COPY (...) TO 'file' (HEADER)` writes them. A DuckDB error is InvalidArgument carrying
// DuckDB's message; a missing node or oracle installation is NotFound naming scripts/setup.sh.
Result<std::string> DuckDBQueryCsv(const std::string& sql);

// Runs statements for their effect (e.g. COPY ... TO 'x.parquet'); DuckDB's error on failure.
Status DuckDBExecute(const std::string& sql);

// DuckDBQueryCsv for many queries in one node process (spawning node costs ~100 ms). Returns
// one Result per query, in order; each query has its own fresh database, and an error in one
// does not fail the others.
std::vector<Result<std::string>> DuckDBQueryCsvBatch(const std::vector<std::string>& queries);

}  // namespace tarn::testing
