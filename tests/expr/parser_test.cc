#include <gtest/gtest.h>

#include <random>

#include "expr/parse/lexer.h"
#include "expr/parse/parser.h"
#include "tarn/expr.h"

namespace tarn {
namespace {

std::string Canonical(std::string_view text) {
  auto parsed = ParseExpression(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.status().ToString();
  if (!parsed.ok()) return "<error>";
  return (*parsed)->ToString();
}

std::string SyntaxError(std::string_view text) {
  auto parsed = ParseExpression(text);
  EXPECT_FALSE(parsed.ok()) << text;
  return parsed.ok() ? "" : parsed.status().message();
}

TEST(LexerTest, PositionsAndKinds) {
  const std::string_view text = "a.\"B c\" >= 1.5e3 -- comment\n  AND 'it''s' <> .5";
  auto tokens = sql::Tokenize(text);
  ASSERT_TRUE(tokens.ok());
  const auto& t = *tokens;
  ASSERT_EQ(t.size(), 10u);
  EXPECT_EQ(t[0].kind, sql::TokenKind::kIdentifier);
  EXPECT_EQ(t[2].kind, sql::TokenKind::kQuotedIdentifier);
  EXPECT_EQ(t[2].text, "B c");
  EXPECT_EQ(t[3].text, ">=");
  EXPECT_EQ(t[4].kind, sql::TokenKind::kFloat);
  EXPECT_EQ(sql::LineColumnOf(text, t[5].offset).line, 2);
  EXPECT_EQ(sql::LineColumnOf(text, t[5].offset).column, 3);
  EXPECT_TRUE(t[5].IsKeyword("AND"));
  EXPECT_EQ(t[6].kind, sql::TokenKind::kString);
  EXPECT_EQ(t[6].text, "it's");
  EXPECT_EQ(t[8].kind, sql::TokenKind::kDecimal);
  EXPECT_EQ(t[8].text, ".5");
  EXPECT_EQ(t[9].kind, sql::TokenKind::kEnd);
}

TEST(ParserTest, Precedence) {
  EXPECT_EQ(Canonical("1 + 2 * 3"), "1 + 2 * 3");
  EXPECT_EQ(Canonical("(1 + 2) * 3"), "(1 + 2) * 3");
  EXPECT_EQ(Canonical("1 - (2 - 3)"), "1 - (2 - 3)");
  EXPECT_EQ(Canonical("1 - 2 - 3"), "1 - 2 - 3");
  EXPECT_EQ(Canonical("a OR b AND c"), "a OR b AND c");
  EXPECT_EQ(Canonical("(a OR b) AND c"), "(a OR b) AND c");
  EXPECT_EQ(Canonical("NOT a = b"), "NOT a = b");
  EXPECT_EQ(Canonical("(NOT a) = b"), "(NOT a) = b");
  EXPECT_EQ(Canonical("-x::INTEGER"), "-x::INTEGER");
  EXPECT_EQ(Canonical("(-x)::INTEGER"), "(-x)::INTEGER");
  EXPECT_EQ(Canonical("a = b IS NULL"), "a = b IS NULL");
  EXPECT_EQ(Canonical("a = (b IS NULL)"), "a = (b IS NULL)");
  EXPECT_EQ(Canonical("a || b LIKE 'x%'"), "a || b LIKE 'x%'");
  EXPECT_EQ(Canonical("x BETWEEN 1 + 1 AND 5 AND y"), "x BETWEEN 1 + 1 AND 5 AND y");
  EXPECT_EQ(Canonical("2 ^ 3 * 4"), "2 ^ 3 * 4");
  EXPECT_EQ(Canonical("- - 1"), "- -1");
  EXPECT_EQ(Canonical("a NOT IN (1, 2)"), "a NOT IN (1, 2)");
  EXPECT_EQ(Canonical("a IS NOT DISTINCT FROM b"), "a IS NOT DISTINCT FROM b");
  EXPECT_EQ(Canonical("s.x[1] + l[2]"), "s.x[1] + l[2]");
  EXPECT_EQ(Canonical("CASE WHEN a THEN 1 ELSE 2 END"), "CASE WHEN a THEN 1 ELSE 2 END");
  EXPECT_EQ(Canonical("case x when 1 then 'a' end"), "CASE x WHEN 1 THEN 'a' END");
  EXPECT_EQ(Canonical("cast(a as decimal(10, 2))"), "CAST(a AS decimal(10, 2))");
  EXPECT_EQ(Canonical("EXTRACT(year FROM d)"), "date_part('year', d)");
  EXPECT_EQ(Canonical("DATE '2020-01-01'"), "DATE '2020-01-01'");
  EXPECT_EQ(Canonical("interval 2 days"), "INTERVAL '2 days'");
  EXPECT_EQ(Canonical("\"Weird \"\"Name\"\"\" = 'it''s'"), "\"Weird \"\"Name\"\"\" = 'it''s'");
  EXPECT_EQ(Canonical("a LIKE 'x!%' ESCAPE '!'"), "a LIKE 'x!%' ESCAPE '!'");
  EXPECT_EQ(Canonical("x IS TRUE"), "x IS NOT DISTINCT FROM TRUE");
  EXPECT_EQ(Canonical("\"select\" + 1"), "\"select\" + 1");
}

TEST(ParserTest, LambdasComprehensionsMethodCallsAndSlices) {
  // Each prints as SQL that parses back to itself.
  const std::pair<const char*, const char*> kCases[] = {
      {"list_transform(l, x -> x + 1)", "list_transform(l, x -> x + 1)"},
      {"list_transform(l, (x) -> x OR y)", "list_transform(l, x -> x OR y)"},
      {"list_reduce(l, (acc, x, i) -> acc + x * i, 0)",
       "list_reduce(l, (acc, x, i) -> acc + x * i, 0)"},
      {"list_filter(l, lambda x, i: i > 1)", "list_filter(l, lambda x, i: i > 1)"},
      {"f((x -> x) = 1)", "f((x -> x) = 1)"},
      {"list_transform(l, x -> list_transform(x, y -> y))",
       "list_transform(l, x -> list_transform(x, y -> y))"},
      {"f(1 -> 2)", "f(1 -> 2)"},
      {"[x * 2 FOR x IN l]", "list_apply(l, lambda x: x * 2)"},
      {"[x FOR x, i IN l IF i > 1]",
       "list_apply(list_filter(list_apply(l, lambda x, i: struct_pack(filter := i > 1, "
       "result := x)), lambda elem: struct_extract(elem, 'filter')), lambda elem: "
       "struct_extract(elem, 'result'))"},
      {"s.upper().lower()", "lower(upper(s))"},
      {"t.s.rpad(3, ' ')", "rpad(t.s, 3, ' ')"},
      {"(a + 1).abs()", "abs(a + 1)"},
      {"main.list_value(1).flatten()", "flatten(list_value(1))"},
      {"(1, 'a')", "row(1, 'a')"},
      {"l[2:3]", "array_slice(l, 2, 3)"},
      {"l[:-1]", "array_slice(l, [], -1)"},
      {"l[2:]", "array_slice(l, 2, [])"},
      {"l[::2]", "array_slice(l, [], [], 2)"},
      {"lambda + 1", "lambda + 1"},
  };
  for (const auto& [text, canonical] : kCases) {
    EXPECT_EQ(Canonical(text), canonical) << text;
    EXPECT_EQ(Canonical(canonical), canonical) << canonical;
  }
  EXPECT_EQ(SyntaxError("[x FOR 1 IN l]"),
            "syntax error at or near \"1\" (line 1, column 8)\n[x FOR 1 IN l]\n       ^");
}

TEST(ParserTest, Errors) {
  EXPECT_EQ(SyntaxError("a + FROM b"),
            "syntax error at or near \"FROM\" (line 1, column 5)\na + FROM b\n    ^");
  EXPECT_EQ(SyntaxError("a +\n  b c"),
            "syntax error at or near \"c\" (line 2, column 5)\n  b c\n    ^");
  EXPECT_EQ(SyntaxError("(a + b"), "syntax error at end of input (line 1, column 7)\n(a + b\n      ^");
  EXPECT_EQ(SyntaxError("'abc"), "unterminated quoted string (line 1, column 1)\n'abc\n^");
  EXPECT_EQ(SyntaxError("a # b"), "syntax error at or near \"#\" (line 1, column 3)\na # b\n  ^");
  EXPECT_EQ(SyntaxError("CASE END"), "syntax error at or near \"END\" (line 1, column 6)\nCASE END\n     ^");
  EXPECT_EQ(SyntaxError("a BETWEEN 1 OR 2"),
            "syntax error at or near \"OR\" (line 1, column 13)\na BETWEEN 1 OR 2\n            ^");
  EXPECT_EQ(SyntaxError(""), "syntax error at end of input (line 1, column 1)\n\n^");
  std::string deep(5000, '(');
  EXPECT_NE(SyntaxError(deep).find("nested too deeply"), std::string::npos);
  std::string chain = "a";
  for (int i = 0; i < 5000; ++i) chain += " + a";
  EXPECT_NE(SyntaxError(chain).find("nested too deeply"), std::string::npos);
  std::string nots;
  for (int i = 0; i < 5000; ++i) nots += "NOT ";
  EXPECT_NE(SyntaxError(nots + "a").find("nested too deeply"), std::string::npos);
  std::string ok(60, '(');
  EXPECT_TRUE(ParseExpression(ok + "1" + std::string(60, ')')).ok());
}

// Random trees print to text that parses back to an equal tree.
std::unique_ptr<ast::Expr> RandomExpr(std::mt19937_64& rng, int depth) {
  using ast::LiteralKind;
  using ast::Op;
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  if (depth == 0 || pick(4) == 0) {
    switch (pick(6)) {
      case 0: return ast::MakeLiteral(LiteralKind::kInteger, std::to_string(pick(1000)));
      case 1: return ast::MakeLiteral(LiteralKind::kDecimal, "1.25");
      case 2: return ast::MakeLiteral(LiteralKind::kString, pick(2) ? "x'y" : "");
      case 3: return ast::MakeLiteral(LiteralKind::kNull, "");
      case 4: return ast::MakeColumnRef({pick(2) ? "a" : "Mixed Case"});
      default: return ast::MakeColumnRef({"s", "f"});
    }
  }
  static constexpr Op kBinary[] = {Op::kAdd, Op::kSubtract, Op::kMultiply, Op::kDivide,
                                   Op::kIntDivide, Op::kModulo, Op::kPower, Op::kConcat,
                                   Op::kEqual, Op::kNotEqual, Op::kLess, Op::kGreaterEqual,
                                   Op::kIsDistinctFrom, Op::kAnd, Op::kOr};
  switch (pick(9)) {
    case 0: return ast::MakeUnary(pick(2) ? Op::kNot : Op::kNegate, RandomExpr(rng, depth - 1));
    case 1: {
      auto e = std::make_unique<ast::Expr>();
      e->kind = ast::ExprKind::kIsNull;
      e->negated = pick(2);
      e->children.push_back(RandomExpr(rng, depth - 1));
      return e;
    }
    case 2: {
      auto e = std::make_unique<ast::Expr>();
      e->kind = ast::ExprKind::kBetween;
      e->negated = pick(2);
      for (int i = 0; i < 3; ++i) e->children.push_back(RandomExpr(rng, depth - 1));
      return e;
    }
    case 3: {
      auto e = std::make_unique<ast::Expr>();
      e->kind = ast::ExprKind::kIn;
      e->negated = pick(2);
      for (int i = 0; i < 3; ++i) e->children.push_back(RandomExpr(rng, depth - 1));
      return e;
    }
    case 4: {
      auto e = std::make_unique<ast::Expr>();
      e->kind = ast::ExprKind::kCast;
      e->is_postfix = pick(2);
      e->type_name = "BIGINT";
      e->children.push_back(RandomExpr(rng, depth - 1));
      return e;
    }
    case 5: {
      auto e = std::make_unique<ast::Expr>();
      e->kind = ast::ExprKind::kLike;
      e->op = pick(2) ? Op::kLike : Op::kILike;
      e->negated = pick(2);
      for (int i = 0; i < 2; ++i) e->children.push_back(RandomExpr(rng, depth - 1));
      return e;
    }
    case 6: {
      std::vector<std::unique_ptr<ast::Expr>> args;
      args.push_back(RandomExpr(rng, depth - 1));
      args.push_back(RandomExpr(rng, depth - 1));
      return ast::MakeFunction("coalesce", std::move(args));
    }
    default:
      return ast::MakeBinary(kBinary[pick(15)], RandomExpr(rng, depth - 1), RandomExpr(rng, depth - 1));
  }
}

TEST(ParserTest, RandomRoundTrip) {
  std::mt19937_64 rng(42);
  for (int i = 0; i < 3000; ++i) {
    auto tree = RandomExpr(rng, 4);
    std::string text = tree->ToString();
    auto parsed = ParseExpression(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status().ToString();
    ASSERT_TRUE((*parsed)->Equals(*tree)) << text << " reparsed as " << (*parsed)->ToString();
    ASSERT_EQ((*parsed)->ToString(), text);
  }
}

}  // namespace
}  // namespace tarn
