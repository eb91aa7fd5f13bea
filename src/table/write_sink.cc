#include "table/write_sink.h"

#include <algorithm>

#include "table/partition_keys.h"
#include "table/write_files.h"

namespace tarn::table_internal {

namespace {

// Rows per slice when a batch must be cut to respect target_file_size.
constexpr int64_t kSplitSliceRows = 2048;

}  // namespace

int64_t BatchBytes(const Batch& batch) {
  int64_t bytes = 0;
  std::vector<const Column*> stack;
  for (const auto& column : batch.columns) stack.push_back(column.get());
  while (!stack.empty()) {
    const Column* column = stack.back();
    stack.pop_back();
    if (column->values) bytes += column->values->size();
    if (column->data) bytes += column->data->size();
    for (const auto& child : column->children) stack.push_back(child.get());
  }
  return bytes;
}

DataFileSink::DataFileSink(WriteState& state, const TableInfo& table, WriteSettings settings,
                           std::shared_ptr<const Schema> file_schema, bool embeds_row_ids,
                           SinkTarget target)
    : state_(state),
      table_(table),
      settings_(std::move(settings)),
      file_schema_(std::move(file_schema)),
      embeds_row_ids_(embeds_row_ids),
      target_(std::move(target)) {}

DataFileSink::~DataFileSink() {
  if (!done_) Abandon();
}

int64_t DataFileSink::held_bytes() const { return writer_ ? writer_->BufferedBytes() : 0; }

void DataFileSink::NotePeak() { peak_held_bytes_ = std::max(peak_held_bytes_, held_bytes()); }

Status DataFileSink::Write(const Batch& batch) {
  if (!writer_) {
    const std::string directory = table_.path + target_.directory;
    TARN_RETURN_NOT_OK(state_.EnsureDirectory(directory));
    name_ = target_.directory + NewDataFileName();
    absolute_path_ = table_.path + name_;
    TARN_ASSIGN_OR_RETURN(writer_, ParquetWriter::Open(state_.fs, absolute_path_, *file_schema_,
                                                       settings_.properties));
  }
  TARN_RETURN_NOT_OK(writer_->Write(batch));
  NotePeak();
  if (writer_->EstimatedFileSize() >= settings_.target_file_size) return FinishFile();
  return Status::OK();
}

Status DataFileSink::FinishFile() {
  if (!writer_) return Status::OK();
  std::unique_ptr<ParquetWriter> writer = std::move(writer_);
  Result<WrittenFileInfo> finished = writer->Finish();
  if (!finished.ok()) {
    writer->Abandon();
    return finished.status();
  }
  const WrittenFileInfo& info = *finished;
  state_.written_files.insert(absolute_path_);
  PendingDataFile pending;
  pending.absolute_path = absolute_path_;
  NewDataFile& change = pending.change;
  change.provisional_id = state_.NewProvisionalId();
  change.table_id = table_.table_id;
  change.path = name_;
  change.record_count = info.num_rows;
  change.file_size_bytes = info.file_size;
  change.footer_size = info.footer_size;
  change.embeds_row_ids = embeds_row_ids_;
  change.column_stats = CatalogStatistics(info, table_);
  change.partition_id = target_.partition_id;
  change.partition_values = target_.partition_values;
  written_.push_back(std::move(pending));
  return Status::OK();
}

Status DataFileSink::Add(const Batch& batch) {
  if (batch.num_rows == 0) return Status::OK();
  rows_ += batch.num_rows;
  const int64_t current = writer_ ? writer_->EstimatedFileSize() : 0;
  if (current + BatchBytes(batch) < settings_.target_file_size) return Write(batch);
  for (int64_t offset = 0; offset < batch.num_rows; offset += kSplitSliceRows) {
    const int64_t length = std::min(kSplitSliceRows, batch.num_rows - offset);
    TARN_RETURN_NOT_OK(Write(*SliceBatch(batch, offset, length)));
  }
  return Status::OK();
}

Result<std::vector<PendingDataFile>> DataFileSink::Finish() {
  Status status = FinishFile();
  if (!status.ok()) {
    Abandon();
    return status;
  }
  done_ = true;
  return std::move(written_);
}

void DataFileSink::Abandon() {
  if (writer_) {
    writer_->Abandon();
    writer_.reset();
  }
  for (const PendingDataFile& file : written_) state_.DropWrittenFile(file.absolute_path);
  written_.clear();
  done_ = true;
}

PartitionedSink::PartitionedSink(WriteState& state, const TableInfo& table,
                                 WriteSettings settings, std::shared_ptr<const Schema> file_schema,
                                 bool embeds_row_ids)
    : state_(state),
      table_(table),
      settings_(std::move(settings)),
      file_schema_(std::move(file_schema)),
      embeds_row_ids_(embeds_row_ids),
      fields_(table.partitioning->fields) {
  for (const PartitionField& field : fields_) {
    int index = -1;
    for (size_t c = 0; c < table.columns.size(); ++c) {
      if (table.columns[c].column_id == field.column_id) index = static_cast<int>(c);
    }
    source_columns_.push_back(index);
    key_names_.push_back(PartitionKeyName(field, table));
  }
}

PartitionedSink::~PartitionedSink() {
  if (!done_) Abandon();
}

Status PartitionedSink::Add(const Batch& batch) {
  if (batch.num_rows == 0) return Status::OK();
  for (size_t key = 0; key < fields_.size(); ++key) {
    if (source_columns_[key] < 0) {
      return Status::Internal("partition key ", key, " of table ", table_.name,
                              " names column id ", fields_[key].column_id,
                              ", which the table does not have");
    }
  }
  std::vector<PartitionGroup> groups = GroupByPartition(batch, fields_, source_columns_);
  for (PartitionGroup& group : groups) {
    std::string directory = HiveDirectory(key_names_, group.values);
    auto it = partitions_.find(directory);
    if (it == partitions_.end()) {
      SinkTarget target;
      // hive_file_pattern = false: the files lie in the table's folder.
      target.directory = settings_.hive_file_pattern ? directory : std::string();
      target.partition_id = table_.partitioning->partition_id;
      target.partition_values = group.values;
      it = partitions_
               .emplace(directory, std::make_unique<DataFileSink>(state_, table_, settings_,
                                                                  file_schema_, embeds_row_ids_,
                                                                  std::move(target)))
               .first;
      order_.push_back(directory);
    }
    if (static_cast<int64_t>(group.rows.size()) == batch.num_rows) {
      TARN_RETURN_NOT_OK(it->second->Add(batch));
    } else {
      std::vector<std::shared_ptr<Column>> columns;
      columns.reserve(batch.columns.size());
      for (const auto& column : batch.columns) columns.push_back(Take(*column, group.rows));
      auto part = MakeBatch(batch.schema, std::move(columns));
      part->num_rows = static_cast<int64_t>(group.rows.size());
      TARN_RETURN_NOT_OK(it->second->Add(*part));
    }
  }
  int64_t held = 0;
  for (const auto& [directory, sink] : partitions_) held += sink->held_bytes();
  peak_held_bytes_ = std::max(peak_held_bytes_, held);
  return Status::OK();
}

Result<std::vector<PendingDataFile>> PartitionedSink::Finish() {
  std::vector<PendingDataFile> out;
  for (const std::string& directory : order_) {
    Result<std::vector<PendingDataFile>> files = partitions_[directory]->Finish();
    if (!files.ok()) {
      for (const PendingDataFile& file : out) state_.DropWrittenFile(file.absolute_path);
      Abandon();
      return files.status();
    }
    for (PendingDataFile& file : *files) out.push_back(std::move(file));
  }
  done_ = true;
  return out;
}

void PartitionedSink::Abandon() {
  for (auto& [directory, sink] : partitions_) sink->Abandon();
  done_ = true;
}

std::unique_ptr<RowSink> MakeTableSink(WriteState& state, const TableInfo& table,
                                       const WriteSettings& settings,
                                       std::shared_ptr<const Schema> file_schema,
                                       bool embeds_row_ids) {
  if (table.partitioning.has_value() && !table.partitioning->fields.empty()) {
    return std::make_unique<PartitionedSink>(state, table, settings, std::move(file_schema),
                                             embeds_row_ids);
  }
  return std::make_unique<DataFileSink>(state, table, settings, std::move(file_schema),
                                        embeds_row_ids);
}

}  // namespace tarn::table_internal
