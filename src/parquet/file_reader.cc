// ParquetReader and its ScanReader: footer validation, projection, row-group pruning and
// selection, parallel row-group decoding with in-order delivery, and the physical position
// column. See docs/parquet-reader.md.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <deque>
#include <future>

#include "columnar/bit_util.h"
#include "expr/bind/bound.h"
#include "parquet/chunk_fetch.h"
#include "parquet/column_reader.h"
#include "parquet/filtered_scan.h"
#include "parquet/metadata.h"
#include "parquet/page_index.h"
#include "parquet/record_assembler.h"
#include "parquet/schema.h"
#include "parquet/statistics.h"
#include "tarn/expr.h"
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
  std::vector<int64_t> first_bytes; // per row group: file offset of its first page (splits)
  int64_t num_rows = 0;
  int64_t data_end = 0;             // end of the data section (start of the footer)
};

// The file offset of a column chunk's first page: its dictionary page when the footer places
// one before the data pages.
int64_t ChunkStart(const ColumnMetaData& meta) {
  int64_t start = meta.data_page_offset;
  if (meta.dictionary_page_offset && *meta.dictionary_page_offset > 0 &&
      *meta.dictionary_page_offset < start) {
    start = *meta.dictionary_page_offset;
  }
  return start;
}

// How far a codec can expand its input: a chunk declaring more uncompressed bytes than this
// times its compressed bytes (plus kSlackBytes) is refused before any page is decompressed.
// Snappy emits at most 64 bytes per 2-byte copy, LZ4 about 255 bytes per byte, deflate 1032.
// zstd, brotli and LZO have no useful bound (real files reach 10^6:1); 0 = unbounded, their
// pages stay under the page reader's absolute cap.
int64_t MaxExpansion(parquet::CompressionCodec codec) {
  using parquet::CompressionCodec;
  switch (codec) {
    case CompressionCodec::kUncompressed: return 1;
    case CompressionCodec::kSnappy: return 33;
    case CompressionCodec::kLz4:
    case CompressionCodec::kLz4Raw: return 256;
    case CompressionCodec::kGzip: return 1100;
    default: return 0;
  }
}
constexpr int64_t kSlackBytes = int64_t{16} << 20;

Status Encrypted(const std::string& path, const char* why) {
  return Status::NotSupported(path, ": encrypted Parquet file (", why,
                              "); tarn has no decryption keys");
}

// Every size a chunk declares, against the file and its row group, before any is trusted:
// its byte range lies in the data section, its uncompressed size is within what its codec can
// produce from its compressed bytes, and its level entries match the rows (a flat leaf has one
// entry per row, a nested leaf at least one).
Status CheckChunkSizes(const FileState& state, size_t rg, const LeafDescriptor& leaf,
                       const ColumnMetaData& meta, int64_t num_rows) {
  const int64_t start = ChunkStart(meta);
  const int64_t length = meta.total_compressed_size;
  auto where = [&] { return StrCat(state.path, ": row group ", rg, ", column ", leaf.PathString()); };
  if (num_rows == 0) return Status::OK();  // never read (some writers leave offsets at 0)
  if (start < 4 || length < 0 || start > state.data_end || length > state.data_end - start) {
    return Status::Corruption(where(), ": column chunk at offset ", start, " of ", length,
                              " bytes lies outside the data section (", state.data_end,
                              " bytes)");
  }
  const int64_t ratio = MaxExpansion(meta.codec);
  if (meta.total_uncompressed_size < 0 ||
      (ratio > 0 && (meta.total_uncompressed_size - kSlackBytes) / ratio > length)) {
    return Status::Corruption(where(), ": column chunk at offset ", start,
                              " declares total_uncompressed_size ", meta.total_uncompressed_size,
                              ", more than codec ", parquet::CodecName(meta.codec),
                              " can produce from its ", length, " bytes");
  }
  if (leaf.max_rep_level == 0 ? meta.num_values != num_rows : meta.num_values < num_rows) {
    return Status::Corruption(where(), ": column chunk at offset ", start, " declares ",
                              meta.num_values, " values for a row group of ", num_rows,
                              " rows");
  }
  return Status::OK();
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
  state->data_end = size - 8 - footer_length;
  int64_t first_row = 0;
  for (size_t rg = 0; rg < meta.row_groups.size(); ++rg) {
    const auto& row_group = meta.row_groups[rg];
    if (row_group.columns.size() != leaves.size()) {
      return Status::Corruption(path, ": row group ", rg, " has ", row_group.columns.size(),
                                " column chunks; the schema has ", leaves.size(), " leaf columns");
    }
    if (row_group.num_rows < 0 || row_group.num_rows > INT64_MAX / 2 - first_row ||
        (leaves.empty() && row_group.num_rows > 0)) {
      return Status::Corruption(path, ": row group ", rg, " declares ", row_group.num_rows,
                                " rows", leaves.empty() ? " without any column" : "");
    }
    int64_t first_byte = state->data_end;
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
      TARN_RETURN_NOT_OK(CheckChunkSizes(*state, rg, leaves[column], *chunk.meta_data,
                                         row_group.num_rows));
      first_byte = std::min(first_byte, ChunkStart(*chunk.meta_data));
    }
    state->first_rows.push_back(first_row);
    state->first_bytes.push_back(first_byte);
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
  int64_t slice_rows = 0;                 // selected rows one task decodes at most
  bool verify_page_checksums = true;
  const CancellationToken* cancel = nullptr;
  // Row filter (see parquet/filtered_scan.h): the output columns it reads, decoded first.
  std::shared_ptr<const parquet::RowFilter> row_filter;
  std::vector<bool> filter_reads;  // per output column (the position last)
  std::vector<bool> filter_leaf;   // per leaf index: a leaf of a column the filter reads
};

// With a row filter, the other columns are decoded only for the kept rows when the filter
// keeps at most 1 row in this many; above that, skipping in runs costs more than it saves.
constexpr int64_t kLateDecodeRatio = 8;

void CollectColumnRefs(const expr::BoundNode& node, std::vector<int>* reads) {
  if (node.kind == expr::BoundKind::kColumn && node.column_index >= 0) {
    reads->push_back(node.column_index);
  }
  for (const auto& child : node.children) CollectColumnRefs(*child, reads);
}

class ExpressionFilter : public parquet::RowFilter {
 public:
  explicit ExpressionFilter(std::shared_ptr<const BoundExpr> expr) : expr_(std::move(expr)) {}
  std::vector<int> columns() const override {
    std::vector<int> reads;
    CollectColumnRefs(expr_->root(), &reads);
    return reads;
  }
  Result<std::vector<uint8_t>> Select(const Batch& probe, int64_t* selected) const override {
    return SelectRows(probe, *expr_, selected);
  }

 private:
  std::shared_ptr<const BoundExpr> expr_;
};

class AllFilters : public parquet::RowFilter {
 public:
  explicit AllFilters(std::vector<std::shared_ptr<const parquet::RowFilter>> filters)
      : filters_(std::move(filters)) {}
  std::vector<int> columns() const override {
    std::vector<int> reads;
    for (const auto& filter : filters_) {
      std::vector<int> more = filter->columns();
      reads.insert(reads.end(), more.begin(), more.end());
    }
    return reads;
  }
  Result<std::vector<uint8_t>> Select(const Batch& probe, int64_t* selected) const override {
    TARN_ASSIGN_OR_RETURN(std::vector<uint8_t> keep, filters_[0]->Select(probe, selected));
    for (size_t f = 1; f < filters_.size() && *selected > 0; ++f) {
      TARN_ASSIGN_OR_RETURN(std::vector<uint8_t> more, filters_[f]->Select(probe, selected));
      const size_t bytes = static_cast<size_t>((probe.num_rows + 7) / 8);
      if (keep.size() < bytes || more.size() < bytes) {
        return Status::Internal("a row filter returned ", std::min(keep.size(), more.size()),
                                " bytes of bits for ", probe.num_rows, " rows");
      }
      for (size_t b = 0; b < bytes; ++b) keep[b] &= more[b];
      *selected = internal::CountSetBits(keep.data(), 0, probe.num_rows);
    }
    return keep;
  }

 private:
  std::vector<std::shared_ptr<const parquet::RowFilter>> filters_;
};

struct RowGroupTask {
  int row_group = 0;
  std::vector<std::pair<int64_t, int64_t>> ranges;  // rows within the row group, sorted
};

class RowGroupDecoder;

struct RowGroupOutput {
  std::vector<std::shared_ptr<Batch>> batches;
  ScanMetrics metrics;
  // Set when the row group has selected rows left: the next task continues from here.
  std::shared_ptr<RowGroupDecoder> rest;
};

std::string ChunkContext(const FileState& file, int row_group, const LeafDescriptor& leaf) {
  return StrCat(file.path, ": row group ", row_group, ", column ", leaf.PathString());
}

// The page index of one chunk, read and validated; nullopt when the chunk has no offset index.
// The column index is read only when `with_column_index`; *bytes_read (if given) counts what
// was read.
Result<std::optional<parquet::ChunkPageIndex>> LoadPageIndex(const FileState& file, int rg,
                                                             int leaf, bool with_column_index = true,
                                                             int64_t* bytes_read = nullptr);

// Decodes the selected rows of one row group, at most plan.slice_rows per call, so the memory
// a row group needs is bounded by the slice and not by the rows its footer declares.
class RowGroupDecoder {
 public:
  static Result<std::shared_ptr<RowGroupDecoder>> Open(std::shared_ptr<const ScanPlan> plan,
                                                       const RowGroupTask& task,
                                                       ScanMetrics* metrics) {
    auto decoder = std::shared_ptr<RowGroupDecoder>(new RowGroupDecoder(std::move(plan), task));
    TARN_RETURN_NOT_OK(decoder->ReadChunks(metrics));
    return decoder;
  }

  // Decodes the next slice into output->batches; sets output->rest when rows remain.
  Status DecodeSlice(std::shared_ptr<RowGroupDecoder> self, RowGroupOutput* output);

 private:
  RowGroupDecoder(std::shared_ptr<const ScanPlan> plan, const RowGroupTask& task)
      : plan_(std::move(plan)), task_(task) {}
  Status ReadChunks(ScanMetrics* metrics);
  Status DecodeBatch(RowGroupOutput* output);

  std::shared_ptr<const ScanPlan> plan_;
  RowGroupTask task_;
  std::vector<std::shared_ptr<Buffer>> chunk_bytes_;
  std::vector<std::unique_ptr<ColumnChunkReader>> readers_;
  std::vector<int64_t> leaf_cursors_;  // per leaf: the next undecoded row of the row group
  size_t range_index_ = 0;
  int64_t range_pos_ = 0;
};

Status RowGroupDecoder::ReadChunks(ScanMetrics* metrics) {
  const FileState& file = *plan_->file;
  const auto& row_group = file.metadata.row_groups[task_.row_group];
  const auto& descriptors = file.schema.leaves();
  if (plan_->cancel != nullptr) TARN_RETURN_NOT_OK(plan_->cancel->Check("Parquet scan"));
  chunk_bytes_.resize(descriptors.size());
  readers_.resize(descriptors.size());
  leaf_cursors_.assign(descriptors.size(), 0);
  // Every row of the row group selected: its chunks are read whole, and together — object
  // storage then joins near ones and keeps several requests in flight
  // (RandomAccessFile::ReadRanges); a local file reads them one after the other as before.
  std::vector<std::shared_ptr<Buffer>> whole(descriptors.size());
  int64_t selected = 0;
  for (const auto& range : task_.ranges) selected += range.second - range.first;
  if (task_.ranges.empty() || selected >= row_group.num_rows) {
    std::vector<ReadRange> ranges;
    for (int leaf : plan_->leaves) {
      const ColumnMetaData& meta = *row_group.columns[leaf].meta_data;
      whole[leaf] = Buffer::Allocate(meta.total_compressed_size);
      ranges.push_back(ReadRange{ChunkStart(meta), meta.total_compressed_size,
                                 whole[leaf]->mutable_data()});
    }
    TARN_RETURN_NOT_OK(file.file->ReadRanges(ranges));
  }
  for (int leaf : plan_->leaves) {
    const LeafDescriptor& descriptor = descriptors[leaf];
    const ColumnMetaData& meta = *row_group.columns[leaf].meta_data;
    // Only the pages holding selected rows are fetched when the selection is a part of the
    // row group (parquet/chunk_fetch.h); the position of every row stays exact.
    parquet::ChunkFetchRequest request;
    request.file = file.file.get();
    request.chunk_begin = ChunkStart(meta);
    request.chunk_length = meta.total_compressed_size;  // checked against the file by Open
    request.row_group_rows = row_group.num_rows;
    request.ranges = &task_.ranges;
    request.flat = descriptor.max_rep_level == 0;
    request.context = ChunkContext(file, task_.row_group, descriptor);
    std::optional<parquet::ChunkPageIndex> index;
    request.index = nullptr;
    parquet::FetchedChunk fetched;
    if (whole[leaf] != nullptr) {
      fetched.bytes = std::move(whole[leaf]);
      fetched.bytes_read = request.chunk_length;
    } else {
      if (parquet::SelectsPartOfRowGroup(request)) {
        TARN_ASSIGN_OR_RETURN(index, LoadPageIndex(file, task_.row_group, leaf,
                                                   /*with_column_index=*/false,
                                                   &metrics->bytes_read));
        if (index) request.index = &*index;
      }
      TARN_ASSIGN_OR_RETURN(fetched, parquet::FetchChunk(request));
    }
    metrics->bytes_read += fetched.bytes_read;
    chunk_bytes_[leaf] = std::move(fetched.bytes);
    const std::string_view chunk(reinterpret_cast<const char*>(chunk_bytes_[leaf]->data()),
                                 static_cast<size_t>(chunk_bytes_[leaf]->size()));
    readers_[leaf] = std::make_unique<ColumnChunkReader>(
        descriptor, meta, chunk, request.chunk_begin, row_group.num_rows,
        std::move(request.context), plan_->cancel);
    if (!fetched.pieces.empty()) readers_[leaf]->SetPieces(std::move(fetched.pieces));
    readers_[leaf]->set_verify_checksums(plan_->verify_page_checksums);
  }
  metrics->rows_decoded = selected;
  metrics->rows_skipped = row_group.num_rows - selected;
  range_pos_ = task_.ranges.empty() ? 0 : task_.ranges[0].first;
  return Status::OK();
}

Status RowGroupDecoder::DecodeSlice(std::shared_ptr<RowGroupDecoder> self, RowGroupOutput* output) {
  int64_t produced = 0;
  while (range_index_ < task_.ranges.size() && produced < plan_->slice_rows) {
    const int64_t before = static_cast<int64_t>(output->batches.size());
    TARN_RETURN_NOT_OK(DecodeBatch(output));
    for (size_t i = static_cast<size_t>(before); i < output->batches.size(); ++i) {
      produced += output->batches[i]->num_rows;
    }
  }
  if (range_index_ < task_.ranges.size()) {
    output->rest = std::move(self);
    return Status::OK();
  }
  for (int leaf : plan_->leaves) {
    output->metrics.pages_read += readers_[leaf]->metrics().pages_read;
    output->metrics.pages_skipped += readers_[leaf]->metrics().pages_skipped;
  }
  return Status::OK();
}

// One batch of at most batch_rows selected rows.
Status RowGroupDecoder::DecodeBatch(RowGroupOutput* output) {
  const ScanPlan& plan = *plan_;
  const FileState& file = *plan.file;
  const auto& descriptors = file.schema.leaves();
  const int64_t first_row = file.first_rows[task_.row_group];
  const auto& ranges = task_.ranges;
  std::vector<std::pair<int64_t, int64_t>> pieces;  // (start, length) within the row group
  int64_t batch_rows = 0;
  while (range_index_ < ranges.size() && batch_rows < plan.batch_rows) {
    const int64_t range_end = ranges[range_index_].second;
    const int64_t take = std::min(range_end - range_pos_, plan.batch_rows - batch_rows);
    pieces.emplace_back(range_pos_, take);
    batch_rows += take;
    range_pos_ += take;
    if (range_pos_ == range_end && ++range_index_ < ranges.size()) {
      range_pos_ = ranges[range_index_].first;
    }
  }
  std::vector<LeafOutput> outputs(descriptors.size());
  // Decodes the pieces' rows of one leaf, or only `runs` of them (row-group positions).
  auto decode_leaf = [&](int leaf, const std::vector<std::pair<int64_t, int64_t>>& runs,
                         int64_t rows) -> Status {
    LeafOutput& out = outputs[leaf];
    out.keep_levels = plan.keep_levels[leaf];
    out.Init(descriptors[leaf], rows);
    int64_t& leaf_cursor = leaf_cursors_[leaf];
    for (const auto& [start, length] : runs) {
      if (start > leaf_cursor) TARN_RETURN_NOT_OK(readers_[leaf]->Skip(start - leaf_cursor));
      TARN_RETURN_NOT_OK(readers_[leaf]->Read(length, &out));
      leaf_cursor = start + length;
    }
    return Status::OK();
  };
  const size_t num_outputs = plan.columns.size() + (plan.with_position ? 1 : 0);
  std::vector<std::shared_ptr<Column>> columns(num_outputs);
  auto assemble = [&](size_t index, int64_t rows) -> Status {
    if (index == plan.columns.size()) {  // the position column
      auto position = std::make_shared<Column>();
      position->type = DataType(TypeId::kInt64);
      position->length = batch_rows;
      position->values = Buffer::AllocateUninitialized(batch_rows * 8);
      int64_t* values = position->values->mutable_data_as<int64_t>();
      for (const auto& [start, length] : pieces) {
        for (int64_t i = 0; i < length; ++i) *values++ = first_row + start + i;
      }
      columns[index] = std::move(position);
      return Status::OK();
    }
    const SchemaNode& node = file.schema.columns()[plan.columns[index]];
    TARN_ASSIGN_OR_RETURN(
        columns[index],
        parquet::AssembleColumn(node, descriptors, outputs, rows,
                                StrCat(file.path, ": row group ", task_.row_group)));
    return Status::OK();
  };
  auto emit = [&](int64_t rows) {
    output->batches.push_back(MakeBatch(plan.schema, std::move(columns)));
    output->batches.back()->num_rows = rows;
  };
  if (!plan.row_filter) {
    for (int leaf : plan.leaves) TARN_RETURN_NOT_OK(decode_leaf(leaf, pieces, batch_rows));
    for (size_t index = 0; index < num_outputs; ++index) {
      TARN_RETURN_NOT_OK(assemble(index, batch_rows));
    }
    emit(batch_rows);
    return Status::OK();
  }
  // The filter's columns first; the others for every row when the filter keeps many rows,
  // else only for the rows it keeps.
  for (int leaf : plan.leaves) {
    if (plan.filter_leaf[leaf]) TARN_RETURN_NOT_OK(decode_leaf(leaf, pieces, batch_rows));
  }
  for (size_t index = 0; index < num_outputs; ++index) {
    if (plan.filter_reads[index]) TARN_RETURN_NOT_OK(assemble(index, batch_rows));
  }
  Batch probe;
  probe.schema = plan.schema;
  probe.columns = columns;
  probe.num_rows = batch_rows;
  int64_t selected = 0;
  TARN_ASSIGN_OR_RETURN(std::vector<uint8_t> keep, plan.row_filter->Select(probe, &selected));
  probe.columns.clear();
  if (selected * kLateDecodeRatio > batch_rows) {
    for (int leaf : plan.leaves) {
      if (!plan.filter_leaf[leaf]) TARN_RETURN_NOT_OK(decode_leaf(leaf, pieces, batch_rows));
    }
    for (size_t index = 0; index < num_outputs; ++index) {
      if (!plan.filter_reads[index]) TARN_RETURN_NOT_OK(assemble(index, batch_rows));
    }
    emit(batch_rows);
    return Status::OK();
  }
  if (selected == 0) return Status::OK();  // the other leaves skip these rows later
  // The kept rows: their batch indices, and as runs of row-group positions.
  std::vector<int64_t> indices;
  indices.reserve(static_cast<size_t>(selected));
  for (int64_t word_index = 0; word_index * 64 < batch_rows; ++word_index) {
    uint64_t word = 0;
    const int64_t bytes = std::min<int64_t>(8, static_cast<int64_t>(keep.size()) - word_index * 8);
    std::memcpy(&word, keep.data() + word_index * 8, static_cast<size_t>(bytes));
    while (word != 0) {
      const int64_t row = word_index * 64 + __builtin_ctzll(word);
      if (row >= batch_rows) break;
      indices.push_back(row);
      word &= word - 1;
    }
  }
  std::vector<std::pair<int64_t, int64_t>> runs;
  {
    size_t piece = 0;
    int64_t piece_first = 0;  // batch index of the piece's first row
    for (int64_t row : indices) {
      while (row >= piece_first + pieces[piece].second) piece_first += pieces[piece++].second;
      const int64_t position = pieces[piece].first + (row - piece_first);
      if (!runs.empty() && runs.back().first + runs.back().second == position) {
        ++runs.back().second;
      } else {
        runs.emplace_back(position, 1);
      }
    }
  }
  for (int leaf : plan.leaves) {
    if (!plan.filter_leaf[leaf]) TARN_RETURN_NOT_OK(decode_leaf(leaf, runs, selected));
  }
  for (size_t index = 0; index < num_outputs; ++index) {
    if (plan.filter_reads[index]) {
      columns[index] = Take(*columns[index], indices);
    } else {
      TARN_RETURN_NOT_OK(assemble(index, selected));
    }
  }
  emit(selected);
  return Status::OK();
}

// One unit of work: the first slice of a row group (opening it) or the next slice of one.
struct Unit {
  size_t task_index = 0;
  std::shared_ptr<RowGroupDecoder> rest;  // null: open the row group first
};

Result<RowGroupOutput> RunUnit(const std::shared_ptr<const ScanPlan>& plan,
                               const std::vector<RowGroupTask>& tasks, const Unit& unit) {
  RowGroupOutput output;
  std::shared_ptr<RowGroupDecoder> decoder = unit.rest;
  if (decoder == nullptr) {
    TARN_ASSIGN_OR_RETURN(decoder,
                          RowGroupDecoder::Open(plan, tasks[unit.task_index], &output.metrics));
  }
  RowGroupDecoder* raw = decoder.get();
  TARN_RETURN_NOT_OK(raw->DecodeSlice(std::move(decoder), &output));
  return output;
}

void AddMetrics(const ScanMetrics& from, ScanMetrics* to) {
  to->pages_read += from.pages_read;
  to->pages_skipped += from.pages_skipped;
  to->rows_decoded += from.rows_decoded;
  to->rows_skipped += from.rows_skipped;
  to->bytes_read += from.bytes_read;
}

// One unit's decode, run by a pool worker or, if no worker has started it yet, by the
// consumer itself (so a scan never waits on a pool that is busy with its own consumer).
struct TaskSlot {
  Unit unit;
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
        Unit unit;
        if (serial_rest_.rest != nullptr) {
          unit = std::move(serial_rest_);
          serial_rest_ = Unit();
        } else {
          if (next_task_ == tasks_->size()) return std::shared_ptr<Batch>();
          unit.task_index = next_task_++;
        }
        result = RunUnit(plan_, *tasks_, unit);
        if (result.ok() && result->rest) serial_rest_ = Unit{unit.task_index, result->rest};
      } else {
        while (inflight_.size() < static_cast<size_t>(parallel_) && next_task_ < tasks_->size()) {
          inflight_.push_back(Submit(Unit{next_task_++, nullptr}));
        }
        if (inflight_.empty()) return std::shared_ptr<Batch>();
        std::shared_ptr<TaskSlot> slot = inflight_.front();
        inflight_.pop_front();
        Claim(slot);
        result = slot->future.get();
        // The rest of this row group comes before any later row group.
        if (result.ok() && result->rest) {
          inflight_.push_front(Submit(Unit{slot->unit.task_index, result->rest}));
        }
        // Keep the pipeline full while the consumer works on this slice.
        while (inflight_.size() < static_cast<size_t>(parallel_) && next_task_ < tasks_->size()) {
          inflight_.push_back(Submit(Unit{next_task_++, nullptr}));
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
  std::shared_ptr<TaskSlot> Submit(Unit unit) {
    auto slot = std::make_shared<TaskSlot>();
    slot->unit = std::move(unit);
    slot->future = slot->promise.get_future().share();
    auto plan = plan_;
    auto tasks = tasks_;
    pool_->Submit([slot, plan, tasks] {
      if (!slot->started.exchange(true)) slot->promise.set_value(RunUnit(plan, *tasks, slot->unit));
      return 0;
    });
    return slot;
  }

  void Claim(const std::shared_ptr<TaskSlot>& slot) {
    if (!slot->started.exchange(true)) {
      slot->promise.set_value(RunUnit(plan_, *tasks_, slot->unit));
    }
  }

  std::shared_ptr<const ScanPlan> plan_;
  std::shared_ptr<std::vector<RowGroupTask>> tasks_;
  ScanMetrics metrics_;
  ThreadPool* pool_;
  int parallel_;
  size_t next_task_ = 0;
  Unit serial_rest_;  // serial scans: the row group being decoded, when it has rows left
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

  Result<std::unique_ptr<ScanReader>> Scan(const ScanOptions& options) const override {
    return ScanFiltered(options, nullptr);
  }
  Result<std::unique_ptr<ScanReader>> ScanFiltered(
      const ScanOptions& options, std::shared_ptr<const parquet::RowFilter> filter) const;

 private:
  // Narrows task->ranges to the rows the page index says may match; false when none is left.
  Result<bool> PrunePagesOf(int rg, const StatisticsPredicate& predicate,
                            const std::vector<int>& predicate_columns, RowGroupTask* task,
                            ScanMetrics* metrics) const;

  std::shared_ptr<const FileState> state_;
};

Result<std::optional<parquet::ChunkPageIndex>> LoadPageIndex(const FileState& file, int rg,
                                                             int leaf, bool with_column_index,
                                                             int64_t* bytes_read) {
  const auto& chunk = file.metadata.row_groups[rg].columns[leaf];
  if (!chunk.offset_index_offset || !chunk.offset_index_length) {
    return std::optional<parquet::ChunkPageIndex>();
  }
  const std::string context = ChunkContext(file, rg, file.schema.leaves()[leaf]);
  auto read = [&](int64_t offset, int64_t length, std::string* out) -> Status {
    if (offset < 4 || length <= 0 || length > parquet::kMaxPageIndexBytes ||
        offset > file.data_end || length > file.data_end - offset) {
      return Status::Corruption(context, ": page index at offset ", offset, " of ", length,
                                " bytes lies outside the data section (", file.data_end,
                                " bytes)");
    }
    out->resize(static_cast<size_t>(length));
    if (bytes_read != nullptr) *bytes_read += length;
    return file.file->ReadAt(offset, length, reinterpret_cast<uint8_t*>(out->data()));
  };
  std::string offset_bytes;
  std::string column_bytes;
  TARN_RETURN_NOT_OK(read(*chunk.offset_index_offset, *chunk.offset_index_length, &offset_bytes));
  if (with_column_index && chunk.column_index_offset && chunk.column_index_length) {
    TARN_RETURN_NOT_OK(
        read(*chunk.column_index_offset, *chunk.column_index_length, &column_bytes));
  }
  const ColumnMetaData& meta = *chunk.meta_data;
  const int64_t chunk_begin = ChunkStart(meta);
  TARN_ASSIGN_OR_RETURN(
      parquet::ChunkPageIndex index,
      parquet::ChunkPageIndex::Decode(offset_bytes, column_bytes,
                                      file.metadata.row_groups[rg].num_rows, chunk_begin,
                                      chunk_begin + meta.total_compressed_size, context));
  return std::optional<parquet::ChunkPageIndex>(std::move(index));
}

Result<bool> ParquetReaderImpl::PrunePagesOf(int rg, const StatisticsPredicate& predicate,
                                             const std::vector<int>& predicate_columns,
                                             RowGroupTask* task, ScanMetrics* metrics) const {
  const FileState& file = *state_;
  const int64_t rows = row_group_num_rows(rg);
  std::vector<parquet::PruneColumn> prune(predicate_columns.size());
  std::vector<std::optional<parquet::ChunkPageIndex>> indexes(predicate_columns.size());
  bool any_index = false;
  for (size_t i = 0; i < predicate_columns.size(); ++i) {
    const int column = predicate_columns[i];
    if (column < 0) continue;
    prune[i].row_group_stats = RowGroupStatistics(rg, column);
    const SchemaNode& node = file.schema.columns()[column];
    if (node.kind != SchemaNode::Kind::kLeaf) continue;
    TARN_ASSIGN_OR_RETURN(indexes[i], LoadPageIndex(file, rg, node.leaf));
    if (!indexes[i] || !indexes[i]->column_index) continue;
    const auto& orders = file.metadata.column_orders;
    const bool order_usable =
        orders.size() == file.schema.leaves().size() &&
        (orders[node.leaf].type_defined_order || orders[node.leaf].ieee754_total_order);
    const LeafDescriptor& leaf = file.schema.leaves()[node.leaf];
    const auto& spans = indexes[i]->page_rows;
    for (size_t page = 0; page < spans.size(); ++page) {
      prune[i].pages.push_back(parquet::PageStatistics(*indexes[i]->column_index, page, leaf,
                                                       spans[page].second - spans[page].first,
                                                       order_usable));
    }
    prune[i].index = &*indexes[i];
    any_index = true;
  }
  if (!any_index) return true;
  parquet::PruneResult result = parquet::PrunePages(predicate, prune, rows);
  metrics->pages_pruned += result.pages_pruned;
  auto count = [](const parquet::RowRanges& ranges) {
    int64_t total = 0;
    for (const auto& range : ranges) total += range.second - range.first;
    return total;
  };
  parquet::RowRanges kept = parquet::IntersectRanges(task->ranges, result.keep);
  metrics->rows_pruned += count(task->ranges) - count(kept);
  task->ranges = std::move(kept);
  return !task->ranges.empty();
}

Result<std::unique_ptr<ScanReader>> ParquetReaderImpl::ScanFiltered(
    const ScanOptions& options, std::shared_ptr<const parquet::RowFilter> filter) const {
  const FileState& file = *state_;
  const Schema& schema = file.schema.schema();
  auto plan = std::make_shared<ScanPlan>();
  plan->file = state_;
  plan->verify_page_checksums = options.verify_page_checksums;
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
  plan->slice_rows = std::min<int64_t>(options.batch_rows, INT64_MAX / 4) * 4;
  plan->cancel = options.cancel;
  if (filter) {
    const size_t num_outputs = plan->columns.size() + (plan->with_position ? 1 : 0);
    plan->filter_reads.assign(num_outputs, false);
    for (int column : filter->columns()) {
      if (column < 0 || static_cast<size_t>(column) >= num_outputs) {
        return Status::InvalidArgument("a row filter reads column ", column, " of a scan of ",
                                       num_outputs);
      }
      plan->filter_reads[static_cast<size_t>(column)] = true;
    }
    // The position column is cheap: made before the filter runs, and cut to the kept rows.
    if (plan->with_position) plan->filter_reads.back() = true;
    plan->filter_leaf.assign(file.schema.leaves().size(), false);
    for (size_t index = 0; index < plan->columns.size(); ++index) {
      if (!plan->filter_reads[index]) continue;
      const SchemaNode& node = file.schema.columns()[plan->columns[index]];
      for (int leaf = node.first_leaf; leaf < node.first_leaf + node.num_leaves; ++leaf) {
        plan->filter_leaf[leaf] = true;
      }
    }
    plan->row_filter = std::move(filter);
  }

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
    if (options.split_length >= 0 && (file.first_bytes[rg] < options.split_offset ||
                                      file.first_bytes[rg] - options.split_offset >=
                                          options.split_length)) {
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
      if (options.use_page_index) {
        TARN_ASSIGN_OR_RETURN(bool kept, PrunePagesOf(rg, *options.predicate, predicate_columns,
                                                      &task, &metrics));
        if (!kept) {
          ++metrics.row_groups_pruned;
          continue;
        }
      }
    }
    tasks.push_back(std::move(task));
  }
  ThreadPool* pool = options.pool != nullptr ? options.pool : ThreadPool::Default();
  return std::unique_ptr<ScanReader>(std::make_unique<ScanReaderImpl>(
      std::move(plan), std::move(tasks), metrics, pool, options.max_parallel_row_groups));
}

}  // namespace

namespace parquet {

std::shared_ptr<const RowFilter> ExpressionRowFilter(std::shared_ptr<const BoundExpr> filter) {
  if (filter == nullptr) return nullptr;
  return std::make_shared<const ExpressionFilter>(std::move(filter));
}

std::shared_ptr<const RowFilter> AllRowFilters(
    std::vector<std::shared_ptr<const RowFilter>> filters) {
  std::erase(filters, nullptr);
  if (filters.empty()) return nullptr;
  if (filters.size() == 1) return filters[0];
  return std::make_shared<const AllFilters>(std::move(filters));
}

Result<std::unique_ptr<ScanReader>> ScanWithRowFilter(const ParquetReader& reader,
                                                      const ScanOptions& options,
                                                      std::shared_ptr<const RowFilter> filter) {
  const auto* impl = dynamic_cast<const ParquetReaderImpl*>(&reader);
  if (impl == nullptr || filter == nullptr) return reader.Scan(options);
  return impl->ScanFiltered(options, std::move(filter));
}

Result<std::unique_ptr<ScanReader>> ScanWithRowFilter(const ParquetReader& reader,
                                                      const ScanOptions& options,
                                                      std::shared_ptr<const BoundExpr> filter) {
  if (filter != nullptr && filter->type().id != TypeId::kBoolean) {
    return Status::InvalidArgument("a row filter must be BOOLEAN, not ", filter->type().ToString());
  }
  return ScanWithRowFilter(reader, options, ExpressionRowFilter(std::move(filter)));
}

}  // namespace parquet

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
