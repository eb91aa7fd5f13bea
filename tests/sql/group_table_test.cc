// GroupTable's path through dictionary codes (AssignCoded) must assign exactly the group ids
// and key values that hashing the values assigns: one or several keys, NULLs, dictionaries
// with repeated or unused entries, codes on only some keys, and many batches into one table.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "sql/exec/group_table.h"
#include "support/random_data.h"

namespace tarn {
namespace {

// A VARCHAR column of `rows` rows drawn from `entries` (NULL one row in `null_every`), with
// dictionary codes naming them.
std::shared_ptr<Column> CodedColumn(std::mt19937_64& rng, const std::vector<std::string>& entries,
                                    int64_t rows, int null_every) {
  ColumnBuilder dictionary(DataType(TypeId::kVarchar));
  for (const std::string& entry : entries) dictionary.AppendBytes(entry);
  ColumnBuilder values(DataType(TypeId::kVarchar));
  auto codes = Buffer::Allocate(rows * 4);
  uint32_t* raw = codes->mutable_data_as<uint32_t>();
  for (int64_t row = 0; row < rows; ++row) {
    if (null_every > 0 && rng() % static_cast<uint64_t>(null_every) == 0) {
      values.AppendNull();
      raw[row] = 0;
      continue;
    }
    raw[row] = static_cast<uint32_t>(rng() % entries.size());
    values.AppendBytes(entries[raw[row]]);
  }
  auto column = values.Finish();
  column->dictionary = std::make_shared<DictionaryCodes>(
      DictionaryCodes{dictionary.Finish(), std::move(codes), column->values, rows});
  return column;
}

std::vector<std::string> RandomEntries(std::mt19937_64& rng) {
  std::vector<std::string> entries;
  const int size = 1 + static_cast<int>(rng() % 40);
  for (int i = 0; i < size; ++i) {
    // Repeats (two codes, one value), empty strings, and values past 16 bytes.
    const uint64_t k = rng() % 30;
    entries.push_back(k == 0 ? "" : "v" + std::to_string(k) + std::string(k % 3 == 0 ? 20 : 0, 'z'));
  }
  return entries;
}

// The same column without its codes.
std::shared_ptr<Column> WithoutCodes(const std::shared_ptr<Column>& column) {
  auto copy = std::make_shared<Column>(*column);
  copy->dictionary.reset();
  return copy;
}

TEST(GroupTableTest, CodedKeysAssignWhatHashingAssigns) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 60; ++trial) {
    SCOPED_TRACE(::testing::Message() << "trial " << trial);
    const int num_keys = 1 + trial % 3;
    const bool mixed = trial % 5 == 4;  // the last key an integer without codes
    std::vector<DataType> types(static_cast<size_t>(num_keys), DataType(TypeId::kVarchar));
    if (mixed) types.back() = DataType(TypeId::kInt32);
    sql::GroupTable coded(types);
    sql::GroupTable plain(types);
    std::vector<std::vector<std::string>> dictionaries;
    for (int k = 0; k < num_keys; ++k) dictionaries.push_back(RandomEntries(rng));
    for (int batch = 0; batch < 4; ++batch) {
      const int64_t rows = static_cast<int64_t>(rng() % 3000);
      std::vector<std::shared_ptr<Column>> keys, stripped;
      for (int k = 0; k < num_keys; ++k) {
        if (mixed && k == num_keys - 1) {
          keys.push_back(testing::RandomColumn(rng, DataType(TypeId::kInt32), rows, 0.1));
        } else {
          // A batch may come with another dictionary of the same column.
          if (rng() % 3 == 0) dictionaries[k] = RandomEntries(rng);
          keys.push_back(CodedColumn(rng, dictionaries[k], rows, trial % 2 == 0 ? 7 : 0));
          ASSERT_TRUE(keys.back()->Validate().ok());
        }
        stripped.push_back(WithoutCodes(keys.back()));
      }
      std::vector<uint32_t> coded_ids, plain_ids;
      ASSERT_TRUE(coded.Assign(keys, rows, &coded_ids).ok());
      ASSERT_TRUE(plain.Assign(stripped, rows, &plain_ids).ok());
      ASSERT_EQ(coded_ids, plain_ids);
      ASSERT_EQ(coded.num_groups(), plain.num_groups());
    }
    std::vector<std::shared_ptr<Column>> coded_keys = coded.FinishKeys();
    std::vector<std::shared_ptr<Column>> plain_keys = plain.FinishKeys();
    for (size_t k = 0; k < coded_keys.size(); ++k) {
      ASSERT_EQ(coded_keys[k]->length, plain_keys[k]->length);
      for (int64_t g = 0; g < coded_keys[k]->length; ++g) {
        ASSERT_EQ(coded_keys[k]->GetValue(g), plain_keys[k]->GetValue(g)) << "group " << g;
      }
    }
  }
}

// Combinations of codes beyond what a per-batch map may hold go through hashing.
TEST(GroupTableTest, LargeCodeSpacesFallBackToHashing) {
  std::mt19937_64 rng(9);
  std::vector<std::string> entries;
  for (int i = 0; i < 300; ++i) entries.push_back("e" + std::to_string(i));
  const std::vector<DataType> types(3, DataType(TypeId::kVarchar));
  sql::GroupTable coded(types);
  sql::GroupTable plain(types);
  std::vector<std::shared_ptr<Column>> keys, stripped;
  for (int k = 0; k < 3; ++k) {
    keys.push_back(CodedColumn(rng, entries, 500, 0));
    stripped.push_back(WithoutCodes(keys.back()));
  }
  std::vector<uint32_t> coded_ids, plain_ids;
  ASSERT_TRUE(coded.Assign(keys, 500, &coded_ids).ok());
  ASSERT_TRUE(plain.Assign(stripped, 500, &plain_ids).ok());
  EXPECT_EQ(coded_ids, plain_ids);
}

}  // namespace
}  // namespace tarn
