// File pruning from catalog metadata alone, on hand-built table metadata: the NaN gate on
// catalog statistics, identity and calendar partition values, unknown (reset) partition specs.
#include <gtest/gtest.h>

#include <cmath>

#include "table/file_pruning.h"
#include "table/scan_columns.h"
#include "tarn/table.h"

namespace tarn {
namespace {

using table_internal::CalendarRange;
using table_internal::CatalogColumnStatistics;
using table_internal::FilePruner;
using table_internal::ScanColumns;
using Decision = FilePruner::Decision;

ColumnInfo MakeColumn(int64_t id, std::string name, TypeId type) {
  ColumnInfo column;
  column.column_id = id;
  column.column_order = id;
  column.name = std::move(name);
  column.type = DataType(type);
  column.type_name = column.type.ToDuckLakeName();
  return column;
}

std::shared_ptr<TableMetadata> MakeTable() {
  auto info = std::make_shared<TableInfo>();
  info->table_id = 1;
  info->schema_name = "main";
  info->name = "p";
  info->columns = {MakeColumn(1, "ts", TypeId::kTimestamp), MakeColumn(2, "d", TypeId::kDate),
                   MakeColumn(3, "k", TypeId::kInt64), MakeColumn(4, "f", TypeId::kFloat64)};
  auto table = std::make_shared<TableMetadata>();
  table->snapshot_id = 1;
  table->table = info;
  PartitionSpec calendar;
  calendar.partition_id = 5;
  auto field = [](int64_t key, int64_t column, PartitionTransform transform) {
    PartitionField f;
    f.partition_key_index = key;
    f.column_id = column;
    f.transform = transform;
    return f;
  };
  calendar.fields = {field(0, 1, PartitionTransform::kYear),
                     field(1, 1, PartitionTransform::kMonth),
                     field(2, 1, PartitionTransform::kDay), field(3, 1, PartitionTransform::kHour),
                     field(4, 3, PartitionTransform::kIdentity),
                     field(5, 2, PartitionTransform::kYear)};
  table->partition_specs[5] = calendar;
  return table;
}

FilePartitionValue PartValue(int64_t key, std::optional<int64_t> value) {
  FilePartitionValue v;
  v.partition_key_index = key;
  v.value_known = true;
  v.value = value ? Value::Int64(*value) : Value::Null(DataType(TypeId::kInt64));
  if (value) v.text = std::to_string(*value);
  return v;
}

DataFileInfo PartitionedFile(std::optional<int64_t> k) {
  DataFileInfo file;
  file.data_file_id = 1;
  file.record_count = 10;
  file.partition_id = 5;
  file.partition_values = {PartValue(0, 2021), PartValue(1, 6), PartValue(2, 15),
                           PartValue(3, 13), PartValue(4, k), PartValue(5, 2020)};
  return file;
}

Decision Check(std::shared_ptr<TableMetadata> table, const DataFileInfo& file,
               const std::string& filter) {
  TableScanOptions options;
  options.filter = filter;
  auto columns = ScanColumns::Make(*table->table, options);
  EXPECT_TRUE(columns.ok()) << filter << ": " << columns.status().ToString();
  FilePruner pruner(columns->pruning_predicate, columns->full_schema, table);
  return pruner.Check(file);
}

TEST(FilePruningTest, IdentityAndCalendarPartitions) {
  auto table = MakeTable();
  const DataFileInfo file = PartitionedFile(3);
  struct Case {
    const char* filter;
    Decision decision;
  } cases[] = {
      {"k = 3", Decision::kRead},
      {"k = 4", Decision::kPrunedByPartition},
      {"k IS NULL", Decision::kPrunedByPartition},
      {"k > 2 AND k < 4", Decision::kRead},
      {"ts = CAST('2021-06-15 13:30:00' AS TIMESTAMP)", Decision::kRead},
      {"ts = CAST('2021-06-15 13:59:59.999999' AS TIMESTAMP)", Decision::kRead},
      {"ts = CAST('2021-06-15 14:00:00' AS TIMESTAMP)", Decision::kPrunedByPartition},
      {"ts < CAST('2021-06-15 13:00:00' AS TIMESTAMP)", Decision::kPrunedByPartition},
      {"ts <= CAST('2021-06-15 13:00:00' AS TIMESTAMP)", Decision::kRead},
      // Every row shares the file's partition values: a non-NULL year means no NULL ts.
      {"ts IS NULL", Decision::kPrunedByPartition},
      {"d = CAST('2020-12-31' AS DATE)", Decision::kRead},
      {"d = CAST('2021-01-01' AS DATE)", Decision::kPrunedByPartition},
      {"d < CAST('2020-01-01' AS DATE)", Decision::kPrunedByPartition},
      {"k = 4 OR d = CAST('2020-06-01' AS DATE)", Decision::kRead},
      {"rowid = 5", Decision::kRead},
  };
  for (const Case& c : cases) EXPECT_EQ(Check(table, file, c.filter), c.decision) << c.filter;

  // A NULL identity value: every row has k NULL.
  const DataFileInfo null_file = PartitionedFile(std::nullopt);
  EXPECT_EQ(Check(table, null_file, "k = 3"), Decision::kPrunedByPartition);
  EXPECT_EQ(Check(table, null_file, "k IS NULL"), Decision::kRead);

  // A file whose partition spec the table no longer has (partitioning reset): never pruned
  // on partition values.
  DataFileInfo orphan = PartitionedFile(3);
  orphan.partition_id = 6;
  EXPECT_EQ(Check(table, orphan, "k = 4"), Decision::kRead);
  // An unknown partition value text keeps the file.
  DataFileInfo unknown = PartitionedFile(3);
  unknown.partition_values[4].value_known = false;
  EXPECT_EQ(Check(table, unknown, "k = 4"), Decision::kRead);
}

TEST(FilePruningTest, CalendarRangeBounds) {
  auto range = CalendarRange(DataType(TypeId::kDate), 2024, 2, std::nullopt, std::nullopt);
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->first.GetInt64(), 19754);   // 2024-02-01
  EXPECT_EQ(range->second.GetInt64(), 19782);  // 2024-02-29 (leap year)
  range = CalendarRange(DataType(TypeId::kTimestampS), 1969, 12, 31, 23);
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->first.GetInt64(), -3600);
  EXPECT_EQ(range->second.GetInt64(), -1);
  EXPECT_FALSE(CalendarRange(DataType(TypeId::kTimestampTz), 2024, 1, 1, 0).has_value());
  EXPECT_FALSE(CalendarRange(DataType(TypeId::kDate), 2024, 13, std::nullopt, std::nullopt)
                   .has_value());
  EXPECT_FALSE(CalendarRange(DataType(TypeId::kDate), 2024, 1, 1, 5).has_value());
}

TEST(FilePruningTest, FloatBoundsNeedContainsNanFalse) {
  FileColumnStats stats;
  stats.column_id = 4;
  stats.min = Value::Float64(0.0);
  stats.max = Value::Float64(1.0);
  stats.null_count = 0;
  const DataType f64(TypeId::kFloat64);
  for (std::optional<bool> nan : {std::optional<bool>(true), std::optional<bool>()}) {
    stats.contains_nan = nan;
    ColumnStatistics converted = CatalogColumnStatistics(stats, f64, 10);
    EXPECT_FALSE(converted.min.has_value());
    EXPECT_FALSE(converted.max.has_value());
  }
  stats.contains_nan = false;
  ColumnStatistics converted = CatalogColumnStatistics(stats, f64, 10);
  ASSERT_TRUE(converted.LowerBound().has_value());
  ASSERT_TRUE(converted.UpperBound().has_value());
  EXPECT_EQ(converted.UpperBound()->GetDouble(), 1.0);
  // Integer columns do not look at contains_nan (NULL there).
  FileColumnStats ints;
  ints.min = Value::Int64(3);
  ints.max = Value::Int64(9);
  ColumnStatistics int_stats = CatalogColumnStatistics(ints, DataType(TypeId::kInt64), 10);
  EXPECT_EQ(int_stats.max->GetInt64(), 9);
  // Bounds decoded by an older type are cast to the type at the snapshot.
  FileColumnStats narrow;
  narrow.min = Value::Int(DataType(TypeId::kInt32), -4);
  narrow.max = Value::Int(DataType(TypeId::kInt32), 4);
  ColumnStatistics widened = CatalogColumnStatistics(narrow, DataType(TypeId::kInt64), 10);
  EXPECT_EQ(widened.min->type().id, TypeId::kInt64);

  auto table = MakeTable();
  DataFileInfo file;
  file.record_count = 10;
  stats.contains_nan = true;
  file.column_stats = {stats};
  EXPECT_EQ(Check(table, file, "f > 5"), Decision::kRead);
  EXPECT_EQ(Check(table, file, "f < -5"), Decision::kRead);
  file.column_stats[0].contains_nan = false;
  EXPECT_EQ(Check(table, file, "f > 5"), Decision::kPrunedByStats);
  EXPECT_EQ(Check(table, file, "f < -5"), Decision::kPrunedByStats);
  EXPECT_EQ(Check(table, file, "f = 0"), Decision::kRead);
  EXPECT_EQ(Check(table, file, "f = -0.0"), Decision::kRead);
  EXPECT_EQ(Check(table, file, "f IS NULL"), Decision::kPrunedByStats);
}

}  // namespace
}  // namespace tarn
