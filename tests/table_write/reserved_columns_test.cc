// Column names reserved for inlining (row_id, begin_snapshot, end_snapshot,
// _ducklake_internal_row_id, _ducklake_internal_snapshot_id), refused as the official
// extension refuses them: while the table's data_inlining_row_limit is above 0, by CREATE
// TABLE, ADD COLUMN and RENAME COLUMN; and raising the limit above 0 for a table holding one.
#include <gtest/gtest.h>

#include <string>

#include "lake_conformance/lake_test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

std::string Reserved(const std::string& kind, const std::string& name) {
  return kind + ": Column name \"" + name +
         "\" is reserved by DuckLake for internal use when data inlining is enabled. If you must "
         "use this column name, disable inlining by calling "
         "ducklake_set_option('data_inlining_row_limit', 0).";
}

std::string CannotEnable(const std::string& table, const std::string& column) {
  return "Binder Error: Cannot enable data inlining for table \"" + table + "\". Column \"" +
         column +
         "\" conflicts with a reserved DuckLake internal column name used for inlining. To "
         "enable inlining for this table, rename or drop column \"" + column + "\".";
}

class ReservedColumnsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(lake_.Create().ok()); }

  Status Try(const std::string& sql) { return lake_testing::RunStatement(*lake_.session, sql); }
  void Run(const std::string& sql) {
    Status status = Try(sql);
    ASSERT_TRUE(status.ok()) << sql << ": " << status.ToString();
  }
  std::string Error(const std::string& sql) {
    Status status = Try(sql);
    EXPECT_FALSE(status.ok()) << sql;
    return status.message();
  }

  lake_testing::SqlLake lake_;
};

TEST_F(ReservedColumnsTest, RefusedWhileInliningIsOn) {
  for (const char* name : {"row_id", "begin_snapshot", "end_snapshot",
                           "_ducklake_internal_row_id", "_ducklake_internal_snapshot_id",
                           "ROW_ID"}) {
    EXPECT_EQ(Error(StrCat("CREATE TABLE lake.t (", name, " INTEGER, v INTEGER)")),
              Reserved("Binder Error", name));
  }
  Run("CREATE TABLE lake.ok (i INTEGER, j INTEGER)");
  EXPECT_EQ(Error("ALTER TABLE lake.ok ADD COLUMN row_id INTEGER"),
            Reserved("Catalog Error", "row_id"));
  EXPECT_EQ(Error("ALTER TABLE lake.ok RENAME COLUMN i TO _ducklake_internal_row_id"),
            Reserved("Catalog Error", "_ducklake_internal_row_id"));
  // Names that only look alike are ordinary.
  Run("ALTER TABLE lake.ok ADD COLUMN row_ids INTEGER");
  Run("ALTER TABLE lake.ok RENAME COLUMN i TO _ducklake_internal");
  // Nothing was committed by the refused statements.
  EXPECT_EQ(lake_testing::RowsText(lake_testing::QueryRows(
                lake_.catalog_path, "SELECT table_name FROM ducklake_table")),
            "'ok'\n");
}

TEST_F(ReservedColumnsTest, AllowedWithInliningOffAndThenInliningCannotBeTurnedOn) {
  Run("CALL ducklake_set_option('lake', 'data_inlining_row_limit', 0)");
  Run("CREATE TABLE lake.t1 (row_id INTEGER, v INTEGER)");
  Run("INSERT INTO lake.t1 VALUES (1, 10), (2, 20)");
  Run("ALTER TABLE lake.t1 ADD COLUMN begin_snapshot INTEGER");
  Run("ALTER TABLE lake.t1 RENAME COLUMN v TO end_snapshot");
  // The rows went to a file: no inlined table was made.
  EXPECT_EQ(lake_testing::RowsText(lake_testing::QueryRows(
                lake_.catalog_path, "SELECT count(*) FROM ducklake_data_file")),
            "1\n");
  EXPECT_EQ(Error("CALL ducklake_set_option('lake', 'data_inlining_row_limit', 10, "
                  "table_name => 't1')"),
            CannotEnable("t1", "row_id"));
  EXPECT_EQ(Error("CALL ducklake_set_option('lake', 'data_inlining_row_limit', 10)"),
            CannotEnable("t1", "row_id"));
  EXPECT_EQ(Error("CALL ducklake_set_option('lake', 'data_inlining_row_limit', 5, schema => "
                  "'main')"),
            CannotEnable("t1", "row_id"));
  // Kept at 0 by its own option, t1 no longer stands in the way.
  Run("CALL ducklake_set_option('lake', 'data_inlining_row_limit', 0, table_name => 't1')");
  Run("CALL ducklake_set_option('lake', 'data_inlining_row_limit', 10)");
  Run("INSERT INTO lake.t1 VALUES (3, 30, 300)");
  Run("CREATE TABLE lake.t2 (i INTEGER)");
  EXPECT_EQ(Error("ALTER TABLE lake.t2 ADD COLUMN end_snapshot INTEGER"),
            Reserved("Catalog Error", "end_snapshot"));
  Run("INSERT INTO lake.t2 VALUES (1), (2)");  // inlined
  EXPECT_EQ(lake_testing::RowsText(lake_testing::QueryRows(
                lake_.catalog_path, "SELECT count(*) FROM ducklake_data_file")),
            "2\n");
}

TEST_F(ReservedColumnsTest, ATableWithInliningOffAcceptsThemInAnInliningLake) {
  Run("CREATE TABLE lake.n (i INTEGER, j INTEGER)");
  Run("CALL ducklake_set_option('lake', 'data_inlining_row_limit', 0, table_name => 'n')");
  Run("ALTER TABLE lake.n ADD COLUMN row_id INTEGER");
  Run("ALTER TABLE lake.n RENAME COLUMN i TO end_snapshot");
  Run("INSERT INTO lake.n VALUES (1, 2, 3)");
  EXPECT_EQ(Error("CREATE TABLE lake.f (row_id INTEGER)"), Reserved("Binder Error", "row_id"));
  // The first reserved column in column order is named.
  EXPECT_EQ(Error("CALL ducklake_set_option('lake', 'data_inlining_row_limit', 10, "
                  "table_name => 'n')"),
            CannotEnable("n", "end_snapshot"));
}

}  // namespace
}  // namespace tarn
