#include "sql/plan/common_table.h"

#include "sql/exec/batch_bytes.h"

#include <optional>
#include <string>
#include <unordered_set>
#include <utility>

#include "expr/bind/binder.h"
#include "expr/bind/bound.h"
#include "expr/eval/cast.h"
#include "sql/parse/statement_parser.h"
#include "sql/plan/names.h"
#include "sql/plan/planner.h"

namespace tarn::sql {

const CteScope* FindCte(const ExecContext& context, const TableRef& ref) {
  if (ref.kind != TableRef::Kind::kTable || ref.names.size() != 1 || ref.at.has_value()) {
    return nullptr;
  }
  const std::string name = LowerAscii(ref.names[0]);
  for (const CteScope* scope = context.ctes; scope != nullptr; scope = scope->parent) {
    if (LowerAscii(scope->cte->name) == name) return scope;
  }
  return nullptr;
}

namespace {

Result<std::unique_ptr<Operator>> Rename(std::unique_ptr<Operator> plan, const CteScope& scope);

// A row as bytes that equal rows (NULL equal to NULL) share.
std::string RowKey(const Batch& batch, int64_t row) {
  std::string key;
  for (const auto& column : batch.columns) {
    if (column->IsNull(row)) {
      key += '\0';
      continue;
    }
    const std::string text = expr::ValueToText(column->GetValue(row));
    key += '\1';
    key += std::to_string(text.size());
    key += ':';
    key += text;
  }
  return key;
}

// `plan`'s columns cast to `schema`'s types and named by its names.
Result<std::unique_ptr<Operator>> Conform(std::unique_ptr<Operator> plan, const Schema& schema,
                                          const std::string& name) {
  const Schema& input = *plan->schema();
  if (input.num_fields() != schema.num_fields()) {
    return Status::InvalidArgument(
        "Binder Error: Set operations can only apply to expressions with the same number of "
        "result columns (in the recursive CTE \"", name, "\")");
  }
  std::vector<std::unique_ptr<BoundExpr>> columns;
  std::vector<std::string> names;
  for (int c = 0; c < input.num_fields(); ++c) {
    auto node = std::make_unique<expr::BoundNode>();
    node->kind = expr::BoundKind::kColumn;
    node->type = input.field(c).type;
    node->column_index = c;
    node->name = input.field(c).name;
    TARN_ASSIGN_OR_RETURN(auto cast, expr::CastTo(std::move(node), schema.field(c).type));
    columns.push_back(std::make_unique<BoundExpr>(std::move(cast)));
    names.push_back(schema.field(c).name);
  }
  return MakeProjection(std::move(plan), std::move(columns), std::move(names));
}

Result<std::unique_ptr<Operator>> PlanRecursiveCte(const CteScope& scope,
                                                   std::string_view sql_text,
                                                   const ExecContext& context) {
  const SelectStmt& query = *scope.cte->query;
  if (!query.order_by.empty() || query.limit || query.offset) {
    return Status::NotSupported("not yet supported: ORDER BY or LIMIT in the recursive CTE \"",
                                scope.cte->name, "\"");
  }
  ExecContext outer = context;
  outer.ctes = scope.parent;
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> anchor,
                        PlanSelect(*query.set_left, sql_text, outer));
  TARN_ASSIGN_OR_RETURN(anchor, Rename(std::move(anchor), scope));
  auto schema = std::make_shared<Schema>(*anchor->schema());
  for (Field& field : schema->fields) {
    if (field.type.id == TypeId::kNull) field.type = DataType(TypeId::kInt32);
  }
  TARN_ASSIGN_OR_RETURN(anchor, Conform(std::move(anchor), *schema, scope.cte->name));
  TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> working, ReadAllBatches(anchor.get()));
  std::unordered_set<std::string> seen;
  // UNION: only rows not seen before (in this run too).
  auto keep_new = [&](std::shared_ptr<Batch> batch) -> std::shared_ptr<Batch> {
    if (query.set_all || batch->num_rows == 0) return batch;
    std::vector<uint8_t> keep(static_cast<size_t>((batch->num_rows + 7) / 8), 0);
    int64_t kept = 0;
    for (int64_t row = 0; row < batch->num_rows; ++row) {
      if (seen.insert(RowKey(*batch, row)).second) {
        keep[static_cast<size_t>(row >> 3)] |= static_cast<uint8_t>(1u << (row & 7));
        ++kept;
      }
    }
    if (kept == batch->num_rows) return batch;
    return KeepRows(std::move(batch), keep, kept);
  };
  working = keep_new(std::move(working));
  std::vector<std::shared_ptr<Batch>> result;
  int64_t bytes = 0;
  while (working->num_rows > 0) {
    bytes += BatchBytes(*working);
    if (bytes > context.memory_limit) {
      return Status::ResourceExhausted("Out of Memory Error: RECURSIVE_CTE needs more than the "
                                       "memory_limit of ", FormatMemorySize(context.memory_limit));
    }
    result.push_back(working);
    CteScope self;
    self.parent = scope.parent;
    self.cte = scope.cte;
    self.rows = working;
    ExecContext step_context = context;
    step_context.ctes = &self;
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> step,
                          PlanSelect(*query.set_right, sql_text, step_context));
    TARN_ASSIGN_OR_RETURN(step, Conform(std::move(step), *schema, scope.cte->name));
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> added, ReadAllBatches(step.get()));
    working = keep_new(std::move(added));
  }
  auto all = std::make_shared<Batch>(
      result.empty() ? *working : (result.size() == 1 ? *result[0] : *ConcatenateBatches(result)));
  all->schema = schema;
  return MakeValues("RECURSIVE_CTE", std::move(all));
}

}  // namespace

namespace {

void CountInExpr(const ast::Expr& expr, TableNameCounts* counts);

void CountInRef(const TableRef& ref, TableNameCounts* counts) {
  switch (ref.kind) {
    case TableRef::Kind::kTable:
      if (ref.names.size() == 1 && !ref.at.has_value()) ++(*counts)[LowerAscii(ref.names[0])];
      return;
    case TableRef::Kind::kSubquery:
      if (ref.subquery) CountTableNames(*ref.subquery, true, counts);
      return;
    case TableRef::Kind::kJoin:
      if (ref.left) CountInRef(*ref.left, counts);
      if (ref.right) CountInRef(*ref.right, counts);
      if (ref.on) CountInExpr(*ref.on, counts);
      return;
    case TableRef::Kind::kFunction:
      for (const TableArg& arg : ref.args) {
        if (arg.expr) CountInExpr(*arg.expr, counts);
        for (const auto& item : arg.list) CountInExpr(*item, counts);
      }
      return;
    case TableRef::Kind::kNone:
    case TableRef::Kind::kFile:
      return;
  }
}

void CountInExpr(const ast::Expr& expr, TableNameCounts* counts) {
  if (expr.kind == ast::ExprKind::kFunction && expr.names.size() == 1 &&
      !expr.names[0].empty() && expr.names[0][0] == '#' && !expr.text.empty()) {
    // A subquery, kept as its text (subquery_rewrite.h): a text that does not parse names
    // nothing here (planning it reports the error).
    Result<std::vector<std::unique_ptr<Statement>>> parsed = ParseStatements(expr.text);
    if (parsed.ok()) {
      for (const auto& statement : *parsed) {
        if (statement->select) CountTableNames(*statement->select, true, counts);
      }
    }
  }
  for (const auto& child : expr.children) CountInExpr(*child, counts);
}

}  // namespace

void CountTableNames(const SelectStmt& select, bool with_ctes, TableNameCounts* counts) {
  if (with_ctes) {
    for (const CommonTableExpr& cte : select.ctes) {
      if (cte.query) CountTableNames(*cte.query, true, counts);
    }
  }
  if (select.set_left) CountTableNames(*select.set_left, true, counts);
  if (select.set_right) CountTableNames(*select.set_right, true, counts);
  CountInRef(select.from, counts);
  for (const SelectItem& item : select.items) {
    if (item.expr) CountInExpr(*item.expr, counts);
  }
  if (select.where) CountInExpr(*select.where, counts);
  for (const auto& group : select.group_by) CountInExpr(*group, counts);
  if (select.having) CountInExpr(*select.having, counts);
  if (select.qualify) CountInExpr(*select.qualify, counts);
  for (const OrderItem& item : select.order_by) CountInExpr(*item.expr, counts);
}

Result<std::unique_ptr<Operator>> PlanCte(const CteScope& scope, std::string_view sql_text,
                                          const ExecContext& context) {
  if (scope.shared && scope.shared->plan) return MakeSharedScan(scope.shared);
  if (scope.rows) {
    auto rows = std::make_shared<Batch>(*scope.rows);
    return MakeValues("RECURSIVE_CTE_SCAN", std::move(rows));
  }
  if (scope.cte->recursive && scope.cte->query->set_op == SetOp::kUnion) {
    return PlanRecursiveCte(scope, sql_text, context);
  }
  ExecContext inner = context;
  inner.ctes = scope.parent;
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> plan,
                        PlanSelect(*scope.cte->query, sql_text, inner));
  TARN_ASSIGN_OR_RETURN(plan, Rename(std::move(plan), scope));
  if (!scope.shared) return plan;
  scope.shared->name = scope.cte->name;
  scope.shared->memory_limit = context.memory_limit;
  scope.shared->plan = std::move(plan);
  return MakeSharedScan(scope.shared);
}

namespace {

Result<std::unique_ptr<Operator>> Rename(std::unique_ptr<Operator> plan, const CteScope& scope) {
  const std::vector<std::string>& aliases = scope.cte->column_aliases;
  if (aliases.empty()) return plan;
  const Schema& schema = *plan->schema();
  if (aliases.size() > schema.fields.size()) {
    return Status::InvalidArgument("Binder Error: table \"", scope.cte->name, "\" has ",
                                   schema.num_fields(), " columns available but ",
                                   aliases.size(), " columns specified");
  }
  std::vector<std::unique_ptr<BoundExpr>> columns;
  std::vector<std::string> names;
  for (int c = 0; c < schema.num_fields(); ++c) {
    auto node = std::make_unique<expr::BoundNode>();
    node->kind = expr::BoundKind::kColumn;
    node->type = schema.field(c).type;
    node->column_index = c;
    node->name = schema.field(c).name;
    columns.push_back(std::make_unique<BoundExpr>(std::move(node)));
    names.push_back(static_cast<size_t>(c) < aliases.size() ? aliases[static_cast<size_t>(c)]
                                                            : schema.field(c).name);
  }
  return MakeProjection(std::move(plan), std::move(columns), std::move(names));
}

}  // namespace

Result<std::unique_ptr<Operator>> PlanValues(const SelectStmt& values) {
  const size_t width = values.values[0].size();
  Schema empty;
  std::vector<std::vector<std::unique_ptr<expr::BoundNode>>> rows;
  for (const auto& row : values.values) {
    if (row.size() != width) {
      return Status::InvalidArgument(
          "Parser Error: VALUES lists must all be the same length");
    }
    std::vector<std::unique_ptr<expr::BoundNode>> bound;
    for (const auto& value : row) {
      TARN_ASSIGN_OR_RETURN(auto node, expr::BindExpr(*value, empty));
      if (!node->IsConstant()) {
        return Status::InvalidArgument("Binder Error: VALUES needs constant values, not \"",
                                       value->ToString(), "\"");
      }
      bound.push_back(std::move(node));
    }
    rows.push_back(std::move(bound));
  }
  auto schema = std::make_shared<Schema>();
  std::vector<std::shared_ptr<Column>> columns;
  for (size_t c = 0; c < width; ++c) {
    std::optional<DataType> type;
    for (const auto& row : rows) {
      const DataType& t = row[c]->type;
      if (t.id == TypeId::kNull) continue;
      if (!type) {
        type = t;
        continue;
      }
      std::optional<DataType> max = expr::MaxType(*type, t);
      if (!max) {
        return Status::InvalidArgument("Binder Error: Cannot mix values of type ",
                                       type->ToString(), " and ", t.ToString(),
                                       " in VALUES column ", c + 1);
      }
      type = *max;
    }
    const DataType column_type = type ? *type : DataType(TypeId::kInt32);
    ColumnBuilder builder(column_type);
    for (auto& row : rows) {
      TARN_ASSIGN_OR_RETURN(auto cast, expr::CastTo(std::move(row[c]), column_type));
      BoundExpr value(std::move(cast));
      TARN_ASSIGN_OR_RETURN(Value constant, value.EvaluateConstant());
      TARN_RETURN_NOT_OK(builder.Append(constant));
    }
    schema->fields.emplace_back("col" + std::to_string(c), column_type);
    columns.push_back(builder.Finish());
  }
  auto batch = MakeBatch(schema, std::move(columns));
  batch->num_rows = static_cast<int64_t>(rows.size());
  return MakeValues("COLUMN_DATA_SCAN", std::move(batch));
}

}  // namespace tarn::sql
