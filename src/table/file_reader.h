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

#include "parquet/filtered_scan.h"
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
  // Filters a consumer checks on rows while they decode (a join's key filter), over the
  // internal schema; each evaluated in the scan when its columns are the file's as they are.
  std::vector<std::shared_ptr<const parquet::RowFilter>> row_filters;
  // Their ranges (internal columns): row groups and pages outside them are not read.
  std::vector<parquet::KeptRange> ranges;
};

struct FileReadMetrics {
  int64_t row_groups_total = 0;
  int64_t row_groups_pruned = 0;
  int64_t rows_deleted = 0;
  int64_t rows_after_snapshot = 0;
};

// Everything about reading one data file that does not depend on which of its row groups are
// read: the open Parquet file, where each requested column comes from, the scan's options
// (columns, row-group pruning, the deleted rows left out, the row filter) and the deleted
// positions. Immutable once made: readers of different row groups share one, on any threads.
struct DataFilePlan {
  // Where a requested column comes from.
  struct Source {
    int file_column = -1;          // index into the scan's output; -1 = not in the file
    const Field* file_field = nullptr;
    std::optional<Value> constant;  // hive partition value or initial default
  };
  DataFileInfo file;
  FileReadOptions options;
  std::vector<const ColumnInfo*> columns;
  std::shared_ptr<const Schema> internal_schema;
  std::unique_ptr<ParquetReader> reader;
  ScanOptions scan;
  // options.filter and options.row_filters over the scan's columns, or null.
  std::shared_ptr<const parquet::RowFilter> scan_filter;
  std::vector<Source> sources;
  // A name-mapped file: the source names of nested fields, by column id.
  bool name_mapped = false;
  std::map<int64_t, std::string> mapped_names;
  int row_id_column = -1;    // in the scan's output
  int snapshot_column = -1;  // in the scan's output
  int position_column = -1;  // in the scan's output
  std::vector<uint8_t> deleted;  // bitmap over the file's positions; empty = none
  int64_t positions_deleted = 0;  // options.positions that are deleted (never decoded)

  int num_row_groups() const { return reader->num_row_groups(); }
};

class DataFileReader {
 public:
  // `target` holds the table's columns at the snapshot; `columns` (pointers into it) are the
  // ones to produce; `mappings` the name mappings by mapping_id. Reads the file's footer and
  // its delete files.
  static Result<std::shared_ptr<const DataFilePlan>> Prepare(
      std::shared_ptr<FileSystem> fs, const DataFileInfo& file, const TableInfo& target,
      const std::map<int64_t, NameMapping>& mappings, std::vector<const ColumnInfo*> columns,
      std::shared_ptr<const Schema> internal_schema, const FileReadOptions& options);

  // A reader of the whole file (decoding ahead on options.pool), or, when `row_groups` is not
  // empty, of only those row groups, decoded on the calling thread (one part of a split scan;
  // its metrics count only those row groups).
  static Result<std::unique_ptr<DataFileReader>> Open(std::shared_ptr<const DataFilePlan> plan,
                                                      std::vector<int> row_groups = {});

  // Prepare, then Open of the whole file.
  static Result<std::unique_ptr<DataFileReader>> Open(
      std::shared_ptr<FileSystem> fs, const DataFileInfo& file, const TableInfo& target,
      const std::map<int64_t, NameMapping>& mappings, std::vector<const ColumnInfo*> columns,
      std::shared_ptr<const Schema> internal_schema, const FileReadOptions& options);

  // The next internal batch (never empty), or nullptr at the end.
  Result<std::shared_ptr<Batch>> Next();
  FileReadMetrics metrics() const;

 private:
  DataFileReader() = default;
  Result<std::shared_ptr<Batch>> Convert(const Batch& batch);

  std::shared_ptr<const DataFilePlan> plan_;
  std::unique_ptr<ScanReader> scan_;
  int64_t part_row_groups_ = -1;  // a part: how many row groups it reads; -1 = the whole file
  FileReadMetrics metrics_;
};

}  // namespace tarn::table_internal
