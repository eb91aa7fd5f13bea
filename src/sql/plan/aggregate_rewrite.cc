#include "sql/plan/aggregate_rewrite.h"

#include "sql/exec/aggregate_function.h"
#include "sql/plan/names.h"

namespace tarn::sql {
namespace {

bool IsAggregateCall(const ast::Expr& expr) {
  return expr.kind == ast::ExprKind::kFunction && IsAggregateName(LowerAscii(expr.names[0]));
}

}  // namespace

bool ContainsAggregate(const ast::Expr& expr) {
  if (IsAggregateCall(expr)) return true;
  for (const auto& child : expr.children) {
    if (ContainsAggregate(*child)) return true;
  }
  return false;
}

Result<std::unique_ptr<ast::Expr>> AggregateRewriter::Rewrite(const ast::Expr& expr) {
  return RewriteNode(expr, false);
}

Result<std::unique_ptr<ast::Expr>> AggregateRewriter::RewriteNode(const ast::Expr& expr,
                                                                  bool inside_aggregate) {
  for (size_t g = 0; g < groups_.size(); ++g) {
    if (expr.Equals(*groups_[g])) return ast::MakeColumnRef({KeyColumn(g)});
  }
  if (IsAggregateCall(expr)) {
    if (inside_aggregate) {
      return Status::InvalidArgument("Binder Error: aggregate function calls cannot be nested: \"",
                                     expr.ToString(), "\"");
    }
    for (const auto& child : expr.children) {
      if (ContainsAggregate(*child)) {
        return Status::InvalidArgument(
            "Binder Error: aggregate function calls cannot be nested: \"", expr.ToString(), "\"");
      }
    }
    for (size_t a = 0; a < aggregates_.size(); ++a) {
      if (expr.Equals(*aggregates_[a])) return ast::MakeColumnRef({AggregateColumn(a)});
    }
    aggregates_.push_back(expr.Clone());
    return ast::MakeColumnRef({AggregateColumn(aggregates_.size() - 1)});
  }
  if (expr.kind == ast::ExprKind::kLambda) {
    const size_t outer = lambda_params_.size();
    lambda_params_.insert(lambda_params_.end(), expr.names.begin(), expr.names.end());
    std::unique_ptr<ast::Expr> copy = expr.Clone();
    Status status;
    for (auto& child : copy->children) {
      Result<std::unique_ptr<ast::Expr>> rewritten = RewriteNode(*child, inside_aggregate);
      if (!rewritten.ok()) {
        status = rewritten.status();
        break;
      }
      child = std::move(rewritten).value();
    }
    lambda_params_.resize(outer);
    TARN_RETURN_NOT_OK(status);
    return copy;
  }
  if (expr.kind == ast::ExprKind::kColumnRef) {
    for (const std::string& param : lambda_params_) {
      if (LowerAscii(param) == LowerAscii(expr.names[0])) return expr.Clone();
    }
    return Status::InvalidArgument(
        "Binder Error: column \"", expr.ToString(),
        "\" must appear in the GROUP BY clause or must be part of an aggregate function");
  }
  std::unique_ptr<ast::Expr> copy = expr.Clone();
  for (auto& child : copy->children) {
    TARN_ASSIGN_OR_RETURN(child, RewriteNode(*child, inside_aggregate));
  }
  return copy;
}

}  // namespace tarn::sql
