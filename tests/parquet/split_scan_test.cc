// Split scans: byte ranges [offset, offset + length) that tile a file read every row group
// exactly once (the one whose first page starts in the range), with the same rows and the same
// physical positions as a full scan — for 1..N equal splits and for cuts at, just before and
// just after every row group's first byte, with selections and predicates too.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "parquet/metadata.h"
#include "support/oracle.h"
#include "support/test_util.h"
#include "tarn/expr.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

// The file offset where a row group's first page starts, from the footer.
int64_t FirstByte(const ParquetReader& reader, int row_group) {
  int64_t first = INT64_MAX;
  for (const auto& chunk : reader.metadata().row_groups[row_group].columns) {
    int64_t start = chunk.meta_data->data_page_offset;
    const auto& dictionary = chunk.meta_data->dictionary_page_offset;
    if (dictionary && *dictionary > 0 && *dictionary < start) start = *dictionary;
    first = std::min(first, start);
  }
  return first;
}

// Reads one split; appends every row as (position, values) and returns the row groups read.
// Values are kept only when `with_values` (they cost; positions alone check the tiling).
void ReadSplit(const ParquetReader& reader, ScanOptions options, int64_t offset, int64_t length,
               std::vector<std::pair<int64_t, std::vector<Value>>>* rows,
               bool with_values = true) {
  options.split_offset = offset;
  options.split_length = length;
  options.with_position = true;
  auto scan = reader.Scan(options);
  ASSERT_TRUE(scan.ok()) << scan.status().ToString();
  while (true) {
    auto next = (*scan)->Next();
    ASSERT_TRUE(next.ok()) << next.status().ToString();
    if (!*next) break;
    const Batch& batch = **next;
    const int64_t* positions = batch.column(batch.num_columns() - 1).values_as<int64_t>();
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      std::vector<Value> values;
      for (int column = 0; with_values && column + 1 < batch.num_columns(); ++column) {
        values.push_back(batch.column(column).GetValue(row));
      }
      rows->emplace_back(positions[row], std::move(values));
    }
  }
}

using Rows = std::vector<std::pair<int64_t, std::vector<Value>>>;

// The union of the splits cut at `cuts` (sorted, inside (0, size)) equals `full`.
void ExpectSplitsEqual(const ParquetReader& reader, const ScanOptions& options,
                       std::vector<int64_t> cuts, const Rows& full, bool with_values) {
  cuts.insert(cuts.begin(), 0);
  cuts.push_back(reader.file_size());
  Rows merged;
  for (size_t i = 0; i + 1 < cuts.size(); ++i) {
    ReadSplit(reader, options, cuts[i], cuts[i + 1] - cuts[i], &merged, with_values);
  }
  std::sort(merged.begin(), merged.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  ASSERT_EQ(merged.size(), full.size());
  for (size_t row = 0; row < full.size(); ++row) {
    ASSERT_EQ(merged[row].first, full[row].first) << "row " << row;
    if (with_values) {
      ASSERT_TRUE(merged[row].second == full[row].second) << "position " << full[row].first;
    }
  }
}

void CheckFile(const std::string& path, const std::vector<std::string>& columns,
               const std::string& where) {
  SCOPED_TRACE(path);
  auto reader = ParquetReader::Open(LocalFileSystem(), path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ASSERT_GT((*reader)->num_row_groups(), 2);
  std::vector<ScanOptions> variants(3);
  for (auto& options : variants) options.columns = columns;
  std::mt19937_64 rng(5);
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (int i = 0; i < 30; ++i) {
    const int64_t begin = static_cast<int64_t>(rng() % (*reader)->num_rows());
    ranges.emplace_back(begin, begin + static_cast<int64_t>(rng() % 3000));
  }
  variants[1].selection = RowSelection::FromRanges(ranges);
  auto bound = ParseAndBind(where, (*reader)->schema());
  ASSERT_TRUE(bound.ok()) << bound.status().ToString();
  variants[2].predicate = MakeStatisticsPredicate(**bound, (*reader)->schema());
  for (size_t variant = 0; variant < variants.size(); ++variant) {
    SCOPED_TRACE(variant);
    Rows full;
    ReadSplit(**reader, variants[variant], 0, (*reader)->file_size(), &full);
    Rows unsplit;
    ScanOptions plain = variants[variant];
    plain.with_position = true;
    auto scan = (*reader)->Scan(plain);
    ASSERT_TRUE(scan.ok());
    int64_t plain_rows = 0;
    while (true) {
      auto next = (*scan)->Next();
      ASSERT_TRUE(next.ok());
      if (!*next) break;
      plain_rows += (*next)->num_rows;
    }
    ASSERT_EQ(plain_rows, static_cast<int64_t>(full.size())) << "a whole-file split is the scan";
    const int64_t size = (*reader)->file_size();
    for (int splits = 1; splits <= 6; ++splits) {
      std::vector<int64_t> cuts;
      for (int i = 1; i < splits; ++i) cuts.push_back(size * i / splits);
      ExpectSplitsEqual(**reader, variants[variant], cuts, full, false);
    }
    for (int rg = 0; variant == 0 && rg < (*reader)->num_row_groups(); ++rg) {
      const int64_t boundary = FirstByte(**reader, rg);
      for (int64_t delta : {-1, 0, 1}) {
        const int64_t cut = boundary + delta;
        if (cut <= 0 || cut >= size) continue;
        ExpectSplitsEqual(**reader, variants[variant], {cut}, full, false);
      }
    }
    // Every boundary at once: each split holds exactly one row group.
    std::vector<int64_t> all_cuts;
    for (int rg = 1; rg < (*reader)->num_row_groups(); ++rg) {
      all_cuts.push_back(FirstByte(**reader, rg));
    }
    ExpectSplitsEqual(**reader, variants[variant], all_cuts, full, true);
  }
}

TEST(SplitScanTest, LineitemUnionEqualsFullScan) {
  CheckFile(testing::SharedPath("data/tpch-sf0.1/lineitem.parquet"),
            {"l_orderkey", "l_shipdate"}, "l_orderkey < 100000");
}

TEST(SplitScanTest, DuckDBFileWithNestedColumns) {
  testing::TempDir dir;
  const std::string path = dir.Join("duck.parquet");
  ASSERT_TRUE(testing::DuckDBExecute(
                  "COPY (SELECT i AS id, [i, i + 1] AS pair, {'a': i % 7, 'b': 'x' || i} AS s, "
                  "CASE WHEN i % 5 = 0 THEN NULL ELSE i * 2 END AS maybe "
                  "FROM range(20000) t(i)) TO '" + path + "' (FORMAT parquet, ROW_GROUP_SIZE 3000)")
                  .ok());
  CheckFile(path, {}, "id >= 7000 AND id < 9000");
}

TEST(SplitScanTest, RangesOutsideTheFileReadNothing) {
  auto reader = ParquetReader::Open(LocalFileSystem(),
                                    testing::SharedPath("data/tpch-sf0.1/lineitem.parquet"));
  ASSERT_TRUE(reader.ok());
  Rows rows;
  ScanOptions options;
  options.columns = {"l_orderkey"};
  ReadSplit(**reader, options, (*reader)->file_size(), 1000, &rows);
  ReadSplit(**reader, options, 0, 4, &rows);  // the magic: no page starts there
  ReadSplit(**reader, options, 100, 0, &rows);
  EXPECT_TRUE(rows.empty());
}

}  // namespace
}  // namespace tarn
