#include "parquet/page_index.h"

#include <algorithm>
#include <cmath>

#include "parquet/statistics.h"
#include "parquet/writer_statistics.h"

namespace tarn::parquet {

Result<ChunkPageIndex> ChunkPageIndex::Decode(std::string_view offset_bytes,
                                              std::string_view column_bytes,
                                              int64_t row_group_rows, int64_t chunk_begin,
                                              int64_t chunk_end, const std::string& context) {
  ChunkPageIndex out;
  Result<OffsetIndex> offsets = DecodeOffsetIndex(offset_bytes);
  if (!offsets.ok()) return offsets.status().WithContext(context);
  out.offset_index = std::move(offsets).value();
  const auto& locations = out.offset_index.page_locations;
  if (locations.empty()) {
    if (row_group_rows == 0) return out;
    return Status::Corruption(context, ": offset index lists no pages for ", row_group_rows,
                              " rows");
  }
  if (locations[0].first_row_index != 0) {
    return Status::Corruption(context, ": offset index: the first page starts at row ",
                              locations[0].first_row_index, ", not 0");
  }
  int64_t previous_end = chunk_begin;
  for (size_t page = 0; page < locations.size(); ++page) {
    const PageLocation& location = locations[page];
    if (location.offset < previous_end || location.compressed_page_size <= 0 ||
        location.offset > chunk_end || location.compressed_page_size > chunk_end - location.offset) {
      return Status::Corruption(context, ": offset index: page ", page, " at offset ",
                                location.offset, " of ", location.compressed_page_size,
                                " bytes lies outside the column chunk [", chunk_begin, ", ",
                                chunk_end, ") or overlaps the page before");
    }
    previous_end = location.offset + location.compressed_page_size;
    const int64_t end = page + 1 < locations.size() ? locations[page + 1].first_row_index
                                                    : row_group_rows;
    if (end <= location.first_row_index || end > row_group_rows) {
      return Status::Corruption(context, ": offset index: page ", page, " starts at row ",
                                location.first_row_index, ", the next at row ", end,
                                " (row group of ", row_group_rows, " rows)");
    }
    out.page_rows.emplace_back(location.first_row_index, end);
  }
  if (!column_bytes.empty()) {
    Result<ColumnIndex> index = DecodeColumnIndex(column_bytes);
    if (!index.ok()) return index.status().WithContext(context);
    const ColumnIndex& ci = *index;
    const size_t pages = locations.size();
    if (ci.null_pages.size() != pages || ci.min_values.size() != pages ||
        ci.max_values.size() != pages || (!ci.null_counts.empty() && ci.null_counts.size() != pages) ||
        (!ci.nan_counts.empty() && ci.nan_counts.size() != pages)) {
      return Status::Corruption(context, ": column index describes ", ci.null_pages.size(),
                                " pages, the offset index ", pages);
    }
    out.column_index = std::move(index).value();
  }
  return out;
}

ColumnStatistics PageStatistics(const ColumnIndex& index, size_t page, const LeafDescriptor& leaf,
                                int64_t page_rows, bool order_usable) {
  ColumnStatistics stats;
  stats.value_count = page_rows;
  // Counts outside [0, rows] mean unknown (parquet-mr 1.13 writes -1 null counts).
  auto count = [&](const std::vector<int64_t>& counts) -> std::optional<int64_t> {
    if (counts.empty() || counts[page] < 0 || counts[page] > page_rows) return std::nullopt;
    return counts[page];
  };
  stats.null_count = count(index.null_counts);
  stats.nan_count = count(index.nan_counts);
  if (index.null_pages[page]) {
    // No non-null value: bounds are meaningless. Trusted as all NULL only when the null count
    // agrees; parquet-mr 1.13 marks every page null (with -1 counts) when it kept no statistics.
    if (stats.null_count != page_rows) stats.null_count.reset();
    return stats;
  }
  if (!order_usable) return stats;
  // Column index bounds may be truncated: still bounds, never exact.
  stats.min = DecodeStatisticsValue(leaf, index.min_values[page]);
  stats.max = DecodeStatisticsValue(leaf, index.max_values[page]);
  stats.min_exact = false;
  stats.max_exact = false;
  if (leaf.type.IsFloating()) {
    if (stats.min && std::isnan(stats.min->GetDouble())) stats.min.reset();
    if (stats.max && std::isnan(stats.max->GetDouble())) stats.max.reset();
    if (stats.min && stats.min->GetDouble() == 0.0) stats.min = Value::Double(leaf.type, -0.0);
    if (stats.max && stats.max->GetDouble() == 0.0) stats.max = Value::Double(leaf.type, 0.0);
  }
  return stats;
}

namespace {

// Statistics describing `part_rows` rows of a span of `whole_rows` rows: bounds carry over; a
// null count carries over only when it decides the part too (none, all, or the whole span).
ColumnStatistics ForPart(const ColumnStatistics& whole, int64_t whole_rows, int64_t part_rows) {
  ColumnStatistics part = whole;
  part.value_count = part_rows;
  if (whole.null_count && part_rows != whole_rows) {
    const int64_t nulls = *whole.null_count;
    if (nulls == 0) {
      part.null_count = 0;
    } else if (nulls >= whole_rows) {
      part.null_count = part_rows;
    } else {
      part.null_count.reset();
    }
  }
  if (whole.nan_count && part_rows != whole_rows && *whole.nan_count != 0) {
    part.nan_count.reset();  // some NaN somewhere in the span: the part may hold it
  }
  return part;
}

}  // namespace

PruneResult PrunePages(const StatisticsPredicate& predicate, const std::vector<PruneColumn>& columns,
                       int64_t row_group_rows) {
  PruneResult result;
  if (row_group_rows <= 0) return result;
  std::vector<int64_t> cuts = {0, row_group_rows};
  for (const PruneColumn& column : columns) {
    if (column.index == nullptr) continue;
    for (const auto& span : column.index->page_rows) cuts.push_back(span.first);
  }
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  std::vector<size_t> page_cursor(columns.size(), 0);
  std::vector<std::optional<ColumnStatistics>> segment_stats(columns.size());
  std::vector<const ColumnStatistics*> pointers(columns.size());
  std::vector<std::vector<bool>> page_kept(columns.size());
  for (size_t col = 0; col < columns.size(); ++col) {
    if (columns[col].index) page_kept[col].assign(columns[col].index->page_rows.size(), false);
  }
  for (size_t cut = 0; cut + 1 < cuts.size(); ++cut) {
    const int64_t begin = cuts[cut];
    const int64_t end = cuts[cut + 1];
    for (size_t col = 0; col < columns.size(); ++col) {
      const PruneColumn& column = columns[col];
      segment_stats[col].reset();
      if (column.index != nullptr) {
        const RowRanges& spans = column.index->page_rows;
        size_t& page = page_cursor[col];
        while (page + 1 < spans.size() && spans[page].second <= begin) ++page;
        const int64_t page_rows = spans[page].second - spans[page].first;
        segment_stats[col] = ForPart(column.pages[page], page_rows, end - begin);
      } else if (column.row_group_stats) {
        segment_stats[col] = ForPart(*column.row_group_stats, row_group_rows, end - begin);
      }
      pointers[col] = segment_stats[col] ? &*segment_stats[col] : nullptr;
    }
    if (!predicate.MayMatch(pointers, end - begin)) continue;
    for (size_t col = 0; col < columns.size(); ++col) {
      if (columns[col].index) page_kept[col][page_cursor[col]] = true;
    }
    if (!result.keep.empty() && result.keep.back().second == begin) {
      result.keep.back().second = end;
    } else {
      result.keep.emplace_back(begin, end);
    }
  }
  for (const auto& kept : page_kept) {
    result.pages_pruned += std::count(kept.begin(), kept.end(), false);
  }
  return result;
}

RowRanges IntersectRanges(const RowRanges& a, const RowRanges& b) {
  RowRanges out;
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t lo = std::max(a[i].first, b[j].first);
    const int64_t hi = std::min(a[i].second, b[j].second);
    if (lo < hi) out.emplace_back(lo, hi);
    if (a[i].second < b[j].second) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

// ---- writing ---------------------------------------------------------------------------------

std::optional<ColumnIndex> BuildColumnIndex(const WriterLeaf& leaf,
                                            const std::vector<PageIndexEntry>& pages) {
  if (leaf.sort_order == SortOrder::kNone || pages.empty()) return std::nullopt;
  ColumnIndex index;
  bool ascending = true;
  bool descending = true;
  const PageIndexEntry* previous = nullptr;
  const bool floating = leaf.physical == PhysicalType::kFloat ||
                        leaf.physical == PhysicalType::kDouble;
  for (const PageIndexEntry& page : pages) {
    if (!page.null_page && !page.has_min_max) return std::nullopt;
    index.null_pages.push_back(page.null_page);
    index.min_values.push_back(page.null_page ? std::string() : page.min);
    index.max_values.push_back(page.null_page ? std::string() : page.max);
    index.null_counts.push_back(page.null_count);
    if (floating) index.nan_counts.push_back(page.nan_count);
    if (page.null_page) continue;
    if (previous != nullptr) {
      const int min_order = CompareEncoded(leaf, previous->min, page.min);
      const int max_order = CompareEncoded(leaf, previous->max, page.max);
      ascending = ascending && min_order <= 0 && max_order <= 0;
      descending = descending && min_order >= 0 && max_order >= 0;
    }
    previous = &page;
  }
  index.boundary_order = ascending    ? BoundaryOrder::kAscending
                         : descending ? BoundaryOrder::kDescending
                                      : BoundaryOrder::kUnordered;
  return index;
}

OffsetIndex BuildOffsetIndex(const std::vector<PageIndexEntry>& pages, int64_t chunk_offset) {
  OffsetIndex index;
  for (const PageIndexEntry& page : pages) {
    index.page_locations.push_back(
        {chunk_offset + page.offset, page.compressed_page_size, page.first_row_index});
  }
  return index;
}

}  // namespace tarn::parquet
