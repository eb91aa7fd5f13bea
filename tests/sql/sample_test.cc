// USING SAMPLE and TABLESAMPLE: reservoir samples have exactly min(n, rows) distinct input rows
// and pick every row equally often; bernoulli and system keep about their percentage; a seed
// repeats a sample; the sample is taken after WHERE; bad sizes and methods are refused with
// DuckDB's messages. (DuckDB's random streams differ from tarn's, so only these properties
// are compared, every run seeded so none can flake.)
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "support/sql_test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::TarnCsv;

// The query's rows, header dropped.
std::vector<std::string> Rows(Session* session, const std::string& sql) {
  Result<std::string> csv = TarnCsv(session, sql);
  EXPECT_TRUE(csv.ok()) << sql << "\n" << csv.status().ToString();
  std::vector<std::string> rows;
  if (!csv.ok()) return rows;
  size_t start = csv->find('\n') + 1;
  while (start < csv->size()) {
    size_t end = csv->find('\n', start);
    rows.push_back(csv->substr(start, end - start));
    start = end + 1;
  }
  return rows;
}

int64_t Count(Session* session, const std::string& sql) {
  std::vector<std::string> rows = Rows(session, sql);
  return rows.size() == 1 ? std::stoll(rows[0]) : -1;
}

TEST(SampleTest, ReservoirTakesExactlyNDistinctRowsAndRepeatsWithASeed) {
  for (int threads : {1, 2}) {
    Session session;
    ASSERT_TRUE(session.Execute("SET threads = " + std::to_string(threads)).ok());
    const std::string sql = "SELECT range FROM range(300000) USING SAMPLE 25 ROWS (reservoir, 7)";
    std::vector<std::string> first = Rows(&session, sql);
    ASSERT_EQ(first.size(), 25u);
    std::set<std::string> distinct(first.begin(), first.end());
    EXPECT_EQ(distinct.size(), 25u);
    for (const std::string& row : first) {
      const int64_t v = std::stoll(row);
      EXPECT_TRUE(v >= 0 && v < 300000) << v;
    }
    EXPECT_EQ(Rows(&session, sql), first);  // the same seed, the same sample
    EXPECT_NE(Rows(&session, "SELECT range FROM range(300000) USING SAMPLE 25 ROWS (reservoir, 8)"),
              first);
    EXPECT_EQ(Count(&session, "SELECT count(*) FROM range(40) USING SAMPLE 100 ROWS"), 40);
    EXPECT_EQ(Count(&session, "SELECT count(*) FROM range(1000) USING SAMPLE reservoir(50%) "
                              "REPEATABLE (42)"),
              500);
    EXPECT_EQ(Count(&session, "SELECT count(*) FROM range(1000) USING SAMPLE 0 ROWS"), 0);
  }
}

TEST(SampleTest, ReservoirPicksEveryRowEquallyOften) {
  Session session;
  std::vector<int> hits(10, 0);
  for (int seed = 1; seed <= 2000; ++seed) {
    std::vector<std::string> rows = Rows(
        &session, "SELECT range FROM range(10) USING SAMPLE 1 ROWS (reservoir, " + std::to_string(seed) + ")");
    ASSERT_EQ(rows.size(), 1u);
    ++hits[static_cast<size_t>(std::stoi(rows[0]))];
  }
  // 200 expected each; the binomial's deviation is 13.4.
  for (int v = 0; v < 10; ++v) EXPECT_TRUE(hits[v] > 130 && hits[v] < 270) << v << ": " << hits[v];
}

TEST(SampleTest, PercentagesKeepAboutTheirShare) {
  Session session;
  const int64_t bernoulli = Count(
      &session, "SELECT count(*) FROM range(200000) USING SAMPLE 10 PERCENT (bernoulli, 3)");
  EXPECT_GT(bernoulli, 18000);
  EXPECT_LT(bernoulli, 22000);
  const int64_t system = Count(&session, "SELECT count(*) FROM range(2000000) TABLESAMPLE 10% REPEATABLE (5)");
  EXPECT_GT(system, 100000);
  EXPECT_LT(system, 300000);
  EXPECT_EQ(system % 2048, 0);  // whole runs of rows
  EXPECT_EQ(Count(&session, "SELECT count(*) FROM range(5000) USING SAMPLE 100%"), 5000);
  EXPECT_EQ(Count(&session, "SELECT count(*) FROM range(5000) USING SAMPLE 0% (bernoulli)"), 0);
}

TEST(SampleTest, SamplesAfterWhereAndUnderTheTablesName) {
  Session session;
  for (const std::string& row :
       Rows(&session, "SELECT range FROM range(100000) WHERE range % 7 = 3 USING SAMPLE 50 ROWS (reservoir, 1)")) {
    EXPECT_EQ(std::stoll(row) % 7, 3) << row;
  }
  EXPECT_EQ(Count(&session, "SELECT count(DISTINCT a.x) FROM range(100) a(x) TABLESAMPLE 10 ROWS "
                            "JOIN range(100) b(y) ON a.x = b.y"),
            10);
  EXPECT_EQ(Count(&session, "SELECT count(*) FROM (SELECT t.range FROM range(100) t TABLESAMPLE "
                            "reservoir(5 ROWS))"),
            5);
  Result<std::string> plan = TarnCsv(&session, "EXPLAIN SELECT * FROM range(10) USING SAMPLE 10.5%");
  ASSERT_TRUE(plan.ok());
  EXPECT_NE(plan->find("SAMPLE"), std::string::npos);
  EXPECT_NE(plan->find("system 10.5%"), std::string::npos) << *plan;
}

TEST(SampleTest, RefusesWhatDuckDBRefuses) {
  Session session;
  struct Case {
    const char* sql;
    const char* message;
  };
  const Case cases[] = {
      {"SELECT * FROM range(10) USING SAMPLE 150%", "out of range, must be between 0 and 100"},
      {"SELECT * FROM range(10) USING SAMPLE 5 (system)", "cannot be used with a discrete sample count"},
      {"SELECT * FROM range(10) USING SAMPLE 5 (nope)", "Unrecognized sampling method"},
      {"SELECT * FROM range(10) USING SAMPLE 2.5 ROWS", "non-negative integer"},
  };
  for (const Case& c : cases) {
    Result<std::string> out = TarnCsv(&session, c.sql);
    ASSERT_FALSE(out.ok()) << c.sql;
    EXPECT_NE(out.status().message().find(c.message), std::string::npos)
        << c.sql << ": " << out.status().message();
  }
}

}  // namespace
}  // namespace tarn
