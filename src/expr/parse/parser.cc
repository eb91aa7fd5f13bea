#include "expr/parse/parser.h"

#include <algorithm>
#include <optional>
#include <string>

#include "tarn/type.h"

namespace tarn::sql {
namespace {

// The unit words DuckDB's grammar takes after INTERVAL 'n' or INTERVAL n (any other word is an
// alias: INTERVAL '4 hours' AS-less alias `b`).
bool IsIntervalUnit(const Token& token) {
  static constexpr std::string_view kUnits[] = {
      "YEAR", "YEARS", "MONTH", "MONTHS", "DAY", "DAYS", "HOUR", "HOURS", "MINUTE", "MINUTES",
      "SECOND", "SECONDS", "MILLISECOND", "MILLISECONDS", "MICROSECOND", "MICROSECONDS",
      "WEEK", "WEEKS", "QUARTER", "QUARTERS", "DECADE", "DECADES", "CENTURY", "CENTURIES",
      "MILLENNIUM", "MILLENNIA"};
  for (std::string_view unit : kUnits) {
    if (token.IsKeyword(unit)) return true;
  }
  return false;
}

using ast::Expr;
using ast::ExprKind;
using ast::Op;

// Binding levels, loosest first (the same numbering as ast::Precedence).
enum Level : int {
  kOr = 1, kAnd, kNot, kIs, kCompare, kLikeInBetween, kOther, kAdditive, kMultiplicative,
  kPower, kUnaryMinus, kPostfix,
};

constexpr std::string_view kStopWords[] = {
    "AND", "AS", "ASC", "BETWEEN", "BY", "CASE", "DESC", "ELSE", "END", "ESCAPE", "EXCEPT",
    "FOR", "FROM", "GLOB", "GROUP", "HAVING", "ILIKE", "IN", "INTERSECT", "IS", "ISNULL", "JOIN",
    "LIKE", "LIMIT", "NOT", "NOTNULL", "OFFSET", "ON", "OR", "ORDER", "SELECT", "THEN", "UNION",
    "USING", "WHEN", "WHERE", "WINDOW", "WITH",
};

bool IsStopWord(const Token& token) {
  for (std::string_view word : kStopWords) {
    if (token.IsKeyword(word)) return true;
  }
  return false;
}

std::unique_ptr<Expr> Located(std::unique_ptr<Expr> e, const Token& first, const Token& last) {
  e->range.offset = first.offset;
  e->range.length = last.offset + last.length - first.offset;
  ast::UpdateHeight(e.get());
  return e;
}

}  // namespace

Status ExprParser::NestedTooDeeply(const Token& at) const {
  return Status::InvalidArgument(FormatErrorAt(
      text_, StrCat("expression nested too deeply (more than ", kMaxExpressionDepth, " levels)"),
      at.offset));
}

Status ExprParser::CheckHeight(const Expr& expr, const Token& at) const {
  if (expr.height <= kMaxExpressionHeight) return Status::OK();
  return Status::InvalidArgument(FormatErrorAt(
      text_,
      StrCat("expression nested too deeply (more than ", kMaxExpressionHeight,
             " operators, calls or casts on one path)"),
      at.offset));
}

const Token& ExprParser::Peek(size_t ahead) const {
  size_t index = pos_ + ahead;
  return tokens_[index < tokens_.size() ? index : tokens_.size() - 1];
}

Status ExprParser::SyntaxError() const { return SyntaxError(Peek()); }
Status ExprParser::SyntaxError(const Token& token) const {
  return Status::InvalidArgument(FormatSyntaxError(text_, token));
}

bool ExprParser::AcceptKeyword(std::string_view keyword) {
  if (!Peek().IsKeyword(keyword)) return false;
  Advance();
  return true;
}

bool ExprParser::AcceptOperator(std::string_view op) {
  if (!Peek().IsOperator(op)) return false;
  Advance();
  return true;
}

Status ExprParser::ExpectKeyword(std::string_view keyword) {
  return AcceptKeyword(keyword) ? Status::OK() : SyntaxError();
}

Status ExprParser::ExpectOperator(std::string_view op) {
  return AcceptOperator(op) ? Status::OK() : SyntaxError();
}

Result<std::unique_ptr<Expr>> ExprParser::ParseExpr() {
  // The top level is depth 1; a nested level is named by the token that opened it.
  if (depth_ > kMaxExpressionDepth) {
    return NestedTooDeeply(pos_ > 0 ? tokens_[pos_ - 1] : Peek());
  }
  ++depth_;
  auto result = ParseLevel(kOr);
  // `params -> body` binds looser than OR, as in DuckDB's grammar.
  // As JSON's arrow (`j -> 'a' -> 'b'`) it associates to the left.
  while (result.ok() && Peek().IsOperator("->")) {
    result = ParseArrowLambda(std::move(result).value());
  }
  --depth_;
  return result;
}

namespace {

// The parameter names of a lambda's left side: x, (x), (x, y) (parsed as row(x, y)); nullopt
// for anything else.
std::optional<std::vector<std::string>> LambdaParameterNames(const Expr& params) {
  if (params.kind == ExprKind::kColumnRef && params.names.size() == 1) return params.names;
  if (params.kind != ExprKind::kFunction || params.names.size() != 1 || params.distinct ||
      params.has_filter || params.children.empty()) {
    return std::nullopt;
  }
  std::string name = params.names[0];
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (name != "row") return std::nullopt;
  std::vector<std::string> names;
  for (const auto& child : params.children) {
    if (child->kind != ExprKind::kColumnRef || child->names.size() != 1) return std::nullopt;
    names.push_back(child->names[0]);
  }
  return names;
}

// A schema name before a function name (main.list_apply(...), as DuckDB prints its own calls),
// rather than the receiver of a method call.
bool IsSystemSchema(const Expr& receiver) {
  if (receiver.kind != ExprKind::kColumnRef || receiver.names.size() != 1) return false;
  std::string name = receiver.names[0];
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name == "main" || name == "system" || name == "pg_catalog";
}

}  // namespace

Result<std::unique_ptr<Expr>> ExprParser::ParseArrowLambda(std::unique_ptr<Expr> params) {
  const Token& arrow = Advance();
  TARN_ASSIGN_OR_RETURN(auto body, ParseLevel(kOr));
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kLambda;
  e->range.offset = std::min(params->range.offset, arrow.offset);
  std::optional<std::vector<std::string>> names = LambdaParameterNames(*params);
  e->children.push_back(std::move(body));
  if (names) {
    e->names = std::move(*names);
  } else {
    e->children.push_back(std::move(params));
  }
  const Token& last = tokens_[pos_ - 1];
  e->range.length = last.offset + last.length - e->range.offset;
  ast::UpdateHeight(e.get());
  TARN_RETURN_NOT_OK(CheckHeight(*e, Peek()));
  return e;
}

Result<std::unique_ptr<Expr>> ExprParser::ParseKeywordLambda() {
  const Token& first = Advance();  // LAMBDA
  std::vector<std::string> names;
  do {
    const Token& name = Advance();
    if (name.kind != TokenKind::kIdentifier && name.kind != TokenKind::kQuotedIdentifier) {
      return SyntaxError(name);
    }
    names.push_back(name.text);
  } while (AcceptOperator(","));
  TARN_RETURN_NOT_OK(ExpectOperator(":"));
  TARN_ASSIGN_OR_RETURN(auto body, ParseExpr());
  return Located(ast::MakeLambda(std::move(names), std::move(body), /*lambda_syntax=*/true), first,
                 tokens_[pos_ - 1]);
}

bool ExprParser::AtKeywordLambda() const {
  if (!Peek().IsKeyword("LAMBDA")) return false;
  for (size_t ahead = 1;; ahead += 2) {
    const Token& name = Peek(ahead);
    if (name.kind != TokenKind::kIdentifier && name.kind != TokenKind::kQuotedIdentifier) {
      return false;
    }
    const Token& next = Peek(ahead + 1);
    if (next.IsOperator(":")) return !Peek(ahead + 2).IsOperator("=");
    if (!next.IsOperator(",")) return false;
  }
}


Result<std::unique_ptr<Expr>> ExprParser::ParseLevel(int level) {
  if (level == kNot || level == kUnaryMinus) return ParsePrefix(level);
  if (level >= kPostfix) {
    TARN_ASSIGN_OR_RETURN(auto primary, ParsePrimary());
    return ParsePostfix(std::move(primary));
  }
  const Token& first = Peek();
  TARN_ASSIGN_OR_RETURN(auto left, ParseLevel(level + 1));
  while (true) {
    // Each pass puts one node above `left`: a long chain (a + b + c ...) is a tall tree.
    TARN_RETURN_NOT_OK(CheckHeight(*left, Peek()));
    const Token& token = Peek();
    Op op = Op::kNone;
    switch (level) {
      case kOr:
        if (token.IsKeyword("OR")) op = Op::kOr;
        break;
      case kAnd:
        if (token.IsKeyword("AND")) op = Op::kAnd;
        break;
      case kCompare:
        if (token.IsOperator("=") || token.IsOperator("==")) op = Op::kEqual;
        if (token.IsOperator("!=") || token.IsOperator("<>")) op = Op::kNotEqual;
        if (token.IsOperator("<")) op = Op::kLess;
        if (token.IsOperator("<=")) op = Op::kLessEqual;
        if (token.IsOperator(">")) op = Op::kGreater;
        if (token.IsOperator(">=")) op = Op::kGreaterEqual;
        break;
      case kOther:
        if (token.IsOperator("||")) op = Op::kConcat;
        if (token.IsOperator("&")) op = Op::kBitAnd;
        if (token.IsOperator("|")) op = Op::kBitOr;
        if (token.IsOperator("<<")) op = Op::kShiftLeft;
        if (token.IsOperator(">>")) op = Op::kShiftRight;
        if (token.IsOperator("->>")) op = Op::kJsonExtractText;
        break;
      case kAdditive:
        if (token.IsOperator("+")) op = Op::kAdd;
        if (token.IsOperator("-")) op = Op::kSubtract;
        break;
      case kMultiplicative:
        if (token.IsOperator("*")) op = Op::kMultiply;
        if (token.IsOperator("/")) op = Op::kDivide;
        if (token.IsOperator("//")) op = Op::kIntDivide;
        if (token.IsOperator("%") &&
            !(percent_suffix_ && (Peek(1).kind == TokenKind::kEnd || Peek(1).IsOperator(")") ||
                                  Peek(1).IsOperator(";") || Peek(1).IsKeyword("OFFSET")))) {
          op = Op::kModulo;
        }
        break;
      case kPower:
        if (token.IsOperator("^") || token.IsOperator("**")) op = Op::kPower;
        break;
      case kIs: {
        TARN_ASSIGN_OR_RETURN(bool applied, ParseIsSuffix(first, &left));
        if (applied) continue;
        break;
      }
      case kLikeInBetween: {
        TARN_ASSIGN_OR_RETURN(bool applied, ParseMembershipSuffix(first, &left));
        if (applied) continue;
        break;
      }
      default:
        break;
    }
    if (op == Op::kNone) return left;
    Advance();
    if (level == kCompare && (Peek().IsKeyword("ANY") || Peek().IsKeyword("SOME") ||
                              Peek().IsKeyword("ALL")) && AtSubqueryAfter(1)) {
      // x op ANY / SOME / ALL (subquery): the subquery node marked "#any" or "#all".
      const bool all = Advance().IsKeyword("ALL");
      TARN_ASSIGN_OR_RETURN(auto quantified, ParseSubquery());
      quantified->names[0] = all ? "#all" : "#any";
      left = Located(ast::MakeBinary(op, std::move(left), std::move(quantified)), first,
                     tokens_[pos_ - 1]);
      continue;
    }
    TARN_ASSIGN_OR_RETURN(auto right, ParseLevel(level + 1));
    left = Located(ast::MakeBinary(op, std::move(left), std::move(right)), first,
                   tokens_[pos_ - 1]);
  }
}

Result<bool> ExprParser::ParseIsSuffix(const Token& first, std::unique_ptr<Expr>* left) {
  const Token& token = Peek();
  if (token.IsKeyword("ISNULL") || token.IsKeyword("NOTNULL")) {
    Advance();
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::kIsNull;
    e->negated = token.IsKeyword("NOTNULL");
    e->children.push_back(std::move(*left));
    *left = Located(std::move(e), first, token);
    return true;
  }
  if (!token.IsKeyword("IS")) return false;
  Advance();
  bool negated = AcceptKeyword("NOT");
  if (AcceptKeyword("NULL")) {
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::kIsNull;
    e->negated = negated;
    e->children.push_back(std::move(*left));
    *left = Located(std::move(e), first, tokens_[pos_ - 1]);
    return true;
  }
  if (AcceptKeyword("TRUE") || AcceptKeyword("FALSE")) {
    // x IS [NOT] TRUE  ==  x IS [NOT] DISTINCT FROM TRUE, negated.
    bool is_true = tokens_[pos_ - 1].IsKeyword("TRUE");
    *left = ast::MakeBinary(negated ? Op::kIsDistinctFrom : Op::kIsNotDistinctFrom,
                           std::move(*left),
                           ast::MakeLiteral(is_true ? ast::LiteralKind::kTrue
                                                    : ast::LiteralKind::kFalse, ""));
    *left = Located(std::move(*left), first, tokens_[pos_ - 1]);
    return true;
  }
  TARN_RETURN_NOT_OK(ExpectKeyword("DISTINCT"));
  TARN_RETURN_NOT_OK(ExpectKeyword("FROM"));
  TARN_ASSIGN_OR_RETURN(auto right, ParseLevel(kCompare));
  *left = ast::MakeBinary(negated ? Op::kIsNotDistinctFrom : Op::kIsDistinctFrom,
                         std::move(*left), std::move(right));
  *left = Located(std::move(*left), first, tokens_[pos_ - 1]);
  return true;
}

Result<bool> ExprParser::ParseMembershipSuffix(const Token& first,
                                               std::unique_ptr<Expr>* left) {
  const Token& token = Peek();
  size_t ahead = token.IsKeyword("NOT") ? 1 : 0;
  const Token& word = Peek(ahead);
  bool negated = ahead == 1;
  if (word.IsKeyword("IN")) {
    pos_ += ahead + 1;
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::kIn;
    e->negated = negated;
    e->children.push_back(std::move(*left));
    if (AtSubquery()) {  // x IN (SELECT ...)
      TARN_ASSIGN_OR_RETURN(auto subquery, ParseSubquery());
      e->children.push_back(std::move(subquery));
      *left = Located(std::move(e), first, tokens_[pos_ - 1]);
      return true;
    }
    TARN_RETURN_NOT_OK(ExpectOperator("("));
    do {
      TARN_ASSIGN_OR_RETURN(auto item, ParseExpr());
      e->children.push_back(std::move(item));
    } while (AcceptOperator(","));
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
    *left = Located(std::move(e), first, tokens_[pos_ - 1]);
    return true;
  }
  if (word.IsKeyword("BETWEEN")) {
    pos_ += ahead + 1;
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::kBetween;
    e->negated = negated;
    e->children.push_back(std::move(*left));
    TARN_ASSIGN_OR_RETURN(auto low, ParseLevel(kOther));
    TARN_RETURN_NOT_OK(ExpectKeyword("AND"));
    TARN_ASSIGN_OR_RETURN(auto high, ParseLevel(kOther));
    e->children.push_back(std::move(low));
    e->children.push_back(std::move(high));
    *left = Located(std::move(e), first, tokens_[pos_ - 1]);
    return true;
  }
  const bool similar = word.IsKeyword("SIMILAR") && Peek(ahead + 1).IsKeyword("TO");
  const bool tilde = ahead == 0 && (token.IsOperator("~") || token.IsOperator("!~"));
  if (similar || tilde) {
    // x [NOT] SIMILAR TO p, x ~ p and x !~ p are DuckDB's regexp_full_match(x, p) [negated].
    pos_ += similar ? ahead + 2 : 1;
    negated = similar ? negated : token.IsOperator("!~");
    TARN_ASSIGN_OR_RETURN(auto pattern, ParseLevel(kOther));
    if (similar && Peek().IsKeyword("ESCAPE")) {
      return Status::InvalidArgument("Not implemented Error: Custom escape in SIMILAR TO");
    }
    std::vector<std::unique_ptr<Expr>> args;
    args.push_back(std::move(*left));
    args.push_back(std::move(pattern));
    auto call = ast::MakeFunction("regexp_full_match", std::move(args));
    if (negated) call = ast::MakeUnary(Op::kNot, std::move(call));
    *left = Located(std::move(call), first, tokens_[pos_ - 1]);
    return true;
  }
  if (!negated && word.IsKeyword("GLOB")) {
    // x GLOB p (DuckDB has no NOT GLOB and no ESCAPE for it).
    pos_ += 1;
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::kLike;
    e->op = Op::kGlob;
    e->children.push_back(std::move(*left));
    TARN_ASSIGN_OR_RETURN(auto pattern, ParseLevel(kOther));
    e->children.push_back(std::move(pattern));
    *left = Located(std::move(e), first, tokens_[pos_ - 1]);
    return true;
  }
  if (word.IsKeyword("LIKE") || word.IsKeyword("ILIKE")) {
    pos_ += ahead + 1;
    auto e = std::make_unique<Expr>();
    e->kind = ExprKind::kLike;
    e->op = word.IsKeyword("LIKE") ? Op::kLike : Op::kILike;
    e->negated = negated;
    e->children.push_back(std::move(*left));
    TARN_ASSIGN_OR_RETURN(auto pattern, ParseLevel(kOther));
    e->children.push_back(std::move(pattern));
    if (AcceptKeyword("ESCAPE")) {
      TARN_ASSIGN_OR_RETURN(auto escape, ParseLevel(kOther));
      e->children.push_back(std::move(escape));
    }
    *left = Located(std::move(e), first, tokens_[pos_ - 1]);
    return true;
  }
  return false;
}

Result<std::unique_ptr<Expr>> ExprParser::ParsePrefix(int level) {
  const Token& first = Peek();
  Op op = Op::kNone;
  if (level == kNot && first.IsKeyword("NOT")) op = Op::kNot;
  if (level == kUnaryMinus && first.IsOperator("-")) op = Op::kNegate;
  if (level == kUnaryMinus && first.IsOperator("+")) op = Op::kPlus;
  if (level == kUnaryMinus && first.IsOperator("~")) op = Op::kBitNot;
  if (op == Op::kNone) return ParseLevel(level + 1);
  Advance();
  if (depth_ > kMaxExpressionDepth) return NestedTooDeeply(first);
  ++depth_;
  auto operand = ParseLevel(level);
  --depth_;
  if (!operand.ok()) return operand.status();
  return Located(ast::MakeUnary(op, std::move(operand).value()), first, tokens_[pos_ - 1]);
}

Result<std::unique_ptr<Expr>> ExprParser::ParsePostfix(std::unique_ptr<Expr> expr) {
  const Token first = Peek();
  int32_t start = expr->range.offset;
  while (true) {
    // Each pass puts one node above `expr`: x[1][1]... and x::T::T... are tall trees.
    TARN_RETURN_NOT_OK(CheckHeight(*expr, Peek()));
    if (AcceptOperator("::")) {
      TARN_ASSIGN_OR_RETURN(std::string type_name, ParseTypeName());
      auto e = std::make_unique<Expr>();
      e->kind = ExprKind::kCast;
      e->is_postfix = true;
      e->type_name = std::move(type_name);
      e->children.push_back(std::move(expr));
      expr = std::move(e);
    } else if (AcceptOperator("[")) {
      // x[i], or a slice x[a:b] / x[a:b:step]: array_slice(x, a, b[, step]), an omitted
      // bound an empty list (as DuckDB binds it).
      auto omitted = [] {
        auto e = std::make_unique<Expr>();
        e->kind = ExprKind::kList;
        return e;
      };
      std::unique_ptr<Expr> index;
      const bool both_omitted = Peek().IsOperator("::");
      if (AcceptOperator("::")) {
        // x[::step]: both bounds omitted (the lexer reads the two colons as one token).
        std::vector<std::unique_ptr<Expr>> args;
        args.push_back(std::move(expr));
        args.push_back(omitted());
        args.push_back(omitted());
        if (!Peek().IsOperator("]")) {
          TARN_ASSIGN_OR_RETURN(auto step, ParseExpr());
          args.push_back(std::move(step));
        }
        expr = ast::MakeFunction("array_slice", std::move(args));
      } else if (!Peek().IsOperator(":")) {
        TARN_ASSIGN_OR_RETURN(index, ParseExpr());
      }
      if (both_omitted) {
        // array_slice built above
      } else if (AcceptOperator(":")) {
        std::vector<std::unique_ptr<Expr>> args;
        args.push_back(std::move(expr));
        args.push_back(index ? std::move(index) : omitted());
        for (int part = 0; part < 2; ++part) {
          if (Peek().IsOperator("]") || Peek().IsOperator(":")) {
            args.push_back(omitted());
          } else {
            TARN_ASSIGN_OR_RETURN(auto bound, ParseExpr());
            args.push_back(std::move(bound));
          }
          if (part == 0 && !AcceptOperator(":")) break;
        }
        expr = ast::MakeFunction("array_slice", std::move(args));
      } else {
        auto e = std::make_unique<Expr>();
        e->kind = ExprKind::kSubscript;
        e->children.push_back(std::move(expr));
        e->children.push_back(std::move(index));
        expr = std::move(e);
      }
      TARN_RETURN_NOT_OK(ExpectOperator("]"));
    } else if (Peek().IsOperator(".") &&
               (Peek(1).kind == TokenKind::kIdentifier ||
                Peek(1).kind == TokenKind::kQuotedIdentifier) &&
               Peek(2).IsOperator("(")) {
      // x.f(args) is f(x, args); main.f(args) is f(args) in schema main.
      Advance();
      const Token& name = Advance();
      TARN_ASSIGN_OR_RETURN(auto call, ParseFunctionCall(name.text));
      if (call->kind != ExprKind::kFunction) return SyntaxError(name);
      if (!IsSystemSchema(*expr)) {
        call->children.insert(call->children.begin(), std::move(expr));
        if (call->names.size() > 1) call->names.insert(call->names.begin() + 1, "");
      }
      expr = std::move(call);
    } else if (Peek().IsOperator(".") && (Peek(1).kind == TokenKind::kIdentifier ||
                                          Peek(1).kind == TokenKind::kQuotedIdentifier)) {
      Advance();
      const Token& name = Advance();
      if (expr->kind == ExprKind::kColumnRef) {
        expr->names.push_back(name.text);
      } else {
        auto e = std::make_unique<Expr>();
        e->kind = ExprKind::kField;
        e->names.push_back(name.text);
        e->children.push_back(std::move(expr));
        expr = std::move(e);
      }
    } else {
      return expr;
    }
    const Token& last = tokens_[pos_ - 1];
    expr->range.offset = start;
    expr->range.length = last.offset + last.length - start;
    ast::UpdateHeight(expr.get());
  }
}

Result<std::string> ExprParser::ParseTypeName() {
  const Token& first = Peek();
  if (first.kind != TokenKind::kIdentifier && first.kind != TokenKind::kQuotedIdentifier) {
    return SyntaxError();
  }
  Advance();
  // Multi-word spellings only; any other word ends the type (it may be an alias).
  while (true) {
    if (Peek().IsKeyword("PRECISION") || Peek().IsKeyword("VARYING")) {
      Advance();
    } else if ((Peek().IsKeyword("WITH") || Peek().IsKeyword("WITHOUT")) &&
               Peek(1).IsKeyword("TIME") && Peek(2).IsKeyword("ZONE")) {
      pos_ += 3;
    } else {
      break;
    }
  }
  auto too_deep = [&] {
    return Status::InvalidArgument(FormatErrorAt(
        text_, StrCat("type nested too deeply (more than ", kMaxTypeDepth, " levels)"),
        Peek().offset));
  };
  if (Peek().IsOperator("(")) {
    int depth = 0;
    do {
      if (Peek().kind == TokenKind::kEnd) return SyntaxError();
      if (Peek().IsOperator("(") && ++depth > kMaxTypeDepth) return too_deep();
      if (Peek().IsOperator(")")) --depth;
      Advance();
    } while (depth > 0);
  }
  for (int suffixes = 0; Peek().IsOperator("["); ++suffixes) {
    if (suffixes >= kMaxTypeDepth) return too_deep();
    Advance();
    if (Peek().kind == TokenKind::kInteger) Advance();
    TARN_RETURN_NOT_OK(ExpectOperator("]"));
  }
  const Token& last = tokens_[pos_ - 1];
  return std::string(text_.substr(first.offset, last.offset + last.length - first.offset));
}

Result<std::unique_ptr<Expr>> ExprParser::ParseCase() {
  const Token& first = tokens_[pos_ - 1];
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kCase;
  if (!Peek().IsKeyword("WHEN")) {
    TARN_ASSIGN_OR_RETURN(auto operand, ParseExpr());
    e->has_operand = true;
    e->children.push_back(std::move(operand));
  }
  if (!Peek().IsKeyword("WHEN")) return SyntaxError();
  while (AcceptKeyword("WHEN")) {
    TARN_ASSIGN_OR_RETURN(auto when, ParseExpr());
    TARN_RETURN_NOT_OK(ExpectKeyword("THEN"));
    TARN_ASSIGN_OR_RETURN(auto then, ParseExpr());
    e->children.push_back(std::move(when));
    e->children.push_back(std::move(then));
  }
  if (AcceptKeyword("ELSE")) {
    TARN_ASSIGN_OR_RETURN(auto otherwise, ParseExpr());
    e->has_else = true;
    e->children.push_back(std::move(otherwise));
  }
  TARN_RETURN_NOT_OK(ExpectKeyword("END"));
  return Located(std::move(e), first, tokens_[pos_ - 1]);
}

Result<std::unique_ptr<Expr>> ExprParser::ParseCastCall(bool try_cast) {
  const Token& first = tokens_[pos_ - 1];
  TARN_RETURN_NOT_OK(ExpectOperator("("));
  TARN_ASSIGN_OR_RETURN(auto operand, ParseExpr());
  TARN_RETURN_NOT_OK(ExpectKeyword("AS"));
  TARN_ASSIGN_OR_RETURN(std::string type_name, ParseTypeName());
  TARN_RETURN_NOT_OK(ExpectOperator(")"));
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kCast;
  e->try_cast = try_cast;
  e->type_name = std::move(type_name);
  e->children.push_back(std::move(operand));
  return Located(std::move(e), first, tokens_[pos_ - 1]);
}

Result<std::unique_ptr<Expr>> ExprParser::ParseFunctionCall(std::string name) {
  const Token& first = tokens_[pos_ - 1];
  TARN_RETURN_NOT_OK(ExpectOperator("("));
  std::vector<std::unique_ptr<Expr>> args;
  std::vector<std::string> arg_names;  // empty unless an argument is named
  bool distinct = false;
  std::string upper = name;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper == "EXTRACT") {
    // EXTRACT(part FROM x) == date_part('part', x)
    const Token& part = Advance();
    if (part.kind != TokenKind::kIdentifier && part.kind != TokenKind::kString) {
      return SyntaxError(part);
    }
    TARN_RETURN_NOT_OK(ExpectKeyword("FROM"));
    TARN_ASSIGN_OR_RETURN(auto source, ParseExpr());
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
    args.push_back(ast::MakeLiteral(ast::LiteralKind::kString, part.text));
    args.push_back(std::move(source));
    return Located(ast::MakeFunction("date_part", std::move(args)), first, tokens_[pos_ - 1]);
  }
  if (upper == "POSITION" && !Peek().IsOperator(")")) {
    // POSITION(needle IN haystack) == strpos(haystack, needle); the needle binds tighter than IN.
    const size_t start = pos_;
    Result<std::unique_ptr<Expr>> needle = ParseLevel(kOther);
    if (needle.ok() && AcceptKeyword("IN")) {
      TARN_ASSIGN_OR_RETURN(auto haystack, ParseExpr());
      TARN_RETURN_NOT_OK(ExpectOperator(")"));
      args.push_back(std::move(haystack));
      args.push_back(std::move(needle).value());
      return Located(ast::MakeFunction("strpos", std::move(args)), first, tokens_[pos_ - 1]);
    }
    pos_ = start;  // position(haystack, needle): an ordinary call
  }
  if (!Peek().IsOperator(")")) {
    if (AcceptKeyword("DISTINCT")) distinct = true;
    if (Peek().IsOperator("*") && Peek(1).IsOperator(")")) {
      auto star = std::make_unique<Expr>();
      star->kind = ExprKind::kStar;
      args.push_back(Located(std::move(star), Peek(), Peek()));
      Advance();
    } else {
      do {
        // name := value, name => value: a named argument (macros take them).
        const Token& head = Peek();
        if ((head.kind == TokenKind::kIdentifier || head.kind == TokenKind::kQuotedIdentifier) &&
            ((Peek(1).IsOperator(":") && Peek(2).IsOperator("=")) ||
             (Peek(1).IsOperator("=") && Peek(2).IsOperator(">")))) {
          arg_names.resize(args.size());
          arg_names.push_back(head.text);
          pos_ += 3;
        } else if (!arg_names.empty()) {
          arg_names.emplace_back();
        }
        TARN_ASSIGN_OR_RETURN(auto arg, ParseExpr());
        args.push_back(std::move(arg));
        if (upper == "SUBSTRING" && args.size() == 1 && AcceptKeyword("FROM")) {
          // SUBSTRING(x FROM start [FOR length])
          TARN_ASSIGN_OR_RETURN(auto start, ParseExpr());
          args.push_back(std::move(start));
          if (AcceptKeyword("FOR")) {
            TARN_ASSIGN_OR_RETURN(auto length, ParseExpr());
            args.push_back(std::move(length));
          }
          break;
        }
      } while (AcceptOperator(","));
    }
  }
  // f(args ORDER BY key [ASC | DESC] [NULLS FIRST | LAST], ...): an ordered aggregate.
  std::vector<std::unique_ptr<Expr>> order_keys;
  std::vector<ast::WindowOrder> orders;
  if (!args.empty() && Peek().IsKeyword("ORDER") && Peek(1).IsKeyword("BY")) {
    pos_ += 2;
    TARN_RETURN_NOT_OK(ParseOrderList(&order_keys, &orders));
  }
  bool ignore_nulls = false;
  if (Peek().IsKeyword("IGNORE") && Peek(1).IsKeyword("NULLS")) {
    pos_ += 2;
    ignore_nulls = true;
  } else if (Peek().IsKeyword("RESPECT") && Peek(1).IsKeyword("NULLS")) {
    pos_ += 2;
  }
  TARN_RETURN_NOT_OK(ExpectOperator(")"));
  auto e = ast::MakeFunction(std::move(name), std::move(args));
  e->distinct = distinct;
  if (!arg_names.empty()) {
    arg_names.resize(e->children.size());
    e->names.insert(e->names.end(), arg_names.begin(), arg_names.end());
  }
  if (!orders.empty()) {
    for (auto& key : order_keys) e->children.push_back(std::move(key));
    e->arg_orders = std::move(orders);
    ast::UpdateHeight(e.get());
  }
  // f(...) FILTER ([WHERE] condition): the condition becomes the call's last child.
  if (Peek().IsKeyword("FILTER") && Peek(1).IsOperator("(")) {
    pos_ += 2;
    AcceptKeyword("WHERE");
    TARN_ASSIGN_OR_RETURN(auto condition, ParseExpr());
    TARN_RETURN_NOT_OK(ExpectOperator(")"));
    e->children.push_back(std::move(condition));
    e->has_filter = true;
    ast::UpdateHeight(e.get());
    if (Peek().IsKeyword("OVER")) {
      return Status::NotSupported(FormatErrorAt(
          text_, "not yet supported: FILTER in a window function", Peek().offset));
    }
  }
  if (Peek().IsKeyword("OVER")) {
    if (!e->arg_orders.empty()) {
      return Status::NotSupported(FormatErrorAt(
          text_, "not yet supported: ORDER BY in a window function's arguments", Peek().offset));
    }
    Advance();
    TARN_ASSIGN_OR_RETURN(e, ParseOver(std::move(e), ignore_nulls));
  } else if (ignore_nulls) {
    return Status::InvalidArgument(FormatErrorAt(
        text_, "Parser Error: IGNORE NULLS is only allowed with window functions", first.offset));
  }
  return Located(std::move(e), first, tokens_[pos_ - 1]);
}

Result<std::unique_ptr<Expr>> ExprParser::ParsePrimary() {
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kInteger:
      Advance();
      return Located(ast::MakeLiteral(ast::LiteralKind::kInteger, token.text), token, token);
    case TokenKind::kDecimal:
      Advance();
      return Located(ast::MakeLiteral(ast::LiteralKind::kDecimal, token.text), token, token);
    case TokenKind::kFloat:
      Advance();
      return Located(ast::MakeLiteral(ast::LiteralKind::kFloat, token.text), token, token);
    case TokenKind::kString:
      Advance();
      return Located(ast::MakeLiteral(ast::LiteralKind::kString, token.text), token, token);
    case TokenKind::kParameter: {
      Advance();
      auto e = std::make_unique<Expr>();
      e->kind = ExprKind::kParameter;
      e->text = token.text;
      return Located(std::move(e), token, token);
    }
    case TokenKind::kQuotedIdentifier:
      Advance();
      if (Peek().IsOperator("(")) return ParseFunctionCall(token.text);
      return Located(ast::MakeColumnRef({token.text}), token, token);
    case TokenKind::kOperator:
      if (AtSubquery()) return ParseSubquery();
      if (token.IsOperator("(")) {
        Advance();
        TARN_ASSIGN_OR_RETURN(auto inner, ParseExpr());
        if (Peek().IsOperator(",")) {
          // (a, b, ...) is row(a, b, ...), as in DuckDB (and the parameters of a lambda).
          std::vector<std::unique_ptr<Expr>> items;
          items.push_back(std::move(inner));
          while (AcceptOperator(",")) {
            TARN_ASSIGN_OR_RETURN(auto item, ParseExpr());
            items.push_back(std::move(item));
          }
          TARN_RETURN_NOT_OK(ExpectOperator(")"));
          return Located(ast::MakeFunction("row", std::move(items)), token, tokens_[pos_ - 1]);
        }
        TARN_RETURN_NOT_OK(ExpectOperator(")"));
        return inner;
      }
      if (token.IsOperator("[")) return ParseListLiteral();
      if (token.IsOperator("{")) return ParseStructLiteral();
      return SyntaxError();
    case TokenKind::kEnd:
      return SyntaxError();
    case TokenKind::kIdentifier:
      break;
  }
  if (token.IsKeyword("NULL") || token.IsKeyword("TRUE") || token.IsKeyword("FALSE")) {
    Advance();
    auto kind = token.IsKeyword("NULL")   ? ast::LiteralKind::kNull
                : token.IsKeyword("TRUE") ? ast::LiteralKind::kTrue
                                          : ast::LiteralKind::kFalse;
    return Located(ast::MakeLiteral(kind, ""), token, token);
  }
  if (token.IsKeyword("CASE")) {
    Advance();
    return ParseCase();
  }
  if (AtKeywordLambda()) return ParseKeywordLambda();
  if (token.IsKeyword("EXISTS") && subquery_hook_ != nullptr && AtSubqueryAfter(1)) {
    Advance();
    TARN_ASSIGN_OR_RETURN(auto subquery, ParseSubquery());
    subquery->names[0] = "#exists";
    return subquery;
  }
  if ((token.IsKeyword("CAST") || token.IsKeyword("TRY_CAST")) && Peek(1).IsOperator("(")) {
    Advance();
    return ParseCastCall(token.IsKeyword("TRY_CAST"));
  }
  if (token.IsKeyword("MAP") && Peek(1).IsOperator("{")) return ParseMapLiteral();
  // ARRAY[a, b] is the list [a, b], as DuckDB reads PostgreSQL's array constructor.
  if (token.IsKeyword("ARRAY") && Peek(1).IsOperator("[")) {
    Advance();
    return ParseListLiteral();
  }
  if (token.IsKeyword("INTERVAL") && Peek(1).IsOperator("(")) return ParseIntervalExpr();
  // INTERVAL '1 day', INTERVAL 2 DAYS.
  if (token.IsKeyword("INTERVAL")) {
    const Token& next = Peek(1);
    bool interval_units = (next.kind == TokenKind::kInteger || next.kind == TokenKind::kDecimal ||
                           next.kind == TokenKind::kString) &&
                          Peek(2).kind == TokenKind::kIdentifier && IsIntervalUnit(Peek(2));
    if (next.kind == TokenKind::kString || interval_units) {
      pos_ += 2;
      auto e = ast::MakeLiteral(ast::LiteralKind::kTyped, next.text);
      e->type_name = "INTERVAL";
      if (interval_units) e->text += " " + Advance().text;
      return Located(std::move(e), token, tokens_[pos_ - 1]);
    }
  }
  // Any other type name followed by a string is a typed literal, as in DuckDB: DATE '2020-01-01',
  // TIMESTAMP_NS '...', TIMESTAMP WITH TIME ZONE '...', DECIMAL(10, 2) '1.5', BLOB '\xAA'.
  TARN_ASSIGN_OR_RETURN(auto typed, ParseTypedLiteral());
  if (typed) return typed;
  if (Peek(1).IsOperator("(") && !IsStopWord(token)) {
    Advance();
    return ParseFunctionCall(token.text);
  }
  if (IsStopWord(token) || token.IsKeyword("NULL")) return SyntaxError();
  Advance();
  if (token.IsKeyword("CURRENT_TIMESTAMP") || token.IsKeyword("CURRENT_DATE")) {
    std::string name = token.text;
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return Located(ast::MakeFunction(std::move(name), {}), token, token);
  }
  return Located(ast::MakeColumnRef({token.text}), token, token);
}

Result<std::unique_ptr<Expr>> ExprParser::ParseTypedLiteral() {
  const Token& first = Peek();
  const Token& next = Peek(1);
  if (first.kind != TokenKind::kIdentifier || IsStopWord(first)) {
    return std::unique_ptr<Expr>();
  }
  // Cheap checks first: most names are not followed by what a type name continues with.
  if (next.kind != TokenKind::kString && !next.IsOperator("(") && !next.IsKeyword("WITH") &&
      !next.IsKeyword("WITHOUT") && !next.IsKeyword("PRECISION") && !next.IsKeyword("VARYING")) {
    return std::unique_ptr<Expr>();
  }
  if (!ParseSqlType(first.text).ok()) return std::unique_ptr<Expr>();
  const size_t start = pos_;
  Result<std::string> type_name = ParseTypeName();
  if (!type_name.ok() || Peek().kind != TokenKind::kString || !ParseSqlType(*type_name).ok()) {
    pos_ = start;  // a call such as decimal(x), or a name
    return std::unique_ptr<Expr>();
  }
  const Token& value = Advance();
  auto e = ast::MakeLiteral(ast::LiteralKind::kTyped, value.text);
  e->type_name = std::move(type_name).value();
  return Located(std::move(e), first, value);
}

Result<std::unique_ptr<ast::Expr>> ParseExpressionText(std::string_view text) {
  TARN_ASSIGN_OR_RETURN(auto tokens, Tokenize(text));
  ExprParser parser(text, tokens);
  TARN_ASSIGN_OR_RETURN(auto expr, parser.ParseExpr());
  if (parser.Peek().kind != TokenKind::kEnd) return parser.SyntaxError();
  return expr;
}

bool ExprParser::AtSubqueryAfter(size_t ahead) const {
  if (subquery_hook_ == nullptr || !Peek(ahead).IsOperator("(")) return false;
  const Token& next = Peek(ahead + 1);
  return next.IsKeyword("SELECT") || next.IsKeyword("WITH") || next.IsKeyword("VALUES") ||
         next.IsKeyword("FROM");
}

Result<std::unique_ptr<Expr>> ExprParser::ParseSubquery() {
  const Token& open = Advance();
  size_t position = pos_;
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Expr> subquery, (*subquery_hook_)(&position));
  pos_ = position;
  TARN_RETURN_NOT_OK(ExpectOperator(")"));
  return Located(std::move(subquery), open, tokens_[pos_ - 1]);
}

}  // namespace tarn::sql
