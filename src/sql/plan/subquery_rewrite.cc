#include "sql/plan/subquery_rewrite.h"

#include <utility>
#include <vector>

#include "expr/cast.h"
#include "sql/parse/statement_parser.h"
#include "sql/plan/aggregate_rewrite.h"
#include "sql/plan/join_tree.h"
#include "sql/plan/planner.h"

namespace tarn::sql {
namespace {

using ast::Expr;
using ast::ExprKind;
using ExprPtr = std::unique_ptr<Expr>;

bool IsSubquery(const Expr& expr, const char* which) {
  return expr.kind == ExprKind::kFunction && expr.names.size() == 1 && expr.names[0] == which;
}

bool IsAnySubquery(const Expr& expr) {
  return IsSubquery(expr, "#subquery") || IsSubquery(expr, "#exists");
}

bool ContainsSubquery(const Expr& expr) {
  if (IsAnySubquery(expr)) return true;
  for (const auto& child : expr.children) {
    if (ContainsSubquery(*child)) return true;
  }
  return false;
}

ExprPtr CloneOrNull(const ExprPtr& expr) { return expr ? expr->Clone() : nullptr; }

std::unique_ptr<SelectStmt> CloneSelect(const SelectStmt& select);

TableRef CloneTableRef(const TableRef& ref) {
  TableRef out;
  out.kind = ref.kind;
  out.names = ref.names;
  out.file = ref.file;
  for (const TableArg& arg : ref.args) {
    TableArg copy;
    copy.name = arg.name;
    copy.expr = CloneOrNull(arg.expr);
    copy.is_list = arg.is_list;
    for (const auto& element : arg.list) copy.list.push_back(element->Clone());
    out.args.push_back(std::move(copy));
  }
  if (ref.subquery) out.subquery = CloneSelect(*ref.subquery);
  out.alias = ref.alias;
  out.column_aliases = ref.column_aliases;
  if (ref.at) {
    AtClause at;
    at.timestamp = ref.at->timestamp;
    at.value = CloneOrNull(ref.at->value);
    out.at = std::move(at);
  }
  out.offset = ref.offset;
  if (ref.left) out.left = std::make_unique<TableRef>(CloneTableRef(*ref.left));
  if (ref.right) out.right = std::make_unique<TableRef>(CloneTableRef(*ref.right));
  out.join_type = ref.join_type;
  out.on = CloneOrNull(ref.on);
  out.using_columns = ref.using_columns;
  out.natural = ref.natural;
  out.comma = ref.comma;
  return out;
}

std::unique_ptr<SelectStmt> CloneSelect(const SelectStmt& select) {
  auto out = std::make_unique<SelectStmt>();
  out->ctes = select.ctes;
  for (const auto& row : select.values) {
    std::vector<ExprPtr> copy;
    for (const auto& value : row) copy.push_back(value->Clone());
    out->values.push_back(std::move(copy));
  }
  out->distinct = select.distinct;
  for (const SelectItem& item : select.items) {
    SelectItem copy;
    copy.expr = CloneOrNull(item.expr);
    copy.alias = item.alias;
    copy.star = item.star;
    copy.star_qualifier = item.star_qualifier;
    copy.exclude = item.exclude;
    out->items.push_back(std::move(copy));
  }
  out->from = CloneTableRef(select.from);
  out->where = CloneOrNull(select.where);
  for (const auto& group : select.group_by) out->group_by.push_back(group->Clone());
  out->group_by_all = select.group_by_all;
  out->having = CloneOrNull(select.having);
  for (const OrderItem& item : select.order_by) {
    OrderItem copy;
    copy.expr = item.expr->Clone();
    copy.descending = item.descending;
    copy.nulls_first = item.nulls_first;
    out->order_by.push_back(std::move(copy));
  }
  out->limit = CloneOrNull(select.limit);
  out->offset = CloneOrNull(select.offset);
  return out;
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

// Runs an uncorrelated subquery now. A name it cannot resolve means it reads the outer
// query: not yet supported.
Result<std::shared_ptr<Batch>> RunSubquery(const Expr& node, const ExecContext& context) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<SelectStmt> select, ParseSubquery(node));
  Result<std::unique_ptr<Operator>> plan = PlanSelect(*select, node.text, context);
  if (!plan.ok()) {
    if (plan.status().IsNotFound()) {
      return Status::NotSupported("not yet supported: correlated subqueries here (",
                                  plan.status().message(), ")");
    }
    return plan.status();
  }
  return ReadAllBatches(plan->get());
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

// Replaces every subquery under *expr by its value (uncorrelated ones only).
Status ReplaceBySubqueryValues(ExprPtr* expr, const ExecContext& context) {
  Expr& e = **expr;
  if (IsSubquery(e, "#exists")) {
    TARN_ASSIGN_OR_RETURN(auto batch, RunSubquery(e, context));
    *expr = BoolLiteral(batch->num_rows > 0);
    return Status::OK();
  }
  if (IsSubquery(e, "#subquery")) {
    TARN_ASSIGN_OR_RETURN(auto batch, RunSubquery(e, context));
    if (batch->schema->num_fields() != 1) {
      return Status::InvalidArgument("Binder Error: Subquery returns ",
                                     batch->schema->num_fields(), " columns - expected 1");
    }
    if (batch->num_rows > 1) {
      return Status::InvalidArgument(
          "Invalid Input Error: More than one row returned by a subquery used as an expression - "
          "scalar subqueries can only return a single row.");
    }
    const DataType& type = batch->schema->field(0).type;
    *expr = CastLiteral(batch->num_rows == 0 ? Value::Null(type) : batch->column(0).GetValue(0));
    return Status::OK();
  }
  if (e.kind == ExprKind::kIn && e.children.size() == 2 && IsSubquery(*e.children[1], "#subquery")) {
    return Status::NotSupported("not yet supported: IN (subquery) outside a WHERE conjunct");
  }
  for (auto& child : e.children) TARN_RETURN_NOT_OK(ReplaceBySubqueryValues(&child, context));
  return Status::OK();
}

// A subquery whose FROM and WHERE can join the outer query as they are.
bool IsFlattenable(const SelectStmt& select) {
  if (select.from.kind == TableRef::Kind::kNone || !select.ctes.empty() ||
      !select.values.empty() || !select.group_by.empty() || select.group_by_all ||
      select.having || select.limit || select.offset) {
    return false;
  }
  for (const SelectItem& item : select.items) {
    if (item.expr && ContainsAggregate(*item.expr)) return false;
  }
  return true;
}

class SubqueryRewriter {
 public:
  explicit SubqueryRewriter(const ExecContext& context) : context_(context) {}

  Result<std::unique_ptr<SelectStmt>> Rewrite(const SelectStmt& select) {
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
    for (SelectItem& item : out->items) {
      if (item.expr) TARN_RETURN_NOT_OK(ReplaceBySubqueryValues(&item.expr, context_));
    }
    if (out->where) TARN_RETURN_NOT_OK(ReplaceBySubqueryValues(&out->where, context_));
    for (auto& group : out->group_by) TARN_RETURN_NOT_OK(ReplaceBySubqueryValues(&group, context_));
    if (out->having) TARN_RETURN_NOT_OK(ReplaceBySubqueryValues(&out->having, context_));
    for (OrderItem& item : out->order_by) {
      TARN_RETURN_NOT_OK(ReplaceBySubqueryValues(&item.expr, context_));
    }
    return out;
  }

 private:
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
      const std::string name = "#subquery" + std::to_string(++count_);
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
    kept->push_back(std::move(conjunct));
    return Status::OK();
  }

  const ExecContext& context_;
  int count_ = 0;
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
