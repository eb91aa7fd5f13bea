// A top-N over a Parquet scan hands the scan a bound on its first sort key (TopNBound): rows
// whose key cannot reach the top N are not decoded further. The answers must be DuckDB's for
// every kind of first key (signed, unsigned beyond 2^63, DECIMAL of 64 and 128 bits, floating
// with NaN, -0.0, infinities and NULLs, timestamps), both directions, ties broken by later
// keys, OFFSET, a WHERE clause, LIMITs of 0 and beyond the row count, and at every thread
// count; EXPLAIN shows the bound.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/oracle.h"
#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::ReplaceAll;
using testing::TarnCsv;

// 60,000 rows in row groups of 2,500: many parts and batches, so the bound tightens while the
// scan runs. `i` has many ties and NULLs; `d` NaN, -0.0, +-inf and NULLs.
std::string WriteTestFile(const testing::TempDir& dir) {
  const std::string path = dir.Join("top.parquet");
  Status status = testing::DuckDBExecute(
      "COPY (SELECT range AS id, CASE WHEN range % 13 = 0 THEN NULL ELSE (range * 7919) % 211 "
      "END AS i, CASE WHEN range % 17 = 0 THEN NULL WHEN range % 1009 = 0 THEN 'nan'::DOUBLE "
      "WHEN range % 2003 = 0 THEN '-inf'::DOUBLE WHEN range % 3001 = 0 THEN 'inf'::DOUBLE WHEN "
      "range % 7 = 0 THEN -0.0 ELSE ((range * 104729) % 100003)::DOUBLE / 7 END AS d, "
      "((range * 2654435761) % 4294967291)::UBIGINT * 4000000000 AS u, TIMESTAMP '2001-01-01' + "
      "to_seconds((range * 48271) % 5000000) AS ts, ((range * 31) % 97)::REAL AS f, "
      "'x' || (range % 5)::VARCHAR AS s, CASE WHEN range % 11 = 0 THEN NULL ELSE "
      "((range * 7) % 1000)::DECIMAL(15,2) * 0.25 END AS m, (range % 3000)::DECIMAL(38,0) * "
      "CAST('10000000000000000000000' AS DECIMAL(38,0)) AS big FROM range(60000)) TO '" + path +
      "' (FORMAT parquet, ROW_GROUP_SIZE 2500)");
  EXPECT_TRUE(status.ok()) << status.ToString();
  return path;
}

const std::vector<std::string> kQueries = {
    "SELECT id, i FROM TBL ORDER BY i DESC, id LIMIT 10",
    "SELECT id, i, s FROM TBL ORDER BY i, id DESC LIMIT 25",
    "SELECT id, d FROM TBL ORDER BY d DESC, id LIMIT 30",
    "SELECT id, d FROM TBL ORDER BY d, id LIMIT 12",
    "SELECT id, u FROM TBL ORDER BY u DESC, id LIMIT 5",
    "SELECT id, u FROM TBL ORDER BY u, id LIMIT 5",
    "SELECT id, ts, s FROM TBL WHERE s <> 'x3' ORDER BY ts, id LIMIT 7",
    "SELECT id, f FROM TBL ORDER BY f DESC, id LIMIT 9",
    "SELECT id, f FROM TBL ORDER BY f DESC NULLS FIRST, id LIMIT 5",
    "SELECT id, m FROM TBL ORDER BY m DESC, id LIMIT 15",
    "SELECT id, m FROM TBL WHERE i > 3 ORDER BY m, id LIMIT 15",
    "SELECT id, big FROM TBL ORDER BY big DESC, id LIMIT 4",
    "SELECT id, i FROM TBL ORDER BY i DESC, id LIMIT 3 OFFSET 40",
    "SELECT id, i FROM TBL WHERE id % 3 = 0 ORDER BY i DESC, id LIMIT 200",
    "SELECT count(*) FROM (SELECT id FROM TBL ORDER BY d DESC LIMIT 0)",
    "SELECT count(*), sum(id) FROM (SELECT id FROM TBL ORDER BY i DESC LIMIT 100000)",
};

TEST(TopNBoundTest, AnswersEqualDuckDBAtEveryThreadCount) {
  testing::TempDir dir;
  const std::string file = WriteTestFile(dir);
  std::vector<std::string> queries;
  for (const std::string& text : kQueries) {
    queries.push_back(ReplaceAll(text, "TBL", "'" + file + "'"));
  }
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  for (int threads : {1, 2, 3}) {
    Session session;
    ASSERT_TRUE(session.Execute("SET threads = " + std::to_string(threads)).ok());
    for (size_t q = 0; q < queries.size(); ++q) {
      ASSERT_TRUE(expected[q].ok()) << queries[q] << "\n" << expected[q].status().ToString();
      Result<std::string> actual = TarnCsv(&session, queries[q]);
      ASSERT_TRUE(actual.ok()) << queries[q] << "\n" << actual.status().ToString();
      EXPECT_EQ(*actual, *expected[q]) << queries[q] << " at " << threads << " threads";
    }
  }
}

TEST(TopNBoundTest, ExplainShowsTheBound) {
  testing::TempDir dir;
  const std::string file = WriteTestFile(dir);
  Session session;
  auto explain = [&](const std::string& sql) {
    const std::string query = ReplaceAll(sql, "TBL", "'" + file + "'");
    Result<std::string> text = TarnCsv(&session, "EXPLAIN " + query);
    EXPECT_TRUE(text.ok()) << text.status().ToString();
    return text.ok() ? *text : "";
  };
  EXPECT_NE(explain("SELECT id FROM TBL WHERE s <> 'x1' ORDER BY d DESC, id LIMIT 3")
                .find("while decoding: top-N bound on d"),
            std::string::npos);
  // No bound: NULLS FIRST, a computed first key, no LIMIT, or an aggregate below.
  for (const char* sql : {"SELECT id FROM TBL ORDER BY d NULLS FIRST LIMIT 3",
                          "SELECT id FROM TBL ORDER BY d + 1 LIMIT 3",
                          "SELECT id FROM TBL ORDER BY d",
                          "SELECT i, count(*) AS n FROM TBL GROUP BY i ORDER BY i LIMIT 3"}) {
    EXPECT_EQ(explain(sql).find("top-N bound"), std::string::npos) << sql;
  }
}

}  // namespace
}  // namespace tarn
