#include "support/oracle.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "support/test_util.h"
#include "tarn/io.h"

namespace tarn::testing {
namespace {

TEST(OracleTest, NullsQuotingDoublesAndTimestampsAreDuckDBsOwnCsv) {
  auto csv = DuckDBQueryCsv(
      "SELECT * FROM (VALUES"
      " (1, NULL, 1.5::DOUBLE, TIMESTAMP '2024-01-02 03:04:05.25', 'plain'),"
      " (2, 'a,b', 1e300::DOUBLE, TIMESTAMP '1970-01-01 00:00:00', 'say \"hi\"'),"
      " (3, 'line1\nline2', -0.1::DOUBLE, NULL, ''))"
      " AS t(id, s, d, ts, q) ORDER BY id");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  EXPECT_EQ(*csv,
            "id,s,d,ts,q\n"
            "1,,1.5,2024-01-02 03:04:05.25,plain\n"
            "2,\"a,b\",1e+300,1970-01-01 00:00:00,\"say \"\"hi\"\"\"\n"
            "3,\"line1\nline2\",-0.1,,\"\"\n");
}

TEST(OracleTest, SeveralStatementsReturnTheLast) {
  auto csv = DuckDBQueryCsv(
      "CREATE TABLE t(x INTEGER, s VARCHAR);\n"
      "INSERT INTO t VALUES (1, 'semi;colon'), (2, '-- not a comment');\n"
      "-- a comment; with a semicolon\n"
      "SELECT sum(x) AS total, string_agg(s, '|' ORDER BY x) AS s FROM t;");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  EXPECT_EQ(*csv, "total,s\n3,semi;colon|-- not a comment\n");
}

TEST(OracleTest, EachCallGetsAFreshDatabaseWithTwoThreads) {
  ASSERT_TRUE(DuckDBQueryCsv("CREATE TABLE leftover AS SELECT 1 AS x; SELECT 1").ok());
  EXPECT_FALSE(DuckDBQueryCsv("SELECT * FROM leftover").ok());
  EXPECT_EQ(DuckDBQueryCsv("SELECT current_setting('threads') AS t").ValueOr(""), "t\n2\n");
}

TEST(OracleTest, ErrorsCarryDuckDBsMessage) {
  auto csv = DuckDBQueryCsv("SELECT * FROM no_such_table");
  ASSERT_FALSE(csv.ok());
  EXPECT_EQ(csv.status().code(), StatusCode::kInvalidArgument);
  EXPECT_NE(csv.status().message().find("Table with name no_such_table does not exist"),
            std::string::npos)
      << csv.status().message();
  Status status = DuckDBExecute("SELEKT 1");
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("syntax error"), std::string::npos) << status.message();
}

TEST(OracleTest, ExecuteWritesFilesDuckDBCanReadBack) {
  TempDir temp;
  std::string path = temp.Join("it's.parquet");  // a quote in the path survives
  std::string quoted = "'" + temp.path() + "/it''s.parquet'";
  ASSERT_TRUE(DuckDBExecute("COPY (SELECT range AS x FROM range(5)) TO " + quoted +
                            " (FORMAT parquet)")
                  .ok());
  EXPECT_TRUE(LocalFileSystem()->Exists(path).ValueOr(false));
  EXPECT_EQ(DuckDBQueryCsv("SELECT sum(x) AS s FROM " + quoted).ValueOr(""), "s\n10\n");
}

TEST(OracleTest, BatchAnswersEveryQueryIndependently) {
  std::vector<std::string> queries = {"SELECT 1 AS a", "SELECT * FROM missing",
                                      "SELECT 'x' AS b UNION ALL SELECT NULL", ""};
  for (int query_idx = 0; query_idx < 20; ++query_idx) {
    queries.push_back("SELECT " + std::to_string(query_idx) + " * 2 AS v");
  }
  auto results = DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(results.size(), queries.size());
  EXPECT_EQ(results[0].ValueOr(""), "a\n1\n");
  EXPECT_FALSE(results[1].ok());
  EXPECT_NE(results[1].status().message().find("missing"), std::string::npos);
  EXPECT_EQ(results[2].ValueOr(""), "b\nx\n\n");
  EXPECT_FALSE(results[3].ok());  // no statement at all
  for (int query_idx = 0; query_idx < 20; ++query_idx) {
    EXPECT_EQ(results[4 + query_idx].ValueOr(""), "v\n" + std::to_string(query_idx * 2) + "\n");
  }
  EXPECT_TRUE(DuckDBQueryCsvBatch({}).empty());
}

TEST(OracleTest, NonAsciiAndControlCharactersRoundTrip) {
  auto csv = DuckDBQueryCsv("SELECT 'héllo ✓' AS u, chr(1) || 'tab\there' AS c");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  EXPECT_EQ(*csv, "u,c\nhéllo ✓,\x01tab\there\n");
}

TEST(OracleTest, MissingNodeSaysHowToInstallIt) {
  std::string saved_path = std::getenv("PATH") != nullptr ? std::getenv("PATH") : "";
  ::setenv("PATH", "/nonexistent-tarn-dir", 1);
  auto csv = DuckDBQueryCsv("SELECT 1");
  auto batch = DuckDBQueryCsvBatch({"SELECT 1", "SELECT 2"});
  ::setenv("PATH", saved_path.c_str(), 1);
  ASSERT_FALSE(csv.ok());
  EXPECT_TRUE(csv.status().IsNotFound());
  EXPECT_EQ(csv.status().message(),
            "DuckDB oracle: 'node' is not on PATH; run scripts/setup.sh to install node and the "
            "DuckDB oracle");
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_TRUE(batch[1].status().IsNotFound());
}

TEST(OracleTest, FlightsDataSetIsInstalled) {
  ASSERT_TRUE(FileExists(FlightsPath()));
  auto csv = DuckDBQueryCsv("SELECT count(*) AS n FROM '" + FlightsPath() + "'");
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  EXPECT_EQ(*csv, "n\n3000000\n");
}

TEST(TestUtilTest, SharedPathAndFileExists) {
  EXPECT_EQ(SharedPath("data/x"), tarn::testing::SharedDir() + "/data/x");
  EXPECT_TRUE(FileExists(SharedPath("STYLE.md")));
  ::testing::AssertionResult missing = FileExists(SharedPath("no/such/file"));
  EXPECT_FALSE(missing);
  EXPECT_NE(std::string(missing.message()).find("no/such/file"), std::string::npos);
}

TEST(TestUtilTest, TempDirIsRemovedWithItsContents) {
  std::string path;
  {
    TempDir temp;
    path = temp.path();
    ASSERT_TRUE(LocalFileSystem()->CreateDirectories(temp.Join("a/b")).ok());
    ASSERT_TRUE(LocalFileSystem()->WriteFile(temp.Join("a/b/f"), "x").ok());
    EXPECT_TRUE(path.starts_with("/tmp/tarn-test-"));
  }
  EXPECT_FALSE(LocalFileSystem()->Exists(path).ValueOr(true));
}

}  // namespace
}  // namespace tarn::testing
