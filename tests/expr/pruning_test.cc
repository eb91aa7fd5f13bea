// Soundness of statistics pruning: a group holding a row where the predicate is TRUE is never
// pruned; and the obvious cases do prune.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "expr/eval/cast.h"
#include "tarn/expr.h"

namespace tarn {
namespace {

// Statistics of one group computed the way a Parquet writer records them: min/max over the
// non-NULL, non-NaN values, null and NaN counts.
ColumnStatistics StatsOf(const Column& column, bool record_nan_count) {
  ColumnStatistics stats;
  stats.null_count = column.null_count;
  stats.value_count = column.length;
  int64_t nans = 0;
  for (int64_t r = 0; r < column.length; ++r) {
    Value v = column.GetValue(r);
    if (v.is_null()) continue;
    if (v.type().IsFloating() && std::isnan(v.GetDouble())) {
      ++nans;
      continue;
    }
    if (!stats.min || expr::CompareValues(v, *stats.min) < 0) stats.min = v;
    if (!stats.max || expr::CompareValues(v, *stats.max) > 0) stats.max = v;
  }
  if (column.type.IsFloating() && record_nan_count) stats.nan_count = nans;
  return stats;
}

std::shared_ptr<Column> RandomColumn(std::mt19937_64& rng, const DataType& type, int64_t rows) {
  ColumnBuilder builder(type);
  static const double kSpecial[] = {NAN, -NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e308, -1.5};
  for (int64_t r = 0; r < rows; ++r) {
    if (rng() % 7 == 0) {
      builder.AppendNull();
    } else if (type.id == TypeId::kInt32) {
      builder.AppendNumber<int32_t>(static_cast<int32_t>(rng() % 21) - 10);
    } else if (type.id == TypeId::kFloat64) {
      double v = rng() % 4 == 0 ? kSpecial[rng() % 8] : static_cast<double>(rng() % 21) - 10 + 0.5 * (rng() % 2);
      builder.AppendNumber<double>(v);
    } else {
      std::string s(1 + rng() % 3, 'a');
      for (char& c : s) c = static_cast<char>('a' + rng() % 4);
      builder.AppendBytes(s);
    }
  }
  return builder.Finish();
}

std::string RandomPredicate(std::mt19937_64& rng, int depth) {
  static const char* kCmp[] = {"=", "<>", "<", "<=", ">", ">="};
  static const char* kNum[] = {"-10", "-3", "0", "-0.0", "2", "5", "10.5", "'NaN'::DOUBLE",
                               "'-nan'::DOUBLE", "'inf'::DOUBLE", "'-inf'::DOUBLE", "1e308", "NULL",
                               "2.5"};
  auto num = [&]() { return std::string(kNum[rng() % 14]); };
  auto col = [&]() { return std::string(rng() % 2 ? "i" : "d"); };
  int choice = static_cast<int>(rng() % (depth > 0 ? 10 : 6));
  switch (choice) {
    case 0: case 1: return col() + " " + kCmp[rng() % 6] + " " + num();
    case 2: return num() + " " + kCmp[rng() % 6] + " " + col();
    case 3: return col() + (rng() % 2 ? " IS NULL" : " IS NOT NULL");
    case 4: return col() + (rng() % 2 ? " BETWEEN " : " NOT BETWEEN ") + num() + " AND " + num();
    case 5: return std::string("s ") + kCmp[rng() % 6] + (rng() % 2 ? " 'b'" : " 'ab'");
    case 6: return "(" + RandomPredicate(rng, depth - 1) + ") AND (" + RandomPredicate(rng, depth - 1) + ")";
    case 7: return "(" + RandomPredicate(rng, depth - 1) + ") OR (" + RandomPredicate(rng, depth - 1) + ")";
    case 8: return "NOT (" + RandomPredicate(rng, depth - 1) + ")";
    default: return col() + (rng() % 2 ? " IN (" : " NOT IN (") + num() + ", " + num() + ")";
  }
}

TEST(PruningTest, NeverDropsAGroupWithAMatch) {
  std::mt19937_64 rng(7);
  auto schema = std::make_shared<const Schema>(std::vector<Field>{
      Field("i", DataType(TypeId::kInt32)), Field("d", DataType(TypeId::kFloat64)),
      Field("s", DataType(TypeId::kVarchar))});
  int64_t pruned = 0, groups = 0, checked = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<std::shared_ptr<Batch>> group_batches;
    for (int g = 0; g < 6; ++g) {
      int64_t rows = 1 + static_cast<int64_t>(rng() % 6);
      std::vector<std::shared_ptr<Column>> columns;
      for (const Field& f : schema->fields) columns.push_back(RandomColumn(rng, f.type, rows));
      group_batches.push_back(MakeBatch(schema, columns));
    }
    for (int p = 0; p < 10; ++p) {
      std::string text = RandomPredicate(rng, 2);
      auto bound = ParseAndBind(text, *schema);
      ASSERT_TRUE(bound.ok()) << text << ": " << bound.status().ToString();
      auto pruner = MakeStatisticsPredicate(**bound, *schema);
      std::vector<std::string> names = pruner->referenced_columns();
      for (const auto& batch : group_batches) {
        bool record_nan = rng() % 2 == 0;
        std::vector<ColumnStatistics> stats;
        for (const std::string& name : names) {
          stats.push_back(StatsOf(batch->column(schema->FindField(name)), record_nan));
        }
        std::vector<const ColumnStatistics*> pointers;
        for (const auto& s : stats) pointers.push_back(&s);
        bool may_match = pruner->MayMatch(pointers, batch->num_rows);
        auto filtered = FilterBatch(*batch, **bound);
        ASSERT_TRUE(filtered.ok()) << text << ": " << filtered.status().ToString();
        ++groups;
        if (!may_match) ++pruned;
        if ((*filtered)->num_rows > 0) {
          ++checked;
          ASSERT_TRUE(may_match) << "pruned a group with " << (*filtered)->num_rows
                                 << " matching rows for " << text << " (nan counts "
                                 << (record_nan ? "recorded" : "absent") << ")";
        }
      }
    }
  }
  std::cout << "groups " << groups << ", pruned " << pruned << ", with matches " << checked << "\n";
  EXPECT_GT(pruned, groups / 10);  // the pruner does prune
  EXPECT_GT(checked, groups / 10);
}

TEST(PruningTest, ObviousCases) {
  Schema schema({Field("x", DataType(TypeId::kFloat64)), Field("n", DataType(TypeId::kInt64))});
  ColumnStatistics x;
  x.min = Value::Float64(1.0);
  x.max = Value::Float64(3.0);
  x.null_count = 0;
  x.value_count = 10;
  ColumnStatistics n;
  n.min = Value::Int64(100);
  n.max = Value::Int64(200);
  n.null_count = 0;
  n.value_count = 10;
  auto may = [&](const std::string& text, const ColumnStatistics& stats_x) {
    auto bound = ParseAndBind(text, schema);
    EXPECT_TRUE(bound.ok()) << bound.status().ToString();
    auto pruner = MakeStatisticsPredicate(**bound, schema);
    std::vector<const ColumnStatistics*> stats;
    for (const auto& name : pruner->referenced_columns()) stats.push_back(name == "x" ? &stats_x : &n);
    return pruner->MayMatch(stats, 10);
  };
  // NaN count unknown: NaN rows may exist above max.
  EXPECT_TRUE(may("x > 5", x));
  EXPECT_TRUE(may("x = 'NaN'::DOUBLE", x));
  EXPECT_FALSE(may("x < 0", x));
  ColumnStatistics no_nan = x;
  no_nan.nan_count = 0;
  EXPECT_FALSE(may("x > 5", no_nan));
  EXPECT_FALSE(may("x = 'NaN'::DOUBLE", no_nan));
  EXPECT_TRUE(may("x < 'NaN'::DOUBLE", no_nan));
  EXPECT_FALSE(may("n > 500", no_nan));
  EXPECT_FALSE(may("n = 50 OR n > 300", no_nan));
  EXPECT_TRUE(may("n = 50 OR n > 150", no_nan));
  EXPECT_FALSE(may("n BETWEEN 1 AND 99", no_nan));
  EXPECT_FALSE(may("n IN (1, 2, 300)", no_nan));
  EXPECT_FALSE(may("n IS NULL", no_nan));
  EXPECT_FALSE(may("NOT (n >= 100)", no_nan));
  EXPECT_TRUE(may("n + 1 > 500", no_nan));  // not understood: may match
  EXPECT_FALSE(may("n > 250.5", no_nan));   // through the widening cast to DECIMAL
  // -0.0 and 0.0 are equal.
  ColumnStatistics zero;
  zero.min = Value::Float64(-0.0);
  zero.max = Value::Float64(-0.0);
  zero.null_count = 0;
  zero.nan_count = 0;
  EXPECT_TRUE(may("x = 0.0", zero));
  EXPECT_TRUE(may("x >= 0", zero));
  EXPECT_FALSE(may("x > 0", zero));
  // All NULL: no comparison is TRUE; IS NULL is.
  ColumnStatistics nulls;
  nulls.null_count = 10;
  EXPECT_FALSE(may("x = 1", nulls));
  EXPECT_TRUE(may("x IS NULL", nulls));
  EXPECT_FALSE(may("x IS NOT NULL", nulls));
}

}  // namespace
}  // namespace tarn
