// Drives the `tarn` program's SQL mode as a user would: -c, -f, standard input, the output
// formats, errors with a caret and a non-zero exit status, and the LAKE argument.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/oracle.h"
#include "support/run_tarn.h"
#include "support/test_util.h"

namespace tarn {
namespace {

using testing::DuckDBQueryCsv;
using testing::FileExists;
using testing::SharedPath;
using testing::TempDir;

using testing::RunTarn;
using testing::RunResult;

std::string Orders() { return SharedPath("data/tpch-sf0.1/orders.parquet"); }

TEST(SqlCliTest, CommandCsvEqualsDuckDB) {
  TempDir dir;
  ASSERT_TRUE(FileExists(Orders()));
  std::string sql = "SELECT o_orderstatus, count(*) AS n, sum(o_totalprice) AS total FROM '" +
                    Orders() + "' WHERE o_orderkey < 5000 GROUP BY 1 ORDER BY 1";
  RunResult run = RunTarn({"-c", sql, "--format", "csv"}, dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto expected = DuckDBQueryCsv(sql);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  EXPECT_EQ(run.out, *expected);
  EXPECT_EQ(run.err, "");
}

TEST(SqlCliTest, SeveralCommandsRunInOrder) {
  TempDir dir;
  RunResult run = RunTarn({"--format", "csv", "-c", "SET threads = 1; SELECT 1 AS a", "-c",
                           "SELECT 'two' AS b; SELECT 3 AS c"},
                          dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "a\n1\nb\ntwo\nc\n3\n");
}

TEST(SqlCliTest, FileAndStandardInput) {
  TempDir dir;
  std::string script = dir.Join("q.sql");
  std::ofstream(script) << "-- a comment\nSELECT range AS r\nFROM range(3)\nWHERE range > 0;\n";
  RunResult from_file = RunTarn({"-f", script, "--format", "csv"}, dir);
  ASSERT_EQ(from_file.exit_code, 0) << from_file.err;
  EXPECT_EQ(from_file.out, "r\n1\n2\n");

  std::string text = "SELECT 42 AS answer;\nSELECT 'x' AS y;\n";
  RunResult from_stdin = RunTarn({"--format", "csv"}, dir, &text);
  ASSERT_EQ(from_stdin.exit_code, 0) << from_stdin.err;
  EXPECT_EQ(from_stdin.out, "answer\n42\ny\nx\n");
}

TEST(SqlCliTest, OutputFormats) {
  TempDir dir;
  const std::string sql = "SELECT 1 AS a, 'x' AS b";
  RunResult json = RunTarn({"-c", sql, "--format", "json"}, dir);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out, "{\"a\":1,\"b\":\"x\"}\n");
  RunResult markdown = RunTarn({"-c", sql, "--format", "markdown"}, dir);
  ASSERT_EQ(markdown.exit_code, 0) << markdown.err;
  EXPECT_EQ(markdown.out, "| a   | b   |\n|----:|-----|\n|   1 | x   |\n");
  RunResult line = RunTarn({"-c", sql, "--format", "line"}, dir);
  ASSERT_EQ(line.exit_code, 0) << line.err;
  EXPECT_EQ(line.out, "a = 1\nb = x\n");
  RunResult table = RunTarn({"-c", sql}, dir);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("│   a   │    b    │"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("int32"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("1 row"), std::string::npos) << table.out;
  RunResult bad = RunTarn({"-c", sql, "--format", "xml"}, dir);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("--format must be one of"), std::string::npos) << bad.err;
}

TEST(SqlCliTest, ExplainPrintsThePlan) {
  TempDir dir;
  RunResult run = RunTarn({"-c", "EXPLAIN SELECT count(*) FROM '" + Orders() +
                                     "' WHERE o_orderkey < 1000"},
                          dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("PARQUET_SCAN"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("row groups: 2 considered, 1 pruned by statistics"), std::string::npos)
      << run.out;
}

TEST(SqlCliTest, SyntaxErrorShowsCaretAndFails) {
  TempDir dir;
  RunResult run = RunTarn({"-c", "SELECT 1,\n  2 3"}, dir);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, "Error: syntax error at or near \"3\" (line 2, column 5)\n  2 3\n    ^\n");
}

// An unknown column is shown as DuckDB shows it: the line with a caret under the name (its
// first spelling, not a string that holds it), then the closest names.
TEST(SqlCliTest, UnknownColumnShowsCaretAndCandidates) {
  TempDir dir;
  RunResult run = RunTarn(
      {"-c", "CREATE TABLE flights(origin INT); SELECT 'orign' AS s,\n  \"Orign\" + 1 FROM flights"},
      dir);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err,
            "Error: Binder Error: Referenced column \"Orign\" not found in FROM clause! (line 2, "
            "column 3)\n  \"Orign\" + 1 FROM flights\n  ^\nCandidate bindings: \"origin\"\n");
}

TEST(SqlCliTest, StopsAtTheFirstError) {
  TempDir dir;
  RunResult run = RunTarn({"--format", "csv", "-c", "SELECT 1 AS a", "-c",
                           "SELECT nope FROM range(2)", "-c", "SELECT 3 AS c"},
                          dir);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "a\n1\n");
  EXPECT_NE(run.err.find("Referenced column \"nope\" not found in FROM clause!"), std::string::npos) << run.err;
  EXPECT_EQ(run.err.rfind("Error: ", 0), 0u) << run.err;
}

TEST(SqlCliTest, TablesWithoutALakeAreTheSessionsAndBadLocatorsAreNamed) {
  TempDir dir;
  // No lake: the table is in the session's database "memory", gone when the program ends.
  RunResult write = RunTarn({"--format", "csv", "-c", "CREATE TABLE t (a INTEGER)", "-c",
                             "INSERT INTO t VALUES (1), (2)", "-c", "SELECT sum(a) AS s FROM t"},
                            dir);
  EXPECT_EQ(write.exit_code, 0) << write.err;
  EXPECT_EQ(write.out, "s\n3\n");  // commands print nothing
  RunResult lake = RunTarn({"my.ducklake", "--data-path", dir.path(), "-c", "SELECT 1"}, dir);
  EXPECT_EQ(lake.exit_code, 1);
  EXPECT_EQ(lake.err,
            "Error: cannot attach the lake \"my.ducklake\": DuckLake locator 'my.ducklake' is not "
            "understood: expected ducklake:sqlite:PATH, ducklake:postgres:CONNINFO or a PATH "
            "ending in .sqlite\n");
  EXPECT_EQ(lake.out, "");
}

TEST(SqlCliTest, CopyWritesFilesAndPrintsNothing) {
  TempDir dir;
  std::string out = dir.Join("o.parquet");
  RunResult run = RunTarn({"-c", "COPY (SELECT o_orderkey FROM '" + Orders() +
                                     "' WHERE o_orderkey <= 10) TO '" + out + "'"},
                          dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "");
  auto count = DuckDBQueryCsv("SELECT count(*) AS n FROM '" + out + "'");
  ASSERT_TRUE(count.ok()) << count.status().ToString();
  EXPECT_EQ(*count, "n\n7\n");
}

TEST(SqlCliTest, ParquetSubcommandsStillWork) {
  TempDir dir;
  RunResult run = RunTarn({"parquet", "cat", Orders(), "--columns", "o_orderkey", "--limit", "2"},
                          dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "o_orderkey\n1\n2\n");
}

}  // namespace
}  // namespace tarn
