// COPY (query) TO 'file': streams a query's batches into a Parquet, CSV or JSON-lines file.
//
// The format comes from the FORMAT option or else the file's extension (.parquet, .csv,
// .json/.ndjson). Options: FORMAT, HEADER (CSV, default true), DELIMITER/SEP (CSV),
// COMPRESSION (Parquet codec: snappy default, zstd, gzip, lz4, brotli, uncompressed),
// ROW_GROUP_SIZE (Parquet rows per row group), PARTITION_BY (cols) with OVERWRITE_OR_IGNORE
// (Parquet only: hive folders `col=value/…/data_0.parquet` under the target folder, as DuckDB
// writes them, the partition columns only in the folder names). Repeated column names are
// told apart as DuckDB's COPY does (k, k_1, …: DistinctColumnNames). A failed write leaves no
// file behind.
//
// Thread-safety: one thread at a time.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

// Returns the number of rows written.
Result<int64_t> ExecuteCopy(Operator* input, const Statement& copy, const ExecContext& context);

}  // namespace tarn::sql
