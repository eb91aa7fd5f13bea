// Every recursive rule of the expression grammar stops at its nesting limit with "nested too
// deeply" and the position, and an expression at the limit parses, binds and evaluates: the
// limits keep the parser, the binder and the evaluator within the stack (this suite runs under
// AddressSanitizer, whose larger frames make it the tight case).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "expr/parse/parser.h"
#include "support/run_with_stack.h"
#include "tarn/expr.h"

namespace tarn {
namespace {

using sql::kMaxExpressionDepth;
using testing::RunWithStack;
using sql::kMaxExpressionHeight;
using sql::kMaxTypeDepth;

std::string Repeat(std::string_view piece, int times) {
  std::string out;
  out.reserve(piece.size() * static_cast<size_t>(times));
  for (int i = 0; i < times; ++i) out += piece;
  return out;
}

const Schema& TestSchema() {
  static const Schema schema({Field("x", DataType(TypeId::kInt32))});
  return schema;
}

std::shared_ptr<Batch> TestBatch() {
  ColumnBuilder builder{DataType(TypeId::kInt32)};
  builder.AppendNumber<int32_t>(1);
  builder.AppendNumber<int32_t>(2);
  return MakeBatch(std::make_shared<const Schema>(TestSchema()), {builder.Finish()});
}

// Parses, binds and evaluates `text` over a two-row batch of x INTEGER.
Status ParseBindEvaluate(const std::string& text) {
  TARN_ASSIGN_OR_RETURN(auto bound, ParseAndBind(text, TestSchema()));
  TARN_ASSIGN_OR_RETURN(auto column, bound->Evaluate(*TestBatch()));
  if (column->length != 2) return Status::Internal("expected two rows");
  return Status::OK();
}

// A rule nested `levels` deep, as text.
using Nest = std::function<std::string(int levels)>;

struct Rule {
  const char* name;
  Nest nest;
  int limit;  // the deepest nesting that parses
};

std::vector<Rule> Rules() {
  const int depth = kMaxExpressionDepth;
  const int height = kMaxExpressionHeight;
  return {
      // ParseExpr inside itself: each level is one more open parenthesis, call or CASE.
      {"parentheses", [](int n) { return Repeat("(", n) + "x" + Repeat(")", n); }, depth},
      {"function calls", [](int n) { return Repeat("abs(", n) + "x" + Repeat(")", n); }, depth},
      {"CASE", [](int n) { return Repeat("CASE WHEN true THEN ", n) + "x" + Repeat(" END", n); },
       depth},
      {"CAST", [](int n) { return Repeat("CAST(", n) + "x" + Repeat(" AS BIGINT)", n); }, depth},
      {"list literals", [](int n) { return Repeat("[", n) + "x" + Repeat("]", n); }, depth},
      {"struct literals", [](int n) { return Repeat("{'a': ", n) + "x" + Repeat("}", n); },
       depth},
      {"unary minus", [](int n) { return Repeat("- ", n) + "x"; }, depth},
      {"NOT", [](int n) { return Repeat("NOT ", n) + "x = 1"; }, depth},
      // Loops that put one node above the last: the tree's height is what counts.
      {"+ chain", [](int n) { return "x" + Repeat(" + 1", n - 1); }, height},
      {"OR chain", [](int n) { return "x = 0" + Repeat(" OR x = 1", n - 2); }, height},
      {":: chain", [](int n) { return "x" + Repeat("::BIGINT", n - 1); }, height},
      {"|| chain",
       [](int n) { return "CAST(x AS VARCHAR)" + Repeat(" || 'a'", n - 2); }, height},
  };
}

TEST(NestingTest, EveryRuleAtItsLimitParsesBindsAndEvaluates) {
  for (const Rule& rule : Rules()) {
    SCOPED_TRACE(rule.name);
    // Half of a thread's usual 8 MiB, in this suite's -O0 AddressSanitizer build whose frames
    // are several times an optimized build's: the margin that keeps the limits safe.
    Status status = RunWithStack(4 << 20, [&] { return ParseBindEvaluate(rule.nest(rule.limit)); });
    EXPECT_TRUE(status.ok()) << status.ToString().substr(0, 400);
  }
}

TEST(NestingTest, EveryRuleBeyondItsLimitIsRefusedWithThePosition) {
  for (const Rule& rule : Rules()) {
    SCOPED_TRACE(rule.name);
    for (int levels : {rule.limit + 1, rule.limit * 3, 100000}) {
      const std::string text = rule.nest(levels);
      auto parsed = ParseExpression(text);
      ASSERT_FALSE(parsed.ok()) << levels;
      const std::string message = parsed.status().message();
      EXPECT_NE(message.find("expression nested too deeply"), std::string::npos) << message;
      EXPECT_NE(message.find("(line 1, column "), std::string::npos) << message;
      // The quoted source line is cut around the caret, whatever the text's length.
      EXPECT_LT(message.size(), 400u) << message;
    }
  }
}

TEST(NestingTest, TheErrorNamesWhereTheLimitWasPassed) {
  const std::string text = Repeat("(", kMaxExpressionDepth + 1) + "x" +
                           Repeat(")", kMaxExpressionDepth + 1);
  auto parsed = ParseExpression(text);
  ASSERT_FALSE(parsed.ok());
  // The first parenthesis past the limit is at byte kMaxExpressionDepth (column + 1).
  EXPECT_NE(parsed.status().message().find(
                "expression nested too deeply (more than " +
                std::to_string(kMaxExpressionDepth) + " levels) (line 1, column " +
                std::to_string(kMaxExpressionDepth + 1) + ")"),
            std::string::npos)
      << parsed.status().message();
}

TEST(NestingTest, SubscriptChainsAndFieldChainsAreBounded) {
  // x[1][1]... and (struct).a.a... build one node per step.
  auto subscripts = ParseExpression("[x]" + Repeat("[1]", kMaxExpressionHeight + 5));
  ASSERT_FALSE(subscripts.ok());
  EXPECT_NE(subscripts.status().message().find("nested too deeply"), std::string::npos);
  auto fields = ParseExpression("({'a': 1})" + Repeat(".a", kMaxExpressionHeight + 5));
  ASSERT_FALSE(fields.ok());
  EXPECT_NE(fields.status().message().find("nested too deeply"), std::string::npos);
}

TEST(NestingTest, TypeNamesStopAtTheTypeDepth) {
  auto list_type = [](int n) { return "CAST(NULL AS INTEGER" + Repeat("[]", n) + ")"; };
  EXPECT_TRUE(ParseBindEvaluate(list_type(kMaxTypeDepth)).ok());
  for (int levels : {kMaxTypeDepth + 1, 100000}) {
    auto parsed = ParseExpression(list_type(levels));
    ASSERT_FALSE(parsed.ok());
    EXPECT_NE(parsed.status().message().find("type nested too deeply"), std::string::npos)
        << parsed.status().message().substr(0, 400);
  }
  auto struct_type = [](int n) {
    return "CAST(NULL AS " + Repeat("STRUCT(a ", n) + "INTEGER" + Repeat(")", n) + ")";
  };
  EXPECT_TRUE(ParseBindEvaluate(struct_type(kMaxTypeDepth - 1)).ok());
  for (int levels : {kMaxTypeDepth + 1, 100000}) {
    auto parsed = ParseExpression(struct_type(levels));
    ASSERT_FALSE(parsed.ok());
    EXPECT_NE(parsed.status().message().find("type nested too deeply"), std::string::npos)
        << parsed.status().message().substr(0, 400);
  }
  // The type parser itself (also used for catalog types) refuses deep text on its own.
  for (const std::string& text :
       {"INTEGER" + Repeat("[]", 100000), Repeat("MAP(INTEGER, ", 1000) + "INTEGER" +
                                              Repeat(")", 1000)}) {
    auto type = ParseSqlType(text);
    ASSERT_FALSE(type.ok());
    EXPECT_NE(type.status().message().find("type nested too deeply"), std::string::npos);
    EXPECT_LT(type.status().message().size(), 400u);
  }
}

TEST(NestingTest, OperandsBoundTwiceCannotMultiplyWithoutBound) {
  // BETWEEN binds its value twice; nesting it in the value doubles the work at every level.
  std::string between = "x";
  for (int i = 0; i < 60; ++i) between = "(" + between + " BETWEEN 1 AND 2)::INTEGER";
  auto bound = ParseAndBind(between, TestSchema());
  ASSERT_FALSE(bound.ok());
  EXPECT_NE(bound.status().message().find("expression too complex"), std::string::npos)
      << bound.status().ToString();
  std::string cases = "x";
  for (int i = 0; i < 60; ++i) cases = "CASE " + cases + " WHEN 1 THEN 1 WHEN 2 THEN 2 END";
  auto bound_cases = ParseAndBind(cases, TestSchema());
  ASSERT_FALSE(bound_cases.ok());
  EXPECT_NE(bound_cases.status().message().find("expression too complex"), std::string::npos);
  // A few levels are fine.
  std::string shallow = "x";
  for (int i = 0; i < 5; ++i) shallow = "(" + shallow + " BETWEEN 1 AND 2)::INTEGER";
  EXPECT_TRUE(ParseBindEvaluate(shallow).ok());
}

}  // namespace
}  // namespace tarn
