#include "sql/plan/conjuncts.h"

#include <utility>

#include "expr/functions/functions.h"
#include "sql/plan/names.h"

namespace tarn::sql {

using ast::Expr;
using ast::ExprKind;
using ExprPtr = std::unique_ptr<Expr>;

namespace {

bool IsBinary(const Expr& expr, ast::Op op) {
  return expr.kind == ExprKind::kBinary && expr.op == op && expr.children.size() == 2;
}

// Whether evaluating `expr` twice, or once fewer, could change a row's answer or cost more
// than it saves: volatile calls and subqueries (a '#'-named function).
bool Movable(const Expr& expr) {
  if (expr.kind == ExprKind::kFunction && !expr.names.empty()) {
    const std::string& name = expr.names.back();
    if (!name.empty() && name[0] == '#') return false;
    if (expr::IsVolatile(expr::LookupFunction(LowerAscii(name), expr.children.size()))) {
      return false;
    }
  }
  for (const auto& child : expr.children) {
    if (!Movable(*child)) return false;
  }
  return true;
}

// The operands of a tree of `op` (AND or OR), moved into *out in order.
void SplitBy(ast::Op op, ExprPtr expr, std::vector<ExprPtr>* out) {
  if (IsBinary(*expr, op)) {
    SplitBy(op, std::move(expr->children[0]), out);
    SplitBy(op, std::move(expr->children[1]), out);
    return;
  }
  out->push_back(std::move(expr));
}

ExprPtr FactorOr(ExprPtr expr) {
  std::vector<ExprPtr> branches;
  SplitBy(ast::Op::kOr, std::move(expr), &branches);
  std::vector<std::vector<ExprPtr>> conjuncts(branches.size());
  for (size_t b = 0; b < branches.size(); ++b) {
    SplitConjuncts(FactorCommonConjuncts(std::move(branches[b])), &conjuncts[b]);
  }
  std::vector<ExprPtr> common;
  for (const ExprPtr& candidate : conjuncts[0]) {
    if (!Movable(*candidate)) continue;
    bool everywhere = true;
    for (size_t b = 1; b < conjuncts.size() && everywhere; ++b) {
      bool found = false;
      for (const ExprPtr& other : conjuncts[b]) found = found || other->Equals(*candidate);
      everywhere = found;
    }
    bool repeated = false;
    for (const ExprPtr& taken : common) repeated = repeated || taken->Equals(*candidate);
    if (everywhere && !repeated) common.push_back(candidate->Clone());
  }
  bool some_branch_empty = false;
  if (!common.empty()) {
    for (std::vector<ExprPtr>& branch : conjuncts) {
      std::vector<ExprPtr> rest;
      for (ExprPtr& conjunct : branch) {
        bool shared = false;
        for (const ExprPtr& taken : common) shared = shared || taken->Equals(*conjunct);
        if (!shared) rest.push_back(std::move(conjunct));
      }
      some_branch_empty = some_branch_empty || rest.empty();
      branch = std::move(rest);
    }
  }
  // A branch left with nothing is TRUE, and so is the OR of it.
  if (!some_branch_empty) {
    ExprPtr any;
    for (std::vector<ExprPtr>& branch : conjuncts) {
      ExprPtr all = AndAll(std::move(branch));
      any = any ? ast::MakeBinary(ast::Op::kOr, std::move(any), std::move(all)) : std::move(all);
    }
    common.push_back(std::move(any));
  }
  return AndAll(std::move(common));
}

}  // namespace

void SplitConjuncts(ExprPtr expr, std::vector<ExprPtr>* out) {
  SplitBy(ast::Op::kAnd, std::move(expr), out);
}

ExprPtr AndAll(std::vector<ExprPtr> conjuncts) {
  ExprPtr all;
  for (auto& conjunct : conjuncts) {
    all = all ? ast::MakeBinary(ast::Op::kAnd, std::move(all), std::move(conjunct))
              : std::move(conjunct);
  }
  return all;
}

ExprPtr FactorCommonConjuncts(ExprPtr expr) {
  if (IsBinary(*expr, ast::Op::kAnd)) {
    expr->children[0] = FactorCommonConjuncts(std::move(expr->children[0]));
    expr->children[1] = FactorCommonConjuncts(std::move(expr->children[1]));
    return expr;
  }
  if (IsBinary(*expr, ast::Op::kOr)) return FactorOr(std::move(expr));
  return expr;
}

}  // namespace tarn::sql
