// Footer statistics decoded to ColumnStatistics, and the NaN-safe bounds a pruner may trust.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "parquet/schema.h"
#include "parquet/statistics.h"
#include "support/test_util.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

TEST(ReaderStatisticsTest, BoundsFollowDuckDBOrder) {
  const DataType f64(TypeId::kFloat64);
  ColumnStatistics stats;
  stats.min = Value::Double(f64, 1.5);
  stats.max = Value::Double(f64, 9.0);
  EXPECT_EQ(stats.LowerBound()->GetDouble(), 1.5);
  EXPECT_FALSE(stats.UpperBound().has_value()) << "NaN count not recorded: NaN may sit above";
  stats.nan_count = 2;
  EXPECT_FALSE(stats.UpperBound().has_value());
  stats.nan_count = 0;
  EXPECT_EQ(stats.UpperBound()->GetDouble(), 9.0);
  stats.min = Value::Double(f64, std::numeric_limits<double>::quiet_NaN());
  EXPECT_FALSE(stats.LowerBound().has_value());
  stats.min = Value::Double(f64, 0.0);
  stats.max = Value::Double(f64, -0.0);
  EXPECT_TRUE(std::signbit(stats.LowerBound()->GetDouble()));
  EXPECT_FALSE(std::signbit(stats.UpperBound()->GetDouble()));
  ColumnStatistics ints;
  ints.min = Value::Int64(-3);
  ints.max = Value::Int64(7);
  EXPECT_EQ(ints.LowerBound()->GetInt64(), -3);
  EXPECT_EQ(ints.UpperBound()->GetInt64(), 7);
  EXPECT_FALSE(ColumnStatistics().LowerBound().has_value());
}

TEST(ReaderStatisticsTest, LineitemRowGroupStatisticsMatchDuckDB) {
  auto reader = ParquetReader::Open(LocalFileSystem(),
                                    testing::SharedPath("data/tpch-sf0.1/lineitem.parquet"));
  ASSERT_TRUE(reader.ok());
  // From DuckDB's parquet_metadata() of the same file.
  const int64_t mins[] = {1, 122308, 245475, 368899, 491329};
  const int64_t maxs[] = {122308, 245474, 368898, 491329, 600000};
  ASSERT_EQ((*reader)->num_row_groups(), 5);
  for (int rg = 0; rg < 5; ++rg) {
    auto stats = (*reader)->RowGroupStatistics(rg, 0);
    ASSERT_TRUE(stats.has_value());
    EXPECT_EQ(stats->min->GetInt64(), mins[rg]);
    EXPECT_EQ(stats->max->GetInt64(), maxs[rg]);
    EXPECT_EQ(stats->null_count, 0);
    EXPECT_EQ(stats->value_count, (*reader)->row_group_num_rows(rg));
    EXPECT_GT(stats->compressed_bytes, 0);
  }
  auto shipdate = (*reader)->RowGroupStatistics(0, 10);
  ASSERT_TRUE(shipdate.has_value());
  EXPECT_EQ(shipdate->min->type().id, TypeId::kDate);
  auto quantity = (*reader)->RowGroupStatistics(0, 4);
  ASSERT_TRUE(quantity.has_value());
  EXPECT_EQ(quantity->min->type().id, TypeId::kDecimal);
  EXPECT_EQ(quantity->min->GetInt128(), 100);  // 1.00
  EXPECT_FALSE((*reader)->RowGroupStatistics(9, 0).has_value());
}

TEST(ReaderStatisticsTest, NanMaxIsDropped) {
  auto reader = ParquetReader::Open(
      LocalFileSystem(), testing::SharedPath("fixtures/parquet-testing/data/nan_in_stats.parquet"));
  ASSERT_TRUE(reader.ok());
  auto stats = (*reader)->RowGroupStatistics(0, 0);
  ASSERT_TRUE(stats.has_value());
  ASSERT_TRUE(stats->min.has_value());
  EXPECT_EQ(stats->min->GetDouble(), 1.0);
  EXPECT_FALSE(stats->max.has_value());
  EXPECT_FALSE(stats->UpperBound().has_value());
}

TEST(ReaderStatisticsTest, DeprecatedMinMaxOnlyWhereSignedOrderIsRight) {
  parquet::SchemaElement element;
  element.name = "s";
  element.type = parquet::PhysicalType::kByteArray;
  element.converted_type = parquet::ConvertedType::kUtf8;
  parquet::LeafDescriptor leaf;
  ASSERT_TRUE(parquet::ResolveLeafType(element, &leaf).ok());
  parquet::ColumnMetaData meta;
  meta.statistics = parquet::Statistics{};
  meta.statistics->min = "a";
  meta.statistics->max = "\xff";
  auto stats = parquet::DecodeColumnStatistics(meta, leaf);
  ASSERT_TRUE(stats.has_value());
  EXPECT_FALSE(stats->min.has_value()) << "signed byte order is wrong for strings";
  meta.statistics->min_value = "a";
  meta.statistics->max_value = "z";
  meta.statistics->is_max_value_exact = false;
  stats = parquet::DecodeColumnStatistics(meta, leaf);
  EXPECT_EQ(stats->min->GetBytes(), "a");
  EXPECT_FALSE(stats->max_exact);

  // Unsigned INT32: deprecated min/max ignored; min_value read as unsigned.
  parquet::SchemaElement u32;
  u32.name = "u";
  u32.type = parquet::PhysicalType::kInt32;
  u32.converted_type = parquet::ConvertedType::kUint32;
  parquet::LeafDescriptor uleaf;
  ASSERT_TRUE(parquet::ResolveLeafType(u32, &uleaf).ok());
  parquet::ColumnMetaData umeta;
  umeta.statistics = parquet::Statistics{};
  const int32_t minus_one = -1;
  umeta.statistics->max = std::string(reinterpret_cast<const char*>(&minus_one), 4);
  EXPECT_FALSE(parquet::DecodeColumnStatistics(umeta, uleaf)->max.has_value());
  umeta.statistics->max_value = umeta.statistics->max;
  EXPECT_EQ(parquet::DecodeColumnStatistics(umeta, uleaf)->max->GetUInt64(), 4294967295u);
  // A wrong-sized value is ignored rather than misread.
  umeta.statistics->max_value = "abc";
  EXPECT_FALSE(parquet::DecodeColumnStatistics(umeta, uleaf)->max.has_value());
}

}  // namespace
}  // namespace tarn
