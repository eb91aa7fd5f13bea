// The public entry points of include/tarn/expr.h.
#include "tarn/expr.h"

#include <set>

#include "columnar/bit_util.h"
#include "expr/bind/binder.h"
#include "expr/bind/bound.h"
#include "expr/eval/evaluator.h"
#include "expr/parse/parser.h"

namespace tarn {

Result<std::unique_ptr<ast::Expr>> ParseExpression(std::string_view text) {
  return sql::ParseExpressionText(text);
}

BoundExpr::BoundExpr(std::unique_ptr<expr::BoundNode> root) : root_(std::move(root)) {}
BoundExpr::~BoundExpr() = default;

const DataType& BoundExpr::type() const { return root_->type; }

Result<std::shared_ptr<Column>> BoundExpr::Evaluate(const Batch& batch) const {
  TARN_ASSIGN_OR_RETURN(expr::Vec result, expr::EvaluateVec(*root_, batch));
  return expr::Broadcast(result, batch.num_rows);
}

std::string BoundExpr::ToString() const { return root_->ToString(); }

SharedEvaluation::SharedEvaluation(std::vector<const BoundExpr*> exprs)
    : exprs_(std::move(exprs)) {
  std::vector<const expr::BoundNode*> roots;
  for (const BoundExpr* e : exprs_) roots.push_back(e != nullptr ? &e->root() : nullptr);
  shared_ = std::make_unique<expr::SharedNodes>(expr::FindSharedNodes(roots));
}

SharedEvaluation::~SharedEvaluation() = default;

bool SharedEvaluation::shares_any() const { return shared_->slots > 0; }

Result<std::vector<std::shared_ptr<Column>>> SharedEvaluation::Evaluate(const Batch& batch) const {
  std::vector<std::shared_ptr<Column>> out(exprs_.size());
  if (!shares_any()) {
    for (size_t i = 0; i < exprs_.size(); ++i) {
      if (exprs_[i] == nullptr) continue;
      TARN_ASSIGN_OR_RETURN(out[i], exprs_[i]->Evaluate(batch));
    }
    return out;
  }
  std::vector<const expr::BoundNode*> roots;
  for (const BoundExpr* e : exprs_) roots.push_back(e != nullptr ? &e->root() : nullptr);
  TARN_ASSIGN_OR_RETURN(std::vector<expr::Vec> values, expr::EvaluateShared(roots, *shared_, batch));
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].column) out[i] = expr::Broadcast(values[i], batch.num_rows);
  }
  return out;
}

namespace {
void Collect(const expr::BoundNode& node, std::set<int>* out) {
  if (node.kind == expr::BoundKind::kColumn) out->insert(node.column_index);
  for (const auto& child : node.children) Collect(*child, out);
}
}  // namespace

std::vector<int> BoundExpr::ReferencedColumns() const {
  std::set<int> columns;
  Collect(*root_, &columns);
  return std::vector<int>(columns.begin(), columns.end());
}

bool BoundExpr::IsConstant() const { return root_->IsConstant(); }

Result<Value> BoundExpr::EvaluateConstant() const {
  Batch empty;
  empty.num_rows = 1;
  TARN_ASSIGN_OR_RETURN(expr::Vec result, expr::EvaluateVec(*root_, empty));
  return result.column->GetValue(0);
}

Result<std::unique_ptr<BoundExpr>> Bind(const ast::Expr& expr, const Schema& schema) {
  TARN_ASSIGN_OR_RETURN(auto root, expr::BindExpr(expr, schema));
  if (root->type.id == TypeId::kNull) {
    TARN_ASSIGN_OR_RETURN(root, expr::CastTo(std::move(root), DataType(TypeId::kInt32)));
  }
  return std::make_unique<BoundExpr>(std::move(root));
}

Result<std::unique_ptr<BoundExpr>> ParseAndBind(std::string_view text, const Schema& schema) {
  TARN_ASSIGN_OR_RETURN(auto parsed, ParseExpression(text));
  return Bind(*parsed, schema);
}

Result<std::vector<uint8_t>> SelectRows(const Batch& batch, const BoundExpr& predicate,
                                        int64_t* selected_count) {
  if (predicate.type().id != TypeId::kBoolean) {
    return Status::InvalidArgument("a filter must be BOOLEAN, but \"", predicate.ToString(),
                                   "\" is ", predicate.type().ToString());
  }
  TARN_ASSIGN_OR_RETURN(expr::Vec result, expr::EvaluateVec(predicate.root(), batch));
  const Column& column = *result.column;
  size_t bytes = static_cast<size_t>((batch.num_rows + 7) / 8);
  std::vector<uint8_t> keep(bytes, 0);
  int64_t count = 0;
  if (result.constant) {
    if (column.IsValid(0) && column.GetBool(0)) {
      for (int64_t i = 0; i < batch.num_rows; ++i) SetBit(keep.data(), i);
      count = batch.num_rows;
    }
  } else {
    const uint8_t* bits = column.values->data();
    const uint8_t* valid = column.validity ? column.validity->data() : nullptr;
    for (size_t b = 0; b < bytes; ++b) {
      keep[b] = valid ? static_cast<uint8_t>(bits[b] & valid[b]) : bits[b];
    }
    if (batch.num_rows % 8 != 0) {
      keep[bytes - 1] &= static_cast<uint8_t>((1u << (batch.num_rows % 8)) - 1);
    }
    count = internal::CountSetBits(keep.data(), 0, batch.num_rows);
  }
  *selected_count = count;
  return keep;
}

Result<std::shared_ptr<Batch>> FilterBatch(const Batch& batch, const BoundExpr& predicate) {
  int64_t count = 0;
  TARN_ASSIGN_OR_RETURN(std::vector<uint8_t> keep, SelectRows(batch, predicate, &count));
  auto out = std::make_shared<Batch>();
  out->schema = batch.schema;
  out->num_rows = count;
  for (const auto& column : batch.columns) {
    out->columns.push_back(count == batch.num_rows ? column
                                                   : Filter(*column, keep.data(), count));
  }
  return out;
}

}  // namespace tarn
