// The extension's spellings of its functions and procedures: catalog methods
// (lake.snapshots(), CALL lake.set_option(...)), maintenance procedures read in FROM,
// CHECKPOINT, and glob().
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "lake_test_util.h"
#include "support/sql_test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using lake_testing::QueryRows;
using lake_testing::RowsText;
using lake_testing::RunStatement;
using lake_testing::SqlLake;

class CatalogMethodsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(lake_.Create(/*inlining_limit=*/0).ok()); }

  void Exec(const std::string& sql) {
    Status status = RunStatement(*lake_.session, sql);
    ASSERT_TRUE(status.ok()) << sql << ": " << status.ToString();
  }
  std::string Csv(const std::string& sql) {
    Result<std::string> csv = testing::TarnCsv(lake_.session.get(), sql);
    EXPECT_TRUE(csv.ok()) << sql << ": " << csv.status().ToString();
    return csv.ok() ? *csv : "";
  }
  int64_t Snapshots() {
    return std::stoll(QueryRows(lake_.catalog_path, "SELECT COUNT(*) FROM ducklake_snapshot")[0][0]);
  }

  SqlLake lake_;
};

TEST_F(CatalogMethodsTest, MethodsNameTheirFunctions) {
  Exec("CREATE TABLE t (i INTEGER)");
  Exec("INSERT INTO t VALUES (1), (2)");
  EXPECT_EQ(Csv("SELECT snapshot_id FROM lake.snapshots() ORDER BY 1"),
            Csv("SELECT snapshot_id FROM ducklake_snapshots('lake') ORDER BY 1"));
  EXPECT_EQ(Csv("SELECT count(*) AS n FROM snapshots()"), "n\n3\n");
  EXPECT_EQ(Csv("SELECT table_name FROM lake.table_info()"), "table_name\nt\n");
  EXPECT_EQ(Csv("SELECT rowid, i FROM lake.table_insertions('t', 0, 2) ORDER BY rowid"),
            "rowid,i\n0,1\n1,2\n");
  Exec("CALL lake.set_option('data_inlining_row_limit', 5)");
  EXPECT_EQ(Csv("SELECT value FROM lake.options() WHERE option_name = 'data_inlining_row_limit'"),
            "value\n5\n");
  Exec("BEGIN");
  Exec("CALL lake.set_commit_message('me', 'a message')");
  Exec("INSERT INTO t VALUES (3)");
  Exec("COMMIT");
  EXPECT_EQ(Csv("SELECT author, commit_message FROM lake.snapshots() ORDER BY snapshot_id DESC "
                "LIMIT 1"),
            "author,commit_message\nme,a message\n");
  // An unknown method stays an unknown table function.
  Result<QueryResult> unknown = lake_.session->Execute("SELECT * FROM lake.no_such_method()");
  EXPECT_FALSE(unknown.ok());
}

// SET VARIABLE keeps a value (of any query) for getvariable(), in expressions, AT clauses and
// function arguments.
TEST_F(CatalogMethodsTest, SessionVariables) {
  Exec("CREATE TABLE t (i INTEGER)");
  Exec("INSERT INTO t VALUES (1), (2)");
  Exec("SET VARIABLE after_insert = (SELECT max(snapshot_id) FROM ducklake_snapshots('lake'))");
  Exec("INSERT INTO t VALUES (3)");
  EXPECT_EQ(Csv("SELECT getvariable('after_insert') AS v"), "v\n2\n");
  EXPECT_EQ(Csv("SELECT count(*) AS n FROM t AT (VERSION => getvariable('after_insert'))"),
            "n\n2\n");
  EXPECT_EQ(Csv("SELECT count(*) AS n FROM ducklake_table_insertions('lake', 'main', 't', 0, "
                "getvariable('after_insert'))"),
            "n\n2\n");
  Exec("SET VARIABLE label = 'x' || 1");
  EXPECT_EQ(Csv("SELECT getvariable('label') AS v, getvariable('unknown') AS u"), "v,u\nx1,\n");
  Exec("RESET VARIABLE label");
  EXPECT_EQ(Csv("SELECT getvariable('label') IS NULL AS gone"), "gone\ntrue\n");
  Result<QueryResult> many = lake_.session->Execute("SET VARIABLE v = (SELECT i FROM t)");
  EXPECT_FALSE(many.ok());
}

TEST_F(CatalogMethodsTest, MaintenanceInFromAndCheckpoint) {
  Exec("CREATE TABLE t (i INTEGER)");
  for (int i = 0; i < 3; ++i) Exec("INSERT INTO t SELECT range FROM range(" + std::to_string(i * 20) +
                                  ", " + std::to_string(i * 20 + 20) + ")");
  EXPECT_EQ(Csv("SELECT table_name, files_processed, files_created FROM "
                "ducklake_merge_adjacent_files('lake')"),
            "table_name,files_processed,files_created\nt,3,1\n");
  EXPECT_EQ(Csv("SELECT count(*) AS n, sum(i) AS s FROM t"), "n,s\n60,1770\n");
  // CHECKPOINT: flush, merge and rewrite, each a snapshot only when it changes something.
  Exec("INSERT INTO t VALUES (100)");
  Exec("INSERT INTO t VALUES (101)");
  Exec("DELETE FROM t WHERE i < 59");
  const int64_t before = Snapshots();
  // The merge takes the two small files, the rewrite the file with 59 of its 60 rows deleted.
  Exec("CHECKPOINT");
  EXPECT_GT(Snapshots(), before);
  EXPECT_EQ(Csv("SELECT count(*) AS n, sum(i) AS s FROM t"), "n,s\n3,260\n");
  const std::string live = "SELECT COUNT(*) FROM ducklake_data_file WHERE end_snapshot IS NULL";
  EXPECT_EQ(RowsText(QueryRows(lake_.catalog_path, live)), "2\n");
  Exec("CHECKPOINT lake");  // now the two are adjacent small files
  EXPECT_EQ(RowsText(QueryRows(lake_.catalog_path, live)), "1\n");
  const int64_t after = Snapshots();
  Exec("CHECKPOINT");  // nothing left to do
  EXPECT_EQ(Snapshots(), after);
  EXPECT_EQ(Csv("SELECT count(*) AS n, sum(i) AS s FROM t"), "n,s\n3,260\n");
  Result<QueryResult> other = lake_.session->Execute("CHECKPOINT nowhere");
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().message(), "Catalog Error: database \"nowhere\" does not exist");
  // Inside a transaction a procedure runs on what was committed when it began, in FROM as in
  // CALL, and its changes join the transaction's one snapshot.
  Exec("INSERT INTO t VALUES (102)");
  const int64_t committed = Snapshots();
  Exec("BEGIN");
  Exec("INSERT INTO t VALUES (103)");  // the transaction's own file: not merged
  EXPECT_EQ(Csv("SELECT table_name, files_processed, files_created FROM "
                "ducklake_merge_adjacent_files('lake')"),
            "table_name,files_processed,files_created\nt,2,1\n");
  EXPECT_EQ(Csv("SELECT count(*) AS n FROM t"), "n\n5\n");
  EXPECT_EQ(Snapshots(), committed);
  Exec("COMMIT");
  EXPECT_EQ(Snapshots(), committed + 1);
  EXPECT_EQ(RowsText(QueryRows(lake_.catalog_path, live)), "2\n");
  EXPECT_EQ(Csv("SELECT count(*) AS n, sum(i) AS s FROM t"), "n,s\n5,465\n");
}

TEST_F(CatalogMethodsTest, GlobListsFiles) {
  Exec("CREATE TABLE t (i INTEGER)");
  Exec("INSERT INTO t SELECT range FROM range(30)");
  Exec("INSERT INTO t SELECT range FROM range(30)");
  const std::string data = lake_.data_path;
  EXPECT_EQ(Csv("SELECT count(*) AS n FROM glob('" + data + "**')"), "n\n2\n");
  EXPECT_EQ(Csv("SELECT count(*) AS n FROM GLOB('" + data + "main/t/*.parquet')"), "n\n2\n");
  EXPECT_EQ(Csv("SELECT count(*) AS n FROM glob('" + data + "nothing/*')"), "n\n0\n");
  std::string first = Csv("SELECT file FROM glob('" + data + "**') ORDER BY file LIMIT 1");
  ASSERT_GT(first.size(), 5u);
  EXPECT_TRUE(std::filesystem::exists(first.substr(5, first.size() - 6))) << first;
}

}  // namespace
}  // namespace tarn
