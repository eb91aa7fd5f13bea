#include "expr/pruning.h"

#include <algorithm>
#include <set>

#include "expr/eval/cast.h"
#include "tarn/expr.h"

namespace tarn::expr {
namespace {

using ast::Op;

constexpr Possible kAnything{true, true, true};

const ColumnStatistics* StatsFor(int column, std::span<const int> columns,
                                 std::span<const ColumnStatistics* const> stats) {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == column) return i < stats.size() ? stats[i] : nullptr;
  }
  return nullptr;
}

// A cast that preserves order (a <= b implies cast(a) <= cast(b)) for every value, so bounds
// convert through it.
bool MonotoneCast(const DataType& from, const DataType& to) {
  bool from_num = from.IsInteger() || from.id == TypeId::kDecimal || from.IsFloating();
  bool to_num = to.IsInteger() || to.id == TypeId::kDecimal || to.IsFloating();
  if (from_num && to_num) return !(from.IsFloating() && !to.IsFloating());
  return from.id == TypeId::kDate &&
         (to.id == TypeId::kTimestamp || to.id == TypeId::kTimestampTz);
}

// The column a comparison operand reads, with its casts, or -1.
int OperandColumn(const BoundNode& node, std::vector<const DataType*>* casts) {
  const BoundNode* cursor = &node;
  while (cursor->kind == BoundKind::kCast) {
    if (cursor->try_cast || !MonotoneCast(cursor->children[0]->type, cursor->type)) return -1;
    casts->push_back(&cursor->type);
    cursor = cursor->children[0].get();
  }
  if (cursor->kind != BoundKind::kColumn) return -1;
  std::reverse(casts->begin(), casts->end());
  return cursor->column_index;
}

std::optional<Value> Through(std::optional<Value> v, const std::vector<const DataType*>& casts) {
  for (const DataType* type : casts) {
    if (!v) return std::nullopt;
    Result<Value> cast = CastValue(*v, *type);
    if (!cast.ok()) return std::nullopt;
    v = std::move(cast).value();
  }
  return v;
}

Op Flip(Op op) {
  switch (op) {
    case Op::kLess: return Op::kGreater;
    case Op::kLessEqual: return Op::kGreaterEqual;
    case Op::kGreater: return Op::kLess;
    case Op::kGreaterEqual: return Op::kLessEqual;
    default: return op;
  }
}

struct ColumnFacts {
  std::optional<Value> lo, hi;  // every non-NULL value v has lo <= v <= hi (DuckDB order)
  bool all_null = false;
  bool may_null = true;
};

ColumnFacts Facts(const ColumnStatistics* s, int64_t num_rows,
                  const std::vector<const DataType*>& casts) {
  ColumnFacts facts;
  if (s == nullptr) return facts;
  if (s->null_count) {
    facts.may_null = *s->null_count > 0;
    facts.all_null = *s->null_count >= num_rows && num_rows > 0;
  }
  facts.lo = Through(s->LowerBound(), casts);
  facts.hi = Through(s->UpperBound(), casts);
  return facts;
}

Possible CompareWithConstant(Op op, const ColumnFacts& facts, const Value& constant,
                             const DataType& type) {
  if (facts.all_null) return Possible{false, false, true};
  if (constant.is_null()) return Possible{false, false, true};
  // Bounds whose type differs from the comparison type are unusable.
  std::optional<Value> lo = facts.lo && facts.lo->type() == type ? facts.lo : std::nullopt;
  std::optional<Value> hi = facts.hi && facts.hi->type() == type ? facts.hi : std::nullopt;
  auto cmp = [&](const std::optional<Value>& bound) { return CompareValues(*bound, constant); };
  Possible p{true, true, facts.may_null};
  switch (op) {
    case Op::kEqual: case Op::kNotEqual: {
      bool may_equal = (!lo || cmp(lo) <= 0) && (!hi || cmp(hi) >= 0);
      bool all_equal = lo && hi && cmp(lo) == 0 && cmp(hi) == 0;
      p.may_true = op == Op::kEqual ? may_equal : !all_equal;
      p.may_false = op == Op::kEqual ? !all_equal : may_equal;
      break;
    }
    case Op::kLess:  // v < c
      p.may_true = !lo || cmp(lo) < 0;
      p.may_false = !hi || cmp(hi) >= 0;
      break;
    case Op::kLessEqual:
      p.may_true = !lo || cmp(lo) <= 0;
      p.may_false = !hi || cmp(hi) > 0;
      break;
    case Op::kGreater:
      p.may_true = !hi || cmp(hi) > 0;
      p.may_false = !lo || cmp(lo) <= 0;
      break;
    case Op::kGreaterEqual:
      p.may_true = !hi || cmp(hi) >= 0;
      p.may_false = !lo || cmp(lo) < 0;
      break;
    default:
      return kAnything;
  }
  return p;
}

}  // namespace

Possible Analyze(const BoundNode& node, std::span<const int> columns,
                 std::span<const ColumnStatistics* const> stats, int64_t num_rows) {
  switch (node.kind) {
    case BoundKind::kConstant: {
      if (node.type.id != TypeId::kBoolean) return kAnything;
      if (node.constant.is_null()) return Possible{false, false, true};
      return node.constant.GetBool() ? Possible{true, false, false} : Possible{false, true, false};
    }
    case BoundKind::kAnd: case BoundKind::kOr:
      return AnalyzeJunction(node, [&](const BoundNode& child) {
        return Analyze(child, columns, stats, num_rows);
      });
    case BoundKind::kNot:
      return Negate(Analyze(*node.children[0], columns, stats, num_rows));
    case BoundKind::kIsNull: {
      std::vector<const DataType*> casts;
      int column = OperandColumn(*node.children[0], &casts);
      const ColumnStatistics* s = column >= 0 ? StatsFor(column, columns, stats) : nullptr;
      if (s == nullptr || !s->null_count) return Possible{true, true, false};
      bool some_null = *s->null_count > 0;
      bool some_valid = *s->null_count < num_rows;
      bool is_true_possible = node.negated ? some_valid : some_null;
      bool is_false_possible = node.negated ? some_null : some_valid;
      return Possible{is_true_possible, is_false_possible, false};
    }
    case BoundKind::kCompare: {
      Op op = node.op;
      if (op == Op::kIsDistinctFrom || op == Op::kIsNotDistinctFrom) return kAnything;
      const BoundNode* left = node.children[0].get();
      const BoundNode* right = node.children[1].get();
      if (left->kind == BoundKind::kConstant) {
        std::swap(left, right);
        op = Flip(op);
      }
      if (right->kind != BoundKind::kConstant) return kAnything;
      std::vector<const DataType*> casts;
      int column = OperandColumn(*left, &casts);
      if (column < 0) return kAnything;
      ColumnFacts facts = Facts(StatsFor(column, columns, stats), num_rows, casts);
      return CompareWithConstant(op, facts, right->constant, left->type);
    }
    case BoundKind::kIn: {
      for (size_t i = 1; i < node.children.size(); ++i) {
        if (node.children[i]->kind != BoundKind::kConstant) return kAnything;
      }
      std::vector<const DataType*> casts;
      int column = OperandColumn(*node.children[0], &casts);
      if (column < 0) return kAnything;
      ColumnFacts facts = Facts(StatsFor(column, columns, stats), num_rows, casts);
      // x IN (a, b) behaves as x = a OR x = b.
      Possible any{false, true, false};
      for (size_t i = 1; i < node.children.size(); ++i) {
        Possible p = CompareWithConstant(Op::kEqual, facts, node.children[i]->constant,
                                         node.children[0]->type);
        any.may_true = any.may_true || p.may_true;
        any.may_false = any.may_false && p.may_false;
        any.may_null = any.may_null || p.may_null;
      }
      any.may_null = true;  // NULL items or NULL rows; keep it simple and safe
      if (node.negated) return Negate(any);
      return any;
    }
    default:
      return kAnything;
  }
}

namespace {

class Pruner final : public StatisticsPredicate {
 public:
  Pruner(std::unique_ptr<BoundNode> root, std::vector<int> columns, std::vector<std::string> names)
      : root_(std::move(root)), columns_(std::move(columns)), names_(std::move(names)) {}

  std::vector<std::string> referenced_columns() const override { return names_; }

  bool MayMatch(std::span<const ColumnStatistics* const> stats, int64_t num_rows) const override {
    if (num_rows == 0) return false;
    return Analyze(*root_, columns_, stats, num_rows).may_true;
  }

 private:
  std::unique_ptr<BoundNode> root_;
  std::vector<int> columns_;
  std::vector<std::string> names_;
};

}  // namespace
}  // namespace tarn::expr

namespace tarn {

std::shared_ptr<const StatisticsPredicate> MakeStatisticsPredicate(const BoundExpr& predicate,
                                                                   const Schema& schema) {
  std::vector<int> columns = predicate.ReferencedColumns();
  std::vector<std::string> names;
  for (int column : columns) {
    names.push_back(column < schema.num_fields() ? schema.field(column).name : "");
  }
  return std::make_shared<expr::Pruner>(expr::CloneBound(predicate.root()), std::move(columns),
                                        std::move(names));
}

}  // namespace tarn
