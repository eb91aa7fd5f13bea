// PositionedRowSet::FromFileOrder against a model (a map from id to its positions), over random
// files whose ids are dense, sparse, repeated, and large enough that an id and a position no
// longer share one 64-bit integer.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "tarn/rowid.h"

namespace tarn {
namespace {

void ExpectMatchesModel(const std::vector<int64_t>& ids, const std::string& what) {
  std::map<uint64_t, std::vector<int64_t>> model;
  for (size_t p = 0; p < ids.size(); ++p) model[static_cast<uint64_t>(ids[p])].push_back(static_cast<int64_t>(p));
  auto rows = PositionedRowSet::FromFileOrder(ids);
  ASSERT_TRUE(rows.ok()) << what << ": " << rows.status().ToString();
  EXPECT_EQ(rows->physical_rows, static_cast<int64_t>(ids.size())) << what;
  std::vector<uint64_t> expected_ids;
  for (const auto& [id, positions] : model) expected_ids.push_back(id);
  ASSERT_EQ(rows->set->ToVector(), expected_ids) << what;
  uint64_t rank = 0;
  for (const auto& [id, positions] : model) {
    std::vector<int64_t> got;
    rows->order->AppendPositions(rank++, &got);
    ASSERT_EQ(got, positions) << what << ": id " << id;
  }
}

TEST(FromFileOrderTest, RandomFilesMatchTheModel) {
  std::mt19937_64 rng(20261130);
  struct Shape {
    const char* name;
    uint64_t range;  // ids drawn from [base, base + range)
    uint64_t base;
  };
  const Shape shapes[] = {
      {"dense", 0, 0},  // range = the row count: mostly distinct, some repeats
      {"sparse", uint64_t{1} << 40, 0},
      {"repeated", 7, 100},
      {"near 2^62", uint64_t{1} << 20, uint64_t{1} << 62},  // id bits + position bits > 64
      {"top of int64", 1000, static_cast<uint64_t>(INT64_MAX) - 1000},
  };
  for (const Shape& shape : shapes) {
    for (size_t n : {size_t{2}, size_t{3}, size_t{1000}, size_t{70000}}) {
      std::vector<int64_t> ids(n);
      const uint64_t range = shape.range == 0 ? n : shape.range;
      for (int64_t& id : ids) id = static_cast<int64_t>(shape.base + rng() % range);
      ExpectMatchesModel(ids, std::string(shape.name) + " n=" + std::to_string(n));
    }
  }
}

TEST(FromFileOrderTest, ReversedAndShuffledPermutations) {
  std::vector<int64_t> ids(100000);
  for (size_t p = 0; p < ids.size(); ++p) ids[p] = static_cast<int64_t>(ids.size() - p) * 3;
  ExpectMatchesModel(ids, "reversed");
  std::mt19937_64 rng(5);
  std::shuffle(ids.begin(), ids.end(), rng);
  ExpectMatchesModel(ids, "shuffled");
}

}  // namespace
}  // namespace tarn
