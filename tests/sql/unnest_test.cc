// UNNEST against DuckDB: in a select list (one or several calls, inside expressions, over
// aggregates, with *, DISTINCT, ORDER BY and LIMIT), as a table function in FROM, and joined
// laterally (comma, CROSS JOIN, LATERAL, LEFT JOIN ... ON true), over lists with NULLs, empty
// and NULL lists, nested lists and lists long enough to span batches; each query's CSV (header
// included) equals DuckDB's at 1 and 2 threads, and what DuckDB refuses tarn refuses.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/sql_test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::TarnCsv;

// Rows with lists of every shape: several elements, a NULL element, empty, NULL.
const char* const kTable =
    "(SELECT * FROM (VALUES (1, [1, 2, 3], 'x'), (2, [], 'y'), (3, NULL, 'z'), "
    "(4, [NULL, 5], NULL), (5, [6], 'w')) v(a, l, s))";

const std::vector<std::string> kQueries = {
    // In a select list.
    "SELECT unnest([1, 2, 3]) AS v",
    "SELECT a, unnest(l) AS e FROM $T t ORDER BY a, e NULLS FIRST",
    "SELECT a, unnest(l) AS x, unnest([a, a * 10, a * 100]) AS y FROM $T t ORDER BY a, y",
    "SELECT a, unnest(l) * 2 + a AS e FROM $T t ORDER BY a, e NULLS FIRST",
    "SELECT a, upper(s) AS u, unnest(l) AS e FROM $T t WHERE a > 1 ORDER BY a, e NULLS FIRST",
    "SELECT *, unnest(l) AS e FROM $T t ORDER BY a, e NULLS FIRST",
    "SELECT unnest(l) AS e FROM $T t ORDER BY a DESC, e NULLS FIRST",
    "SELECT DISTINCT unnest([3, 1, 3, 2]) AS v ORDER BY v",
    "SELECT unnest(range(10)) AS v ORDER BY v DESC LIMIT 3 OFFSET 1",
    "SELECT unnest([[1, 2], [3], NULL]) AS v ORDER BY v NULLS FIRST",
    "SELECT unnest(['a', NULL, 'ccc']) AS s ORDER BY s NULLS FIRST",
    "SELECT unnest([{'k': 1, 'v': 'one'}, {'k': 2, 'v': NULL}]) AS e",
    "SELECT unnest([7, 8, 9])",
    "SELECT unnest(NULL) AS v",
    "SELECT k, unnest(list_sort(list(v))) AS e FROM (SELECT i % 3 AS k, i AS v FROM range(10) r(i)) "
    "GROUP BY k ORDER BY k, e",
    "SELECT k, count(*) AS n, unnest([min(v), max(v)]) AS e FROM (SELECT i % 3 AS k, i AS v "
    "FROM range(10) r(i)) GROUP BY k HAVING count(*) > 3 ORDER BY k, e",
    "SELECT a, row_number() OVER (ORDER BY a) AS rn, unnest(l) AS e FROM $T t ORDER BY a, e NULLS FIRST",
    "SELECT count(*) AS n, sum(v) AS total FROM (SELECT unnest(range(i)) AS v FROM range(300) r(i))",
    "WITH x AS (SELECT unnest([1, 2, 4]) AS v) SELECT sum(v) AS total FROM x",
    "SELECT a FROM $T t WHERE a IN (SELECT unnest([2, 4, 9])) ORDER BY a",
    // As a table function.
    "SELECT * FROM unnest([1, 2, 3]) ORDER BY 1",
    "SELECT u.unnest FROM unnest(['x', 'y']) u ORDER BY 1",
    "SELECT * FROM unnest([1, 2, 3]) AS t(v) WHERE v > 1 ORDER BY v",
    "SELECT * FROM unnest([]::INTEGER[])",
    // Joined laterally.
    "SELECT a, v FROM $T t, unnest(t.l) AS u(v) ORDER BY a, v NULLS FIRST",
    "SELECT * FROM $T t CROSS JOIN unnest(t.l) ORDER BY a, 4 NULLS FIRST",
    "SELECT a, unnest FROM $T t, LATERAL unnest(l) ORDER BY a, unnest NULLS FIRST",
    "SELECT a, v FROM $T t LEFT JOIN unnest(t.l) AS u(v) ON true ORDER BY a, v NULLS FIRST",
    "SELECT a, v FROM $T t JOIN LATERAL unnest(t.l) AS u(v) ON true WHERE v > 1 ORDER BY a, v",
    "SELECT a, count(*) AS n, sum(v) AS total FROM $T t, unnest(t.l) AS u(v) GROUP BY a ORDER BY a",
    "SELECT t.a, o.b, v FROM $T t JOIN (SELECT 1 AS a, 'one' AS b UNION ALL SELECT 4, 'four') o "
    "ON t.a = o.a, unnest(t.l) AS u(v) ORDER BY t.a, v NULLS FIRST",
    "SELECT i, v FROM range(4) r(i), unnest(range(i)) AS u(v) ORDER BY i, v",
    "SELECT i, v, w FROM range(3) r(i), unnest(range(i)) AS u(v), unnest([v, -v]) AS x(w) "
    "ORDER BY i, v, w",
    "SELECT a.unnest AS x, b.unnest AS y FROM unnest([1, 2]) a, unnest([3, 4]) b ORDER BY ALL",
};

// Refused by DuckDB, and by tarn with DuckDB's class of error.
const std::vector<std::string> kFailing = {
    "SELECT unnest(1)",
    "SELECT sum(unnest([1, 2]))",
    "SELECT 1 WHERE unnest([1]) = 1",
    "SELECT * FROM unnest(NULL)",
    "SELECT a, v FROM $T t, unnest(t.a) AS u(v)",
};

TEST(UnnestTest, EqualsDuckDB) {
  std::vector<std::string> queries;
  for (const std::string& q : kQueries) queries.push_back(testing::ReplaceAll(q, "$T", kTable));
  testing::ExpectQueriesMatchDuckDB(queries);
}

TEST(UnnestTest, RefusedAsDuckDBRefusesIt) {
  std::vector<std::string> queries;
  for (const std::string& q : kFailing) queries.push_back(testing::ReplaceAll(q, "$T", kTable));
  testing::ExpectRefusedLikeDuckDB(queries);
}

TEST(UnnestTest, ExplainShowsTheOperator) {
  Session session;
  Result<std::string> plan =
      TarnCsv(&session, "EXPLAIN SELECT a, v FROM (SELECT 1 AS a, [1, 2] AS l) t, unnest(t.l) AS u(v)");
  ASSERT_TRUE(plan.ok()) << plan.status().ToString();
  EXPECT_NE(plan->find("UNNEST"), std::string::npos) << *plan;
}

}  // namespace
}  // namespace tarn
