// A partitioned lake built by hand: the `inlined` fixture catalog copied and given a table
// pt(id BIGINT, region VARCHAR, ts TIMESTAMP, k INTEGER, amount DOUBLE) partitioned by
// (region, year(ts), month(ts), bucket(4, k)), its rows written by tarn's ParquetWriter as
// hive-style files `region=east/year=2020/month=3/bucket=1/ducklake-N.parquet` (field ids =
// column ids), one per partition, with ducklake_file_partition_value rows as the extension
// writes them. At the next snapshot the partitioning is reset and an unpartitioned file is
// added. A second table pz is partitioned by identity(tz TIMESTAMPTZ), its values stored as
// text with an offset.
//
// Every scan is checked twice: its rows against a brute-force filter of the model rows, and
// its files_pruned_by_partition against the number of files whose partition keys rule the
// predicate out (computed from the keys by the model).
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <random>
#include <set>

#include "table/file_pruning.h"
#include "table/table_test_util.h"

namespace tarn {
namespace {

constexpr int64_t kMicrosPerDay = 86400LL * 1000000;

struct Row {
  int64_t id = 0;
  std::string region;
  int64_t ts = 0;  // micros
  std::optional<int32_t> k;
  double amount = 0;
};

struct Key {
  std::string region;
  int64_t year = 0, month = 0;
  std::optional<int32_t> bucket;
  auto operator<=>(const Key&) const = default;
};

std::pair<int64_t, int64_t> YearMonth(int64_t micros) {
  // Civil from days (proleptic Gregorian).
  int64_t z = micros / kMicrosPerDay + 719468;
  if (micros % kMicrosPerDay < 0) --z;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int64_t month = mp < 10 ? mp + 3 : mp - 9;
  return {yoe + era * 400 + (month <= 2 ? 1 : 0), month};
}

std::optional<int32_t> BucketOf(std::optional<int32_t> k) {
  if (!k) return std::nullopt;
  return table_internal::PartitionBucket(Value::Int(DataType(TypeId::kInt32), *k), 4);
}

std::string Str(const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "NULL"; }

class PartitionedLake {
 public:
  PartitionedLake() {
    catalog_ = table_testing::CopyCatalog("inlined", dir_);
    std::mt19937_64 rng(99);
    static const char* kRegions[] = {"east", "west"};
    const int64_t jan_2020 = 18262 * kMicrosPerDay;
    for (int64_t id = 0; id < 2400; ++id) {
      Row row;
      row.id = id;
      row.region = kRegions[rng() % 2];
      row.ts = jan_2020 + static_cast<int64_t>(rng() % (182 * kMicrosPerDay));  // ~6 months
      if (rng() % 20 != 0) row.k = static_cast<int32_t>(rng() % 50);
      row.amount = static_cast<double>(rng() % 10000) / 100;
      rows_.push_back(row);
    }
  }

  void Exec(const std::string& sql) {
    auto store = OpenSqliteCatalogStore(catalog_, /*read_only=*/false);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    auto changed = (*store)->Execute(sql, {});
    ASSERT_TRUE(changed.ok()) << sql << ": " << changed.status().ToString();
  }

  // Writes rows (all of `rows`) as one Parquet file under the table's directory.
  std::pair<int64_t, int64_t> WriteFile(const std::string& relative, const std::vector<Row>& rows) {
    auto schema = std::make_shared<Schema>(std::vector<Field>{
        Field("id", DataType(TypeId::kInt64), true, 10),
        Field("region", DataType(TypeId::kVarchar), true, 11),
        Field("ts", DataType(TypeId::kTimestamp), true, 12),
        Field("k", DataType(TypeId::kInt32), true, 13),
        Field("amount", DataType(TypeId::kFloat64), true, 14)});
    ColumnBuilder id(DataType(TypeId::kInt64)), region(DataType(TypeId::kVarchar)),
        ts(DataType(TypeId::kTimestamp)), k(DataType(TypeId::kInt32)),
        amount(DataType(TypeId::kFloat64));
    for (const Row& row : rows) {
      id.AppendNumber<int64_t>(row.id);
      region.AppendBytes(row.region);
      ts.AppendNumber<int64_t>(row.ts);
      if (row.k) {
        k.AppendNumber<int32_t>(*row.k);
      } else {
        k.AppendNull();
      }
      amount.AppendNumber<double>(row.amount);
    }
    auto batch = MakeBatch(schema, {id.Finish(), region.Finish(), ts.Finish(), k.Finish(),
                                    amount.Finish()});
    const std::string path = dir_.Join("main/pt/" + relative);
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    auto props = WriterProperties::Builder().max_row_group_rows(64).Build();
    EXPECT_TRUE(props.ok());
    auto writer = ParquetWriter::Open(LocalFileSystem(), path, *batch->schema, *props);
    EXPECT_TRUE(writer.ok()) << writer.status().ToString();
    EXPECT_TRUE((*writer)->Write(*batch).ok());
    auto info = (*writer)->Finish();
    EXPECT_TRUE(info.ok()) << info.status().ToString();
    return {info->file_size, info->footer_size};
  }

  void Build() {
    Exec("INSERT INTO ducklake_snapshot VALUES (11, '2026-12-01 00:00:11+00', 2, 30, 2000), "
         "(12, '2026-12-01 00:00:12+00', 3, 30, 3000)");
    Exec("INSERT INTO ducklake_snapshot_changes VALUES (11, 'created_table:\"main\".\"pt\"', "
         "NULL, NULL, NULL), (12, 'altered_table:2,inserted_into_table:2', NULL, NULL, NULL)");
    Exec("INSERT INTO ducklake_table VALUES (2, '01a22a6c-0000-7000-8000-000000000002', 11, "
         "NULL, 0, 'pt', 'pt/', 1), (3, '01a22a6c-0000-7000-8000-000000000003', 11, NULL, 0, "
         "'pz', 'pz/', 1)");
    Exec("INSERT INTO ducklake_column VALUES "
         "(10, 11, NULL, 2, 1, 'id', 'int64', NULL, 'NULL', 1, NULL, 'literal', 'duckdb'), "
         "(11, 11, NULL, 2, 2, 'region', 'varchar', NULL, 'NULL', 1, NULL, 'literal', 'duckdb'), "
         "(12, 11, NULL, 2, 3, 'ts', 'timestamp', NULL, 'NULL', 1, NULL, 'literal', 'duckdb'), "
         "(13, 11, NULL, 2, 4, 'k', 'int32', NULL, 'NULL', 1, NULL, 'literal', 'duckdb'), "
         "(14, 11, NULL, 2, 5, 'amount', 'float64', NULL, 'NULL', 1, NULL, 'literal', 'duckdb'), "
         "(30, 11, NULL, 3, 1, 'id', 'int64', NULL, 'NULL', 1, NULL, 'literal', 'duckdb'), "
         "(31, 11, NULL, 3, 2, 'tz', 'timestamptz', NULL, 'NULL', 1, NULL, 'literal', 'duckdb')");
    Exec("INSERT INTO ducklake_partition_info VALUES (20, 2, 11, 12), (21, 2, 12, NULL), "
         "(22, 3, 11, NULL)");
    Exec("INSERT INTO ducklake_partition_column VALUES (20, 2, 0, 11, 'identity'), "
         "(20, 2, 1, 12, 'year'), (20, 2, 2, 12, 'month'), (20, 2, 3, 13, 'bucket(4)'), "
         "(22, 3, 0, 31, 'identity')");

    std::map<Key, std::vector<Row>> groups;
    for (const Row& row : rows_) {
      auto [year, month] = YearMonth(row.ts);
      groups[Key{row.region, year, month, BucketOf(row.k)}].push_back(row);
    }
    int64_t file_id = 1000;
    int64_t row_id = 0;
    for (const auto& [key, rows] : groups) {
      const std::string bucket = key.bucket ? std::to_string(*key.bucket) : "__HIVE_DEFAULT_PARTITION__";
      const std::string relative = "region=" + key.region + "/year=" + std::to_string(key.year) +
                                   "/month=" + std::to_string(key.month) + "/bucket=" + bucket +
                                   "/ducklake-" + std::to_string(file_id) + ".parquet";
      auto [size, footer] = WriteFile(relative, rows);
      // Rows of a file get consecutive row ids from row_id_start, in file order.
      for (const Row& row : rows) rowid_of_[row.id] = row_id++;
      const int64_t start = row_id - static_cast<int64_t>(rows.size());
      Exec("INSERT INTO ducklake_data_file VALUES (" + std::to_string(file_id) + ", 2, 11, NULL, "
           "NULL, '" + relative + "', 1, 'parquet', " + std::to_string(rows.size()) + ", " +
           std::to_string(size) + ", " + std::to_string(footer) + ", " + std::to_string(start) +
           ", 20, NULL, NULL, NULL)");
      Exec("INSERT INTO ducklake_file_partition_value VALUES (" + std::to_string(file_id) +
           ", 2, 0, '" + key.region + "'), (" + std::to_string(file_id) + ", 2, 1, '" +
           std::to_string(key.year) + "'), (" + std::to_string(file_id) + ", 2, 2, '" +
           std::to_string(key.month) + "'), (" + std::to_string(file_id) + ", 2, 3, " +
           (key.bucket ? "'" + std::to_string(*key.bucket) + "'" : std::string("NULL")) + ")");
      keys_.push_back(key);
      ++file_id;
    }
    // Snapshot 12: partitioning reset; one more file, unpartitioned.
    std::vector<Row> late;
    for (int64_t id = 5000; id < 5100; ++id) {
      Row row;
      row.id = id;
      row.region = id % 2 ? "east" : "north";
      row.ts = 18300 * kMicrosPerDay + id * 1000000;
      row.k = static_cast<int32_t>(id % 7);
      late.push_back(row);
    }
    auto [size, footer] = WriteFile("ducklake-late.parquet", late);
    Exec("INSERT INTO ducklake_data_file VALUES (1999, 2, 12, NULL, NULL, 'ducklake-late.parquet', "
         "1, 'parquet', 100, " + std::to_string(size) + ", " + std::to_string(footer) + ", " +
         std::to_string(row_id) + ", NULL, NULL, NULL, NULL)");
    late_rows_ = late;
  }

  std::unique_ptr<Lake> Open() {
    auto lake = table_testing::OpenLake(catalog_, dir_.path());
    EXPECT_TRUE(lake.ok()) << lake.status().ToString();
    return lake.ok() ? std::move(lake).value() : nullptr;
  }

  testing::TempDir dir_;
  std::string catalog_;
  std::vector<Row> rows_, late_rows_;
  std::vector<Key> keys_;
  std::map<int64_t, int64_t> rowid_of_;
};

struct Query {
  std::string filter;
  std::function<bool(const Row&)> matches;          // the predicate on a row (NULL = false)
  std::function<bool(const Key&)> keys_rule_out;    // partition keys exclude the file
};

std::set<int64_t> ScanIds(Lake& lake, std::shared_ptr<const TableMetadata> table,
                          const std::string& filter, TableScanMetrics* metrics) {
  TableScanOptions options;
  options.filter = filter;
  options.columns = {"id"};
  auto reader = OpenTableScan(lake, LocalFileSystem(), table, options);
  EXPECT_TRUE(reader.ok()) << reader.status().ToString();
  std::set<int64_t> ids;
  if (!reader.ok()) return ids;
  auto batch = table_testing::Drain(**reader);
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  for (const Value& v : table_testing::ColumnValues(**batch, 0)) ids.insert(v.GetInt64());
  *metrics = (*reader)->metrics();
  return ids;
}

TEST(PartitionLakeTest, ScansPruneByEveryTransformAndStayExact) {
  PartitionedLake built;
  ASSERT_NO_FATAL_FAILURE(built.Build());
  auto lake = built.Open();
  ASSERT_TRUE(lake);
  const int64_t march = 18322 * kMicrosPerDay;  // 2020-03-01
  const int64_t april = 18353 * kMicrosPerDay;  // 2020-04-01
  const std::optional<int32_t> b7 = BucketOf(7);
  const std::optional<int32_t> b1 = BucketOf(1), b2 = BucketOf(2);
  std::vector<Query> queries = {
      {"region = 'east'", [](const Row& r) { return r.region == "east"; },
       [](const Key& k) { return k.region != "east"; }},
      {"ts >= TIMESTAMP '2020-03-01' AND ts < TIMESTAMP '2020-04-01'",
       [&](const Row& r) { return r.ts >= march && r.ts < april; },
       [](const Key& k) { return !(k.year == 2020 && k.month == 3); }},
      {"k = 7", [](const Row& r) { return r.k == 7; },
       [&](const Key& k) { return k.bucket != b7; }},
      {"k IN (1, 2)", [](const Row& r) { return r.k == 1 || r.k == 2; },
       [&](const Key& k) { return k.bucket != b1 && k.bucket != b2; }},
      {"k IS NULL", [](const Row& r) { return !r.k.has_value(); },
       [](const Key& k) { return k.bucket.has_value(); }},
      {"region = 'west' AND k = 7 AND ts < TIMESTAMP '2020-02-01'",
       [&](const Row& r) { return r.region == "west" && r.k == 7 && r.ts < 18293 * kMicrosPerDay; },
       [&](const Key& k) { return k.region != "west" || k.bucket != b7 || k.month != 1; }},
      {"region = 'east' OR k = 7",
       [](const Row& r) { return r.region == "east" || r.k == 7; },
       [&](const Key& k) { return k.region != "east" && k.bucket != b7; }},
      {"NOT (k = 7)", [](const Row& r) { return r.k.has_value() && r.k != 7; },
       [](const Key& k) { return !k.bucket.has_value(); }},
      {"amount > 50", [](const Row& r) { return r.amount > 50; },
       [](const Key&) { return false; }},
  };
  for (int snapshot : {11, 12}) {
    auto table = table_testing::LoadTableAt(*lake, snapshot, "main", "pt");
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    ASSERT_EQ((*table)->data_files.size(), built.keys_.size() + (snapshot == 12 ? 1 : 0));
    // At 12 the table is unpartitioned, but the old files keep their spec.
    EXPECT_EQ((*table)->table->partitioning.has_value() &&
                  !(*table)->table->partitioning->fields.empty(),
              snapshot == 11);
    for (const Query& query : queries) {
      SCOPED_TRACE(query.filter + " at snapshot " + std::to_string(snapshot));
      std::set<int64_t> expected;
      for (const Row& row : built.rows_) {
        if (query.matches(row)) expected.insert(row.id);
      }
      if (snapshot == 12) {
        for (const Row& row : built.late_rows_) {
          if (query.matches(row)) expected.insert(row.id);
        }
      }
      int64_t ruled_out = 0;
      for (const Key& key : built.keys_) ruled_out += query.keys_rule_out(key) ? 1 : 0;
      TableScanMetrics metrics;
      EXPECT_EQ(ScanIds(*lake, *table, query.filter, &metrics), expected);
      EXPECT_EQ(metrics.files_pruned_by_partition, ruled_out);
      EXPECT_EQ(metrics.files_total, static_cast<int64_t>((*table)->data_files.size()));
    }
    // rowids follow the files' row_id_start.
    TableScanOptions options;
    options.with_rowid = true;
    options.columns = {"id"};
    options.filter = "region = 'west' AND k = 3";
    auto batch = table_testing::Scan(*lake, *table, options);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    for (int64_t row = 0; row < (*batch)->num_rows; ++row) {
      EXPECT_EQ((*batch)->column(0).GetValue(row).GetInt64(),
                built.rowid_of_.at((*batch)->column(1).GetValue(row).GetInt64()));
    }
  }
}

TEST(PartitionLakeTest, TimestampTzIdentityValuesStoredAsText) {
  PartitionedLake built;
  ASSERT_NO_FATAL_FAILURE(built.Build());
  // pz(id, tz): one file per tz value, as the extension prints them (UTC, "+00").
  const std::vector<std::pair<std::optional<std::string>, int64_t>> values = {
      {"2020-09-13 12:26:40+00", 1600000000000000LL},
      {"2021-01-01 00:00:00+00", 1609459200000000LL},
      {"1969-12-31 23:59:59.5+00", -500000LL},
      {std::nullopt, 0}};
  int64_t file_id = 3000;
  for (size_t i = 0; i < values.size(); ++i, ++file_id) {
    auto schema = std::make_shared<Schema>(std::vector<Field>{
        Field("id", DataType(TypeId::kInt64), true, 30),
        Field("tz", DataType(TypeId::kTimestampTz), true, 31)});
    ColumnBuilder id(DataType(TypeId::kInt64)), tz(DataType(TypeId::kTimestampTz));
    for (int r = 0; r < 3; ++r) {
      id.AppendNumber<int64_t>(static_cast<int64_t>(i * 10 + r));
      if (values[i].first) {
        tz.AppendNumber<int64_t>(values[i].second);
      } else {
        tz.AppendNull();
      }
    }
    auto batch = MakeBatch(schema, {id.Finish(), tz.Finish()});
    const std::string relative = "f" + std::to_string(i) + ".parquet";
    const std::string path = built.dir_.Join("main/pz/" + relative);
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    auto props = WriterProperties::Builder().Build();
    auto writer = ParquetWriter::Open(LocalFileSystem(), path, *schema, *props);
    ASSERT_TRUE(writer.ok());
    ASSERT_TRUE((*writer)->Write(*batch).ok());
    auto info = (*writer)->Finish();
    ASSERT_TRUE(info.ok());
    built.Exec("INSERT INTO ducklake_data_file VALUES (" + std::to_string(file_id) + ", 3, 11, "
               "NULL, NULL, '" + relative + "', 1, 'parquet', 3, " +
               std::to_string(info->file_size) + ", " + std::to_string(info->footer_size) + ", " +
               std::to_string(100 + i * 3) + ", 22, NULL, NULL, NULL)");
    built.Exec("INSERT INTO ducklake_file_partition_value VALUES (" + std::to_string(file_id) +
               ", 3, 0, " + (values[i].first ? "'" + *values[i].first + "'" : "NULL") + ")");
  }
  auto lake = built.Open();
  ASSERT_TRUE(lake);
  auto table = table_testing::LoadTableAt(*lake, 11, "main", "pz");
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  for (const DataFileInfo& file : (*table)->data_files) {
    ASSERT_EQ(file.partition_values.size(), 1u);
    EXPECT_TRUE(file.partition_values[0].value_known) << Str(file.data_file_id);
  }
  struct Case {
    const char* filter;
    std::set<int64_t> ids;
    int64_t pruned;
  } cases[] = {
      {"tz = TIMESTAMPTZ '2020-09-13 14:26:40+02'", {0, 1, 2}, 3},
      {"tz > TIMESTAMPTZ '2020-01-01 00:00:00+00'", {0, 1, 2, 10, 11, 12}, 2},
      {"tz < TIMESTAMPTZ '1970-01-01 00:00:00+00'", {20, 21, 22}, 3},
      {"tz IS NULL", {30, 31, 32}, 3},
      {"tz IS NOT NULL", {0, 1, 2, 10, 11, 12, 20, 21, 22}, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.filter);
    TableScanMetrics metrics;
    EXPECT_EQ(ScanIds(*lake, *table, c.filter, &metrics), c.ids);
    EXPECT_EQ(metrics.files_pruned_by_partition, c.pruned);
  }
}

}  // namespace
}  // namespace tarn
