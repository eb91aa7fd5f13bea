// Random join and subquery queries over small random tables, in tarn and in DuckDB, compared
// as CSV text.
//
// DuckDB writes three Parquet tables with few distinct keys (so keys repeat), NULL keys and
// values, and one empty table; both engines read the same files. Each query joins two or
// three of them with a random join type (INNER, LEFT, RIGHT, FULL, SEMI, ANTI, CROSS, comma
// with WHERE), an equality, an equality plus a residual, or a non-equi condition, and either
// aggregates or lists every column in full order, so row order cannot differ (columns are
// aliased: the values are compared, not DuckDB's names for them). The subquery queries filter
// or extend one table (or a join of two) by [NOT] EXISTS, [NOT] IN and correlated or
// uncorrelated scalar subqueries of every aggregate shape, with NULL keys, empty inputs and
// groups no outer row matches. The set operation queries combine two or three such queries
// by UNION, INTERSECT and EXCEPT, each with or without ALL, in any nesting. CI runs a fixed set of seeds; TARN_LONG=1 runs many more. A
// failure prints its seed and query.
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

// A query filtering (or extending) `a` by a subquery over `b`.
std::string RandomSubqueryQuery(std::mt19937* rng, const Tables& tables) {
  auto pick = [&](int n) { return static_cast<int>((*rng)() % static_cast<unsigned>(n)); };
  auto table = [&]() {
    return TablePath(tables, tables.names[static_cast<size_t>(pick(10) == 0 ? 3 : pick(3))]);
  };
  static const char* kCorrelations[] = {"b.k = a.k", "a.k = b.k AND b.s = a.s",
                                        "b.k = a.k + 1", "b.n = a.n AND b.k IS NOT NULL"};
  static const char* kInnerFilters[] = {"", " AND b.n > 2", " AND b.s <> 'v1'"};
  static const char* kAggregates[] = {"min(b.n)",   "max(b.n)",        "sum(b.n)",
                                      "count(*)",   "count(b.n)",      "0.5 * sum(b.n)",
                                      "avg(b.n)",   "max(b.n) - min(b.k)"};
  static const char* kComparisons[] = {"<", "<=", "=", "<>", ">", ">="};
  const std::string correlation = kCorrelations[pick(4)];
  const std::string inner_filter = kInnerFilters[pick(3)];
  std::string from = table() + " a";
  if (pick(4) == 0) from += " JOIN " + table() + " c ON c.k = a.k";
  const std::string b = table() + " b";
  const int shape = pick(7);
  std::string predicate;
  std::string extra;
  if (shape == 0) {
    predicate = std::string(pick(2) == 0 ? "" : "NOT ") + "EXISTS (SELECT 1 FROM " + b +
                " WHERE " + correlation + inner_filter + ")";
  } else if (shape == 1) {
    predicate = std::string("a.k ") + (pick(2) == 0 ? "" : "NOT ") + "IN (SELECT b.k FROM " + b +
                (inner_filter.empty() ? "" : " WHERE true" + inner_filter) + ")";
  } else if (shape <= 4) {
    // A correlated scalar subquery compared with an outer column (either side).
    const std::string subquery = std::string("(SELECT ") + kAggregates[pick(8)] + " FROM " + b +
                                 " WHERE " + correlation + inner_filter + ")";
    const std::string op = kComparisons[pick(6)];
    predicate = pick(2) == 0 ? "a.n " + op + " " + subquery : subquery + " " + op + " a.n";
    if (pick(3) == 0) predicate += pick(2) == 0 ? " AND a.s <> 'v2'" : " OR a.k = 1";
  } else if (shape == 5) {
    // IN (uncorrelated subquery) inside an expression: in the select list, or under OR.
    const std::string in = std::string("a.k ") + (pick(2) == 0 ? "" : "NOT ") +
                           "IN (SELECT b.k FROM " + b +
                           (inner_filter.empty() ? "" : " WHERE true" + inner_filter) + ")";
    if (pick(2) == 0) {
      extra = ", " + in + " AS c4";
    } else {
      predicate = in + " OR a.n = 3";
    }
  } else {
    // A correlated scalar subquery in the select list (integer aggregates: exact text).
    static const char* kListed[] = {"min(b.n)", "max(b.s)", "sum(b.n)", "count(*)",
                                    "count(b.n) + 1"};
    extra = std::string(", (SELECT ") + kListed[pick(5)] + " FROM " + b + " WHERE " +
            correlation + inner_filter + ") AS c4";
    if (pick(2) == 0) predicate = "a.n IS NOT NULL";
  }
  std::string sql = "SELECT a.k AS c1, a.n AS c2, a.s AS c3" + extra + " FROM " + from;
  if (!predicate.empty()) sql += " WHERE " + predicate;
  if (pick(3) == 0 && extra.empty()) {
    return "SELECT count(*) AS c1, sum(c2) AS c2, min(c3) AS c3 FROM (" + sql + ")";
  }
  return sql + (extra.empty() ? " ORDER BY 1, 2, 3" : " ORDER BY 1, 2, 3, 4");
}

// Two or three queries over the tables combined by set operations, ordered in full.
std::string RandomSetQuery(std::mt19937* rng, const Tables& tables) {
  auto pick = [&](int n) { return static_cast<int>((*rng)() % static_cast<unsigned>(n)); };
  // Aliased: DuckDB's CSV header renames a repeated name; the values are compared.
  static const char* kColumns[] = {"k AS c1, n AS c2", "n AS c1, k AS c2", "k + 1 AS c1, n AS c2",
                                   "k AS c1, NULL::INTEGER AS c2", "k AS c1, k AS c2"};
  static const char* kFilters[] = {"", " WHERE n > 2", " WHERE s <> 'v1'", " WHERE k IS NULL"};
  static const char* kOps[] = {"UNION", "UNION ALL", "INTERSECT", "INTERSECT ALL", "EXCEPT",
                               "EXCEPT ALL"};
  auto operand = [&]() {
    if (pick(8) == 0) {
      return std::string("SELECT * FROM (VALUES (1, 2), (NULL, NULL), (1, 2)) v(c1, c2)");
    }
    const std::string table = tables.names[static_cast<size_t>(pick(10) == 0 ? 3 : pick(3))];
    return std::string("SELECT ") + kColumns[pick(5)] + " FROM " + TablePath(tables, table) +
           kFilters[pick(4)];
  };
  std::string query = operand() + " " + kOps[pick(6)] + " " + operand();
  if (pick(2) == 0) {
    const std::string third = operand();
    const std::string op = kOps[pick(6)];
    // Parenthesized either way, or not: INTERSECT binds tighter than UNION and EXCEPT.
    const int nesting = pick(3);
    if (nesting == 0) query = "(" + query + ") " + op + " " + third;
    if (nesting == 1) query = query + " " + op + " (" + third + ")";
    if (nesting == 2) query = query + " " + op + " " + third;
  }
  if (pick(3) == 0) {
    return "SELECT count(*) AS n1, count(c2) AS n2, sum(c1) AS n3 FROM (" + query + ")";
  }
  return query + " ORDER BY 1, 2";
}

// Each query of `make` for `count` seeds from `first_seed`, at 1 and 2 threads, against DuckDB.
template <typename Make>
void CompareWithDuckDB(const Tables& tables, unsigned first_seed, int count, Make make) {
  std::vector<std::string> queries;
  std::vector<unsigned> seeds;
  for (int i = 0; i < count; ++i) {
    const unsigned seed = first_seed + static_cast<unsigned>(i);
    std::mt19937 rng(seed);
    seeds.push_back(seed);
    queries.push_back(make(&rng, tables));
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

TEST(JoinDifferentialTest, RandomJoinsMatchDuckDB) {
  testing::TempDir dir;
  Tables tables = WriteTables(dir);
  const bool long_run = std::getenv("TARN_LONG") != nullptr;
  CompareWithDuckDB(tables, 1000u, long_run ? 2000 : 80, RandomQuery);
}

TEST(JoinDifferentialTest, RandomSubqueriesMatchDuckDB) {
  testing::TempDir dir;
  Tables tables = WriteTables(dir);
  const bool long_run = std::getenv("TARN_LONG") != nullptr;
  CompareWithDuckDB(tables, 5000u, long_run ? 2000 : 120, RandomSubqueryQuery);
}

TEST(JoinDifferentialTest, RandomSetOperationsMatchDuckDB) {
  testing::TempDir dir;
  Tables tables = WriteTables(dir);
  const bool long_run = std::getenv("TARN_LONG") != nullptr;
  CompareWithDuckDB(tables, 9000u, long_run ? 2000 : 120, RandomSetQuery);
}

}  // namespace
}  // namespace tarn
