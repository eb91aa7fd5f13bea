#include "expr/eval/evaluator.h"

#include <set>

#include "expr/eval/arithmetic.h"
#include "expr/eval/cast.h"
#include "expr/eval/function_kernels.h"
#include "expr/eval/kernels.h"
#include "expr/functions/lambda_functions.h"
#include "expr/eval/glob.h"
#include "expr/eval/like.h"
#include "expr/functions/list_aggregates.h"

namespace tarn::expr {
namespace {

void CollectColumns(const BoundNode& node, std::set<int>* out) {
  if (node.kind == BoundKind::kColumn) out->insert(node.column_index);
  for (const auto& child : node.children) CollectColumns(*child, out);
}

void CollectParams(const BoundNode& node, std::set<int>* out) {
  if (node.kind == BoundKind::kLambdaParam) out->insert(node.column_index);
  for (const auto& child : node.children) CollectParams(*child, out);
}

Result<Vec> ConstantVec(const Value& v, const DataType& type) {
  ColumnBuilder builder(type);
  TARN_RETURN_NOT_OK(builder.Append(v));
  return Vec{builder.Finish(), true};
}

// Row-at-a-time fallback: calls fn(args) per row with the children's values.
template <typename Fn>
Result<Vec> RowWise(const DataType& type, const std::vector<Vec>& inputs, int64_t rows,
                    bool propagate_null, Fn&& fn, bool per_row = false) {
  bool constant = !per_row;
  for (const Vec& v : inputs) constant = constant && v.constant;
  int64_t n = constant ? 1 : rows;
  ColumnBuilder builder(type);
  builder.Reserve(n);
  std::vector<Value> args(inputs.size());
  for (int64_t i = 0; i < n; ++i) {
    bool any_null = false;
    for (size_t k = 0; k < inputs.size(); ++k) {
      args[k] = inputs[k].column->GetValue(inputs[k].constant ? 0 : i);
      any_null = any_null || args[k].is_null();
    }
    if (propagate_null && any_null) {
      builder.AppendNull();
      continue;
    }
    TARN_ASSIGN_OR_RETURN(Value v, fn(args));
    TARN_RETURN_NOT_OK(builder.Append(v));
  }
  return Vec{builder.Finish(), constant};
}

// substring(s, offset, length) of a VARCHAR column with constant offset >= 1 and length >= 0
// (the common shape), the bytes of each row's code points [offset - 1, offset - 1 + length)
// cut in place; any other shape: an empty Vec (the row-wise path).
Result<Vec> SubstringKernel(const std::vector<Vec>& inputs, int64_t rows) {
  if (inputs.size() != 3 || inputs[0].constant || !inputs[1].constant || !inputs[2].constant) {
    return Vec{};
  }
  const Column& strings = *inputs[0].column;
  if (strings.type.id != TypeId::kVarchar) return Vec{};
  const Column& offset_column = *inputs[1].column;
  const Column& length_column = *inputs[2].column;
  if (offset_column.IsNull(0) || length_column.IsNull(0)) return Vec{};
  const Value offset_value = offset_column.GetValue(0);
  const Value length_value = length_column.GetValue(0);
  if (!std::holds_alternative<int64_t>(offset_value.storage()) ||
      !std::holds_alternative<int64_t>(length_value.storage())) {
    return Vec{};
  }
  const int64_t offset = offset_value.GetInt64();
  const int64_t length = length_value.GetInt64();
  if (offset < 1 || offset > UINT32_MAX || length < 0 || length > UINT32_MAX) return Vec{};
  ColumnBuilder builder(strings.type);
  builder.Reserve(rows);
  for (int64_t i = 0; i < rows; ++i) {
    if (strings.IsNull(i)) {
      builder.AppendNull();
      continue;
    }
    const std::string_view s = strings.GetView(i);
    const size_t size = s.size();
    // Byte positions of code points offset - 1 and offset - 1 + length (clipped to the end).
    size_t at = 0;
    int64_t point = 0;
    auto advance = [&](int64_t target) {
      while (point < target && at < size) {
        ++at;
        while (at < size && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80) ++at;
        ++point;
      }
    };
    advance(offset - 1);
    const size_t begin = at;
    advance(offset - 1 + length);
    builder.AppendBytes(s.substr(begin, at - begin));
  }
  return Vec{builder.Finish(), false};
}

// Whether evaluating `node` over any rows can raise no error: columns, constants, comparisons,
// logic, IN lists of constants, and arithmetic that gives NULL (division and modulo by zero) or
// cannot overflow (floating point). CASE and COALESCE over such nodes may evaluate every branch
// over the whole batch.
bool CannotFail(const BoundNode& node) {
  switch (node.kind) {
    case BoundKind::kConstant: case BoundKind::kColumn:
      return true;
    case BoundKind::kCompare: case BoundKind::kAnd: case BoundKind::kOr: case BoundKind::kNot:
    case BoundKind::kIsNull: case BoundKind::kIn: case BoundKind::kCase: case BoundKind::kCoalesce:
      break;
    case BoundKind::kArith:
      if (node.op == ast::Op::kModulo || node.op == ast::Op::kIntDivide ||
          (node.op != ast::Op::kPower && node.type.IsFloating())) {
        if (node.type.id == TypeId::kDecimal) return false;
        break;
      }
      return false;
    default:
      return false;
  }
  for (const auto& child : node.children) {
    if (!CannotFail(*child)) return false;
  }
  return true;
}

// Whether `node` is cheap enough to evaluate over every row of a batch although it may fail
// on some (integer and DECIMAL overflow): columns, constants, comparisons, logic, IN,
// CASE/COALESCE, arithmetic, negation and casts between numbers only.
bool CheapToTry(const BoundNode& node) {
  auto numeric = [](const DataType& type) {
    return type.IsInteger() || type.IsFloating() || type.id == TypeId::kDecimal;
  };
  switch (node.kind) {
    case BoundKind::kConstant: case BoundKind::kColumn:
      return true;
    case BoundKind::kCompare: case BoundKind::kAnd: case BoundKind::kOr: case BoundKind::kNot:
    case BoundKind::kIsNull: case BoundKind::kIn: case BoundKind::kCase: case BoundKind::kCoalesce:
    case BoundKind::kArith: case BoundKind::kNegate:
      break;
    case BoundKind::kCast:
      if (!numeric(node.type) || !numeric(node.children[0]->type)) return false;
      break;
    default:
      return false;
  }
  for (const auto& child : node.children) {
    if (!CheapToTry(*child)) return false;
  }
  return true;
}

class Evaluator {
 public:
  explicit Evaluator(const Batch& batch, std::vector<std::shared_ptr<Column>> params = {})
      : batch_(batch), rows_(batch.num_rows), params_(std::move(params)) {}
  // Values of `shared`'s nodes are kept and reused (EvaluateShared).
  Evaluator(const Batch& batch, const SharedNodes* shared)
      : batch_(batch), rows_(batch.num_rows), shared_(shared),
        memo_(static_cast<size_t>(shared->slots)) {}

  // Eval is on the stack once per level of the tree, so it only recurses; what each kind does
  // with its children's values is in functions of its own, kept out of line so that this
  // frame stays small in every build.
  Result<Vec> Eval(const BoundNode& node) {
    if (shared_ != nullptr) return EvalRemembered(node);
    return EvalNode(node);
  }

 private:
  // A shared node's value from its slot, computed the first time.
  [[gnu::noinline]] Result<Vec> EvalRemembered(const BoundNode& node) {
    auto it = shared_->slot_of.find(&node);
    if (it == shared_->slot_of.end()) return EvalNode(node);
    std::optional<Vec>& kept = memo_[static_cast<size_t>(it->second)];
    if (!kept) {
      TARN_ASSIGN_OR_RETURN(Vec value, EvalNode(node));
      kept = std::move(value);
    }
    return *kept;
  }

  Result<Vec> EvalNode(const BoundNode& node) {
    switch (node.kind) {
      case BoundKind::kConstant: return ConstantVec(node.constant, node.type);
      case BoundKind::kColumn: return ColumnVec(node);
      case BoundKind::kIn: return EvalIn(node);
      case BoundKind::kLike: return EvalLike(node);
      case BoundKind::kCase: case BoundKind::kCoalesce: return EvalBranches(node);
      case BoundKind::kLambdaParam: return ParamVec(node);
      case BoundKind::kListLambda: return EvalListLambda(node);
      default: break;
    }
    TARN_ASSIGN_OR_RETURN(std::vector<Vec> inputs, EvalChildren(node));
    return Apply(node, inputs);
  }

  [[gnu::noinline]] Result<Vec> ColumnVec(const BoundNode& node) {
    if (node.column_index >= batch_.num_columns() || !batch_.columns[node.column_index]) {
      return Status::InvalidArgument("expression reads column ", node.column_index,
                                     " but the batch has ", batch_.num_columns());
    }
    const auto& column = batch_.columns[node.column_index];
    if (column->type != node.type) {
      return Status::InvalidArgument("column \"", node.name, "\" is ", column->type.ToString(),
                                     " in the batch but was bound as ", node.type.ToString());
    }
    return Vec{column, false};
  }

  [[gnu::noinline]] Result<Vec> ParamVec(const BoundNode& node) {
    const size_t slot = static_cast<size_t>(node.column_index);
    if (slot >= params_.size() || !params_[slot] || params_[slot]->length != rows_) {
      return Status::Internal("lambda parameter ", node.name, " has no values here");
    }
    return Vec{params_[slot], false};
  }

  // A lambda function: its list (and list_reduce's initial value) here, its body over the
  // lists' elements.
  [[gnu::noinline]] Result<Vec> EvalListLambda(const BoundNode& node) {
    std::vector<Vec> inputs;
    for (size_t i = 0; i < node.children.size(); ++i) {
      if (i == 1) continue;  // the body
      TARN_ASSIGN_OR_RETURN(Vec v, Eval(*node.children[i]));
      inputs.push_back(std::move(v));
    }
    return EvaluateListLambda(node, inputs, batch_, params_, rows_);
  }

  // The value of `node` from its children's values.
  [[gnu::noinline]] Result<Vec> Apply(const BoundNode& node, std::vector<Vec>& inputs) {
    switch (node.kind) {
      case BoundKind::kAnd: case BoundKind::kOr:
        return LogicKernel(node.kind == BoundKind::kAnd, inputs, rows_);
      case BoundKind::kNot: return NotKernel(inputs[0], rows_);
      case BoundKind::kIsNull: return IsNullKernel(inputs[0], node.negated, rows_);
      case BoundKind::kCompare: return Compare(node, inputs);
      case BoundKind::kArith: {
        TARN_ASSIGN_OR_RETURN(Vec fast, ArithmeticKernel(node, inputs[0], inputs[1], rows_));
        if (fast.column) return fast;
        return RowWise(node.type, inputs, rows_, true, [&](std::vector<Value>& args) {
          return ArithmeticValues(node.op, args[0], args[1], node.type);
        });
      }
      case BoundKind::kNegate: {
        TARN_ASSIGN_OR_RETURN(Vec fast, NegateKernel(node, inputs[0], rows_));
        if (fast.column) return fast;
        return RowWise(node.type, inputs, rows_, true,
                       [&](std::vector<Value>& args) { return NegateValue(args[0]); });
      }
      case BoundKind::kCast: {
        TARN_ASSIGN_OR_RETURN(Vec fast, CastKernel(node, inputs[0], rows_));
        if (fast.column) return fast;
        return RowWise(node.type, inputs, rows_, true, [&](std::vector<Value>& args) {
          return CastValue(args[0], node.type, node.try_cast);
        });
      }
      case BoundKind::kFunction:
        if (IsListAggregate(node.function)) {
          return EvaluateListAggregate(node.function, node.type, inputs, rows_);
        }
        if (node.function == FunctionId::kSubstring) {
          TARN_ASSIGN_OR_RETURN(Vec fast, SubstringKernel(inputs, rows_));
          if (fast.column) return fast;
        }
        {
          TARN_ASSIGN_OR_RETURN(Vec once, PerDictionaryEntry(node, inputs));
          if (once.column) return once;
        }
        return ApplyFunction(node, inputs, rows_);
      case BoundKind::kField: {
        const Column& parent = *inputs[0].column;
        if (parent.null_count == 0 && !inputs[0].constant) {
          return Vec{parent.children[node.field_index], false};
        }
        return RowWise(node.type, inputs, rows_, true, [&](std::vector<Value>& args) -> Result<Value> {
          return args[0].children()[node.field_index];
        });
      }
      case BoundKind::kListIndex: {
        TARN_ASSIGN_OR_RETURN(Vec fast, ListIndexKernel(node, inputs[0], inputs[1], rows_));
        if (fast.column) return fast;
        return RowWise(node.type, inputs, rows_, true, [&](std::vector<Value>& args) -> Result<Value> {
          const auto& elements = args[0].children();
          int64_t index = args[1].GetInt64();
          int64_t size = static_cast<int64_t>(elements.size());
          if (index < 0) index = size + index + 1;  // -1 is the last element
          if (index < 1 || index > size) return Value::Null(node.type);
          return elements[index - 1];
        });
      }
      default: break;
    }
    return Status::Internal("unknown bound node");
  }

  // A function's value over `inputs` of `rows` rows: its kernel, else row by row.
  Result<Vec> ApplyFunction(const BoundNode& node, const std::vector<Vec>& inputs, int64_t rows) {
    TARN_ASSIGN_OR_RETURN(Vec fast, FunctionKernel(node, inputs, rows));
    if (fast.column) return fast;
    return RowWise(
        node.type, inputs, rows, PropagatesNull(node.function),
        [&](std::vector<Value>& args) { return InvokeFunction(node.function, args, node.type); },
        /*per_row=*/IsVolatile(node.function));
  }

  // A function of one dictionary-coded string column (the other arguments constant) over a
  // batch with fewer entries than rows: computed once per dictionary entry, then each row takes
  // its entry's result. Empty Vec when the shape does not apply.
  Result<Vec> PerDictionaryEntry(const BoundNode& node, const std::vector<Vec>& inputs) {
    if (IsVolatile(node.function) || !PropagatesNull(node.function)) return Vec{};
    int coded_input = -1;
    for (size_t k = 0; k < inputs.size(); ++k) {
      if (inputs[k].constant) continue;
      if (coded_input >= 0) return Vec{};
      coded_input = static_cast<int>(k);
    }
    if (coded_input < 0) return Vec{};
    const Column& column = *inputs[static_cast<size_t>(coded_input)].column;
    const DictionaryCodes* coded = column.codes();
    if (coded == nullptr || coded->entries->length * 2 > rows_) return Vec{};
    std::vector<Vec> over_entries = inputs;
    over_entries[static_cast<size_t>(coded_input)] =
        Vec{std::const_pointer_cast<Column>(coded->entries), false};
    const int64_t entries = coded->entries->length;
    TARN_ASSIGN_OR_RETURN(Vec results, ApplyFunction(node, over_entries, entries));
    // NULL rows (code 0) take a NULL placed after the entries' results.
    std::shared_ptr<Column> taken_from = results.column;
    if (column.null_count > 0) {
      ColumnBuilder null_entry(node.type);
      null_entry.AppendNull();
      const std::shared_ptr<Column> parts[] = {results.column, null_entry.Finish()};
      taken_from = Concatenate(parts);
    }
    const uint32_t* codes = coded->codes->data_as<uint32_t>();
    std::vector<int64_t> take(static_cast<size_t>(rows_));
    for (int64_t i = 0; i < rows_; ++i) {
      take[static_cast<size_t>(i)] = column.IsNull(i) ? entries : codes[i];
    }
    return Vec{Take(*taken_from, take), false};
  }

  Result<std::vector<Vec>> EvalChildren(const BoundNode& node) {
    std::vector<Vec> out;
    out.reserve(node.children.size());
    for (const auto& child : node.children) {
      TARN_ASSIGN_OR_RETURN(Vec v, Eval(*child));
      out.push_back(std::move(v));
    }
    return out;
  }

  Result<Vec> Compare(const BoundNode& node, std::vector<Vec>& inputs) {
    TARN_ASSIGN_OR_RETURN(Vec fast, CompareKernel(node.op, inputs[0], inputs[1], rows_));
    if (fast.column) return fast;
    bool distinct = node.op == ast::Op::kIsDistinctFrom || node.op == ast::Op::kIsNotDistinctFrom;
    return RowWise(node.type, inputs, rows_, !distinct, [&](std::vector<Value>& args) -> Result<Value> {
      if (distinct && (args[0].is_null() || args[1].is_null())) {
        bool is_distinct = args[0].is_null() != args[1].is_null();
        return Value::Boolean(is_distinct == (node.op == ast::Op::kIsDistinctFrom));
      }
      int c = CompareValues(args[0], args[1]);
      switch (node.op) {
        case ast::Op::kEqual: case ast::Op::kIsNotDistinctFrom: return Value::Boolean(c == 0);
        case ast::Op::kNotEqual: case ast::Op::kIsDistinctFrom: return Value::Boolean(c != 0);
        case ast::Op::kLess: return Value::Boolean(c < 0);
        case ast::Op::kLessEqual: return Value::Boolean(c <= 0);
        case ast::Op::kGreater: return Value::Boolean(c > 0);
        case ast::Op::kGreaterEqual: return Value::Boolean(c >= 0);
        default: return Status::Internal("bad comparison");
      }
    });
  }

  [[gnu::noinline]] Result<Vec> EvalIn(const BoundNode& node) {
    bool all_constant = true;
    for (size_t i = 1; i < node.children.size(); ++i) {
      all_constant = all_constant && node.children[i]->kind == BoundKind::kConstant;
    }
    if (all_constant) {
      TARN_ASSIGN_OR_RETURN(Vec operand, Eval(*node.children[0]));
      std::vector<Value> items;
      for (size_t i = 1; i < node.children.size(); ++i) items.push_back(node.children[i]->constant);
      TARN_ASSIGN_OR_RETURN(Vec fast, InKernel(operand, items, node.negated, rows_));
      if (fast.column) return fast;
    }
    TARN_ASSIGN_OR_RETURN(auto inputs, EvalChildren(node));
    return RowWise(node.type, inputs, rows_, false, [&](std::vector<Value>& args) -> Result<Value> {
      if (args[0].is_null()) return Value::Null(node.type);
      bool saw_null = false;
      for (size_t i = 1; i < args.size(); ++i) {
        if (args[i].is_null()) {
          saw_null = true;
        } else if (CompareValues(args[0], args[i]) == 0) {
          return Value::Boolean(!node.negated);
        }
      }
      if (saw_null) return Value::Null(node.type);
      return Value::Boolean(node.negated);
    });
  }

  [[gnu::noinline]] Result<Vec> EvalLike(const BoundNode& node) {
    TARN_ASSIGN_OR_RETURN(auto inputs, EvalChildren(node));
    bool insensitive = node.op == ast::Op::kILike;
    bool pattern_constant = true;
    for (size_t i = 1; i < inputs.size(); ++i) pattern_constant = pattern_constant && inputs[i].constant;
    if (pattern_constant && !inputs[0].constant) {
      // Compile once; loop over string views.
      std::vector<const Vec*> all;
      for (const Vec& v : inputs) all.push_back(&v);
      int64_t null_count = 0;
      auto validity = CombinedValidity(all, rows_, &null_count);
      auto values = Buffer::Allocate((rows_ + 7) / 8);
      if (null_count < rows_) {
        std::string_view escape = inputs.size() > 2 ? inputs[2].column->GetView(0) : "";
        const bool glob = node.op == ast::Op::kGlob;
        const std::string_view pattern = inputs[1].column->GetView(0);
        TARN_ASSIGN_OR_RETURN(LikeMatcher like,
                              LikeMatcher::Compile(glob ? "" : pattern, escape, insensitive));
        const GlobMatcher glob_matcher(glob ? pattern : "");
        const auto matches = [&](std::string_view text) {
          return glob ? glob_matcher.Matches(text) : like.Matches(text);
        };
        const Column& text = *inputs[0].column;
        uint8_t* out = values->mutable_data();
        const DictionaryCodes* coded = text.codes();
        if (coded != nullptr && coded->entries->length * 2 <= rows_) {
          // A dictionary-coded column: each entry matched once, each row takes its entry's.
          const Column& entries = *coded->entries;
          std::vector<uint8_t> entry_bits(static_cast<size_t>((entries.length + 7) / 8), 0);
          for (int64_t j = 0; j < entries.length; ++j) {
            if (matches(entries.GetView(j)) != node.negated) SetBit(entry_bits.data(), j);
          }
          GatherEntryBits(*coded, entry_bits.data(), rows_, out);
          if (validity != nullptr) {
            const uint8_t* valid = validity->data();
            for (int64_t b = 0; b < (rows_ + 7) / 8; ++b) out[b] &= valid[b];
          }
        } else {
          const int64_t bytes = (rows_ + 7) / 8;
          const char* bytes_of = text.data != nullptr && text.data->size() > 0
                                     ? reinterpret_cast<const char*>(text.data->data())
                                     : "";
          if (glob) {
            glob_matcher.MatchRows(text.values_as<int64_t>(), bytes_of, rows_, out);
          } else {
            like.MatchRows(text.values_as<int64_t>(), bytes_of, rows_, out);
          }
          if (node.negated) {
            for (int64_t b = 0; b < bytes; ++b) out[b] = static_cast<uint8_t>(~out[b]);
            if (rows_ % 8 != 0) out[bytes - 1] &= static_cast<uint8_t>((1u << (rows_ % 8)) - 1);
          }
          if (validity != nullptr) {
            const uint8_t* valid = validity->data();
            for (int64_t b = 0; b < bytes; ++b) out[b] &= valid[b];
          }
        }
      }
      return Vec{MakeColumn(DataType(TypeId::kBoolean), rows_, values, validity, null_count), false};
    }
    return RowWise(node.type, inputs, rows_, true, [&](std::vector<Value>& args) -> Result<Value> {
      if (node.op == ast::Op::kGlob) {
        return Value::Boolean(GlobMatcher(args[1].GetBytes()).Matches(args[0].GetBytes()) !=
                              node.negated);
      }
      std::string_view escape = args.size() > 2 ? std::string_view(args[2].GetBytes()) : "";
      TARN_ASSIGN_OR_RETURN(LikeMatcher matcher,
                            LikeMatcher::Compile(args[1].GetBytes(), escape, insensitive));
      return Value::Boolean(matcher.Matches(args[0].GetBytes()) != node.negated);
    });
  }

  // A batch holding only the rows `rows` of the columns `node` reads.
  Result<std::shared_ptr<Batch>> SubBatch(const BoundNode& node, const std::vector<int64_t>& rows) {
    std::set<int> needed;
    CollectColumns(node, &needed);
    auto sub = std::make_shared<Batch>();
    sub->schema = batch_.schema;
    sub->columns.resize(batch_.columns.size());
    sub->num_rows = static_cast<int64_t>(rows.size());
    for (int index : needed) {
      if (index < batch_.num_columns()) sub->columns[index] = Take(*batch_.columns[index], rows);
    }
    return sub;
  }

  // Evaluates `node` on the subset `rows` (all rows when rows.size() == rows_).
  Result<Vec> EvalOn(const BoundNode& node, const std::vector<int64_t>& rows) {
    if (static_cast<int64_t>(rows.size()) == rows_) return Eval(node);
    TARN_ASSIGN_OR_RETURN(auto sub, SubBatch(node, rows));
    std::set<int> slots;
    CollectParams(node, &slots);
    std::vector<std::shared_ptr<Column>> params(params_.size());
    for (int slot : slots) {
      if (static_cast<size_t>(slot) < params_.size() && params_[slot]) {
        params[slot] = Take(*params_[slot], rows);
      }
    }
    Evaluator inner(*sub, std::move(params));
    return inner.Eval(node);
  }

  // CASE and COALESCE of a fixed-width type: every condition and value over the whole batch,
  // a byte of rows at a time: the rows a branch decides (its condition TRUE, or for COALESCE
  // its value not NULL, among the rows no earlier branch decided) take its valid values.
  // Empty when the type or a branch's type does not suit; an error when a branch fails on
  // some row (the caller then gives each branch only its rows).
  Result<Vec> BranchesOverBatch(const BoundNode& node) {
    const Phys phys = PhysOf(node.type);
    if (phys == Phys::kBool || phys == Phys::kBytes || phys == Phys::kOther) return Vec{};
    const bool is_case = node.kind == BoundKind::kCase;
    const size_t steps = is_case ? node.children.size() / 2 : node.children.size();
    const int64_t bytes = (rows_ + 7) / 8;
    const uint8_t last_mask =
        rows_ % 8 == 0 ? uint8_t{0xFF} : static_cast<uint8_t>((1u << (rows_ % 8)) - 1);
    std::vector<uint8_t> decided(static_cast<size_t>(bytes), 0);
    auto validity = Buffer::Allocate(bytes);
    uint8_t* valid = validity->mutable_data();
    int64_t undecided = rows_;
    int64_t valid_rows = 0;
    std::shared_ptr<Buffer> values;
    bool suits = true;
    // Rows whose bit is set in `decides(b)` (byte b) and not decided yet take `value`.
    auto take = [&](const Vec& value, auto&& decides) {
      const Column& x = *value.column;
      const bool x_null = value.constant && !x.IsValid(0);
      const uint8_t* x_valid = value.constant || x.validity == nullptr ? nullptr : x.validity->data();
      WithTypedValues(x, phys, [&](const auto* in) {
        using T = std::remove_cv_t<std::remove_pointer_t<decltype(in)>>;
        if (!values) values = Buffer::Allocate(rows_ * static_cast<int64_t>(sizeof(T)));
        T* out = values->mutable_data_as<T>();
        const int64_t step = value.constant ? 0 : 1;
        for (int64_t b = 0; b < bytes; ++b) {
          uint8_t mine = static_cast<uint8_t>(decides(b) & ~decided[static_cast<size_t>(b)]);
          if (b == bytes - 1) mine &= last_mask;
          if (mine == 0) continue;
          decided[static_cast<size_t>(b)] |= mine;
          undecided -= __builtin_popcount(mine);
          uint8_t kept = x_null ? 0 : (x_valid != nullptr ? mine & x_valid[b] : mine);
          valid[b] |= kept;
          valid_rows += __builtin_popcount(kept);
          if (kept == 0xFF) {  // the whole byte: a straight copy
            for (int64_t i = b * 8; i < b * 8 + 8; ++i) out[i] = in[i * step];
            continue;
          }
          for (; kept != 0; kept &= static_cast<uint8_t>(kept - 1)) {
            const int64_t i = b * 8 + __builtin_ctz(kept);
            out[i] = in[i * step];
          }
        }
      });
    };
    for (size_t step = 0; step < steps && undecided > 0 && suits; ++step) {
      TARN_ASSIGN_OR_RETURN(Vec value, Eval(*node.children[is_case ? 2 * step + 1 : step]));
      if (value.column->type != node.type) return Vec{};
      if (!is_case) {
        const Column& x = *value.column;
        if (value.constant) {
          if (x.IsValid(0)) take(value, [](int64_t) { return uint8_t{0xFF}; });
        } else if (x.validity == nullptr) {
          take(value, [](int64_t) { return uint8_t{0xFF}; });
        } else {
          const uint8_t* bits = x.validity->data();
          take(value, [bits](int64_t b) { return bits[b]; });
        }
        continue;
      }
      TARN_ASSIGN_OR_RETURN(Vec condition, Eval(*node.children[2 * step]));
      const Column& c = *condition.column;
      if (c.type.id != TypeId::kBoolean) return Vec{};
      if (condition.constant) {
        if (c.IsValid(0) && c.GetBool(0)) take(value, [](int64_t) { return uint8_t{0xFF}; });
        continue;
      }
      const uint8_t* c_bits = c.values->data();
      const uint8_t* c_valid = c.validity ? c.validity->data() : nullptr;
      take(value, [c_bits, c_valid](int64_t b) {
        return static_cast<uint8_t>(c_valid != nullptr ? c_bits[b] & c_valid[b] : c_bits[b]);
      });
    }
    if (is_case && undecided > 0 && node.children.size() % 2 == 1) {
      TARN_ASSIGN_OR_RETURN(Vec otherwise, Eval(*node.children.back()));
      if (otherwise.column->type != node.type) return Vec{};
      take(otherwise, [](int64_t) { return uint8_t{0xFF}; });
    }
    if (!values) return Vec{};  // no branch gave a value: the general path makes the NULLs
    return Vec{MakeColumn(node.type, rows_, std::move(values),
                          valid_rows == rows_ ? nullptr : validity, rows_ - valid_rows),
               false};
  }

  // CASE and COALESCE: each branch sees only the rows still undecided. Each row's result is
  // then taken from the branch value that decided it (a NULL for rows none decided), all
  // branch values laid end to end.
  [[gnu::noinline]] Result<Vec> EvalBranches(const BoundNode& node) {
    if (CannotFail(node) || CheapToTry(node)) {
      // Over the whole batch first. An error there may come from a row its branch does not
      // decide (an overflow where another branch applies): then the rows are given to each
      // branch as below, and only a real error remains.
      Result<Vec> whole = BranchesOverBatch(node);
      if (whole.ok() && whole->column) return std::move(whole).value();
    }
    std::vector<int64_t> remaining(static_cast<size_t>(rows_));
    for (int64_t i = 0; i < rows_; ++i) remaining[static_cast<size_t>(i)] = i;
    std::vector<std::shared_ptr<Column>> pieces;  // branch values, in the order evaluated
    int64_t piece_start = 0;                       // where the next piece starts end to end
    constexpr int64_t kUndecided = -1;
    std::vector<int64_t> source(static_cast<size_t>(rows_), kUndecided);
    bool is_case = node.kind == BoundKind::kCase;
    size_t steps = is_case ? node.children.size() / 2 : node.children.size();
    // Rows `taken` (positions k of `value`) take their value; COALESCE leaves NULLs undecided.
    auto decide = [&](const Vec& value, const std::vector<int64_t>& taken,
                      std::vector<int64_t>* still_null) {
      const Column& column = *value.column;
      for (size_t k = 0; k < taken.size(); ++k) {
        const int64_t row = value.constant ? 0 : static_cast<int64_t>(k);
        if (still_null != nullptr && !column.IsValid(row)) {
          still_null->push_back(taken[k]);
          continue;
        }
        source[static_cast<size_t>(taken[k])] = piece_start + row;
      }
      piece_start += column.length;
      pieces.push_back(value.column);
    };
    for (size_t step = 0; step < steps && !remaining.empty(); ++step) {
      std::vector<int64_t> taken, rest;
      if (is_case) {
        TARN_ASSIGN_OR_RETURN(Vec condition, EvalOn(*node.children[2 * step], remaining));
        for (size_t k = 0; k < remaining.size(); ++k) {
          int64_t row = condition.constant ? 0 : static_cast<int64_t>(k);
          bool hit = condition.column->IsValid(row) && condition.column->GetBool(row);
          (hit ? taken : rest).push_back(remaining[k]);
        }
        if (taken.empty()) continue;
        TARN_ASSIGN_OR_RETURN(Vec value, EvalOn(*node.children[2 * step + 1], taken));
        decide(value, taken, nullptr);
        remaining = std::move(rest);
      } else {
        TARN_ASSIGN_OR_RETURN(Vec value, EvalOn(*node.children[step], remaining));
        std::vector<int64_t> still_null;
        decide(value, remaining, &still_null);
        remaining = std::move(still_null);
      }
    }
    if (is_case && !remaining.empty()) {
      TARN_ASSIGN_OR_RETURN(Vec otherwise, EvalOn(*node.children.back(), remaining));
      decide(otherwise, remaining, nullptr);
    }
    bool undecided = false;
    for (int64_t& from : source) {
      if (from == kUndecided) {
        from = piece_start;  // the NULL appended below
        undecided = true;
      }
    }
    if (undecided) {
      ColumnBuilder null_row(node.type);
      null_row.AppendNull();
      pieces.push_back(null_row.Finish());
    }
    if (pieces.size() == 1 && pieces[0]->length == rows_) {
      bool identity = true;
      for (int64_t i = 0; i < rows_ && identity; ++i) identity = source[static_cast<size_t>(i)] == i;
      if (identity) return Vec{pieces[0], false};
    }
    bool same_type = true;
    for (const auto& piece : pieces) same_type = same_type && piece->type == node.type;
    if (!same_type) {  // values of the node's storage kind under another type: copy each
      std::vector<std::pair<const Column*, int64_t>> starts;  // piece, its first position
      int64_t at = 0;
      for (const auto& piece : pieces) {
        starts.emplace_back(piece.get(), at);
        at += piece->length;
      }
      ColumnBuilder builder(node.type);
      builder.Reserve(rows_);
      for (int64_t from : source) {
        size_t p = starts.size() - 1;
        while (starts[p].second > from) --p;
        TARN_RETURN_NOT_OK(builder.Append(starts[p].first->GetValue(from - starts[p].second)));
      }
      return Vec{builder.Finish(), false};
    }
    std::shared_ptr<Column> all = pieces.size() == 1 ? pieces[0] : Concatenate(pieces);
    return Vec{Take(*all, source), false};
  }

  const Batch& batch_;
  int64_t rows_;
  std::vector<std::shared_ptr<Column>> params_;  // lambda parameters by slot, rows_ rows each
  const SharedNodes* shared_ = nullptr;     // EvaluateShared's
  std::vector<std::optional<Vec>> memo_;    // a value per slot of shared_
};

}  // namespace

Result<Vec> EvaluateVec(const BoundNode& node, const Batch& batch) {
  return Evaluator(batch).Eval(node);
}

Result<Vec> EvaluateVec(const BoundNode& node, const Batch& batch,
                        std::vector<std::shared_ptr<Column>> params) {
  return Evaluator(batch, std::move(params)).Eval(node);
}

namespace {

// A text naming what `node` computes, equal for equal subtrees; empty when the node is not
// worth sharing or must not be (it reads a lambda parameter or calls a volatile function).
std::string ShareKey(const BoundNode& node, std::unordered_map<const BoundNode*, std::string>* keys,
                     bool* cacheable) {
  bool children_cacheable = true;
  std::string key = std::to_string(static_cast<int>(node.kind)) + ":" +
                    std::to_string(static_cast<int>(node.op)) + ":" +
                    std::to_string(static_cast<int>(node.function)) + ":" +
                    (node.negated ? "n" : "") + (node.try_cast ? "t" : "") + ":" +
                    node.type.ToString() + ":" + std::to_string(node.column_index) + ":" +
                    std::to_string(node.field_index);
  if (node.kind == BoundKind::kConstant) key += ":" + node.constant.ToString();
  key += "(";
  for (const auto& child : node.children) {
    bool child_cacheable = true;
    key += ShareKey(*child, keys, &child_cacheable) + ",";
    children_cacheable = children_cacheable && child_cacheable;
  }
  key += ")";
  const bool deterministic = !(node.kind == BoundKind::kFunction && IsVolatile(node.function)) &&
                             node.kind != BoundKind::kLambdaParam &&
                             node.kind != BoundKind::kListLambda;
  *cacheable = children_cacheable && deterministic;
  if (*cacheable && node.kind != BoundKind::kConstant && node.kind != BoundKind::kColumn) {
    (*keys)[&node] = key;
  }
  return key;
}

}  // namespace

SharedNodes FindSharedNodes(const std::vector<const BoundNode*>& roots) {
  std::unordered_map<const BoundNode*, std::string> keys;
  for (const BoundNode* root : roots) {
    bool cacheable = true;
    if (root != nullptr) ShareKey(*root, &keys, &cacheable);
  }
  std::unordered_map<std::string, int> count;
  for (const auto& [node, key] : keys) ++count[key];
  SharedNodes shared;
  std::unordered_map<std::string, int> slot_of_key;
  for (const auto& [node, key] : keys) {
    if (count[key] < 2) continue;
    auto [it, added] = slot_of_key.emplace(key, shared.slots);
    if (added) ++shared.slots;
    shared.slot_of[node] = it->second;
  }
  return shared;
}

Result<std::vector<Vec>> EvaluateShared(const std::vector<const BoundNode*>& roots,
                                        const SharedNodes& shared, const Batch& batch) {
  Evaluator evaluator(batch, &shared);
  std::vector<Vec> values;
  values.reserve(roots.size());
  for (const BoundNode* root : roots) {
    if (root == nullptr) {
      values.emplace_back();
      continue;
    }
    TARN_ASSIGN_OR_RETURN(Vec value, evaluator.Eval(*root));
    values.push_back(std::move(value));
  }
  return values;
}

std::shared_ptr<Column> Broadcast(const Vec& vec, int64_t rows) {
  if (!vec.constant) return vec.column;
  std::vector<int64_t> zeros(static_cast<size_t>(rows), 0);
  return Take(*vec.column, zeros);
}

}  // namespace tarn::expr
