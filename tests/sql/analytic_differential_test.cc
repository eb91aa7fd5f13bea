// Random analytic queries over small random tables, in tarn and in DuckDB, compared as CSV
// text: window functions, grouping sets, and the other constructs (UNION BY NAME, ANY / ALL
// subqueries, WITH RECURSIVE).
//
// DuckDB writes a table with a unique id, a partition key g and an order key x with few
// distinct values (so peers repeat), NULLs in every column but id, and an empty table of the
// same columns. Each query computes two or three window functions with random PARTITION BY,
// ORDER BY (directions, NULLS FIRST / LAST) and ROWS, RANGE or GROUPS frames, and lists every
// row ordered by id. Functions whose value depends on how ties are ordered (row_number, ntile,
// lag, lead, the value functions, anything over a ROWS frame) order by id last, so the answer
// is unique; the others order by peers only. Some queries filter with QUALIFY, or compute
// windows over a GROUP BY. The grouping-set queries group by random GROUPING SETS, ROLLUP
// and CUBE of g, x and s (crossed with plain items too) with grouping() and HAVING. The other
// queries combine random projections of the table by UNION [ALL] BY NAME, compare with ANY /
// ALL of a random subquery, or walk a recursive CTE over it. CI runs a fixed set of seeds;
// TARN_LONG=1 runs many more. A failure prints its seed and query.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "support/oracle.h"
#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::TarnCsv;

struct Tables {
  std::string table;  // the random table's path, quoted
  std::string empty;  // the empty table's path, quoted
};

Tables WriteTables(const testing::TempDir& dir) {
  Tables tables;
  tables.table = "'" + dir.path() + "/t.parquet'";
  tables.empty = "'" + dir.path() + "/empty.parquet'";
  const std::string sql =
      "COPY (SELECT range::INTEGER AS id, "
      "CASE WHEN range % 7 = 3 THEN NULL ELSE ((range * 5 + 1) % 4)::INTEGER END AS g, "
      "CASE WHEN (range * 3) % 11 = 2 THEN NULL ELSE ((range * 13 + 5) % 6)::INTEGER END AS x, "
      "CASE WHEN (range * 7) % 9 = 4 THEN NULL ELSE ((range * 29 + 3) % 23 - 5)::INTEGER END AS v, "
      "CASE WHEN range % 8 = 5 THEN NULL ELSE 's' || ((range * 17) % 5)::VARCHAR END AS s "
      "FROM range(37)) TO " + tables.table + ";\n"
      "COPY (SELECT * FROM " + tables.table + " LIMIT 0) TO " + tables.empty + ";\n";
  Status written = testing::DuckDBExecute(sql);
  EXPECT_TRUE(written.ok()) << written.ToString();
  return tables;
}

class QueryMaker {
 public:
  explicit QueryMaker(std::mt19937* rng) : rng_(rng) {}

  int Pick(int n) { return static_cast<int>((*rng_)() % static_cast<unsigned>(n)); }

  std::string Offset() { return std::to_string(Pick(4)); }

  // A frame bound; `start` excludes UNBOUNDED FOLLOWING, an end UNBOUNDED PRECEDING. Bounds
  // come in the order UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING, UNBOUNDED
  // FOLLOWING, and the end is not before the start in it.
  std::string Bound(int kind, bool range) {
    const std::string offset = range && Pick(3) == 0 ? "1.5" : Offset();
    switch (kind) {
      case 0: return "UNBOUNDED PRECEDING";
      case 1: return offset + " PRECEDING";
      case 2: return "CURRENT ROW";
      case 3: return offset + " FOLLOWING";
      default: return "UNBOUNDED FOLLOWING";
    }
  }

  // A frame whose end is not before its start: DuckDB gives inverted frames (3 FOLLOWING AND
  // 1 FOLLOWING) negative counts, tarn empty frames.
  std::string Frame(const std::string& unit) {
    const int start = Pick(4);
    const int end = start + Pick(5 - start);
    const int end_kind = end == 0 ? 1 : end;
    std::string first = Bound(start, unit == "RANGE");
    std::string second = Bound(end_kind, unit == "RANGE");
    if (start == end_kind && (start == 1 || start == 3)) {
      // Two offsets of one direction: the farther one first for PRECEDING, last for FOLLOWING.
      const double a = std::stod(first);
      const double b = std::stod(second);
      if ((start == 1 && a < b) || (start == 3 && a > b)) std::swap(first, second);
    }
    return " " + unit + " BETWEEN " + first + " AND " + second;
  }

  std::string Direction() {
    static const char* kDirections[] = {"", " DESC", " ASC NULLS FIRST", " DESC NULLS LAST",
                                        " NULLS FIRST", " DESC NULLS FIRST"};
    return kDirections[Pick(6)];
  }

  // One window function with its OVER clause.
  std::string Window() {
    static const char* kPartitions[] = {"", "PARTITION BY g", "PARTITION BY g, x % 2",
                                        "PARTITION BY s", "PARTITION BY x IS NULL"};
    static const char* kRanking[] = {"rank()", "dense_rank()", "percent_rank()", "cume_dist()"};
    static const char* kOrdered[] = {"row_number()", "ntile(3)",  "lag(v)",
                                     "lead(v, 2)",    "lag(s, 1, 'none')", "lead(v, 1, -1)",
                                     "ntile(7)"};
    static const char* kFramed[] = {"first_value(v)", "last_value(s)", "nth_value(v, 2)",
                                    "count(*)",       "count(v)",      "sum(v)",
                                    "avg(v)",         "min(v)",        "max(s)",
                                    "min(s)",         "max(v)"};
    const std::string partition = kPartitions[Pick(5)];
    const int family = Pick(3);
    std::string function;
    std::string order;
    std::string frame;
    const std::string direction = Direction();
    if (family == 0) {
      function = kRanking[Pick(4)];
      order = Pick(4) == 0 ? "" : "x" + direction;
      if (!order.empty() && Pick(3) == 0) order += ", s" + Direction();
    } else if (family == 1) {
      function = kOrdered[Pick(7)];
      order = Pick(2) == 0 ? "id" + direction : "x" + direction + ", id";
    } else {
      function = kFramed[Pick(11)];
      const bool value_function = function.find("_value") != std::string::npos;
      const int unit = Pick(4);  // 0: default frame, 1: ROWS, 2: RANGE, 3: GROUPS
      // Aggregates over peers (RANGE, GROUPS, the default frame) do not depend on how ties
      // are ordered; value functions and ROWS frames do.
      if (unit == 1 || value_function) {
        order = Pick(3) == 0 ? "id" + direction : "x" + direction + ", id";
        if (unit == 1) frame = Frame("ROWS");
        if (unit == 2 && order == "id" + direction) frame = Frame("RANGE");
        if (unit == 3) frame = Frame("GROUPS");
      } else if (unit == 2) {
        order = "x" + direction;
        frame = Frame("RANGE");
      } else if (unit == 3) {
        order = "x" + direction;
        frame = Frame("GROUPS");
      } else {
        order = Pick(3) == 0 ? "" : "x" + direction;
      }
    }
    std::string over = partition;
    if (!order.empty()) over += std::string(over.empty() ? "" : " ") + "ORDER BY " + order;
    over += frame;
    return function + " OVER (" + over + ")";
  }

  std::string Query(const Tables& tables) {
    const std::string from = Pick(12) == 0 ? tables.empty : tables.table;
    const int columns = 2 + Pick(2);
    std::string list = "id AS c0";
    std::vector<std::string> windows;
    for (int c = 1; c <= columns; ++c) {
      windows.push_back(Window());
      list += ", " + windows.back() + " AS c" + std::to_string(c);
    }
    const int shape = Pick(6);
    if (shape == 0) {
      // QUALIFY on one of them.
      return "SELECT " + list + " FROM " + from + " QUALIFY c1 IS NOT NULL OR (" + windows[1] +
             ") IS NULL AND id % 3 = 0 ORDER BY id";
    }
    if (shape == 1) {
      // Windows over groups: the group key and aggregates as partition and order keys.
      static const char* kGrouped[] = {
          "rank() OVER (ORDER BY sum(v) DESC NULLS LAST, g)", "sum(count(*)) OVER ()",
          "sum(sum(v)) OVER (ORDER BY g NULLS FIRST ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)",
          "lag(max(s)) OVER (ORDER BY g NULLS LAST)", "count(*) OVER (PARTITION BY min(x) IS NULL)"};
      return "SELECT g AS c0, count(*) AS c1, " + std::string(kGrouped[Pick(5)]) + " AS c2, " +
             kGrouped[Pick(5)] + " AS c3 FROM " + from + " GROUP BY g ORDER BY g NULLS FIRST";
    }
    if (shape == 2) {
      // A filter below, and the window in an expression.
      return "SELECT id AS c0, " + windows[0] + " IS NULL AS c1, coalesce((" + windows[1] +
             ")::VARCHAR, '-') AS c2 FROM " + from + " WHERE v IS NULL OR v > -3 ORDER BY id";
    }
    return "SELECT " + list + " FROM " + from + " ORDER BY id";
  }

 private:
  std::mt19937* rng_;
};

std::string GroupingSetsQuery(std::mt19937* rng, const Tables& tables) {
  QueryMaker maker(rng);
  static const char* kGroupings[] = {
      "ROLLUP (g, x, s)",       "CUBE (g, s), x",   "GROUPING SETS ((g), (x), (s), ())",
      "g, ROLLUP (x, s)",       "CUBE (g, x, s)",   "GROUPING SETS ((g, x), (s), (g, s, x))",
      "ROLLUP (s, g), x",       "GROUPING SETS (g, ROLLUP (x, s))", "ROLLUP ((g, x), s)"};
  static const char* kAggregates[] = {"count(*)", "sum(v)", "min(s)", "max(v)", "count(v)",
                                      "avg(v)"};
  const std::string grouping = kGroupings[maker.Pick(9)];
  const std::string from = maker.Pick(12) == 0 ? tables.empty : tables.table;
  std::string sql = "SELECT g AS c1, x AS c2, s AS c3, " + std::string(kAggregates[maker.Pick(6)]) +
                    " AS c4, " + kAggregates[maker.Pick(6)] +
                    " AS c5, grouping(g, x, s) AS c6, grouping(x) AS c7 FROM " + from;
  if (maker.Pick(3) == 0) sql += " WHERE v > -2 OR v IS NULL";
  sql += " GROUP BY " + grouping;
  if (maker.Pick(3) == 0) sql += " HAVING count(*) > 1";
  return sql + " ORDER BY c6, c1 NULLS FIRST, c2 NULLS FIRST, c3 NULLS FIRST";
}

std::string OtherQuery(std::mt19937* rng, const Tables& tables) {
  QueryMaker maker(rng);
  const std::string from = maker.Pick(12) == 0 ? tables.empty : tables.table;
  static const char* kFilters[] = {"", " WHERE v > 0", " WHERE g IS NULL", " WHERE s <> 's1'"};
  const int shape = maker.Pick(3);
  if (shape == 0) {
    // UNION [ALL] BY NAME of projections naming some of the same columns.
    static const char* kColumns[] = {"g, x", "x, g", "v AS g, s", "s, x, id", "id, v",
                                     "x AS v, g"};
    const std::string op = maker.Pick(2) == 0 ? " UNION BY NAME " : " UNION ALL BY NAME ";
    std::string sql = "SELECT " + std::string(kColumns[maker.Pick(6)]) + " FROM " + from +
                      kFilters[maker.Pick(4)] + op + "SELECT " + kColumns[maker.Pick(6)] +
                      " FROM " + tables.table + kFilters[maker.Pick(4)];
    return "SELECT * FROM (" + sql + ") ORDER BY ALL";
  }
  if (shape == 1) {
    // x op ANY / ALL (subquery), in WHERE or the select list.
    static const char* kOps[] = {"=", "<>", "<", "<=", ">", ">="};
    static const char* kSubqueries[] = {"SELECT x FROM %T WHERE g = 1", "SELECT v FROM %T WHERE v > 5",
                                        "SELECT g FROM %T", "SELECT x FROM %T WHERE false",
                                        "SELECT x FROM %T WHERE x IS NOT NULL AND id < 9"};
    std::string subquery = kSubqueries[maker.Pick(5)];
    subquery.replace(subquery.find("%T"), 2, tables.table);
    const std::string test = std::string("x ") + kOps[maker.Pick(6)] +
                             (maker.Pick(2) == 0 ? " ANY (" : " ALL (") + subquery + ")";
    if (maker.Pick(2) == 0) {
      return "SELECT id AS c0, " + test + " AS c1 FROM " + from + " ORDER BY id";
    }
    return "SELECT id AS c0, x AS c1 FROM " + from + " WHERE " + test + " ORDER BY id";
  }
  // A recursive walk: from each row with a key, follow id -> id + x (or to the row whose g is
  // the key) a few steps.
  static const char* kSteps[] = {
      "SELECT t.id, w.depth + 1 FROM walk w JOIN %T t ON t.id = w.id + 1 + coalesce(t.x, 0) % 3 "
      "WHERE w.depth < 4",
      "SELECT t.id, w.depth + 1 FROM walk w JOIN %T t ON t.g = w.id % 4 WHERE w.depth < 2",
      "SELECT w.id + 3, w.depth + 1 FROM walk w WHERE w.id < 30"};
  std::string step = kSteps[maker.Pick(3)];
  const size_t table_at = step.find("%T");
  if (table_at != std::string::npos) step.replace(table_at, 2, tables.table);
  const std::string op = maker.Pick(2) == 0 ? " UNION " : " UNION ALL ";
  return "WITH RECURSIVE walk(id, depth) AS (SELECT id, 0 FROM " + from +
         " WHERE x = " + std::to_string(maker.Pick(6)) + op + step +
         ") SELECT id AS c0, depth AS c1, count(*) AS c2 FROM walk GROUP BY ALL ORDER BY ALL";
}

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

TEST(AnalyticDifferentialTest, RandomWindowsMatchDuckDB) {
  testing::TempDir dir;
  Tables tables = WriteTables(dir);
  const bool long_run = std::getenv("TARN_LONG") != nullptr;
  CompareWithDuckDB(tables, 20000u, long_run ? 2000 : 150,
                    [](std::mt19937* rng, const Tables& t) { return QueryMaker(rng).Query(t); });
}

TEST(AnalyticDifferentialTest, RandomGroupingSetsMatchDuckDB) {
  testing::TempDir dir;
  Tables tables = WriteTables(dir);
  const bool long_run = std::getenv("TARN_LONG") != nullptr;
  CompareWithDuckDB(tables, 30000u, long_run ? 2000 : 80, GroupingSetsQuery);
}

TEST(AnalyticDifferentialTest, RandomSetsSubqueriesAndRecursionMatchDuckDB) {
  testing::TempDir dir;
  Tables tables = WriteTables(dir);
  const bool long_run = std::getenv("TARN_LONG") != nullptr;
  CompareWithDuckDB(tables, 40000u, long_run ? 2000 : 90, OtherQuery);
}

}  // namespace
}  // namespace tarn
