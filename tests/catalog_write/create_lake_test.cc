// CreateLake: the catalog's shape equals the extension's (the fixtures' catalogs), the
// bootstrap rows, and the created lake opens and loads.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "write_test_util.h"

namespace tarn {
namespace {

using testing::FileExists;
using testing::FixtureCatalog;
using testing::QueryRows;
using testing::Rows;
using testing::RowsText;
using testing::TempDir;

const char* kTimestampPattern = R"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?\+00)";
const char* kUuidPattern = "[0-9a-f]{8}-[0-9a-f]{4}-([0-9a-f])[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}";

Rows CatalogTables(const std::string& db) {
  return QueryRows(db,
                   "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB "
                   "'ducklake_*' AND name NOT GLOB 'ducklake_inlined_data_[0-9]*' AND name NOT "
                   "GLOB 'ducklake_inlined_delete_*' ORDER BY name");
}

TEST(CreateLakeTest, ShapeEqualsTheFixtureCatalogs) {
  TempDir dir;
  auto lake = testing::MakeLake(dir, std::nullopt);
  ASSERT_NE(lake, nullptr);
  const std::string ours = dir.Join("lake.sqlite");
  // The lakes the extension wrote on a SQLite catalog (the first ones were copied from
  // DuckDB-file catalogs and declare DuckDB's type names).
  for (const char* fixture : {"types3", "partitioned2", "sorted"}) {
    const std::string theirs = FixtureCatalog(fixture);
    ASSERT_TRUE(FileExists(theirs));
    Rows tables = CatalogTables(theirs);
    ASSERT_EQ(tables.size(), 28u) << fixture;
    EXPECT_EQ(RowsText(CatalogTables(ours)), RowsText(tables)) << fixture;
    for (const auto& row : tables) {
      std::string name = row[0].substr(1, row[0].size() - 2);
      // Column order, names and declared types; constraints are compared below.
      std::string sql = StrCat("SELECT cid, name, type FROM pragma_table_info('", name, "')");
      EXPECT_EQ(RowsText(QueryRows(ours, sql)), RowsText(QueryRows(theirs, sql))) << name;
    }
  }
  // Primary keys only where the extension declares them; NOT NULL on the metadata key/value.
  Rows keys = QueryRows(ours,
                        "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p "
                        "WHERE m.type = 'table' AND p.pk > 0 ORDER BY m.name");
  EXPECT_EQ(RowsText(keys),
            "'ducklake_data_file'|'data_file_id'\n'ducklake_delete_file'|'delete_file_id'\n"
            "'ducklake_schema'|'schema_id'\n'ducklake_snapshot'|'snapshot_id'\n"
            "'ducklake_snapshot_changes'|'snapshot_id'\n");
  Rows not_null = QueryRows(ours,
                            "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p "
                            "WHERE m.type = 'table' AND p.\"notnull\" > 0 AND p.pk = 0 "
                            "ORDER BY m.name, p.cid");
  EXPECT_EQ(RowsText(not_null), "'ducklake_metadata'|'key'\n'ducklake_metadata'|'value'\n");
}

TEST(CreateLakeTest, BootstrapRows) {
  TempDir dir;
  CreateLakeOptions options;
  options.data_path = dir.Join("data");  // no trailing '/': one is added
  options.data_inlining_row_limit = 25;
  auto created = CreateLake(dir.Join("x.db"), options);
  ASSERT_TRUE(created.ok()) << created.status().ToString();
  const std::string db = dir.Join("x.db");

  Rows snapshot = QueryRows(db, "SELECT * FROM ducklake_snapshot");
  ASSERT_EQ(snapshot.size(), 1u);
  EXPECT_EQ(snapshot[0][0], "0");
  std::string time = snapshot[0][1].substr(1, snapshot[0][1].size() - 2);
  EXPECT_TRUE(std::regex_match(time, std::regex(kTimestampPattern))) << time;
  EXPECT_EQ(snapshot[0][2] + snapshot[0][3] + snapshot[0][4], "010");
  EXPECT_EQ(RowsText(QueryRows(db, "SELECT * FROM ducklake_snapshot_changes")),
            "0|'created_schema:\"main\"'|NULL|NULL|NULL\n");
  EXPECT_EQ(RowsText(QueryRows(db, "SELECT * FROM ducklake_metadata")),
            StrCat("'version'|'1.0'|NULL|NULL\n'created_by'|'tarn 0.1.0'|NULL|NULL\n"
                   "'data_path'|'",
                   dir.Join("data"),
                   "/'|NULL|NULL\n'encrypted'|'false'|NULL|NULL\n"
                   "'data_inlining_row_limit'|'25'|NULL|NULL\n"));
  Rows schema = QueryRows(db, "SELECT * FROM ducklake_schema");
  ASSERT_EQ(schema.size(), 1u);
  std::string uuid = schema[0][1].substr(1, 36);
  std::smatch match;
  ASSERT_TRUE(std::regex_match(uuid, match, std::regex(kUuidPattern))) << uuid;
  EXPECT_EQ(match[1], "4");  // UUID(): random
  EXPECT_EQ(schema[0][0], "0");
  EXPECT_EQ(schema[0][2] + "|" + schema[0][3] + "|" + schema[0][4] + "|" + schema[0][5] + "|" +
                schema[0][6],
            "0|NULL|'main'|'main/'|1");
  // Every other table is empty.
  for (const auto& row : CatalogTables(db)) {
    std::string name = row[0].substr(1, row[0].size() - 2);
    if (name == "ducklake_snapshot" || name == "ducklake_snapshot_changes" ||
        name == "ducklake_metadata" || name == "ducklake_schema") {
      continue;
    }
    EXPECT_EQ(QueryRows(db, StrCat("SELECT count(*) FROM ", name))[0][0], "0") << name;
  }

  // It opens (read-only too) and loads.
  std::unique_ptr<Lake> lake = std::move(created).value();
  EXPECT_EQ(lake->version(), "1.0");
  EXPECT_EQ(lake->data_path(), dir.Join("data") + "/");
  EXPECT_EQ(lake->GetOption("data_inlining_row_limit", 0, 1), "25");
  auto loaded = lake->LoadSnapshot();
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  ASSERT_EQ((*loaded)->schemas().size(), 1u);
  EXPECT_EQ((*loaded)->schemas()[0].name, "main");
  EXPECT_EQ((*loaded)->schemas()[0].path, dir.Join("data") + "/main/");
  EXPECT_TRUE((*loaded)->tables().empty());
  auto reopened = Lake::Open(StrCat("sqlite:", db));
  ASSERT_TRUE(reopened.ok()) << reopened.status().ToString();
  EXPECT_EQ((*reopened)->store()->read_only(), true);
  EXPECT_EQ(lake->store()->read_only(), false);
}

TEST(CreateLakeTest, Errors) {
  TempDir dir;
  CreateLakeOptions options;
  options.data_path = dir.Join("data");
  ASSERT_TRUE(CreateLake(dir.Join("a.sqlite"), options).ok());
  auto again = CreateLake(StrCat("ducklake:sqlite:", dir.Join("a.sqlite")), options);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), StatusCode::kAlreadyExists);
  EXPECT_NE(again.status().message().find("already exists"), std::string::npos);

  auto bad_locator = CreateLake(dir.Join("a.txt"), options);
  EXPECT_EQ(bad_locator.status().code(), StatusCode::kInvalidArgument);

  CreateLakeOptions relative;
  relative.data_path = "data/";
  auto bad_path = CreateLake(dir.Join("b.sqlite"), relative);
  EXPECT_EQ(bad_path.status().code(), StatusCode::kInvalidArgument);
  CreateLakeOptions none;
  EXPECT_EQ(CreateLake(dir.Join("b.sqlite"), none).status().code(),
            StatusCode::kInvalidArgument);
  // A failed create leaves no file behind.
  EXPECT_FALSE(std::filesystem::exists(dir.Join("b.sqlite")));

  auto missing_dir = CreateLake(dir.Join("no/such/dir/c.sqlite"), options);
  EXPECT_EQ(missing_dir.status().code(), StatusCode::kIOError);
  EXPECT_EQ(TarnVersionString(), "tarn 0.1.0");
}

}  // namespace
}  // namespace tarn
