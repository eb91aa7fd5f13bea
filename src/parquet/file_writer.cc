// ParquetWriter: buffers batches up to one row group, encodes the row group's column chunks in
// parallel, appends them in schema order, and writes the footer on Finish.
#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>

#include "columnar/variant_stats.h"
#include "parquet/column_writer.h"
#include "parquet/metadata.h"
#include "parquet/page_index.h"
#include "parquet/writer_schema.h"
#include "parquet/writer_statistics.h"
#include "tarn/parquet.h"

namespace tarn {

namespace {

using parquet::ChunkStatistics;
using parquet::ColumnChunkWriter;
using parquet::EncodedChunk;
using parquet::WriterLeaf;

constexpr std::string_view kMagic = "PAR1";

// Same physical shape: ids, decimal parameters and children, recursively (names may differ).
bool SameShape(const DataType& a, const DataType& b) {
  if (a.id != b.id || a.children.size() != b.children.size()) return false;
  if (a.id == TypeId::kDecimal && (a.precision != b.precision || a.scale != b.scale)) {
    return false;
  }
  for (size_t child_idx = 0; child_idx < a.children.size(); ++child_idx) {
    if (!SameShape(a.children[child_idx].type, b.children[child_idx].type)) return false;
  }
  return true;
}

int64_t BufferBytes(const std::shared_ptr<Buffer>& buffer) { return buffer ? buffer->size() : 0; }

// The in-memory size of a column: what a buffered row group costs.
int64_t ColumnBytes(const Column& column) {
  int64_t bytes = BufferBytes(column.validity) + BufferBytes(column.values) +
                  BufferBytes(column.data);
  for (const auto& child : column.children) {
    if (child) bytes += ColumnBytes(*child);
  }
  return bytes;
}

int64_t BatchBytes(const Batch& batch) {
  int64_t bytes = 0;
  for (const auto& column : batch.columns) bytes += ColumnBytes(*column);
  return bytes;
}

class FileWriter final : public ParquetWriter {
 public:
  FileWriter(std::unique_ptr<WritableFile> file, Schema schema, parquet::WriterSchema layout,
             std::shared_ptr<const WriterProperties> properties,
             std::vector<std::pair<std::string, std::string>> key_value_metadata)
      : file_(std::move(file)),
        schema_(std::move(schema)),
        layout_(std::move(layout)),
        props_(std::move(properties)),
        key_value_metadata_(std::move(key_value_metadata)),
        file_stats_(layout_.leaves.size()),
        compressed_bytes_(layout_.leaves.size(), 0),
        uncompressed_bytes_(layout_.leaves.size(), 0) {}

  Status Start() {
    for (int column_idx = 0; column_idx < schema_.num_fields(); ++column_idx) {
      const DataType& type = schema_.field(column_idx).type;
      has_variant_ = has_variant_ || parquet::HoldsVariant(type);
      if (type.id == TypeId::kVariant) variant_stats_[column_idx];
    }
    return Append(kMagic);
  }

  Status Write(const Batch& batch) override {
    TARN_RETURN_NOT_OK(CheckUsable());
    if (batch.num_columns() != schema_.num_fields()) {
      return Status::InvalidArgument("parquet writer ", file_->path(), ": batch has ",
                                     batch.num_columns(), " columns, the schema has ",
                                     schema_.num_fields());
    }
    for (int column_idx = 0; column_idx < batch.num_columns(); ++column_idx) {
      const Column& column = batch.column(column_idx);
      if (!SameShape(column.type, schema_.field(column_idx).type)) {
        return Status::InvalidArgument("parquet writer ", file_->path(), ": column ", column_idx,
                                       " has type ", column.type.ToString(), ", expected ",
                                       schema_.field(column_idx).type.ToString());
      }
      if (column.length != batch.num_rows) {
        return Status::InvalidArgument("parquet writer ", file_->path(), ": column ", column_idx,
                                       " has ", column.length, " rows, the batch ",
                                       batch.num_rows);
      }
    }
    if (batch.num_rows == 0) return Status::OK();
    if (has_variant_) {
      // VARIANT columns go to the file as their Parquet metadata and value bytes.
      auto converted = std::make_shared<Batch>(batch);
      for (int column_idx = 0; column_idx < batch.num_columns(); ++column_idx) {
        const Column& column = batch.column(column_idx);
        if (!parquet::HoldsVariant(column.type)) continue;
        if (column.type.id == TypeId::kVariant) variant_stats_[column_idx].Add(column);
        Result<std::shared_ptr<Column>> as_parquet = parquet::VariantColumnToParquet(column);
        if (!as_parquet.ok()) {
          return as_parquet.status().WithContext(StrCat("parquet writer ", file_->path(),
                                                        ": column ", column_idx));
        }
        converted->columns[static_cast<size_t>(column_idx)] = std::move(as_parquet).value();
      }
      return WriteConverted(*converted);
    }
    return WriteConverted(batch);
  }

  Status WriteConverted(const Batch& batch) {
    const int64_t batch_bytes = BatchBytes(batch);
    const int64_t bytes_per_row = std::max<int64_t>(1, batch_bytes / batch.num_rows);
    int64_t offset = 0;
    while (offset < batch.num_rows) {
      int64_t room_rows = props_->max_row_group_rows() - buffered_rows_;
      int64_t room_bytes = props_->max_row_group_bytes() - buffered_bytes_;
      int64_t take = std::min(batch.num_rows - offset, room_rows);
      take = std::max<int64_t>(1, std::min(take, (room_bytes + bytes_per_row - 1) / bytes_per_row));
      std::shared_ptr<Batch> part;
      if (offset == 0 && take == batch.num_rows) {
        part = std::make_shared<Batch>(batch);
      } else {
        part = SliceBatch(batch, offset, take);
      }
      buffered_bytes_ += take == batch.num_rows ? batch_bytes : BatchBytes(*part);
      buffered_rows_ += take;
      buffered_.push_back(std::move(part));
      offset += take;
      if (buffered_rows_ >= props_->max_row_group_rows() ||
          buffered_bytes_ >= props_->max_row_group_bytes()) {
        TARN_RETURN_NOT_OK(FlushRowGroup());
      }
    }
    return Status::OK();
  }

  Status FlushRowGroup() override {
    TARN_RETURN_NOT_OK(CheckUsable());
    if (buffered_rows_ == 0) return Status::OK();
    const size_t num_leaves = layout_.leaves.size();
    std::vector<EncodedChunk> chunks(num_leaves);
    // The largest chunks start first, so none of them runs alone at the end of the row group.
    std::vector<int64_t> leaf_bytes(num_leaves, 0);
    for (size_t leaf_idx = 0; leaf_idx < num_leaves; ++leaf_idx) {
      const int column = layout_.leaves[leaf_idx].top_level_column;
      for (const auto& batch : buffered_) leaf_bytes[leaf_idx] += ColumnBytes(*batch->columns[column]);
    }
    std::vector<size_t> order(num_leaves);
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return leaf_bytes[a] > leaf_bytes[b]; });
    Status encoded = ThreadPool::Default()->ParallelFor(num_leaves, [&](size_t task_idx) {
      const size_t leaf_idx = order[task_idx];
      const WriterLeaf& leaf = layout_.leaves[leaf_idx];
      ColumnChunkWriter writer(leaf, *props_);
      for (const auto& batch : buffered_) {
        TARN_RETURN_NOT_OK(writer.Add(*batch->columns[leaf.top_level_column]));
      }
      TARN_ASSIGN_OR_RETURN(chunks[leaf_idx], writer.Finish());
      return Status::OK();
    });
    if (!encoded.ok()) return Fail(encoded.WithContext(StrCat("parquet writer ", file_->path())));

    parquet::RowGroup row_group;
    row_group.num_rows = buffered_rows_;
    row_group.file_offset = file_->bytes_written();
    row_group.ordinal = static_cast<int16_t>(row_groups_.size());
    int64_t compressed_total = 0;
    for (size_t leaf_idx = 0; leaf_idx < num_leaves; ++leaf_idx) {
      EncodedChunk& chunk = chunks[leaf_idx];
      int64_t chunk_start = file_->bytes_written();
      TARN_RETURN_NOT_OK(Append(chunk.bytes));
      std::string().swap(chunk.bytes);
      parquet::ColumnMetaData& meta = chunk.meta;
      meta.data_page_offset += chunk_start;
      if (meta.dictionary_page_offset) *meta.dictionary_page_offset += chunk_start;
      parquet::ColumnChunk column_chunk;
      column_chunk.file_offset = chunk_start;
      row_group.total_byte_size += meta.total_uncompressed_size;
      compressed_total += meta.total_compressed_size;
      compressed_bytes_[leaf_idx] += meta.total_compressed_size;
      uncompressed_bytes_[leaf_idx] += meta.total_uncompressed_size;
      parquet::MergeStatistics(layout_.leaves[leaf_idx], chunk.stats, row_groups_.empty(),
                               &file_stats_[leaf_idx]);
      KeepPageIndex(leaf_idx, chunk, chunk_start);
      column_chunk.meta_data = std::move(meta);
      row_group.columns.push_back(std::move(column_chunk));
    }
    row_group.total_compressed_size = compressed_total;
    row_groups_.push_back(std::move(row_group));
    num_rows_ += buffered_rows_;
    buffered_.clear();
    buffered_rows_ = 0;
    buffered_bytes_ = 0;
    return Status::OK();
  }

  int64_t EstimatedFileSize() const override {
    return (file_ ? file_->bytes_written() : 0) + buffered_bytes_;
  }

  int64_t BufferedBytes() const override { return buffered_bytes_; }

  Result<WrittenFileInfo> Finish() override {
    TARN_RETURN_NOT_OK(FlushRowGroup());
    TARN_RETURN_NOT_OK(WritePageIndexes());
    parquet::FileMetaData metadata;
    metadata.version = props_->data_page_version() == 2 ? 2 : 1;
    metadata.schema = layout_.elements;
    metadata.num_rows = num_rows_;
    metadata.row_groups = std::move(row_groups_);
    for (auto& [key, value] : key_value_metadata_) {
      metadata.key_value_metadata.push_back({key, value});
    }
    metadata.created_by = props_->created_by();
    metadata.column_orders.resize(layout_.leaves.size());
    std::string footer;
    parquet::EncodeFileMetaData(metadata, &footer);
    uint32_t footer_length = static_cast<uint32_t>(footer.size());
    char length_bytes[4];
    std::memcpy(length_bytes, &footer_length, 4);
    TARN_RETURN_NOT_OK(Append(footer));
    TARN_RETURN_NOT_OK(Append(std::string_view(length_bytes, 4)));
    TARN_RETURN_NOT_OK(Append(kMagic));
    int64_t file_size = file_->bytes_written();
    Status closed = file_->Close();
    if (!closed.ok()) return Fail(closed.WithContext(StrCat("closing ", file_->path())));
    finished_ = true;

    WrittenFileInfo info;
    info.num_rows = num_rows_;
    info.file_size = file_size;
    info.footer_size = static_cast<int64_t>(footer.size());
    info.num_row_groups = static_cast<int>(metadata.row_groups.size());
    for (size_t leaf_idx = 0; leaf_idx < layout_.leaves.size(); ++leaf_idx) {
      info.columns.push_back(DescribeLeaf(leaf_idx));
    }
    for (const auto& [column_idx, collector] : variant_stats_) {
      WrittenVariantStatistics variant_info;
      variant_info.top_level_column = column_idx;
      variant_info.field_id = schema_.field(column_idx).field_id.value_or(-1);
      variant_info.rows = collector.rows();
      variant_info.null_rows = collector.null_rows();
      for (size_t leaf_idx = 0; leaf_idx < layout_.leaves.size(); ++leaf_idx) {
        if (layout_.leaves[leaf_idx].top_level_column == column_idx) {
          variant_info.compressed_bytes += compressed_bytes_[leaf_idx];
        }
      }
      for (variant::VariantFieldStats& field : collector.Finish()) {
        variant_info.fields.push_back(WrittenVariantField{
            std::move(field.path), std::move(field.type), field.num_values, field.null_count,
            std::move(field.min), std::move(field.max), field.contains_nan, field.size_bytes});
      }
      info.variants.push_back(std::move(variant_info));
    }
    file_.reset();
    return info;
  }

  void Abandon() override {
    // A WritableFile dropped without Close() leaves nothing under its path.
    file_.reset();
    buffered_.clear();
    if (status_.ok()) status_ = Status::InvalidArgument("parquet writer was abandoned");
  }

 private:
  Status CheckUsable() const {
    if (!status_.ok()) return status_;
    if (finished_ || file_ == nullptr) {
      return Status::InvalidArgument("parquet writer is already finished");
    }
    return Status::OK();
  }

  // Remembers the first failure; the file is dropped, so nothing is left at its path.
  Status Fail(Status status) {
    if (status_.ok()) status_ = status;
    file_.reset();
    buffered_.clear();
    return status;
  }

  // Serializes the chunk's page index when the leaf's PageIndexMode asks for it; the bytes go
  // into the file after the last row group (WritePageIndexes).
  void KeepPageIndex(size_t leaf_idx, const EncodedChunk& chunk, int64_t chunk_start) {
    const WriterLeaf& leaf = layout_.leaves[leaf_idx];
    const PageIndexMode mode = props_->page_index_for(leaf.path);
    if (mode == PageIndexMode::kOff || chunk.pages.empty()) return;
    std::optional<parquet::ColumnIndex> column_index;
    if (props_->statistics_enabled() || mode == PageIndexMode::kOn) {
      column_index = parquet::BuildColumnIndex(leaf, chunk.pages);
    }
    // Auto: the offset index always (small, and it lets row-selective reads fetch only their
    // pages); the column index only where page pruning can use it.
    if (mode == PageIndexMode::kAuto && column_index &&
        (chunk.pages.size() < 2 ||
         column_index->boundary_order == parquet::BoundaryOrder::kUnordered)) {
      column_index.reset();
    }
    PendingPageIndex pending;
    pending.row_group = row_groups_.size();
    pending.leaf = leaf_idx;
    if (column_index) parquet::EncodeColumnIndex(*column_index, &pending.column_index);
    parquet::EncodeOffsetIndex(parquet::BuildOffsetIndex(chunk.pages, chunk_start),
                               &pending.offset_index);
    pending_page_indexes_.push_back(std::move(pending));
  }

  // Every column index, then every offset index, as other writers lay them out.
  Status WritePageIndexes() {
    for (const PendingPageIndex& pending : pending_page_indexes_) {
      if (pending.column_index.empty()) continue;
      auto& chunk = row_groups_[pending.row_group].columns[pending.leaf];
      chunk.column_index_offset = file_->bytes_written();
      chunk.column_index_length = static_cast<int32_t>(pending.column_index.size());
      TARN_RETURN_NOT_OK(Append(pending.column_index));
    }
    for (const PendingPageIndex& pending : pending_page_indexes_) {
      auto& chunk = row_groups_[pending.row_group].columns[pending.leaf];
      chunk.offset_index_offset = file_->bytes_written();
      chunk.offset_index_length = static_cast<int32_t>(pending.offset_index.size());
      TARN_RETURN_NOT_OK(Append(pending.offset_index));
    }
    pending_page_indexes_.clear();
    return Status::OK();
  }

  Status Append(std::string_view bytes) {
    Status appended = file_->Append(bytes);
    if (!appended.ok()) return Fail(appended.WithContext(StrCat("writing ", file_->path())));
    return Status::OK();
  }

  WrittenColumnStatistics DescribeLeaf(size_t leaf_idx) const {
    const WriterLeaf& leaf = layout_.leaves[leaf_idx];
    const ChunkStatistics& stats = file_stats_[leaf_idx];
    WrittenColumnStatistics out;
    out.path = leaf.path;
    out.field_id = leaf.field_id;
    out.stats.null_count = stats.null_count;
    out.stats.value_count = stats.num_levels;
    out.stats.compressed_bytes = compressed_bytes_[leaf_idx];
    out.stats.uncompressed_bytes = uncompressed_bytes_[leaf_idx];
    if (leaf.type.IsFloating()) {
      out.stats.nan_count = stats.nan_count;
      out.contains_nan = stats.nan_count > 0;
    }
    if (stats.geometry) out.geometry_stats = stats.geometry->ToJson();
    if (stats.has_min_max) {
      std::optional<Value> min = parquet::DecodeStatisticsValue(leaf, stats.min);
      std::optional<Value> max = parquet::DecodeStatisticsValue(leaf, stats.max);
      if (min && max) {
        out.stats.min = std::move(min);
        out.stats.max = std::move(max);
        out.stats.min_exact = stats.min_exact;
        out.stats.max_exact = stats.max_exact;
      }
    }
    return out;
  }

  std::unique_ptr<WritableFile> file_;  // null once finished, failed or abandoned
  const Schema schema_;
  const parquet::WriterSchema layout_;
  const std::shared_ptr<const WriterProperties> props_;
  const std::vector<std::pair<std::string, std::string>> key_value_metadata_;
  Status status_;  // the first failure; every later call returns it
  bool finished_ = false;

  // The open row group.
  std::vector<std::shared_ptr<Batch>> buffered_;
  int64_t buffered_rows_ = 0;
  int64_t buffered_bytes_ = 0;

  // Written so far.
  std::vector<parquet::RowGroup> row_groups_;
  int64_t num_rows_ = 0;
  // Top-level VARIANT columns: their shredding statistics, by column index.
  std::map<int, variant::VariantStatsCollector> variant_stats_;
  bool has_variant_ = false;  // some column holds a VARIANT at any depth
  std::vector<ChunkStatistics> file_stats_;  // per leaf, merged over row groups
  std::vector<int64_t> compressed_bytes_;    // per leaf
  std::vector<int64_t> uncompressed_bytes_;  // per leaf
  struct PendingPageIndex {
    size_t row_group = 0;
    size_t leaf = 0;
    std::string column_index;  // serialized; empty when the chunk has none
    std::string offset_index;  // serialized
  };
  std::vector<PendingPageIndex> pending_page_indexes_;  // written by Finish
};

}  // namespace

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::Open(
    std::shared_ptr<FileSystem> fs, const std::string& path, const Schema& schema,
    std::shared_ptr<const WriterProperties> properties,
    std::vector<std::pair<std::string, std::string>> key_value_metadata) {
  if (fs == nullptr) return Status::InvalidArgument("parquet writer: no file system");
  TARN_ASSIGN_OR_RETURN(auto file, fs->OpenForWrite(path));
  return Open(std::move(file), schema, std::move(properties), std::move(key_value_metadata));
}

Result<std::unique_ptr<ParquetWriter>> ParquetWriter::Open(
    std::unique_ptr<WritableFile> file, const Schema& schema,
    std::shared_ptr<const WriterProperties> properties,
    std::vector<std::pair<std::string, std::string>> key_value_metadata) {
  if (file == nullptr) return Status::InvalidArgument("parquet writer: no file");
  if (properties == nullptr) {
    TARN_ASSIGN_OR_RETURN(properties, WriterProperties::Builder().Build());
  }
  auto layout = parquet::BuildWriterSchema(schema);
  if (!layout.ok()) return layout.status().WithContext(StrCat("parquet writer ", file->path()));
  auto writer = std::make_unique<FileWriter>(std::move(file), schema, std::move(*layout),
                                             std::move(properties),
                                             std::move(key_value_metadata));
  TARN_RETURN_NOT_OK(writer->Start());
  return std::unique_ptr<ParquetWriter>(std::move(writer));
}

}  // namespace tarn
