#include "sql/plan/set_query.h"

#include <cctype>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "expr/bind/binder.h"
#include "expr/bind/bound.h"
#include "expr/eval/cast.h"
#include "sql/exec/set_operation.h"
#include "sql/parse/statement_clone.h"
#include "sql/plan/planner.h"

namespace tarn::sql {
namespace {

const char* SetOpName(SetOp op) {
  switch (op) {
    case SetOp::kUnion: return "UNION";
    case SetOp::kIntersect: return "INTERSECT";
    case SetOp::kExcept: return "EXCEPT";
    case SetOp::kNone: break;
  }
  return "?";
}

// The type column `index` of both sides converts to.
Result<DataType> CommonType(const DataType& left, const DataType& right, SetOp op, int index) {
  if (left == right || right.id == TypeId::kNull) return left;
  if (left.id == TypeId::kNull) return right;
  // DuckDB: a VARCHAR side makes the column VARCHAR (1 UNION '2', DATE UNION VARCHAR).
  if (left.id == TypeId::kVarchar) return left;
  if (right.id == TypeId::kVarchar) return right;
  std::optional<DataType> common = expr::MaxType(left, right);
  if (common) return *common;
  return Status::InvalidArgument("Binder Error: Cannot mix values of type ", left.ToString(),
                                 " and ", right.ToString(), " in ", SetOpName(op), " column ",
                                 index + 1);
}

bool IsNullLiteral(const ast::Expr& e) {
  return e.kind == ast::ExprKind::kLiteral && e.literal_kind == ast::LiteralKind::kNull;
}

// Per output column of `query`, whether it holds only NULL literals (SELECT NULL, VALUES
// (NULL), ...): such a column takes the other side's type, as DuckDB's NULL type does, where
// its planned INTEGER would not mix with a LIST or STRUCT.
std::vector<bool> NullLiteralColumns(const SelectStmt& query) {
  std::vector<bool> out;
  if (query.set_op != SetOp::kNone) {
    if (query.set_by_name || !query.set_left || !query.set_right) return out;
    std::vector<bool> left = NullLiteralColumns(*query.set_left);
    std::vector<bool> right = NullLiteralColumns(*query.set_right);
    if (left.size() != right.size()) return {};
    for (size_t c = 0; c < left.size(); ++c) out.push_back(left[c] && right[c]);
    return out;
  }
  if (!query.values.empty()) {
    out.assign(query.values[0].size(), true);
    for (const auto& row : query.values) {
      if (row.size() != out.size()) return {};
      for (size_t c = 0; c < row.size(); ++c) out[c] = out[c] && IsNullLiteral(*row[c]);
    }
    return out;
  }
  for (const SelectItem& item : query.items) {
    if (item.star || !item.expr) return {};  // * expands to columns not known here
    out.push_back(IsNullLiteral(*item.expr));
  }
  return out;
}

// `input`'s columns cast to `types`, named `names`; `input` itself when nothing changes. A
// column of NULL literals (`nulls`) becomes a NULL of its type.
Result<std::unique_ptr<Operator>> CastColumns(std::unique_ptr<Operator> input,
                                              const std::vector<DataType>& types,
                                              const std::vector<std::string>& names,
                                              const std::vector<bool>& nulls) {
  const Schema& schema = *input->schema();
  bool same = true;
  for (int c = 0; c < schema.num_fields(); ++c) {
    same = same && schema.field(c).type == types[static_cast<size_t>(c)] &&
           schema.field(c).name == names[static_cast<size_t>(c)];
  }
  if (same) return input;
  std::vector<std::unique_ptr<BoundExpr>> columns;
  for (int c = 0; c < schema.num_fields(); ++c) {
    if (static_cast<size_t>(c) < nulls.size() && nulls[static_cast<size_t>(c)]) {
      auto null = std::make_unique<expr::BoundNode>();
      null->kind = expr::BoundKind::kConstant;
      null->type = types[static_cast<size_t>(c)];
      null->constant = Value::Null(null->type);
      columns.push_back(std::make_unique<BoundExpr>(std::move(null)));
      continue;
    }
    auto node = std::make_unique<expr::BoundNode>();
    node->kind = expr::BoundKind::kColumn;
    node->type = schema.field(c).type;
    node->column_index = c;
    node->name = schema.field(c).name;
    TARN_ASSIGN_OR_RETURN(auto cast, expr::CastTo(std::move(node), types[static_cast<size_t>(c)]));
    columns.push_back(std::make_unique<BoundExpr>(std::move(cast)));
  }
  return MakeProjection(std::move(input), std::move(columns), names);
}

bool SameName(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

int FindName(const Schema& schema, const std::string& name) {
  for (int c = 0; c < schema.num_fields(); ++c) {
    if (SameName(schema.field(c).name, name)) return c;
  }
  return -1;
}

// UNION BY NAME: both sides projected to the left side's column names, then the right side's
// other names, a side without a name giving NULL there.
Status MatchByName(std::unique_ptr<Operator>* left, std::unique_ptr<Operator>* right) {
  const Schema left_schema = *(*left)->schema();
  const Schema right_schema = *(*right)->schema();
  std::vector<std::string> names;
  for (const Field& field : left_schema.fields) {
    if (FindName(left_schema, field.name) < static_cast<int>(&field - left_schema.fields.data())) {
      return Status::InvalidArgument("Binder Error: UNION BY NAME operand has duplicate column \"",
                                     field.name, "\"");
    }
    names.push_back(field.name);
  }
  for (const Field& field : right_schema.fields) {
    bool seen = false;
    for (const std::string& name : names) seen = seen || SameName(name, field.name);
    if (!seen) names.push_back(field.name);
  }
  for (std::unique_ptr<Operator>* side : {left, right}) {
    const Schema& schema = *(*side)->schema();
    std::vector<std::unique_ptr<BoundExpr>> columns;
    for (const std::string& name : names) {
      auto node = std::make_unique<expr::BoundNode>();
      const int index = FindName(schema, name);
      if (index >= 0) {
        node->kind = expr::BoundKind::kColumn;
        node->type = schema.field(index).type;
        node->column_index = index;
        node->name = schema.field(index).name;
      } else {
        node->kind = expr::BoundKind::kConstant;
        node->type = DataType(TypeId::kNull);
        node->constant = Value::Null(node->type);
      }
      columns.push_back(std::make_unique<BoundExpr>(std::move(node)));
    }
    *side = MakeProjection(std::move(*side), std::move(columns), names);
  }
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<Operator>> PlanSetQuery(const SelectStmt& select, std::string_view sql_text,
                                               const ExecContext& context) {
  if (!select.order_by.empty() || select.limit || select.offset) {
    // SELECT * FROM (the set operation) ORDER BY ... LIMIT ...
    auto set = std::make_unique<SelectStmt>();
    set->set_op = select.set_op;
    set->set_all = select.set_all;
    set->set_by_name = select.set_by_name;
    set->set_left = CloneSelect(*select.set_left);
    set->set_right = CloneSelect(*select.set_right);
    std::unique_ptr<SelectStmt> outer = SelectAllFrom(std::move(set));
    CopyOrderAndLimit(select, outer.get());
    return PlanSelect(*outer, sql_text, context);
  }
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> left,
                        PlanSelect(*select.set_left, sql_text, context));
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<Operator> right,
                        PlanSelect(*select.set_right, sql_text, context));
  if (select.set_by_name) {
    TARN_RETURN_NOT_OK(MatchByName(&left, &right));
  }
  const Schema& left_schema = *left->schema();
  const Schema& right_schema = *right->schema();
  if (left_schema.num_fields() != right_schema.num_fields()) {
    return Status::InvalidArgument(
        "Binder Error: Set operations can only apply to expressions with the same number of "
        "result columns");
  }
  std::vector<bool> left_nulls;
  std::vector<bool> right_nulls;
  if (!select.set_by_name) {
    left_nulls = NullLiteralColumns(*select.set_left);
    right_nulls = NullLiteralColumns(*select.set_right);
    if (left_nulls.size() != static_cast<size_t>(left_schema.num_fields())) left_nulls.clear();
    if (right_nulls.size() != static_cast<size_t>(right_schema.num_fields())) right_nulls.clear();
  }
  auto type_of = [](const Schema& schema, const std::vector<bool>& nulls, int c) {
    return !nulls.empty() && nulls[static_cast<size_t>(c)] ? DataType(TypeId::kNull)
                                                           : schema.field(c).type;
  };
  std::vector<DataType> types;
  std::vector<std::string> names;
  for (int c = 0; c < left_schema.num_fields(); ++c) {
    TARN_ASSIGN_OR_RETURN(DataType type, CommonType(type_of(left_schema, left_nulls, c),
                                                    type_of(right_schema, right_nulls, c),
                                                    select.set_op, c));
    // A column of NULLs only on both sides is INTEGER, as in DuckDB.
    types.push_back(type.id == TypeId::kNull ? DataType(TypeId::kInt32) : type);
    names.push_back(left_schema.field(c).name);
  }
  TARN_ASSIGN_OR_RETURN(left, CastColumns(std::move(left), types, names, left_nulls));
  TARN_ASSIGN_OR_RETURN(right, CastColumns(std::move(right), types, names, right_nulls));
  // Each side's filters and projections run on every thread.
  left = MakeGather(std::move(left), context);
  right = MakeGather(std::move(right), context);
  SetOperationKind kind = SetOperationKind::kUnion;
  if (select.set_op == SetOp::kIntersect) kind = SetOperationKind::kIntersect;
  if (select.set_op == SetOp::kExcept) kind = SetOperationKind::kExcept;
  return MakeSetOperation(kind, select.set_all, std::move(left), std::move(right),
                          context.memory_limit);
}

}  // namespace tarn::sql
