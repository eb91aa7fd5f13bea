// data/large_string_map.brotli.parquet: 4,325 bytes holding two MAP(VARCHAR, INT32) rows,
// each {'a' x 2^30: 1}, in pages of just over 1 GiB (the key column chunk is 2,147,483,749
// bytes uncompressed). Too large for the CSV comparison of the conformance suite; this test
// checks it against what DuckDB gives (length(k) = 1073741824, md5(k) =
// adb5a28fda6ec2a01075b9945887a083, every byte 'a', value 1, for both rows).
#include <gtest/gtest.h>

#include <algorithm>

#include "support/test_util.h"
#include "tarn/io.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

TEST(LargeStringMapTest, ReadsTwoGigabyteKeyChunk) {
  const std::string path =
      testing::SharedPath("fixtures/parquet-testing/data/large_string_map.brotli.parquet");
  ASSERT_TRUE(testing::FileExists(path)) << path;
  auto reader = ParquetReader::Open(LocalFileSystem(), path);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto scan = (*reader)->Scan(ScanOptions{});
  ASSERT_TRUE(scan.ok()) << scan.status().ToString();
  int64_t rows = 0;
  while (true) {
    auto batch = (*scan)->Next();
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    if (*batch == nullptr) break;
    ASSERT_EQ((*batch)->num_columns(), 1);
    const Column& map = (*batch)->column(0);
    ASSERT_EQ(map.type.id, TypeId::kMap);
    ASSERT_EQ(map.null_count, 0);
    const int32_t* offsets = map.values->data_as<int32_t>();
    const Column& entries = *map.children[0];
    const Column& keys = *entries.children[0];
    const Column& values = *entries.children[1];
    ASSERT_EQ(keys.type.id, TypeId::kVarchar);
    ASSERT_EQ(values.type.id, TypeId::kInt32);
    for (int64_t row = 0; row < (*batch)->num_rows; ++row, ++rows) {
      ASSERT_EQ(offsets[row + 1] - offsets[row], 1) << "row " << rows;
      const int64_t entry = offsets[row];
      ASSERT_FALSE(keys.IsNull(entry));
      const std::string_view key = keys.GetView(entry);
      EXPECT_EQ(key.size(), size_t{1} << 30) << "row " << rows;
      EXPECT_TRUE(std::all_of(key.begin(), key.end(), [](char c) { return c == 'a'; }))
          << "row " << rows;
      ASSERT_FALSE(values.IsNull(entry));
      EXPECT_EQ(values.values->data_as<int32_t>()[entry], 1) << "row " << rows;
    }
  }
  EXPECT_EQ(rows, 2);
}

}  // namespace
}  // namespace tarn
