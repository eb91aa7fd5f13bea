// How a table sits on disk: writer profiles, column profiles, and the sort-key picker.
//
// A writer profile is a named set of Parquet writer settings. `duckdb` (the default) is what
// DuckLake writes; `read_optimized` is the layout for readers that load whole row groups
// (SNAPPY, row groups sized from the row count, large dictionaries, 1 MiB pages, 256 MiB
// files). A lake table selects one with the `parquet_profile` option.
//
// The picker chooses a sort key for a table (`SORTED BY AUTO`). It first profiles the table
// in at most two scans with bounded memory: per column the cardinality (HyperLogLog, exact
// while small), the skew Σp² (exact while the cardinality is small), the null share, the type
// and the average width, plus the distinct counts of candidate column pairs and triples (the
// functional dependencies between prefixes). Beyond `sample_rows` rows it keeps a
// deterministic sample: the rows with the smallest content hashes, so the same rows in any
// order give the same sample, and, for each candidate column, whole groups of a hash-chosen
// subset of its values. Then, in the default `measured` mode, it writes samples sorted by
// each candidate key with tarn's own Parquet writer (in memory, with the writer profile of
// the table) and keeps the key whose file is smallest per row: the bytes decide, not a model
// of them. Each key is measured on whole groups of its leading column, so that what sorting
// within a coarse column's groups gains shows as it would on the whole table. The search is a
// beam over key prefixes pruned by the profile (columns the prefix already determines,
// prefixes at the grain). In `rules` mode it applies duckrun's
// published heuristic instead (docs/layout.md). Both are deterministic: the same rows give the
// same key whatever their order, the thread count or the batch sizes; ties go to the key whose
// columns come first in the table.
//
// Thread-safety: every function here may be called from many threads at once; a RowSource
// factory is called from the calling thread only.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/columnar.h"
#include "tarn/parquet.h"
#include "tarn/status.h"
#include "tarn/thread_pool.h"
#include "tarn/type.h"

namespace tarn {

// ---- writer profiles -------------------------------------------------------------------------

enum class WriterProfile : uint8_t {
  kDuckDb,         // DuckLake's own settings (the default)
  kReadOptimized,  // the read-optimized layout
};

// "duckdb" / "default" and "read_optimized" (any case). InvalidArgument names the valid ones.
Result<WriterProfile> ParseWriterProfile(std::string_view text);
std::string_view WriterProfileName(WriterProfile profile);

// The settings of the read-optimized profile. Each field's default is beside it.
struct ReadOptimizedSettings {
  int64_t lanes = 8;                       // Default: 8 row groups per write when in bounds
  int64_t min_row_group_rows = 1 << 20;    // Default: 1,048,576 rows
  int64_t max_row_group_rows = 16 << 20;   // Default: 16,777,216 rows
  int64_t dictionary_page_bytes_limit = 32LL << 20;  // Default: 32 MiB, then PLAIN
  int64_t data_page_bytes = 1 << 20;       // Default: 1 MiB
  int64_t data_page_rows = 1000000;        // Default: 1,000,000 rows per page
  int64_t statistics_truncate_length = 64;  // Default: 64 bytes
  int64_t target_file_size = 256LL << 20;  // Default: 256 MiB
};

// Rows per row group of a read-optimized write of `rows` rows:
// ceil(rows / lanes) within [min_row_group_rows, max_row_group_rows].
int64_t ReadOptimizedRowGroupRows(int64_t rows, const ReadOptimizedSettings& settings = {});

// Applies the read-optimized settings for a write of `rows` rows to `builder` (compression
// SNAPPY, row-group rows, dictionary limit, pages, statistics truncation). Near-unique chunks
// are written without a dictionary by the writer itself (parquet-writer.md).
void ApplyReadOptimized(WriterProperties::Builder& builder, int64_t rows,
                        const ReadOptimizedSettings& settings = {});

// The properties of `profile` for a write of `rows` rows (kDuckDb: the writer's defaults,
// which are DuckDB's).
Result<std::shared_ptr<const WriterProperties>> WriterPropertiesFor(WriterProfile profile,
                                                                   int64_t rows);

// ---- column profiles -------------------------------------------------------------------------

struct ColumnProfile {
  std::string name;
  DataType type;
  int64_t rows = 0;        // rows profiled (the table's, not the sample's)
  int64_t null_count = 0;
  int64_t distinct = 0;    // non-null distinct values: exact when distinct_exact, else HLL
  bool distinct_exact = false;
  double skew = 0;         // Σp² over non-null values; exact when skew_exact, else 1/distinct
  bool skew_exact = false;
  double average_width = 0;  // bytes per non-null value (strings: their length)
  // Whether a key may use the column, and when not, why ("constant", "mostly NULL", ...).
  bool candidate = false;
  std::string excluded_because;

  double null_share() const { return rows == 0 ? 0 : static_cast<double>(null_count) / rows; }
};

// The distinct count of a set of columns together (indices into TableProfile::columns,
// ascending). A functional dependency X → c holds when distinct(X ∪ {c}) == distinct(X).
struct ColumnSetDistinct {
  std::vector<int> columns;
  int64_t distinct = 0;
  bool exact = false;
};

struct TableProfile {
  int64_t rows = 0;
  int64_t sample_rows = 0;  // rows kept for measuring (== rows when the table fits)
  int scans = 0;            // passes over the table's rows
  double seconds = 0;
  std::vector<ColumnProfile> columns;
  std::vector<ColumnSetDistinct> column_sets;  // pairs and triples of candidates

  // The distinct count of `columns` (any order) when profiled; nullopt otherwise.
  std::optional<int64_t> Distinct(std::vector<int> columns) const;
  // Index of `name` (case-insensitive), or -1.
  int FindColumn(std::string_view name) const;
};

// ---- the picker ------------------------------------------------------------------------------

enum class PickerMode : uint8_t {
  kMeasured,  // tarn's: candidates written and measured (the default)
  kRules,     // duckrun's published heuristic
};

// "measured" (also "tarn", "auto") and "rules" (any case).
Result<PickerMode> ParsePickerMode(std::string_view text);
std::string_view PickerModeName(PickerMode mode);

struct SortKeyColumn {
  std::string name;
  bool descending = false;
  bool nulls_first = false;
};

// "a, b DESC": for messages and EXPLAIN.
std::string FormatSortKey(std::span<const SortKeyColumn> key);

// One key the picker considered.
struct KeyCandidate {
  std::vector<int> columns;  // indices into TableProfile::columns; empty = the rows as they are
  int64_t bytes = -1;        // measured size of the sample sorted by it (-1: not measured)
  int64_t sample_rows = 0;   // rows of the sample it was measured on
  // bytes scaled to the table's rows (bytes * rows / sample_rows): what keys measured on
  // different samples are compared by (-1: not measured).
  int64_t estimated_bytes = -1;
  double modelled_bytes = -1;  // rules mode: the byte model's estimate (-1: not modelled)
  std::string note;          // why it was kept, pruned or chosen
};

struct SortKeyChoice {
  PickerMode mode = PickerMode::kMeasured;
  // The chosen key; empty when no key beats the rows as they are (write them unsorted).
  std::vector<SortKeyColumn> key;
  TableProfile profile;
  std::vector<KeyCandidate> candidates;  // in the order tried
  // Measured mode: the table's bytes as it is and sorted by the chosen key, estimated from
  // the samples they were measured on (exact when that sample is the table).
  int64_t unsorted_bytes = -1;
  int64_t chosen_bytes = -1;
  int64_t measurements = 0;     // sample files written
  double seconds = 0;           // the whole pick, profile included
  std::string reason;           // one sentence: why this key
};

struct PickerOptions {
  PickerMode mode = PickerMode::kMeasured;
  // Rows profiled and measured exactly; a larger table is sampled down to this many rows
  // sampled at random, and as many again of whole groups shared by the candidate columns.
  // Default: 1,048,576.
  int64_t sample_rows = 1 << 20;
  // Skew is exact for columns of at most this many distinct values. Default: 100,000.
  int64_t exact_skew_max_distinct = 100000;
  // Longest key. Default: 3 (measured), rules mode caps at 4 as duckrun does.
  int max_key_columns = 3;
  // Prefixes kept at each step of the measured search. Default: 3.
  int beam_width = 3;
  // The writer settings the measurements use. Null: the read-optimized profile for the
  // table's row count.
  std::shared_ptr<const WriterProperties> properties;
  // Columns a key never uses (e.g. partition columns, which files do not store).
  std::vector<std::string> excluded_columns;
  // Where profiling hashes columns in parallel. Null: ThreadPool::Default().
  ThreadPool* pool = nullptr;
  const CancellationToken* cancel = nullptr;
};

// Opens a fresh scan of the table's rows; the picker calls it once per pass (at most twice).
using RowSourceFactory = std::function<Result<std::unique_ptr<BatchReader>>()>;

// Picks a sort key for the rows `open_rows` yields. Errors: the scan's, Cancelled, and
// InvalidArgument for options out of range.
Result<SortKeyChoice> PickSortKey(const RowSourceFactory& open_rows,
                                  const PickerOptions& options = {});
// The same over rows in memory.
Result<SortKeyChoice> PickSortKey(std::shared_ptr<const Schema> schema,
                                  std::vector<std::shared_ptr<Batch>> batches,
                                  const PickerOptions& options = {});

// Profiles the rows (the picker's first step).
Result<TableProfile> ProfileRows(const RowSourceFactory& open_rows,
                                 const PickerOptions& options = {});

// The size in bytes of `batch` written as one Parquet file with `properties`, its rows sorted
// by `key` (column indices, ascending, NULLs last; ties keep the batch's order). Empty key:
// as it is. For the benchmark and the picker's tests (the exhaustive search).
Result<int64_t> MeasureSortedSize(const Batch& batch, std::span<const int> key,
                                  std::shared_ptr<const WriterProperties> properties);

// ---- table statistics (tarn_table_stats) ----------------------------------------------------

// How one lake table sits on disk at a snapshot.
struct LakeTableStats {
  int64_t rows = 0;             // live rows: data files minus deletes, plus inlined rows
  int64_t files = 0;            // data files
  int64_t delete_files = 0;
  int64_t row_groups = 0;       // over the data files (read from their footers)
  double average_row_group_rows = 0;
  int64_t bytes_on_disk = 0;    // data and delete files
  int64_t compressed_bytes = 0;    // column chunks of the data files, as stored
  int64_t uncompressed_bytes = 0;  // the same before compression
  double compression_ratio = 0;    // uncompressed / compressed (0 without data files)
  std::string sort_key;         // the table's SORTED BY, "" when none
  std::string profile;          // its parquet_profile ("duckdb" by default)
};

// Reads the footer of every data file of `table` through `fs`. Errors name the file.
Result<LakeTableStats> ReadLakeTableStats(Lake& lake, const std::shared_ptr<FileSystem>& fs,
                                          const TableMetadata& table);

}  // namespace tarn
