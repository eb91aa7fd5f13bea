#include "sql/plan/grouping_sets.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "sql/exec/aggregate_function.h"
#include "sql/parse/statement_clone.h"
#include "sql/plan/aggregate_rewrite.h"
#include "sql/plan/names.h"
#include "sql/plan/window_rewrite.h"

namespace tarn::sql {
namespace {

using ast::Expr;
using ast::ExprKind;
using ExprPtr = std::unique_ptr<Expr>;

bool IsGroupingCall(const Expr& e) {
  if (e.kind != ExprKind::kFunction) return false;
  const std::string name = LowerAscii(e.names[0]);
  return name == "grouping" || name == "grouping_id";
}

class SetRewriter {
 public:
  SetRewriter(const std::vector<ExprPtr>& groups, const std::vector<int>& set)
      : groups_(groups), set_(set) {}

  Result<ExprPtr> Rewrite(const Expr& e, bool inside_aggregate) {
    if (!inside_aggregate) {
      if (IsGroupingCall(e)) return Grouping(e);
      for (size_t g = 0; g < groups_.size(); ++g) {
        if (!InSet(static_cast<int>(g)) && e.Equals(*groups_[g])) {
          return ast::MakeLiteral(ast::LiteralKind::kNull, "");
        }
      }
    }
    const bool aggregate =
        e.kind == ExprKind::kFunction && IsAggregateName(LowerAscii(e.names[0]));
    ExprPtr copy = e.Clone();
    for (auto& child : copy->children) {
      TARN_ASSIGN_OR_RETURN(child, Rewrite(*child, inside_aggregate || aggregate));
    }
    return copy;
  }

 private:
  bool InSet(int g) const { return std::find(set_.begin(), set_.end(), g) != set_.end(); }

  Result<ExprPtr> Grouping(const Expr& call) {
    if (call.children.empty()) {
      return Status::InvalidArgument("Binder Error: GROUPING requires at least one child");
    }
    int64_t mask = 0;
    for (const auto& child : call.children) {
      int found = -1;
      for (size_t g = 0; g < groups_.size() && found < 0; ++g) {
        if (child->Equals(*groups_[g])) found = static_cast<int>(g);
      }
      if (found < 0) {
        return Status::InvalidArgument("Binder Error: GROUPING child \"", child->ToString(),
                                       "\" must be a grouping column");
      }
      mask = (mask << 1) | (InSet(found) ? 0 : 1);
    }
    auto cast = std::make_unique<Expr>();
    cast->kind = ExprKind::kCast;
    cast->type_name = "BIGINT";
    cast->children.push_back(ast::MakeLiteral(ast::LiteralKind::kInteger, std::to_string(mask)));
    ast::UpdateHeight(cast.get());
    return cast;
  }

  const std::vector<ExprPtr>& groups_;
  const std::vector<int>& set_;
};

bool IsIntegerLiteral(const Expr& e) {
  return e.kind == ExprKind::kLiteral && e.literal_kind == ast::LiteralKind::kInteger;
}

}  // namespace

Result<std::unique_ptr<SelectStmt>> ExpandGroupingSets(const SelectStmt& select) {
  bool windowed = select.qualify != nullptr;
  for (const SelectItem& item : select.items) {
    if (item.star) {
      return Status::NotSupported("not yet supported: * with GROUPING SETS, ROLLUP or CUBE");
    }
    windowed = windowed || ContainsWindow(*item.expr);
  }
  if (windowed) {
    return Status::NotSupported(
        "not yet supported: window functions with GROUPING SETS, ROLLUP or CUBE");
  }
  // GROUP BY 2 names the second select item.
  std::vector<ExprPtr> groups;
  for (const auto& g : select.group_by) {
    if (IsIntegerLiteral(*g)) {
      const size_t position = std::strtoull(g->text.c_str(), nullptr, 10);
      if (position < 1 || position > select.items.size()) {
        return Status::InvalidArgument(
            "Binder Error: GROUP BY term out of range - should be between 1 and ",
            select.items.size());
      }
      groups.push_back(select.items[position - 1].expr->Clone());
    } else {
      groups.push_back(g->Clone());
    }
  }

  std::vector<std::unique_ptr<SelectStmt>> branches;
  for (const std::vector<int>& set : select.grouping_sets) {
    auto branch = std::make_unique<SelectStmt>();
    branch->distinct = select.distinct;
    branch->from = CloneTableRef(select.from);
    if (select.where) branch->where = select.where->Clone();
    SetRewriter rewriter(groups, set);
    for (const SelectItem& item : select.items) {
      SelectItem rewritten;
      rewritten.alias = item.alias.empty() ? DefaultColumnName(*item.expr) : item.alias;
      TARN_ASSIGN_OR_RETURN(rewritten.expr, rewriter.Rewrite(*item.expr, false));
      branch->items.push_back(std::move(rewritten));
    }
    for (int g : set) branch->group_by.push_back(groups[static_cast<size_t>(g)]->Clone());
    if (select.having) {
      TARN_ASSIGN_OR_RETURN(branch->having, rewriter.Rewrite(*select.having, false));
    } else if (set.empty()) {
      // One row for the empty set, aggregates or not.
      branch->having = ast::MakeLiteral(ast::LiteralKind::kTrue, "");
    }
    branches.push_back(std::move(branch));
  }
  // The branches as a balanced tree of unions (in their order), so planning and running it
  // recurse log2(sets) deep, not once per set (CUBE of 12 columns has 4096).
  while (branches.size() > 1) {
    std::vector<std::unique_ptr<SelectStmt>> paired;
    for (size_t i = 0; i < branches.size(); i += 2) {
      if (i + 1 == branches.size()) {
        paired.push_back(std::move(branches[i]));
        continue;
      }
      auto combined = std::make_unique<SelectStmt>();
      combined->set_op = SetOp::kUnion;
      combined->set_all = !select.distinct;
      combined->set_left = std::move(branches[i]);
      combined->set_right = std::move(branches[i + 1]);
      paired.push_back(std::move(combined));
    }
    branches = std::move(paired);
  }
  std::unique_ptr<SelectStmt> result = std::move(branches.front());
  if (result->set_op == SetOp::kNone) {
    // One set: the query itself, with its ORDER BY and LIMIT.
    for (const OrderItem& item : select.order_by) result->order_by.push_back(CloneOrderItem(item));
  } else {
    for (const OrderItem& item : select.order_by) {
      OrderItem copy;
      copy.descending = item.descending;
      copy.nulls_first = item.nulls_first;
      const Expr& e = *item.expr;
      if (IsIntegerLiteral(e) || e.kind == ExprKind::kColumnRef) {
        copy.expr = e.Clone();
      } else {
        for (size_t i = 0; i < select.items.size() && !copy.expr; ++i) {
          if (e.Equals(*select.items[i].expr)) {
            copy.expr = ast::MakeLiteral(ast::LiteralKind::kInteger, std::to_string(i + 1));
          }
        }
        if (!copy.expr) {
          return Status::NotSupported("not yet supported: ORDER BY \"", e.ToString(),
                                      "\" (not a select item) with GROUPING SETS, ROLLUP or CUBE");
        }
      }
      result->order_by.push_back(std::move(copy));
    }
  }
  result->ctes = select.ctes;
  if (select.limit) result->limit = select.limit->Clone();
  if (select.offset) result->offset = select.offset->Clone();
  return result;
}

}  // namespace tarn::sql
