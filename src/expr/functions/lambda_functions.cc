#include "expr/functions/lambda_functions.h"

#include <cctype>
#include <set>

#include "expr/eval/cast.h"
#include "expr/eval/kernels.h"

namespace tarn::expr {
namespace {

bool IsText(const DataType& type) {
  return type.id == TypeId::kVarchar || type.id == TypeId::kJson;
}

bool NamesMatch(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// The columns and the outer lambda parameters (slots below `base`) `node` reads.
void CollectReads(const BoundNode& node, size_t base, std::set<int>* columns,
                  std::set<int>* slots) {
  if (node.kind == BoundKind::kColumn) columns->insert(node.column_index);
  if (node.kind == BoundKind::kLambdaParam && static_cast<size_t>(node.column_index) < base) {
    slots->insert(node.column_index);
  }
  for (const auto& child : node.children) CollectReads(*child, base, columns, slots);
}

// Where the body of a lambda is evaluated: one row per element, the element belonging to row
// element_rows[k] of the outer batch. Holds the columns and outer parameters the body reads,
// repeated per element; the caller appends the lambda's own parameters.
struct ElementScope {
  std::shared_ptr<Batch> batch;
  std::vector<std::shared_ptr<Column>> params;
};

ElementScope MakeScope(const BoundNode& body, size_t base, const Batch& batch,
                       std::span<const std::shared_ptr<Column>> params,
                       const std::vector<int64_t>& element_rows) {
  std::set<int> columns, slots;
  CollectReads(body, base, &columns, &slots);
  ElementScope scope;
  scope.batch = std::make_shared<Batch>();
  scope.batch->schema = batch.schema;
  scope.batch->columns.resize(batch.columns.size());
  scope.batch->num_rows = static_cast<int64_t>(element_rows.size());
  for (int index : columns) {
    if (index >= 0 && index < batch.num_columns() && batch.columns[index]) {
      scope.batch->columns[index] = Take(*batch.columns[index], element_rows);
    }
  }
  scope.params.resize(base);
  for (int slot : slots) {
    if (static_cast<size_t>(slot) < params.size() && params[slot]) {
      scope.params[slot] = Take(*params[slot], element_rows);
    }
  }
  return scope;
}

// A BIGINT column of `values`.
std::shared_ptr<Column> BigintColumn(const std::vector<int64_t>& values) {
  ColumnBuilder builder{DataType(TypeId::kInt64)};
  builder.Reserve(static_cast<int64_t>(values.size()));
  for (int64_t v : values) builder.AppendNumber(v);
  return builder.Finish();
}

// Each element's 1-based position in its list.
std::vector<int64_t> ElementIndexes(const ListElements& flat) {
  std::vector<int64_t> out(static_cast<size_t>(flat.offsets.back()));
  for (size_t row = 0; row + 1 < flat.offsets.size(); ++row) {
    for (int64_t k = flat.offsets[row]; k < flat.offsets[row + 1]; ++k) {
      out[static_cast<size_t>(k)] = k - flat.offsets[row] + 1;
    }
  }
  return out;
}

// list_transform and list_filter: the body once over every element.
Result<Vec> TransformOrFilter(const BoundNode& node, const Column& lists, const ListElements& flat,
                              const Batch& batch, std::span<const std::shared_ptr<Column>> params) {
  const BoundNode& body = *node.children[1];
  const size_t base = static_cast<size_t>(node.column_index);
  const int64_t total = flat.offsets.back();
  ElementScope scope = MakeScope(body, base, batch, params, ElementRows(flat));
  scope.params.push_back(flat.elements);
  if (node.field_index > 1) scope.params.push_back(BigintColumn(ElementIndexes(flat)));
  TARN_ASSIGN_OR_RETURN(Vec value, EvaluateVec(body, *scope.batch, std::move(scope.params)));
  std::shared_ptr<Column> values = Broadcast(value, total);
  if (node.function == FunctionId::kListTransform) {
    return Vec{MakeListColumn(node.type, flat.offsets, std::move(values), lists.validity,
                              lists.null_count),
               false};
  }
  // list_filter: keep the elements where the body is TRUE.
  auto keep = Buffer::Allocate((total + 7) / 8);
  uint8_t* bits = keep->mutable_data();
  std::vector<int64_t> offsets(flat.offsets.size(), 0);
  int64_t kept = 0;
  for (size_t row = 0; row + 1 < flat.offsets.size(); ++row) {
    for (int64_t k = flat.offsets[row]; k < flat.offsets[row + 1]; ++k) {
      if (values->IsValid(k) && values->GetBool(k)) {
        SetBit(bits, k);
        ++kept;
      }
    }
    offsets[row + 1] = kept;
  }
  std::shared_ptr<Column> elements = Filter(*flat.elements, bits, kept);
  return Vec{MakeListColumn(node.type, offsets, std::move(elements), lists.validity,
                            lists.null_count),
             false};
}

// list_reduce: step k folds element k of every list longer than k into its accumulator.
Result<Vec> Reduce(const BoundNode& node, const Column& lists, const ListElements& flat,
                   const std::shared_ptr<Column>& initial, const Batch& batch,
                   std::span<const std::shared_ptr<Column>> params) {
  const BoundNode& body = *node.children[1];
  const size_t base = static_cast<size_t>(node.column_index);
  const int64_t n = static_cast<int64_t>(flat.offsets.size()) - 1;
  auto length = [&](int64_t row) {
    return flat.offsets[static_cast<size_t>(row) + 1] - flat.offsets[static_cast<size_t>(row)];
  };
  // The finished accumulators, in pieces, and where each row's value is among them.
  std::vector<std::shared_ptr<Column>> pieces;
  int64_t finished = 0;
  std::vector<int64_t> where(static_cast<size_t>(n), -1);
  std::vector<int64_t> active;  // rows still folding, in order
  for (int64_t row = 0; row < n; ++row) {
    if (lists.IsNull(row)) continue;
    if (length(row) == 0 && !initial) {
      return Status::InvalidArgument(
          "Parameter Not Allowed Error: Cannot perform list_reduce on an empty input list");
    }
    active.push_back(row);
  }
  std::shared_ptr<Column> accumulator;
  int64_t step = 0;
  if (initial) {
    accumulator = Take(*initial, active);
  } else {
    std::vector<int64_t> firsts;
    for (int64_t row : active) firsts.push_back(flat.offsets[static_cast<size_t>(row)]);
    accumulator = Take(*flat.elements, firsts);
    step = 1;
  }
  while (true) {
    // Rows without an element at `step` are done.
    std::vector<int64_t> done, going, going_rows;
    for (size_t i = 0; i < active.size(); ++i) {
      (length(active[i]) > step ? going : done).push_back(static_cast<int64_t>(i));
    }
    if (!done.empty()) {
      for (int64_t i : done) where[static_cast<size_t>(active[static_cast<size_t>(i)])] = finished++;
      pieces.push_back(going.empty() ? accumulator : Take(*accumulator, done));
    }
    if (going.empty()) break;
    if (!done.empty()) {
      accumulator = Take(*accumulator, going);
      for (int64_t i : going) going_rows.push_back(active[static_cast<size_t>(i)]);
      active = std::move(going_rows);
    }
    std::vector<int64_t> elements;
    for (int64_t row : active) elements.push_back(flat.offsets[static_cast<size_t>(row)] + step);
    ElementScope scope = MakeScope(body, base, batch, params, active);
    scope.params.push_back(accumulator);
    scope.params.push_back(Take(*flat.elements, elements));
    if (node.field_index > 2) {
      scope.params.push_back(BigintColumn(std::vector<int64_t>(active.size(), step + 1)));
    }
    TARN_ASSIGN_OR_RETURN(Vec value, EvaluateVec(body, *scope.batch, std::move(scope.params)));
    accumulator = Broadcast(value, static_cast<int64_t>(active.size()));
    ++step;
  }
  if (finished < n) {
    ColumnBuilder nulls(node.type);
    nulls.AppendNull();
    pieces.push_back(nulls.Finish());
    for (int64_t& at : where) {
      if (at < 0) at = finished;
    }
  }
  if (pieces.empty()) return Vec{ColumnBuilder(node.type).Finish(), false};
  std::shared_ptr<Column> all = pieces.size() == 1 ? pieces[0] : Concatenate(pieces);
  return Vec{Take(*all, where), false};
}

bool Captures(const BoundNode& body, size_t base) {
  std::set<int> columns, slots;
  CollectReads(body, base, &columns, &slots);
  return !columns.empty() || !slots.empty();
}

}  // namespace

Status CheckLambda(FunctionId id, const ast::Expr& lambda, const DataType& list_type) {
  if (list_type.id != TypeId::kList && list_type.id != TypeId::kNull) {
    return Status::InvalidArgument("Binder Error: ",
                                   lambda.lambda_syntax ? "" : "failed to bind function, either: ",
                                   "Invalid LIST argument during lambda function binding!");
  }
  if (lambda.names.empty()) {
    return Status::InvalidArgument(
        "Binder Error: Invalid lambda parameters! Parameters must be unqualified "
        "comma-separated names like x or (x, y).");
  }
  const size_t count = lambda.names.size();
  if (id == FunctionId::kListReduce) {
    if (count > 3) {
      return Status::InvalidArgument(
          "Binder Error: This lambda function only supports up to three lambda parameters!");
    }
    if (count < 2) {
      return Status::InvalidArgument(
          "Binder Error: list_reduce expects a function with 2 or 3 arguments");
    }
  } else if (count > 2) {
    return Status::InvalidArgument(
        "Binder Error: This lambda function only supports up to two lambda parameters!");
  }
  for (size_t i = 0; i < count; ++i) {
    for (size_t j = i + 1; j < count; ++j) {
      if (!NamesMatch(lambda.names[i], lambda.names[j])) continue;
      std::string names;
      for (size_t k = 0; k < count; ++k) names += (k > 0 ? ", " : "") + lambda.names[k];
      return Status::InvalidArgument("Binder Error: table \"0_macro_parameters(", names,
                                     ")\" has duplicate column name \"", lambda.names[j], "\"");
    }
  }
  return Status::OK();
}

Result<DataType> ReduceAccumulatorType(const DataType& element, const BoundNode& initial) {
  const DataType& type = initial.type;
  if (type.id == TypeId::kNull) return element;
  if (element.id == TypeId::kNull) return type;
  if (initial.string_literal) return element;
  if (initial.integer_literal && element.IsInteger() && initial.kind == BoundKind::kConstant &&
      !IsBeyondInt128(initial.constant)) {
    __int128 lo, hi;
    IntegerRange(element.id, &lo, &hi);
    const __int128 v = AsInt128(initial.constant);
    if (v >= lo && v <= hi) return element;
  }
  std::optional<DataType> common;
  if (IsText(element) == IsText(type)) common = MaxType(element, type);
  if (!common) {
    return Status::InvalidArgument("Binder Error: The initial value type must be the same as "
                                   "the list child type or a common super type");
  }
  return *common;
}

Result<Vec> EvaluateListLambda(const BoundNode& node, const std::vector<Vec>& inputs,
                               const Batch& batch,
                               std::span<const std::shared_ptr<Column>> params, int64_t rows) {
  const Vec& list = inputs[0];
  const BoundNode& body = *node.children[1];
  // A constant list whose lambda reads nothing of the row is one row of work.
  const bool once = list.constant && (inputs.size() < 2 || inputs[1].constant) &&
                    !Captures(body, static_cast<size_t>(node.column_index));
  const int64_t n = once ? 1 : rows;
  std::shared_ptr<Column> lists = list.constant && n != 1 ? Broadcast(list, n) : list.column;
  const ListElements flat = FlattenLists(*lists, n);
  Result<Vec> result = [&]() -> Result<Vec> {
    if (node.function != FunctionId::kListReduce) {
      return TransformOrFilter(node, *lists, flat, batch, params);
    }
    std::shared_ptr<Column> initial;
    if (inputs.size() > 1) {
      initial = inputs[1].constant && n != 1 ? Broadcast(inputs[1], n) : inputs[1].column;
    }
    return Reduce(node, *lists, flat, initial, batch, params);
  }();
  if (!result.ok()) return result;
  result->constant = once;
  return result;
}

}  // namespace tarn::expr
