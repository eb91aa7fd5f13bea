// The external sort of inserts into sorted tables (src/table/external_sort): rows past the
// memory limit are sorted in runs spilled to temporary Parquet files and merged, in passes when
// there are more than 16 runs. Checked against std::stable_sort of the same rows with an
// independent comparator: the same order exactly (so ties keep their input order), every row
// once, the memory held bounded by the limit, and the spill folder removed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>

#include "table/external_sort.h"
#include "table/write_sink.h"
#include "write_test_util.h"

namespace tarn::table_internal {
namespace {

using write_testing::BatchOf;

struct Row {
  int64_t id;
  std::optional<double> v;  // NaN included
  std::string s;
};

// v DESC NULLS FIRST (NaN above every number), then s ASC.
bool Before(const Row& a, const Row& b) {
  if (a.v.has_value() != b.v.has_value()) return !a.v.has_value();
  if (a.v.has_value()) {
    const double x = *a.v;
    const double y = *b.v;
    const bool xn = std::isnan(x);
    const bool yn = std::isnan(y);
    if (xn != yn) return xn;  // DESC: NaN first
    if (!xn && x != y) return x > y;
  }
  return a.s < b.s;
}

std::vector<Field> Fields() {
  return {Field("id", DataType(TypeId::kInt64)), Field("v", DataType(TypeId::kFloat64)),
          Field("s", DataType(TypeId::kVarchar))};
}

std::vector<Row> RandomRows(int64_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Row> rows;
  for (int64_t i = 0; i < n; ++i) {
    Row row{i, std::nullopt, ""};
    const int roll = static_cast<int>(rng() % 20);
    if (roll == 0) {
      row.v = std::nan("");
    } else if (roll > 1) {
      row.v = static_cast<double>(rng() % 50) / 4;  // many ties
    }
    row.s = "s" + std::to_string(rng() % 7);
    rows.push_back(std::move(row));
  }
  return rows;
}

std::shared_ptr<Batch> BatchOfRows(const std::vector<Row>& rows, size_t first, size_t last) {
  std::vector<std::vector<Value>> values;
  for (size_t i = first; i < last; ++i) {
    const Row& row = rows[i];
    values.push_back({Value::Int64(row.id),
                      row.v ? Value::Float64(*row.v) : Value::Null(DataType(TypeId::kFloat64)),
                      Value::Varchar(row.s)});
  }
  return BatchOf(Fields(), values);
}


struct Sorted {
  std::vector<int64_t> ids;
  int64_t runs = 0;
  int64_t passes = 0;
  int64_t peak = 0;
  int64_t max_batch_bytes = 0;
};

Sorted SortRows(const std::vector<Row>& rows, int64_t memory_limit, size_t batch_rows) {
  TableInfo table;
  table.schema_name = "main";
  table.name = "t";
  std::vector<SortField> key(2);
  key[0].expression = "v";
  key[0].descending = true;
  key[0].nulls_first = true;
  key[1].expression = "s";
  Sorted out;
  std::string folder;
  {
    ExternalSort sort(table, key, std::make_shared<Schema>(Fields()), memory_limit);
    for (size_t first = 0; first < rows.size(); first += batch_rows) {
      auto batch = BatchOfRows(rows, first, std::min(rows.size(), first + batch_rows));
      out.max_batch_bytes = std::max(out.max_batch_bytes, BatchBytes(*batch));
      Status added = sort.Add(batch);
      EXPECT_TRUE(added.ok()) << added.ToString();
    }
    Status finished = sort.Finish([&](const Batch& batch) {
      EXPECT_EQ(batch.num_columns(), 3);
      for (int64_t r = 0; r < batch.num_rows; ++r) {
        out.ids.push_back(batch.column(0).GetValue(r).GetInt64());
      }
      return Status::OK();
    });
    EXPECT_TRUE(finished.ok()) << finished.ToString();
    out.runs = sort.runs_spilled();
    out.passes = sort.merge_passes();
    out.peak = sort.peak_held_bytes();
    folder = sort.spill_folder();
  }
  // Its own spill folder (other tests may be sorting at the same time) is gone.
  if (!folder.empty()) {
    EXPECT_FALSE(std::filesystem::exists(folder)) << "the spill folder was left behind: " << folder;
  }
  return out;
}

std::vector<int64_t> Expected(std::vector<Row> rows) {
  std::stable_sort(rows.begin(), rows.end(), Before);
  std::vector<int64_t> ids;
  for (const Row& row : rows) ids.push_back(row.id);
  return ids;
}

TEST(ExternalSortTest, FitsInMemoryWithoutSpilling) {
  const std::vector<Row> rows = RandomRows(5000, 1);
  const Sorted sorted = SortRows(rows, int64_t{1} << 30, 700);
  EXPECT_EQ(sorted.runs, 0);
  EXPECT_EQ(sorted.ids, Expected(rows));
}

TEST(ExternalSortTest, SpilledRunsMergeInOneStableOrder) {
  const std::vector<Row> rows = RandomRows(60000, 2);
  const int64_t limit = 256 << 10;
  const Sorted sorted = SortRows(rows, limit, 1000);
  EXPECT_GT(sorted.runs, 2);
  EXPECT_LE(sorted.runs, 16);
  EXPECT_EQ(sorted.passes, 0);
  EXPECT_EQ(sorted.ids, Expected(rows));
  // The held rows and their sorted copy; a merge of at most 16 runs holds about the limit.
  EXPECT_LE(sorted.peak, 2 * (limit + sorted.max_batch_bytes) + limit / 4);
}

TEST(ExternalSortTest, ManyRunsMergeInPasses) {
  const std::vector<Row> rows = RandomRows(80000, 3);
  const int64_t limit = 32 << 10;
  const Sorted sorted = SortRows(rows, limit, 300);
  EXPECT_GT(sorted.runs, 16);  // merged in passes of 16 before the final merge
  EXPECT_GE(sorted.passes, 2);
  EXPECT_EQ(sorted.ids, Expected(rows));
  EXPECT_LE(sorted.peak, 2 * (limit + sorted.max_batch_bytes) + limit);
}

}  // namespace
}  // namespace tarn::table_internal
