#include "expr/bind/binder.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>

#include "expr/eval/cast.h"
#include "expr/functions/lambda_functions.h"
#include "expr/functions/list_aggregates.h"
#include "expr/functions/list_functions.h"
#include "expr/functions/json_functions.h"
#include "expr/functions/regexp_functions.h"

namespace tarn::expr {

namespace {
thread_local std::optional<int64_t> statement_time_micros;
thread_local const std::map<std::string, Value>* session_variables = nullptr;
thread_local const std::map<std::string, Value>* session_settings = nullptr;
thread_local const MacroExpansionScope::Expand* session_macros = nullptr;

int64_t ClockMicros() {
  return std::chrono::duration_cast<std::chrono::microseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}
}  // namespace

int64_t StatementTimeMicros() { return statement_time_micros.value_or(ClockMicros()); }

StatementTimeScope::StatementTimeScope() : outer_(!statement_time_micros.has_value()) {
  if (outer_) statement_time_micros = ClockMicros();
}

StatementTimeScope::~StatementTimeScope() {
  if (outer_) statement_time_micros.reset();
}

VariablesScope::VariablesScope(const std::map<std::string, Value>* variables)
    : outer_(session_variables) {
  session_variables = variables;
}

VariablesScope::~VariablesScope() { session_variables = outer_; }

SettingsScope::SettingsScope(const std::map<std::string, Value>* settings)
    : outer_(session_settings) {
  session_settings = settings;
}

SettingsScope::~SettingsScope() { session_settings = outer_; }

MacroExpansionScope::MacroExpansionScope(const Expand* expand) : outer_(session_macros) {
  session_macros = expand;
}

MacroExpansionScope::~MacroExpansionScope() { session_macros = outer_; }
namespace {

using ast::Expr;
using ast::ExprKind;
using ast::Op;
using NodePtr = std::unique_ptr<BoundNode>;

const DataType kBool(TypeId::kBoolean);

bool IsTemporalPoint(TypeId id) {
  return id == TypeId::kDate || id == TypeId::kTimestamp || id == TypeId::kTimestampTz ||
         id == TypeId::kTimestampS || id == TypeId::kTimestampMs || id == TypeId::kTimestampNs;
}

NodePtr MakeNode(BoundKind kind, DataType type) {
  auto node = std::make_unique<BoundNode>();
  node->kind = kind;
  node->type = std::move(type);
  return node;
}

NodePtr MakeConstant(Value v) {
  auto node = MakeNode(BoundKind::kConstant, v.type());
  node->constant = std::move(v);
  return node;
}

Status TypeError(const Expr& expr, const std::string& what) {
  return Status::InvalidArgument("Binder Error: ", what, " in expression \"", expr.ToString(), "\"");
}

[[gnu::noinline]] Result<NodePtr> BindLiteral(const Expr& expr) {
  switch (expr.literal_kind) {
    case ast::LiteralKind::kNull: {
      auto node = MakeConstant(Value());
      return node;
    }
    case ast::LiteralKind::kTrue: return MakeConstant(Value::Boolean(true));
    case ast::LiteralKind::kFalse: return MakeConstant(Value::Boolean(false));
    case ast::LiteralKind::kInteger: {
      __int128 v = 0;
      bool overflow = false;
      for (char c : expr.text) {
        overflow = overflow || __builtin_mul_overflow(v, 10, &v) ||
                   __builtin_add_overflow(v, c - '0', &v);
      }
      if (overflow) {
        // Past HUGEINT, DuckDB types the literal UHUGEINT up to 2^128 - 1, and DOUBLE beyond.
        Result<Value> wide = CastValue(Value::Varchar(expr.text), DataType(TypeId::kUInt128));
        if (!wide.ok()) return MakeConstant(Value::Float64(std::strtod(expr.text.c_str(), nullptr)));
        auto node = MakeConstant(std::move(wide).value());
        node->integer_literal = true;
        return node;
      }
      DataType type(v <= INT32_MAX ? TypeId::kInt32 : v <= INT64_MAX ? TypeId::kInt64 : TypeId::kInt128);
      auto node = MakeConstant(MakeInteger(type, v));
      node->integer_literal = true;
      return node;
    }
    case ast::LiteralKind::kDecimal: {
      size_t dot = expr.text.find('.');
      int integral = static_cast<int>(dot);
      int scale = static_cast<int>(expr.text.size() - dot - 1);
      int width = std::max(integral + scale, 1);
      if (width > 38) return MakeConstant(Value::Float64(std::strtod(expr.text.c_str(), nullptr)));
      TARN_ASSIGN_OR_RETURN(Value v, CastValue(Value::Varchar(expr.text),
                                               DataType::Decimal(width, scale)));
      return MakeConstant(std::move(v));
    }
    case ast::LiteralKind::kFloat:
      return MakeConstant(Value::Float64(std::strtod(expr.text.c_str(), nullptr)));
    case ast::LiteralKind::kString: {
      auto node = MakeConstant(Value::Varchar(expr.text));
      node->string_literal = true;
      return node;
    }
    case ast::LiteralKind::kTyped: {
      TARN_ASSIGN_OR_RETURN(DataType type, ParseSqlType(expr.type_name));
      Result<Value> v = CastValue(Value::Varchar(expr.text), type);
      if (!v.ok()) return TypeError(expr, v.status().message());
      return MakeConstant(std::move(v).value());
    }
  }
  return Status::Internal("unknown literal");
}

bool FitsType(const Value& v, const DataType& type) {
  if (!type.IsInteger()) return false;
  if (IsBeyondInt128(v)) return type.id == TypeId::kUInt128;
  __int128 lo, hi, x = AsInt128(v);
  IntegerRange(type.id, &lo, &hi);
  return x >= lo && x <= hi;
}

// Where operands meet, for DuckDB's messages and for its rule that a VARCHAR expression (not a
// string literal) converts implicitly to the other operand's type only in an equality.
enum class Mix : uint8_t {
  kEquality,  // =, <>, IS [NOT] DISTINCT FROM, IN, CASE x WHEN y: VARCHAR takes the other type
  kOrdering,  // <, <=, >, >=
  kArithmetic,
  kBetween,
  kCase,
  kCoalesce,
  kCombine,  // greatest, least
  kList,     // [a, b, ...]
};

// How DuckDB names an operand's type in a message: literals are INTEGER_LITERAL and
// STRING_LITERAL until they adapt.
std::string OperandTypeName(const BoundNode& node) {
  if (node.integer_literal) return "INTEGER_LITERAL";
  if (node.string_literal) return "STRING_LITERAL";
  return node.type.ToString();
}

[[gnu::noinline]] Status MixError(const Expr& expr, Mix mix, const std::string& first, const std::string& second) {
  const std::string cast = " - an explicit cast is required";
  switch (mix) {
    case Mix::kEquality:
    case Mix::kOrdering:
    case Mix::kArithmetic:
      return TypeError(expr, StrCat("Cannot compare values of type ", first, " and type ", second,
                                    cast));
    case Mix::kBetween:
      return TypeError(expr, StrCat("Cannot mix values of type ", first, " and ", second,
                                    " in BETWEEN clause", cast));
    case Mix::kCase:
      return TypeError(expr, StrCat("Cannot mix values of type ", first, " and ", second,
                                    " in CASE expression", cast));
    case Mix::kCoalesce:
      return TypeError(expr, StrCat("Cannot mix values of type ", first, " and ", second,
                                    " in COALESCE operator", cast));
    case Mix::kCombine:
      return TypeError(expr, StrCat("Cannot combine types of ", first, " and ", second, cast));
    case Mix::kList:
      return TypeError(expr, StrCat("Cannot deduce template type 'T' in function: "
                                    "'list_value(T, [T...]) -> T[]'\nType 'T' was inferred to "
                                    "be:\n - '", first, "', from first occurrence\n - '", second,
                                    "', which is incompatible with previously inferred type!"));
  }
  return Status::Internal("unknown operand mix");
}

// DuckDB's common type of several operands, literals adapting last.
Result<DataType> CommonType(const Expr& expr, const std::vector<const BoundNode*>& nodes,
                            Mix mix) {
  auto is_null = [](const BoundNode* node) {
    return node->kind == BoundKind::kConstant && node->type.id == TypeId::kNull;
  };
  if (mix != Mix::kEquality) {
    // A VARCHAR expression beside an operand of another type (an integer literal included)
    // needs a cast; the operands are named in the order written.
    const BoundNode* first = nullptr;
    for (const BoundNode* node : nodes) {
      if (is_null(node) || node->string_literal) continue;
      if (first == nullptr) {
        first = node;
        continue;
      }
      auto is_text = [](const BoundNode* n) {
        return n->type.id == TypeId::kVarchar || n->type.id == TypeId::kJson;
      };
      const bool first_text = is_text(first);
      const bool node_text = is_text(node);
      if (first_text != node_text) {
        return MixError(expr, mix, OperandTypeName(*first), OperandTypeName(*node));
      }
    }
  }
  std::optional<DataType> base;
  auto merge = [&](const DataType& t) -> Status {
    if (!base) {
      base = t;
      return Status::OK();
    }
    auto max = MaxType(*base, t);
    if (!max) return MixError(expr, mix, base->ToString(), t.ToString());
    base = *max;
    return Status::OK();
  };
  for (const BoundNode* node : nodes) {
    bool literal = node->integer_literal || node->string_literal || is_null(node);
    if (!literal) TARN_RETURN_NOT_OK(merge(node->type));
  }
  for (const BoundNode* node : nodes) {
    if (!node->integer_literal) continue;
    if (base && base->IsInteger() && FitsType(node->constant, *base)) continue;
    TARN_RETURN_NOT_OK(merge(node->type));
  }
  for (const BoundNode* node : nodes) {
    if (node->string_literal && !base) base = node->type;
  }
  if (!base) base = DataType(TypeId::kNull);  // only NULLs: stays NULL, as in DuckDB
  return *base;
}

}  // namespace

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                  std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::vector<std::string> ClosestNames(std::string_view name,
                                      const std::vector<std::string>& candidates) {
  std::vector<std::pair<size_t, std::string>> scored;
  for (const std::string& candidate : candidates) {
    scored.emplace_back(EditDistance(name, candidate), candidate);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (size_t i = 0; i < scored.size() && i < 3; ++i) {
    if (scored[i].first > scored[0].first) break;
    out.push_back(scored[i].second);
  }
  return out;
}

Result<NodePtr> CastTo(NodePtr node, const DataType& type) {
  if (node->type == type) return node;
  if (node->kind == BoundKind::kConstant) {
    TARN_ASSIGN_OR_RETURN(Value v, CastValue(node->constant, type));
    return MakeConstant(std::move(v));
  }
  auto cast = MakeNode(BoundKind::kCast, type);
  cast->children.push_back(std::move(node));
  return cast;
}

namespace {

// The functions the binder resolves itself, by name (lower case).
bool IsBinderFunction(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "now", "get_current_timestamp", "transaction_timestamp", "current_timestamp",
      "current_date", "today", "getvariable", "current_setting", "typeof", "coalesce", "ifnull",
      "row", "struct_extract"};
  for (std::string_view known : kNames) {
    if (name == known) return true;
  }
  return false;
}

// Names (columns, fields, lambda parameters) match ignoring ASCII case.
bool NamesMatch(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

class Binder {
 public:
  explicit Binder(const Schema& schema) : schema_(schema) {}

  // Binds and then folds operators over a NULL constant to NULL, as DuckDB's optimizer does
  // (so `x % NULL` is NULL without evaluating x).
  Result<NodePtr> Bind(const Expr& expr) {
    // BETWEEN, CASE x WHEN ... and nullif bind an operand more than once, so nesting them
    // multiplies the work: a budget keeps a hostile expression from binding for ever.
    if (++binds_ > kMaxBinds) {
      return Status::InvalidArgument("Binder Error: expression too complex: binding it takes "
                                     "more than ", kMaxBinds, " steps");
    }
    TARN_ASSIGN_OR_RETURN(NodePtr node, BindInner(expr));
    bool propagates = node->kind == BoundKind::kArith || node->kind == BoundKind::kNegate ||
                      node->kind == BoundKind::kLike ||
                      (node->kind == BoundKind::kCompare && node->op != Op::kIsDistinctFrom &&
                       node->op != Op::kIsNotDistinctFrom) ||
                      (node->kind == BoundKind::kFunction && PropagatesNull(node->function));
    if (!propagates) return node;
    for (const auto& child : node->children) {
      if (child->kind == BoundKind::kConstant && child->constant.is_null()) {
        return MakeConstant(Value::Null(node->type));
      }
    }
    return node;
  }

  // Each kind binds in a function of its own, kept out of line: Bind and BindInner are on
  // the stack once per level of nesting, so their frames must stay small in every build.
  Result<NodePtr> BindInner(const Expr& expr) {
    switch (expr.kind) {
      case ExprKind::kLiteral: return BindLiteral(expr);
      case ExprKind::kColumnRef: return BindColumn(expr);
      case ExprKind::kStar: return TypeError(expr, "* is only allowed as count(*)");
      case ExprKind::kParameter:
        return Status::NotSupported("Binder Error: parameter ", expr.text, " has no value");
      case ExprKind::kUnary: return BindUnary(expr);
      case ExprKind::kBinary: return BindBinary(expr);
      case ExprKind::kIsNull: return BindIsNull(expr);
      case ExprKind::kIn: return BindIn(expr);
      case ExprKind::kBetween: return BindBetween(expr);
      case ExprKind::kLike: return BindLike(expr);
      case ExprKind::kCase: return BindCase(expr);
      case ExprKind::kCast: return BindCast(expr);
      case ExprKind::kFunction: return BindFunction(expr);
      case ExprKind::kSubscript: return BindSubscript(expr);
      case ExprKind::kField: return BindField(expr);
      case ExprKind::kList: return BindList(expr);
      case ExprKind::kStruct: return BindStructPack(expr);
      case ExprKind::kLambda: return BindBareLambda(expr);
      case ExprKind::kWindow:
        // The planner computes window functions before binding what holds them.
        return Status::InvalidArgument("Binder Error: window functions are not allowed here: \"",
                                       expr.ToString(), "\"");
    }
    return Status::Internal("unknown expression kind");
  }

 private:
  [[gnu::noinline]] Result<NodePtr> BindIsNull(const Expr& expr) {
    TARN_ASSIGN_OR_RETURN(auto child, Bind(*expr.children[0]));
    if (child->type.id == TypeId::kNull) {
      TARN_ASSIGN_OR_RETURN(child, CastTo(std::move(child), DataType(TypeId::kInt32)));
    }
    auto node = MakeNode(BoundKind::kIsNull, kBool);
    node->negated = expr.negated;
    node->children.push_back(std::move(child));
    return node;
  }

  [[gnu::noinline]] Result<NodePtr> BindCast(const Expr& expr) {
    TARN_ASSIGN_OR_RETURN(auto child, Bind(*expr.children[0]));
    Result<DataType> type = ParseSqlType(expr.type_name);
    if (!type.ok()) return TypeError(expr, type.status().message());
    if (child->kind == BoundKind::kConstant) {
      Result<Value> v = CastValue(child->constant, *type, expr.try_cast);
      if (!v.ok()) return TypeError(expr, v.status().message());
      return MakeConstant(std::move(v).value());
    }
    if (child->type == *type) return child;
    auto node = MakeNode(BoundKind::kCast, *type);
    node->try_cast = expr.try_cast;
    node->children.push_back(std::move(child));
    return node;
  }

  [[gnu::noinline]] Result<NodePtr> BindSubscript(const Expr& expr) {
    TARN_ASSIGN_OR_RETURN(auto base, Bind(*expr.children[0]));
    TARN_ASSIGN_OR_RETURN(auto index, Bind(*expr.children[1]));
    if (base->type.id == TypeId::kMap) {
      // map[key]: the value of that key's entry (NULL when absent), as DuckDB's
      // map_extract_value.
      std::vector<NodePtr> args;
      args.push_back(std::move(base));
      args.push_back(std::move(index));
      return MakeCall(expr, FunctionId::kMapExtractValue, "map_extract_value", std::move(args));
    }
    if (base->type.id == TypeId::kStruct) return StructExtract(expr, std::move(base), *index);
    if (base->type.id == TypeId::kVariant) return VariantExtract(expr, std::move(base), std::move(index));
    if (base->type.id == TypeId::kVarchar && index->type.IsInteger()) {
      // 'abc'[2]: the character at that position, as DuckDB's array_extract.
      std::vector<NodePtr> args;
      args.push_back(std::move(base));
      args.push_back(std::move(index));
      return MakeCall(expr, FunctionId::kListExtract, "array_extract", std::move(args));
    }
    if (base->type.id != TypeId::kList) {
      return TypeError(expr, StrCat("cannot subscript a value of type ", base->type.ToString()));
    }
    if (!index->type.IsInteger()) return TypeError(expr, "a list index must be an integer");
    TARN_ASSIGN_OR_RETURN(index, CastTo(std::move(index), DataType(TypeId::kInt64)));
    auto node = MakeNode(BoundKind::kListIndex, base->type.children[0].type);
    node->children.push_back(std::move(base));
    node->children.push_back(std::move(index));
    return node;
  }

  [[gnu::noinline]] Result<NodePtr> BindField(const Expr& expr) {
    TARN_ASSIGN_OR_RETURN(auto base, Bind(*expr.children[0]));
    return FieldAccess(expr, std::move(base), expr.names[0]);
  }

  [[gnu::noinline]] Result<NodePtr> BindList(const Expr& expr) {
    std::vector<NodePtr> items;
    for (const auto& child : expr.children) {
      TARN_ASSIGN_OR_RETURN(auto item, Bind(*child));
      items.push_back(std::move(item));
    }
    return BindListValue(expr, std::move(items));
  }

  // [a, b, ...]: the elements' common type (literals adapting, as in CASE); [] is "NULL"[].
  [[gnu::noinline]] Result<NodePtr> BindListValue(const Expr& expr, std::vector<NodePtr> items) {
    DataType element(TypeId::kNull);
    if (!items.empty()) TARN_RETURN_NOT_OK(Unify(expr, Mix::kList, &items, &element));
    auto node = MakeNode(BoundKind::kFunction, DataType::List(element));
    node->function = FunctionId::kListValue;
    node->name = "list_value";
    node->children = std::move(items);
    return node;
  }

  // {'a': x, 'b': y}: a struct of the values' own types; names are unique ignoring case.
  [[gnu::noinline]] Result<NodePtr> BindStructPack(const Expr& expr) {
    std::vector<Field> fields;
    auto node = MakeNode(BoundKind::kFunction, DataType());
    for (size_t i = 0; i < expr.children.size(); ++i) {
      for (const Field& field : fields) {
        if (EditDistance(field.name, expr.names[i]) == 0 &&
            field.name.size() == expr.names[i].size()) {
          return TypeError(expr, StrCat("Duplicate struct entry name \"", expr.names[i], "\""));
        }
      }
      TARN_ASSIGN_OR_RETURN(auto child, Bind(*expr.children[i]));
      fields.emplace_back(expr.names[i], child->type);
      node->children.push_back(std::move(child));
    }
    node->type = DataType::Struct(std::move(fields));
    node->function = FunctionId::kStructPack;
    node->name = "struct_pack";
    return node;
  }

  // v['name'], v.name, v[i]: variant_extract. An index 0 is an error while binding, as in DuckDB.
  Result<NodePtr> VariantExtract(const Expr& expr, NodePtr base, NodePtr key) {
    if (key->kind == BoundKind::kConstant && !key->constant.is_null() &&
        key->type.IsInteger() && AsInt128(key->constant) == 0) {
      return Status::InvalidArgument(
          "Binder Error: Extracting index 0 from VARIANT(ARRAY) is invalid, indexes are 1-based");
    }
    std::vector<NodePtr> args;
    args.push_back(std::move(base));
    args.push_back(std::move(key));
    return MakeCall(expr, FunctionId::kVariantExtract, "variant_extract", std::move(args));
  }

  Result<NodePtr> FieldAccess(const Expr& expr, NodePtr base, const std::string& name) {
    if (base->type.id == TypeId::kMap) {
      // m.key: the value of the entry with that key, as m['key'] (DuckDB's rule).
      std::vector<NodePtr> args;
      args.push_back(std::move(base));
      args.push_back(MakeConstant(Value::Varchar(name)));
      return MakeCall(expr, FunctionId::kMapExtractValue, "map_extract_value", std::move(args));
    }
    if (base->type.id == TypeId::kVariant) {
      return VariantExtract(expr, std::move(base), MakeConstant(Value::Varchar(name)));
    }
    if (base->type.id != TypeId::kStruct) {
      return TypeError(expr, StrCat("cannot read field \"", name, "\" of a value of type ",
                                    base->type.ToString()));
    }
    std::vector<std::string> names;
    for (size_t i = 0; i < base->type.children.size(); ++i) {
      const Field& field = base->type.children[i];
      if (EditDistance(field.name, name) == 0 && field.name.size() == name.size()) {
        auto node = MakeNode(BoundKind::kField, field.type);
        node->field_index = static_cast<int>(i);
        node->name = field.name;
        node->children.push_back(std::move(base));
        return node;
      }
      names.push_back(field.name);
    }
    return NotFound("field", name, names);
  }

  // A column no table of the FROM clause has, in DuckDB's words, with the closest names as
  // its candidate bindings.
  static Status ColumnNotFound(const std::string& name, const std::vector<std::string>& candidates) {
    std::string message =
        StrCat("Binder Error: Referenced column \"", name, "\" not found in FROM clause!");
    std::vector<std::string> closest = ClosestNames(name, candidates);
    if (!closest.empty()) {
      message += "\nCandidate bindings: ";
      for (size_t i = 0; i < closest.size(); ++i) {
        if (i > 0) message += ", ";
        message += "\"" + closest[i] + "\"";
      }
    }
    return Status::NotFound(message);
  }

  static Status NotFound(const char* what, const std::string& name,
                         const std::vector<std::string>& candidates) {
    std::string message = StrCat("Binder Error: ", what, " \"", name, "\" not found");
    std::vector<std::string> closest = ClosestNames(name, candidates);
    if (!closest.empty()) {
      message += "; did you mean ";
      for (size_t i = 0; i < closest.size(); ++i) {
        if (i > 0) message += i + 1 == closest.size() ? " or " : ", ";
        message += "\"" + closest[i] + "\"";
      }
      message += "?";
    }
    return Status::NotFound(message);
  }

  [[gnu::noinline]] Result<NodePtr> BindColumn(const Expr& expr) {
    // A lambda's parameters hide the columns of the same name, the innermost lambda first.
    for (size_t slot = lambda_params_.size(); slot-- > 0;) {
      const LambdaParam& param = lambda_params_[slot];
      if (!NamesMatch(param.name, expr.names[0])) continue;
      auto node = MakeNode(BoundKind::kLambdaParam, param.type);
      node->column_index = static_cast<int>(slot);
      node->name = param.name;
      for (size_t i = 1; i < expr.names.size(); ++i) {
        TARN_ASSIGN_OR_RETURN(node, FieldAccess(expr, std::move(node), expr.names[i]));
      }
      return node;
    }
    int index = schema_.FindField(expr.names[0]);
    if (index < 0) {
      std::vector<std::string> names;
      for (const Field& field : schema_.fields) names.push_back(field.name);
      return ColumnNotFound(expr.names[0], names);
    }
    auto node = MakeNode(BoundKind::kColumn, schema_.field(index).type);
    node->column_index = index;
    node->name = schema_.field(index).name;
    for (size_t i = 1; i < expr.names.size(); ++i) {
      TARN_ASSIGN_OR_RETURN(node, FieldAccess(expr, std::move(node), expr.names[i]));
    }
    return node;
  }

  Result<NodePtr> ToBoolean(const Expr& expr, NodePtr node, const char* context) {
    if (node->type.id == TypeId::kBoolean) return node;
    if (node->type.id == TypeId::kNull || node->string_literal || node->integer_literal) {
      Result<NodePtr> cast = CastTo(std::move(node), kBool);
      if (!cast.ok()) return TypeError(expr, cast.status().message());
      return cast;
    }
    return TypeError(expr, StrCat("argument of ", context, " must be BOOLEAN, not ",
                                  node->type.ToString()));
  }

  // & | << >> and ~ on integers, typed as DuckDB types them: the operands take their common
  // integer type (literals adapting), a NULL operand alone is BIGINT.
  [[gnu::noinline]] Result<NodePtr> BindBitwise(const Expr& expr, std::vector<NodePtr> args) {
    const std::string name = ast::OpName(expr.op);
    auto no_match = [&]() {
      std::string types;
      for (size_t i = 0; i < args.size(); ++i) {
        types += StrCat(i > 0 ? ", " : "", OperandTypeName(*args[i]));
      }
      return Status::InvalidArgument(
          "Binder Error: No function matches the given name and argument types '", name, "(",
          types, ")'. You might need to add explicit type casts.");
    };
    std::vector<const BoundNode*> raw;
    for (const auto& arg : args) {
      if (!arg->type.IsInteger() && arg->type.id != TypeId::kNull && !arg->string_literal) {
        return no_match();
      }
      raw.push_back(arg.get());
    }
    TARN_ASSIGN_OR_RETURN(DataType type, CommonType(expr, raw, Mix::kArithmetic));
    if (type.id == TypeId::kNull) type = DataType(TypeId::kInt64);
    if (!type.IsInteger()) return no_match();
    for (auto& arg : args) {
      Result<NodePtr> cast = CastTo(std::move(arg), type);
      if (!cast.ok()) return cast.status();
      arg = std::move(cast).value();
    }
    FunctionId id = FunctionId::kBitNot;
    switch (expr.op) {
      case Op::kBitAnd: id = FunctionId::kBitAnd; break;
      case Op::kBitOr: id = FunctionId::kBitOr; break;
      case Op::kShiftLeft: id = FunctionId::kShiftLeft; break;
      case Op::kShiftRight: id = FunctionId::kShiftRight; break;
      default: break;
    }
    return MakeCall(expr, id, name, std::move(args));
  }

  [[gnu::noinline]] Result<NodePtr> BindUnary(const Expr& expr) {
    TARN_ASSIGN_OR_RETURN(auto child, Bind(*expr.children[0]));
    if (expr.op == Op::kBitNot) {
      std::vector<NodePtr> args;
      args.push_back(std::move(child));
      return BindBitwise(expr, std::move(args));
    }
    if (expr.op == Op::kNot) {
      TARN_ASSIGN_OR_RETURN(child, ToBoolean(expr, std::move(child), "NOT"));
      auto node = MakeNode(BoundKind::kNot, kBool);
      node->children.push_back(std::move(child));
      return node;
    }
    if (child->type.id == TypeId::kNull) {  // DuckDB types -NULL as BIGINT
      TARN_ASSIGN_OR_RETURN(child, CastTo(std::move(child), DataType(TypeId::kInt64)));
    }
    if (!child->type.IsNumeric() && child->type.id != TypeId::kInterval) {
      return TypeError(expr, StrCat("cannot apply unary ", ast::OpName(expr.op), " to type ",
                                    child->type.ToString()));
    }
    if (expr.op == Op::kPlus) return child;
    if (child->kind == BoundKind::kConstant && child->integer_literal) {
      // A negated integer literal is a literal of the negated value, as DuckDB folds the sign
      // into the number: an INTEGER stays INTEGER; a wider one takes the narrowest of BIGINT
      // and HUGEINT holding the value (-9223372036854775808 is a BIGINT).
      if (IsBeyondInt128(child->constant)) {
        // -2^127 is HUGEINT's minimum; a larger UHUGEINT literal negates to a DOUBLE.
        auto u = static_cast<unsigned __int128>(child->constant.GetInt128());
        if (u == static_cast<unsigned __int128>(1) << 127) {
          auto node = MakeConstant(MakeInteger(DataType(TypeId::kInt128),
                                               std::numeric_limits<__int128>::min()));
          node->integer_literal = true;
          return node;
        }
        return MakeConstant(Value::Float64(-static_cast<double>(u)));
      }
      __int128 v = AsInt128(child->constant);
      if (v != std::numeric_limits<__int128>::min()) {
        __int128 negated = -v;
        TypeId id = child->type.id == TypeId::kInt32 ? TypeId::kInt32
                    : negated >= INT64_MIN && negated <= INT64_MAX ? TypeId::kInt64
                                                                   : TypeId::kInt128;
        auto node = MakeConstant(MakeInteger(DataType(id), negated));
        node->integer_literal = true;
        return node;
      }
    }
    auto node = MakeNode(BoundKind::kNegate, child->type);
    node->children.push_back(std::move(child));
    return node;
  }

  // Casts every node in `nodes` to one common type.
  Status Unify(const Expr& expr, Mix mix, std::vector<NodePtr>* nodes, DataType* type) {
    std::vector<const BoundNode*> raw;
    for (const auto& node : *nodes) raw.push_back(node.get());
    TARN_ASSIGN_OR_RETURN(*type, CommonType(expr, raw, mix));
    for (auto& node : *nodes) {
      Result<NodePtr> cast = CastTo(std::move(node), *type);
      if (!cast.ok()) return TypeError(expr, cast.status().message());
      node = std::move(cast).value();
    }
    return Status::OK();
  }

  Result<NodePtr> Compare(const Expr& expr, Op op, NodePtr left, NodePtr right) {
    std::vector<NodePtr> nodes;
    nodes.push_back(std::move(left));
    nodes.push_back(std::move(right));
    DataType type;
    const bool ordering = op == Op::kLess || op == Op::kLessEqual || op == Op::kGreater ||
                          op == Op::kGreaterEqual;
    TARN_RETURN_NOT_OK(Unify(expr, ordering ? Mix::kOrdering : Mix::kEquality, &nodes, &type));
    auto node = MakeNode(BoundKind::kCompare, kBool);
    node->op = op;
    node->children = std::move(nodes);
    return node;
  }

  [[gnu::noinline]] Result<NodePtr> BindBinary(const Expr& expr) {
    TARN_ASSIGN_OR_RETURN(auto left, Bind(*expr.children[0]));
    TARN_ASSIGN_OR_RETURN(auto right, Bind(*expr.children[1]));
    switch (expr.op) {
      case Op::kAnd: case Op::kOr: {
        BoundKind kind = expr.op == Op::kAnd ? BoundKind::kAnd : BoundKind::kOr;
        auto node = MakeNode(kind, kBool);
        for (NodePtr* child : {&left, &right}) {
          TARN_ASSIGN_OR_RETURN(*child, ToBoolean(expr, std::move(*child), ast::OpName(expr.op)));
          if ((*child)->kind == kind) {  // flatten a AND (b AND c)
            for (auto& grandchild : (*child)->children) node->children.push_back(std::move(grandchild));
          } else {
            node->children.push_back(std::move(*child));
          }
        }
        return node;
      }
      case Op::kEqual: case Op::kNotEqual: case Op::kLess: case Op::kLessEqual:
      case Op::kGreater: case Op::kGreaterEqual: case Op::kIsDistinctFrom:
      case Op::kIsNotDistinctFrom:
        return Compare(expr, expr.op, std::move(left), std::move(right));
      case Op::kConcat: {
        const bool lists = left->type.id == TypeId::kList || right->type.id == TypeId::kList;
        std::vector<NodePtr> args;
        args.push_back(std::move(left));
        args.push_back(std::move(right));
        return MakeCall(expr, lists ? FunctionId::kListConcatOperator : FunctionId::kConcatOperator,
                        "||", std::move(args));
      }
      case Op::kJsonExtractText: {
        std::vector<NodePtr> args;
        args.push_back(std::move(left));
        args.push_back(std::move(right));
        return MakeCall(expr, FunctionId::kJsonExtractString, "json_extract_string",
                        std::move(args));
      }
      case Op::kBitAnd: case Op::kBitOr: case Op::kShiftLeft: case Op::kShiftRight: {
        std::vector<NodePtr> args;
        args.push_back(std::move(left));
        args.push_back(std::move(right));
        return BindBitwise(expr, std::move(args));
      }
      default:
        return BindArithmetic(expr, std::move(left), std::move(right));
    }
  }

  Result<NodePtr> Arith(Op op, DataType type, NodePtr left, NodePtr right) {
    auto node = MakeNode(BoundKind::kArith, std::move(type));
    node->op = op;
    node->children.push_back(std::move(left));
    node->children.push_back(std::move(right));
    return node;
  }

  // `swapped`: the operands come in the other order than written (INTEGER + DATE is bound as
  // DATE + INTEGER); error messages name them as written.
  [[gnu::noinline]] Result<NodePtr> BindArithmetic(const Expr& expr, NodePtr left, NodePtr right,
                                 bool swapped = false) {
    Op op = expr.op;
    // A VARIANT beside another type converts to that type, as DuckDB types v + 100 INTEGER.
    if ((left->type.id == TypeId::kVariant) != (right->type.id == TypeId::kVariant)) {
      NodePtr& self = left->type.id == TypeId::kVariant ? left : right;
      const DataType& other = left->type.id == TypeId::kVariant ? right->type : left->type;
      if (other.id != TypeId::kNull) {
        Result<NodePtr> cast = CastTo(std::move(self), other);
        if (!cast.ok()) return TypeError(expr, cast.status().message());
        self = std::move(cast).value();
      }
    }
    // NULL operands take the other side's type (an INTEGER offset beside a DATE, an
    // INTERVAL beside a TIMESTAMP); string literals beside a date or timestamp convert to it.
    for (NodePtr* pair : {&left, &right}) {
      NodePtr& self = *pair;
      const NodePtr& other = pair == &left ? right : left;
      if (!IsTemporalPoint(other->type.id)) continue;
      if (self->type.id == TypeId::kNull) {
        DataType to(other->type.id == TypeId::kDate ? TypeId::kInt32 : TypeId::kInterval);
        TARN_ASSIGN_OR_RETURN(self, CastTo(std::move(self), to));
      } else if (self->string_literal && op == Op::kSubtract) {
        Result<NodePtr> cast = CastTo(std::move(self), other->type);
        if (!cast.ok()) return TypeError(expr, cast.status().message());
        self = std::move(cast).value();
      }
    }
    if (left->type.id == TypeId::kNull && right->type.id == TypeId::kNull) {
      TARN_ASSIGN_OR_RETURN(left, CastTo(std::move(left), DataType(TypeId::kInt32)));
    }
    if (left->type.id == TypeId::kNull) {
      TARN_ASSIGN_OR_RETURN(left, CastTo(std::move(left), right->type));
    }
    if (right->type.id == TypeId::kNull) {
      TARN_ASSIGN_OR_RETURN(right, CastTo(std::move(right), left->type));
    }
    const DataType lt = left->type, rt = right->type;
    // DuckDB's words, literals named as such, the operands in the order written.
    auto argument_type = [](const NodePtr& node) {
      if (node->integer_literal) return std::string("INTEGER_LITERAL");
      if (node->string_literal) return std::string("STRING_LITERAL");
      return node->type.ToString();
    };
    const std::string left_name = argument_type(swapped ? right : left);
    const std::string right_name = argument_type(swapped ? left : right);
    auto mismatch = [&]() {
      return TypeError(expr, StrCat("No function matches the given name and argument types '",
                                    ast::OpName(op), "(", left_name, ", ", right_name,
                                    ")'. You might need to add explicit type casts."));
    };
    // DATE +- n takes an INTEGER: a narrower integer type, or an integer literal that fits;
    // DuckDB has no DATE + BIGINT.
    auto day_count = [](const NodePtr& node) {
      if (node->integer_literal) return FitsType(node->constant, DataType(TypeId::kInt32));
      return ImplicitlyCastable(node->type, DataType(TypeId::kInt32));
    };
    // Temporal arithmetic.
    bool l_point = IsTemporalPoint(lt.id), r_point = IsTemporalPoint(rt.id);
    if (l_point || r_point || lt.id == TypeId::kInterval || rt.id == TypeId::kInterval) {
      const DataType ts(TypeId::kTimestamp), date(TypeId::kDate), interval(TypeId::kInterval);
      if (op == Op::kAdd && r_point && !l_point) {
        return BindArithmetic(expr, std::move(right), std::move(left), /*swapped=*/true);
      }
      // TIME +- INTERVAL wraps around midnight; INTERVAL + TIME is the same.
      if (lt.id == TypeId::kTime && rt.id == TypeId::kInterval &&
          (op == Op::kAdd || op == Op::kSubtract)) {
        return Arith(op, lt, std::move(left), std::move(right));
      }
      if (lt.id == TypeId::kInterval && rt.id == TypeId::kTime && op == Op::kAdd) {
        return Arith(op, rt, std::move(right), std::move(left));
      }
      if (lt.id == TypeId::kDate && rt.IsInteger() && day_count(right) &&
          (op == Op::kAdd || op == Op::kSubtract)) {
        TARN_ASSIGN_OR_RETURN(right, CastTo(std::move(right), DataType(TypeId::kInt32)));
        return Arith(op, date, std::move(left), std::move(right));
      }
      if (lt.id == TypeId::kDate && rt.id == TypeId::kDate && op == Op::kSubtract) {
        return Arith(op, DataType(TypeId::kInt64), std::move(left), std::move(right));
      }
      if (l_point && (rt.id == TypeId::kInterval || right->string_literal) &&
          (op == Op::kAdd || op == Op::kSubtract)) {
        TARN_ASSIGN_OR_RETURN(left, CastTo(std::move(left), ts));
        TARN_ASSIGN_OR_RETURN(right, CastTo(std::move(right), interval));
        return Arith(op, ts, std::move(left), std::move(right));
      }
      if (l_point && r_point && op == Op::kSubtract) {
        TARN_ASSIGN_OR_RETURN(left, CastTo(std::move(left), ts));
        TARN_ASSIGN_OR_RETURN(right, CastTo(std::move(right), ts));
        return Arith(op, interval, std::move(left), std::move(right));
      }
      if (lt.id == TypeId::kInterval && rt.id == TypeId::kInterval &&
          (op == Op::kAdd || op == Op::kSubtract)) {
        return Arith(op, interval, std::move(left), std::move(right));
      }
      return mismatch();
    }
    // String literals take the numeric side's type.
    if (left->string_literal && rt.IsNumeric()) {
      TARN_ASSIGN_OR_RETURN(left, CastTo(std::move(left), rt));
    }
    if (right->string_literal && lt.IsNumeric()) {
      TARN_ASSIGN_OR_RETURN(right, CastTo(std::move(right), lt));
    }
    if (!left->type.IsNumeric() || !right->type.IsNumeric()) return mismatch();
    if (op == Op::kPower) {
      const DataType dbl(TypeId::kFloat64);
      TARN_ASSIGN_OR_RETURN(left, CastTo(std::move(left), dbl));
      TARN_ASSIGN_OR_RETURN(right, CastTo(std::move(right), dbl));
      return Arith(op, dbl, std::move(left), std::move(right));
    }
    std::vector<NodePtr> nodes;
    nodes.push_back(std::move(left));
    nodes.push_back(std::move(right));
    std::vector<const BoundNode*> raw = {nodes[0].get(), nodes[1].get()};
    TARN_ASSIGN_OR_RETURN(DataType common, CommonType(expr, raw, Mix::kArithmetic));
    if (op == Op::kDivide || (op == Op::kIntDivide && !common.IsInteger())) {
      // `/` always divides as floating point; `//` on non-integers too, but by zero is NULL.
      if (common.id != TypeId::kFloat32) common = DataType(TypeId::kFloat64);
    }
    DataType result = common;
    if (common.id == TypeId::kDecimal && op == Op::kMultiply) {
      // Each side keeps its own decimal width; the product adds them.
      DataType types[2];
      for (int i = 0; i < 2; ++i) {
        const DataType& t = nodes[i]->type;
        types[i] = t.id == TypeId::kDecimal ? t : DecimalForInteger(t.id);
        TARN_ASSIGN_OR_RETURN(nodes[i], CastTo(std::move(nodes[i]), types[i]));
      }
      int scale = types[0].scale + types[1].scale;
      if (scale > 38) return mismatch();
      int width = std::min(38, types[0].precision + types[1].precision);
      // Like DuckDB, a product of two 64-bit decimals stays 64-bit (with an overflow check).
      if (width > 18 && types[0].precision <= 18 && types[1].precision <= 18 && scale < 18) {
        width = 18;
      }
      return Arith(op, DataType::Decimal(width, scale), std::move(nodes[0]), std::move(nodes[1]));
    }
    if (common.id == TypeId::kDecimal && (op == Op::kAdd || op == Op::kSubtract)) {
      result = DataType::Decimal(std::min(38, common.precision + 1), common.scale);
      // Like DuckDB, a sum or difference of two 64-bit decimals stays 64-bit (with an overflow
      // check): both sides then take the result's type.
      bool narrow = result.precision > 18;
      for (const auto& node : nodes) {
        const DataType& t = node->type;
        narrow = narrow && (t.id == TypeId::kDecimal ? t.precision : DecimalForInteger(t.id).precision) <= 18;
      }
      if (narrow && common.scale <= 18) {
        result = DataType::Decimal(18, common.scale);
        common = result;
      }
    }
    for (auto& node : nodes) {
      Result<NodePtr> cast = CastTo(std::move(node), common);
      if (!cast.ok()) return TypeError(expr, cast.status().message());
      node = std::move(cast).value();
    }
    return Arith(op, result, std::move(nodes[0]), std::move(nodes[1]));
  }

  [[gnu::noinline]] Result<NodePtr> BindIn(const Expr& expr) {
    std::vector<NodePtr> nodes;
    for (const auto& child : expr.children) {
      TARN_ASSIGN_OR_RETURN(auto node, Bind(*child));
      nodes.push_back(std::move(node));
    }
    DataType type;
    TARN_RETURN_NOT_OK(Unify(expr, Mix::kEquality, &nodes, &type));
    auto node = MakeNode(BoundKind::kIn, kBool);
    node->negated = expr.negated;
    node->children = std::move(nodes);
    return node;
  }

  [[gnu::noinline]] Result<NodePtr> BindBetween(const Expr& expr) {
    TARN_ASSIGN_OR_RETURN(auto value_low, Bind(*expr.children[0]));
    TARN_ASSIGN_OR_RETURN(auto value_high, Bind(*expr.children[0]));
    TARN_ASSIGN_OR_RETURN(auto low, Bind(*expr.children[1]));
    TARN_ASSIGN_OR_RETURN(auto high, Bind(*expr.children[2]));
    // DuckDB unifies all three operands before comparing.
    std::vector<NodePtr> nodes;
    nodes.push_back(std::move(value_low));
    nodes.push_back(std::move(low));
    nodes.push_back(std::move(high));
    nodes.push_back(std::move(value_high));
    DataType type;
    TARN_RETURN_NOT_OK(Unify(expr, Mix::kBetween, &nodes, &type));
    auto both = MakeNode(BoundKind::kAnd, kBool);
    auto ge = MakeNode(BoundKind::kCompare, kBool);
    ge->op = Op::kGreaterEqual;
    ge->children.push_back(std::move(nodes[0]));
    ge->children.push_back(std::move(nodes[1]));
    auto le = MakeNode(BoundKind::kCompare, kBool);
    le->op = Op::kLessEqual;
    le->children.push_back(std::move(nodes[3]));
    le->children.push_back(std::move(nodes[2]));
    both->children.push_back(std::move(ge));
    both->children.push_back(std::move(le));
    if (!expr.negated) return both;
    auto negation = MakeNode(BoundKind::kNot, kBool);
    negation->children.push_back(std::move(both));
    return negation;
  }

  [[gnu::noinline]] Result<NodePtr> BindLike(const Expr& expr) {
    auto node = MakeNode(BoundKind::kLike, kBool);
    node->op = expr.op;
    node->negated = expr.negated;
    for (const auto& child : expr.children) {
      TARN_ASSIGN_OR_RETURN(auto bound, Bind(*child));
      if (bound->type.id != TypeId::kVarchar && bound->type.id != TypeId::kNull) {
        return TypeError(expr, StrCat(ast::OpName(expr.op), " needs VARCHAR operands, not ",
                                      bound->type.ToString()));
      }
      TARN_ASSIGN_OR_RETURN(bound, CastTo(std::move(bound), DataType(TypeId::kVarchar)));
      node->children.push_back(std::move(bound));
    }
    return node;
  }

  [[gnu::noinline]] Result<NodePtr> BindCase(const Expr& expr) {
    size_t i = 0;
    const Expr* operand = expr.has_operand ? expr.children[i++].get() : nullptr;
    size_t end = expr.children.size() - (expr.has_else ? 1 : 0);
    std::vector<NodePtr> conditions;
    std::vector<NodePtr> results;
    for (; i + 2 <= end; i += 2) {
      TARN_ASSIGN_OR_RETURN(auto when, Bind(*expr.children[i]));
      if (operand != nullptr) {
        TARN_ASSIGN_OR_RETURN(auto value, Bind(*operand));
        TARN_ASSIGN_OR_RETURN(when, Compare(expr, Op::kEqual, std::move(value), std::move(when)));
      }
      TARN_ASSIGN_OR_RETURN(when, ToBoolean(expr, std::move(when), "CASE WHEN"));
      conditions.push_back(std::move(when));
      TARN_ASSIGN_OR_RETURN(auto then, Bind(*expr.children[i + 1]));
      results.push_back(std::move(then));
    }
    if (expr.has_else) {
      TARN_ASSIGN_OR_RETURN(auto otherwise, Bind(*expr.children.back()));
      results.push_back(std::move(otherwise));
    } else {
      results.push_back(MakeConstant(Value()));
    }
    DataType type;
    // DuckDB meets the ELSE value first, then each THEN in order.
    std::rotate(results.begin(), results.end() - 1, results.end());
    TARN_RETURN_NOT_OK(Unify(expr, Mix::kCase, &results, &type));
    std::rotate(results.begin(), results.begin() + 1, results.end());
    auto node = MakeNode(BoundKind::kCase, type);
    for (size_t k = 0; k < conditions.size(); ++k) {
      node->children.push_back(std::move(conditions[k]));
      node->children.push_back(std::move(results[k]));
    }
    node->children.push_back(std::move(results.back()));
    return node;
  }

  Result<NodePtr> MakeCall(const Expr& expr, FunctionId id, const std::string& name,
                           std::vector<NodePtr> args) {
    std::vector<DataType> types;
    std::vector<const Value*> constants;
    for (auto& arg : args) {
      // A string literal argument is a VARCHAR; a NULL literal adapts.
      types.push_back(arg->type);
      constants.push_back(arg->kind == BoundKind::kConstant ? &arg->constant : nullptr);
    }
    std::vector<DataType> cast_to;
    DataType result;
    if (IsListFunction(id) || IsListAggregate(id)) return MakeListCall(id, name, std::move(args));
    Status status = ResolveFunctionTypes(id, name, types, constants, &cast_to, &result);
    if (!status.ok() && (IsRegexpFunction(id) || IsJsonFunction(id)) &&
        !std::string_view(status.message()).starts_with("Binder Error: No function")) {
      return status;  // DuckDB's own wording: a bad pattern, group or option
    }
    if (!status.ok()) return TypeError(expr, status.message());
    auto node = MakeNode(BoundKind::kFunction, result);
    node->function = id;
    node->name = name;
    for (size_t i = 0; i < args.size(); ++i) {
      Result<NodePtr> cast = CastTo(std::move(args[i]), cast_to[i]);
      if (!cast.ok()) return TypeError(expr, cast.status().message());
      node->children.push_back(std::move(cast).value());
    }
    return node;
  }

  // A list function with DuckDB's typing of its arguments (literals adapting) and messages.
  Result<NodePtr> MakeListCall(FunctionId id, const std::string& name, std::vector<NodePtr> args) {
    std::vector<ListArgument> list_args;
    for (const NodePtr& arg : args) {
      ListArgument& list_arg = list_args.emplace_back();
      list_arg.type = arg->type;
      list_arg.constant = arg->kind == BoundKind::kConstant ? &arg->constant : nullptr;
      list_arg.integer_literal = arg->integer_literal;
      list_arg.string_literal = arg->string_literal;
    }
    std::vector<DataType> cast_to;
    DataType result;
    TARN_RETURN_NOT_OK(IsListFunction(id)
                           ? ResolveListFunctionTypes(id, name, list_args, &cast_to, &result)
                           : ResolveListAggregateTypes(id, name, list_args, &cast_to, &result));
    auto node = MakeNode(BoundKind::kFunction, result);
    node->function = id;
    node->name = name;
    for (size_t i = 0; i < args.size(); ++i) {
      TARN_ASSIGN_OR_RETURN(NodePtr cast, CastTo(std::move(args[i]), cast_to[i]));
      node->children.push_back(std::move(cast));
    }
    return node;
  }

  // list_transform / list_filter / list_reduce (and aliases) with a lambda: the lambda's body
  // is bound with its parameters in scope (BindColumn finds them before the columns).
  [[gnu::noinline]] Result<NodePtr> BindLambdaCall(const Expr& expr, FunctionId id,
                                                   const std::string& name) {
    const size_t n = expr.children.size();
    const bool reduce = id == FunctionId::kListReduce;
    bool fits = (n == 2 || (reduce && n == 3)) && expr.names.size() <= 1;
    for (size_t i = 0; fits && i < n; ++i) {
      fits = (expr.children[i]->kind == ExprKind::kLambda) == (i == 1);
    }
    if (!fits) {
      // DuckDB's message names each argument's type, a lambda as LAMBDA.
      std::vector<ListArgument> shown(n);
      for (size_t i = 0; i < n; ++i) {
        if (expr.children[i]->kind == ExprKind::kLambda) {
          shown[i].lambda = true;
          continue;
        }
        TARN_ASSIGN_OR_RETURN(NodePtr arg, Bind(*expr.children[i]));
        shown[i].type = arg->type;
        shown[i].integer_literal = arg->integer_literal;
        shown[i].string_literal = arg->string_literal;
      }
      return NoListFunctionMatch(name, shown);
    }
    const Expr& lambda = *expr.children[1];
    TARN_ASSIGN_OR_RETURN(NodePtr list, Bind(*expr.children[0]));
    TARN_RETURN_NOT_OK(CheckLambda(id, lambda, list->type));
    DataType element = list->type.id == TypeId::kList ? list->type.children[0].type
                                                      : DataType(TypeId::kNull);
    NodePtr initial;
    if (n == 3) {
      TARN_ASSIGN_OR_RETURN(initial, Bind(*expr.children[2]));
      TARN_ASSIGN_OR_RETURN(DataType accumulator, ReduceAccumulatorType(element, *initial));
      if (accumulator != element && list->type.id == TypeId::kList) {
        TARN_ASSIGN_OR_RETURN(list, CastTo(std::move(list), DataType::List(accumulator)));
      }
      TARN_ASSIGN_OR_RETURN(initial, CastTo(std::move(initial), accumulator));
      element = accumulator;
    }
    const size_t base = lambda_params_.size();
    if (reduce) lambda_params_.push_back({lambda.names[0], element});
    lambda_params_.push_back({lambda.names[reduce ? 1 : 0], element});
    if (lambda.names.size() > (reduce ? 2u : 1u)) {
      lambda_params_.push_back({lambda.names.back(), DataType(TypeId::kInt64)});
    }
    Result<NodePtr> bound_body = Bind(*lambda.children[0]);
    lambda_params_.resize(base);
    TARN_RETURN_NOT_OK(bound_body.status());
    NodePtr body = std::move(bound_body).value();
    DataType type;
    if (id == FunctionId::kListTransform) {
      type = DataType::List(body->type);
    } else if (id == FunctionId::kListFilter) {
      TARN_ASSIGN_OR_RETURN(body, CastTo(std::move(body), kBool));
      type = list->type;
    } else {
      TARN_ASSIGN_OR_RETURN(body, CastTo(std::move(body), element));
      type = element;
    }
    if (list->type.id == TypeId::kNull) return MakeConstant(Value());
    if (list->kind == BoundKind::kConstant && list->constant.is_null()) {
      return MakeConstant(Value::Null(type));
    }
    auto node = MakeNode(BoundKind::kListLambda, type);
    node->function = id;
    node->name = name;
    node->column_index = static_cast<int>(base);
    node->field_index = static_cast<int>(lambda.names.size());
    node->children.push_back(std::move(list));
    node->children.push_back(std::move(body));
    if (initial) node->children.push_back(std::move(initial));
    return node;
  }

  // A lambda anywhere but as the argument of a lambda function. DuckDB reads `a -> b` there
  // as JSON's arrow operator, so an unknown name in it fails first.
  [[gnu::noinline]] Result<NodePtr> BindBareLambda(const Expr& expr) {
    const bool arrow = !expr.lambda_syntax && !expr.children.empty() &&
                       (expr.names.size() == 1 || (expr.names.empty() && expr.children.size() > 1));
    if (arrow) {  // json_extract(left, right)
      std::vector<NodePtr> args;
      if (expr.names.size() == 1) {
        TARN_ASSIGN_OR_RETURN(NodePtr left, Bind(*ast::MakeColumnRef({expr.names[0]})));
        args.push_back(std::move(left));
      } else {
        TARN_ASSIGN_OR_RETURN(NodePtr left, Bind(*expr.children[1]));
        args.push_back(std::move(left));
      }
      TARN_ASSIGN_OR_RETURN(NodePtr right, Bind(*expr.children[0]));
      args.push_back(std::move(right));
      return MakeCall(expr, FunctionId::kJsonExtract, "json_extract", std::move(args));
    }
    if (!expr.lambda_syntax) {
      for (const std::string& param : expr.names) {
        TARN_RETURN_NOT_OK(Bind(*ast::MakeColumnRef({param})).status());
      }
      if (expr.children.size() > 1) TARN_RETURN_NOT_OK(Bind(*expr.children[1]).status());
    }
    return Status::InvalidArgument("Binder Error: invalid lambda expression");
  }

  // s[key] and struct_extract(s, key): a field by name, or by 1-based position in an unnamed
  // struct, with DuckDB's messages.
  Result<NodePtr> StructExtract(const Expr& expr, NodePtr base, const BoundNode& key) {
    const bool unnamed = base->type.IsUnnamedStruct();
    if (key.type.IsInteger() || key.integer_literal) {
      if (!unnamed) {
        return Status::InvalidArgument("Binder Error: struct_extract with an integer key can only "
                                       "be used on unnamed structs, use a string key instead");
      }
      if (key.kind != BoundKind::kConstant || key.constant.is_null()) {
        return Status::InvalidArgument("Binder Error: Key index for struct_extract needs to be a "
                                       "constant positive integer");
      }
      const __int128 index = AsInt128(key.constant);
      const size_t fields = base->type.children.size();
      if (index < 1 || index > static_cast<__int128>(fields)) {
        return Status::InvalidArgument("Binder Error: Key index ", static_cast<int64_t>(index),
                                       " for struct_extract out of range - expected an index "
                                       "between 1 and ", fields);
      }
      auto node = MakeNode(BoundKind::kField, base->type.children[static_cast<size_t>(index - 1)].type);
      node->field_index = static_cast<int>(index - 1);
      node->name = std::to_string(static_cast<int64_t>(index));
      node->children.push_back(std::move(base));
      return node;
    }
    if (key.kind != BoundKind::kConstant || key.type.id != TypeId::kVarchar ||
        key.constant.is_null()) {
      return Status::InvalidArgument("Binder Error: Key name for struct_extract needs to be a "
                                     "constant string");
    }
    if (unnamed) {
      return Status::InvalidArgument("Binder Error: struct_extract with a string key cannot be "
                                     "used on an unnamed struct, use a numeric index instead");
    }
    const std::string& name = key.constant.GetBytes();
    std::string candidates;
    for (const Field& field : base->type.children) {
      if (NamesMatch(field.name, name)) return FieldAccess(expr, std::move(base), field.name);
      candidates += (candidates.empty() ? "\"" : ", \"") + field.name + "\"";
    }
    return Status::InvalidArgument("Binder Error: Could not find key \"", name,
                                   "\" in struct\nCandidate Entries: ", candidates);
  }

  [[gnu::noinline]] Result<NodePtr> BindFunction(const Expr& expr) {
    std::string name = expr.names[0];
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (expr.has_filter || !expr.arg_orders.empty()) {
      return Status::InvalidArgument("Invalid Input Error: Function \"", name,
                                     "\" is a Scalar Function. \"DISTINCT\", \"FILTER\", and "
                                     "\"ORDER BY\" are only applicable to aggregate functions.");
    }
    // mod(a, b), divide(a, b), add, subtract, multiply, date_add: the operators.
    static constexpr std::pair<std::string_view, ast::Op> kOperatorFunctions[] = {
        {"mod", ast::Op::kModulo}, {"divide", ast::Op::kIntDivide}, {"add", ast::Op::kAdd},
        {"subtract", ast::Op::kSubtract}, {"multiply", ast::Op::kMultiply},
        {"date_add", ast::Op::kAdd}};
    for (const auto& [function, op] : kOperatorFunctions) {
      if (name != function || expr.children.size() != 2 ||
          (session_macros != nullptr && LookupFunction(name, 2) != FunctionId::kNone)) {
        continue;
      }
      auto binary = std::make_unique<Expr>();
      binary->kind = ExprKind::kBinary;
      binary->op = op;
      binary->children.push_back(expr.children[0]->Clone());
      binary->children.push_back(expr.children[1]->Clone());
      binary->range = expr.range;
      ast::UpdateHeight(binary.get());
      return Bind(*binary);
    }
    if (session_macros != nullptr && !IsBinderFunction(name) &&
        LookupFunction(name, expr.children.size()) == FunctionId::kNone) {
      // A lake macro's call: bound as its expansion.
      std::unique_ptr<Expr> call = expr.Clone();
      TARN_RETURN_NOT_OK((*session_macros)(&call));
      if (call->kind != ExprKind::kFunction || !NamesMatch(call->names[0], expr.names[0])) {
        return Bind(*call);
      }
    }
    const FunctionId list_id = LookupListFunction(name);
    if (list_id == FunctionId::kListTransform || list_id == FunctionId::kListFilter ||
        list_id == FunctionId::kListReduce) {
      return BindLambdaCall(expr, list_id, name);
    }
    for (const auto& child : expr.children) {
      if (child->kind != ExprKind::kLambda) continue;
      return Status::InvalidArgument("Binder Error: ",
                                     child->lambda_syntax ? "" : "failed to bind function, either: ",
                                     "This scalar function does not support lambdas!");
    }
    std::vector<NodePtr> args;
    for (const auto& child : expr.children) {
      TARN_ASSIGN_OR_RETURN(auto node, Bind(*child));
      args.push_back(std::move(node));
    }
    if (name == "row" || (name == "struct_pack" && expr.names.size() == args.size() + 1)) {
      // row(a, b): an unnamed struct; struct_pack(a := x, b := y): a named one.
      const bool named = name == "struct_pack";
      std::vector<Field> fields;
      for (size_t i = 0; i < args.size(); ++i) {
        const std::string field = named ? expr.names[i + 1] : std::string();
        if (named && field.empty()) {
          return TypeError(expr, "struct_pack needs named arguments: write {'name': value}");
        }
        fields.emplace_back(field, args[i]->type);
      }
      auto node = MakeNode(BoundKind::kFunction, DataType::Struct(std::move(fields)));
      node->function = FunctionId::kStructPack;
      node->name = name;
      node->children = std::move(args);
      return node;
    }
    if (name == "struct_extract" && args.size() == 2) {
      if (args[0]->type.id != TypeId::kStruct) {
        return TypeError(expr, StrCat("struct_extract needs a STRUCT, not ",
                                      args[0]->type.ToString()));
      }
      return StructExtract(expr, std::move(args[0]), *args[1]);
    }
    if (expr.distinct) return TypeError(expr, "DISTINCT is only allowed in aggregates");
    if (name == "now" || name == "get_current_timestamp" || name == "transaction_timestamp" ||
        name == "current_timestamp" || name == "current_date" || name == "today") {
      // The time the statement is bound, as a constant: TIMESTAMP WITH TIME ZONE, or DATE.
      if (!args.empty()) return TypeError(expr, StrCat(name, "() takes no arguments"));
      const int64_t micros = StatementTimeMicros();
      if (name == "current_date" || name == "today") {
        constexpr int64_t kMicrosPerDay = 86'400'000'000;
        return MakeConstant(Value::Int(DataType(TypeId::kDate), micros / kMicrosPerDay));
      }
      return MakeConstant(Value::Int(DataType(TypeId::kTimestampTz), micros));
    }
    if (name == "getvariable") {
      if (args.size() != 1 || args[0]->kind != BoundKind::kConstant) {
        return TypeError(expr, "getvariable takes one constant name");
      }
      const Value& key = args[0]->constant;
      if (key.is_null() || key.type().id != TypeId::kVarchar) {
        return TypeError(expr, "getvariable takes a VARCHAR name");
      }
      if (session_variables != nullptr) {
        auto it = session_variables->find(key.GetBytes());
        if (it != session_variables->end()) return MakeConstant(it->second);
      }
      return MakeConstant(Value());
    }
    if (name == "current_setting") {
      if (args.size() != 1 || args[0]->kind != BoundKind::kConstant ||
          args[0]->constant.is_null() || args[0]->constant.type().id != TypeId::kVarchar) {
        return TypeError(expr, "current_setting takes one constant VARCHAR name");
      }
      std::string key = args[0]->constant.GetBytes();
      for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (session_settings != nullptr) {
        auto it = session_settings->find(key);
        if (it != session_settings->end()) return MakeConstant(it->second);
      }
      std::string message = StrCat("Catalog Error: unrecognized configuration parameter \"",
                                   args[0]->constant.GetBytes(), "\"");
      if (session_settings != nullptr) {
        std::vector<std::string> names;
        for (const auto& [setting, value] : *session_settings) names.push_back(setting);
        std::vector<std::string> closest = ClosestNames(key, names);
        if (!closest.empty()) message += "; did you mean \"" + closest[0] + "\"?";
      }
      return Status::InvalidArgument(message);
    }
    if (name == "typeof") {
      // The argument's type as DuckDB names it: a constant, whatever the rows hold.
      if (args.size() != 1) return TypeError(expr, "typeof takes exactly one argument");
      return MakeConstant(Value::Varchar(args[0]->type.ToString()));
    }
    if (name == "coalesce" || name == "ifnull") {
      if (args.empty()) return TypeError(expr, "coalesce needs at least one argument");
      DataType type;
      TARN_RETURN_NOT_OK(Unify(expr, Mix::kCoalesce, &args, &type));
      auto node = MakeNode(BoundKind::kCoalesce, type);
      node->children = std::move(args);
      return node;
    }
    FunctionId id = LookupFunction(name, args.size());
    if (id == FunctionId::kLength && args.size() == 1 && args[0]->type.id == TypeId::kList) {
      id = FunctionId::kListLength;  // len([1, 2]): the list's length
    }
    if (id == FunctionId::kContains && args.size() == 2 && args[0]->type.id == TypeId::kList) {
      id = FunctionId::kListContains;  // contains([1, 2], 1): list_contains
    }
    if (id == FunctionId::kListValue) return BindListValue(expr, std::move(args));
    if (id == FunctionId::kStructPack) {
      return TypeError(expr, "struct_pack needs named arguments: write {'name': value}");
    }
    if (id == FunctionId::kNone && name == "unnest") {
      // The planner takes UNNEST out of a select list and FROM; anywhere else it is refused.
      return Status::InvalidArgument("Binder Error: UNNEST not supported here");
    }
    if (id == FunctionId::kNone) {
      std::vector<std::string> known = {"abs", "round", "floor", "ceil", "sqrt", "ln", "log",
                                        "exp", "power", "greatest", "least", "length", "lower",
                                        "upper", "trim", "ltrim", "rtrim", "substring", "concat",
                                        "replace", "starts_with", "ends_with", "contains",
                                        "strpos", "left", "right", "isnan", "isinf", "date_part",
                                        "date_trunc", "year", "month", "day", "coalesce", "nullif",
                                        "map", "range", "md5", "to_timestamp", "trunc",
                                        "list_value", "to_seconds", "typeof", "regexp_matches",
                                        "regexp_full_match", "regexp_extract",
                                        "regexp_extract_all", "regexp_replace",
                                        "regexp_split_to_array", "strftime", "strptime",
                                        "date_diff", "make_date", "make_timestamp", "dayname",
                                        "monthname", "last_day", "epoch_ms", "dayofweek",
                                        "dayofyear", "quarter", "week", "isodow"};
      // DuckDB's wording, with its one closest name.
      std::string message =
          StrCat("Catalog Error: Scalar Function with name ", expr.names[0], " does not exist!");
      std::vector<std::string> closest = ClosestNames(expr.names[0], known);
      if (!closest.empty()) message += "\nDid you mean \"" + closest[0] + "\"?";
      return Status::NotFound(message);
    }
    if (expr.names.size() > 1) {
      return TypeError(expr, StrCat("function ", expr.names[0],
                                    " takes no named arguments (name := value): only macros do"));
    }
    if (id == FunctionId::kNullIf) {
      // DuckDB's nullif(a, b) is CASE WHEN a = b THEN NULL ELSE a END: the type of a.
      if (args.size() != 2) return TypeError(expr, "nullif needs two arguments");
      TARN_ASSIGN_OR_RETURN(auto again, Bind(*expr.children[0]));
      TARN_ASSIGN_OR_RETURN(auto equal, Compare(expr, Op::kEqual, std::move(args[0]), std::move(args[1])));
      auto node = MakeNode(BoundKind::kCase, again->type);
      node->children.push_back(std::move(equal));
      node->children.push_back(MakeConstant(Value::Null(again->type)));
      node->children.push_back(std::move(again));
      return node;
    }
    if (id == FunctionId::kRegexpExtract && args.size() > 2 &&
        args[2]->kind == BoundKind::kFunction && args[2]->function == FunctionId::kListValue) {
      // regexp_extract(s, p, ['a', 'b']): the group names are needed while binding.
      std::vector<Value> names;
      for (const auto& item : args[2]->children) {
        if (item->kind != BoundKind::kConstant) break;
        names.push_back(item->constant);
      }
      if (names.size() == args[2]->children.size()) {
        args[2] = MakeConstant(Value::Nested(args[2]->type, std::move(names)));
      }
    }
    if (id == FunctionId::kGreatest || id == FunctionId::kLeast) {
      if (args.empty()) return TypeError(expr, StrCat(name, " needs arguments"));
      DataType type;
      TARN_RETURN_NOT_OK(Unify(expr, Mix::kCombine, &args, &type));
    }
    return MakeCall(expr, id, name, std::move(args));
  }

  static constexpr int64_t kMaxBinds = int64_t{1} << 20;
  const Schema& schema_;
  int64_t binds_ = 0;  // Bind calls so far, at most kMaxBinds
  // The parameters of the lambdas being bound, the outermost first: a parameter's slot is its
  // position here (bound.h kLambdaParam).
  struct LambdaParam {
    std::string name;
    DataType type;
  };
  std::vector<LambdaParam> lambda_params_;
};

}  // namespace

Result<std::unique_ptr<BoundNode>> BindExpr(const ast::Expr& expr, const Schema& schema) {
  return Binder(schema).Bind(expr);
}

}  // namespace tarn::expr
