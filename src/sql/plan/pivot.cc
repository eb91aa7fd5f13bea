#include "sql/plan/pivot.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sql/parse/statement_clone.h"
#include "sql/plan/names.h"
#include "sql/plan/planner.h"
#include "tarn/sql.h"

namespace tarn::sql {
namespace {

using ast::Expr;
using ast::ExprKind;
using ExprPtr = std::unique_ptr<Expr>;

// The name a plain column reference gives; empty for any other expression.
std::string ColumnName(const Expr& e) {
  return e.kind == ExprKind::kColumnRef ? e.names.back() : std::string();
}

void CollectColumns(const Expr& e, std::vector<std::string>* out) {
  if (e.kind == ExprKind::kColumnRef) out->push_back(e.names.back());
  for (const auto& child : e.children) {
    if (child) CollectColumns(*child, out);
  }
}

ExprPtr StringLiteral(const std::string& text) {
  return ast::MakeLiteral(ast::LiteralKind::kString, text);
}

Result<std::unique_ptr<SelectStmt>> RewriteUnpivot(const PivotSpec& spec) {
  auto inner = std::make_unique<SelectStmt>();
  SelectItem rest;
  rest.star = true;
  auto names = std::make_unique<Expr>();
  names->kind = ExprKind::kList;
  auto values = std::make_unique<Expr>();
  values->kind = ExprKind::kList;
  for (size_t k = 0; k < spec.on.size(); ++k) {
    const ExprPtr& on = spec.on[k];
    const std::string name = ColumnName(*on);
    if (name.empty()) {
      return Status::NotSupported("not yet supported: UNPIVOT ON ", on->ToString(),
                                  " (UNPIVOT takes column names)");
    }
    rest.exclude.push_back(name);
    const bool renamed = k < spec.on_names.size() && !spec.on_names[k].empty();
    names->children.push_back(StringLiteral(renamed ? spec.on_names[k] : name));
    values->children.push_back(on->Clone());
  }
  ast::UpdateHeight(names.get());
  ast::UpdateHeight(values.get());
  inner->items.push_back(std::move(rest));
  for (auto [list, column] : {std::pair{&names, spec.name_column}, {&values, spec.value_column}}) {
    SelectItem item;
    std::vector<ExprPtr> args;
    args.push_back(std::move(*list));
    item.expr = ast::MakeFunction("unnest", std::move(args));
    item.alias = column;
    inner->items.push_back(std::move(item));
  }
  inner->from = CloneTableRef(spec.source);
  if (spec.include_nulls) return inner;
  std::unique_ptr<SelectStmt> outer = SelectAllFrom(std::move(inner));
  auto is_null = std::make_unique<Expr>();
  is_null->kind = ExprKind::kIsNull;
  is_null->negated = true;
  is_null->children.push_back(ast::MakeColumnRef({spec.value_column}));
  ast::UpdateHeight(is_null.get());
  outer->where = std::move(is_null);
  return outer;
}

// One pivoted value: its column name and the condition that picks its rows.
struct PivotValue {
  std::string name;
  ExprPtr condition;
};

// on's distinct non-NULL values in the source, sorted, as conditions on it.
Result<std::vector<PivotValue>> DistinctValues(const PivotSpec& spec, const Expr& on,
                                               std::string_view sql_text,
                                               const ExecContext& context) {
  SelectStmt query;
  query.distinct = true;
  SelectItem key;
  key.expr = on.Clone();
  key.alias = "#pivot";
  query.items.push_back(std::move(key));
  query.from = CloneTableRef(spec.source);
  auto not_null = std::make_unique<Expr>();
  not_null->kind = ExprKind::kIsNull;
  not_null->negated = true;
  not_null->children.push_back(on.Clone());
  ast::UpdateHeight(not_null.get());
  query.where = std::move(not_null);
  OrderItem order;
  order.expr = ast::MakeLiteral(ast::LiteralKind::kInteger, "1");
  query.order_by.push_back(std::move(order));
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> plan, PlanSelect(query, sql_text, context));
  TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> rows, ReadAllBatches(plan.get()));
  std::vector<PivotValue> out;
  const Column& column = rows->column(0);
  const std::string type = column.type.ToString();
  for (int64_t r = 0; r < rows->num_rows; ++r) {
    const Value value = column.GetValue(r);
    const std::string text = value.ToString();
    auto cast = std::make_unique<Expr>();
    cast->kind = ExprKind::kCast;
    cast->type_name = type;
    cast->children.push_back(StringLiteral(text));
    ast::UpdateHeight(cast.get());
    out.push_back({text, ast::MakeBinary(ast::Op::kEqual, on.Clone(), std::move(cast))});
  }
  return out;
}

Result<std::unique_ptr<SelectStmt>> RewritePivotQuery(const PivotSpec& spec,
                                                      std::string_view sql_text,
                                                      const ExecContext& context) {
  if (spec.on.empty()) return Status::InvalidArgument("Parser Error: PIVOT needs ON");
  // Each ON expression's values (listed, or found in the source); the cells are their cross
  // product, the first expression's outermost, named by the values joined with '_' and
  // picking the rows where every expression has its value.
  std::vector<PivotValue> values;
  for (size_t k = 0; k < spec.on.size(); ++k) {
    const Expr& on = *spec.on[k];
    std::vector<PivotValue> own;
    if (k >= spec.in.size() || spec.in[k].empty()) {
      TARN_ASSIGN_OR_RETURN(own, DistinctValues(spec, on, sql_text, context));
    } else {
      for (const ExprPtr& value : spec.in[k]) {
        std::string name = value->kind == ExprKind::kLiteral ? value->text : value->ToString();
        if (value->kind == ExprKind::kLiteral && value->literal_kind == ast::LiteralKind::kNull) {
          name = "NULL";
        }
        own.push_back({name, ast::MakeBinary(ast::Op::kEqual, on.Clone(), value->Clone())});
      }
    }
    if (k == 0) {
      values = std::move(own);
      continue;
    }
    std::vector<PivotValue> crossed;
    for (const PivotValue& left : values) {
      for (const PivotValue& right : own) {
        crossed.push_back({left.name + "_" + right.name,
                           ast::MakeBinary(ast::Op::kAnd, left.condition->Clone(),
                                           right.condition->Clone())});
      }
    }
    values = std::move(crossed);
  }
  std::vector<std::pair<ExprPtr, std::string>> aggregates;
  if (spec.aggregates.empty()) {
    auto count = ast::MakeFunction("count", {});
    auto star = std::make_unique<Expr>();
    star->kind = ExprKind::kStar;
    count->children.push_back(std::move(star));
    aggregates.emplace_back(std::move(count), "");
  } else {
    for (const auto& [aggregate, alias] : spec.aggregates) aggregates.emplace_back(aggregate->Clone(), alias);
  }
  auto out = std::make_unique<SelectStmt>();
  out->from = CloneTableRef(spec.source);
  if (!spec.group_by.empty()) {
    for (const ExprPtr& group : spec.group_by) {
      SelectItem item;
      item.expr = group->Clone();
      out->items.push_back(std::move(item));
      out->group_by.push_back(group->Clone());
    }
  } else {
    // Every column neither the pivoted expression nor an aggregate reads is a group.
    SelectItem rest;
    rest.star = true;
    std::vector<std::string> read;
    for (const ExprPtr& on : spec.on) CollectColumns(*on, &read);
    for (const auto& [aggregate, alias] : aggregates) CollectColumns(*aggregate, &read);
    std::set<std::string> seen;
    for (const std::string& name : read) {
      if (seen.insert(LowerAscii(name)).second) rest.exclude.push_back(name);
    }
    out->items.push_back(std::move(rest));
    out->group_by_all = true;
  }
  const bool suffixed = aggregates.size() > 1 || !aggregates[0].second.empty();
  for (const PivotValue& value : values) {
    for (const auto& [aggregate, alias] : aggregates) {
      if (aggregate->kind != ExprKind::kFunction || aggregate->has_filter) {
        return Status::NotSupported("not yet supported: PIVOT USING ", aggregate->ToString());
      }
      ExprPtr cell = aggregate->Clone();
      cell->children.push_back(value.condition->Clone());
      cell->has_filter = true;
      ast::UpdateHeight(cell.get());
      SelectItem item;
      item.expr = std::move(cell);
      item.alias = value.name;
      if (suffixed) item.alias += "_" + (alias.empty() ? DefaultColumnName(*aggregate) : alias);
      out->items.push_back(std::move(item));
    }
  }
  return out;
}

}  // namespace

Result<std::unique_ptr<SelectStmt>> RewritePivot(const SelectStmt& select, std::string_view sql_text,
                                                 const ExecContext& context) {
  const PivotSpec& spec = *select.pivot;
  std::unique_ptr<SelectStmt> query;
  if (spec.unpivot) {
    TARN_ASSIGN_OR_RETURN(query, RewriteUnpivot(spec));
  } else {
    TARN_ASSIGN_OR_RETURN(query, RewritePivotQuery(spec, sql_text, context));
  }
  if (select.order_by.empty() && !select.limit && !select.offset) return query;
  std::unique_ptr<SelectStmt> outer = SelectAllFrom(std::move(query));
  CopyOrderAndLimit(select, outer.get());
  return outer;
}

}  // namespace tarn::sql
