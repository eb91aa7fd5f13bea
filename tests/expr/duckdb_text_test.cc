// ast::ToDuckDBText against DuckDB itself: DuckDB prints a macro's body with the same
// ParsedExpression::ToString the DuckLake extension uses for sort-key expressions, so each
// expression's text is checked against `macro_definition` of a macro with that body.
#include <gtest/gtest.h>

#include "expr/parse/ast.h"
#include "support/sql_test_util.h"
#include "support/oracle.h"
#include "tarn/expr.h"

namespace tarn {
namespace {

using tarn::testing::SqlString;

TEST(DuckDBTextTest, SpellsExpressionsAsDuckDBDoes) {
  const std::vector<std::string> expressions = {
      "(id + 0)", "id+0", "-id", "-1", "id::BIGINT", "CASE WHEN id > 1 THEN 'a' END",
      "CASE id WHEN 1 THEN 'a' ELSE 'b' END", "id % 3 = 1", "a AND b OR c", "x IS NULL",
      "x IS NOT NULL", "x IN (1, 2)", "x NOT IN (1, 2)", "x BETWEEN 1 AND 2", "s LIKE 'a%'",
      "s ILIKE 'a%'", "a || b", "MyCol", "l[1]", "s.f", "date_trunc('day', ts)", "id <> 2",
      "id >= 2", "TRUE", "1.5", "CAST(x AS VARCHAR)", "TRY_CAST(x AS INTEGER)", "x::INT[]",
      "abs(-x)", "coalesce(a, b)", "LOWER(s)", "id // 2", "2 ^ 3", "'it''s'", "NULL",
      "(a + b) * c", "a * (b + c)", "x NOT BETWEEN 1 AND 2", "s NOT LIKE 'a%'", "count(*)",
      "count(*) FILTER (WHERE x > 1)", "sum(x) FILTER (WHERE x > 1)"};
  std::vector<std::string> queries;
  for (size_t i = 0; i < expressions.size(); ++i) {
    auto parsed = ParseExpression(expressions[i]);
    ASSERT_TRUE(parsed.ok()) << expressions[i] << ": " << parsed.status().ToString();
    const std::string ours = ast::ToDuckDBText(**parsed);
    queries.push_back(StrCat("CREATE MACRO m(id, x, a, b, c, s, l, ts, MyCol) AS ", expressions[i],
                             "; SELECT macro_definition = ", SqlString(ours),
                             " AS same, macro_definition FROM duckdb_functions() WHERE "
                             "function_name = 'm'"));
  }
  std::vector<Result<std::string>> answers = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(answers.size(), expressions.size());
  for (size_t i = 0; i < expressions.size(); ++i) {
    ASSERT_TRUE(answers[i].ok()) << expressions[i] << ": " << answers[i].status().ToString();
    EXPECT_EQ(answers[i]->rfind("same,macro_definition\ntrue,", 0), 0u)
        << expressions[i] << " -> "
        << ast::ToDuckDBText(**ParseExpression(expressions[i])) << "\nDuckDB: " << *answers[i];
  }
}

TEST(DuckDBTextTest, QuotesIdentifiersOnlyWhenDuckDBDoes) {
  EXPECT_EQ(ast::DuckDBIdentifier("id"), "id");
  EXPECT_EQ(ast::DuckDBIdentifier("MyCol"), "MyCol");
  EXPECT_EQ(ast::DuckDBIdentifier("my col"), "\"my col\"");
  EXPECT_EQ(ast::DuckDBIdentifier("a\"b"), "\"a\"\"b\"");
  EXPECT_EQ(ast::DuckDBIdentifier("1a"), "\"1a\"");
  EXPECT_EQ(ast::DuckDBIdentifier("select"), "\"select\"");
  EXPECT_EQ(ast::DuckDBIdentifier(""), "\"\"");
}

}  // namespace
}  // namespace tarn
