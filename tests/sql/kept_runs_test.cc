// Copying a filter's kept rows as runs must give exactly what gathering them by index gives.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "sql/exec/kept_runs.h"
#include "support/random_data.h"

namespace tarn {
namespace {

// A keep bitmap over `rows` rows: long kept stretches with gaps, or scattered rows.
std::vector<uint8_t> RandomKeep(std::mt19937_64& rng, int64_t rows, double keep_fraction,
                                bool clustered, std::vector<int64_t>* indices) {
  std::vector<uint8_t> keep(static_cast<size_t>((rows + 7) / 8 + 8), 0);
  std::bernoulli_distribution coin(keep_fraction);
  std::bernoulli_distribution flip(0.02);
  bool state = coin(rng);
  for (int64_t row = 0; row < rows; ++row) {
    const bool kept = clustered ? (flip(rng) ? (state = !state) : state) : coin(rng);
    if (kept) {
      SetBit(keep.data(), row);
      indices->push_back(row);
    }
  }
  return keep;
}

TEST(KeptRunsTest, RunsCoverExactlyTheKeptRows) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int64_t rows = std::uniform_int_distribution<int64_t>(0, 700)(rng);
    std::vector<int64_t> indices;
    auto keep = RandomKeep(rng, rows, trial % 3 == 0 ? 1.0 : 0.9, trial % 2 == 0, &indices);
    sql::RowRuns runs = sql::KeptRuns(keep.data(), rows);
    std::vector<int64_t> covered;
    int64_t previous_end = -1;
    for (const auto& [start, length] : runs) {
      ASSERT_GT(length, 0);
      ASSERT_GT(start, previous_end) << "runs touch or overlap";
      for (int64_t i = 0; i < length; ++i) covered.push_back(start + i);
      previous_end = start + length;
    }
    EXPECT_EQ(covered, indices) << "trial " << trial;
  }
}

TEST(KeptRunsTest, CopyRunsEqualsTake) {
  std::mt19937_64 rng(11);
  const std::vector<DataType> types = {
      DataType(TypeId::kInt8),     DataType(TypeId::kInterval),  DataType(TypeId::kInt64),
      DataType(TypeId::kFloat64),  DataType(TypeId::kDate), DataType::Decimal(15, 2),
      DataType::Decimal(38, 4),    DataType(TypeId::kVarchar), DataType(TypeId::kBlob),
      DataType(TypeId::kBoolean),  DataType::List(DataType(TypeId::kInt32))};
  for (int trial = 0; trial < 150; ++trial) {
    const DataType& type = types[static_cast<size_t>(trial) % types.size()];
    const int64_t rows = std::uniform_int_distribution<int64_t>(0, 3000)(rng);
    const double nulls = trial % 4 == 0 ? 0.0 : 0.1;
    auto column = testing::RandomColumn(rng, type, rows, nulls);
    std::vector<int64_t> indices;
    auto keep = RandomKeep(rng, rows, 0.95, trial % 3 != 0, &indices);
    const int64_t kept = static_cast<int64_t>(indices.size());
    auto expected = Take(*column, indices);
    auto actual = sql::CopyRuns(*column, sql::KeptRuns(keep.data(), rows), kept);
    ASSERT_TRUE(actual->Validate().ok()) << actual->Validate().ToString();
    ASSERT_EQ(actual->length, kept);
    ASSERT_EQ(actual->null_count, expected->null_count) << type.ToString();
    for (int64_t row = 0; row < kept; ++row) {
      ASSERT_EQ(actual->GetValue(row), expected->GetValue(row))
          << type.ToString() << " row " << row << " of trial " << trial;
    }
  }
}

}  // namespace
}  // namespace tarn
