// Group samples: whole groups of hash-chosen values, heavy values left out, the same sample
// whatever the order of the rows, trimmed to the longest run of values that fits, and
// collected by the profiler's second scan within sample_rows.
#include "layout/group_sample.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>

#include "layout/column_keys.h"
#include "layout/profiler.h"
#include "layout/synthetic_tables.h"

namespace tarn::layout {
namespace {

// The rows of `batch` shuffled with `seed`, cut into batches of `batch_rows`.
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

std::vector<uint64_t> Hashes(const Column& column) {
  std::vector<uint64_t> out(static_cast<size_t>(column.length));
  HashColumn(column, out);
  return out;
}

// Rows per value key of `column` in `batch`.
std::map<uint64_t, int64_t> KeyCounts(const Batch& batch, int column) {
  std::map<uint64_t, int64_t> counts;
  for (uint64_t hash : Hashes(batch.column(column))) ++counts[ValueKey(column, hash)];
  return counts;
}

// Offers `batches` to a builder of `column` and returns its sample.
GroupSample Collect(const std::vector<std::shared_ptr<Batch>>& batches, int column,
                    const GroupChoice& choice, int64_t capacity) {
  GroupSampleBuilder builder(column, choice, capacity);
  int64_t first = 0;
  for (const auto& batch : batches) {
    std::vector<uint64_t> row_hashes(static_cast<size_t>(batch->num_rows), 7);
    for (int c = 0; c < batch->num_columns(); ++c) {
      const std::vector<uint64_t> hashes = Hashes(batch->column(c));
      for (size_t row = 0; row < hashes.size(); ++row) {
        row_hashes[row] = CombineHash(row_hashes[row], hashes[row]);
      }
    }
    builder.Offer(*batch, Hashes(batch->column(column)), row_hashes, first);
    first += batch->num_rows;
  }
  return builder.Finish(batches.front()->schema);
}

TEST(GroupSampleTest, ChoosesValuesInKeyOrderLeavingOutHeavyOnes) {
  // Budget 100: values of more than 25 rows are heavy.
  const std::vector<std::pair<uint64_t, int64_t>> counts = {{50, 10}, {10, 20}, {20, 30}, {30, 25},
                                                            {40, 40}, {60, 5},  {70, 1}};
  GroupChoice choice = ChooseGroups(counts, 100);
  // In key order: 10 (20 rows), 20 heavy, 30 (25), 40 heavy, 50 (10), 60 (5), 70 (1): 61 rows.
  EXPECT_TRUE(choice.any);
  EXPECT_EQ(choice.groups, 5);
  EXPECT_EQ(choice.rows, 61);
  EXPECT_EQ(choice.last_key, 70u);
  EXPECT_TRUE(choice.Contains(10));
  EXPECT_FALSE(choice.Contains(20));
  EXPECT_FALSE(choice.Contains(40));
  EXPECT_TRUE(choice.Contains(70));
  EXPECT_FALSE(choice.Contains(80));
  EXPECT_DOUBLE_EQ(choice.heavy_share, 70.0 / 131.0);
  EXPECT_FALSE(choice.usable());  // the heavy values hold more than a quarter of the rows
  // Stops at the first value that does not fit, whatever comes after: 4 x 9 rows fit 40,
  // the fifth does not, and the last (1 row) is not taken either.
  GroupChoice small = ChooseGroups({{1, 9}, {2, 9}, {3, 9}, {4, 9}, {5, 9}, {6, 1}}, 40);
  EXPECT_EQ(small.groups, 4);
  EXPECT_EQ(small.rows, 36);
  EXPECT_EQ(small.last_key, 4u);
  EXPECT_FALSE(small.Contains(6));
  // Budget 400: nothing heavy, every value fits.
  GroupChoice large = ChooseGroups(counts, 400);
  EXPECT_EQ(large.groups, 7);
  EXPECT_EQ(large.rows, 131);
  EXPECT_TRUE(large.usable());
}

TEST(GroupSampleTest, WholeGroupsTheSameWhateverTheOrderOfTheRows) {
  auto table = testing::HierarchyTable(20000);
  const int city = table->schema->FindField("city");
  std::map<uint64_t, int64_t> counts = KeyCounts(*table, city);
  GroupChoice choice = ChooseGroups({counts.begin(), counts.end()}, 3000);
  ASSERT_TRUE(choice.usable());
  GroupSample a = Collect(Shuffled(*table, 1, 1000), city, choice, 3000);
  GroupSample b = Collect(Shuffled(*table, 2, 7777), city, choice, 3000);
  ASSERT_EQ(a.rows->num_rows, choice.rows);
  ASSERT_EQ(b.rows->num_rows, choice.rows);
  EXPECT_EQ(a.keys, b.keys);
  EXPECT_TRUE(std::is_sorted(a.keys.begin(), a.keys.end()));
  for (int c = 0; c < table->num_columns(); ++c) {
    EXPECT_EQ(Hashes(a.rows->column(c)), Hashes(b.rows->column(c))) << "column " << c;
  }
  // Every row of each chosen city, and only those.
  std::map<uint64_t, int64_t> sampled = KeyCounts(*a.rows, city);
  EXPECT_EQ(static_cast<int64_t>(sampled.size()), choice.groups);
  for (const auto& [key, rows] : sampled) {
    EXPECT_TRUE(choice.Contains(key));
    EXPECT_EQ(rows, counts[key]);
  }
}

TEST(GroupSampleTest, TrimsToTheLongestRunOfValuesThatFits) {
  // Chosen for 20,000 rows (as from estimated counts), collected into 2,500: the values in key
  // order while their rows fit, whatever order the rows come in.
  auto table = testing::HierarchyTable(20000);
  const int city = table->schema->FindField("city");
  std::map<uint64_t, int64_t> counts = KeyCounts(*table, city);
  GroupChoice choice = ChooseGroups({counts.begin(), counts.end()}, 20000);
  std::map<uint64_t, int64_t> expected;
  int64_t total = 0;
  for (const auto& [key, rows] : counts) {
    if (total + rows > 2500) break;
    total += rows;
    expected[key] = rows;
  }
  for (uint32_t seed : {3u, 4u}) {
    GroupSample sample = Collect(Shuffled(*table, seed, 500 * seed), city, choice, 2500);
    EXPECT_EQ(KeyCounts(*sample.rows, city), expected) << "seed " << seed;
    EXPECT_EQ(sample.rows->num_rows, total);
  }
}

TEST(GroupSampleTest, ChooseGroupRowsTakesEveryRowWhenTheyFit) {
  const std::vector<uint64_t> keys = {5, 3, 5, 9, 3, 5};
  EXPECT_TRUE(ChooseGroupRows(keys, 6).whole);
  GroupSubset subset = ChooseGroupRows(keys, 3);
  // Budget 3: heavy above 0 (at least 1 row) ... every value heavy: nothing usable.
  EXPECT_FALSE(subset.whole);
  GroupSubset two = ChooseGroupRows(keys, 5);  // heavy above 1: 3 and 5 are heavy
  EXPECT_EQ(two.rows, (std::vector<int64_t>{3}));
  EXPECT_EQ(two.groups, 1);
}

TEST(GroupSampleTest, SecondScanCollectsWholeGroupsWithinTheSampleRows) {
  auto table = testing::CorrelatedTable(30000);
  PickerOptions options;
  options.sample_rows = 6000;
  std::vector<std::shared_ptr<Batch>> batches = Shuffled(*table, 5, 4096);
  RowSourceFactory open = [&]() -> Result<std::unique_ptr<BatchReader>> {
    return MakeVectorReader(table->schema, batches);
  };
  Result<ProfiledRows> profiled = ProfileAndSample(open, options);
  ASSERT_TRUE(profiled.ok()) << profiled.status().ToString();
  EXPECT_EQ(profiled->profile.scans, 2);
  ASSERT_GT(profiled->group_sample_rows, 0);
  int64_t held = 0;
  int collected = 0;
  for (int c = 0; c < table->num_columns(); ++c) {
    const GroupSample& sample = profiled->group_samples[c];
    if (sample.rows == nullptr) continue;
    ++collected;
    held += sample.rows->num_rows;
    EXPECT_LE(sample.rows->num_rows, profiled->group_sample_rows);
    EXPECT_TRUE(sample.usable()) << table->schema->field(c).name;
    // Each value in the sample has all its rows of the table.
    std::map<uint64_t, int64_t> in_table = KeyCounts(*table, c);
    for (const auto& [key, rows] : KeyCounts(*sample.rows, c)) {
      EXPECT_EQ(rows, in_table[key]) << table->schema->field(c).name;
    }
  }
  EXPECT_GE(collected, 3);  // route (300 values), distance, weekday, delay at least
  EXPECT_LE(held, options.sample_rows);
}

}  // namespace
}  // namespace tarn::layout
