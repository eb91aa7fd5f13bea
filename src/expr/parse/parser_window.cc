// OVER clauses: window specifications after a function call and in WINDOW clauses.
#include <string>
#include <utility>
#include <vector>

#include "expr/parse/parser.h"

namespace tarn::sql {

using ast::Expr;
using ast::ExprKind;
using ast::FrameBound;

Status ExprParser::ParseOrderList(std::vector<std::unique_ptr<Expr>>* keys,
                                  std::vector<ast::WindowOrder>* orders) {
  do {
    TARN_ASSIGN_OR_RETURN(auto key, ParseExpr());
    keys->push_back(std::move(key));
    ast::WindowOrder order;
    if (AcceptKeyword("DESC")) {
      order.descending = true;
    } else {
      order.ascending_written = AcceptKeyword("ASC");
    }
    if (AcceptKeyword("NULLS")) {
      if (AcceptKeyword("FIRST")) {
        order.nulls_first = 1;
      } else {
        TARN_RETURN_NOT_OK(ExpectKeyword("LAST"));
        order.nulls_first = 0;
      }
    }
    orders->push_back(order);
  } while (AcceptOperator(","));
  return Status::OK();
}

Result<FrameBound> ExprParser::ParseFrameBound(std::vector<std::unique_ptr<Expr>>* offsets) {
  if (AcceptKeyword("UNBOUNDED")) {
    if (AcceptKeyword("PRECEDING")) return FrameBound::kUnboundedPreceding;
    TARN_RETURN_NOT_OK(ExpectKeyword("FOLLOWING"));
    return FrameBound::kUnboundedFollowing;
  }
  if (AcceptKeyword("CURRENT")) {
    TARN_RETURN_NOT_OK(ExpectKeyword("ROW"));
    return FrameBound::kCurrentRow;
  }
  TARN_ASSIGN_OR_RETURN(auto offset, ParseExpr());
  offsets->push_back(std::move(offset));
  if (AcceptKeyword("PRECEDING")) return FrameBound::kPreceding;
  TARN_RETURN_NOT_OK(ExpectKeyword("FOLLOWING"));
  return FrameBound::kFollowing;
}

Result<std::unique_ptr<Expr>> ExprParser::ParseOver(std::unique_ptr<Expr> call,
                                                    bool ignore_nulls) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kWindow;
  e->window = std::make_unique<ast::WindowSpec>();
  ast::WindowSpec& spec = *e->window;
  spec.ignore_nulls = ignore_nulls;
  if (call) {
    e->names = std::move(call->names);
    e->distinct = call->distinct;
    e->range = call->range;
    spec.num_args = static_cast<int32_t>(call->children.size());
    e->children = std::move(call->children);
  }
  // OVER w: the named window as it is.
  if (call && Peek().kind == TokenKind::kIdentifier && !Peek().IsOperator("(")) {
    spec.base = Advance().text;
    ast::UpdateHeight(e.get());
    return e;
  }
  if (depth_ > kMaxExpressionDepth) return NestedTooDeeply(Peek());
  ++depth_;
  TARN_RETURN_NOT_OK(ExpectOperator("("));
  if (Peek().kind == TokenKind::kIdentifier && !Peek().IsKeyword("PARTITION") &&
      !Peek().IsKeyword("ORDER") && !Peek().IsKeyword("ROWS") && !Peek().IsKeyword("RANGE") &&
      !Peek().IsKeyword("GROUPS")) {
    spec.base = Advance().text;
  }
  if (AcceptKeyword("PARTITION")) {
    TARN_RETURN_NOT_OK(ExpectKeyword("BY"));
    do {
      TARN_ASSIGN_OR_RETURN(auto partition, ParseExpr());
      e->children.push_back(std::move(partition));
      ++spec.num_partitions;
    } while (AcceptOperator(","));
  }
  if (AcceptKeyword("ORDER")) {
    TARN_RETURN_NOT_OK(ExpectKeyword("BY"));
    TARN_RETURN_NOT_OK(ParseOrderList(&e->children, &spec.orders));
  }
  const Token& unit = Peek();
  if (unit.IsKeyword("ROWS") || unit.IsKeyword("RANGE") || unit.IsKeyword("GROUPS")) {
    Advance();
    spec.has_frame = true;
    spec.unit = unit.IsKeyword("ROWS")    ? ast::FrameUnit::kRows
                : unit.IsKeyword("RANGE") ? ast::FrameUnit::kRange
                                          : ast::FrameUnit::kGroups;
    std::vector<std::unique_ptr<Expr>> offsets;
    const Token& start_token = Peek();
    if (AcceptKeyword("BETWEEN")) {
      TARN_ASSIGN_OR_RETURN(spec.start, ParseFrameBound(&offsets));
      TARN_RETURN_NOT_OK(ExpectKeyword("AND"));
      TARN_ASSIGN_OR_RETURN(spec.end, ParseFrameBound(&offsets));
    } else {
      // ROWS n PRECEDING: from there to the current row.
      TARN_ASSIGN_OR_RETURN(spec.start, ParseFrameBound(&offsets));
      spec.end = FrameBound::kCurrentRow;
    }
    if (spec.start == FrameBound::kUnboundedFollowing) {
      return Status::InvalidArgument(FormatErrorAt(
          text_, "Parser Error: frame start cannot be UNBOUNDED FOLLOWING", start_token.offset));
    }
    if (spec.end == FrameBound::kUnboundedPreceding) {
      return Status::InvalidArgument(FormatErrorAt(
          text_, "Parser Error: frame end cannot be UNBOUNDED PRECEDING", start_token.offset));
    }
    if (Peek().IsKeyword("EXCLUDE")) {
      return Status::NotSupported(
          FormatErrorAt(text_, "not yet supported: EXCLUDE in a window frame", Peek().offset));
    }
    for (auto& offset : offsets) e->children.push_back(std::move(offset));
  }
  TARN_RETURN_NOT_OK(ExpectOperator(")"));
  --depth_;
  ast::UpdateHeight(e.get());
  return e;
}

}  // namespace tarn::sql
