// Pieces of DuckDB's dialect against DuckDB: GLOB and SIMILAR TO, LIMIT p% / p PERCENT; each
// query's CSV (header included) equals DuckDB's at 1 and 2 threads, and what DuckDB refuses
// tarn refuses with DuckDB's class of error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/sql_test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

// Texts with the glob metacharacters, an empty text and a NULL.
const char* const kTexts =
    "(SELECT * FROM (VALUES (1, 'abc'), (2, 'a*b'), (3, ''), (4, NULL), (5, 'a[b]'), "
    "(6, 'ab\\c'), (7, 'bbc'), (8, 'a?c'), (9, 'é'), (10, 'ABC')) v(id, s))";

std::vector<std::string> WithTable(const std::vector<std::string>& queries, const char* key,
                                   const char* table) {
  std::vector<std::string> out;
  for (const std::string& q : queries) out.push_back(testing::ReplaceAll(q, key, table));
  return out;
}

TEST(DialectTest, GlobEqualsDuckDB) {
  testing::ExpectQueriesMatchDuckDB(WithTable(
      {
          // Over a column: the pattern constant (one matcher for all rows).
          "SELECT id, s GLOB 'a*' AS a_star, s GLOB '?bc' AS one_bc, s GLOB '*' AS any, "
          "s GLOB '' AS empty FROM $T ORDER BY id",
          "SELECT id, s GLOB 'a[*?]?' AS class, s GLOB '[!a]*' AS negated, "
          "s GLOB '[a-c][a-c]c' AS ranges, s GLOB 'a\\*b' AS escaped FROM $T ORDER BY id",
          "SELECT id, s GLOB 'a[[]b]' AS open_bracket, s GLOB '[]a]*' AS close_first, "
          "s GLOB 'ab\\\\c' AS backslash, s GLOB '?' AS one_byte FROM $T ORDER BY id",
          "SELECT id FROM $T WHERE s GLOB '*b*' ORDER BY id",
          "SELECT id FROM $T WHERE NOT (s GLOB '*c') ORDER BY id",
          // Patterns per row, and constants on both sides.
          "SELECT id, s GLOB p AS m FROM $T JOIN (VALUES ('a*'), ('*c'), (NULL)) p(p) ON true "
          "ORDER BY id, p NULLS FIRST",
          "SELECT 'abc' GLOB 'a*' AS a, 'a' GLOB '[' AS b, 'a' GLOB '[a' AS c, 'a' GLOB '[!]' AS d, "
          "'a\\' GLOB 'a\\' AS e, '-' GLOB '[a-]' AS f, 'ab' GLOB 'a[^b]' AS g, "
          "'' GLOB '' AS h, '' GLOB '*' AS i, 'x' GLOB '' AS j, NULL GLOB 'a' AS k, "
          "'a' GLOB NULL AS l, 'aaaaaaaaaab' GLOB '*a*a*a*a*b' AS m",
          // SIMILAR TO: a regular expression over the whole text.
          "SELECT id, s SIMILAR TO 'a.c' AS full, s NOT SIMILAR TO '[ab]+c?' AS negated, "
          "s SIMILAR TO '(?i)abc' AS folded FROM $T ORDER BY id",
          "SELECT 'abc' SIMILAR TO 'b' AS a, 'abc' SIMILAR TO NULL AS b, "
          "'a' NOT SIMILAR TO NULL AS c",
      },
      "$T", kTexts));
}

TEST(DialectTest, GlobRefusedAsDuckDBRefusesIt) {
  // DuckDB's grammar has neither NOT GLOB nor GLOB ... ESCAPE (tarn's syntax errors carry no
  // "Parser Error" class, so these are checked apart).
  Session session;
  for (const char* query : {"SELECT 'a' NOT GLOB 'b'", "SELECT 'abc' GLOB 'a*' ESCAPE '\\'"}) {
    Result<std::string> refused = testing::TarnCsv(&session, query);
    ASSERT_FALSE(refused.ok()) << query;
    EXPECT_NE(refused.status().message().find("syntax error"), std::string::npos)
        << refused.status().ToString();
  }
  testing::ExpectRefusedLikeDuckDB({
      "SELECT 1 GLOB 'a'",
      "SELECT 'abc' SIMILAR TO 'a.*' ESCAPE 'x'",
      "SELECT 'abc' SIMILAR TO '('",
  });
}

// LIMIT p%: the share of the rows the query produces (after ORDER BY), truncated; OFFSET skips
// rows before it; NULL is no limit.
TEST(DialectTest, LimitPercentEqualsDuckDB) {
  testing::ExpectQueriesMatchDuckDB({
      "SELECT * FROM range(10) LIMIT 30%",
      "SELECT * FROM range(10) LIMIT 25 PERCENT",
      "SELECT * FROM range(10) ORDER BY range DESC LIMIT 25% OFFSET 2",
      "SELECT * FROM range(10) OFFSET 3 LIMIT 50%",
      "SELECT * FROM range(10) LIMIT 20 % OFFSET 8",
      "SELECT * FROM range(10) LIMIT 0%",
      "SELECT * FROM range(10) LIMIT 100%",
      "SELECT * FROM range(10) LIMIT 12.5%",
      "SELECT * FROM range(7) LIMIT 99.9%",
      "SELECT * FROM range(3) LIMIT 50%",
      "SELECT * FROM range(0) LIMIT 50%",
      "SELECT * FROM range(10) LIMIT NULL%",
      "SELECT * FROM range(10) LIMIT '20'%",
      "SELECT count(*) AS c FROM (SELECT * FROM range(100) LIMIT 29%)",
      "SELECT count(*) AS c FROM (SELECT * FROM range(1000) LIMIT 0.57%)",
      "SELECT count(*) AS c FROM (SELECT * FROM range(5000) WHERE range % 3 = 0 LIMIT 10%)",
      "SELECT range % 4 AS k, count(*) AS c FROM range(100) GROUP BY k ORDER BY k LIMIT 50%",
      "SELECT * FROM range(4) UNION ALL SELECT * FROM range(4) ORDER BY 1 LIMIT 75%",
      "WITH t AS (SELECT * FROM range(20) ORDER BY range DESC LIMIT 10%) SELECT * FROM t",
      "SELECT 42 AS x LIMIT 100%",
      "SELECT 42 AS x LIMIT 99%",
  });
}

TEST(DialectTest, LimitPercentRefusedAsDuckDBRefusesIt) {
  testing::ExpectRefusedLikeDuckDB({
      "SELECT * FROM range(10) LIMIT 150%",
      "SELECT * FROM range(10) LIMIT -1%",
      "SELECT * FROM range(10) LIMIT 100.5 PERCENT",
  });
}

}  // namespace
}  // namespace tarn
