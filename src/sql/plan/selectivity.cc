#include "sql/plan/selectivity.h"

#include <algorithm>
#include <string>

namespace tarn::sql {

namespace {

constexpr double kEquality = 0.1;
constexpr double kOther = 0.3;

double Selectivity(const ast::Expr& e, std::vector<std::string>* applied);

// The operands of a tree of ANDs, left to right.
void AndLeaves(const ast::Expr& e, std::vector<const ast::Expr*>* leaves) {
  if (e.kind == ast::ExprKind::kBinary && e.op == ast::Op::kAnd) {
    for (const auto& child : e.children) AndLeaves(*child, leaves);
    return;
  }
  leaves->push_back(&e);
}

// The fraction of rows passing every one of `leaves`, each counted among the rows the ones
// before it (and `applied`) kept.
double AllOf(const std::vector<const ast::Expr*>& leaves, std::vector<std::string>* applied) {
  const size_t depth = applied->size();
  double s = 1.0;
  for (const ast::Expr* leaf : leaves) {
    s *= Selectivity(*leaf, applied);
    applied->push_back(leaf->ToString());
  }
  applied->resize(depth);
  return s;
}

// The fraction of rows `e` keeps among rows that already passed the conditions in `applied`
// (their texts).
double Selectivity(const ast::Expr& e, std::vector<std::string>* applied) {
  using ast::ExprKind;
  using ast::Op;
  const std::string text = e.ToString();
  if (std::find(applied->begin(), applied->end(), text) != applied->end()) return 1.0;
  double s = kOther;
  switch (e.kind) {
    case ExprKind::kBinary:
      if (e.op == Op::kAnd) {
        std::vector<const ast::Expr*> leaves;
        AndLeaves(e, &leaves);
        s = AllOf(leaves, applied);
      } else if (e.op == Op::kOr) {
        const double a = Selectivity(*e.children[0], applied);
        const double b = Selectivity(*e.children[1], applied);
        s = a + (1 - a) * b;
      } else if (e.op == Op::kEqual || e.op == Op::kIsNotDistinctFrom) {
        s = kEquality;
      } else if (e.op == Op::kNotEqual || e.op == Op::kIsDistinctFrom) {
        s = 1 - kEquality;
      }
      break;
    case ExprKind::kIn: {
      const double in = std::min(0.5, kEquality * static_cast<double>(e.children.size() - 1));
      s = e.negated ? 1 - in : in;
      break;
    }
    case ExprKind::kBetween:
      s = e.negated ? 1 - kOther * kOther : kOther * kOther;
      break;
    case ExprKind::kIsNull:
      s = e.negated ? 1 - kEquality : kEquality;
      break;
    case ExprKind::kUnary:
      if (e.op == Op::kNot) s = 1 - Selectivity(*e.children[0], applied);
      break;
    default:
      break;
  }
  return std::clamp(s, 1e-6, 1.0);
}

}  // namespace

double ConjunctsSelectivity(const std::vector<std::unique_ptr<ast::Expr>>& conjuncts) {
  std::vector<const ast::Expr*> leaves;
  for (const auto& conjunct : conjuncts) AndLeaves(*conjunct, &leaves);
  std::vector<std::string> applied;
  return AllOf(leaves, &applied);
}

}  // namespace tarn::sql
