// Partition pruning per transform on hand-built table metadata: identity on every kind of type
// (TIMESTAMPTZ included), year/month/day/hour on DATE, TIMESTAMP and TIMESTAMPTZ (parts taken
// in an unknown time zone), bucket(N) with Iceberg's murmur3 (checked against the Iceberg
// spec's test vectors and DuckLake's own), NULL partition values, and files of a spec the
// table no longer has.
#include <gtest/gtest.h>

#include <cmath>

#include "table/file_pruning.h"
#include "table/scan_columns.h"
#include "tarn/table.h"
#include "util/murmur3.h"

namespace tarn {
namespace {

using table_internal::CalendarRangeAnyZone;
using table_internal::DuckLakeHash;
using table_internal::FilePruner;
using table_internal::PartitionBucket;
using table_internal::ScanColumns;
using Decision = FilePruner::Decision;

TEST(Murmur3Test, IcebergSpecVectors) {
  // Apache Iceberg spec, Appendix B.
  EXPECT_EQ(Murmur3HashInt64(34), 2017239379);
  EXPECT_EQ(Murmur3Hash32("iceberg"), 1210000089);
  EXPECT_EQ(Murmur3Hash32(std::string_view("\x00\x01\x02\x03", 4)), -188683207);
  EXPECT_EQ(DuckLakeHash(Value::Int(DataType(TypeId::kInt32), 34)), 2017239379);
  EXPECT_EQ(DuckLakeHash(Value::Int(DataType(TypeId::kDate), 17486)), -653330422);  // 2017-11-16
  EXPECT_EQ(DuckLakeHash(Value::Int(DataType(TypeId::kTime), 81068000000LL)), -662762989);
  EXPECT_EQ(DuckLakeHash(Value::Int(DataType(TypeId::kTimestamp), 1510871468000000LL)),
            -2047944441);
  EXPECT_EQ(DuckLakeHash(Value::Int(DataType(TypeId::kTimestampTz), 1510871468000000LL)),
            -2047944441);
  EXPECT_EQ(DuckLakeHash(Value::Double(DataType(TypeId::kFloat32), 1.0)), -142385009);
  EXPECT_EQ(DuckLakeHash(Value::Float64(1.0)), -142385009);
  EXPECT_EQ(DuckLakeHash(Value::Varchar("iceberg")), 1210000089);
  EXPECT_EQ(DuckLakeHash(Value::Bytes(DataType(TypeId::kBlob), std::string("\x00\x01\x02\x03", 4))),
            -188683207);
  // Every tail length.
  EXPECT_EQ(Murmur3Hash32(""), 0);
  EXPECT_NE(Murmur3Hash32("a"), Murmur3Hash32("ab"));
  EXPECT_NE(Murmur3Hash32("abc"), Murmur3Hash32("abcd"));
}

TEST(Murmur3Test, DuckLakeBuckets) {
  // DuckLake's bucket_partitioning test: bucket(4) puts alice in 1, bob in 2, charlie in 3.
  EXPECT_EQ(PartitionBucket(Value::Varchar("alice"), 4), 1);
  EXPECT_EQ(PartitionBucket(Value::Varchar("bob"), 4), 2);
  EXPECT_EQ(PartitionBucket(Value::Varchar("charlie"), 4), 3);
  // Integers of every width hash as 64-bit; -0.0 as 0.0; booleans as 0/1.
  for (TypeId id : {TypeId::kInt8, TypeId::kInt16, TypeId::kInt32, TypeId::kInt64}) {
    EXPECT_EQ(DuckLakeHash(Value::Int(DataType(id), -7)), Murmur3HashInt64(-7));
  }
  EXPECT_EQ(DuckLakeHash(Value::Float64(-0.0)), DuckLakeHash(Value::Float64(0.0)));
  EXPECT_EQ(DuckLakeHash(Value::Boolean(true)), Murmur3HashInt64(1));
  // Types DuckDB hashes through their text.
  EXPECT_EQ(DuckLakeHash(Value::UInt(DataType(TypeId::kUInt32), 200)), Murmur3Hash32("200"));
  EXPECT_EQ(DuckLakeHash(Value::Int128(DataType::Decimal(38, 2), -50)), Murmur3Hash32("-0.50"));
  EXPECT_EQ(DuckLakeHash(Value::Int128(DataType::Decimal(18, 2), -50)), Murmur3HashInt64(-50));
  std::string uuid(16, '\0');
  uuid[15] = 1;
  EXPECT_EQ(DuckLakeHash(Value::Bytes(DataType(TypeId::kUuid), uuid)),
            Murmur3Hash32("00000000-0000-0000-0000-000000000001"));
  // No hash for NULL, NaN, or types whose DuckDB hash tarn does not reproduce.
  EXPECT_FALSE(DuckLakeHash(Value::Null(DataType(TypeId::kInt32))).has_value());
  EXPECT_FALSE(DuckLakeHash(Value::Float64(std::nan(""))).has_value());
  EXPECT_FALSE(DuckLakeHash(Value::Int(DataType(TypeId::kTimeTz), 5)).has_value());
  EXPECT_FALSE(PartitionBucket(Value::Varchar("x"), 0).has_value());
  for (int64_t v = -1000; v < 1000; ++v) {
    auto bucket = PartitionBucket(Value::Int64(v * 7919), 16);
    ASSERT_TRUE(bucket.has_value());
    EXPECT_GE(*bucket, 0);
    EXPECT_LT(*bucket, 16);
  }
}

ColumnInfo MakeColumn(int64_t id, std::string name, DataType type) {
  ColumnInfo column;
  column.column_id = id;
  column.column_order = id;
  column.name = std::move(name);
  column.type = std::move(type);
  column.type_name = column.type.ToDuckLakeName();
  return column;
}

PartitionField PField(int64_t key, int64_t column, PartitionTransform transform,
                     int64_t buckets = 0) {
  PartitionField f;
  f.partition_key_index = key;
  f.column_id = column;
  f.transform = transform;
  f.bucket_count = buckets;
  return f;
}

// Columns: 1 s VARCHAR, 2 k INTEGER, 3 tz TIMESTAMPTZ, 4 d DATE, 5 ts TIMESTAMP_NS,
// 6 dec DECIMAL(10,2), 7 u UUID, 8 b BOOLEAN, 9 f DOUBLE. Spec 7: bucket(8, s), bucket(4, k),
// year/month/day/hour(tz), month(d), identity(ts), identity(dec). Spec 8: identity of every
// other column and bucket(16, k).
std::shared_ptr<TableMetadata> MakeTable() {
  auto info = std::make_shared<TableInfo>();
  info->table_id = 1;
  info->schema_name = "main";
  info->name = "p";
  info->columns = {MakeColumn(1, "s", DataType(TypeId::kVarchar)),
                   MakeColumn(2, "k", DataType(TypeId::kInt32)),
                   MakeColumn(3, "tz", DataType(TypeId::kTimestampTz)),
                   MakeColumn(4, "d", DataType(TypeId::kDate)),
                   MakeColumn(5, "ts", DataType(TypeId::kTimestampNs)),
                   MakeColumn(6, "dec", DataType::Decimal(10, 2)),
                   MakeColumn(7, "u", DataType(TypeId::kUuid)),
                   MakeColumn(8, "b", DataType(TypeId::kBoolean)),
                   MakeColumn(9, "f", DataType(TypeId::kFloat64))};
  auto table = std::make_shared<TableMetadata>();
  table->snapshot_id = 1;
  table->table = info;
  PartitionSpec spec;
  spec.partition_id = 7;
  spec.fields = {PField(0, 1, PartitionTransform::kBucket, 8),
                 PField(1, 2, PartitionTransform::kBucket, 4),
                 PField(2, 3, PartitionTransform::kYear),
                 PField(3, 3, PartitionTransform::kMonth),
                 PField(4, 3, PartitionTransform::kDay),
                 PField(5, 3, PartitionTransform::kHour),
                 PField(6, 4, PartitionTransform::kMonth),
                 PField(7, 4, PartitionTransform::kYear),
                 PField(8, 5, PartitionTransform::kIdentity),
                 PField(9, 6, PartitionTransform::kIdentity)};
  table->partition_specs[7] = spec;
  PartitionSpec identity;
  identity.partition_id = 8;
  identity.fields = {PField(0, 1, PartitionTransform::kIdentity),
                     PField(1, 3, PartitionTransform::kIdentity),
                     PField(2, 7, PartitionTransform::kIdentity),
                     PField(3, 8, PartitionTransform::kIdentity),
                     PField(4, 9, PartitionTransform::kIdentity),
                     PField(5, 2, PartitionTransform::kBucket, 16)};
  table->partition_specs[8] = identity;
  return table;
}

FilePartitionValue PartValue(int64_t key, Value value) {
  FilePartitionValue v;
  v.partition_key_index = key;
  v.value_known = true;
  v.text = value.is_null() ? std::nullopt : std::optional<std::string>(value.ToString());
  v.value = std::move(value);
  return v;
}

Value I64(int64_t v) { return Value::Int64(v); }
Value Bucket(int64_t v) { return Value::Int(DataType(TypeId::kInt32), v); }

// A file of spec 7 holding s values in bucket(8, 'alice'), k in bucket(4, 42), tz in
// 2021-06-15 13:xx (local), d in 2020-02, ts = 2020-01-01 00:00:00.000001, dec = 12.50.
DataFileInfo SpecSevenFile() {
  DataFileInfo file;
  file.data_file_id = 1;
  file.record_count = 10;
  file.partition_id = 7;
  file.partition_values = {
      PartValue(0, Bucket(*PartitionBucket(Value::Varchar("alice"), 8))),
      PartValue(1, Bucket(*PartitionBucket(Value::Int(DataType(TypeId::kInt32), 42), 4))),
      PartValue(2, I64(2021)), PartValue(3, I64(6)), PartValue(4, I64(15)), PartValue(5, I64(13)),
      PartValue(6, I64(2)), PartValue(7, I64(2020)),
      PartValue(8, Value::Int(DataType(TypeId::kTimestampNs), 1577836800000001000LL)),
      PartValue(9, Value::Int128(DataType::Decimal(10, 2), 1250))};
  return file;
}

Decision Check(std::shared_ptr<TableMetadata> table, const DataFileInfo& file,
               const std::string& filter) {
  TableScanOptions options;
  options.filter = filter;
  auto columns = ScanColumns::Make(*table->table, options);
  EXPECT_TRUE(columns.ok()) << filter << ": " << columns.status().ToString();
  FilePruner pruner(columns->pruning_predicate, columns->full_schema, table, columns->full_filter);
  return pruner.Check(file);
}

struct Case {
  const char* filter;
  Decision decision;
};

void ExpectDecisions(std::shared_ptr<TableMetadata> table, const DataFileInfo& file,
                     std::initializer_list<Case> cases) {
  for (const Case& c : cases) EXPECT_EQ(Check(table, file, c.filter), c.decision) << c.filter;
}

// A string that lands in another bucket(8) than "alice".
std::string OtherBucketString() {
  const int32_t alice = *PartitionBucket(Value::Varchar("alice"), 8);
  for (const char* candidate : {"bob", "carol", "dave", "erin", "frank", "grace"}) {
    if (*PartitionBucket(Value::Varchar(candidate), 8) != alice) return candidate;
  }
  return "";
}

TEST(PartitionPruningTest, Bucket) {
  auto table = MakeTable();
  const DataFileInfo file = SpecSevenFile();
  const std::string other = OtherBucketString();
  ASSERT_FALSE(other.empty());
  int other_k = 0;
  while (*PartitionBucket(Value::Int(DataType(TypeId::kInt32), other_k), 4) ==
         *PartitionBucket(Value::Int(DataType(TypeId::kInt32), 42), 4)) {
    ++other_k;
  }
  const std::string k_other = std::to_string(other_k);
  ExpectDecisions(table, file, {
      {"s = 'alice'", Decision::kRead},
      {"'alice' = s", Decision::kRead},
      {("s = '" + other + "'").c_str(), Decision::kPrunedByPartition},
      {("s IN ('" + other + "', 'alice')").c_str(), Decision::kRead},
      {("s IN ('" + other + "')").c_str(), Decision::kPrunedByPartition},
      {("s NOT IN ('" + other + "')").c_str(), Decision::kRead},
      {("NOT (s = '" + other + "')").c_str(), Decision::kRead},
      {("s <> '" + other + "'").c_str(), Decision::kRead},
      {("s = '" + other + "' OR k = 42").c_str(), Decision::kRead},
      {("s = '" + other + "' AND k = 42").c_str(), Decision::kPrunedByPartition},
      {"k = 42", Decision::kRead},
      {("k = " + k_other).c_str(), Decision::kPrunedByPartition},
      // Through the widening cast to BIGINT the constant still names one INTEGER value.
      {("k = CAST(" + k_other + " AS BIGINT)").c_str(), Decision::kPrunedByPartition},
      {"k = 42.0", Decision::kRead},
      {"k = 42.5", Decision::kRead},  // no INTEGER equals it; not a bucket question
      {"k = 3000000000", Decision::kRead},
      {"k > 1000", Decision::kRead},
      {"k = NULL", Decision::kPrunedByStats},  // never TRUE
      {"s IS NULL", Decision::kPrunedByPartition},  // a non-NULL bucket: no NULL s
  });
  // A NULL bucket: every s is NULL.
  DataFileInfo null_bucket = file;
  null_bucket.partition_values[0] = PartValue(0, Value::Null(DataType(TypeId::kInt32)));
  ExpectDecisions(table, null_bucket, {{"s = 'alice'", Decision::kPrunedByPartition},
                                       {"s IS NULL", Decision::kRead},
                                       {"s IS NOT NULL", Decision::kPrunedByPartition}});
  // Without the bound filter (the StatisticsPredicate alone) buckets cannot prune.
  TableScanOptions options;
  options.filter = "s = '" + other + "'";
  auto columns = ScanColumns::Make(*table->table, options);
  ASSERT_TRUE(columns.ok());
  FilePruner plain(columns->pruning_predicate, columns->full_schema, table);
  EXPECT_EQ(plain.Check(file), Decision::kRead);
}

TEST(PartitionPruningTest, CalendarOnTimestampTzDateAndIdentity) {
  auto table = MakeTable();
  const DataFileInfo file = SpecSevenFile();
  ExpectDecisions(table, file, {
      // Local 2021-06-15 13:00-14:00 in some zone: within a day of it in UTC.
      {"tz = TIMESTAMPTZ '2021-06-15 13:30:00+00'", Decision::kRead},
      {"tz = TIMESTAMPTZ '2021-06-16 10:00:00+00'", Decision::kRead},
      {"tz = TIMESTAMPTZ '2021-06-14 14:00:00+00'", Decision::kRead},
      {"tz = TIMESTAMPTZ '2021-06-16 20:00:00+00'", Decision::kPrunedByPartition},
      {"tz < TIMESTAMPTZ '2021-06-14 12:00:00+00'", Decision::kPrunedByPartition},
      {"tz > TIMESTAMPTZ '2021-01-01 00:00:00+00'", Decision::kRead},
      {"d = DATE '2020-02-29'", Decision::kRead},
      {"d = DATE '2020-03-01'", Decision::kPrunedByPartition},
      {"d BETWEEN DATE '2019-01-01' AND DATE '2020-01-31'", Decision::kPrunedByPartition},
      {"ts = CAST('2020-01-01 00:00:00.000001' AS TIMESTAMP_NS)", Decision::kRead},
      {"ts > CAST('2020-01-01 00:00:00.000001' AS TIMESTAMP_NS)",
       Decision::kPrunedByPartition},
      {"dec = 12.5", Decision::kRead},
      {"dec = 12.51", Decision::kPrunedByPartition},
      {"dec > 12", Decision::kRead},
      {"dec < 12", Decision::kPrunedByPartition},
  });
  auto range = CalendarRangeAnyZone(1970, 1, 1, 0);
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->first.GetInt64(), -86400LL * 1000000);
  EXPECT_EQ(range->second.GetInt64(), 3600LL * 1000000 - 1 + 86400LL * 1000000);
  EXPECT_EQ(range->first.type().id, TypeId::kTimestampTz);
}

TEST(PartitionPruningTest, IdentityOfEveryKind) {
  auto table = MakeTable();
  DataFileInfo file;
  file.record_count = 5;
  file.partition_id = 8;
  std::string uuid(16, '\0');
  uuid[15] = 7;
  file.partition_values = {
      PartValue(0, Value::Varchar("it's")),
      PartValue(1, Value::Int(DataType(TypeId::kTimestampTz), 1600000000000000LL)),
      PartValue(2, Value::Bytes(DataType(TypeId::kUuid), uuid)),
      PartValue(3, Value::Boolean(true)),
      PartValue(4, Value::Float64(-0.0)),
      PartValue(5, Bucket(*PartitionBucket(Value::Int(DataType(TypeId::kInt32), 9), 16)))};
  ExpectDecisions(table, file, {
      {"s = 'it''s'", Decision::kRead},
      {"s = 'its'", Decision::kPrunedByPartition},
      {"s > 'z'", Decision::kPrunedByPartition},
      {"tz = TIMESTAMPTZ '2020-09-13 12:26:40+00'", Decision::kRead},
      {"tz = TIMESTAMPTZ '2020-09-13 14:26:40+02'", Decision::kRead},
      {"tz = TIMESTAMPTZ '2020-09-13 12:26:41+00'", Decision::kPrunedByPartition},
      {"u IS NULL", Decision::kPrunedByPartition},
      {"b", Decision::kRead},
      {"NOT b", Decision::kPrunedByPartition},
      {"f = 0", Decision::kRead},  // -0.0 = 0.0
      {"f > 0", Decision::kPrunedByPartition},
      {"k = 9", Decision::kRead},
  });
  // A NaN identity value pins nothing.
  file.partition_values[4] = PartValue(4, Value::Float64(std::nan("")));
  EXPECT_EQ(Check(table, file, "f > 0"), Decision::kRead);
  // A file of a spec the table no longer has (partitioning reset, spec gone): never pruned.
  DataFileInfo orphan = SpecSevenFile();
  orphan.partition_id = 9;
  EXPECT_EQ(Check(table, orphan, "d = DATE '2031-01-01'"), Decision::kRead);
  // Undecodable values are unknown.
  DataFileInfo unknown = SpecSevenFile();
  for (auto& value : unknown.partition_values) value.value_known = false;
  EXPECT_EQ(Check(table, unknown, "d = DATE '2031-01-01'"), Decision::kRead);
  EXPECT_EQ(Check(table, unknown, "s = 'zz'"), Decision::kRead);
}

}  // namespace
}  // namespace tarn
