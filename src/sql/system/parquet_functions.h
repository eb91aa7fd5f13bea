// DuckDB's Parquet metadata table functions, over the footers of the files a pattern (or a
// list of patterns) names, with DuckDB's columns and types:
//   parquet_metadata(files)       one row per column chunk: row group (its
//                                 total_compressed_size as the footer has it), offsets, sizes,
//                                 codec, encodings, statistics (as text), key/value metadata;
//                                 path_in_schema's parts joined by ", "
//   parquet_schema(files)         one row per schema element: name, physical type, repetition,
//                                 children, converted and logical type, field id, DuckDB type
//   parquet_file_metadata(files)  one row per file: writer, rows, row groups, sizes
//   parquet_kv_metadata(files)    one row per key/value pair of the footer
// Only footers are read. A file that is not Parquet fails with the reader's message.
//
// Thread-safety: pure functions (the file system is used by one thread at a time).
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/io.h"
#include "tarn/status.h"

namespace tarn::sql {

bool IsParquetMetadataFunction(std::string_view lower_name);

// The rows of function `lower_name` over `files` (already expanded, in order).
Result<std::shared_ptr<Batch>> ParquetMetadataFunction(std::string_view lower_name,
                                                       const std::vector<std::string>& files,
                                                       std::shared_ptr<FileSystem> fs);

}  // namespace tarn::sql
