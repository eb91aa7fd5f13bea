// The files a write transaction produces: names (`ducklake-<uuidv7>.parquet`,
// `ducklake-<uuidv7>-delete.parquet`), writer settings from the lake's options, data files
// split at target_file_size with their catalog statistics, and cumulative delete files.
//
// Thread-safety: NewUuidV7 may be called from any thread; the rest use one WriteState.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "table/write_state.h"
#include "tarn/catalog.h"
#include "tarn/lake_write.h"
#include "tarn/layout.h"
#include "tarn/parquet.h"

namespace tarn::table_internal {

// Field ids of the delete file columns (DuckDB's FILENAME / ORDINAL field ids).
inline constexpr int32_t kDeleteFilePathFieldId = 2147483646;
inline constexpr int32_t kDeletePosFieldId = 2147483645;

// A version-7 UUID (RFC 9562): 48 bits of Unix milliseconds, then random bits; strictly
// increasing within a process. Lowercase canonical text.
std::string NewUuidV7();
std::string NewDataFileName();    // ducklake-<uuidv7>.parquet
// ducklake-<uuidv7>-delete.parquet, or -delete.puffin for a deletion vector.
std::string NewDeleteFileName(bool deletion_vector = false);

// The writer settings of `table` (options table > schema > global at the transaction's view):
// its parquet_profile (tarn/layout.h; the read-optimized profile sizes row groups from
// `write_rows`, the rows the write will hold when known), then the explicit parquet_* options and
// target_file_size over it. InvalidArgument naming the option for a value that does not parse.
Result<WriteSettings> ResolveWriteSettings(const WriteState& state, const TableInfo& table,
                                           std::optional<int64_t> write_rows = std::nullopt);

// The Parquet schema of the table's data files: the top-level columns (field id = column id,
// children too), then `_ducklake_internal_row_id` when `with_row_ids`.
std::shared_ptr<const Schema> DataFileSchema(const TableInfo& table, bool with_row_ids);

// `rows` (of DataFileSchema(table, false)) with `row_ids` as their _ducklake_internal_row_id
// column: DataFileSchema(table, true).
std::shared_ptr<Batch> WithRowIds(const TableInfo& table, const Batch& rows,
                                  const std::vector<int64_t>& row_ids);

// Writes `batches` (of `file_schema`) as data files of `table` through MakeTableSink (split by
// partition when the table is partitioned), starting a new file whenever the current one
// reaches target_file_size. Every file written is recorded in
// state.written_files. The NewDataFile changes get provisional ids and statistics.
Result<std::vector<PendingDataFile>> WriteDataFiles(WriteState& state, const TableInfo& table,
                                                    const WriteSettings& settings,
                                                    std::shared_ptr<const Schema> file_schema,
                                                    bool embeds_row_ids,
                                                    std::span<const std::shared_ptr<Batch>> batches);

// Catalog statistics of a written file: one entry per leaf column of the table (internal
// columns skipped); min/max only for types DuckLake keeps them for, exact bounds only.
std::vector<NewFileColumnStats> CatalogStatistics(const WrittenFileInfo& info,
                                                  const TableInfo& table);

// Writes `bytes` as the new file `path` (a deletion vector), synced and closed.
Status WriteFileBytes(const std::shared_ptr<FileSystem>& fs, const std::string& path,
                      std::string_view bytes);

// Writes a delete file at `path` listing `positions` (sorted, unique) of `data_file_path`.
Result<WrittenFileInfo> WriteDeleteFile(const std::shared_ptr<FileSystem>& fs,
                                        const std::string& path,
                                        const std::string& data_file_path,
                                        std::span<const int64_t> positions,
                                        std::shared_ptr<const WriterProperties> properties);

}  // namespace tarn::table_internal
