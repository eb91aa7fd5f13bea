// The statement grammar's limits and its cost on large inputs: every recursive rule stops at
// its nesting limit with "nested too deeply" and the position (a statement at the limit still
// plans and runs), and lexing, parsing and running large scripts and INSERTs takes time linear
// in their size. Runs under AddressSanitizer in CI, whose larger frames are the tight case for
// the stack.
#include <gtest/gtest.h>
#include <sys/mman.h>

#include <functional>
#include <string>

#include "expr/parse/lexer.h"
#include "expr/parse/parser.h"
#include "sql/parse/statement_parser.h"
#include "sql/parse/statement_parser_internal.h"
#include "support/fixture_lake.h"
#include "support/run_with_stack.h"
#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using sql::parser_internal::kMaxQueryDepth;
using testing::RunWithStack;

std::string Repeat(std::string_view piece, int times) {
  std::string out;
  out.reserve(piece.size() * static_cast<size_t>(times));
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

// SELECT * FROM (SELECT * FROM (... range(3) ...)) with `levels` subqueries. The statement and
// its outer query are two levels of nesting, each subquery one more.
std::string NestedSubqueries(int levels) {
  return "SELECT * FROM " + Repeat("(SELECT * FROM ", levels) + "range(3)" + Repeat(")", levels);
}

TEST(StatementLimitsTest, SubqueriesAtTheLimitRun) {
  const std::string sql = NestedSubqueries(kMaxQueryDepth - 2);
  // A quarter of a thread's usual 8 MiB: the margin for builds with larger frames.
  Status status = RunWithStack(2 << 20, [&]() -> Status {
    Session session;
    TARN_ASSIGN_OR_RETURN(std::string csv, testing::TarnCsv(&session, sql));
    if (csv != "range\n0\n1\n2\n") return Status::Internal("unexpected rows: ", csv);
    return Status::OK();
  });
  EXPECT_TRUE(status.ok()) << status.ToString();
}

TEST(StatementLimitsTest, DeeperQueriesAreRefusedWithThePosition) {
  for (int levels : {kMaxQueryDepth - 1, kMaxQueryDepth * 2, 8000}) {
    SCOPED_TRACE(levels);
    auto parsed = sql::ParseStatements(NestedSubqueries(levels));
    ASSERT_FALSE(parsed.ok());
    const std::string message = parsed.status().message();
    EXPECT_EQ(message.find("query nested too deeply (more than " +
                           std::to_string(kMaxQueryDepth) + " levels) (line 1, column "),
              0u)
        << message.substr(0, 400);
    EXPECT_LT(message.size(), 400u);
  }
  // The first refused level is the subquery that opens level kMaxQueryDepth + 1: its '('.
  auto parsed = sql::ParseStatements(NestedSubqueries(kMaxQueryDepth - 1));
  ASSERT_FALSE(parsed.ok());
  const size_t paren = std::string("SELECT * FROM ").size() +
                       std::string("(SELECT * FROM ").size() * (kMaxQueryDepth - 2);
  EXPECT_NE(parsed.status().message().find("column " + std::to_string(paren + 1) + ")"),
            std::string::npos)
      << parsed.status().message().substr(0, 200);
}

// Subqueries inside expressions inside subqueries: the expression levels of a subquery count
// on from the expression that holds it, so the whole statement stays within the limits
// (8,000 alternations overflowed the stack before).
TEST(StatementLimitsTest, SubqueriesInExpressionsAreBoundedTogether) {
  auto alternating = [](int levels) {
    return "SELECT " + Repeat("((SELECT 1 + ", levels) + "1" + Repeat("))", levels);
  };
  for (int levels : {40, 8000}) {
    auto parsed = sql::ParseStatements(alternating(levels));
    ASSERT_FALSE(parsed.ok()) << levels;
    EXPECT_NE(parsed.status().message().find("nested too deeply"), std::string::npos)
        << parsed.status().message().substr(0, 400);
  }
  Status status = RunWithStack(4 << 20, [&]() -> Status {
    Session session;
    TARN_ASSIGN_OR_RETURN(std::string csv, testing::TarnCsv(&session, alternating(10) + " AS a"));
    if (csv != "a\n11\n") return Status::Internal("unexpected rows: ", csv);
    return Status::OK();
  });
  EXPECT_TRUE(status.ok()) << status.ToString();
}

TEST(StatementLimitsTest, ParenthesizedQueriesAndExplainAreBounded) {
  Session session;
  const int open = kMaxQueryDepth - 2;  // the statement and the innermost SELECT are levels too
  auto ok = testing::TarnCsv(&session, Repeat("(", open) + "SELECT 42 AS a" + Repeat(")", open));
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  EXPECT_EQ(*ok, "a\n42\n");
  for (const std::string& sql :
       {Repeat("(", 100000) + "SELECT 1" + Repeat(")", 100000), Repeat("EXPLAIN ", 100000) + "SELECT 1",
        "COPY (" + NestedSubqueries(100000) + ") TO '/dev/null'",
        "CREATE TABLE t AS " + NestedSubqueries(100000),
        "INSERT INTO t " + NestedSubqueries(100000)}) {
    auto parsed = sql::ParseStatements(sql);
    ASSERT_FALSE(parsed.ok()) << sql.substr(0, 60);
    EXPECT_NE(parsed.status().message().find("query nested too deeply"), std::string::npos)
        << parsed.status().message().substr(0, 400);
  }
}

// ( a0 JOIN ( a1 JOIN ( ... b ON true) ON true): each parenthesized join is one more level.
std::string NestedJoins(int levels) {
  std::string sql = "SELECT count(*) AS n FROM ";
  for (int level = 0; level < levels; ++level) {
    sql += "(range(1) AS a" + std::to_string(level) + " JOIN ";
  }
  return sql + "range(1) AS b" + Repeat(" ON true)", levels);
}

// GROUP BY GROUPING SETS (GROUPING SETS (... ())): each GROUPING SETS is one more level.
std::string NestedGroupingSets(int levels) {
  return "SELECT sum(range) AS s FROM range(3) GROUP BY " + Repeat("GROUPING SETS (", levels) +
         "()" + Repeat(")", levels);
}

TEST(StatementLimitsTest, ParenthesizedJoinsAndGroupingSetsAreBounded) {
  // The statement and its query are two levels; each parenthesized join or GROUPING SETS
  // one more.
  Status status = RunWithStack(2 << 20, [&]() -> Status {
    Session session;
    TARN_ASSIGN_OR_RETURN(std::string joins,
                          testing::TarnCsv(&session, NestedJoins(kMaxQueryDepth - 2)));
    if (joins != "n\n1\n") return Status::Internal("unexpected rows: ", joins);
    TARN_ASSIGN_OR_RETURN(std::string sets,
                          testing::TarnCsv(&session, NestedGroupingSets(kMaxQueryDepth - 2)));
    if (sets != "s\n3\n") return Status::Internal("unexpected rows: ", sets);
    return Status::OK();
  });
  EXPECT_TRUE(status.ok()) << status.ToString();
  for (int levels : {kMaxQueryDepth - 1, 8000}) {
    SCOPED_TRACE(levels);
    for (const std::string& sql : {NestedJoins(levels), NestedGroupingSets(levels)}) {
      auto parsed = sql::ParseStatements(sql);
      ASSERT_FALSE(parsed.ok()) << sql.substr(0, 60);
      EXPECT_EQ(parsed.status().message().find("query nested too deeply (more than " +
                                               std::to_string(kMaxQueryDepth) +
                                               " levels) (line 1, column "),
                0u)
          << parsed.status().message().substr(0, 400);
    }
  }
}

// `operators` set operations (`op` between SELECTs) or joins (`op` between range(1)s; a
// JOIN gets ON true).
std::string SetOperations(int operators, const std::string& op) {
  return "SELECT count(*) AS n FROM (SELECT 1 AS a" + Repeat(" " + op + " SELECT 1", operators) +
         ")";
}
std::string Joins(int operators, const std::string& op) {
  std::string sql = "SELECT count(*) AS n FROM range(1) AS t0";
  for (int i = 1; i <= operators; ++i) {
    sql += op + "range(1) AS t" + std::to_string(i) + (op == " JOIN " ? " ON true" : "");
  }
  return sql;
}

// Long chains of set operations and joins build trees as deep as the chain is long: their
// count in one statement is bounded, and a statement at the bound plans and runs.
TEST(StatementLimitsTest, SetOperationAndJoinChainsAreBounded) {
  using sql::parser_internal::kMaxQueryOperators;
  Session session;
  for (const std::string& sql :
       {SetOperations(kMaxQueryOperators, "UNION ALL"), Joins(kMaxQueryOperators, ","),
        Joins(kMaxQueryOperators, " JOIN ")}) {
    auto ok = testing::TarnCsv(&session, sql);
    ASSERT_TRUE(ok.ok()) << sql.substr(0, 80) << ": " << ok.status().ToString().substr(0, 400);
    EXPECT_EQ(*ok, sql.find("UNION") != std::string::npos
                       ? "n\n" + std::to_string(kMaxQueryOperators + 1) + "\n"
                       : "n\n1\n");
  }
  for (int operators : {kMaxQueryOperators + 1, 100000}) {
    SCOPED_TRACE(operators);
    for (const std::string& sql :
         {SetOperations(operators, "UNION ALL"), SetOperations(operators, "INTERSECT"),
          Joins(operators, ","), Joins(operators, " CROSS JOIN ")}) {
      auto parsed = sql::ParseStatements(sql);
      ASSERT_FALSE(parsed.ok()) << sql.substr(0, 80);
      const std::string message = parsed.status().message();
      EXPECT_EQ(message.find("query nested too deeply (more than " +
                             std::to_string(kMaxQueryOperators) +
                             " set operations and joins) (line 1, column "),
                0u)
          << message.substr(0, 400);
      EXPECT_LT(message.size(), 400u);
    }
  }
  // The count is per statement: a script of statements at the bound parses.
  auto script = sql::ParseStatements(SetOperations(kMaxQueryOperators, "UNION ALL") + ";" +
                                     Joins(kMaxQueryOperators, ","));
  EXPECT_TRUE(script.ok()) << script.status().ToString().substr(0, 400);
}

TEST(StatementLimitsTest, ExpressionsAndTypesInStatementsAreBounded) {
  auto deep_expression = sql::ParseStatements(
      "SELECT " + Repeat("(", 100000) + "1" + Repeat(")", 100000) + " FROM range(1)");
  ASSERT_FALSE(deep_expression.ok());
  EXPECT_NE(deep_expression.status().message().find("expression nested too deeply"),
            std::string::npos);
  auto values = sql::ParseStatements("INSERT INTO t VALUES (" + Repeat("[", 100000) + ")");
  ASSERT_FALSE(values.ok());
  EXPECT_NE(values.status().message().find("expression nested too deeply"), std::string::npos);
  for (const std::string& type :
       {"INTEGER" + Repeat("[]", 100000), Repeat("STRUCT(a ", 100000) + "INTEGER"}) {
    auto parsed = sql::ParseStatements("CREATE TABLE t (a " + type + ")");
    ASSERT_FALSE(parsed.ok());
    EXPECT_NE(parsed.status().message().find("type nested too deeply (more than " +
                                             std::to_string(sql::kMaxTypeDepth) + " levels)"),
              std::string::npos)
        << parsed.status().message().substr(0, 400);
  }
  auto at_limit = sql::ParseStatements("CREATE TABLE t (a INTEGER" +
                                       Repeat("[]", sql::kMaxTypeDepth) + ", b VARCHAR)");
  EXPECT_TRUE(at_limit.ok()) << at_limit.status().ToString();
}

TEST(StatementLimitsTest, ErrorsInLongLinesShowThePartAroundTheCaret) {
  const std::string sql = "SELECT " + Repeat("1, ", 100000) + "FROM range(1)";
  auto parsed = sql::ParseStatements(sql);
  ASSERT_FALSE(parsed.ok());
  const std::string message = parsed.status().message();
  EXPECT_EQ(message.find("syntax error at or near \"FROM\" (line 1, column 300008)\n..."), 0u)
      << message.substr(0, 300);
  EXPECT_LT(message.size(), 400u);
  // The caret stands under the token in the shortened line.
  const size_t line_start = message.find('\n') + 1;
  const size_t caret_line = message.find('\n', line_start) + 1;
  const size_t column = message.size() - caret_line - 1;
  EXPECT_EQ(message.substr(line_start + column, 4), "FROM");
}

// Positions are computed for errors only: lexing and parsing a large script is linear.
TEST(StatementLimitsTest, LargeScriptsLexAndParseInLinearTime) {
  std::string script;
  for (int i = 0; script.size() < (4 << 20); ++i) {
    script += "SELECT " + std::to_string(i) + " AS a, 'text " + std::to_string(i) +
              "' AS b FROM range(2) WHERE range > 0;\n";
  }
  auto tokens = sql::Tokenize(script);
  ASSERT_TRUE(tokens.ok());
  auto statements = sql::ParseStatements(script);
  ASSERT_TRUE(statements.ok()) << statements.status().ToString();
  EXPECT_GT(statements->size(), 50000u);
  // Quadratic position tracking took minutes on this script (bench/bench_sql_text.cc measures
  // the rate).
  // An error near the end still names its line.
  script += "SELECT FROM;";
  auto error = sql::ParseStatements(script);
  ASSERT_FALSE(error.ok());
  EXPECT_NE(error.status().message().find("(line " + std::to_string(statements->size() + 1) +
                                          ", column 8)"),
            std::string::npos)
      << error.status().message();
}

// Token offsets are 32-bit: a longer text is refused before any is read (the pages of the
// view are mapped, never touched).
TEST(StatementLimitsTest, TextsPastTheOffsetRangeAreRefused) {
  const size_t size = sql::kMaxSqlTextBytes + 1;
  void* pages = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                       -1, 0);
  ASSERT_NE(pages, MAP_FAILED);
  const std::string_view text(static_cast<const char*>(pages), size);
  const std::string expected =
      "SQL text of 2147483648 bytes is longer than the limit of 2147483647 bytes";
  auto tokens = sql::Tokenize(text);
  auto statements = sql::ParseStatements(text);
  ::munmap(pages, size);
  ASSERT_FALSE(tokens.ok());
  EXPECT_EQ(tokens.status().message(), expected);
  ASSERT_FALSE(statements.ok());
  EXPECT_EQ(statements.status().message(), expected);
}

TEST(StatementLimitsTest, ScriptOfOneMegabyteRuns) {
  std::string script;
  int statements = 0;
  while (script.size() < (1 << 20)) {
    script += "SELECT " + std::to_string(statements) + " AS n, '" + std::string(200, 'x') +
              "' AS padding;\n";
    ++statements;
  }
  Session session;
  int results = 0;
  Status status = session.ExecuteScript(script, [&](QueryResult& result) -> Status {
    ++results;
    return ReadAllBatches(result.reader.get()).status();
  });
  ASSERT_TRUE(status.ok()) << status.ToString();
  EXPECT_EQ(results, statements);
}

// 200,000 rows in one 4 MB INSERT ... VALUES: lexing, parsing, binding and writing are linear.
TEST(StatementLimitsTest, InsertOfTwoHundredThousandRowsRuns) {
  testing::TempDir dir;
  const std::string catalog = testing::CopyFixtureCatalog("basic", dir);
  AttachOptions options;
  options.data_path = testing::CopyFixtureData("basic", dir);
  options.override_data_path = true;
  Session session;
  ASSERT_TRUE(session.Attach("ducklake:sqlite:" + catalog, options).ok());
  ASSERT_TRUE(testing::TarnCsv(&session, "CREATE TABLE big (a INTEGER, b VARCHAR)").ok());
  std::string insert = "INSERT INTO big VALUES ";
  constexpr int kRows = 200000;
  for (int row = 0; row < kRows; ++row) {
    if (row > 0) insert += ",";
    insert += "(" + std::to_string(row) + ",'value-" + std::to_string(row % 1000) + "')";
  }
  ASSERT_GT(insert.size(), 3u << 20);
  auto inserted = testing::TarnCsv(&session, insert);
  ASSERT_TRUE(inserted.ok()) << inserted.status().ToString();
  auto summary = testing::TarnCsv(&session, "SELECT count(*) AS n, sum(a) AS s, max(b) AS m FROM big");
  ASSERT_TRUE(summary.ok()) << summary.status().ToString();
  EXPECT_EQ(*summary, "n,s,m\n200000,19999900000,value-999\n");
}

// WITH c0 AS (SELECT 1 AS x), c1 AS (SELECT x + 1 AS x FROM c0), ... SELECT x FROM c<n>: each
// CTE reads the one before once, so planning c<n> nests n + 1 queries deep.
std::string CteChain(int n) {
  std::string sql = "WITH c0 AS (SELECT 1 AS x)";
  for (int i = 1; i <= n; ++i) {
    sql += ", c" + std::to_string(i) + " AS (SELECT x + 1 AS x FROM c" + std::to_string(i - 1) +
           ")";
  }
  return sql + " SELECT x FROM c" + std::to_string(n);
}

// A chain of CTEs plans one query inside another for each link: a chain of a hundred runs on a
// thread's usual stack (under AddressSanitizer too), and a longer one than the stack holds is
// refused with "nested too deeply" before the stack overflows, whatever the stack's size.
TEST(StatementLimitsTest, CteChainsAreBoundedByTheStack) {
  for (size_t stack : {size_t{2} << 20, size_t{8} << 20}) {
    SCOPED_TRACE(stack);
    Status status = RunWithStack(stack, [&]() -> Status {
      Session session;
      if (stack >= (8u << 20)) {
        TARN_ASSIGN_OR_RETURN(std::string csv, testing::TarnCsv(&session, CteChain(100)));
        if (csv != "x\n101\n") return Status::Internal("unexpected rows: ", csv);
      }
      for (int n : {2000, 8000}) {
        Result<std::string> refused = testing::TarnCsv(&session, CteChain(n));
        if (refused.ok()) return Status::Internal("a chain of ", n, " CTEs ran");
        if (refused.status().message().find("query nested too deeply (") == std::string::npos) {
          return Status::Internal("chain of ", n, ": ", refused.status().ToString());
        }
      }
      // The session goes on.
      TARN_ASSIGN_OR_RETURN(std::string csv, testing::TarnCsv(&session, CteChain(3)));
      if (csv != "x\n4\n") return Status::Internal("unexpected rows: ", csv);
      return Status::OK();
    });
    EXPECT_TRUE(status.ok()) << status.ToString().substr(0, 400);
  }
}

// Each CTE reads the one before twice: planned at each reference, c40 would be planned 2^40
// times. A CTE read more than once is planned and run once, and EXPLAIN shows its scans.
TEST(StatementLimitsTest, CtesReadTwiceArePlannedOnce) {
  std::string sql = "WITH c0 AS (SELECT 1 AS x)";
  for (int i = 1; i <= 40; ++i) {
    const std::string prev = "c" + std::to_string(i - 1);
    sql += ", c" + std::to_string(i) + " AS (SELECT a.x + 1 AS x FROM " + prev + " a JOIN " +
           prev + " b ON a.x = b.x)";
  }
  sql += " SELECT x FROM c40";
  Session session;
  auto csv = testing::TarnCsv(&session, sql);
  ASSERT_TRUE(csv.ok()) << csv.status().ToString().substr(0, 400);
  EXPECT_EQ(*csv, "x\n41\n");
  auto plan = testing::TarnCsv(&session, "EXPLAIN " + sql);
  ASSERT_TRUE(plan.ok()) << plan.status().ToString().substr(0, 400);
  EXPECT_NE(plan->find("CTE_SCAN"), std::string::npos);
  // NOT MATERIALIZED plans a CTE at each reference; the answer is the same.
  auto inline_csv = testing::TarnCsv(
      &session,
      "WITH c AS NOT MATERIALIZED (SELECT range AS x FROM range(3)) "
      "SELECT count(*) AS n FROM c a JOIN c b ON a.x <= b.x");
  ASSERT_TRUE(inline_csv.ok()) << inline_csv.status().ToString();
  EXPECT_EQ(*inline_csv, "n\n6\n");
}

// CUBE of 12 columns is 4096 grouping sets, each a branch of a union: a balanced tree of them
// plans and runs within a small stack.
TEST(StatementLimitsTest, CubeOfTwelveColumnsRuns) {
  std::string columns;
  std::string items;
  for (int i = 1; i <= 12; ++i) {
    columns += (i > 1 ? ", " : "") + std::string("c") + std::to_string(i);
    items += "range % 3 AS c" + std::to_string(i) + ", ";
  }
  const std::string sql = "SELECT count(*) AS n FROM (SELECT count(*) FROM (SELECT " + items +
                          "1 AS z FROM range(3)) GROUP BY CUBE (" + columns + "))";
  Status status = RunWithStack(2 << 20, [&]() -> Status {
    Session session;
    TARN_ASSIGN_OR_RETURN(std::string csv, testing::TarnCsv(&session, sql));
    // 4095 non-empty sets of 3 groups each, and the empty set's one row (DuckDB's answer).
    if (csv != "n\n12286\n") return Status::Internal("unexpected rows: ", csv);
    return Status::OK();
  });
  EXPECT_TRUE(status.ok()) << status.ToString().substr(0, 400);
}

}  // namespace
}  // namespace tarn
