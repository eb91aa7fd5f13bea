// OpenTableScan: file pruning, the per-file readers, the inlined rows, the residual filter.
#include <algorithm>
#include <mutex>

#include "table/file_pruning.h"
#include "table/file_reader.h"
#include "table/inlined_rows.h"
#include "table/rowid_lookup.h"
#include "table/scan_columns.h"
#include "expr/eval/cast.h"
#include "parquet/filtered_scan.h"
#include "tarn/expr.h"
#include "tarn/table.h"

namespace tarn {

using table_internal::DataFilePlan;
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
    started_ = true;
    while (true) {
      if (read_options_.cancel != nullptr && read_options_.cancel->IsCancelled()) {
        return Status::Cancelled("scan of table '", table_->table->name, "' cancelled");
      }
      TARN_ASSIGN_OR_RETURN(auto internal, NextInternal());
      if (!internal) return internal;
      TARN_ASSIGN_OR_RETURN(auto output, Output(std::move(internal), file_is_local_,
                                                source_name_, &metrics_.rows_filtered));
      if (output->num_rows > 0) return output;
    }
  }

  bool AddRowFilter(std::shared_ptr<const parquet::RowFilter> filter) override {
    if (started_ || parts_planned_) return false;
    // Output columns to internal ones: only the table's columns (not rowid, snapshot_id, the
    // position or the file name).
    std::vector<int> to_internal(columns_.output_columns.size(), -1);
    for (size_t i = 0; i < to_internal.size(); ++i) {
      const int internal = columns_.output_columns[i];
      if (internal >= 0 && internal < static_cast<int>(columns_.needed.size())) {
        to_internal[i] = internal;
      }
    }
    auto remapped = parquet::RemappedRowFilter(std::move(filter), std::move(to_internal));
    if (!remapped) return false;
    read_options_.row_filters.push_back(std::move(remapped));
    return true;
  }

  int64_t num_parts() override {
    if (!parts_planned_) {
      parts_planned_ = true;
      if (!started_ && !lookup_ && read_options_.pool != nullptr) PlanParts();
    }
    return static_cast<int64_t>(parts_.size());
  }

  Result<std::unique_ptr<BatchReader>> OpenPart(int64_t index) const override {
    if (index < 0 || index >= static_cast<int64_t>(parts_.size())) {
      return Status::Internal("no part ", index, " of the scan of table '", table_->table->name,
                              "'");
    }
    std::call_once(parts_counted_once_, [this] {
      std::lock_guard<std::mutex> lock(metrics_mutex_);
      metrics_.files_pruned_by_stats += parts_counted_.files_pruned_by_stats;
      metrics_.files_pruned_by_partition += parts_counted_.files_pruned_by_partition;
      metrics_.files_read += parts_counted_.files_read;
    });
    const Part& part = parts_[static_cast<size_t>(index)];
    if (part.inlined >= 0) {
      const InlinedBatch& inlined = inlined_[static_cast<size_t>(part.inlined)];
      return std::unique_ptr<BatchReader>(
          std::make_unique<PartReader>(this, nullptr, inlined.rows, false, inlined.name));
    }
    const DataFileInfo& file = table_->data_files[part.file];
    std::unique_ptr<DataFileReader> reader;
    if (part.plan) {
      TARN_ASSIGN_OR_RETURN(reader, DataFileReader::Open(part.plan, part.row_groups));
    } else {
      FileReadOptions options = read_options_;
      options.pool = nullptr;
      TARN_ASSIGN_OR_RETURN(auto plan, DataFileReader::Prepare(fs_, file, *table_->table,
                                                               table_->name_mappings,
                                                               columns_.needed,
                                                               columns_.internal_schema,
                                                               options));
      // Every row group, decoded on the calling thread.
      std::vector<int> all(static_cast<size_t>(plan->num_row_groups()));
      for (size_t rg = 0; rg < all.size(); ++rg) all[rg] = static_cast<int>(rg);
      if (all.empty()) {
        TARN_ASSIGN_OR_RETURN(reader, DataFileReader::Open(std::move(plan)));
      } else {
        TARN_ASSIGN_OR_RETURN(reader, DataFileReader::Open(std::move(plan), std::move(all)));
      }
    }
    return std::unique_ptr<BatchReader>(std::make_unique<PartReader>(
        this, std::move(reader), nullptr, file.data_file_id < 0, file.path));
  }

 private:
  // One part: a whole data file, some of a file's row groups, or one batch of inlined rows.
  struct Part {
    size_t file = 0;                           // index into table_->data_files
    std::shared_ptr<const DataFilePlan> plan;  // a split file's, shared by its parts
    std::vector<int> row_groups;               // with `plan`: the part's row groups
    int64_t inlined = -1;                      // index into inlined_, or -1
  };

  // Reads one part: its internal batches through Output; adds its counters at the end.
  class PartReader : public BatchReader {
   public:
    PartReader(const TableScanReaderImpl* scan, std::unique_ptr<DataFileReader> file,
               std::shared_ptr<Batch> inlined, bool file_is_local, std::string source_name)
        : scan_(scan), file_(std::move(file)), inlined_(std::move(inlined)),
          file_is_local_(file_is_local), source_name_(std::move(source_name)) {}
    ~PartReader() override { AddMetrics(); }

    std::shared_ptr<const Schema> schema() const override { return scan_->schema(); }

    Result<std::shared_ptr<Batch>> Next() override {
      while (true) {
        const CancellationToken* cancel = scan_->read_options_.cancel;
        if (cancel != nullptr && cancel->IsCancelled()) {
          return Status::Cancelled("scan of table '", scan_->table_->table->name, "' cancelled");
        }
        std::shared_ptr<Batch> internal;
        if (file_) {
          TARN_ASSIGN_OR_RETURN(internal, file_->Next());
        } else {
          internal = std::move(inlined_);
        }
        if (!internal) {
          AddMetrics();
          return internal;
        }
        TARN_ASSIGN_OR_RETURN(auto output, scan_->Output(std::move(internal), file_is_local_,
                                                         source_name_, &rows_filtered_));
        if (output->num_rows > 0) return output;
      }
    }

   private:
    void AddMetrics() {
      if (added_) return;
      added_ = true;
      std::lock_guard<std::mutex> lock(scan_->metrics_mutex_);
      TableScanMetrics& m = scan_->metrics_;
      m.rows_filtered += rows_filtered_;
      if (file_) {
        const table_internal::FileReadMetrics f = file_->metrics();
        m.row_groups_total += f.row_groups_total;
        m.row_groups_pruned += f.row_groups_pruned;
        m.rows_deleted += f.rows_deleted;
        m.rows_after_snapshot += f.rows_after_snapshot;
      }
    }

    const TableScanReaderImpl* scan_;
    std::unique_ptr<DataFileReader> file_;
    std::shared_ptr<Batch> inlined_;
    bool file_is_local_;
    std::string source_name_;
    int64_t rows_filtered_ = 0;
    bool added_ = false;
  };

  // An internal batch as the scan outputs it: a write transaction's own file with NULL
  // snapshot ids when asked, only the rowids sought, filtered and projected.
  Result<std::shared_ptr<Batch>> Output(std::shared_ptr<Batch> batch, bool file_is_local,
                                        std::string_view source_name,
                                        int64_t* rows_filtered) const {
    if (file_is_local && local_snapshot_id_null_) {
      const int snapshot_column = batch->schema->num_fields() - 2;
      ColumnBuilder nulls(DataType(TypeId::kInt64));
      for (int64_t row = 0; row < batch->num_rows; ++row) nulls.AppendNull();
      auto changed = MakeBatch(batch->schema, batch->columns);
      changed->columns[static_cast<size_t>(snapshot_column)] = nulls.Finish();
      changed->num_rows = batch->num_rows;
      batch = std::move(changed);
    }
    if (lookup_) {
      batch = KeepRowIds(std::move(batch), static_cast<int>(columns_.needed.size()),
                         lookup_->row_ids);
      if (batch->num_rows == 0) return batch;
    }
    return columns_.Finish(*batch, rows_filtered, source_name);
  }

  // The parts, in the order Next() reads: files the pruner keeps, a file of more than two
  // batches' rows opened here and cut into runs of row groups of about a batch each, then the
  // inlined batches. The pruning counters are added when the first part opens.
  void PlanParts() {
    if (!EnsureRanges().ok()) return;  // Next() reports it
    std::vector<Part> parts;
    TableScanMetrics counted;
    const int64_t batch_rows = std::max<int64_t>(1, read_options_.batch_rows);
    for (size_t f = 0; f < table_->data_files.size(); ++f) {
      const DataFileInfo& file = table_->data_files[f];
      if (!KeepFile(file, &counted)) continue;
      if (file.record_count <= 2 * batch_rows) {
        parts.push_back(Part{f, nullptr, {}, -1});
        continue;
      }
      FileReadOptions options = read_options_;
      options.pool = nullptr;
      Result<std::shared_ptr<const DataFilePlan>> plan =
          DataFileReader::Prepare(fs_, file, *table_->table, table_->name_mappings,
                                  columns_.needed, columns_.internal_schema, options);
      if (!plan.ok()) return;  // Next() reads the files one by one and reports it
      const ParquetReader& reader = *(*plan)->reader;
      std::vector<int> run;
      int64_t run_rows = 0;
      for (int rg = 0; rg < reader.num_row_groups(); ++rg) {
        run.push_back(rg);
        run_rows += reader.row_group_num_rows(rg);
        if (run_rows >= batch_rows || rg + 1 == reader.num_row_groups()) {
          parts.push_back(Part{f, *plan, std::move(run), -1});
          run.clear();
          run_rows = 0;
        }
      }
    }
    for (size_t i = 0; i < inlined_.size(); ++i) {
      parts.push_back(Part{0, nullptr, {}, static_cast<int64_t>(i)});
    }
    parts_ = std::move(parts);
    parts_counted_ = counted;
  }

  // The ranges of the row filters (read_options_.ranges), asked once: a join's filter builds
  // the join's side then.
  Status EnsureRanges() {
    if (ranges_asked_) return Status::OK();
    ranges_asked_ = true;
    for (const auto& filter : read_options_.row_filters) {
      TARN_ASSIGN_OR_RETURN(std::optional<parquet::KeptRange> range, filter->Range());
      if (range && range->column >= 0 &&
          range->column < static_cast<int>(columns_.needed.size())) {
        read_options_.ranges.push_back(*range);
      }
    }
    return Status::OK();
  }

  // Whether `file` is read: not pruned by the catalog's statistics or partition values, nor
  // by the row filters' ranges. Counts the decision in `counted`. REQUIRES: EnsureRanges ran.
  bool KeepFile(const DataFileInfo& file, TableScanMetrics* counted) const {
    switch (pruner_->Check(file)) {
      case FilePruner::Decision::kPrunedByStats:
        ++counted->files_pruned_by_stats;
        return false;
      case FilePruner::Decision::kPrunedByPartition:
        ++counted->files_pruned_by_partition;
        return false;
      case FilePruner::Decision::kRead:
        break;
    }
    if (RangesExclude(file)) {
      ++counted->files_pruned_by_stats;
      return false;
    }
    ++counted->files_read;
    return true;
  }

  // Whether the catalog's statistics of `file` put every value of a ranged column outside its
  // range (or the range is empty): then no row of the file is kept.
  bool RangesExclude(const DataFileInfo& file) const {
    for (const parquet::KeptRange& range : read_options_.ranges) {
      const ColumnInfo& column = *columns_.needed[static_cast<size_t>(range.column)];
      if (!parquet::KeptRangeApplies(column.type)) continue;
      if (range.low > range.high) return true;
      const FileColumnStats* stats = file.FindStats(column.column_id);
      if (stats == nullptr) continue;
      if (stats->null_count && *stats->null_count >= file.record_count && file.record_count > 0) {
        return true;
      }
      if (stats->min.is_null() || stats->max.is_null()) continue;
      Result<Value> min = expr::CastValue(stats->min, column.type);
      Result<Value> max = expr::CastValue(stats->max, column.type);
      if (!min.ok() || !max.ok() || !std::holds_alternative<int64_t>(min->storage()) ||
          !std::holds_alternative<int64_t>(max->storage())) {
        continue;
      }
      if (max->GetInt64() < range.low || min->GetInt64() > range.high) return true;
    }
    return false;
  }

  // The next internal batch from the files, then the inlined rows; nullptr at the end.
  Result<std::shared_ptr<Batch>> NextInternal() {
    while (true) {
      if (file_) {
        TARN_ASSIGN_OR_RETURN(auto batch, file_->Next());
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
        TARN_RETURN_NOT_OK(EnsureRanges());
        if (!KeepFile(file, &metrics_)) continue;
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
        file_is_local_ = false;
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
  bool started_ = false;        // Next() was called
  bool ranges_asked_ = false;   // EnsureRanges ran
  bool parts_planned_ = false;  // num_parts() was called
  std::vector<Part> parts_;
  TableScanMetrics parts_counted_;  // the files the parts' plan pruned and kept
  mutable std::once_flag parts_counted_once_;
  // Part readers add their counters to metrics_ under this lock.
  mutable std::mutex metrics_mutex_;
  std::string source_name_;  // the file (or inlined table) the current batch came from
  size_t next_file_ = 0;
  size_t next_inlined_ = 0;
  mutable TableScanMetrics metrics_;
};

}  // namespace

Result<std::unique_ptr<BatchReader>> TableScanReader::OpenPart(int64_t part) const {
  return Status::Internal("this table scan does not split into parts (part ", part, ")");
}

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
