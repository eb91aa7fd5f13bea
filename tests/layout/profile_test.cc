// The profiling pass: exact counts while small, HyperLogLog beyond, a deterministic sample,
// at most two scans, and the same profile and key whatever the row order, the batch sizes or
// the thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "layout/hyperloglog.h"
#include "layout/synthetic_tables.h"
#include "tarn/layout.h"

namespace tarn {
namespace {

// The rows of `batch` in a shuffled order, cut into batches of `batch_rows`.
std::vector<std::shared_ptr<Batch>> Shuffled(const Batch& batch, uint32_t seed,
                                             int64_t batch_rows) {
  std::vector<int64_t> order(static_cast<size_t>(batch.num_rows));
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<std::shared_ptr<Batch>> out;
  for (int64_t offset = 0; offset < batch.num_rows; offset += batch_rows) {
    const int64_t length = std::min(batch_rows, batch.num_rows - offset);
    std::span<const int64_t> slice(order.data() + offset, static_cast<size_t>(length));
    std::vector<std::shared_ptr<Column>> columns;
    for (const auto& column : batch.columns) columns.push_back(Take(*column, slice));
    auto piece = MakeBatch(batch.schema, std::move(columns));
    piece->num_rows = length;
    out.push_back(piece);
  }
  return out;
}

// A factory that counts how often it was opened.
RowSourceFactory Counted(std::shared_ptr<const Schema> schema,
                         std::vector<std::shared_ptr<Batch>> batches, int* opened) {
  return [schema, batches, opened]() -> Result<std::unique_ptr<BatchReader>> {
    ++*opened;
    return MakeVectorReader(schema, batches);
  };
}

TEST(HyperLogLogTest, EstimatesWithinTwoPercentAndMergesInAnyOrder) {
  layout::HyperLogLog whole;
  layout::HyperLogLog left;
  layout::HyperLogLog right;
  std::mt19937_64 rng(5);
  const int64_t distinct = 300000;
  for (int64_t i = 0; i < distinct; ++i) {
    const uint64_t hash = rng();
    whole.Add(hash);
    whole.Add(hash);  // duplicates do not count
    (i % 3 == 0 ? left : right).Add(hash);
  }
  EXPECT_NEAR(static_cast<double>(whole.Estimate()), distinct, 0.02 * distinct);
  layout::HyperLogLog merged_lr = left;
  merged_lr.Merge(right);
  layout::HyperLogLog merged_rl = right;
  merged_rl.Merge(left);
  EXPECT_EQ(merged_lr.Estimate(), whole.Estimate());
  EXPECT_EQ(merged_rl.Estimate(), whole.Estimate());
  layout::HyperLogLog small;
  for (uint64_t i = 0; i < 100; ++i) small.Add(i * 0x9e3779b97f4a7c15ULL);
  EXPECT_NEAR(static_cast<double>(small.Estimate()), 100, 2);
}

TEST(ProfileTest, ExactCountsSkewNullsAndWidths) {
  testing::TableBuilder t;
  t.Add("k", DataType(TypeId::kInt32));
  t.Add("s", DataType(TypeId::kVarchar));
  t.Add("f", DataType(TypeId::kFloat64));
  const int64_t rows = 1000;
  for (int64_t row = 0; row < rows; ++row) {
    t.column(0).AppendNumber<int32_t>(row < 500 ? 0 : static_cast<int32_t>(row % 5) + 1);
    if (row % 4 == 0) {
      t.column(1).AppendNull();
    } else {
      t.column(1).AppendBytes(row % 2 == 0 ? "ab" : "abcd");
    }
    // -0.0 and 0.0 are one value, every NaN another.
    const double values[] = {0.0, -0.0, std::nan(""), -std::nan(""), 1.5};
    t.column(2).AppendNumber<double>(values[row % 5]);
  }
  auto batch = t.Finish(rows);
  int opened = 0;
  Result<TableProfile> profile = ProfileRows(Counted(batch->schema, {batch}, &opened));
  ASSERT_TRUE(profile.ok()) << profile.status().ToString();
  EXPECT_EQ(opened, 1);  // the table fits the sample: one scan
  EXPECT_EQ(profile->scans, 1);
  EXPECT_EQ(profile->rows, rows);
  const ColumnProfile& k = profile->columns[0];
  EXPECT_TRUE(k.distinct_exact);
  EXPECT_EQ(k.distinct, 6);
  // p(0) = 0.5, five values of 0.1 each.
  EXPECT_NEAR(k.skew, 0.25 + 5 * 0.01, 1e-12);
  EXPECT_TRUE(k.skew_exact);
  EXPECT_EQ(k.average_width, 4);
  const ColumnProfile& s = profile->columns[1];
  EXPECT_EQ(s.null_count, 250);
  EXPECT_EQ(s.distinct, 2);
  EXPECT_NEAR(s.average_width, (250 * 4 + 500 * 2 + 250 * 4) / 750.0 - 0, 1.0);
  EXPECT_EQ(profile->columns[2].distinct, 3);
}

TEST(ProfileTest, LargeTablesAreSampledInTwoScans) {
  auto batch = testing::CorrelatedTable(30000);
  PickerOptions options;
  options.sample_rows = 4000;
  options.exact_skew_max_distinct = 100;
  int opened = 0;
  Result<TableProfile> profile =
      ProfileRows(Counted(batch->schema, Shuffled(*batch, 1, 4096), &opened), options);
  ASSERT_TRUE(profile.ok()) << profile.status().ToString();
  EXPECT_EQ(opened, 2);
  EXPECT_EQ(profile->scans, 2);
  EXPECT_EQ(profile->sample_rows, 4000);
  const int route = profile->FindColumn("route");
  const int carrier = profile->FindColumn("carrier");
  const int delay = profile->FindColumn("delay");
  // route has 300 values: over the limit of 100, so estimated, and within 3%.
  EXPECT_FALSE(profile->columns[route].distinct_exact);
  EXPECT_NEAR(static_cast<double>(profile->columns[route].distinct), 300, 9);
  EXPECT_TRUE(profile->columns[carrier].distinct_exact);
  EXPECT_EQ(profile->columns[carrier].distinct, 17);
  // route → carrier: the pair has as many combinations as route alone.
  std::optional<int64_t> pair = profile->Distinct({route, carrier});
  ASSERT_TRUE(pair.has_value());
  EXPECT_NEAR(static_cast<double>(*pair), static_cast<double>(profile->columns[route].distinct),
              3);
  // route x delay are independent: about 300 * 120 combinations (capped by the rows).
  std::optional<int64_t> independent = profile->Distinct({route, delay});
  ASSERT_TRUE(independent.has_value());
  EXPECT_GT(*independent, 15000);
}

TEST(ProfileTest, SameRowsSameProfileAndKeyWhateverOrderBatchesAndThreads) {
  auto batch = testing::HierarchyTable(12000);
  ThreadPool one(1);
  ThreadPool four(4);
  std::vector<SortKeyChoice> choices;
  for (int variant = 0; variant < 3; ++variant) {
    PickerOptions options;
    options.sample_rows = 5000;  // sampled: the sample must not depend on order
    options.pool = variant == 1 ? &one : &four;
    const int64_t batch_rows = variant == 0 ? 1000 : (variant == 1 ? 7777 : 12000);
    auto batches = Shuffled(*batch, 10 + variant, batch_rows);
    Result<SortKeyChoice> choice = PickSortKey(batch->schema, batches, options);
    ASSERT_TRUE(choice.ok()) << choice.status().ToString();
    choices.push_back(std::move(*choice));
  }
  for (size_t v = 1; v < choices.size(); ++v) {
    EXPECT_EQ(FormatSortKey(choices[v].key), FormatSortKey(choices[0].key));
    EXPECT_EQ(choices[v].chosen_bytes, choices[0].chosen_bytes);
    ASSERT_EQ(choices[v].profile.columns.size(), choices[0].profile.columns.size());
    for (size_t c = 0; c < choices[0].profile.columns.size(); ++c) {
      EXPECT_EQ(choices[v].profile.columns[c].distinct, choices[0].profile.columns[c].distinct);
      EXPECT_DOUBLE_EQ(choices[v].profile.columns[c].skew, choices[0].profile.columns[c].skew);
    }
    // Every measured candidate but the rows-as-they-are (which depend on the order) agrees.
    ASSERT_EQ(choices[v].candidates.size(), choices[0].candidates.size());
    for (size_t i = 0; i < choices[0].candidates.size(); ++i) {
      EXPECT_EQ(choices[v].candidates[i].columns, choices[0].candidates[i].columns);
      if (!choices[0].candidates[i].columns.empty()) {
        EXPECT_EQ(choices[v].candidates[i].bytes, choices[0].candidates[i].bytes);
      }
    }
  }
}

TEST(ProfileTest, ScanErrorsAndCancellationSurface) {
  auto failing = []() -> Result<std::unique_ptr<BatchReader>> {
    return Status::IOError("disk gone reading t");
  };
  Result<SortKeyChoice> choice = PickSortKey(failing);
  ASSERT_FALSE(choice.ok());
  EXPECT_EQ(choice.status().message(), "disk gone reading t");
  auto batch = testing::HierarchyTable(100);
  CancellationToken token;
  token.Cancel();
  PickerOptions options;
  options.cancel = &token;
  choice = PickSortKey(batch->schema, {batch}, options);
  ASSERT_FALSE(choice.ok());
  EXPECT_TRUE(choice.status().IsCancelled());
}

TEST(WriterProfileTest, ReadOptimizedSettings) {
  EXPECT_EQ(ReadOptimizedRowGroupRows(100), 1 << 20);
  EXPECT_EQ(ReadOptimizedRowGroupRows(80'000'000), 10'000'000);
  EXPECT_EQ(ReadOptimizedRowGroupRows(1'000'000'000), 16 << 20);
  auto props = *WriterPropertiesFor(WriterProfile::kReadOptimized, 24'000'000);
  EXPECT_EQ(props->compression(), 1);  // SNAPPY
  EXPECT_EQ(props->max_row_group_rows(), 3'000'000);
  EXPECT_EQ(props->dictionary_page_bytes_limit(), 32 << 20);
  EXPECT_EQ(props->data_page_bytes(), 1 << 20);
  EXPECT_EQ(props->data_page_rows(), 1'000'000);
  EXPECT_EQ(props->statistics_truncate_length(), 64);
  auto duck = *WriterPropertiesFor(WriterProfile::kDuckDb, 24'000'000);
  EXPECT_EQ(duck->max_row_group_rows(), 122880);
  EXPECT_EQ(*ParseWriterProfile("READ_OPTIMIZED"), WriterProfile::kReadOptimized);
  EXPECT_EQ(*ParseWriterProfile("duckdb"), WriterProfile::kDuckDb);
  Result<WriterProfile> bad = ParseWriterProfile("fast");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("read_optimized"), std::string::npos);
}

}  // namespace
}  // namespace tarn
