// The nested literals and INTERVAL (expr) UNIT of the expression grammar (see parser.h).
//
// They parse into the calls DuckDB rewrites them to, so the binder and the printer need
// nothing new for maps and intervals: MAP {k: v} is map([k], [v]); INTERVAL (x) SECOND is
// to_seconds(CAST(x AS DOUBLE)); INTERVAL (x) HOUR is
// to_hours(CAST(trunc(CAST(x AS DOUBLE)) AS BIGINT)) (whole units, truncated toward zero).
#include <string>

#include "expr/parser.h"

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
      e->children.push_back(std::move(item));
    } while (AcceptOperator(","));
  }
  TARN_RETURN_NOT_OK(ExpectOperator("]"));
  return Located(std::move(e), first, tokens_[pos_ - 1]);
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
