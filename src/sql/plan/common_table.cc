#include "sql/plan/common_table.h"

#include <optional>
#include <utility>

#include "expr/binder.h"
#include "expr/bound.h"
#include "expr/cast.h"
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

Result<std::unique_ptr<Operator>> PlanCte(const CteScope& scope, std::string_view sql_text,
                                          const ExecContext& context) {
  ExecContext inner = context;
  inner.ctes = scope.parent;
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> plan,
                        PlanSelect(*scope.cte->query, sql_text, inner));
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
