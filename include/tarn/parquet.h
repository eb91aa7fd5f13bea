// tarn's Parquet reader and writer: the public API.
//
// ParquetReader opens one file, exposes its metadata and logical schema, and scans it into
// batches with projection, row-group pruning on statistics, row selection by physical
// position, and the physical row position as a virtual column. ParquetWriter writes batches
// into a file with immutable WriterProperties and returns per-column statistics.
//
// The physical row position of a row is its 0-based index in the file. It is exact under
// row-group pruning, row selection and parallel decoding: it is computed from the row
// groups' row counts in the footer, never from the order in which rows arrive.
//
// Thread-safety: a ParquetReader may run several scans at once; one ScanReader or
// ParquetWriter is used by one thread at a time (a scan decodes row groups on a pool
// internally).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/io.h"
#include "tarn/status.h"
#include "tarn/thread_pool.h"
#include "tarn/type.h"

namespace tarn {

namespace parquet {
struct FileMetaData;
}  // namespace parquet

// Statistics of one column over a row group or a whole file, decoded to the column's
// logical type. For floating-point columns min and max exclude NaN.
struct ColumnStatistics {
  std::optional<Value> min;   // absent when unknown (or no non-null, non-NaN value)
  std::optional<Value> max;
  std::optional<int64_t> null_count;
  std::optional<int64_t> nan_count;  // floating point only; absent when not recorded
  int64_t value_count = 0;           // values including nulls (leaf level)
  bool min_exact = true;
  bool max_exact = true;
  int64_t compressed_bytes = 0;
  int64_t uncompressed_bytes = 0;

  // NaN-safe bounds: what a pruner may trust. In DuckDB's order NaN (either sign) is above
  // every number, so a float min stays a lower bound unless it is itself NaN, and a float max
  // is an upper bound only when nan_count == 0 is recorded. Returns nullopt when unusable.
  std::optional<Value> LowerBound() const;
  std::optional<Value> UpperBound() const;
};

// Decides from statistics whether a row group (or file) may hold a matching row.
// Implemented by the expression module; the Parquet reader only calls it.
class StatisticsPredicate {
 public:
  virtual ~StatisticsPredicate() = default;
  // Top-level column names (of the file's logical schema) whose statistics MayMatch reads.
  virtual std::vector<std::string> referenced_columns() const = 0;
  // `stats[i]` describes referenced_columns()[i], or is null when the file has no statistics
  // for it (or it is nested). Returns false only when no row can match.
  virtual bool MayMatch(std::span<const ColumnStatistics* const> stats,
                        int64_t num_rows) const = 0;
};

// A set of physical row positions, as sorted, disjoint, non-adjacent half-open ranges.
class RowSelection {
 public:
  RowSelection() = default;
  static RowSelection All(int64_t num_rows);
  static RowSelection FromRanges(std::vector<std::pair<int64_t, int64_t>> ranges);  // normalizes
  static RowSelection FromPositions(std::span<const int64_t> sorted_positions);

  const std::vector<std::pair<int64_t, int64_t>>& ranges() const { return ranges_; }
  int64_t count() const;
  bool Contains(int64_t position) const;
  // The part of this selection inside [begin, end), shifted by -begin.
  RowSelection Intersect(int64_t begin, int64_t end) const;

 private:
  std::vector<std::pair<int64_t, int64_t>> ranges_;
};

struct ScanOptions {
  // Top-level columns to read, by name, in this order. Empty = every column.
  std::vector<std::string> columns;
  // Row-group pruning on footer statistics. Null = no pruning.
  std::shared_ptr<const StatisticsPredicate> predicate;
  // Rows to read; nullopt = all. Rows outside it are skipped, not decoded.
  std::optional<RowSelection> selection;
  // Appends a non-null BIGINT column named `position_column_name` holding each row's physical
  // position in the file.
  bool with_position = false;
  std::string position_column_name = "file_row_number";
  // Only row groups whose index is in this list (empty = all); split scans use it.
  std::vector<int> row_groups;
  // Split scans: only the row groups whose first page starts at a file offset in
  // [split_offset, split_offset + split_length). Splits that tile the file read every row group
  // exactly once, positions unchanged. split_length < 0 = no byte range.
  int64_t split_offset = 0;
  int64_t split_length = -1;
  // Page pruning with the page index (ColumnIndex/OffsetIndex) of the predicate's columns,
  // when `predicate` is set and the file has one. Default: on.
  bool use_page_index = true;
  // Rows per output batch (a row group's rows are cut into batches of at most this).
  int64_t batch_rows = 122880;
  // Row groups decoded in parallel on this pool (null = ThreadPool::Default()); 1 = serial.
  ThreadPool* pool = nullptr;
  int max_parallel_row_groups = 2;
  const CancellationToken* cancel = nullptr;
  // Checks the CRC of every page that carries one before decoding it; a mismatch fails the
  // scan with Corruption naming the page's offset. Default: on.
  bool verify_page_checksums = true;
};

// What a scan did; for EXPLAIN and for tests that check pruning really happened.
struct ScanMetrics {
  int64_t row_groups_total = 0;
  int64_t row_groups_pruned = 0;   // by statistics
  int64_t row_groups_skipped = 0;  // outside the selection / row_groups list
  int64_t pages_read = 0;
  int64_t pages_skipped = 0;
  int64_t pages_pruned = 0;        // pages of predicate columns ruled out by the page index
  int64_t rows_pruned = 0;         // rows of kept row groups ruled out by the page index
  int64_t rows_decoded = 0;
  int64_t rows_skipped = 0;
  int64_t bytes_read = 0;
};

class ScanReader : public BatchReader {
 public:
  virtual const ScanMetrics& metrics() const = 0;
};

class ParquetReader {
 public:
  // Reads and validates the footer. Errors name the path: not a Parquet file (bad magic),
  // an encrypted file (NotSupported), a truncated or corrupt footer (Corruption).
  static Result<std::unique_ptr<ParquetReader>> Open(std::shared_ptr<FileSystem> fs,
                                                     const std::string& path);
  static Result<std::unique_ptr<ParquetReader>> Open(std::shared_ptr<RandomAccessFile> file);

  virtual ~ParquetReader() = default;

  virtual const std::string& path() const = 0;
  virtual const parquet::FileMetaData& metadata() const = 0;
  // The logical schema; fields carry field ids when the file has them.
  virtual const Schema& schema() const = 0;
  virtual int64_t num_rows() const = 0;
  virtual int num_row_groups() const = 0;
  virtual int64_t row_group_num_rows(int row_group) const = 0;
  // Position of the first row of each row group.
  virtual int64_t row_group_first_row(int row_group) const = 0;
  virtual int64_t file_size() const = 0;
  virtual int64_t footer_size() const = 0;  // the serialized FileMetaData's length

  // Statistics of a top-level, non-nested column in a row group (nullopt when not recorded).
  virtual std::optional<ColumnStatistics> RowGroupStatistics(int row_group, int column) const = 0;

  virtual Result<std::unique_ptr<ScanReader>> Scan(const ScanOptions& options) const = 0;
  // Reads everything matching `options` into one batch.
  Result<std::shared_ptr<Batch>> ReadAll(const ScanOptions& options = {}) const;
};

// When the writer stores a page index (ColumnIndex + OffsetIndex) for a column chunk.
enum class PageIndexMode : uint8_t {
  kOff,   // never
  kAuto,  // the offset index always (row-selective reads fetch only their pages); the column
          // index when the chunk has several data pages whose min/max are ordered (sorted or
          // clustered data), so readers can prune pages
  kOn,    // always: the offset index, and the column index when every non-null page has bounds
};

// Writer properties: immutable once built. Each field's default is stated beside it.
class WriterProperties {
 public:
  class Builder;

  int compression() const { return compression_; }  // parquet::CompressionCodec value
  int compression_level() const { return compression_level_; }
  int64_t max_row_group_rows() const { return max_row_group_rows_; }
  int64_t max_row_group_bytes() const { return max_row_group_bytes_; }
  int64_t data_page_bytes() const { return data_page_bytes_; }
  int64_t data_page_rows() const { return data_page_rows_; }
  int64_t dictionary_page_bytes_limit() const { return dictionary_page_bytes_limit_; }
  bool dictionary_enabled() const { return dictionary_enabled_; }
  int data_page_version() const { return data_page_version_; }
  bool statistics_enabled() const { return statistics_enabled_; }
  int64_t statistics_truncate_length() const { return statistics_truncate_length_; }
  bool write_page_crc() const { return write_page_crc_; }
  const std::string& created_by() const { return created_by_; }
  // The encoding requested for a leaf column's data pages (a parquet::Encoding value), looked
  // up by the leaf's dotted path ("s.x", "l.list.element"), then by its top-level column's
  // name; nullopt when none was requested.
  std::optional<int> column_encoding(const std::vector<std::string>& leaf_path) const;
  bool delta_fallback() const { return delta_fallback_; }
  PageIndexMode page_index() const { return page_index_; }
  // The mode of one leaf, by its dotted path ("a.b.c") or its top-level column's name; the
  // per-column setting wins over page_index().
  PageIndexMode page_index_for(const std::vector<std::string>& leaf_path) const {
    std::string dotted;
    for (const std::string& part : leaf_path) dotted += (dotted.empty() ? "" : ".") + part;
    for (const auto& [column, mode] : column_page_index_) {
      if (column == dotted || (!leaf_path.empty() && column == leaf_path[0])) return mode;
    }
    return page_index_;
  }

 private:
  friend class Builder;
  int compression_ = 1;                            // Default: SNAPPY
  int compression_level_ = 0;                      // Default: the codec's own default
  int64_t max_row_group_rows_ = 122880;            // Default: 122,880 rows (DuckDB's)
  int64_t max_row_group_bytes_ = 128LL << 20;      // Default: 128 MiB uncompressed
  int64_t data_page_bytes_ = 1 << 20;              // Default: 1 MiB
  int64_t data_page_rows_ = 20000;                 // Default: 20,000 rows
  int64_t dictionary_page_bytes_limit_ = 1 << 20;  // Default: 1 MiB, then PLAIN fallback
  bool dictionary_enabled_ = true;                 // Default: on
  int data_page_version_ = 1;                      // Default: data page v1
  bool statistics_enabled_ = true;                 // Default: on
  int64_t statistics_truncate_length_ = 256;       // Default: 256 bytes for binary min/max, as DuckDB
  bool write_page_crc_ = true;                     // Default: on
  std::string created_by_ = "tarn";
  // (dotted leaf path or top-level column name, parquet::Encoding value). Default: none.
  std::vector<std::pair<std::string, int>> column_encodings_;
  // INT32/INT64 chunks that are not dictionary-encoded use DELTA_BINARY_PACKED when it is
  // clearly smaller than PLAIN (judged on the chunk's first values). Default: on.
  bool delta_fallback_ = true;
  PageIndexMode page_index_ = PageIndexMode::kAuto;  // Default: auto (see PageIndexMode)
  std::vector<std::pair<std::string, PageIndexMode>> column_page_index_;  // Default: none
};

class WriterProperties::Builder {
 public:
  Builder& compression(int codec, int level = 0);  // a parquet::CompressionCodec value
  Builder& max_row_group_rows(int64_t rows);
  Builder& max_row_group_bytes(int64_t bytes);
  Builder& data_page_bytes(int64_t bytes);
  Builder& data_page_rows(int64_t rows);
  Builder& dictionary_page_bytes_limit(int64_t bytes);
  Builder& dictionary_enabled(bool enabled);
  Builder& data_page_version(int version);  // 1 or 2
  Builder& statistics_enabled(bool enabled);
  Builder& statistics_truncate_length(int64_t bytes);
  Builder& write_page_crc(bool enabled);
  Builder& created_by(std::string value);
  // Encodes the data pages of `column` (a dotted leaf path or a top-level column name, which
  // applies to every leaf under it) with `encoding`, a parquet::Encoding value: PLAIN,
  // RLE_DICTIONARY (dictionary even when dictionaries are disabled; PLAIN when it overflows),
  // DELTA_BINARY_PACKED (INT32/INT64), DELTA_LENGTH_BYTE_ARRAY (BYTE_ARRAY), DELTA_BYTE_ARRAY
  // (BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY) or BYTE_STREAM_SPLIT (FLOAT, DOUBLE, INT32, INT64,
  // FIXED_LEN_BYTE_ARRAY). A later call for the same column replaces an earlier one. An
  // encoding that does not fit the column's physical type fails the write naming the column.
  Builder& column_encoding(std::string column, int encoding);
  Builder& delta_fallback(bool enabled);
  Builder& page_index(PageIndexMode mode) {
    props_.page_index_ = mode;
    return *this;
  }
  // Per column: `column` is a leaf's dotted path or a top-level column name.
  Builder& page_index(std::string column, PageIndexMode mode) {
    props_.column_page_index_.emplace_back(std::move(column), mode);
    return *this;
  }
  // Fails on out-of-range values, naming the option.
  Result<std::shared_ptr<const WriterProperties>> Build() const;

 private:
  WriterProperties props_;
};

// What a finished file looks like, for the catalog.
struct WrittenColumnStatistics {
  std::vector<std::string> path;  // leaf path in the schema
  int32_t field_id = -1;          // -1 when absent
  ColumnStatistics stats;         // min/max over the whole file (NaN excluded), counts, sizes
  bool contains_nan = false;
  // GEOMETRY leaves: the bounding box and kinds of the values as DuckLake's extra_stats JSON
  // ({"bbox": {...}, "types": [...]}); unset for other leaves or WKB that did not parse.
  std::optional<std::string> geometry_stats;
};

// A top-level VARIANT column: its rows and the fully shredded fields of its values (see
// columnar/variant_stats.h), for DuckLake's ducklake_file_variant_stats.
struct WrittenVariantField {
  std::string path;          // root, element, "a", "a".element
  DataType type;             // the shredded type
  int64_t num_values = 0;    // NULLs included
  int64_t null_count = 0;
  std::optional<Value> min;
  std::optional<Value> max;
  bool contains_nan = false;
  int64_t size_bytes = 0;
};

struct WrittenVariantStatistics {
  int top_level_column = 0;
  int32_t field_id = -1;
  int64_t rows = 0;
  int64_t null_rows = 0;
  int64_t compressed_bytes = 0;  // of all the column's leaves
  std::vector<WrittenVariantField> fields;
};

struct WrittenFileInfo {
  std::vector<WrittenVariantStatistics> variants;  // one per top-level VARIANT column
  int64_t num_rows = 0;
  int64_t file_size = 0;
  int64_t footer_size = 0;
  int num_row_groups = 0;
  std::vector<WrittenColumnStatistics> columns;  // one per leaf column
};

class ParquetWriter {
 public:
  // Creates `path`. Fields keep their field ids. Key-value metadata goes into the footer.
  static Result<std::unique_ptr<ParquetWriter>> Open(
      std::shared_ptr<FileSystem> fs, const std::string& path, const Schema& schema,
      std::shared_ptr<const WriterProperties> properties,
      std::vector<std::pair<std::string, std::string>> key_value_metadata = {});
  static Result<std::unique_ptr<ParquetWriter>> Open(
      std::unique_ptr<WritableFile> file, const Schema& schema,
      std::shared_ptr<const WriterProperties> properties,
      std::vector<std::pair<std::string, std::string>> key_value_metadata = {});

  virtual ~ParquetWriter() = default;
  // REQUIRES: batch schema's types equal the writer's schema (names may differ).
  // Memory stays bounded by one row group: full row groups are flushed as they fill.
  virtual Status Write(const Batch& batch) = 0;
  // Flushes the open row group (if any) now.
  virtual Status FlushRowGroup() = 0;
  // Bytes written so far plus the buffered row group's estimated encoded size.
  virtual int64_t EstimatedFileSize() const = 0;
  // In-memory bytes of the open row group's buffered rows (what the writer holds).
  virtual int64_t BufferedBytes() const = 0;
  // Writes the footer, closes the file, and describes it.
  virtual Result<WrittenFileInfo> Finish() = 0;
  // Drops the file (nothing is left under its path).
  virtual void Abandon() = 0;
};

}  // namespace tarn
