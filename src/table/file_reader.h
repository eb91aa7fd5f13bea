// Reading one data file of a table as of a snapshot: the Parquet scan with projection,
// row-group pruning and physical positions, then deletes by position, the partial-file
// snapshot filter, row lineage and column conformance. Produces "internal batches": the
// requested table columns (conformed to the table's types), then rowid, snapshot_id and the
// physical position (see MakeInternalSchema).
//
// Thread-safety: one reader per thread.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/columnar.h"
#include "tarn/expr.h"
#include "tarn/io.h"
#include "tarn/parquet.h"
#include "tarn/thread_pool.h"

namespace tarn::table_internal {

// Field ids of DuckLake's internal columns in data files.
inline constexpr int32_t kRowIdFieldId = 2147483540;
inline constexpr int32_t kSnapshotIdFieldId = 2147483539;
inline constexpr const char* kRowIdInternalName = "_ducklake_internal_row_id";
inline constexpr const char* kSnapshotIdInternalName = "_ducklake_internal_snapshot_id";
inline constexpr const char* kPositionColumnName = "__tarn_position";

// The columns, then rowid, snapshot_id and the position (BIGINT; -1 for inlined rows).
std::shared_ptr<const Schema> MakeInternalSchema(const std::vector<const ColumnInfo*>& columns);

struct FileReadOptions {
  int64_t snapshot_id = 0;
  // Drop positions deleted at snapshot_id. Off for change feeds, which want every row.
  bool apply_deletes = true;
  // Drop rows of partial files written after snapshot_id.
  bool apply_snapshot_filter = true;
  // Row-group pruning: a predicate made over `predicate_schema`, whose first fields are the
  // target table's columns. Null = none.
  std::shared_ptr<const StatisticsPredicate> predicate;
  std::shared_ptr<const Schema> predicate_schema;
  ThreadPool* pool = nullptr;
  int64_t batch_rows = 122880;
  const CancellationToken* cancel = nullptr;
  // Only these physical positions (sorted, unique; a point lookup's placements). Each must lie
  // in the file (Corruption otherwise). nullopt = every position.
  std::optional<std::vector<int64_t>> positions;
  // The caller's row filter, over the internal schema (MakeInternalSchema(columns)), or null.
  // When it reads only columns the file holds as they are (no conversion) and cannot fail,
  // the Parquet scan evaluates it while decoding and drops most rows it rejects early (see
  // parquet/filtered_scan.h). The caller still applies it to the rows it gets.
  std::shared_ptr<const BoundExpr> filter;
};

struct FileReadMetrics {
  int64_t row_groups_total = 0;
  int64_t row_groups_pruned = 0;
  int64_t rows_deleted = 0;
  int64_t rows_after_snapshot = 0;
};

class DataFileReader {
 public:
  // `target` holds the table's columns at the snapshot; `columns` (pointers into it) are the
  // ones to produce; `mappings` the name mappings by mapping_id.
  static Result<std::unique_ptr<DataFileReader>> Open(
      std::shared_ptr<FileSystem> fs, const DataFileInfo& file, const TableInfo& target,
      const std::map<int64_t, NameMapping>& mappings, std::vector<const ColumnInfo*> columns,
      std::shared_ptr<const Schema> internal_schema, const FileReadOptions& options);

  // The next internal batch (never empty), or nullptr at the end.
  Result<std::shared_ptr<Batch>> Next();
  FileReadMetrics metrics() const;

 private:
  // Where a requested column comes from.
  struct Source {
    int file_column = -1;          // index into the scan's output; -1 = not in the file
    const Field* file_field = nullptr;
    std::optional<Value> constant;  // hive partition value or initial default
  };
  DataFileReader() = default;
  Result<std::shared_ptr<Batch>> Convert(const Batch& batch);
  // options.filter over the scan's columns, when it can be evaluated there; else null.
  std::shared_ptr<const BoundExpr> ScanFilter(const BoundExpr& filter) const;

  DataFileInfo file_;
  FileReadOptions options_;
  std::vector<const ColumnInfo*> columns_;
  std::shared_ptr<const Schema> internal_schema_;
  std::unique_ptr<ParquetReader> reader_;
  std::unique_ptr<ScanReader> scan_;
  std::vector<Source> sources_;
  // A name-mapped file: the source names of nested fields, by column id.
  bool name_mapped_ = false;
  std::map<int64_t, std::string> mapped_names_;
  int row_id_column_ = -1;    // in the scan's output
  int snapshot_column_ = -1;  // in the scan's output
  int position_column_ = -1;  // in the scan's output
  std::vector<uint8_t> deleted_;  // bitmap over the file's positions; empty = none
  FileReadMetrics metrics_;
};

}  // namespace tarn::table_internal
