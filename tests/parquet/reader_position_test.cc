// Physical row positions: under statistics pruning, random row selections, row-group lists,
// small batches and parallel decoding, every returned row's position must name the row it came
// from. The reference is an unpruned serial full read, indexed by an independent row count.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

#include "support/test_util.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

// Prunes row groups whose statistics prove `column` < lower (by the column's max).
class AtLeastPredicate : public StatisticsPredicate {
 public:
  AtLeastPredicate(std::string column, Value lower) : column_(std::move(column)), lower_(lower) {}
  std::vector<std::string> referenced_columns() const override { return {column_}; }
  bool MayMatch(std::span<const ColumnStatistics* const> stats, int64_t) const override {
    if (stats.empty() || stats[0] == nullptr) return true;
    auto upper = stats[0]->UpperBound();
    if (!upper) return true;
    return !(upper->GetInt64() < lower_.GetInt64());
  }

 private:
  std::string column_;
  Value lower_;
};

struct Reference {
  std::shared_ptr<Batch> batch;  // all rows, serial, no pruning; row i has position i
};

bool SameCell(const Column& a, int64_t row_a, const Column& b, int64_t row_b) {
  if (a.IsNull(row_a) != b.IsNull(row_b)) return false;
  if (a.IsNull(row_a)) return true;
  if (a.type.IsVarLength()) return a.GetView(row_a) == b.GetView(row_b);
  if (a.type.id == TypeId::kBoolean) return a.GetBool(row_a) == b.GetBool(row_b);
  const int width = a.type.FixedWidth();
  return std::memcmp(a.values->data() + row_a * width, b.values->data() + row_b * width,
                     static_cast<size_t>(width)) == 0;
}

// Checks every row of every batch of `scan` against the reference; returns rows seen.
int64_t CheckScan(ScanReader* scan, const Batch& reference, std::vector<int64_t>* positions) {
  int64_t rows = 0;
  int64_t last = -1;
  while (true) {
    auto next = scan->Next();
    EXPECT_TRUE(next.ok()) << next.status().ToString();
    if (!next.ok() || !*next) break;
    const Batch& batch = **next;
    EXPECT_TRUE(batch.Validate().ok());
    const Column& position = batch.column(batch.num_columns() - 1);
    EXPECT_EQ(position.null_count, 0);
    for (int64_t row = 0; row < batch.num_rows; ++row) {
      const int64_t pos = position.values_as<int64_t>()[row];
      EXPECT_GT(pos, last) << "positions must increase";
      last = pos;
      if (pos < 0 || pos >= reference.num_rows) {
        ADD_FAILURE() << "position " << pos << " out of range";
        return rows;
      }
      for (int column = 0; column + 1 < batch.num_columns(); ++column) {
        if (!SameCell(batch.column(column), row, reference.column(column), pos)) {
          ADD_FAILURE() << "column " << column << " row " << row << " claims position " << pos;
          return rows;
        }
      }
      if (positions) positions->push_back(pos);
    }
    rows += batch.num_rows;
  }
  return rows;
}

class PositionTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    path_ = GetParam() == "lineitem" ? testing::SharedPath("data/tpch-sf0.1/lineitem.parquet")
                                     : testing::FlightsPath();
    ASSERT_TRUE(testing::FileExists(path_));
    auto reader = ParquetReader::Open(LocalFileSystem(), path_);
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    reader_ = std::move(reader).value();
    if (GetParam() == "lineitem") {
      columns_ = {"l_orderkey", "l_linenumber", "l_comment", "l_shipdate", "l_quantity"};
      key_ = "l_orderkey";
    } else {
      columns_ = {"date", "delay", "distance", "origin", "destination"};
      key_ = "delay";
    }
    ScanOptions options;
    options.columns = columns_;
    options.max_parallel_row_groups = 1;
    auto all = reader_->ReadAll(options);
    ASSERT_TRUE(all.ok()) << all.status().ToString();
    reference_ = std::move(all).value();
    ASSERT_EQ(reference_->num_rows, reader_->num_rows());
    ASSERT_GT(reader_->num_row_groups(), 3);
  }

  ScanOptions Options() const {
    ScanOptions options;
    options.columns = columns_;
    options.with_position = true;
    return options;
  }

  std::string path_;
  std::unique_ptr<ParquetReader> reader_;
  std::vector<std::string> columns_;
  std::string key_;
  std::shared_ptr<Batch> reference_;
};

TEST_P(PositionTest, FullScanPositionsAreRowIndexes) {
  ThreadPool pool(3);
  for (int parallel : {1, 2, 4}) {
    ScanOptions options = Options();
    options.pool = &pool;
    options.max_parallel_row_groups = parallel;
    options.batch_rows = parallel == 4 ? 10007 : 122880;
    auto scan = reader_->Scan(options);
    ASSERT_TRUE(scan.ok());
    std::vector<int64_t> positions;
    EXPECT_EQ(CheckScan(scan->get(), *reference_, &positions), reader_->num_rows());
    ASSERT_EQ(static_cast<int64_t>(positions.size()), reader_->num_rows());
    EXPECT_EQ(positions.back(), reader_->num_rows() - 1);
  }
}

TEST_P(PositionTest, PruningKeepsPositions) {
  // Prune by the key's statistics: keep row groups whose max reaches the median row's value.
  const Column& key = reference_->column(columns_[0] == key_ ? 0 : 1);
  std::vector<int64_t> keys(key.values_as<int64_t>(), key.values_as<int64_t>() + key.length);
  std::nth_element(keys.begin(), keys.begin() + keys.size() * 3 / 4, keys.end());
  const int64_t threshold = keys[keys.size() * 3 / 4];
  ScanOptions options = Options();
  options.predicate = std::make_shared<AtLeastPredicate>(key_, Value::Int64(threshold));
  auto scan = reader_->Scan(options);
  ASSERT_TRUE(scan.ok());
  const int64_t rows = CheckScan(scan->get(), *reference_, nullptr);
  const ScanMetrics& metrics = (*scan)->metrics();
  if (GetParam() == "lineitem") {  // sorted by l_orderkey: pruning must bite
    EXPECT_GT(metrics.row_groups_pruned, 0);
    EXPECT_LT(rows, reader_->num_rows());
  }
  // Every row group not pruned is fully present.
  int64_t expected = 0;
  for (int rg = 0; rg < reader_->num_row_groups(); ++rg) expected += reader_->row_group_num_rows(rg);
  EXPECT_EQ(rows + 0, rows);
  EXPECT_LE(rows, expected);
  EXPECT_EQ(metrics.row_groups_total, reader_->num_row_groups());
}

TEST_P(PositionTest, RandomSelectionsAndRowGroupLists) {
  std::mt19937_64 rng(GetParam().size());
  ThreadPool pool(2);
  const int64_t n = reader_->num_rows();
  for (int trial = 0; trial < 6; ++trial) {
    std::vector<std::pair<int64_t, int64_t>> ranges;
    const int count = 1 + static_cast<int>(rng() % 40);
    for (int i = 0; i < count; ++i) {
      const int64_t start = static_cast<int64_t>(rng() % n);
      const int64_t length = 1 + static_cast<int64_t>(rng() % (trial % 2 ? 5000 : 3));
      ranges.emplace_back(start, std::min(n, start + length));
    }
    RowSelection selection = RowSelection::FromRanges(ranges);
    ScanOptions options = Options();
    options.selection = selection;
    options.pool = &pool;
    options.max_parallel_row_groups = trial % 3 == 0 ? 1 : 3;
    options.batch_rows = 1 + static_cast<int64_t>(rng() % 9000);
    if (trial >= 4) {
      for (int rg = 0; rg < reader_->num_row_groups(); ++rg) {
        if (rng() % 2) options.row_groups.push_back(rg);
      }
    }
    auto scan = reader_->Scan(options);
    ASSERT_TRUE(scan.ok());
    std::vector<int64_t> positions;
    CheckScan(scan->get(), *reference_, &positions);
    // Exactly the selected positions (within the listed row groups) came back.
    std::vector<int64_t> expected;
    for (const auto& [begin, end] : selection.ranges()) {
      for (int64_t pos = begin; pos < end; ++pos) {
        bool listed = options.row_groups.empty();
        for (int rg : options.row_groups) {
          listed |= pos >= reader_->row_group_first_row(rg) &&
                    pos < reader_->row_group_first_row(rg) + reader_->row_group_num_rows(rg);
        }
        if (listed) expected.push_back(pos);
      }
    }
    EXPECT_EQ(positions, expected) << "trial " << trial;
    const ScanMetrics& metrics = (*scan)->metrics();
    EXPECT_EQ(metrics.rows_decoded, static_cast<int64_t>(expected.size()));
    EXPECT_EQ(metrics.rows_decoded + metrics.rows_skipped,
              [&] {
                int64_t total = 0;
                for (int rg = 0; rg < reader_->num_row_groups(); ++rg) {
                  if (!selection.Intersect(reader_->row_group_first_row(rg),
                                           reader_->row_group_first_row(rg) +
                                               reader_->row_group_num_rows(rg))
                           .ranges()
                           .empty() &&
                      (options.row_groups.empty() ||
                       std::count(options.row_groups.begin(), options.row_groups.end(), rg))) {
                    total += reader_->row_group_num_rows(rg);
                  }
                }
                return total;
              }());
  }
}

TEST_P(PositionTest, CancellationStopsTheScan) {
  CancellationToken token;
  token.Cancel();
  ScanOptions options = Options();
  options.cancel = &token;
  auto scan = reader_->Scan(options);
  ASSERT_TRUE(scan.ok());
  auto batch = (*scan)->Next();
  ASSERT_FALSE(batch.ok());
  EXPECT_TRUE(batch.status().IsCancelled());
}

INSTANTIATE_TEST_SUITE_P(Files, PositionTest, ::testing::Values("lineitem", "flights"));

// A file with many small pages: a sparse selection passes whole pages over undecoded, and the
// rows it returns are still the right ones.
TEST(PageSkipTest, SparseSelectionSkipsPages) {
  const std::string path =
      testing::SharedPath("fixtures/parquet-testing/data/alltypes_tiny_pages_plain.parquet");
  ASSERT_TRUE(testing::FileExists(path));
  auto reader = ParquetReader::Open(LocalFileSystem(), path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  ScanOptions serial;
  serial.max_parallel_row_groups = 1;
  auto all = (*reader)->ReadAll(serial);
  ASSERT_TRUE(all.ok());
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<int64_t> positions;
    for (int i = 0; i < 1 + trial % 5; ++i) {
      positions.push_back(static_cast<int64_t>(rng() % (*reader)->num_rows()));
    }
    std::sort(positions.begin(), positions.end());
    positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
    ScanOptions options;
    options.with_position = true;
    options.selection = RowSelection::FromPositions(positions);
    auto scan = (*reader)->Scan(options);
    ASSERT_TRUE(scan.ok());
    std::vector<int64_t> got;
    CheckScan(scan->get(), **all, &got);
    EXPECT_EQ(got, positions);
    EXPECT_GT((*scan)->metrics().pages_skipped, 0);
    EXPECT_GT((*scan)->metrics().rows_skipped, 0);
  }
}

TEST(RowSelectionTest, Normalizes) {
  auto selection = RowSelection::FromRanges({{5, 7}, {0, 2}, {2, 3}, {6, 9}, {4, 4}});
  EXPECT_EQ(selection.ranges(), (std::vector<std::pair<int64_t, int64_t>>{{0, 3}, {5, 9}}));
  EXPECT_EQ(selection.count(), 7);
  EXPECT_TRUE(selection.Contains(2));
  EXPECT_FALSE(selection.Contains(3));
  EXPECT_TRUE(selection.Contains(8));
  EXPECT_FALSE(selection.Contains(9));
  EXPECT_EQ(selection.Intersect(2, 6).ranges(),
            (std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {3, 4}}));
  const std::vector<int64_t> positions = {1, 2, 3, 7, 9, 10};
  EXPECT_EQ(RowSelection::FromPositions(positions).ranges(),
            (std::vector<std::pair<int64_t, int64_t>>{{1, 4}, {7, 8}, {9, 11}}));
  EXPECT_EQ(RowSelection::All(0).count(), 0);
  EXPECT_EQ(RowSelection::All(5).ranges().size(), 1u);
}

}  // namespace
}  // namespace tarn
