// ParquetReader and its ScanReader: footer validation, projection, row-group pruning and
// selection, parallel row-group decoding with in-order delivery, and the physical position
// column. See docs/parquet-reader.md.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <future>

#include "parquet/column_reader.h"
#include "parquet/metadata.h"
#include "parquet/record_assembler.h"
#include "parquet/schema.h"
#include "parquet/statistics.h"
#include "tarn/parquet.h"

namespace tarn {

namespace {

using parquet::ColumnChunkReader;
using parquet::ColumnMetaData;
using parquet::FileMetaData;
using parquet::FileSchema;
using parquet::LeafDescriptor;
using parquet::LeafOutput;
using parquet::SchemaNode;

// Everything a scan needs from the opened file; shared so scans may outlive the reader.
struct FileState {
  std::shared_ptr<RandomAccessFile> file;
  std::string path;
  int64_t file_size = 0;
  int64_t footer_size = 0;
  FileMetaData metadata;
  FileSchema schema;
  std::vector<int64_t> first_rows;  // per row group
  int64_t num_rows = 0;
};

Status Encrypted(const std::string& path, const char* why) {
  return Status::NotSupported(path, ": encrypted Parquet file (", why,
                              "); tarn has no decryption keys");
}

Result<std::shared_ptr<FileState>> OpenState(std::shared_ptr<RandomAccessFile> file) {
  auto state = std::make_shared<FileState>();
  state->path = file->path();
  state->file_size = file->size();
  state->file = std::move(file);
  const std::string& path = state->path;
  const int64_t size = state->file_size;
  if (size < 12) {
    return Status::Corruption(path, ": not a Parquet file (", size,
                              " bytes is too small for the magic and footer)");
  }
  uint8_t tail[8];
  TARN_RETURN_NOT_OK(state->file->ReadAt(size - 8, 8, tail));
  if (std::memcmp(tail + 4, "PARE", 4) == 0) return Encrypted(path, "PARE footer magic");
  if (std::memcmp(tail + 4, "PAR1", 4) != 0) {
    return Status::Corruption(path, ": not a Parquet file (no PAR1 magic at the end)");
  }
  uint8_t head[4];
  TARN_RETURN_NOT_OK(state->file->ReadAt(0, 4, head));
  if (std::memcmp(head, "PAR1", 4) != 0) {
    return Status::Corruption(path, ": not a Parquet file (no PAR1 magic at the start)");
  }
  uint32_t footer_length;
  std::memcpy(&footer_length, tail, 4);
  if (footer_length == 0 || static_cast<int64_t>(footer_length) > size - 12) {
    return Status::Corruption(path, ": footer length ", footer_length, " does not fit in a file of ",
                              size, " bytes");
  }
  const int64_t footer_offset = size - 8 - footer_length;
  std::string footer(footer_length, '\0');
  TARN_RETURN_NOT_OK(state->file->ReadAt(footer_offset, footer_length,
                                         reinterpret_cast<uint8_t*>(footer.data())));
  Result<FileMetaData> metadata = parquet::DecodeFileMetaData(footer);
  if (!metadata.ok()) {
    return metadata.status().WithContext(StrCat(path, ": footer at offset ", footer_offset));
  }
  state->metadata = std::move(metadata).value();
  state->footer_size = footer_length;
  const FileMetaData& meta = state->metadata;
  if (meta.has_encryption_algorithm) return Encrypted(path, "plaintext footer of an encrypted file");
  for (const auto& row_group : meta.row_groups) {
    for (const auto& chunk : row_group.columns) {
      if (chunk.has_crypto_metadata || chunk.encrypted_column_metadata) {
        return Encrypted(path, "encrypted column chunks");
      }
    }
  }
  Result<FileSchema> schema = FileSchema::Make(meta.schema);
  if (!schema.ok()) return schema.status().WithContext(path);
  state->schema = std::move(schema).value();
  const auto& leaves = state->schema.leaves();
  int64_t first_row = 0;
  for (size_t rg = 0; rg < meta.row_groups.size(); ++rg) {
    const auto& row_group = meta.row_groups[rg];
    if (row_group.columns.size() != leaves.size()) {
      return Status::Corruption(path, ": row group ", rg, " has ", row_group.columns.size(),
                                " column chunks; the schema has ", leaves.size(), " leaf columns");
    }
    if (row_group.num_rows < 0 || row_group.num_rows > INT64_MAX / 2 - first_row) {
      return Status::Corruption(path, ": row group ", rg, " declares ", row_group.num_rows,
                                " rows");
    }
    for (size_t column = 0; column < leaves.size(); ++column) {
      const auto& chunk = row_group.columns[column];
      if (!chunk.meta_data) {
        return Status::Corruption(path, ": row group ", rg, ", column ",
                                  leaves[column].PathString(), ": no column metadata");
      }
      if (chunk.file_path) {
        return Status::NotSupported(path, ": row group ", rg, ", column ",
                                    leaves[column].PathString(), ": column data in another file ('",
                                    *chunk.file_path, "')");
      }
      if (chunk.meta_data->type != leaves[column].physical_type) {
        return Status::Corruption(path, ": row group ", rg, ", column ",
                                  leaves[column].PathString(), ": chunk type ",
                                  parquet::PhysicalTypeName(chunk.meta_data->type),
                                  " differs from the schema's ",
                                  parquet::PhysicalTypeName(leaves[column].physical_type));
      }
    }
    state->first_rows.push_back(first_row);
    first_row += row_group.num_rows;
  }
  state->num_rows = first_row;
  return state;
}

// ---- scanning ---------------------------------------------------------------------------

struct ScanPlan {
  std::shared_ptr<const FileState> file;
  std::vector<int> columns;               // top-level column indexes, output order
  std::vector<int> leaves;                // leaves to decode
  std::vector<bool> keep_levels;          // per leaf index
  std::shared_ptr<const Schema> schema;   // output schema
  bool with_position = false;
  int64_t batch_rows = 0;
  const CancellationToken* cancel = nullptr;
};

struct RowGroupTask {
  int row_group = 0;
  std::vector<std::pair<int64_t, int64_t>> ranges;  // rows within the row group, sorted
};

struct RowGroupOutput {
  std::vector<std::shared_ptr<Batch>> batches;
  ScanMetrics metrics;
};

std::string ChunkContext(const FileState& file, int row_group, const LeafDescriptor& leaf) {
  return StrCat(file.path, ": row group ", row_group, ", column ", leaf.PathString());
}

Result<RowGroupOutput> DecodeRowGroup(const ScanPlan& plan, const RowGroupTask& task) {
  const FileState& file = *plan.file;
  const auto& row_group = file.metadata.row_groups[task.row_group];
  const auto& descriptors = file.schema.leaves();
  RowGroupOutput output;
  if (plan.cancel != nullptr) TARN_RETURN_NOT_OK(plan.cancel->Check("Parquet scan"));
  // The byte range of each needed chunk, checked against the file before reading it.
  const int64_t data_end = file.file_size - 8 - file.footer_size;
  std::vector<std::string> chunk_bytes(descriptors.size());
  std::vector<std::unique_ptr<ColumnChunkReader>> readers(descriptors.size());
  for (int leaf : plan.leaves) {
    const LeafDescriptor& descriptor = descriptors[leaf];
    const ColumnMetaData& meta = *row_group.columns[leaf].meta_data;
    int64_t start = meta.data_page_offset;
    if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0 &&
        *meta.dictionary_page_offset < start) {
      start = *meta.dictionary_page_offset;
    }
    const int64_t length = meta.total_compressed_size;
    if (start < 4 || length < 0 || start > data_end || length > data_end - start) {
      return Status::Corruption(ChunkContext(file, task.row_group, descriptor),
                                ": column chunk at offset ", start, " of ", length,
                                " bytes lies outside the data section (", data_end, " bytes)");
    }
    chunk_bytes[leaf].resize(static_cast<size_t>(length));
    TARN_RETURN_NOT_OK(file.file->ReadAt(start, length,
                                         reinterpret_cast<uint8_t*>(chunk_bytes[leaf].data())));
    output.metrics.bytes_read += length;
    readers[leaf] = std::make_unique<ColumnChunkReader>(
        descriptor, meta, chunk_bytes[leaf], start, row_group.num_rows,
        ChunkContext(file, task.row_group, descriptor), plan.cancel);
  }
  const int64_t first_row = file.first_rows[task.row_group];
  int64_t selected = 0;
  for (const auto& range : task.ranges) selected += range.second - range.first;
  output.metrics.rows_decoded = selected;
  output.metrics.rows_skipped = row_group.num_rows - selected;

  // Cut the selected ranges into batches of at most batch_rows rows.
  std::vector<std::pair<int64_t, int64_t>> pieces;  // (start, length) within the row group
  int64_t cursor = 0;                                // next undecoded row, same for all leaves
  size_t range_index = 0;
  int64_t range_pos = task.ranges.empty() ? 0 : task.ranges[0].first;
  std::vector<LeafOutput> outputs(descriptors.size());
  while (range_index < task.ranges.size()) {
    pieces.clear();
    int64_t batch_rows = 0;
    while (range_index < task.ranges.size() && batch_rows < plan.batch_rows) {
      const int64_t range_end = task.ranges[range_index].second;
      const int64_t take = std::min(range_end - range_pos, plan.batch_rows - batch_rows);
      pieces.emplace_back(range_pos, take);
      batch_rows += take;
      range_pos += take;
      if (range_pos == range_end && ++range_index < task.ranges.size()) {
        range_pos = task.ranges[range_index].first;
      }
    }
    for (int leaf : plan.leaves) {
      LeafOutput& out = outputs[leaf];
      out.keep_levels = plan.keep_levels[leaf];
      out.Init(descriptors[leaf], batch_rows);
      int64_t leaf_cursor = cursor;
      for (const auto& [start, length] : pieces) {
        if (start > leaf_cursor) TARN_RETURN_NOT_OK(readers[leaf]->Skip(start - leaf_cursor));
        TARN_RETURN_NOT_OK(readers[leaf]->Read(length, &out));
        leaf_cursor = start + length;
      }
    }
    cursor = pieces.back().first + pieces.back().second;
    std::vector<std::shared_ptr<Column>> columns;
    for (int column : plan.columns) {
      const SchemaNode& node = file.schema.columns()[column];
      TARN_ASSIGN_OR_RETURN(
          auto assembled,
          parquet::AssembleColumn(node, descriptors, outputs, batch_rows,
                                  StrCat(file.path, ": row group ", task.row_group)));
      columns.push_back(std::move(assembled));
    }
    if (plan.with_position) {
      auto position = std::make_shared<Column>();
      position->type = DataType(TypeId::kInt64);
      position->length = batch_rows;
      position->values = Buffer::Allocate(batch_rows * 8);
      int64_t* values = position->values->mutable_data_as<int64_t>();
      for (const auto& [start, length] : pieces) {
        for (int64_t i = 0; i < length; ++i) *values++ = first_row + start + i;
      }
      columns.push_back(std::move(position));
    }
    output.batches.push_back(MakeBatch(plan.schema, std::move(columns)));
    output.batches.back()->num_rows = batch_rows;
    for (int leaf : plan.leaves) outputs[leaf] = LeafOutput();
  }
  for (int leaf : plan.leaves) {
    output.metrics.pages_read += readers[leaf]->metrics().pages_read;
    output.metrics.pages_skipped += readers[leaf]->metrics().pages_skipped;
  }
  return output;
}

void AddMetrics(const ScanMetrics& from, ScanMetrics* to) {
  to->pages_read += from.pages_read;
  to->pages_skipped += from.pages_skipped;
  to->rows_decoded += from.rows_decoded;
  to->rows_skipped += from.rows_skipped;
  to->bytes_read += from.bytes_read;
}

// One row group's decode, run by a pool worker or, if no worker has started it yet, by the
// consumer itself (so a scan never waits on a pool that is busy with its own consumer).
struct TaskSlot {
  size_t task_index = 0;
  std::atomic<bool> started{false};
  std::promise<Result<RowGroupOutput>> promise;
  std::shared_future<Result<RowGroupOutput>> future;
};

class ScanReaderImpl : public ScanReader {
 public:
  ScanReaderImpl(std::shared_ptr<const ScanPlan> plan, std::vector<RowGroupTask> tasks,
                 ScanMetrics metrics, ThreadPool* pool, int parallel)
      : plan_(std::move(plan)),
        tasks_(std::make_shared<std::vector<RowGroupTask>>(std::move(tasks))),
        metrics_(metrics),
        pool_(pool),
        parallel_(std::max(parallel, 1)) {}

  ~ScanReaderImpl() override {
    for (auto& slot : inflight_) {
      if (!slot->started.exchange(true)) slot->promise.set_value(Status::Cancelled("scan closed"));
    }
    for (auto& slot : inflight_) slot->future.wait();
  }

  std::shared_ptr<const Schema> schema() const override { return plan_->schema; }
  const ScanMetrics& metrics() const override { return metrics_; }

  Result<std::shared_ptr<Batch>> Next() override {
    if (!status_.ok()) return status_;
    while (ready_.empty()) {
      Result<RowGroupOutput> result = Status::Internal("unset");
      if (parallel_ == 1 || pool_ == nullptr) {
        if (next_task_ == tasks_->size()) return std::shared_ptr<Batch>();
        result = DecodeRowGroup(*plan_, (*tasks_)[next_task_++]);
      } else {
        while (inflight_.size() < static_cast<size_t>(parallel_) && next_task_ < tasks_->size()) {
          Submit(next_task_++);
        }
        if (inflight_.empty()) return std::shared_ptr<Batch>();
        std::shared_ptr<TaskSlot> slot = inflight_.front();
        inflight_.pop_front();
        Claim(slot);
        result = slot->future.get();
        // Keep the pipeline full while the consumer works on this row group.
        while (inflight_.size() < static_cast<size_t>(parallel_) && next_task_ < tasks_->size()) {
          Submit(next_task_++);
        }
      }
      if (!result.ok()) {
        status_ = result.status();
        return status_;
      }
      RowGroupOutput output = std::move(result).value();
      AddMetrics(output.metrics, &metrics_);
      for (auto& batch : output.batches) ready_.push_back(std::move(batch));
    }
    std::shared_ptr<Batch> batch = std::move(ready_.front());
    ready_.pop_front();
    return batch;
  }

 private:
  void Submit(size_t task_index) {
    auto slot = std::make_shared<TaskSlot>();
    slot->task_index = task_index;
    slot->future = slot->promise.get_future().share();
    auto plan = plan_;
    auto tasks = tasks_;
    pool_->Submit([slot, plan, tasks, task_index] {
      if (!slot->started.exchange(true)) {
        slot->promise.set_value(DecodeRowGroup(*plan, (*tasks)[task_index]));
      }
      return 0;
    });
    inflight_.push_back(std::move(slot));
  }

  void Claim(const std::shared_ptr<TaskSlot>& slot) {
    if (!slot->started.exchange(true)) {
      slot->promise.set_value(DecodeRowGroup(*plan_, (*tasks_)[slot->task_index]));
    }
  }

  std::shared_ptr<const ScanPlan> plan_;
  std::shared_ptr<std::vector<RowGroupTask>> tasks_;
  ScanMetrics metrics_;
  ThreadPool* pool_;
  int parallel_;
  size_t next_task_ = 0;
  std::deque<std::shared_ptr<TaskSlot>> inflight_;
  std::deque<std::shared_ptr<Batch>> ready_;
  Status status_;
};

class ParquetReaderImpl : public ParquetReader {
 public:
  explicit ParquetReaderImpl(std::shared_ptr<const FileState> state) : state_(std::move(state)) {}

  const std::string& path() const override { return state_->path; }
  const parquet::FileMetaData& metadata() const override { return state_->metadata; }
  const Schema& schema() const override { return state_->schema.schema(); }
  int64_t num_rows() const override { return state_->num_rows; }
  int num_row_groups() const override {
    return static_cast<int>(state_->metadata.row_groups.size());
  }
  int64_t row_group_num_rows(int row_group) const override {
    return state_->metadata.row_groups[row_group].num_rows;
  }
  int64_t row_group_first_row(int row_group) const override {
    return state_->first_rows[row_group];
  }
  int64_t file_size() const override { return state_->file_size; }
  int64_t footer_size() const override { return state_->footer_size; }

  std::optional<ColumnStatistics> RowGroupStatistics(int row_group, int column) const override {
    if (row_group < 0 || row_group >= num_row_groups() || column < 0 ||
        column >= static_cast<int>(state_->schema.columns().size())) {
      return std::nullopt;
    }
    const SchemaNode& node = state_->schema.columns()[column];
    if (node.kind != SchemaNode::Kind::kLeaf) return std::nullopt;
    const LeafDescriptor& leaf = state_->schema.leaves()[node.leaf];
    const auto& chunk = state_->metadata.row_groups[row_group].columns[node.leaf];
    if (!chunk.meta_data) return std::nullopt;
    return parquet::DecodeColumnStatistics(*chunk.meta_data, leaf);
  }

  Result<std::unique_ptr<ScanReader>> Scan(const ScanOptions& options) const override;

 private:
  std::shared_ptr<const FileState> state_;
};

Result<std::unique_ptr<ScanReader>> ParquetReaderImpl::Scan(const ScanOptions& options) const {
  const FileState& file = *state_;
  const Schema& schema = file.schema.schema();
  auto plan = std::make_shared<ScanPlan>();
  plan->file = state_;
  if (options.columns.empty()) {
    for (int column = 0; column < schema.num_fields(); ++column) plan->columns.push_back(column);
  } else {
    for (const std::string& name : options.columns) {
      const int column = schema.FindField(name);
      if (column < 0) return Status::InvalidArgument(file.path, ": no column named '", name, "'");
      plan->columns.push_back(column);
    }
  }
  if (options.batch_rows <= 0) {
    return Status::InvalidArgument("batch_rows must be positive, got ", options.batch_rows);
  }
  std::vector<Field> fields;
  plan->keep_levels.assign(file.schema.leaves().size(), false);
  std::vector<bool> needed(file.schema.leaves().size(), false);
  for (int column : plan->columns) {
    const SchemaNode& node = file.schema.columns()[column];
    fields.push_back(node.field);
    for (int leaf = node.first_leaf; leaf < node.first_leaf + node.num_leaves; ++leaf) {
      needed[leaf] = true;
      if (node.kind != SchemaNode::Kind::kLeaf) plan->keep_levels[leaf] = true;
    }
  }
  for (size_t leaf = 0; leaf < needed.size(); ++leaf) {
    if (needed[leaf]) plan->leaves.push_back(static_cast<int>(leaf));
  }
  if (options.with_position) {
    fields.emplace_back(options.position_column_name, DataType(TypeId::kInt64), false);
  }
  plan->schema = std::make_shared<const Schema>(std::move(fields));
  plan->with_position = options.with_position;
  plan->batch_rows = options.batch_rows;
  plan->cancel = options.cancel;

  // Which row groups to decode, and which rows of each.
  ScanMetrics metrics;
  metrics.row_groups_total = num_row_groups();
  std::vector<int> predicate_columns;
  if (options.predicate) {
    for (const std::string& name : options.predicate->referenced_columns()) {
      predicate_columns.push_back(schema.FindField(name));
    }
  }
  std::vector<RowGroupTask> tasks;
  for (int rg = 0; rg < num_row_groups(); ++rg) {
    const int64_t rows = row_group_num_rows(rg);
    if (!options.row_groups.empty() &&
        std::find(options.row_groups.begin(), options.row_groups.end(), rg) ==
            options.row_groups.end()) {
      ++metrics.row_groups_skipped;
      continue;
    }
    RowGroupTask task;
    task.row_group = rg;
    if (options.selection) {
      task.ranges = options.selection->Intersect(row_group_first_row(rg),
                                                 row_group_first_row(rg) + rows).ranges();
    } else if (rows > 0) {
      task.ranges.emplace_back(0, rows);
    }
    if (task.ranges.empty()) {
      ++metrics.row_groups_skipped;
      continue;
    }
    if (options.predicate) {
      std::vector<std::optional<ColumnStatistics>> stats;
      stats.reserve(predicate_columns.size());
      for (int column : predicate_columns) {
        stats.push_back(column >= 0 ? RowGroupStatistics(rg, column) : std::nullopt);
      }
      std::vector<const ColumnStatistics*> pointers;
      for (const auto& stat : stats) pointers.push_back(stat ? &*stat : nullptr);
      if (!options.predicate->MayMatch(pointers, rows)) {
        ++metrics.row_groups_pruned;
        continue;
      }
    }
    tasks.push_back(std::move(task));
  }
  ThreadPool* pool = options.pool != nullptr ? options.pool : ThreadPool::Default();
  return std::unique_ptr<ScanReader>(std::make_unique<ScanReaderImpl>(
      std::move(plan), std::move(tasks), metrics, pool, options.max_parallel_row_groups));
}

}  // namespace

Result<std::unique_ptr<ParquetReader>> ParquetReader::Open(std::shared_ptr<FileSystem> fs,
                                                           const std::string& path) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<RandomAccessFile> file, fs->OpenForRead(path));
  return Open(std::shared_ptr<RandomAccessFile>(std::move(file)));
}

Result<std::unique_ptr<ParquetReader>> ParquetReader::Open(std::shared_ptr<RandomAccessFile> file) {
  TARN_ASSIGN_OR_RETURN(std::shared_ptr<FileState> state, OpenState(std::move(file)));
  return std::unique_ptr<ParquetReader>(std::make_unique<ParquetReaderImpl>(std::move(state)));
}

Result<std::shared_ptr<Batch>> ParquetReader::ReadAll(const ScanOptions& options) const {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<ScanReader> scan, Scan(options));
  std::vector<std::shared_ptr<Batch>> batches;
  while (true) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, scan->Next());
    if (!batch) break;
    batches.push_back(std::move(batch));
  }
  if (batches.size() == 1) return batches[0];
  if (batches.empty()) {
    std::vector<std::shared_ptr<Column>> columns;
    for (const Field& field : scan->schema()->fields) {
      ColumnBuilder builder(field.type);
      columns.push_back(builder.Finish());
    }
    return MakeBatch(scan->schema(), std::move(columns));
  }
  return ConcatenateBatches(batches);
}

}  // namespace tarn
