// Random join queries over small random tables, in tarn and in DuckDB, compared as CSV text.
//
// DuckDB writes three Parquet tables with few distinct keys (so keys repeat), NULL keys and
// values, and one empty table; both engines read the same files. Each query joins two or
// three of them with a random join type (INNER, LEFT, RIGHT, FULL, SEMI, ANTI, CROSS, comma
// with WHERE), an equality, an equality plus a residual, or a non-equi condition, and either
// aggregates or lists every column in full order, so row order cannot differ (columns are
// aliased: the values are compared, not DuckDB's names for them). CI runs a fixed
// set of seeds; TARN_LONG=1 runs many more. A failure prints its seed and query.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "support/oracle.h"
#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::TarnCsv;

struct Tables {
  std::string dir;
  std::vector<std::string> names;  // t0, t1, t2, empty
};

std::string TablePath(const Tables& tables, const std::string& name) {
  return "'" + tables.dir + "/" + name + ".parquet'";
}

Tables WriteTables(const testing::TempDir& dir) {
  Tables tables;
  tables.dir = dir.path();
  const int rows[] = {9, 14, 6};
  std::string sql;
  for (int t = 0; t < 3; ++t) {
    const std::string name = "t" + std::to_string(t);
    const std::string seed = std::to_string(t * 7919 + 13);
    sql += "COPY (SELECT CASE WHEN (range * 37 + " + seed +
           ") % 6 = 0 THEN NULL ELSE ((range * 13 + " + seed +
           ") % 5)::INTEGER END AS k, CASE WHEN (range * 11 + " + seed +
           ") % 7 = 0 THEN NULL ELSE ((range * 29 + " + seed +
           ") % 9)::INTEGER END AS n, 'v' || ((range * 3 + " + seed +
           ") % 4)::VARCHAR AS s FROM range(" + std::to_string(rows[t]) + ")) TO '" +
           tables.dir + "/" + name + ".parquet';\n";
    tables.names.push_back(name);
  }
  sql += "COPY (SELECT 1::INTEGER AS k, 2::INTEGER AS n, 'x' AS s FROM range(0)) TO '" +
         tables.dir + "/empty.parquet';\n";
  tables.names.push_back("empty");
  Status written = testing::DuckDBExecute(sql);
  EXPECT_TRUE(written.ok()) << written.ToString();
  return tables;
}

std::string RandomQuery(std::mt19937* rng, const Tables& tables) {
  auto pick = [&](int n) { return static_cast<int>((*rng)() % static_cast<unsigned>(n)); };
  static const char* kJoins[] = {"JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL OUTER JOIN",
                                 "SEMI JOIN", "ANTI JOIN", "CROSS JOIN", ","};
  static const char* kConditions[] = {"a.k = b.k", "a.k = b.k AND a.n < b.n",
                                      "a.k = b.k AND a.s = b.s", "a.n < b.n",
                                      "a.k = b.k OR a.n = b.n", "a.k + 1 = b.k",
                                      "a.s = b.s AND a.k = b.k AND b.n IS NOT NULL"};
  const int join = pick(8);
  const std::string left = tables.names[static_cast<size_t>(pick(10) == 0 ? 3 : pick(3))];
  const std::string right = tables.names[static_cast<size_t>(pick(10) == 0 ? 3 : pick(3))];
  const std::string condition = kConditions[pick(7)];
  std::string from = TablePath(tables, left) + " a " + kJoins[join] + " " + TablePath(tables, right) + " b";
  std::string where;
  const bool semi = join == 4 || join == 5;
  if (join == 7) {
    where = " WHERE " + condition;
  } else if (join != 6) {
    from += " ON " + condition;
  }
  if (!semi && pick(3) == 0) {
    // A third table joined to b (explicit joins bind tighter than commas: ON sees b and c).
    const std::string third = tables.names[static_cast<size_t>(pick(3))];
    static const char* kThird[] = {"JOIN", "LEFT JOIN", "FULL JOIN"};
    from += std::string(" ") + kThird[pick(3)] + " " + TablePath(tables, third) + " c ON c.k = b.k";
  }
  if (pick(3) == 0) {
    std::string filter = pick(2) == 0 ? "a.n > 2" : "a.s <> 'v1'";
    where += where.empty() ? " WHERE " + filter : " AND " + filter;
  }
  if (semi) {
    if (pick(2) == 0) {
      return "SELECT count(*) AS c1, count(a.k) AS c2, sum(a.n) AS c3, min(a.s) AS c4 FROM " +
             from + where;
    }
    return "SELECT a.k AS c1, a.n AS c2, a.s AS c3 FROM " + from + where + " ORDER BY 1, 2, 3";
  }
  if (pick(2) == 0) {
    return "SELECT count(*) AS c1, count(a.k) AS c2, count(b.k) AS c3, sum(a.n) AS c4, "
           "sum(b.n) AS c5, min(b.s) AS c6, max(a.s) AS c7 FROM " +
           from + where;
  }
  return "SELECT a.k AS c1, a.n AS c2, a.s AS c3, b.k AS c4, b.n AS c5, b.s AS c6 FROM " + from +
         where + " ORDER BY 1, 2, 3, 4, 5, 6";
}

TEST(JoinDifferentialTest, RandomJoinsMatchDuckDB) {
  testing::TempDir dir;
  Tables tables = WriteTables(dir);
  const bool long_run = std::getenv("TARN_LONG") != nullptr;
  const int count = long_run ? 2000 : 80;
  std::vector<std::string> queries;
  std::vector<unsigned> seeds;
  for (int i = 0; i < count; ++i) {
    const unsigned seed = 1000u + static_cast<unsigned>(i);
    std::mt19937 rng(seed);
    seeds.push_back(seed);
    queries.push_back(RandomQuery(&rng, tables));
  }
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  for (int threads : {1, 2}) {
    Session session;
    ASSERT_TRUE(session.Execute("SET threads = " + std::to_string(threads)).ok());
    for (size_t i = 0; i < queries.size(); ++i) {
      ASSERT_TRUE(expected[i].ok()) << "seed " << seeds[i] << ": " << queries[i] << "\n"
                                    << expected[i].status().ToString();
      Result<std::string> actual = TarnCsv(&session, queries[i]);
      ASSERT_TRUE(actual.ok()) << "seed " << seeds[i] << ": " << queries[i] << "\n"
                               << actual.status().ToString();
      EXPECT_EQ(*actual, *expected[i]) << "seed " << seeds[i] << " at " << threads
                                       << " threads: " << queries[i];
    }
  }
}

}  // namespace
}  // namespace tarn
