// Hand-made lakes: a fixture catalog copied and edited row by row, with data and delete files
// written by tarn's ParquetWriter. Each test states the exact rows a scan or feed must return.
//   - NaN, -NaN, +-inf, -0.0 rows across several row groups under catalog statistics that
//     claim finite bounds with contains_nan (no row may be lost to file or row-group pruning);
//   - a delete file replaced by a cumulative partial one in later snapshots, plus an inlined
//     file deletion; the change feed over those snapshots;
//   - a data file deleted whole; deletion vectors (puffin): a bare one, then a container of
//     cumulative vectors by snapshot; one listing a position outside its file;
//   - a partial data file with embedded row ids and snapshot ids;
//   - inlined rows across a schema change (rename, added column with a default, promotion).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "table/deletion_vector.h"
#include "table/table_test_util.h"
#include "tarn/expr.h"

namespace tarn {
namespace {

using table_testing::ColumnValues;

const double kNaN = std::nan("");

struct HandmadeLake {
  testing::TempDir dir;
  std::string catalog;
  std::string fixture;

  explicit HandmadeLake(const std::string& name) : fixture(name) {
    catalog = table_testing::CopyCatalog(name, dir);
  }
  void Exec(const std::string& sql) {
    auto store = OpenSqliteCatalogStore(catalog, /*read_only=*/false);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    auto changed = (*store)->Execute(sql, {});
    ASSERT_TRUE(changed.ok()) << sql << ": " << changed.status().ToString();
  }
  std::unique_ptr<Lake> Open() {
    auto lake = table_testing::OpenLake(catalog, table_testing::FixtureDir(fixture) + "/data");
    EXPECT_TRUE(lake.ok()) << lake.status().ToString();
    return lake.ok() ? std::move(lake).value() : nullptr;
  }
  // Adds snapshot `id` (schema_version `version`) with a change entry.
  void AddSnapshot(int64_t id, int64_t version) {
    Exec(StrCat("INSERT INTO ducklake_snapshot VALUES (", id, ", '2026-12-01 00:00:0", id % 10,
                "+00', ", version, ", 100, 200)"));
    Exec(StrCat("INSERT INTO ducklake_snapshot_changes VALUES (", id,
                ", 'deleted_from_table:1', NULL, NULL, NULL)"));
  }
};

// Writes `batch` to `path` with row groups of `group_rows` rows; returns (size, footer).
std::pair<int64_t, int64_t> WriteParquet(const std::string& path, const Batch& batch,
                                         int64_t group_rows) {
  auto props = WriterProperties::Builder().max_row_group_rows(group_rows).Build();
  EXPECT_TRUE(props.ok());
  auto writer = ParquetWriter::Open(LocalFileSystem(), path, *batch.schema, *props);
  EXPECT_TRUE(writer.ok()) << writer.status().ToString();
  EXPECT_TRUE((*writer)->Write(batch).ok());
  auto info = (*writer)->Finish();
  EXPECT_TRUE(info.ok()) << info.status().ToString();
  return {info->file_size, info->footer_size};
}

std::shared_ptr<Column> Build(DataType type, const std::vector<Value>& values) {
  ColumnBuilder builder(type);
  for (const Value& value : values) EXPECT_TRUE(builder.Append(value).ok());
  return builder.Finish();
}

Value D(double v) { return Value::Float64(v); }
Value F(double v) { return Value::Double(DataType(TypeId::kFloat32), v); }
Value I32(int64_t v) { return Value::Int(DataType(TypeId::kInt32), v); }
Value I64(int64_t v) { return Value::Int64(v); }

// The `nan` lake (table fl: id INTEGER, x DOUBLE, y FLOAT) plus data file 100, written by tarn
// in row groups of two rows, added at snapshot 8 with row_id_start 1000. Its catalog
// statistics claim x, y in [-1, 1] with contains_nan: a trap for a pruner trusting bounds.
void AddSpecialFloatsFile(HandmadeLake* lake) {
  const double minus_nan = std::copysign(kNaN, -1.0);
  auto schema = std::make_shared<Schema>(std::vector<Field>{
      Field("id", DataType(TypeId::kInt32), true, 1),
      Field("x", DataType(TypeId::kFloat64), true, 2),
      Field("y", DataType(TypeId::kFloat32), true, 3)});
  auto batch = MakeBatch(
      schema,
      {Build(DataType(TypeId::kInt32),
             {I32(100), I32(101), I32(102), I32(103), I32(104), I32(105), I32(106), I32(107)}),
       Build(DataType(TypeId::kFloat64),
             {D(minus_nan), D(1.0), D(kNaN), D(-INFINITY), D(-0.0), D(5.0),
              Value::Null(DataType(TypeId::kFloat64)), D(7.0)}),
       Build(DataType(TypeId::kFloat32),
             {F(minus_nan), F(1.0), F(2.0), F(-0.0), F(INFINITY),
              Value::Null(DataType(TypeId::kFloat32)), F(kNaN), F(7.0)})});
  const std::string path = lake->dir.Join("special.parquet");
  auto [size, footer] = WriteParquet(path, *batch, 2);
  lake->Exec(StrCat("INSERT INTO ducklake_data_file VALUES (100, 1, 8, NULL, NULL, '", path,
                    "', 0, 'parquet', 8, ", size, ", ", footer,
                    ", 1000, NULL, NULL, NULL, NULL)"));
  lake->Exec("INSERT INTO ducklake_file_column_stats VALUES (100, 1, 1, 10, 8, 0, '100', '107', "
             "NULL, NULL), (100, 1, 2, 10, 7, 1, '-1.0', '1.0', 1, NULL), "
             "(100, 1, 3, 10, 7, 1, '-1.0', '1.0', 1, NULL)");
}

std::set<int64_t> Ids(const Batch& batch, int column) {
  std::set<int64_t> ids;
  for (const Value& v : ColumnValues(batch, column)) ids.insert(v.GetInt64());
  return ids;
}

// Scans with the filter, and without it then filtering by hand with the same predicate; the
// two must agree row for row (pruning is the only difference between them).
void ExpectPruningLosesNothing(Lake& lake, std::shared_ptr<const TableMetadata> table,
                               const std::string& filter, TableScanMetrics* metrics = nullptr) {
  SCOPED_TRACE(filter);
  TableScanOptions options;
  options.with_rowid = true;
  auto all = table_testing::Scan(lake, table, options);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  auto predicate = ParseAndBind(filter, *(*all)->schema);
  ASSERT_TRUE(predicate.ok()) << predicate.status().ToString();
  auto want = FilterBatch(**all, **predicate);
  ASSERT_TRUE(want.ok());
  options.filter = filter;
  auto reader = OpenTableScan(lake, LocalFileSystem(), table, options);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto got = table_testing::Drain(**reader);
  ASSERT_TRUE(got.ok()) << got.status().ToString();
  EXPECT_TRUE(table_testing::BatchesEqual(*table_testing::SortBy(**want, 0),
                                          *table_testing::SortBy(**got, 0)));
  if (metrics != nullptr) *metrics = (*reader)->metrics();
}

std::shared_ptr<const TableMetadata> Load(Lake& lake, int64_t snapshot,
                                          const std::string& table = "fl") {
  auto loaded = table_testing::LoadTableAt(lake, snapshot, "main", table);
  EXPECT_TRUE(loaded.ok()) << loaded.status().ToString();
  return loaded.ok() ? *loaded : nullptr;
}

const char* const kFloatPredicates[] = {
    "x > 0", "x < 0", "x >= CAST('inf' AS DOUBLE)", "x > 1e300", "x < -1e300",
    "x = CAST('NaN' AS DOUBLE)", "x = 0", "x = -0.0", "x IS NULL", "x IS NOT NULL",
    "y > 1e30", "y < -1e30", "y = CAST('NaN' AS FLOAT)", "y <= -1", "x BETWEEN -1 AND 1",
    "NOT (x < 5)", "x > 5 OR y > 5", "x <> x", "id >= 106", "rowid >= 1004"};

TEST(HandmadeLakeTest, SpecialFloatsSurviveFileAndRowGroupPruning) {
  HandmadeLake made("nan");
  AddSpecialFloatsFile(&made);
  auto lake = made.Open();
  ASSERT_NE(lake, nullptr);
  for (int64_t snapshot : {2, 4, 6, 8}) {
    auto table = Load(*lake, snapshot);
    ASSERT_NE(table, nullptr);
    for (const char* predicate : kFloatPredicates) {
      ExpectPruningLosesNothing(*lake, table, predicate);
    }
  }
  auto table = Load(*lake, 8);
  // Exact answers at snapshot 8 (fixture rows 30, 31 are NaN and -NaN; NaN of either sign
  // is above every number, as in DuckDB).
  TableScanOptions options;
  options.columns = {"id"};
  options.filter = "x > 5";
  auto rows = table_testing::Scan(*lake, table, options);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(Ids(**rows, 0), (std::set<int64_t>{10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 30, 31,
                                              100, 102, 107}));
  options.filter = "x < 0";
  rows = table_testing::Scan(*lake, table, options);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(Ids(**rows, 0), (std::set<int64_t>{22, 103}));
  options.filter = "y > 1e30";
  rows = table_testing::Scan(*lake, table, options);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(Ids(**rows, 0), (std::set<int64_t>{5, 6, 22, 100, 104, 106}));
  options.filter = "x = 0";  // -0.0 = 0.0
  rows = table_testing::Scan(*lake, table, options);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ(Ids(**rows, 0), (std::set<int64_t>{5, 6, 104}));

  // Pruning does happen where it is sound: row groups by the exact id bounds, files by
  // NaN-free statistics.
  TableScanMetrics metrics;
  ExpectPruningLosesNothing(*lake, table, "id >= 106", &metrics);
  EXPECT_EQ(metrics.row_groups_pruned, 3);
  EXPECT_EQ(metrics.files_pruned_by_stats, 5);  // every fixture file: ids below 106
  // Only the file whose statistics say "no NaN, x in [0, 0]" may go; the others record NaN
  // (the hand-made one despite its finite bounds).
  ExpectPruningLosesNothing(*lake, table, "x > 5", &metrics);
  EXPECT_EQ(metrics.files_pruned_by_stats, 1);
}


// A delete file for data file 100 (`positions`, with per-position snapshots when given),
// registered as delete file `id` visible in [begin, end).
void AddDeleteFile(HandmadeLake* lake, int64_t id, int64_t begin, std::optional<int64_t> end,
                   const std::vector<int64_t>& positions, const std::vector<int64_t>& snapshots,
                   const std::string& format = "parquet") {
  std::vector<Field> fields = {Field("file_path", DataType(TypeId::kVarchar), true, 2147483646),
                               Field("pos", DataType(TypeId::kInt64), true, 2147483645)};
  std::vector<Value> paths, pos, snaps;
  for (size_t i = 0; i < positions.size(); ++i) {
    paths.push_back(Value::Varchar("special.parquet"));
    pos.push_back(I64(positions[i]));
    if (!snapshots.empty()) snaps.push_back(I64(snapshots[i]));
  }
  std::vector<std::shared_ptr<Column>> columns = {Build(DataType(TypeId::kVarchar), paths),
                                                  Build(DataType(TypeId::kInt64), pos)};
  std::optional<int64_t> partial_max;
  if (!snapshots.empty()) {
    fields.emplace_back("_ducklake_internal_snapshot_id", DataType(TypeId::kInt64), true,
                        2147483539);
    columns.push_back(Build(DataType(TypeId::kInt64), snaps));
    partial_max = *std::max_element(snapshots.begin(), snapshots.end());
  }
  auto batch = MakeBatch(std::make_shared<Schema>(fields), columns);
  const std::string path = lake->dir.Join(StrCat("delete-", id, ".parquet"));
  auto [size, footer] = WriteParquet(path, *batch, 1000);
  lake->Exec(StrCat("INSERT INTO ducklake_delete_file VALUES (", id, ", 1, ", begin, ", ",
                    end ? std::to_string(*end) : "NULL", ", 100, '", path, "', 0, '", format,
                    "', ", positions.size(), ", ", size, ", ", footer, ", NULL, ",
                    partial_max ? std::to_string(*partial_max) : "NULL", ")"));
}

std::set<int64_t> RowIdsAt(Lake& lake, int64_t snapshot) {
  TableScanOptions options;
  options.with_rowid = true;
  options.columns = {"id"};
  options.filter = "id >= 100";
  auto rows = table_testing::Scan(lake, Load(lake, snapshot), options);
  EXPECT_TRUE(rows.ok()) << rows.status().ToString();
  return rows.ok() ? Ids(**rows, 0) : std::set<int64_t>{};
}

TEST(HandmadeLakeTest, DeleteFileReplacedInLaterSnapshots) {
  HandmadeLake made("nan");
  AddSpecialFloatsFile(&made);
  made.AddSnapshot(9, 1);
  made.AddSnapshot(10, 1);
  made.AddSnapshot(11, 1);
  made.AddSnapshot(12, 1);
  // Snapshot 9 deletes positions 0 and 3; snapshot 10 replaces that file with a cumulative
  // partial one that also holds 5 (deleted at 10) and 6 (deleted at 12, after the reads
  // below at 10 and 11). Snapshot 11 deletes position 7 through an inlined deletion.
  AddDeleteFile(&made, 101, 9, 10, {0, 3}, {});
  AddDeleteFile(&made, 102, 10, std::nullopt, {0, 3, 5, 6}, {9, 9, 10, 12});
  made.Exec("CREATE TABLE ducklake_inlined_delete_1 (file_id BIGINT, row_id BIGINT, "
            "begin_snapshot BIGINT)");
  made.Exec("INSERT INTO ducklake_inlined_delete_1 VALUES (100, 7, 11)");
  auto lake = made.Open();
  ASSERT_NE(lake, nullptr);
  const std::set<int64_t> all = {1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007};
  EXPECT_EQ(RowIdsAt(*lake, 8), all);
  EXPECT_EQ(RowIdsAt(*lake, 9), (std::set<int64_t>{1001, 1002, 1004, 1005, 1006, 1007}));
  EXPECT_EQ(RowIdsAt(*lake, 10), (std::set<int64_t>{1001, 1002, 1004, 1006, 1007}));
  EXPECT_EQ(RowIdsAt(*lake, 11), (std::set<int64_t>{1001, 1002, 1004, 1006}));
  EXPECT_EQ(RowIdsAt(*lake, 12), (std::set<int64_t>{1001, 1002, 1004}));

  // Deletions between 9 and 12: each position once, at the snapshot that deleted it.
  ChangeFeedOptions feed;
  feed.kind = ChangeFeedKind::kDeletions;
  feed.start_snapshot = 9;
  feed.end_snapshot = 12;
  auto reader = ReadTableChanges(*lake, LocalFileSystem(), "main", "fl", feed);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto rows = table_testing::Drain(**reader);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ((*rows)->schema->field(0).name, "snapshot_id");
  ASSERT_EQ((*rows)->schema->field(1).name, "rowid");
  ASSERT_EQ((*rows)->schema->field(2).name, "id");
  EXPECT_EQ(ColumnValues(**rows, 0), (std::vector<Value>{I64(9), I64(9), I64(10), I64(11),
                                                         I64(12)}));
  EXPECT_EQ(ColumnValues(**rows, 1), (std::vector<Value>{I64(1000), I64(1003), I64(1005),
                                                         I64(1007), I64(1006)}));
  EXPECT_EQ(ColumnValues(**rows, 2), (std::vector<Value>{I32(100), I32(103), I32(105),
                                                         I32(107), I32(106)}));
  // Insertions in the same range: none (the file was added at 8).
  feed.kind = ChangeFeedKind::kInsertions;
  reader = ReadTableChanges(*lake, LocalFileSystem(), "main", "fl", feed);
  ASSERT_TRUE(reader.ok());
  rows = table_testing::Drain(**reader);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)->num_rows, 0);
  feed.start_snapshot = 8;
  reader = ReadTableChanges(*lake, LocalFileSystem(), "main", "fl", feed);
  ASSERT_TRUE(reader.ok());
  rows = table_testing::Drain(**reader);
  ASSERT_TRUE(rows.ok());
  EXPECT_EQ((*rows)->num_rows, 10);  // file 100 and the 2 rows the fixture's UPDATE rewrote at 8
}

TEST(HandmadeLakeTest, DataFileDeletedWhole) {
  HandmadeLake made("nan");
  AddSpecialFloatsFile(&made);
  made.AddSnapshot(9, 1);
  AddDeleteFile(&made, 101, 9, 10, {1}, {});
  made.AddSnapshot(10, 1);
  made.Exec("UPDATE ducklake_data_file SET end_snapshot = 10 WHERE data_file_id = 100");
  auto lake = made.Open();
  ASSERT_NE(lake, nullptr);
  EXPECT_EQ(RowIdsAt(*lake, 9).size(), 7u);
  EXPECT_TRUE(RowIdsAt(*lake, 10).empty());
  ChangeFeedOptions feed;
  feed.kind = ChangeFeedKind::kChanges;
  feed.start_snapshot = 10;
  feed.end_snapshot = 10;
  auto reader = ReadTableChanges(*lake, LocalFileSystem(), "main", "fl", feed);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto rows = table_testing::Drain(**reader);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  // The 7 rows still alive at 9 are deleted at 10; position 1 was deleted at 9 already.
  EXPECT_EQ(ColumnValues(**rows, 1),
            (std::vector<Value>{I64(1000), I64(1002), I64(1003), I64(1004), I64(1005),
                                I64(1006), I64(1007)}));
  for (const Value& type : ColumnValues(**rows, 2)) EXPECT_EQ(type.GetBytes(), "delete");
}

// A deletion-vector delete file (format 'puffin'): the file's bytes and its catalog row.
void AddPuffinDeleteFile(HandmadeLake* lake, int64_t id, int64_t begin, std::optional<int64_t> end,
                         const std::string& bytes, int64_t delete_count, int64_t footer_size,
                         std::optional<int64_t> partial_max) {
  const std::string path = lake->dir.Join(StrCat("delete-", id, ".puffin"));
  std::FILE* out = std::fopen(path.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), out), bytes.size());
  std::fclose(out);
  lake->Exec(StrCat("INSERT INTO ducklake_delete_file VALUES (", id, ", 1, ", begin, ", ",
                    end ? std::to_string(*end) : "NULL", ", 100, '", path, "', 0, 'puffin', ",
                    delete_count, ", ", bytes.size(), ", ", footer_size, ", NULL, ",
                    partial_max ? std::to_string(*partial_max) : "NULL", ")"));
}

TEST(HandmadeLakeTest, PuffinDeleteFilesAreRead) {
  HandmadeLake made("nan");
  AddSpecialFloatsFile(&made);
  made.AddSnapshot(9, 1);
  made.AddSnapshot(10, 1);
  made.AddSnapshot(11, 1);
  // Snapshot 9: one deletion vector {1}. Snapshot 10 replaces it with a Puffin container of
  // cumulative vectors: {0, 1} as of 10, {0, 1, 5} as of 11.
  const std::vector<int64_t> first = {1};
  AddPuffinDeleteFile(&made, 101, 9, 10, table_internal::EncodeDeletionVector(first), 1, 0,
                      std::nullopt);
  int64_t footer = 0;
  const std::string container = table_internal::EncodeDeletionVectorsBySnapshot(
      {{0, 10}, {1, 9}, {5, 11}}, "special.parquet", &footer);
  AddPuffinDeleteFile(&made, 102, 10, std::nullopt, container, 3, footer, 11);
  auto lake = made.Open();
  ASSERT_NE(lake, nullptr);
  const std::set<int64_t> all = {1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007};
  EXPECT_EQ(RowIdsAt(*lake, 8), all);
  EXPECT_EQ(RowIdsAt(*lake, 9), (std::set<int64_t>{1000, 1002, 1003, 1004, 1005, 1006, 1007}));
  EXPECT_EQ(RowIdsAt(*lake, 10), (std::set<int64_t>{1002, 1003, 1004, 1005, 1006, 1007}));
  EXPECT_EQ(RowIdsAt(*lake, 11), (std::set<int64_t>{1002, 1003, 1004, 1006, 1007}));

  // Each deletion once, at the snapshot of the first vector holding it.
  ChangeFeedOptions feed;
  feed.kind = ChangeFeedKind::kDeletions;
  feed.start_snapshot = 9;
  feed.end_snapshot = 11;
  auto reader = ReadTableChanges(*lake, LocalFileSystem(), "main", "fl", feed);
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  auto rows = table_testing::Drain(**reader);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(ColumnValues(**rows, 0), (std::vector<Value>{I64(9), I64(10), I64(11)}));
  EXPECT_EQ(ColumnValues(**rows, 1), (std::vector<Value>{I64(1001), I64(1000), I64(1005)}));
}

TEST(HandmadeLakeTest, DamagedPuffinDeleteFileIsCorruption) {
  HandmadeLake made("nan");
  AddSpecialFloatsFile(&made);
  made.AddSnapshot(9, 1);
  const std::vector<int64_t> positions = {1, 9};  // 9 lies outside the 8-row file
  AddPuffinDeleteFile(&made, 101, 9, std::nullopt,
                      table_internal::EncodeDeletionVector(positions), 2, 0, std::nullopt);
  auto lake = made.Open();
  ASSERT_NE(lake, nullptr);
  auto rows = table_testing::Scan(*lake, Load(*lake, 9), {});
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), StatusCode::kCorruption);
  EXPECT_NE(rows.status().ToString().find("outside data file"), std::string::npos)
      << rows.status().ToString();
  // Before the delete file existed the file reads normally.
  EXPECT_EQ(RowIdsAt(*lake, 8).size(), 8u);
}

TEST(HandmadeLakeTest, DeletePositionOutsideFileIsCorruption) {
  HandmadeLake made("nan");
  AddSpecialFloatsFile(&made);
  made.AddSnapshot(9, 1);
  AddDeleteFile(&made, 101, 9, std::nullopt, {1, 8}, {});
  auto lake = made.Open();
  ASSERT_NE(lake, nullptr);
  auto rows = table_testing::Scan(*lake, Load(*lake, 9), {});
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.status().code(), StatusCode::kCorruption);
  EXPECT_NE(rows.status().ToString().find("position 8 is outside"), std::string::npos)
      << rows.status().ToString();
}

TEST(HandmadeLakeTest, PartialDataFileWithEmbeddedRowIdsAndSnapshots) {
  HandmadeLake made("nan");
  made.AddSnapshot(9, 1);
  made.AddSnapshot(10, 1);
  auto schema = std::make_shared<Schema>(std::vector<Field>{
      Field("id", DataType(TypeId::kInt32), true, 1),
      Field("x", DataType(TypeId::kFloat64), true, 2),
      Field("y", DataType(TypeId::kFloat32), true, 3),
      Field("_ducklake_internal_row_id", DataType(TypeId::kInt64), true, 2147483540),
      Field("_ducklake_internal_snapshot_id", DataType(TypeId::kInt64), true, 2147483539)});
  auto batch = MakeBatch(schema, {Build(DataType(TypeId::kInt32), {I32(200), I32(201), I32(202)}),
                                  Build(DataType(TypeId::kFloat64), {D(1), D(2), D(3)}),
                                  Build(DataType(TypeId::kFloat32), {F(1), F(2), F(3)}),
                                  Build(DataType(TypeId::kInt64), {I64(50), I64(60), I64(70)}),
                                  Build(DataType(TypeId::kInt64), {I64(8), I64(9), I64(10)})});
  const std::string path = made.dir.Join("partial.parquet");
  auto [size, footer] = WriteParquet(path, *batch, 2);
  made.Exec(StrCat("INSERT INTO ducklake_data_file VALUES (100, 1, 8, NULL, NULL, '", path,
                   "', 0, 'parquet', 3, ", size, ", ", footer, ", NULL, NULL, NULL, NULL, 10)"));
  auto lake = made.Open();
  ASSERT_NE(lake, nullptr);
  auto ids_at = [&](int64_t snapshot) {
    TableScanOptions options;
    options.with_rowid = true;
    options.with_snapshot_id = true;
    options.columns = {"id"};
    options.filter = "id >= 200";
    auto rows = table_testing::Scan(*lake, Load(*lake, snapshot), options);
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    return rows.ok() ? table_testing::SortBy(**rows, 1) : nullptr;
  };
  auto at8 = ids_at(8);
  EXPECT_EQ(ColumnValues(*at8, 1), (std::vector<Value>{I64(50)}));
  auto at9 = ids_at(9);
  EXPECT_EQ(ColumnValues(*at9, 1), (std::vector<Value>{I64(50), I64(60)}));
  auto at10 = ids_at(10);
  EXPECT_EQ(ColumnValues(*at10, 0), (std::vector<Value>{I64(8), I64(9), I64(10)}));
  EXPECT_EQ(ColumnValues(*at10, 1), (std::vector<Value>{I64(50), I64(60), I64(70)}));
  EXPECT_EQ(ColumnValues(*at10, 2), (std::vector<Value>{I32(200), I32(201), I32(202)}));
}

TEST(HandmadeLakeTest, InlinedRowsAcrossSchemaChange) {
  HandmadeLake made("inlined");
  // Snapshot 11, schema version 2: rename v -> v2, promote id INTEGER -> BIGINT, add
  // w BIGINT DEFAULT 7; new rows go to a new inlined table of version 2.
  made.Exec("INSERT INTO ducklake_inlined_data_1_1 VALUES (104, 10, NULL, 600, 'old row')");
  made.AddSnapshot(11, 2);
  made.Exec("UPDATE ducklake_column SET end_snapshot = 11 WHERE table_id = 1");
  made.Exec("INSERT INTO ducklake_column VALUES "
            "(1, 11, NULL, 1, 1, 'id', 'int64', NULL, 'NULL', 1, NULL, 'literal', 'duckdb'), "
            "(2, 11, NULL, 1, 2, 'v2', 'varchar', NULL, 'NULL', 1, NULL, 'literal', 'duckdb'), "
            "(3, 11, NULL, 1, 3, 'w', 'int64', '7', '7', 1, NULL, 'literal', 'duckdb')");
  made.Exec("INSERT INTO ducklake_schema_versions VALUES (11, 2, 1)");
  made.Exec("CREATE TABLE ducklake_inlined_data_1_2 (row_id BIGINT, begin_snapshot BIGINT, "
            "end_snapshot BIGINT, id BIGINT, v2 VARCHAR, w BIGINT)");
  made.Exec("INSERT INTO ducklake_inlined_data_tables VALUES (1, 'ducklake_inlined_data_1_2', 2)");
  made.Exec("INSERT INTO ducklake_inlined_data_1_2 VALUES (200, 11, NULL, 900, 'new', 5)");
  auto lake = made.Open();
  ASSERT_NE(lake, nullptr);

  TableScanOptions options;
  options.with_rowid = true;
  auto before = table_testing::Scan(*lake, Load(*lake, 10, "il"), options);
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  auto after = table_testing::Scan(*lake, Load(*lake, 11, "il"), options);
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  auto old_rows = table_testing::SortBy(**before, 0);
  auto new_rows = table_testing::SortBy(**after, 0);
  ASSERT_EQ(new_rows->schema->ToString().find("v2") != std::string::npos, true);
  ASSERT_EQ(new_rows->num_columns(), 4);
  ASSERT_EQ(new_rows->num_rows, old_rows->num_rows + 1);
  // Every old row (files and inlined table 1) keeps its rowid and values under the new
  // schema: id widened, v now v2, w = 7 (the initial default).
  for (int64_t row = 0; row < old_rows->num_rows; ++row) {
    SCOPED_TRACE(row);
    EXPECT_EQ(new_rows->column(0).GetValue(row), old_rows->column(0).GetValue(row));
    EXPECT_EQ(new_rows->column(1).GetValue(row),
              I64(old_rows->column(1).GetValue(row).GetInt64()));
    EXPECT_EQ(new_rows->column(2).GetValue(row), old_rows->column(2).GetValue(row));
    EXPECT_EQ(new_rows->column(3).GetValue(row), I64(7));
  }
  const int64_t last = new_rows->num_rows - 1;
  EXPECT_EQ(new_rows->column(0).GetValue(last), I64(200));
  EXPECT_EQ(new_rows->column(1).GetValue(last), I64(900));
  EXPECT_EQ(new_rows->column(2).GetValue(last), Value::Varchar("new"));
  EXPECT_EQ(new_rows->column(3).GetValue(last), I64(5));
  // The old inlined row is there under both schemas.
  EXPECT_EQ(Ids(*new_rows, 0).count(104), 1u);
  EXPECT_EQ(Ids(*old_rows, 0).count(104), 1u);
  // A predicate on the renamed, promoted and added columns.
  options.filter = "w = 7 AND id >= 600 AND v2 = 'old row'";
  auto filtered = table_testing::Scan(*lake, Load(*lake, 11, "il"), options);
  ASSERT_TRUE(filtered.ok()) << filtered.status().ToString();
  EXPECT_EQ(ColumnValues(**filtered, 0), (std::vector<Value>{I64(104)}));
}

}  // namespace
}  // namespace tarn
