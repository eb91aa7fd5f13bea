#include "sql/plan/subquery_rewrite.h"

#include <utility>
#include <vector>

#include "expr/eval/cast.h"
#include "sql/parse/statement_clone.h"
#include "sql/parse/statement_parser.h"
#include "sql/plan/aggregate_rewrite.h"
#include "sql/plan/decorrelate.h"
#include "sql/plan/join_tree.h"
#include "sql/plan/planner.h"
#include "sql/plan/window_rewrite.h"

namespace tarn::sql {
namespace {

using ast::Expr;
using ast::ExprKind;
using ExprPtr = std::unique_ptr<Expr>;

bool IsSubquery(const Expr& expr, const char* which) {
  return expr.kind == ExprKind::kFunction && expr.names.size() == 1 && expr.names[0] == which;
}

bool IsAnySubquery(const Expr& expr) {
  return IsSubquery(expr, "#subquery") || IsSubquery(expr, "#exists") ||
         IsSubquery(expr, "#any") || IsSubquery(expr, "#all");
}

bool ContainsSubquery(const Expr& expr) {
  if (IsAnySubquery(expr)) return true;
  for (const auto& child : expr.children) {
    if (ContainsSubquery(*child)) return true;
  }
  return false;
}

// The subquery a "#subquery" / "#exists" node holds.
Result<std::unique_ptr<SelectStmt>> ParseSubquery(const Expr& node) {
  TARN_ASSIGN_OR_RETURN(auto statements, ParseStatements(node.text));
  if (statements.size() != 1 || statements[0]->kind != StatementKind::kSelect ||
      !statements[0]->select) {
    return Status::Internal("a subquery that is no query: ", node.text);
  }
  return std::move(statements[0]->select);
}

// The message for a subquery that reads the outer query where that is not supported.
Status CorrelatedHere(const Status& status) {
  return Status::NotSupported("not yet supported: correlated subqueries here (", status.message(),
                              ")");
}

// Runs an uncorrelated subquery now. A name it cannot resolve means it reads the outer
// query: not yet supported.
Result<std::shared_ptr<Batch>> RunSubquery(const Expr& node, const ExecContext& context) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> select, ParseSubquery(node));
  Result<std::unique_ptr<Operator>> plan = PlanSelect(*select, node.text, context);
  if (!plan.ok()) {
    if (plan.status().IsNotFound()) return CorrelatedHere(plan.status());
    return plan.status();
  }
  return ReadAllBatches(plan->get());
}

// True when `node` reads the outer query: it does not plan on its own for a name it cannot
// resolve.
Result<bool> IsCorrelated(const SelectStmt& subquery, const Expr& node,
                          const ExecContext& context) {
  Result<std::unique_ptr<Operator>> plan = PlanSelect(subquery, node.text, context);
  if (plan.ok()) return false;
  if (plan.status().IsNotFound()) return true;
  return plan.status();
}

bool IsComparison(const Expr& expr) {
  if (expr.kind != ExprKind::kBinary) return false;
  switch (expr.op) {
    case ast::Op::kEqual:
    case ast::Op::kNotEqual:
    case ast::Op::kLess:
    case ast::Op::kLessEqual:
    case ast::Op::kGreater:
    case ast::Op::kGreaterEqual:
      return true;
    default:
      return false;
  }
}

ExprPtr CastLiteral(const Value& value) {
  auto cast = std::make_unique<Expr>();
  cast->kind = ExprKind::kCast;
  cast->type_name = value.type().ToString();
  cast->children.push_back(value.is_null()
                               ? ast::MakeLiteral(ast::LiteralKind::kNull, "")
                               : ast::MakeLiteral(ast::LiteralKind::kString,
                                                  expr::ValueToText(value)));
  return cast;
}

ExprPtr BoolLiteral(bool value) {
  return ast::MakeLiteral(value ? ast::LiteralKind::kTrue : ast::LiteralKind::kFalse, "");
}

// A subquery whose FROM and WHERE can join the outer query as they are.
bool IsFlattenable(const SelectStmt& select) {
  if (select.from.kind == TableRef::Kind::kNone || !select.ctes.empty() ||
      !select.values.empty() || !select.group_by.empty() || select.group_by_all ||
      select.having || select.limit || select.offset) {
    return false;
  }
  for (const SelectItem& item : select.items) {
    if (item.expr && (ContainsAggregate(*item.expr) || ContainsWindow(*item.expr))) return false;
  }
  return !select.qualify;
}

class SubqueryRewriter {
 public:
  explicit SubqueryRewriter(const ExecContext& context) : context_(context) {}

  Result<std::unique_ptr<SelectStmt>> Rewrite(const SelectStmt& select) {
    // The query as written, for narrowing the correlated subqueries' derived tables.
    outer_.from = &select.from;
    if (select.where) SplitConjuncts(select.where->Clone(), &outer_where_);
    for (const ExprPtr& conjunct : outer_where_) outer_.conjuncts.push_back(conjunct.get());
    std::unique_ptr<SelectStmt> out = CloneSelect(select);
    if (out->where && ContainsSubquery(*out->where)) {
      std::vector<ExprPtr> conjuncts;
      SplitConjuncts(std::move(out->where), &conjuncts);
      std::vector<ExprPtr> kept;
      for (ExprPtr& conjunct : conjuncts) {
        TARN_RETURN_NOT_OK(RewriteConjunct(std::move(conjunct), out.get(), &kept));
      }
      for (ExprPtr& conjunct : kept) {
        out->where = out->where ? ast::MakeBinary(ast::Op::kAnd, std::move(out->where),
                                                  std::move(conjunct))
                                : std::move(conjunct);
      }
    }
    // A join under the select list is one row per outer row only without aggregation.
    bool aggregates = !out->group_by.empty() || out->group_by_all || out->having != nullptr;
    for (const SelectItem& item : out->items) {
      aggregates = aggregates || (item.expr && ContainsAggregate(*item.expr));
    }
    SelectStmt* target = out.get();
    for (SelectItem& item : out->items) {
      if (item.expr) TARN_RETURN_NOT_OK(ReplaceSubqueries(&item.expr, target, !aggregates));
    }
    if (out->where) TARN_RETURN_NOT_OK(ReplaceSubqueries(&out->where, target, true));
    for (auto& group : out->group_by) TARN_RETURN_NOT_OK(ReplaceSubqueries(&group, target, false));
    if (out->having) TARN_RETURN_NOT_OK(ReplaceSubqueries(&out->having, target, false));
    for (OrderItem& item : out->order_by) {
      TARN_RETURN_NOT_OK(ReplaceSubqueries(&item.expr, target, false));
    }
    return out;
  }

 private:
  // Replaces every subquery under *expr by its value. `may_join`: a correlated scalar
  // subquery becomes a column of a LEFT JOIN added to select's FROM clause (decorrelate.h);
  // else it is not supported here.
  Status ReplaceSubqueries(ExprPtr* expr, SelectStmt* select, bool may_join) {
    Expr& e = **expr;
    if (IsSubquery(e, "#exists")) {
      TARN_ASSIGN_OR_RETURN(auto batch, RunSubquery(e, context_));
      *expr = BoolLiteral(batch->num_rows > 0);
      return Status::OK();
    }
    if (IsSubquery(e, "#subquery")) {
      TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> sub, ParseSubquery(e));
      Result<std::unique_ptr<Operator>> plan = PlanSelect(*sub, e.text, context_);
      if (!plan.ok() && plan.status().IsNotFound()) {
        if (!may_join || select->from.kind == TableRef::Kind::kNone) {
          return CorrelatedHere(plan.status());
        }
        TARN_ASSIGN_OR_RETURN(DecorrelatedSubquery joined,
                              DecorrelateScalarSubquery(*sub, NextName(), e.text, context_, &outer_));
        AddJoin(select, JoinType::kLeft, std::move(joined.derived), std::move(joined.on), false);
        *expr = std::move(joined.value);
        return Status::OK();
      }
      TARN_RETURN_NOT_OK(plan.status());
      TARN_ASSIGN_OR_RETURN(auto batch, ReadAllBatches(plan->get()));
      if (batch->schema->num_fields() != 1) {
        return Status::InvalidArgument("Binder Error: Subquery returns ",
                                       batch->schema->num_fields(), " columns - expected 1");
      }
      if (batch->num_rows > 1) {
        return Status::InvalidArgument(
            "Invalid Input Error: More than one row returned by a subquery used as an expression "
            "- scalar subqueries can only return a single row.");
      }
      const DataType& type = batch->schema->field(0).type;
      *expr = CastLiteral(batch->num_rows == 0 ? Value::Null(type) : batch->column(0).GetValue(0));
      return Status::OK();
    }
    if (e.kind == ExprKind::kIn && e.children.size() == 2 &&
        IsSubquery(*e.children[1], "#subquery")) {
      return ReplaceInSubquery(expr, select, may_join);
    }
    if (e.kind == ExprKind::kBinary && e.children.size() == 2 &&
        (IsSubquery(*e.children[1], "#any") || IsSubquery(*e.children[1], "#all"))) {
      return ReplaceQuantified(expr, select, may_join);
    }
    for (auto& child : e.children) {
      TARN_RETURN_NOT_OK(ReplaceSubqueries(&child, select, may_join));
    }
    return Status::OK();
  }

  // x [NOT] IN (uncorrelated subquery) outside a WHERE conjunct: an IN list of the subquery's
  // values, which has IN's NULL rules (no match and a NULL in the list: NULL); an empty
  // subquery makes IN false and NOT IN true, even for a NULL x.
  Status ReplaceInSubquery(ExprPtr* expr, SelectStmt* select, bool may_join) {
    Expr& e = **expr;
    TARN_RETURN_NOT_OK(ReplaceSubqueries(&e.children[0], select, may_join));
    TARN_ASSIGN_OR_RETURN(auto batch, RunSubquery(*e.children[1], context_));
    if (batch->schema->num_fields() != 1) {
      return Status::InvalidArgument("Binder Error: Subquery returns ",
                                     batch->schema->num_fields(), " columns - expected 1");
    }
    if (batch->num_rows == 0) {
      *expr = BoolLiteral(e.negated);
      return Status::OK();
    }
    if (batch->num_rows > kMaxInListRows) {
      return Status::NotSupported("not yet supported: IN (subquery) of more than ",
                                  kMaxInListRows, " rows outside a WHERE conjunct");
    }
    e.children.pop_back();
    for (int64_t row = 0; row < batch->num_rows; ++row) {
      e.children.push_back(CastLiteral(batch->column(0).GetValue(row)));
    }
    return Status::OK();
  }

  // x op ANY (uncorrelated subquery): the OR of x op v over the subquery's values v (false
  // when it has none); x op ALL: their AND (true when it has none). Three-valued logic gives
  // DuckDB's NULL rules: no comparison true but one NULL makes ANY NULL, and so on.
  Status ReplaceQuantified(ExprPtr* expr, SelectStmt* select, bool may_join) {
    Expr& e = **expr;
    const bool all = IsSubquery(*e.children[1], "#all");
    TARN_RETURN_NOT_OK(ReplaceSubqueries(&e.children[0], select, may_join));
    TARN_ASSIGN_OR_RETURN(auto batch, RunSubquery(*e.children[1], context_));
    if (batch->schema->num_fields() != 1) {
      return Status::InvalidArgument("Binder Error: Subquery returns ",
                                     batch->schema->num_fields(), " columns - expected 1");
    }
    if (batch->num_rows > kMaxInListRows) {
      return Status::NotSupported("not yet supported: ", all ? "ALL" : "ANY",
                                  " (subquery) of more than ", kMaxInListRows, " rows");
    }
    std::vector<ExprPtr> terms;
    for (int64_t row = 0; row < batch->num_rows; ++row) {
      terms.push_back(ast::MakeBinary(e.op, e.children[0]->Clone(),
                                      CastLiteral(batch->column(0).GetValue(row))));
    }
    if (terms.empty()) terms.push_back(BoolLiteral(all));
    // Combined pairwise, so the tree stays shallow.
    while (terms.size() > 1) {
      std::vector<ExprPtr> next;
      for (size_t i = 0; i + 1 < terms.size(); i += 2) {
        next.push_back(ast::MakeBinary(all ? ast::Op::kAnd : ast::Op::kOr, std::move(terms[i]),
                                       std::move(terms[i + 1])));
      }
      if (terms.size() % 2 == 1) next.push_back(std::move(terms.back()));
      terms = std::move(next);
    }
    *expr = std::move(terms[0]);
    return Status::OK();
  }

  // The most rows an IN (subquery) outside a WHERE conjunct becomes an IN list of (it is
  // evaluated per row against every value).
  static constexpr int64_t kMaxInListRows = 1000;

  std::string NextName() { return "#subquery" + std::to_string(++count_); }

  // Joins `right` to select->from by `type` ON `on` (null: every pair). `inner_scope`: names
  // in `on` resolve to the right side first (a flattened EXISTS subquery).
  static void AddJoin(SelectStmt* select, JoinType type, TableRef right, ExprPtr on,
                      bool inner_scope) {
    TableRef join;
    join.kind = TableRef::Kind::kJoin;
    join.join_type = type;
    join.offset = select->from.offset;
    join.left = std::make_unique<TableRef>(std::move(select->from));
    join.right = std::make_unique<TableRef>(std::move(right));
    join.on = on ? std::move(on) : BoolLiteral(true);
    // A SEMI / ANTI join marked `comma` resolves its ON condition's names right side first
    // (see JoinBinder::BindTree).
    join.comma = inner_scope;
    select->from = std::move(join);
  }

  Status RewriteConjunct(ExprPtr conjunct, SelectStmt* select, std::vector<ExprPtr>* kept) {
    if (select->from.kind == TableRef::Kind::kNone) {
      kept->push_back(std::move(conjunct));
      return Status::OK();
    }
    bool negated = false;
    const Expr* core = conjunct.get();
    if (core->kind == ExprKind::kUnary && core->op == ast::Op::kNot) {
      negated = true;
      core = core->children[0].get();
    }
    if (IsSubquery(*core, "#exists")) {
      TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> sub, ParseSubquery(*core));
      if (!IsFlattenable(*sub)) {
        kept->push_back(std::move(conjunct));  // run now, below
        return Status::OK();
      }
      AddJoin(select, negated ? JoinType::kAnti : JoinType::kSemi, std::move(sub->from),
              std::move(sub->where), true);
      return Status::OK();
    }
    if (core->kind == ExprKind::kIn && core->children.size() == 2 &&
        IsSubquery(*core->children[1], "#subquery")) {
      negated = negated != core->negated;
      TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> sub, ParseSubquery(*core->children[1]));
      const std::string name = NextName();
      ExprPtr value = core->children[0]->Clone();
      if (negated) {
        // NOT IN: never true when the subquery holds a NULL, always when it is empty.
        auto facts = std::make_unique<SelectStmt>();
        SelectItem rows;
        rows.expr = ast::MakeFunction("count", {});
        rows.expr->children.push_back(std::make_unique<Expr>());
        rows.expr->children[0]->kind = ExprKind::kStar;
        SelectItem values;
        values.expr = ast::MakeFunction("count", {});
        values.expr->children.push_back(ast::MakeColumnRef({name}));
        facts->items.push_back(std::move(rows));
        facts->items.push_back(std::move(values));
        facts->from.kind = TableRef::Kind::kSubquery;
        facts->from.subquery = CloneSelect(*sub);
        facts->from.alias = name;
        facts->from.column_aliases = {name};
        TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> plan,
                              PlanSelect(*facts, core->children[1]->text, context_));
        TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> counts, ReadAllBatches(plan.get()));
        const int64_t all = counts->column(0).GetValue(0).GetInt64();
        const int64_t non_null = counts->column(1).GetValue(0).GetInt64();
        if (all == 0) return Status::OK();  // always true
        if (non_null < all) {
          kept->push_back(BoolLiteral(false));
          return Status::OK();
        }
        auto not_null = std::make_unique<Expr>();
        not_null->kind = ExprKind::kIsNull;
        not_null->negated = true;
        not_null->children.push_back(value->Clone());
        kept->push_back(std::move(not_null));
      }
      TableRef right;
      right.kind = TableRef::Kind::kSubquery;
      right.subquery = std::move(sub);
      right.alias = name;
      right.column_aliases = {name};
      AddJoin(select, negated ? JoinType::kAnti : JoinType::kSemi, std::move(right),
              ast::MakeBinary(ast::Op::kEqual, std::move(value), ast::MakeColumnRef({name, name})),
              false);
      return Status::OK();
    }
    // x op (correlated scalar subquery): a NULL value (no row of the subquery) makes the
    // conjunct not true, so an inner join is exact, and free to be reordered.
    if (IsComparison(*conjunct)) {
      for (auto& side : conjunct->children) {
        if (!IsSubquery(*side, "#subquery")) continue;
        TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> sub, ParseSubquery(*side));
        TARN_ASSIGN_OR_RETURN(bool correlated, IsCorrelated(*sub, *side, context_));
        if (!correlated) break;
        TARN_ASSIGN_OR_RETURN(DecorrelatedSubquery joined,
                              DecorrelateScalarSubquery(*sub, NextName(), side->text, context_,
                                                        &outer_));
        AddJoin(select, joined.needs_left_join ? JoinType::kLeft : JoinType::kInner,
                std::move(joined.derived), std::move(joined.on), false);
        side = std::move(joined.value);
        break;
      }
    }
    kept->push_back(std::move(conjunct));
    return Status::OK();
  }

  const ExecContext& context_;
  int count_ = 0;
  OuterQuery outer_;
  std::vector<ExprPtr> outer_where_;  // what outer_.conjuncts point into
};

}  // namespace

bool HasSubqueries(const SelectStmt& select) {
  for (const SelectItem& item : select.items) {
    if (item.expr && ContainsSubquery(*item.expr)) return true;
  }
  if (select.where && ContainsSubquery(*select.where)) return true;
  for (const auto& group : select.group_by) {
    if (ContainsSubquery(*group)) return true;
  }
  if (select.having && ContainsSubquery(*select.having)) return true;
  for (const OrderItem& item : select.order_by) {
    if (ContainsSubquery(*item.expr)) return true;
  }
  return false;
}

Result<std::unique_ptr<SelectStmt>> RewriteSubqueries(const SelectStmt& select,
                                                      const ExecContext& context) {
  return SubqueryRewriter(context).Rewrite(select);
}

}  // namespace tarn::sql
