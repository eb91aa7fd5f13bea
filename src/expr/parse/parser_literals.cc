// The nested literals, list comprehensions and INTERVAL (expr) UNIT of the expression grammar
// (see parser.h).
//
// They parse into the calls DuckDB rewrites them to, so the binder and the printer need
// nothing new for maps and intervals: MAP {k: v} is map([k], [v]); INTERVAL (x) SECOND is
// to_seconds(CAST(x AS DOUBLE)); INTERVAL (x) HOUR is
// to_hours(CAST(trunc(CAST(x AS DOUBLE)) AS BIGINT)) (whole units, truncated toward zero).
#include <string>

#include "expr/parse/parser.h"

namespace tarn::sql {
namespace {

using ast::Expr;
using ast::ExprKind;

std::unique_ptr<Expr> Located(std::unique_ptr<Expr> e, const Token& first, const Token& last) {
  e->range.offset = first.offset;
  e->range.length = last.offset + last.length - first.offset;
  ast::UpdateHeight(e.get());
  return e;
}

std::unique_ptr<Expr> MakeCast(std::unique_ptr<Expr> operand, std::string type_name) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kCast;
  e->type_name = std::move(type_name);
  e->children.push_back(std::move(operand));
  ast::UpdateHeight(e.get());
  return e;
}

std::unique_ptr<Expr> MakeCall(const char* name, std::unique_ptr<Expr> first,
                               std::unique_ptr<Expr> second) {
  std::vector<std::unique_ptr<Expr>> args;
  args.push_back(std::move(first));
  args.push_back(std::move(second));
  return ast::MakeFunction(name, std::move(args));
}

struct IntervalUnit {
  const char* singular;
  const char* plural;
  const char* function;
  const char* whole_type;  // nullptr: fractional units allowed (a DOUBLE argument)
};

constexpr IntervalUnit kUnits[] = {
    {"MICROSECOND", "MICROSECONDS", "to_microseconds", "BIGINT"},
    {"MILLISECOND", "MILLISECONDS", "to_milliseconds", nullptr},
    {"SECOND", "SECONDS", "to_seconds", nullptr},
    {"MINUTE", "MINUTES", "to_minutes", "BIGINT"},
    {"HOUR", "HOURS", "to_hours", "BIGINT"},
    {"DAY", "DAYS", "to_days", "INTEGER"},
    {"WEEK", "WEEKS", "to_weeks", "INTEGER"},
    {"MONTH", "MONTHS", "to_months", "INTEGER"},
    {"QUARTER", "QUARTERS", "to_quarters", "INTEGER"},
    {"YEAR", "YEARS", "to_years", "INTEGER"},
    {"DECADE", "DECADES", "to_decades", "INTEGER"},
    {"CENTURY", "CENTURIES", "to_centuries", "INTEGER"},
    {"MILLENNIUM", "MILLENNIA", "to_millennia", "INTEGER"},
};

}  // namespace

Result<std::unique_ptr<Expr>> ExprParser::ParseListLiteral() {
  const Token& first = Advance();  // [
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kList;
  if (!Peek().IsOperator("]")) {
    do {
      if (Peek().IsOperator("]")) break;  // a trailing comma, as DuckDB allows
      TARN_ASSIGN_OR_RETURN(auto item, ParseExpr());
      if (e->children.empty() && Peek().IsKeyword("FOR")) {
        return ParseComprehension(first, std::move(item));
      }
      e->children.push_back(std::move(item));
    } while (AcceptOperator(","));
  }
  TARN_RETURN_NOT_OK(ExpectOperator("]"));
  return Located(std::move(e), first, tokens_[pos_ - 1]);
}

Result<std::unique_ptr<Expr>> ExprParser::ParseComprehension(const Token& first,
                                                             std::unique_ptr<Expr> item) {
  // [item FOR x[, i] IN list [IF condition]] is DuckDB's
  //   list_apply(list, lambda x: item)
  // or, with a condition, its desugaring that evaluates item and condition on every element:
  //   list_apply(list_filter(list_apply(list, lambda x: struct_pack("filter" := condition,
  //       result := item)), lambda elem: struct_extract(elem, 'filter')),
  //       lambda elem: struct_extract(elem, 'result'))
  Advance();  // FOR
  std::vector<std::string> names;
  do {
    const Token& name = Advance();
    if (name.kind != TokenKind::kIdentifier && name.kind != TokenKind::kQuotedIdentifier) {
      return SyntaxError(name);
    }
    names.push_back(name.text);
  } while (AcceptOperator(","));
  TARN_RETURN_NOT_OK(ExpectKeyword("IN"));
  TARN_ASSIGN_OR_RETURN(auto list, ParseExpr());
  std::unique_ptr<Expr> condition;
  if (AcceptKeyword("IF")) {
    TARN_ASSIGN_OR_RETURN(condition, ParseExpr());
  }
  TARN_RETURN_NOT_OK(ExpectOperator("]"));
  if (!condition) {
    auto lambda = ast::MakeLambda(names, std::move(item), /*lambda_syntax=*/true);
    return Located(MakeCall("list_apply", std::move(list), std::move(lambda)), first,
                   tokens_[pos_ - 1]);
  }
  auto pack = MakeCall("struct_pack", std::move(condition), std::move(item));
  pack->names = {"struct_pack", "filter", "result"};
  auto extract = [](const char* field) {
    return ast::MakeLambda({"elem"},
                           MakeCall("struct_extract", ast::MakeColumnRef({"elem"}),
                                    ast::MakeLiteral(ast::LiteralKind::kString, field)),
                           /*lambda_syntax=*/true);
  };
  auto packed = MakeCall("list_apply", std::move(list),
                         ast::MakeLambda(names, std::move(pack), /*lambda_syntax=*/true));
  auto kept = MakeCall("list_filter", std::move(packed), extract("filter"));
  auto result = Located(MakeCall("list_apply", std::move(kept), extract("result")), first,
                        tokens_[pos_ - 1]);
  TARN_RETURN_NOT_OK(CheckHeight(*result, tokens_[pos_ - 1]));
  return result;
}

Result<std::unique_ptr<Expr>> ExprParser::ParseStructLiteral() {
  const Token& first = Advance();  // {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kStruct;
  do {
    const Token& key = Peek();
    if (key.kind != TokenKind::kString && key.kind != TokenKind::kIdentifier &&
        key.kind != TokenKind::kQuotedIdentifier) {
      return SyntaxError();
    }
    Advance();
    TARN_RETURN_NOT_OK(ExpectOperator(":"));
    TARN_ASSIGN_OR_RETURN(auto value, ParseExpr());
    e->names.push_back(key.text);
    e->children.push_back(std::move(value));
  } while (AcceptOperator(","));
  TARN_RETURN_NOT_OK(ExpectOperator("}"));
  return Located(std::move(e), first, tokens_[pos_ - 1]);
}

Result<std::unique_ptr<Expr>> ExprParser::ParseMapLiteral() {
  const Token& first = Advance();  // MAP
  Advance();                       // {
  auto keys = std::make_unique<Expr>();
  keys->kind = ExprKind::kList;
  auto values = std::make_unique<Expr>();
  values->kind = ExprKind::kList;
  if (!Peek().IsOperator("}")) {
    do {
      TARN_ASSIGN_OR_RETURN(auto key, ParseExpr());
      TARN_RETURN_NOT_OK(ExpectOperator(":"));
      TARN_ASSIGN_OR_RETURN(auto value, ParseExpr());
      keys->children.push_back(std::move(key));
      values->children.push_back(std::move(value));
    } while (AcceptOperator(","));
  }
  TARN_RETURN_NOT_OK(ExpectOperator("}"));
  ast::UpdateHeight(keys.get());
  ast::UpdateHeight(values.get());
  std::vector<std::unique_ptr<Expr>> args;
  args.push_back(std::move(keys));
  args.push_back(std::move(values));
  return Located(ast::MakeFunction("map", std::move(args)), first, tokens_[pos_ - 1]);
}

Result<std::unique_ptr<Expr>> ExprParser::ParseIntervalExpr() {
  const Token& first = Advance();  // INTERVAL
  Advance();                       // (
  TARN_ASSIGN_OR_RETURN(auto operand, ParseExpr());
  TARN_RETURN_NOT_OK(ExpectOperator(")"));
  const IntervalUnit* unit = nullptr;
  for (const IntervalUnit& candidate : kUnits) {
    if (Peek().IsKeyword(candidate.singular) || Peek().IsKeyword(candidate.plural)) {
      unit = &candidate;
    }
  }
  if (unit == nullptr) {
    // INTERVAL (x) without a unit is CAST(x AS INTERVAL).
    return Located(MakeCast(std::move(operand), "INTERVAL"), first, tokens_[pos_ - 1]);
  }
  Advance();
  auto amount = MakeCast(std::move(operand), "DOUBLE");
  if (unit->whole_type != nullptr) {
    std::vector<std::unique_ptr<Expr>> trunc_args;
    trunc_args.push_back(std::move(amount));
    amount = MakeCast(ast::MakeFunction("trunc", std::move(trunc_args)), unit->whole_type);
  }
  std::vector<std::unique_ptr<Expr>> args;
  args.push_back(std::move(amount));
  return Located(ast::MakeFunction(unit->function, std::move(args)), first, tokens_[pos_ - 1]);
}

}  // namespace tarn::sql
