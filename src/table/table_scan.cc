// OpenTableScan: file pruning, the per-file readers, the inlined rows, the residual filter.
#include <algorithm>

#include "table/file_pruning.h"
#include "table/file_reader.h"
#include "table/inlined_rows.h"
#include "table/rowid_lookup.h"
#include "table/scan_columns.h"
#include "tarn/expr.h"
#include "tarn/table.h"

namespace tarn {

using table_internal::DataFileReader;
using table_internal::FilePruner;
using table_internal::FileReadOptions;
using table_internal::IntersectRowIds;
using table_internal::ScanColumns;

namespace {

// The rows of `inlined` (ReadInlinedRows layout) whose row_id is not in `deleted` (sorted):
// a write transaction's view hides the committed inlined rows it deleted.
std::shared_ptr<Batch> DropDeletedInlinedRows(const Batch& inlined,
                                              const std::vector<int64_t>& deleted) {
  const Column& row_ids = inlined.column(0);
  std::vector<uint8_t> keep(static_cast<size_t>((inlined.num_rows + 7) / 8), 0);
  int64_t kept = 0;
  for (int64_t row = 0; row < inlined.num_rows; ++row) {
    if (row_ids.IsValid(row) &&
        std::binary_search(deleted.begin(), deleted.end(), row_ids.values_as<int64_t>()[row])) {
      continue;
    }
    SetBit(keep.data(), row);
    ++kept;
  }
  std::vector<std::shared_ptr<Column>> columns;
  for (const auto& column : inlined.columns) {
    columns.push_back(Filter(*column, keep.data(), kept));
  }
  auto out = MakeBatch(inlined.schema, std::move(columns));
  out->num_rows = kept;
  return out;
}

// The rows of an internal batch whose rowid is in `ids` (sorted); the batch itself when all are.
std::shared_ptr<Batch> KeepRowIds(std::shared_ptr<Batch> batch, int rowid_index,
                                  const std::vector<int64_t>& ids) {
  const Column& rowids = batch->column(rowid_index);
  std::vector<uint8_t> keep(static_cast<size_t>((batch->num_rows + 7) / 8), 0);
  int64_t kept = 0;
  for (int64_t row = 0; row < batch->num_rows; ++row) {
    if (rowids.IsValid(row) &&
        std::binary_search(ids.begin(), ids.end(), rowids.values_as<int64_t>()[row])) {
      SetBit(keep.data(), row);
      ++kept;
    }
  }
  if (kept == batch->num_rows) return batch;
  std::vector<std::shared_ptr<Column>> columns;
  for (const auto& column : batch->columns) columns.push_back(Filter(*column, keep.data(), kept));
  auto out = MakeBatch(batch->schema, std::move(columns));
  out->num_rows = kept;
  return out;
}

// `internal` with its position column numbered 0, 1, ... (inlined rows: their position among
// the rows read) and, when `null_snapshots`, its snapshot_id column NULL.
std::shared_ptr<Batch> PlaceInlinedRows(std::shared_ptr<Batch> internal, bool null_snapshots) {
  const int num_columns = internal->schema->num_fields();
  const int64_t rows = internal->num_rows;
  ColumnBuilder positions(DataType(TypeId::kInt64));
  for (int64_t row = 0; row < rows; ++row) positions.AppendNumber<int64_t>(row);
  std::vector<std::shared_ptr<Column>> columns = internal->columns;
  columns[static_cast<size_t>(num_columns - 1)] = positions.Finish();
  if (null_snapshots) {
    ColumnBuilder snapshots(DataType(TypeId::kInt64));
    for (int64_t row = 0; row < rows; ++row) snapshots.AppendNull();
    columns[static_cast<size_t>(num_columns - 2)] = snapshots.Finish();
  }
  auto out = MakeBatch(internal->schema, std::move(columns));
  out->num_rows = rows;
  return out;
}

// A batch of the inlined rows, with the name its rows give as their filename.
struct InlinedBatch {
  std::shared_ptr<Batch> rows;
  std::string name;
};

// A point lookup's plan: the ids sought and where they sit.
struct RowIdLookup {
  std::vector<int64_t> row_ids;                         // sorted, unique
  bool placed = false;  // positions holds every placement; files absent from it are skipped
  std::map<int64_t, std::vector<int64_t>> positions;    // data_file_id -> positions
};

class TableScanReaderImpl : public TableScanReader {
 public:
  TableScanReaderImpl(std::shared_ptr<FileSystem> fs, std::shared_ptr<const TableMetadata> table,
                      ScanColumns columns, FileReadOptions read_options,
                      std::unique_ptr<FilePruner> pruner, std::vector<InlinedBatch> inlined,
                      std::optional<RowIdLookup> lookup, bool local_snapshot_id_null)
      : fs_(std::move(fs)), table_(std::move(table)), columns_(std::move(columns)),
        read_options_(std::move(read_options)), pruner_(std::move(pruner)),
        inlined_(std::move(inlined)), lookup_(std::move(lookup)),
        local_snapshot_id_null_(local_snapshot_id_null) {
    metrics_.files_total = static_cast<int64_t>(table_->data_files.size());
    metrics_.row_id_lookup = lookup_.has_value() && lookup_->placed;
  }

  std::shared_ptr<const Schema> schema() const override { return columns_.output_schema; }
  const TableScanMetrics& metrics() const override { return metrics_; }
  void set_inlined_rows(int64_t rows) { metrics_.inlined_rows = rows; }

  Result<std::shared_ptr<Batch>> Next() override {
    while (true) {
      if (read_options_.cancel != nullptr && read_options_.cancel->IsCancelled()) {
        return Status::Cancelled("scan of table '", table_->table->name, "' cancelled");
      }
      TARN_ASSIGN_OR_RETURN(auto internal, NextInternal());
      if (!internal) return internal;
      if (lookup_) {
        internal = KeepRowIds(std::move(internal), static_cast<int>(columns_.needed.size()),
                              lookup_->row_ids);
        if (internal->num_rows == 0) continue;
      }
      TARN_ASSIGN_OR_RETURN(auto output,
                            columns_.Finish(*internal, &metrics_.rows_filtered, source_name_));
      if (output->num_rows > 0) return output;
    }
  }

 private:
  // The next internal batch from the files, then the inlined rows; nullptr at the end.
  Result<std::shared_ptr<Batch>> NextInternal() {
    while (true) {
      if (file_) {
        TARN_ASSIGN_OR_RETURN(auto batch, file_->Next());
        if (batch && file_is_local_ && local_snapshot_id_null_) {
          const int snapshot_column = batch->schema->num_fields() - 2;
          ColumnBuilder nulls(DataType(TypeId::kInt64));
          for (int64_t row = 0; row < batch->num_rows; ++row) nulls.AppendNull();
          auto changed = MakeBatch(batch->schema, batch->columns);
          changed->columns[static_cast<size_t>(snapshot_column)] = nulls.Finish();
          changed->num_rows = batch->num_rows;
          batch = std::move(changed);
        }
        if (batch) return batch;
        AddFileMetrics();
        file_.reset();
      }
      if (next_file_ < table_->data_files.size()) {
        const DataFileInfo& file = table_->data_files[next_file_++];
        FileReadOptions file_options = read_options_;
        if (lookup_ && lookup_->placed && file.data_file_id >= 0) {
          auto placed = lookup_->positions.find(file.data_file_id);
          if (placed == lookup_->positions.end()) {
            ++metrics_.files_pruned_by_rowid;
            continue;
          }
          file_options.positions = placed->second;
        }
        switch (pruner_->Check(file)) {
          case FilePruner::Decision::kPrunedByStats:
            ++metrics_.files_pruned_by_stats;
            continue;
          case FilePruner::Decision::kPrunedByPartition:
            ++metrics_.files_pruned_by_partition;
            continue;
          case FilePruner::Decision::kRead:
            break;
        }
        ++metrics_.files_read;
        source_name_ = file.path;
        file_is_local_ = file.data_file_id < 0;  // a write transaction's own file
        TARN_ASSIGN_OR_RETURN(file_, DataFileReader::Open(fs_, file, *table_->table,
                                                          table_->name_mappings,
                                                          columns_.needed,
                                                          columns_.internal_schema,
                                                          file_options));
        continue;
      }
      if (next_inlined_ < inlined_.size()) {
        const InlinedBatch& inlined = inlined_[next_inlined_++];
        source_name_ = inlined.name;
        return inlined.rows;
      }
      return std::shared_ptr<Batch>();
    }
  }

  void AddFileMetrics() {
    auto m = file_->metrics();
    metrics_.row_groups_total += m.row_groups_total;
    metrics_.row_groups_pruned += m.row_groups_pruned;
    metrics_.rows_deleted += m.rows_deleted;
    metrics_.rows_after_snapshot += m.rows_after_snapshot;
  }

  std::shared_ptr<FileSystem> fs_;
  std::shared_ptr<const TableMetadata> table_;
  ScanColumns columns_;
  FileReadOptions read_options_;
  std::unique_ptr<FilePruner> pruner_;
  std::vector<InlinedBatch> inlined_;
  std::optional<RowIdLookup> lookup_;
  bool local_snapshot_id_null_;
  std::unique_ptr<DataFileReader> file_;
  bool file_is_local_ = false;
  std::string source_name_;  // the file (or inlined table) the current batch came from
  size_t next_file_ = 0;
  size_t next_inlined_ = 0;
  TableScanMetrics metrics_;
};

}  // namespace

Result<std::unique_ptr<TableScanReader>> OpenTableScan(Lake& lake, std::shared_ptr<FileSystem> fs,
                                                       std::shared_ptr<const TableMetadata> table,
                                                       const TableScanOptions& options) {
  if (!table || !table->table) return Status::InvalidArgument("OpenTableScan: no table");
  TARN_ASSIGN_OR_RETURN(ScanColumns columns, ScanColumns::Make(*table->table, options));
  FileReadOptions read_options;
  read_options.snapshot_id = table->snapshot_id;
  read_options.predicate = columns.pruning_predicate;
  read_options.predicate_schema = columns.full_schema;
  read_options.pool = options.pool;
  read_options.batch_rows = options.batch_rows;
  read_options.cancel = options.cancel;
  read_options.filter = columns.filter;
  auto pruner = std::make_unique<FilePruner>(columns.pruning_predicate, columns.full_schema, table,
                                             columns.full_filter);

  // A point lookup when the ids sought are known.
  std::optional<RowIdLookup> lookup;
  if (options.use_row_id_lookup) {
    std::optional<std::vector<int64_t>> sought;
    if (options.row_ids) sought = IntersectRowIds(*options.row_ids, *options.row_ids);
    // The pseudo-column rowid follows the table's columns in the full schema; a table column
    // named rowid shadows it, and then the filter does not pin the pseudo-column.
    const int rowid_index = static_cast<int>(table->table->columns.size());
    if (columns.full_filter &&
        columns.full_schema->FindField(kRowIdColumnName) == rowid_index) {
      if (auto pinned = table_internal::PinnedRowIds(*columns.full_filter, rowid_index)) {
        sought = sought ? IntersectRowIds(*sought, *pinned) : std::move(*pinned);
      }
    }
    if (sought) {
      lookup.emplace();
      lookup->row_ids = std::move(*sought);
      TARN_ASSIGN_OR_RETURN(lookup->positions,
                            table_internal::PlaceRowIds(lake, fs, *table, lookup->row_ids));
      lookup->placed = true;
    }
  } else if (options.row_ids) {
    lookup.emplace();
    lookup->row_ids = IntersectRowIds(*options.row_ids, *options.row_ids);
  }

  std::vector<InlinedBatch> inlined;
  int64_t inlined_rows = 0;
  for (const InlinedDataTable& inlined_table : table->table->inlined_tables) {
    TARN_ASSIGN_OR_RETURN(auto rows, lake.ReadInlinedRows(*table, inlined_table,
                                                          InlinedRowSelection::kVisible));
    if (!table->pending_inlined_row_deletes.empty()) {
      rows = DropDeletedInlinedRows(*rows, table->pending_inlined_row_deletes);
    }
    if (rows->num_rows == 0) continue;
    TARN_ASSIGN_OR_RETURN(auto internal, table_internal::InlinedToInternal(
                                             *rows, columns.needed, columns.internal_schema));
    inlined_rows += internal->num_rows;
    inlined.push_back({PlaceInlinedRows(std::move(internal), false), inlined_table.table_name});
  }
  // A write transaction's own inlined rows, not yet committed, numbered as one table.
  std::vector<std::shared_ptr<Batch>> local_rows;
  for (const auto& rows : table->pending_inlined_rows) {
    if (rows->num_rows == 0) continue;
    TARN_ASSIGN_OR_RETURN(auto internal, table_internal::InlinedToInternal(
                                             *rows, columns.needed, columns.internal_schema));
    inlined_rows += internal->num_rows;
    local_rows.push_back(std::move(internal));
  }
  if (!local_rows.empty()) {
    std::shared_ptr<Batch> all =
        local_rows.size() == 1 ? local_rows[0] : ConcatenateBatches(local_rows);
    inlined.push_back({PlaceInlinedRows(std::move(all), options.local_snapshot_id_null),
                       kTransactionLocalInlinedName});
  }
  auto reader = std::make_unique<TableScanReaderImpl>(std::move(fs), std::move(table),
                                                      std::move(columns), std::move(read_options),
                                                      std::move(pruner), std::move(inlined),
                                                      std::move(lookup),
                                                      options.local_snapshot_id_null);
  reader->set_inlined_rows(inlined_rows);
  return std::unique_ptr<TableScanReader>(std::move(reader));
}

Result<std::shared_ptr<Batch>> ScanTableToBatch(Lake& lake, std::shared_ptr<FileSystem> fs,
                                                std::shared_ptr<const TableMetadata> table,
                                                const TableScanOptions& options) {
  TARN_ASSIGN_OR_RETURN(auto reader, OpenTableScan(lake, std::move(fs), std::move(table), options));
  std::vector<std::shared_ptr<Batch>> batches;
  while (true) {
    TARN_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch) break;
    batches.push_back(std::move(batch));
  }
  return table_internal::ConcatenateOrEmpty(reader->schema(), batches);
}

}  // namespace tarn

namespace tarn {

Result<std::shared_ptr<Batch>> LookupTableRows(Lake& lake, std::shared_ptr<FileSystem> fs,
                                               std::shared_ptr<const TableMetadata> table,
                                               std::span<const int64_t> row_ids,
                                               TableScanOptions options) {
  options.row_ids = std::vector<int64_t>(row_ids.begin(), row_ids.end());
  return ScanTableToBatch(lake, std::move(fs), std::move(table), options);
}

}  // namespace tarn
