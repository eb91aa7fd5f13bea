// DuckDB's friendlier SQL against DuckDB: SELECT DISTINCT ON, * REPLACE (with EXCLUDE and over
// joins), COLUMNS with a regular expression, a list of names or a lambda, PIVOT and UNPIVOT;
// each query's CSV (header included) equals DuckDB's at 1 and 2 threads, and what DuckDB
// refuses tarn refuses with DuckDB's class of error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/sql_test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

// Groups with ties, NULL keys and NULL values.
const char* const kTable =
    "(SELECT * FROM (VALUES (1, 'a', 10, 1.5), (1, 'b', 30, NULL), (2, 'a', 20, 2.5), "
    "(2, NULL, 20, 0.5), (NULL, 'c', 5, 9.0), (3, 'c', NULL, 3.5), (3, 'a', 7, 1.0)) "
    "v(g, s, n, d))";

const std::vector<std::string> kQueries = {
    // DISTINCT ON: the first row of each key in ORDER BY's order.
    "SELECT DISTINCT ON (g) g, s, n FROM $T t ORDER BY g NULLS FIRST, n DESC NULLS LAST",
    "SELECT DISTINCT ON (g) g, n AS m FROM $T t ORDER BY g, m",
    "SELECT DISTINCT ON (g, s) g, s, d FROM $T t ORDER BY g, s NULLS FIRST, d DESC",
    "SELECT DISTINCT ON (s) s, count(*) AS c FROM $T t GROUP BY s ORDER BY s NULLS FIRST",
    "SELECT DISTINCT ON (g % 2) g % 2 AS parity, n FROM $T t WHERE g IS NOT NULL "
    "ORDER BY g % 2, n NULLS LAST LIMIT 1",
    "SELECT DISTINCT ON (g) g, s FROM $T t ORDER BY 1 NULLS FIRST, 2 DESC",
    // * REPLACE and * EXCLUDE.
    "SELECT * REPLACE (n * 2 AS n) FROM $T t ORDER BY g, s",
    "SELECT * EXCLUDE (d) REPLACE (upper(s) AS s, n + 1 AS n) FROM $T t ORDER BY g, s",
    "SELECT * REPLACE (coalesce(s, '?') AS s) FROM $T t JOIN (SELECT 1 AS k) u ON t.g = u.k "
    "ORDER BY s",
    // COLUMNS.
    "SELECT COLUMNS('^[gs]$') FROM $T t ORDER BY g, s",
    "SELECT min(COLUMNS('n|d')) FROM $T t",
    "SELECT max(COLUMNS(*)) FROM $T t",
    "SELECT COLUMNS(c -> c LIKE '%d%' OR c = 'g') FROM $T t ORDER BY g, d",
    "SELECT COLUMNS(['s', 'g']) FROM $T t ORDER BY g, s",
    "SELECT COLUMNS(*) + 1 FROM (SELECT 1 AS a, 2 AS b)",
    // PIVOT: values found while planning (NULL left out) or listed; one or several aggregates;
    // implicit and explicit groups; counts without USING; values of other types.
    "PIVOT $T ON s USING sum(n) ORDER BY g NULLS FIRST, d",
    "PIVOT $T ON s USING sum(n) GROUP BY g ORDER BY g NULLS FIRST",
    "PIVOT $T ON s USING sum(n) AS total, max(d) AS top GROUP BY g ORDER BY g NULLS FIRST",
    "PIVOT $T ON s IN ('a', 'zz') USING min(n) GROUP BY g ORDER BY g NULLS FIRST",
    "PIVOT (SELECT g, s FROM $T t) ON s ORDER BY g NULLS FIRST",
    "PIVOT $T ON g USING count(*) GROUP BY s ORDER BY s NULLS FIRST",
    "PIVOT (SELECT * FROM (VALUES (DATE '2020-01-01', 1), (DATE '2021-05-02', 2)) t(d, v)) ON d "
    "USING sum(v)",
    "SELECT * FROM (PIVOT $T ON s USING sum(n) GROUP BY g) p WHERE g > 1 ORDER BY g",
    // UNPIVOT: every other column, then one row per named column; NULL values left out.
    "UNPIVOT $T ON n, d ORDER BY g NULLS FIRST, s NULLS FIRST, name",
    "UNPIVOT (SELECT g, n, d FROM $T t) ON n, d INTO NAME col VALUE val "
    "ORDER BY g NULLS FIRST, col, val",
    "SELECT name, sum(value) AS total FROM (UNPIVOT (SELECT 1 AS id, 2 AS a, 3 AS b) ON a, b) "
    "GROUP BY name ORDER BY name",
};

const std::vector<std::string> kFailing = {
    "SELECT * REPLACE (1 AS nope) FROM $T t",
    "SELECT COLUMNS('nope') FROM $T t",
};

TEST(FriendlySqlTest, EqualsDuckDB) {
  std::vector<std::string> queries;
  for (const std::string& q : kQueries) queries.push_back(testing::ReplaceAll(q, "$T", kTable));
  testing::ExpectQueriesMatchDuckDB(queries);
}

TEST(FriendlySqlTest, RefusedAsDuckDBRefusesIt) {
  std::vector<std::string> queries;
  for (const std::string& q : kFailing) queries.push_back(testing::ReplaceAll(q, "$T", kTable));
  testing::ExpectRefusedLikeDuckDB(queries);
}

}  // namespace
}  // namespace tarn
