// The page index of a column chunk: the OffsetIndex (where each data page starts, its size and
// the row group row it starts at) and the ColumnIndex (per-page min/max, null pages, null and
// NaN counts), both Thrift compact structs stored between the row groups and the footer.
//
// Reading: ChunkPageIndex::Decode validates an index against its row group and chunk (page
// locations inside the chunk, first_row_index 0 then strictly increasing below the row count,
// the column index holding one entry per page) and turns each page into the rows it covers.
// PrunePages evaluates a StatisticsPredicate per row segment, where segments are cut at the page
// boundaries of every indexed predicate column, and returns the row ranges that may match. Each
// page's statistics follow ColumnStatistics::LowerBound/UpperBound: a float page's upper bound is
// trusted only when its nan_count is recorded as 0, NaN bounds are dropped, and the sign of a
// zero bound is widened, so a page that could hide NaN is never pruned for a predicate NaN
// could satisfy.
//
// Writing: the column writer records one PageIndexEntry per data page; BuildColumnIndex and
// BuildOffsetIndex turn them into the two structs.
//
// Thread-safety: plain values and pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parquet/metadata.h"
#include "parquet/schema.h"
#include "parquet/writer_schema.h"
#include "tarn/parquet.h"

namespace tarn::parquet {

using RowRanges = std::vector<std::pair<int64_t, int64_t>>;  // sorted, disjoint, half-open

// Largest serialized index tarn reads for one chunk (a bound on hostile lengths).
constexpr int64_t kMaxPageIndexBytes = int64_t{64} << 20;

struct ChunkPageIndex {
  OffsetIndex offset_index;
  std::optional<ColumnIndex> column_index;  // absent when the chunk has none
  RowRanges page_rows;                      // per page: rows [first, end) in the row group

  // `offset_bytes` is the serialized OffsetIndex, `column_bytes` the ColumnIndex (empty when
  // the chunk has none). The chunk's pages lie in [chunk_begin, chunk_end) of the file.
  // Errors are Corruption prefixed by `context`. Null and NaN counts outside [0, page rows]
  // are not errors: PageStatistics reads them as unknown.
  static Result<ChunkPageIndex> Decode(std::string_view offset_bytes,
                                       std::string_view column_bytes, int64_t row_group_rows,
                                       int64_t chunk_begin, int64_t chunk_end,
                                       const std::string& context);
};

// Statistics of page `page` of a flat leaf from its column index, in ColumnStatistics form.
// `order_usable` is false when the file's column order for the leaf is unknown (no min/max).
ColumnStatistics PageStatistics(const ColumnIndex& index, size_t page, const LeafDescriptor& leaf,
                                int64_t page_rows, bool order_usable);

// One predicate column of a row group for PrunePages.
struct PruneColumn {
  const ChunkPageIndex* index = nullptr;              // null: no usable column index
  std::vector<ColumnStatistics> pages;                // PageStatistics per page (with index)
  std::optional<ColumnStatistics> row_group_stats;    // used when there is no index
};

struct PruneResult {
  RowRanges keep;             // rows that may match, within [0, row_group_rows)
  int64_t pages_pruned = 0;   // pages of indexed columns that hold no kept row
};

// The rows of a row group of `row_group_rows` rows that `predicate` may match, columns in the
// order of predicate.referenced_columns().
PruneResult PrunePages(const StatisticsPredicate& predicate, const std::vector<PruneColumn>& columns,
                       int64_t row_group_rows);

// Intersection of two sorted range lists.
RowRanges IntersectRanges(const RowRanges& a, const RowRanges& b);

// ---- writing ---------------------------------------------------------------------------------

// One data page as the column writer wrote it.
struct PageIndexEntry {
  int64_t offset = 0;               // of the page header, relative to the chunk's first byte
  int32_t compressed_page_size = 0; // header + stored body
  int64_t first_row_index = 0;      // within the row group
  int64_t null_count = 0;           // level entries below the max definition level
  int64_t nan_count = 0;
  bool null_page = false;           // no non-null value
  bool has_min_max = false;
  std::string min;                  // PLAIN-encoded, truncated like the chunk statistics
  std::string max;
};

// The ColumnIndex of a chunk, or nullopt when a non-null page has no min/max (NaN-only float
// pages, types without an order, bounds lost to truncation).
std::optional<ColumnIndex> BuildColumnIndex(const WriterLeaf& leaf,
                                            const std::vector<PageIndexEntry>& pages);

// The OffsetIndex of a chunk whose first byte is at file offset `chunk_offset`.
OffsetIndex BuildOffsetIndex(const std::vector<PageIndexEntry>& pages, int64_t chunk_offset);

}  // namespace tarn::parquet
