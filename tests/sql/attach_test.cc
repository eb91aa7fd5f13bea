// ATTACH, DETACH and USE in SQL: several lakes in one session, qualified names, the default
// lake, transactions across lakes, and the attach options.
#include <gtest/gtest.h>

#include <string>

#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

Status RunSql(Session* session, const std::string& sql) {
  return session->ExecuteScript(sql, [](QueryResult& result) {
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, result.reader->Next());
      if (!batch) return Status::OK();
    }
  });
}

class AttachTest : public ::testing::Test {
 protected:
  std::string Lake(const std::string& name) {
    return "ATTACH 'ducklake:sqlite:" + dir_.Join(name + ".db") + "' AS " + name +
           " (DATA_PATH '" + dir_.Join(name + "_files") + "')";
  }
  std::string Query(const std::string& sql) {
    auto csv = testing::TarnCsv(&session_, sql);
    EXPECT_TRUE(csv.ok()) << sql << ": " << csv.status().ToString();
    return csv.ok() ? *csv : "";
  }
  testing::TempDir dir_;
  Session session_;
};

TEST_F(AttachTest, TwoLakesByQualifiedNames) {
  ASSERT_TRUE(RunSql(&session_, Lake("a")).ok());
  ASSERT_TRUE(RunSql(&session_, Lake("b")).ok());
  ASSERT_TRUE(RunSql(&session_, "CREATE TABLE a.t (i INTEGER); INSERT INTO a.t VALUES (1), (2)").ok());
  ASSERT_TRUE(RunSql(&session_, "CREATE TABLE b.t (i INTEGER); INSERT INTO b.main.t VALUES (10)").ok());
  EXPECT_EQ(Query("SELECT sum(i) AS s FROM a.t"), "s\n3\n");
  EXPECT_EQ(Query("SELECT sum(i) AS s FROM b.main.t"), "s\n10\n");
  EXPECT_EQ(Query("SELECT count(*) AS n FROM ducklake_snapshots('b')"), "n\n3\n");
  // No default lake yet: an unqualified name resolves in no lake, as in DuckDB's memory.
  EXPECT_FALSE(RunSql(&session_, "SELECT * FROM t").ok());
  ASSERT_TRUE(RunSql(&session_, "USE b").ok());
  EXPECT_EQ(Query("SELECT sum(i) AS s FROM t"), "s\n10\n");
  ASSERT_TRUE(RunSql(&session_, "INSERT INTO t VALUES (5)").ok());
  EXPECT_EQ(Query("SELECT sum(i) AS s FROM b.t"), "s\n15\n");
  EXPECT_EQ(Query("SELECT sum(i) AS s FROM a.t"), "s\n3\n");
}

TEST_F(AttachTest, DetachAndTheDefaultLake) {
  ASSERT_TRUE(RunSql(&session_, Lake("a")).ok());
  ASSERT_TRUE(RunSql(&session_, "USE a").ok());
  Status busy = RunSql(&session_, "DETACH a");
  EXPECT_FALSE(busy.ok());
  EXPECT_NE(busy.message().find("because it is the default database"), std::string::npos)
      << busy.ToString();
  ASSERT_TRUE(RunSql(&session_, "USE memory").ok());
  ASSERT_TRUE(RunSql(&session_, "DETACH a").ok());
  Status gone = RunSql(&session_, "DETACH a");
  EXPECT_NE(gone.message().find("database not found"), std::string::npos) << gone.ToString();
  EXPECT_TRUE(RunSql(&session_, "DETACH DATABASE IF EXISTS a").ok());
  // Attaching again opens the lake created the first time.
  ASSERT_TRUE(RunSql(&session_, Lake("a")).ok());
  ASSERT_TRUE(RunSql(&session_, "CREATE TABLE a.t AS SELECT 42 AS x").ok());
  ASSERT_TRUE(RunSql(&session_, "DETACH a").ok());
  ASSERT_TRUE(RunSql(&session_, Lake("a")).ok());
  EXPECT_EQ(Query("SELECT x FROM a.t"), "x\n42\n");
  Status twice = RunSql(&session_, Lake("a"));
  EXPECT_NE(twice.message().find("already exists"), std::string::npos) << twice.ToString();
  EXPECT_TRUE(RunSql(&session_, "ATTACH IF NOT EXISTS 'ducklake:sqlite:" + dir_.Join("a.db") +
                                 "' AS a").ok());
  EXPECT_FALSE(RunSql(&session_, "USE nowhere").ok());
}

TEST_F(AttachTest, OptionsReadOnlySnapshotAndErrors) {
  ASSERT_TRUE(RunSql(&session_, Lake("a")).ok());
  ASSERT_TRUE(RunSql(&session_, "CREATE TABLE a.t (i INTEGER)").ok());  // snapshot 1
  ASSERT_TRUE(RunSql(&session_, "INSERT INTO a.t VALUES (1)").ok());    // snapshot 2
  ASSERT_TRUE(RunSql(&session_, "INSERT INTO a.t VALUES (2)").ok());    // snapshot 3
  const std::string catalog = "'ducklake:sqlite:" + dir_.Join("a.db") + "'";
  ASSERT_TRUE(RunSql(&session_, "ATTACH " + catalog + " AS old (SNAPSHOT_VERSION 2)").ok());
  EXPECT_EQ(Query("SELECT sum(i) AS s FROM old.t"), "s\n1\n");
  EXPECT_FALSE(RunSql(&session_, "INSERT INTO old.t VALUES (3)").ok());
  ASSERT_TRUE(RunSql(&session_, "ATTACH " + catalog + " AS ro (READ_ONLY)").ok());
  EXPECT_EQ(Query("SELECT sum(i) AS s FROM ro.t"), "s\n3\n");
  Status refused = RunSql(&session_, "DELETE FROM ro.t");
  EXPECT_NE(refused.message().find("read-only"), std::string::npos) << refused.ToString();
  EXPECT_FALSE(RunSql(&session_, "ATTACH " + catalog + " AS bad (NO_SUCH_OPTION 1)").ok());
  EXPECT_FALSE(RunSql(&session_, "ATTACH " + catalog + " AS bad (SNAPSHOT_VERSION 99)").ok());
  Status no_path = RunSql(&session_, "ATTACH 'ducklake:sqlite:" + dir_.Join("new.db") + "' AS n");
  EXPECT_NE(no_path.message().find("DATA_PATH"), std::string::npos) << no_path.ToString();
  // The catalog name defaults to the file's name.
  ASSERT_TRUE(RunSql(&session_, "ATTACH 'ducklake:sqlite:" + dir_.Join("fresh.db") +
                                 "' (DATA_PATH '" + dir_.Join("fresh_files") +
                                 "', DATA_INLINING_ROW_LIMIT 0)").ok());
  ASSERT_TRUE(RunSql(&session_, "CREATE TABLE fresh.t AS SELECT 1 AS x").ok());
  EXPECT_EQ(Query("SELECT count(*) AS n FROM ducklake_list_files('fresh', 't')"), "n\n1\n");
}

TEST_F(AttachTest, OneTransactionAcrossLakes) {
  ASSERT_TRUE(RunSql(&session_, Lake("a")).ok());
  ASSERT_TRUE(RunSql(&session_, Lake("b")).ok());
  ASSERT_TRUE(RunSql(&session_, "CREATE TABLE a.t (i INTEGER); CREATE TABLE b.t (i INTEGER)").ok());
  ASSERT_TRUE(RunSql(&session_, "BEGIN; INSERT INTO a.t VALUES (1); INSERT INTO b.t VALUES (2)")
                  .ok());
  EXPECT_EQ(Query("SELECT count(*) AS n FROM b.t"), "n\n1\n");
  ASSERT_TRUE(RunSql(&session_, "ROLLBACK").ok());
  EXPECT_EQ(Query("SELECT count(*) AS n FROM a.t"), "n\n0\n");
  EXPECT_EQ(Query("SELECT count(*) AS n FROM b.t"), "n\n0\n");
  ASSERT_TRUE(RunSql(&session_, "BEGIN; INSERT INTO a.t VALUES (1); INSERT INTO b.t VALUES (2); "
                             "COMMIT").ok());
  EXPECT_EQ(Query("SELECT count(*) AS n FROM a.t"), "n\n1\n");
  EXPECT_EQ(Query("SELECT count(*) AS n FROM b.t"), "n\n1\n");
  EXPECT_FALSE(RunSql(&session_, "COMMIT").ok());
}

}  // namespace
}  // namespace tarn
