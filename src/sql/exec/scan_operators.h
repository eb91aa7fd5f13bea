// The Source implementations and their scan operators: Parquet files, CSV files, range(),
// and catalog tables.
//
// Parquet scans push the projection and the statistics predicate into ParquetReader for
// every file (row groups that cannot match are never read) and decode row groups in parallel
// on the session's pool; EXPLAIN shows the files and the row groups considered and pruned.
//
// Thread-safety: one thread at a time.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sql/plan/source.h"
#include "tarn/format.h"

namespace tarn::sql {

struct ParquetSourceOptions {
  std::vector<std::string> files;
  bool file_row_number = false;  // adds a BIGINT file_row_number column
  bool filename = false;         // adds a VARCHAR filename column: the file's path
  // Hive partitioning: the key=value folders of each file's path become columns (a key the
  // file has as a column replaces it, the others follow the file's columns), typed BIGINT
  // or DATE when every file's value is one, else VARCHAR; "NULL" and
  // __HIVE_DEFAULT_PARTITION__ are NULL. nullopt: on when the first file's path has a
  // key=value folder (DuckDB's default).
  std::optional<bool> hive_partitioning;
};

// Opens every file's footer; the files must share one schema (names and types), and with
// hive partitioning the same keys.
Result<std::unique_ptr<Source>> OpenParquetSource(ParquetSourceOptions options,
                                                  const ExecContext& context);
// The files must share one schema.
Result<std::unique_ptr<Source>> OpenCsvSource(std::vector<std::string> files,
                                              CsvReadOptions options, const ExecContext& context);
// One BIGINT column (`column`, "range" by default): start, start + step, ... up to but
// excluding end, or up to end itself when `inclusive` (generate_series).
std::unique_ptr<Source> MakeRangeSource(int64_t start, int64_t end, int64_t step,
                                        std::string column = "range", bool inclusive = false);
// REQUIRES: table outlives the source.
std::unique_ptr<Source> MakeCatalogSource(std::string name, const SqlTable* table,
                                          const ExecContext& context);

}  // namespace tarn::sql
