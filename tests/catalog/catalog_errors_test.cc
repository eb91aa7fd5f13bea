// Opening errors and corrupt catalog rows: each gives a clear status naming what was found,
// never a crash. Catalog copies are edited with SQL through tarn's own SqliteCatalogStore.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "support/test_util.h"
#include "tarn/catalog.h"
#include "tarn/lake_maintenance.h"

namespace tarn {
namespace {

using ::testing::HasSubstr;
using testing::FileExists;
using testing::SharedPath;
using testing::TempDir;

std::string FixtureDir(std::string_view name) {
  return SharedPath(StrCat("fixtures/ducklake/", name));
}

// A writable copy of a fixture catalog with `sql` applied (statements separated by ';').
std::string EditedCopy(std::string_view fixture, const TempDir& dir,
                       const std::vector<std::string>& statements) {
  std::string source = FixtureDir(fixture) + "/catalog.sqlite";
  EXPECT_TRUE(FileExists(source));
  std::string target = dir.Join(StrCat(fixture, "-edited.sqlite"));
  std::filesystem::copy_file(source, target, std::filesystem::copy_options::overwrite_existing);
  std::filesystem::permissions(target, std::filesystem::perms::owner_read |
                                           std::filesystem::perms::owner_write);
  auto store = OpenSqliteCatalogStore(target, /*read_only=*/false);
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  for (const std::string& sql : statements) {
    auto changed = (*store)->Execute(sql, {});
    EXPECT_TRUE(changed.ok()) << sql << ": " << changed.status().ToString();
  }
  return target;
}

Result<std::unique_ptr<Lake>> OpenCopy(const std::string& path) {
  return Lake::Open(StrCat("ducklake:sqlite:", path));
}

// Loads the latest snapshot and every table in it; the first error.
Status LoadEverything(const std::string& path) {
  TARN_ASSIGN_OR_RETURN(auto lake, OpenCopy(path));
  TARN_ASSIGN_OR_RETURN(auto snapshot, lake->LoadSnapshot());
  for (const auto& table : snapshot->tables()) {
    TARN_ASSIGN_OR_RETURN(auto metadata, lake->LoadTable(*snapshot, table->table_id));
    for (const InlinedDataTable& inlined : table->inlined_tables) {
      TARN_RETURN_NOT_OK(lake->ReadInlinedRows(*metadata, inlined));
    }
  }
  return Status::OK();
}

TEST(CatalogOpenTest, MissingFile) {
  TempDir dir;
  std::string path = dir.Join("nope.sqlite");
  auto lake = OpenCopy(path);
  ASSERT_FALSE(lake.ok());
  EXPECT_TRUE(lake.status().IsNotFound());
  EXPECT_EQ(lake.status().message(),
            StrCat("DuckLake catalog database '", path, "' does not exist"));
}

TEST(CatalogOpenTest, LocatorForms) {
  // A PostgreSQL locator connects (nothing listens on port 1: IOError naming the server).
  auto postgres = Lake::Open("ducklake:postgres:host=127.0.0.1 port=1 dbname=x");
  EXPECT_EQ(postgres.status().code(), StatusCode::kIOError);
  EXPECT_THAT(postgres.status().message(), HasSubstr("'host=127.0.0.1 port=1 dbname=x'"));
  auto odd = Lake::Open("catalog.txt");
  EXPECT_EQ(odd.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(odd.status().message(), HasSubstr("ducklake:sqlite:PATH"));
  EXPECT_THAT(odd.status().message(), HasSubstr("ducklake:postgres:CONNINFO"));
  EXPECT_EQ(Lake::Open("ducklake:sqlite:").status().code(), StatusCode::kInvalidArgument);
}

TEST(CatalogOpenTest, NotADuckLakeCatalog) {
  TempDir dir;
  std::string path = dir.Join("plain.sqlite");
  std::ofstream(path).close();  // an empty file is an empty SQLite database
  {
    auto store = OpenSqliteCatalogStore(path, false);
    ASSERT_TRUE(store.ok());
    ASSERT_TRUE((*store)->Execute("CREATE TABLE something (a BIGINT)", {}).ok());
  }
  auto lake = OpenCopy(path);
  ASSERT_FALSE(lake.ok());
  EXPECT_EQ(lake.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(lake.status().message(),
            StrCat("SQLite catalog '", path,
                   "' is not a DuckLake catalog: it has no ducklake_metadata table"));
}

TEST(CatalogOpenTest, NotASqliteFile) {
  TempDir dir;
  std::string path = dir.Join("garbage.sqlite");
  std::ofstream(path) << std::string(4096, 'x');
  auto lake = OpenCopy(path);
  ASSERT_FALSE(lake.ok());
  EXPECT_TRUE(lake.status().IsCorruption());
  EXPECT_EQ(lake.status().message(), StrCat("'", path, "' is not a SQLite database"));
}

TEST(CatalogOpenTest, WrongVersion) {
  TempDir dir;
  std::string path =
      EditedCopy("basic", dir, {"UPDATE ducklake_metadata SET value = '0.3' WHERE key = 'version'"});
  auto lake = OpenCopy(path);
  ASSERT_FALSE(lake.ok());
  EXPECT_TRUE(lake.status().IsNotSupported());
  EXPECT_THAT(lake.status().message(),
              HasSubstr("DuckLake catalog version 0.3 is not supported; tarn reads 1.0"));
  std::string missing =
      EditedCopy("nan", dir, {"DELETE FROM ducklake_metadata WHERE key = 'version'"});
  EXPECT_TRUE(OpenCopy(missing).status().IsCorruption());
}

TEST(CatalogOpenTest, EncryptedCatalog) {
  TempDir dir;
  std::string path = EditedCopy(
      "basic", dir, {"UPDATE ducklake_metadata SET value = 'true' WHERE key = 'encrypted'"});
  auto lake = OpenCopy(path);
  ASSERT_FALSE(lake.ok());
  EXPECT_TRUE(lake.status().IsNotSupported());
  EXPECT_THAT(lake.status().message(), HasSubstr("encrypted"));
  std::string odd = EditedCopy(
      "nan", dir, {"UPDATE ducklake_metadata SET value = 'maybe' WHERE key = 'encrypted'"});
  auto bad = OpenCopy(odd);
  EXPECT_TRUE(bad.status().IsCorruption());
  EXPECT_THAT(bad.status().message(), HasSubstr("encrypted = 'maybe'"));
}

TEST(CatalogOpenTest, BadMetadataScope) {
  TempDir dir;
  std::string path = EditedCopy(
      "basic", dir, {"INSERT INTO ducklake_metadata VALUES ('x', 'y', 'galaxy', 3)"});
  auto lake = OpenCopy(path);
  EXPECT_TRUE(lake.status().IsCorruption());
  EXPECT_THAT(lake.status().message(), HasSubstr("unknown scope 'galaxy'"));
}

TEST(CatalogCorruptionTest, UnparsableColumnType) {
  TempDir dir;
  std::string path = EditedCopy(
      "basic", dir,
      {"UPDATE ducklake_column SET column_type = 'intx' WHERE table_id = 1 AND column_id = 2"});
  Status status = LoadEverything(path);
  ASSERT_TRUE(status.IsCorruption()) << status.ToString();
  EXPECT_THAT(status.message(),
              HasSubstr("ducklake_column row (table_id = 1, column_id = 2): column_type 'intx' "
                        "does not parse"));
}

TEST(CatalogCorruptionTest, NonNumericIdAndCount) {
  TempDir dir;
  std::string path = EditedCopy(
      "basic", dir, {"UPDATE ducklake_data_file SET record_count = 'abc' WHERE data_file_id = 2"});
  Status status = LoadEverything(path);
  ASSERT_TRUE(status.IsCorruption()) << status.ToString();
  EXPECT_THAT(status.message(), HasSubstr("ducklake_data_file row"));
  EXPECT_THAT(status.message(), HasSubstr("(data_file_id = 2), column record_count: 'abc' is "
                                          "not a BIGINT"));

  std::string ids = EditedCopy(
      "nan", dir, {"UPDATE ducklake_table SET table_id = 'one' WHERE table_id = 1"});
  Status id_status = LoadEverything(ids);
  ASSERT_TRUE(id_status.IsCorruption()) << id_status.ToString();
  EXPECT_THAT(id_status.message(), HasSubstr("ducklake_table row 1, column table_id: 'one' is "
                                             "not a BIGINT"));
  std::string snap = EditedCopy(
      "nan", dir, {"UPDATE ducklake_snapshot SET snapshot_time = 'yesterday' WHERE snapshot_id = 3"});
  auto snap_lake = OpenCopy(snap);
  ASSERT_TRUE(snap_lake.ok());
  Status time_status = (*snap_lake)->ListSnapshots().status();
  ASSERT_TRUE(time_status.IsCorruption()) << time_status.ToString();
  EXPECT_THAT(time_status.message(),
              HasSubstr("ducklake_snapshot row (snapshot_id = 3): snapshot_time: 'yesterday' "
                        "is not a timestamp"));
  // Snapshot 3 itself cannot load; snapshot 2 still can.
  EXPECT_TRUE((*snap_lake)->LoadSnapshot(SnapshotSelector::Id(3)).status().IsCorruption());
  EXPECT_TRUE((*snap_lake)->LoadSnapshot(SnapshotSelector::Id(2)).ok());
}

TEST(CatalogCorruptionTest, StorageFormsConvertByDeclaredType) {
  TempDir dir;
  // BOOLEAN columns have NUMERIC affinity, so 'false' stays text; it still reads as false.
  std::string path = EditedCopy(
      "basic", dir,
      {"UPDATE ducklake_column SET nulls_allowed = 'false' WHERE column_id = 1",
       "UPDATE ducklake_column SET nulls_allowed = 'true' WHERE column_id = 2",
       "UPDATE ducklake_data_file SET path_is_relative = 'true' WHERE data_file_id = 0"});
  auto lake = OpenCopy(path);
  ASSERT_TRUE(lake.ok());
  auto snapshot = (*lake)->LoadSnapshot();
  ASSERT_TRUE(snapshot.ok()) << snapshot.status().ToString();
  auto t = (*snapshot)->FindTableById(1);
  EXPECT_FALSE(t->FindColumn(1)->nulls_allowed);
  EXPECT_FALSE(t->schema.fields[0].nullable);
  EXPECT_TRUE(t->FindColumn(2)->nulls_allowed);
  auto table = (*lake)->LoadTable(**snapshot, 1);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  EXPECT_TRUE((*table)->data_files[0].path_is_relative);

  std::string bad = EditedCopy(
      "nan", dir, {"UPDATE ducklake_column SET nulls_allowed = 'perhaps' WHERE column_id = 1"});
  Status status = LoadEverything(bad);
  ASSERT_TRUE(status.IsCorruption());
  EXPECT_THAT(status.message(), HasSubstr("column nulls_allowed: 'perhaps' is not a BOOLEAN"));
}

TEST(CatalogCorruptionTest, BrokenColumnTrees) {
  TempDir dir;
  // A child whose parent does not exist.
  std::string orphan = EditedCopy(
      "nested", dir, {"UPDATE ducklake_column SET parent_column = 77 WHERE column_id = 3"});
  Status status = LoadEverything(orphan);
  ASSERT_TRUE(status.IsCorruption()) << status.ToString();
  EXPECT_THAT(status.message(), HasSubstr("parent_column 77 is not a visible column"));
  // A cycle: z's parent becomes its own child p.
  TempDir dir2;
  std::string cycle = EditedCopy(
      "nested", dir2, {"UPDATE ducklake_column SET parent_column = 6 WHERE column_id = 5"});
  Status cycle_status = LoadEverything(cycle);
  ASSERT_TRUE(cycle_status.IsCorruption()) << cycle_status.ToString();
  // A list with two children, a primitive with one.
  TempDir dir3;
  std::string two = EditedCopy(
      "nested", dir3, {"UPDATE ducklake_column SET parent_column = 8 WHERE column_id = 11"});
  Status two_status = LoadEverything(two);
  ASSERT_TRUE(two_status.IsCorruption());
  EXPECT_THAT(two_status.message(), HasSubstr("list column has 2 child columns"));
  TempDir dir4;
  std::string prim = EditedCopy(
      "nested", dir4, {"UPDATE ducklake_column SET parent_column = 1 WHERE column_id = 9"});
  Status prim_status = LoadEverything(prim);
  ASSERT_TRUE(prim_status.IsCorruption());
  EXPECT_THAT(prim_status.message(), HasSubstr("column of type int32 has 1 child columns"));
  // Two visible versions of one column.
  TempDir dir5;
  std::string dup = EditedCopy(
      "nan", dir5,
      {"INSERT INTO ducklake_column SELECT * FROM ducklake_column WHERE column_id = 2"});
  Status dup_status = LoadEverything(dup);
  ASSERT_TRUE(dup_status.IsCorruption());
  EXPECT_THAT(dup_status.message(), HasSubstr("more than one visible version"));
}

TEST(CatalogCorruptionTest, BadDefaultsAndFiles) {
  TempDir dir;
  std::string path = EditedCopy(
      "evolution", dir,
      {"UPDATE ducklake_column SET initial_default = 'forty-two' WHERE column_id = 4"});
  auto lake = OpenCopy(path);
  ASSERT_TRUE(lake.ok());
  auto s3 = (*lake)->LoadSnapshot(SnapshotSelector::Id(3));
  ASSERT_TRUE(s3.status().IsCorruption()) << s3.status().ToString();
  EXPECT_THAT(s3.status().message(), HasSubstr("initial_default: 'forty-two' is not a literal"));

  TempDir dir2;
  std::string two_deletes = EditedCopy(
      "basic", dir2,
      {"INSERT INTO ducklake_delete_file SELECT 99, table_id, begin_snapshot, end_snapshot, "
       "data_file_id, path, path_is_relative, format, delete_count, file_size_bytes, "
       "footer_size, encryption_key, partial_max FROM ducklake_delete_file WHERE "
       "delete_file_id = 12"});
  // Two visible delete files of one data file are a state the official extension writes
  // (a later deletion goes to a new delete file beside the old one): their positions add up.
  Status status = LoadEverything(two_deletes);
  EXPECT_TRUE(status.ok()) << status.ToString();

  TempDir dir3;
  std::string format = EditedCopy(
      "basic", dir3, {"UPDATE ducklake_delete_file SET format = 'orc' WHERE delete_file_id = 12"});
  Status format_status = LoadEverything(format);
  ASSERT_TRUE(format_status.IsCorruption());
  EXPECT_THAT(format_status.message(), HasSubstr("delete file format 'orc'"));

  TempDir dir4;
  std::string negative = EditedCopy(
      "basic", dir4, {"UPDATE ducklake_data_file SET record_count = -5 WHERE data_file_id = 0"});
  EXPECT_TRUE(LoadEverything(negative).IsCorruption());

  TempDir dir5;
  std::string inlined_pos = EditedCopy(
      "inlined", dir5, {"INSERT INTO ducklake_inlined_delete_1 VALUES (3, 1000, 10)"});
  Status pos_status = LoadEverything(inlined_pos);
  ASSERT_TRUE(pos_status.IsCorruption());
  EXPECT_THAT(pos_status.message(), HasSubstr("position 1000 is outside data file 3"));
}

TEST(CatalogCorruptionTest, UndecodableStatsAreUnknownBounds) {
  TempDir dir;
  std::string path = EditedCopy(
      "basic", dir,
      {"UPDATE ducklake_file_column_stats SET min_value = 'zz', max_value = '1e999x' WHERE "
       "data_file_id = 0 AND column_id IN (1, 8, 11, 18, 19)"});
  auto lake = OpenCopy(path);
  ASSERT_TRUE(lake.ok());
  auto snapshot = (*lake)->LoadSnapshot();
  ASSERT_TRUE(snapshot.ok());
  auto table = (*lake)->LoadTable(**snapshot, 1);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  for (int64_t column : {1, 8, 11, 18, 19}) {
    const FileColumnStats* stats = (*table)->data_files[0].FindStats(column);
    ASSERT_NE(stats, nullptr);
    EXPECT_TRUE(stats->min.is_null()) << column;
    EXPECT_TRUE(stats->max.is_null()) << column;
    EXPECT_EQ(stats->min_text, "zz");
  }
  EXPECT_FALSE((*table)->data_files[0].FindStats(2)->max.is_null());
}

TEST(CatalogCorruptionTest, InlinedValuesInOtherStorageForms) {
  TempDir dir;
  // id (INTEGER affinity): '77' becomes 77; a REAL 78.0; v as a BLOB.
  std::string path = EditedCopy(
      "inlined", dir,
      {"INSERT INTO ducklake_inlined_data_1_1 VALUES (200, 10, NULL, '77', X'6869')",
       "INSERT INTO ducklake_inlined_data_1_1 VALUES (201, 10, NULL, 78.0, 5)"});
  auto lake = OpenCopy(path);
  ASSERT_TRUE(lake.ok());
  auto snapshot = (*lake)->LoadSnapshot();
  ASSERT_TRUE(snapshot.ok());
  auto table = (*lake)->LoadTable(**snapshot, 1);
  ASSERT_TRUE(table.ok());
  auto batch = (*lake)->ReadInlinedRows(**table, (*snapshot)->FindTableById(1)->inlined_tables[0]);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  ASSERT_EQ((*batch)->num_rows, 2);
  EXPECT_EQ((*batch)->column(3).GetValue(0), Value::Int(DataType(TypeId::kInt32), 77));
  EXPECT_EQ((*batch)->column(4).GetValue(0), Value::Varchar("hi"));
  EXPECT_EQ((*batch)->column(3).GetValue(1), Value::Int(DataType(TypeId::kInt32), 78));
  EXPECT_EQ((*batch)->column(4).GetValue(1), Value::Varchar("5"));

  TempDir dir2;
  std::string bad = EditedCopy(
      "inlined", dir2,
      {"INSERT INTO ducklake_inlined_data_1_1 VALUES (300, 10, NULL, 'abc', 'x')"});
  Status status = LoadEverything(bad);
  ASSERT_TRUE(status.IsCorruption()) << status.ToString();
  EXPECT_THAT(status.message(),
              HasSubstr("ducklake_inlined_data_1_1 row (row_id = 300): column id: 'abc' is not "
                        "a literal value of type int32"));
  TempDir dir3;
  std::string wide = EditedCopy(
      "inlined", dir3,
      {"INSERT INTO ducklake_inlined_data_1_1 VALUES (301, 10, NULL, 5000000000, 'x')"});
  Status wide_status = LoadEverything(wide);
  ASSERT_TRUE(wide_status.IsCorruption()) << wide_status.ToString();
  EXPECT_THAT(wide_status.message(), HasSubstr("out of range for int32"));
  TempDir dir4;
  std::string missing = EditedCopy(
      "inlined", dir4,
      {"UPDATE ducklake_inlined_data_tables SET table_name = 'ducklake_inlined_data_1_9'"});
  Status missing_status = LoadEverything(missing);
  ASSERT_TRUE(missing_status.IsCorruption());
  EXPECT_THAT(missing_status.message(), HasSubstr("ducklake_inlined_data_1_9 does not exist"));
}

TEST(CatalogCorruptionTest, LiveTableWithoutColumns) {
  TempDir dir;
  std::string path = EditedCopy("basic", dir, {"DELETE FROM ducklake_column WHERE table_id = 1"});
  Status status = LoadEverything(path);
  ASSERT_TRUE(status.IsCorruption()) << status.ToString();
  EXPECT_EQ(status.message(),
            StrCat("SQLite catalog '", path,
                   "': ducklake_table row (table_id = 1): table main.t has no columns in "
                   "ducklake_column at snapshot 10"));
  // Before its columns existed too: a table whose columns all begin later has none.
  std::string later = EditedCopy(
      "nan", dir, {"UPDATE ducklake_column SET begin_snapshot = 100 WHERE table_id = 1"});
  Status later_status = LoadEverything(later);
  ASSERT_TRUE(later_status.IsCorruption()) << later_status.ToString();
  EXPECT_THAT(later_status.message(), HasSubstr("has no columns in ducklake_column"));
  // An inlined data table whose schema version has no columns.
  std::string inlined = EditedCopy(
      "inlined", dir,
      {"INSERT INTO ducklake_schema_versions VALUES (0, 0, 1)",
       "UPDATE ducklake_inlined_data_tables SET schema_version = 0"});
  auto lake = OpenCopy(inlined);
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto snapshot = (*lake)->LoadSnapshot();
  ASSERT_TRUE(snapshot.status().IsCorruption()) << snapshot.status().ToString();
  EXPECT_THAT(snapshot.status().message(),
              HasSubstr("ducklake_inlined_data_tables row (table_id = 1, table_name = "
                        "'ducklake_inlined_data_1_1'): inlined data table "
                        "ducklake_inlined_data_1_1 of table main.il has no columns"));
}

TEST(CatalogCorruptionTest, DeleteFileOfNoDataFile) {
  TempDir dir;
  // The deletions of a delete file whose data file does not exist must not be dropped.
  std::string path = EditedCopy(
      "basic", dir, {"UPDATE ducklake_delete_file SET data_file_id = 999 WHERE delete_file_id = 12"});
  Status status = LoadEverything(path);
  ASSERT_TRUE(status.IsCorruption()) << status.ToString();
  EXPECT_EQ(status.message(),
            StrCat("SQLite catalog '", path,
                   "': ducklake_delete_file row (delete_file_id = 12): data_file_id 999 names no "
                   "row of ducklake_data_file"));
  // A data file of another table.
  std::string other = EditedCopy(
      "nan", dir,
      {"INSERT INTO ducklake_data_file (data_file_id, table_id, begin_snapshot, path) VALUES "
       "(500, 77, 1, 'x.parquet')",
       "INSERT INTO ducklake_delete_file (delete_file_id, table_id, begin_snapshot, data_file_id, "
       "path, format, delete_count, file_size_bytes) VALUES (501, 1, 1, 500, 'y.parquet', "
       "'parquet', 1, 10)"});
  Status other_status = LoadEverything(other);
  ASSERT_TRUE(other_status.IsCorruption()) << other_status.ToString();
  EXPECT_THAT(other_status.message(),
              HasSubstr("ducklake_delete_file row (delete_file_id = 501): data_file_id 500 is a "
                        "data file of table_id 77, not of table_id 1"));
  // A delete file older than its data file, visible or not at the snapshot.
  std::string early = EditedCopy(
      "basic", dir, {"UPDATE ducklake_delete_file SET begin_snapshot = 3 WHERE delete_file_id = 12"});
  Status early_status = LoadEverything(early);
  ASSERT_TRUE(early_status.IsCorruption()) << early_status.ToString();
  EXPECT_THAT(early_status.message(),
              HasSubstr("ducklake_delete_file row (delete_file_id = 12): data_file_id 6 begins at "
                        "snapshot 6, after its deletion (begin_snapshot 3)"));
  auto lake = OpenCopy(early);
  ASSERT_TRUE(lake.ok());
  auto s4 = (*lake)->LoadSnapshot(SnapshotSelector::Id(4));
  ASSERT_TRUE(s4.ok()) << s4.status().ToString();
  Status hidden = (*lake)->LoadTable(**s4, 1).status();
  ASSERT_TRUE(hidden.IsCorruption()) << hidden.ToString();
  EXPECT_THAT(hidden.message(), HasSubstr("after its deletion"));
  // A delete file kept after its data file was deleted whole stays valid (the fixture has
  // one: delete file 7 of data file 1, which ends at snapshot 8).
  std::string fine = EditedCopy("basic", dir, {});
  EXPECT_TRUE(LoadEverything(fine).ok());
}

TEST(CatalogCorruptionTest, InlinedTableMissingAColumnIsNamedNeverReadAsText) {
  TempDir dir;
  // SQLite's legacy rule would read "v" as the string 'v' once the column is gone.
  std::string path =
      EditedCopy("inlined", dir, {"ALTER TABLE ducklake_inlined_data_1_1 RENAME COLUMN v TO w"});
  Status status = LoadEverything(path);
  ASSERT_TRUE(status.IsCorruption()) << status.ToString();
  EXPECT_EQ(status.message(),
            StrCat("SQLite catalog '", path,
                   "': inlined data table ducklake_inlined_data_1_1 has no column v (column_id "
                   "2 at schema version 1)"));
  std::string dropped = EditedCopy(
      "inlined", dir, {"ALTER TABLE ducklake_inlined_data_1_1 DROP COLUMN begin_snapshot"});
  Status dropped_status = LoadEverything(dropped);
  ASSERT_TRUE(dropped_status.IsCorruption()) << dropped_status.ToString();
  EXPECT_THAT(dropped_status.message(),
              HasSubstr("inlined data table ducklake_inlined_data_1_1 has no column "
                        "begin_snapshot"));
}

// Maintenance reads catalog rows too: a schedule time that is not a timestamp names its row,
// and nothing is deleted.
TEST(CatalogCorruptionTest, ScheduledDeletionWithoutATime) {
  TempDir dir;
  std::string path = EditedCopy(
      "basic", dir,
      {"UPDATE ducklake_files_scheduled_for_deletion SET schedule_start = 'soon' WHERE "
       "data_file_id = 3"});
  auto lake = OpenCopy(path);
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto cleaned = CleanupOldFiles(**lake, nullptr, CleanupOptions{});
  ASSERT_TRUE(cleaned.status().IsCorruption()) << cleaned.status().ToString();
  EXPECT_THAT(cleaned.status().message(),
              HasSubstr(StrCat("SQLite catalog '", path,
                               "': ducklake_files_scheduled_for_deletion row (data_file_id = 3): "
                               "schedule_start: 'soon' is not a timestamp")));
}

TEST(CatalogStoreTest, DoubleQuotedNamesAreNeverStringLiterals) {
  TempDir dir;
  std::string path = EditedCopy("basic", dir, {});
  for (bool read_only : {true, false}) {
    auto store = OpenSqliteCatalogStore(path, read_only);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    CatalogQuery query;
    query.sql = "SELECT \"no_such_column\" FROM ducklake_metadata";
    query.what = "ducklake_metadata";
    auto result = (*store)->Query(query);
    ASSERT_FALSE(result.ok()) << "read_only " << read_only;
    EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(result.status().message(), HasSubstr("no such column: no_such_column"));
    // In DDL too: "word" names no column of x.
    auto ddl = (*store)->Execute("CREATE TABLE x (a TEXT CHECK (a <> \"word\"))", {});
    ASSERT_FALSE(ddl.ok()) << "read_only " << read_only;
    if (!read_only) {
      EXPECT_THAT(ddl.status().message(), HasSubstr("no such column: word"));
    }
  }
}

// Values outside their domain: each a Corruption naming the catalog table, the row and the
// column, whichever part of the loader reads it.
struct DomainCase {
  const char* name;
  const char* fixture;
  std::vector<std::string> statements;
  const char* message;  // a part of the expected message
};

class CatalogDomainTest : public ::testing::TestWithParam<DomainCase> {};

TEST_P(CatalogDomainTest, IsACorruptionNamingTheRow) {
  const DomainCase& c = GetParam();
  TempDir dir;
  std::string path = EditedCopy(c.fixture, dir, c.statements);
  Status status = LoadEverything(path);
  ASSERT_TRUE(status.IsCorruption()) << status.ToString();
  EXPECT_THAT(status.message(), HasSubstr(c.message));
  EXPECT_THAT(status.message(), HasSubstr(StrCat("SQLite catalog '", path, "'")));
}

INSTANTIATE_TEST_SUITE_P(
    Rows, CatalogDomainTest,
    ::testing::Values(
        DomainCase{"NegativeCounter", "basic",
                   {"UPDATE ducklake_snapshot SET next_file_id = -1 WHERE snapshot_id = 10"},
                   "ducklake_snapshot row (snapshot_id = 10): next_file_id is negative (-1)"},
        DomainCase{"NegativeSchemaId", "basic",
                   {"UPDATE ducklake_schema SET schema_id = -4",
                    "UPDATE ducklake_table SET schema_id = -4"},
                   "ducklake_schema row (schema_id = -4): schema_id is negative (-4)"},
        DomainCase{"NegativeTableId", "nan",
                   {"UPDATE ducklake_table SET table_id = -3",
                    "UPDATE ducklake_column SET table_id = -3"},
                   "ducklake_table row (table_id = -3): table_id is negative (-3)"},
        DomainCase{"NegativeViewId", "basic",
                   {"INSERT INTO ducklake_view VALUES (-7, 'u', 2, NULL, 0, 'v', 'duckdb', "
                    "'SELECT 1', '')"},
                   "ducklake_view row (view_id = -7): view_id is negative (-7)"},
        DomainCase{"NegativeColumnId", "nan",
                   {"UPDATE ducklake_column SET column_id = -2 WHERE column_id = 2"},
                   "ducklake_column row (table_id = 1, column_id = -2): column_id is negative"},
        DomainCase{"NegativeSortId", "basic",
                   {"INSERT INTO ducklake_sort_info VALUES (-8, 1, 2, NULL)",
                    "INSERT INTO ducklake_sort_expression VALUES (-8, 1, 0, 'id', 'duckdb', "
                    "'ASC', 'NULLS_LAST')"},
                   "sort_id is negative (-8)"},
        DomainCase{"RepeatedSortKey", "basic",
                   {"INSERT INTO ducklake_sort_info VALUES (1, 1, 2, NULL)",
                    "INSERT INTO ducklake_sort_expression VALUES (1, 1, 0, 'id', 'duckdb', "
                    "'ASC', 'NULLS_LAST'), (1, 1, 0, 's', 'duckdb', 'ASC', 'NULLS_LAST')"},
                   "ducklake_sort_expression of sort_id 1 has sort_key_index 0 twice"},
        DomainCase{"InlinedRegistryNamesAnotherTable", "inlined",
                   {"UPDATE ducklake_inlined_data_tables SET table_name = 'ducklake_snapshot'"},
                   "table_name 'ducklake_snapshot' is not an inlined data table"},
        DomainCase{"NegativeInlinedRowId", "inlined",
                   {"INSERT INTO ducklake_inlined_data_1_1 VALUES (-5, 10, NULL, 1, 'x')"},
                   "ducklake_inlined_data_1_1 row (row_id = -5): row_id is negative"},
        DomainCase{"NegativeTableStats", "basic",
                   {"UPDATE ducklake_table_stats SET next_row_id = -1"},
                   "ducklake_table_stats row (table_id = 1): negative record_count, next_row_id "
                   "or file_size_bytes (13043, -1, "},
        DomainCase{"NegativeDataFileId", "basic",
                   {"UPDATE ducklake_data_file SET data_file_id = -14 WHERE data_file_id = 14"},
                   "ducklake_data_file row (data_file_id = -14): data_file_id is negative"},
        DomainCase{"RowIdsOverflow", "basic",
                   {"UPDATE ducklake_data_file SET row_id_start = 9223372036854775000 WHERE "
                    "data_file_id = 0"},
                   "row_id_start 9223372036854775000 + record_count 5000 overflows"},
        DomainCase{"PartialMaxBeforeBegin", "compacted",
                   {"UPDATE ducklake_data_file SET partial_max = 0 WHERE partial_max IS NOT "
                    "NULL"},
                   "partial_max 0 is before begin_snapshot"},
        DomainCase{"NegativePartitionId", "basic",
                   {"UPDATE ducklake_data_file SET partition_id = -1 WHERE data_file_id = 0"},
                   "negative partition_id or mapping_id"},
        DomainCase{"NegativeDeleteFileId", "basic",
                   {"UPDATE ducklake_delete_file SET delete_file_id = -12 WHERE "
                    "delete_file_id = 12"},
                   "ducklake_delete_file row (delete_file_id = -12): delete_file_id is negative"},
        DomainCase{"MoreDeletesThanRows", "basic",
                   {"UPDATE ducklake_delete_file SET delete_count = 937 WHERE delete_file_id = 12"},
                   "delete_count 937 exceeds the 936 rows of data file 6"},
        DomainCase{"NegativeStatisticsCount", "basic",
                   {"UPDATE ducklake_file_column_stats SET null_count = -1 WHERE data_file_id = 0 "
                    "AND column_id = 1"},
                   "ducklake_file_column_stats row (data_file_id = 0, column_id = 1): negative "
                   "column_size_bytes, value_count or null_count"},
        DomainCase{"InlinedDeleteOfAnotherTablesFile", "inlined",
                   {"INSERT INTO ducklake_data_file (data_file_id, table_id, begin_snapshot, "
                    "path) VALUES (50, 9, 1, 'x.parquet')",
                    "INSERT INTO ducklake_inlined_delete_1 VALUES (50, 0, 10)"},
                   "ducklake_inlined_delete_1 row (file_id = 50, row_id = 0): file_id 50 is a "
                   "data file of table_id 9, not of table_id 1"},
        DomainCase{"NameMappingParentMissing", "basic",
                   {"INSERT INTO ducklake_column_mapping VALUES (50, 1, 'map_by_name')",
                    "INSERT INTO ducklake_name_mapping VALUES (50, 0, 'ID', 1, 7, 0)",
                    "UPDATE ducklake_data_file SET mapping_id = 50 WHERE data_file_id = 14"},
                   "ducklake_name_mapping of mapping_id 50, entry column_id 0: parent_column 7 "
                   "is not another entry of the mapping"},
        DomainCase{"NameMappingEntryTwice", "basic",
                   {"INSERT INTO ducklake_column_mapping VALUES (50, 1, 'map_by_name')",
                    "INSERT INTO ducklake_name_mapping VALUES (50, 0, 'ID', 1, NULL, 0), "
                    "(50, 0, 'S', 10, NULL, 0)",
                    "UPDATE ducklake_data_file SET mapping_id = 50 WHERE data_file_id = 14"},
                   "ducklake_name_mapping of mapping_id 50 has entry column_id 0 twice"},
        DomainCase{"MappingIdWithoutMapping", "basic",
                   {"UPDATE ducklake_data_file SET mapping_id = 51 WHERE data_file_id = 14"},
                   "data files of table 1 use mapping_id 51, which has no "
                   "ducklake_column_mapping row"},
        DomainCase{"UnknownMappingType", "basic",
                   {"INSERT INTO ducklake_column_mapping VALUES (50, 1, 'map_by_id')",
                    "UPDATE ducklake_data_file SET mapping_id = 50 WHERE data_file_id = 14"},
                   "column mapping type 'map_by_id' is not known (map_by_name)"},
        // Missing referenced rows and values outside their domain, one case per check of
        // the loader that no other test reaches.
        DomainCase{"NoSnapshots", "basic", {"DELETE FROM ducklake_snapshot"},
                   "ducklake_snapshot has no rows"},
        DomainCase{"UnknownMetadataScope", "basic",
                   {"INSERT INTO ducklake_metadata VALUES ('x', 'y', 'column', 1)"},
                   "unknown scope 'column' (expected NULL, 'schema' or 'table')"},
        DomainCase{"SchemaTwiceVisible", "basic",
                   {"INSERT INTO ducklake_schema SELECT * FROM ducklake_schema"},
                   "ducklake_schema row (schema_id = 0): schema_id has more than one visible "
                   "version at snapshot 10"},
        DomainCase{"ViewOfNoSchema", "basic",
                   {"INSERT INTO ducklake_view VALUES (7, 'u', 2, NULL, 42, 'v', 'duckdb', "
                    "'SELECT 1', '')"},
                   "ducklake_view row (view_id = 7): schema_id 42 is not a visible schema at "
                   "snapshot 10"},
        DomainCase{"ViewAliasesUnterminated", "basic",
                   {"INSERT INTO ducklake_view VALUES (7, 'u', 2, NULL, 0, 'v', 'duckdb', "
                    "'SELECT 1', '\"k')"},
                   "ducklake_view row (view_id = 7): column_aliases: unterminated quoted name"},
        DomainCase{"MacroOfNoSchema", "basic",
                   {"INSERT INTO ducklake_macro VALUES (42, 7, 'f', 2, NULL)",
                    "INSERT INTO ducklake_macro_impl VALUES (7, 0, 'duckdb', '1', 'scalar')"},
                   "ducklake_macro row (macro_id = 7): schema_id 42 is not a visible schema at "
                   "snapshot 10"},
        DomainCase{"MacroWithoutImplementation", "basic",
                   {"INSERT INTO ducklake_macro VALUES (0, 7, 'f', 2, NULL)"},
                   "macro main.f (macro_id 7) has no row in ducklake_macro_impl"},
        DomainCase{"MacroImplIdsWithAGap", "basic",
                   {"INSERT INTO ducklake_macro VALUES (0, 7, 'f', 2, NULL)",
                    "INSERT INTO ducklake_macro_impl VALUES (7, 1, 'duckdb', '1', 'scalar')"},
                   "ducklake_macro_impl row (macro_id = 7, impl_id = 1): impl_id 1 of macro f "
                   "is not 0 (impl ids count up from 0)"},
        DomainCase{"MacroImplOfUnknownType", "basic",
                   {"INSERT INTO ducklake_macro VALUES (0, 7, 'f', 2, NULL)",
                    "INSERT INTO ducklake_macro_impl VALUES (7, 0, 'duckdb', '1', 'window')"},
                   "type is 'window', not 'scalar' or 'table'"},
        DomainCase{"MacroParameterOfNoImplementation", "basic",
                   {"INSERT INTO ducklake_macro VALUES (0, 7, 'f', 2, NULL)",
                    "INSERT INTO ducklake_macro_impl VALUES (7, 0, 'duckdb', 'x', 'scalar')",
                    "INSERT INTO ducklake_macro_parameters VALUES (7, 3, 0, 'x', 'unknown', "
                    "NULL, 'unknown')"},
                   "ducklake_macro_parameters row (macro_id = 7, impl_id = 3, column_id = 0): "
                   "impl_id 3 is not an implementation of macro f"},
        DomainCase{"MacroParameterPositionsWithAGap", "basic",
                   {"INSERT INTO ducklake_macro VALUES (0, 7, 'f', 2, NULL)",
                    "INSERT INTO ducklake_macro_impl VALUES (7, 0, 'duckdb', 'x', 'scalar')",
                    "INSERT INTO ducklake_macro_parameters VALUES (7, 0, 1, 'x', 'unknown', "
                    "NULL, 'unknown')"},
                   "column_id 1 of macro f is not 0 (parameter positions count up from 0)"},
        DomainCase{"NegativeInlinedSchemaVersion", "inlined",
                   {"UPDATE ducklake_inlined_data_tables SET schema_version = -1"},
                   "schema_version is negative (-1)"},
        DomainCase{"StructWithoutChildren", "nested",
                   {"DELETE FROM ducklake_column WHERE parent_column = 5"},
                   "struct column has no child columns"},
        DomainCase{"MapWithOneChild", "nested",
                   {"DELETE FROM ducklake_column WHERE column_id = 14"},
                   "map column has 1 child columns (expected key and value)"},
        DomainCase{"TableStatsTwice", "basic",
                   {"INSERT INTO ducklake_table_stats SELECT * FROM ducklake_table_stats"},
                   "ducklake_table_stats has 2 rows for table_id 1"},
        DomainCase{"DataFileTwiceVisible", "basic",
                   {"INSERT INTO ducklake_data_file SELECT * FROM ducklake_data_file WHERE "
                    "data_file_id = 0"},
                   "ducklake_data_file has two visible rows with data_file_id 0"},
        DomainCase{"DataFileOfUnknownFormat", "basic",
                   {"UPDATE ducklake_data_file SET file_format = 'orc' WHERE data_file_id = 0"},
                   "ducklake_data_file row (data_file_id = 0): file_format 'orc' is not "
                   "supported (only parquet)"},
        DomainCase{"FileStatisticsTwice", "basic",
                   {"INSERT INTO ducklake_file_column_stats SELECT * FROM "
                    "ducklake_file_column_stats WHERE data_file_id = 0 AND column_id = 1"},
                   "ducklake_file_column_stats has two rows for data_file_id 0, column_id 1"},
        DomainCase{"DeleteFilePartialMaxBeforeBegin", "basic",
                   {"UPDATE ducklake_delete_file SET partial_max = 1 WHERE delete_file_id = 12"},
                   "ducklake_delete_file row (delete_file_id = 12): partial_max 1 is before "
                   "begin_snapshot"},
        DomainCase{"PartitionColumnOfNoColumn", "partitioned2",
                   {"INSERT INTO ducklake_partition_column VALUES (5, 1, 0, 99, 'identity')"},
                   "partition column_id 99 is not a column of table 1 at snapshot 14"},
        DomainCase{"TwoVisiblePartitionSpecs", "partitioned2",
                   {"UPDATE ducklake_partition_info SET end_snapshot = NULL WHERE "
                    "partition_id = 4"},
                   "has two visible partition specs"},
        DomainCase{"PartitionKeyIndexesWithAGap", "partitioned2",
                   {"INSERT INTO ducklake_partition_column VALUES (5, 1, 1, 2, 'identity')"},
                   "ducklake_partition_column of partition 5 has key indexes that are not 0..0"},
        DomainCase{"UnknownPartitionTransform", "partitioned2",
                   {"INSERT INTO ducklake_partition_column VALUES (5, 1, 0, 2, 'fortnight')"},
                   "ducklake_partition_column row (partition_id = 5, table_id = 1, "
                   "partition_key_index = 0): "},
        DomainCase{"PartitionValueOfNoKey", "partitioned2",
                   {"UPDATE ducklake_file_partition_value SET partition_key_index = 7 WHERE "
                    "data_file_id = 57 AND partition_key_index = 1"},
                   "ducklake_file_partition_value row (data_file_id = 57, partition_key_index "
                   "= 7): partition_key_index 7 is not a key of partition 2"},
        DomainCase{"PartitionIdWithoutColumns", "partitioned2",
                   {"UPDATE ducklake_data_file SET partition_id = 5 WHERE data_file_id = 57"},
                   "partition_id 5 of data file 57 has no ducklake_partition_column rows"},
        DomainCase{"TwoVisibleSortSpecs", "sorted",
                   {"UPDATE ducklake_sort_info SET end_snapshot = NULL"},
                   "table 1 has two visible sort specs at snapshot 10"},
        DomainCase{"UnknownSortDirection", "sorted",
                   {"UPDATE ducklake_sort_info SET end_snapshot = NULL WHERE sort_id = 3",
                    "UPDATE ducklake_sort_expression SET sort_direction = 'UP' WHERE sort_id = 3"},
                   "ducklake_sort_expression row (sort_id = 3, table_id = 1, sort_key_index = "
                   "0): sort_direction 'UP' (expected ASC or DESC)"},
        DomainCase{"UnknownNullOrder", "sorted",
                   {"UPDATE ducklake_sort_info SET end_snapshot = NULL WHERE sort_id = 3",
                    "UPDATE ducklake_sort_expression SET null_order = 'NULLS_MIDDLE' WHERE "
                    "sort_id = 3"},
                   "null_order 'NULLS_MIDDLE' (expected NULLS_FIRST or NULLS_LAST)"}),
    [](const ::testing::TestParamInfo<DomainCase>& param_info) { return param_info.param.name; });

TEST(CatalogFeatureTest, PartitionSpecsAndValues) {
  TempDir dir;
  std::string path = EditedCopy(
      "basic", dir,
      {"INSERT INTO ducklake_partition_info VALUES (100, 1, 1, 3)",
       "INSERT INTO ducklake_partition_column VALUES (100, 1, 0, 1, 'bucket(16)')",
       "INSERT INTO ducklake_partition_info VALUES (101, 1, 3, NULL)",
       "INSERT INTO ducklake_partition_column VALUES (101, 1, 1, 10, 'identity'), "
       "(101, 1, 0, 11, 'year'), (101, 1, 2, 12, 'hour')",
       "UPDATE ducklake_data_file SET partition_id = 100 WHERE data_file_id = 0",
       "UPDATE ducklake_data_file SET partition_id = 101 WHERE data_file_id = 2",
       "INSERT INTO ducklake_file_partition_value VALUES (0, 1, 0, '7'), (2, 1, 0, '2020'), "
       "(2, 1, 1, 'str_5'), (2, 1, 2, NULL)"});
  auto lake = OpenCopy(path);
  ASSERT_TRUE(lake.ok());
  auto s2 = (*lake)->LoadSnapshot(SnapshotSelector::Id(2));
  ASSERT_TRUE(s2.ok()) << s2.status().ToString();
  const auto& spec2 = (*s2)->FindTableById(1)->partitioning;
  ASSERT_TRUE(spec2.has_value());
  EXPECT_EQ(spec2->partition_id, 100);
  ASSERT_EQ(spec2->fields.size(), 1u);
  EXPECT_EQ(spec2->fields[0].transform, PartitionTransform::kBucket);
  EXPECT_EQ(spec2->fields[0].bucket_count, 16);
  EXPECT_EQ(spec2->fields[0].result_type, DataType(TypeId::kInt32));

  auto s10 = (*lake)->LoadSnapshot();
  ASSERT_TRUE(s10.ok());
  const auto& spec = (*s10)->FindTableById(1)->partitioning;
  ASSERT_TRUE(spec.has_value());
  EXPECT_EQ(spec->partition_id, 101);
  ASSERT_EQ(spec->fields.size(), 3u);
  EXPECT_EQ(spec->fields[0].transform, PartitionTransform::kYear);
  EXPECT_EQ(spec->fields[0].column_id, 11);
  EXPECT_EQ(spec->fields[0].result_type, DataType(TypeId::kInt64));
  EXPECT_EQ(spec->fields[1].transform, PartitionTransform::kIdentity);
  EXPECT_EQ(spec->fields[1].result_type, DataType(TypeId::kVarchar));
  EXPECT_EQ(spec->fields[2].transform, PartitionTransform::kHour);

  auto table = (*lake)->LoadTable(**s10, 1);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  const DataFileInfo& f0 = (*table)->data_files[0];
  ASSERT_EQ(f0.partition_id, 100);  // written under the older spec
  ASSERT_EQ(f0.partition_values.size(), 1u);
  EXPECT_EQ(f0.partition_values[0].value, Value::Int(DataType(TypeId::kInt32), 7));
  EXPECT_EQ((*table)->partition_specs.size(), 2u);
  const DataFileInfo& f2 = (*table)->data_files[1];
  ASSERT_EQ(f2.partition_values.size(), 3u);
  EXPECT_EQ(f2.partition_values[0].value, Value::Int64(2020));
  EXPECT_EQ(f2.partition_values[1].value, Value::Varchar("str_5"));
  EXPECT_EQ(f2.partition_values[1].text, "str_5");
  EXPECT_TRUE(f2.partition_values[2].value.is_null());
  EXPECT_TRUE(f2.partition_values[2].value_known);
  EXPECT_FALSE(f2.partition_values[2].text.has_value());
  EXPECT_TRUE((*table)->data_files[2].partition_values.empty());

  TempDir dir2;
  std::string bad = EditedCopy(
      "basic", dir2,
      {"INSERT INTO ducklake_partition_info VALUES (100, 1, 1, NULL)",
       "INSERT INTO ducklake_partition_column VALUES (100, 1, 0, 11, 'decade')"});
  Status status = LoadEverything(bad);
  ASSERT_TRUE(status.IsCorruption());
  EXPECT_THAT(status.message(), HasSubstr("unknown partition transform 'decade'"));
  TempDir dir3;
  std::string orphan_values = EditedCopy(
      "basic", dir3, {"INSERT INTO ducklake_file_partition_value VALUES (6, 1, 0, '1')"});
  Status orphan_status = LoadEverything(orphan_values);
  ASSERT_TRUE(orphan_status.IsCorruption());
  EXPECT_THAT(orphan_status.message(), HasSubstr("has partition values but no partition_id"));
}

TEST(CatalogFeatureTest, NameMappingsPuffinViewsAndSorting) {
  TempDir dir;
  std::string path = EditedCopy(
      "basic", dir,
      {"INSERT INTO ducklake_column_mapping VALUES (50, 1, 'map_by_name')",
       "INSERT INTO ducklake_name_mapping VALUES (50, 1, 'S', 10, NULL, 0), "
       "(50, 0, 'ID', 1, NULL, 0)",
       "UPDATE ducklake_data_file SET mapping_id = 50 WHERE data_file_id = 14",
       "UPDATE ducklake_delete_file SET format = 'puffin', partial_max = NULL WHERE "
       "delete_file_id = 12",
       "INSERT INTO ducklake_view VALUES (7, 'uuid-v', 2, NULL, 0, 'v', 'duckdb', "
       "'SELECT 1', '\"a\",\"b\"\"c\"')",
       "INSERT INTO ducklake_sort_info VALUES (8, 1, 2, NULL)",
       "INSERT INTO ducklake_sort_expression VALUES (8, 1, 1, 'i32', 'duckdb', 'DESC', "
       "'NULLS_FIRST'), (8, 1, 0, 'id', 'duckdb', 'ASC', 'NULLS_LAST')"});
  auto lake = OpenCopy(path);
  ASSERT_TRUE(lake.ok());
  auto snapshot = (*lake)->LoadSnapshot();
  ASSERT_TRUE(snapshot.ok()) << snapshot.status().ToString();
  const ViewInfo* view = (*snapshot)->FindView("main", "V");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->sql, "SELECT 1");
  EXPECT_EQ(view->column_aliases, (std::vector<std::string>{"a", "b\"c"}));
  const auto& sorting = (*snapshot)->FindTableById(1)->sorting;
  ASSERT_TRUE(sorting.has_value());
  ASSERT_EQ(sorting->fields.size(), 2u);
  EXPECT_EQ(sorting->fields[0].expression, "id");
  EXPECT_TRUE(sorting->fields[1].descending);
  EXPECT_TRUE(sorting->fields[1].nulls_first);
  auto table = (*lake)->LoadTable(**snapshot, 1);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  ASSERT_EQ((*table)->name_mappings.count(50), 1u);
  const NameMapping& mapping = (*table)->name_mappings.at(50);
  ASSERT_EQ(mapping.entries.size(), 2u);
  EXPECT_EQ(mapping.entries[0].source_name, "ID");
  EXPECT_EQ(mapping.entries[1].target_field_id, 10);
  EXPECT_EQ((*table)->data_files[3].mapping_id, 50);
  const auto& puffin = (*table)->data_files[2].delete_file;
  ASSERT_TRUE(puffin.has_value());
  EXPECT_EQ(puffin->format, DeleteFileFormat::kPuffin);
  EXPECT_FALSE(puffin->is_partial());

  TempDir dir2;
  std::string missing = EditedCopy(
      "basic", dir2, {"UPDATE ducklake_data_file SET mapping_id = 51 WHERE data_file_id = 14"});
  Status status = LoadEverything(missing);
  ASSERT_TRUE(status.IsCorruption());
  EXPECT_THAT(status.message(), HasSubstr("mapping_id 51"));
  TempDir dir3;
  std::string aliases = EditedCopy(
      "basic", dir3,
      {"INSERT INTO ducklake_view VALUES (7, 'u', 2, NULL, 0, 'v', 'duckdb', 'SELECT 1', "
       "'\"a')"});
  EXPECT_TRUE(LoadEverything(aliases).IsCorruption());
}

}  // namespace
}  // namespace tarn
