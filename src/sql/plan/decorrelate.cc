#include "sql/plan/decorrelate.h"

#include <set>
#include <utility>
#include <vector>

#include "expr/cast.h"
#include "sql/parse/statement_clone.h"
#include "sql/plan/aggregate_rewrite.h"
#include "sql/plan/join_tree.h"
#include "sql/plan/names.h"
#include "sql/plan/planner.h"

namespace tarn::sql {
namespace {

using ast::Expr;
using ast::ExprKind;
using ExprPtr = std::unique_ptr<Expr>;

// The tables of the subquery's FROM clause: each one's qualifier and column names, lower-case.
struct InnerNames {
  std::set<std::string> qualifiers;
  std::set<std::string> columns;
};

std::string FileStem(const std::string& path) {
  size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = base.find('.');
  return dot == std::string::npos || dot == 0 ? base : base.substr(0, dot);
}

Status CollectInnerNames(const TableRef& ref, std::string_view sql_text, const ExecContext& context,
                         InnerNames* names) {
  if (ref.kind == TableRef::Kind::kJoin) {
    TARN_RETURN_NOT_OK(CollectInnerNames(*ref.left, sql_text, context, names));
    return CollectInnerNames(*ref.right, sql_text, context, names);
  }
  // The columns the table has, as `SELECT * FROM ref` names them (planned, not run).
  SelectStmt all;
  SelectItem star;
  star.star = true;
  all.items.push_back(std::move(star));
  all.from = CloneTableRef(ref);
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> plan, PlanSelect(all, sql_text, context));
  for (const Field& field : plan->schema()->fields) names->columns.insert(LowerAscii(field.name));
  std::string qualifier = ref.alias;
  if (qualifier.empty() && ref.kind == TableRef::Kind::kTable) qualifier = ref.names.back();
  if (qualifier.empty() && ref.kind == TableRef::Kind::kFile) qualifier = FileStem(ref.file);
  if (qualifier.empty() && ref.kind == TableRef::Kind::kFunction) qualifier = ref.names[0];
  if (!qualifier.empty()) names->qualifiers.insert(LowerAscii(qualifier));
  return Status::OK();
}

// Which scopes an expression's column references read.
struct Reads {
  bool inner = false;
  bool outer = false;
};

void CollectReads(const Expr& expr, const InnerNames& names, Reads* reads) {
  if (expr.kind == ExprKind::kColumnRef && !expr.names.empty()) {
    const bool qualified_inner =
        expr.names.size() >= 2 && names.qualifiers.count(LowerAscii(expr.names[0])) > 0;
    if (qualified_inner || names.columns.count(LowerAscii(expr.names[0])) > 0) {
      reads->inner = true;
    } else {
      reads->outer = true;
    }
    return;
  }
  for (const auto& child : expr.children) CollectReads(*child, names, reads);
}

Reads ReadsOf(const Expr& expr, const InnerNames& names) {
  Reads reads;
  CollectReads(expr, names, &reads);
  return reads;
}

// `value` as a constant expression of its type.
ExprPtr ValueLiteral(const Value& value) {
  auto cast = std::make_unique<Expr>();
  cast->kind = ExprKind::kCast;
  cast->type_name = value.type().ToString();
  cast->children.push_back(value.is_null()
                               ? ast::MakeLiteral(ast::LiteralKind::kNull, "")
                               : ast::MakeLiteral(ast::LiteralKind::kString,
                                                  expr::ValueToText(value)));
  return cast;
}

// The subquery's value when no row matches: its select item over no rows.
Result<Value> ValueOverNoRows(const SelectStmt& subquery, std::string_view sql_text,
                              const ExecContext& context) {
  SelectStmt none;
  none.ctes = subquery.ctes;
  SelectItem item;
  item.expr = subquery.items[0].expr->Clone();
  none.items.push_back(std::move(item));
  none.from = CloneTableRef(subquery.from);
  none.where = ast::MakeLiteral(ast::LiteralKind::kFalse, "");
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> plan, PlanSelect(none, sql_text, context));
  TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, ReadAllBatches(plan.get()));
  if (batch->num_rows != 1 || batch->schema->num_fields() != 1) {
    return Status::Internal("an aggregate over no rows gave ", batch->num_rows, " rows");
  }
  return batch->column(0).GetValue(0);
}

Status Unsupported(const std::string& what) {
  return Status::NotSupported("not yet supported: correlated subqueries ", what);
}

}  // namespace

Result<DecorrelatedSubquery> DecorrelateScalarSubquery(const SelectStmt& subquery,
                                                       const std::string& name,
                                                       std::string_view sql_text,
                                                       const ExecContext& context) {
  if (subquery.from.kind == TableRef::Kind::kNone || !subquery.values.empty() ||
      !subquery.group_by.empty() || subquery.group_by_all || subquery.having ||
      subquery.limit || subquery.offset || subquery.items.size() != 1 ||
      subquery.items[0].star || !subquery.items[0].expr ||
      !ContainsAggregate(*subquery.items[0].expr)) {
    return Unsupported("other than one aggregate without GROUP BY, HAVING or LIMIT");
  }
  const Expr& item = *subquery.items[0].expr;
  InnerNames names;
  TARN_RETURN_NOT_OK(CollectInnerNames(subquery.from, sql_text, context, &names));
  if (ReadsOf(item, names).outer) return Unsupported("reading outer columns in their SELECT list");

  // Split the WHERE clause into the subquery's own conjuncts and the correlation keys.
  std::vector<ExprPtr> conjuncts;
  if (subquery.where) SplitConjuncts(subquery.where->Clone(), &conjuncts);
  std::vector<ExprPtr> own;
  std::vector<ExprPtr> inner_keys;
  std::vector<ExprPtr> outer_keys;
  for (ExprPtr& conjunct : conjuncts) {
    const Reads reads = ReadsOf(*conjunct, names);
    if (!reads.outer) {
      own.push_back(std::move(conjunct));
      continue;
    }
    if (conjunct->kind == ExprKind::kBinary && conjunct->op == ast::Op::kEqual) {
      const Reads left = ReadsOf(*conjunct->children[0], names);
      const Reads right = ReadsOf(*conjunct->children[1], names);
      if (left.inner && !left.outer && right.outer && !right.inner) {
        inner_keys.push_back(std::move(conjunct->children[0]));
        outer_keys.push_back(std::move(conjunct->children[1]));
        continue;
      }
      if (right.inner && !right.outer && left.outer && !left.inner) {
        inner_keys.push_back(std::move(conjunct->children[1]));
        outer_keys.push_back(std::move(conjunct->children[0]));
        continue;
      }
    }
    return Unsupported("whose condition " + conjunct->ToString() +
                       " is not an equality of their own columns with the outer query's");
  }
  if (inner_keys.empty()) return Unsupported("correlated outside their WHERE equalities");

  // d = SELECT inner_1 AS "#k1", ..., item AS "#v" FROM f WHERE own GROUP BY inner_1, ...
  auto derived = std::make_unique<SelectStmt>();
  derived->ctes = subquery.ctes;
  derived->from = CloneTableRef(subquery.from);
  for (ExprPtr& conjunct : own) {
    derived->where = derived->where ? ast::MakeBinary(ast::Op::kAnd, std::move(derived->where),
                                                      std::move(conjunct))
                                    : std::move(conjunct);
  }
  DecorrelatedSubquery out;
  out.derived.kind = TableRef::Kind::kSubquery;
  out.derived.alias = name;
  out.derived.offset = subquery.from.offset;
  for (size_t i = 0; i < inner_keys.size(); ++i) {
    const std::string key = "#k" + std::to_string(i + 1);
    SelectItem key_item;
    key_item.expr = inner_keys[i]->Clone();
    key_item.alias = key;
    derived->items.push_back(std::move(key_item));
    derived->group_by.push_back(std::move(inner_keys[i]));
    out.derived.column_aliases.push_back(key);
    ExprPtr equal = ast::MakeBinary(ast::Op::kEqual, std::move(outer_keys[i]),
                                    ast::MakeColumnRef({name, key}));
    out.on = out.on ? ast::MakeBinary(ast::Op::kAnd, std::move(out.on), std::move(equal))
                    : std::move(equal);
  }
  SelectItem value_item;
  value_item.expr = item.Clone();
  value_item.alias = "#v";
  derived->items.push_back(std::move(value_item));
  out.derived.column_aliases.push_back("#v");
  out.derived.subquery = std::move(derived);
  out.value = ast::MakeColumnRef({name, "#v"});
  // An outer row without a group (its key NULL: keys match by equality) takes the value over
  // no rows.
  TARN_ASSIGN_OR_RETURN(Value empty, ValueOverNoRows(subquery, sql_text, context));
  if (!empty.is_null()) {
    auto unmatched = std::make_unique<Expr>();
    unmatched->kind = ExprKind::kIsNull;
    unmatched->children.push_back(ast::MakeColumnRef({name, "#k1"}));
    auto choice = std::make_unique<Expr>();
    choice->kind = ExprKind::kCase;
    choice->has_else = true;
    choice->children.push_back(std::move(unmatched));
    choice->children.push_back(ValueLiteral(empty));
    choice->children.push_back(std::move(out.value));
    out.value = std::move(choice);
    out.needs_left_join = true;
  }
  return out;
}

}  // namespace tarn::sql
