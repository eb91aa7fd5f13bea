#include "expr/parse/ast.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <string_view>

namespace tarn::ast {
namespace {

// Levels, loosest first. kPrimary covers literals, names, calls, CASE and parentheses.
enum Level : int {
  kOr = 1, kAnd, kNot, kIs, kCompare, kLikeInBetween, kOther, kAdditive, kMultiplicative,
  kPower, kUnaryMinus, kPostfixCast, kSubscript, kPrimary,
};

constexpr std::string_view kReserved[] = {
    "ALL", "AND", "ANY", "AS", "ASC", "BETWEEN", "BY", "CASE", "CAST", "CREATE", "DESC",
    "DISTINCT", "DROP", "ELSE", "END", "ESCAPE", "EXCEPT", "FALSE", "FOR", "FROM", "GLOB",
    "GROUP", "HAVING", "ILIKE", "IN", "INTERSECT", "INTERVAL", "IS", "ISNULL", "JOIN", "LIKE",
    "LIMIT", "NOT", "NOTNULL", "NULL", "OFFSET", "ON", "OR", "ORDER", "SELECT", "SIMILAR",
    "THEN", "TRUE", "UNION", "USING", "WHEN", "WHERE", "WITH",
};

std::string Upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::string QuoteString(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    out.push_back(c);
    if (c == '\'') out.push_back('\'');
  }
  out.push_back('\'');
  return out;
}

// Prints `child` wrapped in parentheses when it binds looser than `min_level`.
std::string Sub(const Expr& child, int min_level) {
  std::string s = child.ToString();
  if (Precedence(child) < min_level) return "(" + s + ")";
  return s;
}

int BinaryLevel(Op op) {
  switch (op) {
    case Op::kOr: return kOr;
    case Op::kAnd: return kAnd;
    case Op::kEqual: case Op::kNotEqual: case Op::kLess: case Op::kLessEqual:
    case Op::kGreater: case Op::kGreaterEqual: return kCompare;
    case Op::kIsDistinctFrom: case Op::kIsNotDistinctFrom: return kIs;
    case Op::kConcat: case Op::kBitAnd: case Op::kBitOr: case Op::kShiftLeft:
    case Op::kShiftRight: case Op::kJsonExtractText: return kOther;
    case Op::kAdd: case Op::kSubtract: return kAdditive;
    case Op::kMultiply: case Op::kDivide: case Op::kIntDivide: case Op::kModulo:
      return kMultiplicative;
    case Op::kPower: return kPower;
    default: return kPrimary;
  }
}

}  // namespace

const char* OpName(Op op) {
  switch (op) {
    case Op::kNone: return "";
    case Op::kNegate: return "-";
    case Op::kPlus: return "+";
    case Op::kNot: return "NOT";
    case Op::kAdd: return "+";
    case Op::kSubtract: return "-";
    case Op::kMultiply: return "*";
    case Op::kDivide: return "/";
    case Op::kIntDivide: return "//";
    case Op::kModulo: return "%";
    case Op::kPower: return "^";
    case Op::kConcat: return "||";
    case Op::kBitNot: return "~";
    case Op::kBitAnd: return "&";
    case Op::kBitOr: return "|";
    case Op::kShiftLeft: return "<<";
    case Op::kShiftRight: return ">>";
    case Op::kJsonExtractText: return "->>";
    case Op::kEqual: return "=";
    case Op::kNotEqual: return "<>";
    case Op::kLess: return "<";
    case Op::kLessEqual: return "<=";
    case Op::kGreater: return ">";
    case Op::kGreaterEqual: return ">=";
    case Op::kIsDistinctFrom: return "IS DISTINCT FROM";
    case Op::kIsNotDistinctFrom: return "IS NOT DISTINCT FROM";
    case Op::kAnd: return "AND";
    case Op::kOr: return "OR";
    case Op::kLike: return "LIKE";
    case Op::kILike: return "ILIKE";
    case Op::kGlob: return "GLOB";
  }
  return "?";
}

int Precedence(const Expr& expr) {
  switch (expr.kind) {
    case ExprKind::kUnary:
      return expr.op == Op::kNot ? kNot : kUnaryMinus;
    case ExprKind::kBinary: return BinaryLevel(expr.op);
    case ExprKind::kIsNull: return kIs;
    case ExprKind::kIn: case ExprKind::kBetween: case ExprKind::kLike: return kLikeInBetween;
    case ExprKind::kCast: return expr.is_postfix ? kPostfixCast : kPrimary;
    case ExprKind::kSubscript: case ExprKind::kField: return kSubscript;
    case ExprKind::kLambda: return kOr - 1;  // looser than everything: `x -> a OR b`
    default: return kPrimary;
  }
}

std::string QuoteIdentifier(const std::string& name) {
  bool plain = !name.empty() && (std::islower(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name) {
    if (!(std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) ||
          c == '_')) {
      plain = false;
    }
  }
  if (plain) {
    std::string upper = Upper(name);
    for (std::string_view word : kReserved) {
      if (upper == word) plain = false;
    }
  }
  if (plain) return name;
  std::string out = "\"";
  for (char c : name) {
    out.push_back(c);
    if (c == '"') out.push_back('"');
  }
  out.push_back('"');
  return out;
}

bool WindowSpec::operator==(const WindowSpec& other) const {
  if (base != other.base || num_args != other.num_args ||
      num_partitions != other.num_partitions || orders.size() != other.orders.size() ||
      has_frame != other.has_frame || unit != other.unit || start != other.start ||
      end != other.end || ignore_nulls != other.ignore_nulls) {
    return false;
  }
  for (size_t i = 0; i < orders.size(); ++i) {
    if (orders[i].descending != other.orders[i].descending ||
        orders[i].nulls_first != other.orders[i].nulls_first) {
      return false;
    }
  }
  return true;
}

namespace {

const char* FrameUnitName(FrameUnit unit) {
  switch (unit) {
    case FrameUnit::kRows: return "ROWS";
    case FrameUnit::kRange: return "RANGE";
    case FrameUnit::kGroups: return "GROUPS";
  }
  return "?";
}

std::string FrameBoundText(FrameBound bound, const Expr* offset) {
  switch (bound) {
    case FrameBound::kUnboundedPreceding: return "UNBOUNDED PRECEDING";
    case FrameBound::kPreceding: return offset->ToString() + " PRECEDING";
    case FrameBound::kCurrentRow: return "CURRENT ROW";
    case FrameBound::kFollowing: return offset->ToString() + " FOLLOWING";
    case FrameBound::kUnboundedFollowing: return "UNBOUNDED FOLLOWING";
  }
  return "?";
}

}  // namespace

std::string WindowText(const Expr& expr, const std::function<std::string(const Expr&)>& show) {
  const WindowSpec& w = *expr.window;
  std::string out;
  auto add = [&](const std::string& part) {
    if (!out.empty()) out += " ";
    out += part;
  };
  if (!w.base.empty()) add(QuoteIdentifier(w.base));
  size_t index = static_cast<size_t>(w.num_args);
  if (w.num_partitions > 0) {
    std::string part = "PARTITION BY ";
    for (int32_t i = 0; i < w.num_partitions; ++i) {
      if (i > 0) part += ", ";
      part += show(*expr.children[index++]);
    }
    add(part);
  }
  if (!w.orders.empty()) {
    std::string part = "ORDER BY ";
    for (size_t i = 0; i < w.orders.size(); ++i) {
      if (i > 0) part += ", ";
      part += show(*expr.children[index++]);
      if (w.orders[i].descending) part += " DESC";
      if (w.orders[i].nulls_first >= 0) {
        if (!w.orders[i].descending) part += " ASC";
        part += w.orders[i].nulls_first ? " NULLS FIRST" : " NULLS LAST";
      }
    }
    add(part);
  }
  if (w.has_frame) {
    const Expr* start = HasOffset(w.start) ? expr.children[index++].get() : nullptr;
    const Expr* end = HasOffset(w.end) ? expr.children[index++].get() : nullptr;
    add(std::string(FrameUnitName(w.unit)) + " BETWEEN " + FrameBoundText(w.start, start) +
        " AND " + FrameBoundText(w.end, end));
  }
  return out;
}

std::string Expr::ToString() const {
  switch (kind) {
    case ExprKind::kLiteral:
      switch (literal_kind) {
        case LiteralKind::kNull: return "NULL";
        case LiteralKind::kTrue: return "TRUE";
        case LiteralKind::kFalse: return "FALSE";
        case LiteralKind::kInteger: case LiteralKind::kDecimal: case LiteralKind::kFloat:
          return text;
        case LiteralKind::kString: return QuoteString(text);
        case LiteralKind::kTyped: return type_name + " " + QuoteString(text);
      }
      return text;
    case ExprKind::kColumnRef: {
      std::string out;
      for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0) out += ".";
        out += QuoteIdentifier(names[i]);
      }
      return out;
    }
    case ExprKind::kStar: return text == "DEFAULT" ? "DEFAULT" : "*";
    case ExprKind::kParameter: return text;
    case ExprKind::kUnary: {
      if (op == Op::kNot) return "NOT " + Sub(*children[0], kNot);
      std::string operand = Sub(*children[0], kUnaryMinus);
      // "--" would start a comment.
      if (!operand.empty() && (operand[0] == '-' || operand[0] == '+')) operand = " " + operand;
      return OpName(op) + operand;
    }
    case ExprKind::kBinary: {
      int level = BinaryLevel(op);
      return Sub(*children[0], level) + " " + OpName(op) + " " + Sub(*children[1], level + 1);
    }
    case ExprKind::kIsNull:
      return Sub(*children[0], kIs + 1) + (negated ? " IS NOT NULL" : " IS NULL");
    case ExprKind::kIn: {
      std::string out = Sub(*children[0], kLikeInBetween + 1) + (negated ? " NOT IN (" : " IN (");
      for (size_t i = 1; i < children.size(); ++i) {
        if (i > 1) out += ", ";
        out += children[i]->ToString();
      }
      return out + ")";
    }
    case ExprKind::kBetween:
      return Sub(*children[0], kLikeInBetween + 1) + (negated ? " NOT BETWEEN " : " BETWEEN ") +
             Sub(*children[1], kOther) + " AND " + Sub(*children[2], kOther);
    case ExprKind::kLike: {
      std::string out = Sub(*children[0], kLikeInBetween + 1) + (negated ? " NOT " : " ") +
                        OpName(op) + " " + Sub(*children[1], kLikeInBetween + 1);
      if (children.size() > 2) out += " ESCAPE " + Sub(*children[2], kLikeInBetween + 1);
      return out;
    }
    case ExprKind::kCase: {
      std::string out = "CASE";
      size_t i = 0;
      if (has_operand) out += " " + children[i++]->ToString();
      size_t end = children.size() - (has_else ? 1 : 0);
      for (; i + 2 <= end; i += 2) {
        out += " WHEN " + children[i]->ToString() + " THEN " + children[i + 1]->ToString();
      }
      if (has_else) out += " ELSE " + children.back()->ToString();
      return out + " END";
    }
    case ExprKind::kCast:
      if (is_postfix) return Sub(*children[0], kPostfixCast) + "::" + type_name;
      return std::string(try_cast ? "TRY_CAST(" : "CAST(") + children[0]->ToString() + " AS " +
             type_name + ")";
    case ExprKind::kFunction: {
      bool plain = !names[0].empty();
      for (char c : names[0]) {
        plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '#');
      }
      std::string out = (plain ? names[0] : QuoteIdentifier(names[0])) + "(";
      if (distinct) out += "DISTINCT ";
      const size_t args = num_args();
      for (size_t i = 0; i < args; ++i) {
        if (i > 0) out += ", ";
        if (i + 1 < names.size() && !names[i + 1].empty()) {
          out += QuoteIdentifier(names[i + 1]) + " := ";
        }
        out += children[i]->ToString();
      }
      for (size_t k = 0; k < arg_orders.size(); ++k) {
        out += k == 0 ? " ORDER BY " : ", ";
        out += children[args + k]->ToString();
        if (arg_orders[k].descending) out += " DESC";
        if (arg_orders[k].nulls_first >= 0) {
          out += arg_orders[k].nulls_first ? " NULLS FIRST" : " NULLS LAST";
        }
      }
      out += ")";
      if (has_filter) out += " FILTER (WHERE " + children.back()->ToString() + ")";
      return out;
    }
    case ExprKind::kSubscript:
      return Sub(*children[0], kSubscript) + "[" + children[1]->ToString() + "]";
    case ExprKind::kField:
      return Sub(*children[0], kSubscript) + "." + QuoteIdentifier(names[0]);
    case ExprKind::kList: {
      std::string out = "[";
      for (size_t i = 0; i < children.size(); ++i) {
        if (i > 0) out += ", ";
        out += children[i]->ToString();
      }
      return out + "]";
    }
    case ExprKind::kStruct: {
      std::string out = "{";
      for (size_t i = 0; i < children.size(); ++i) {
        if (i > 0) out += ", ";
        out += QuoteString(names[i]) + ": " + children[i]->ToString();
      }
      return out + "}";
    }
    case ExprKind::kLambda: {
      std::string params;
      for (size_t i = 0; i < names.size(); ++i) {
        if (i > 0) params += ", ";
        params += QuoteIdentifier(names[i]);
      }
      const std::string body = children[0]->ToString();
      if (lambda_syntax) return "lambda " + params + ": " + body;
      if (names.empty()) return Sub(*children[1], kOr) + " -> " + body;
      return (names.size() == 1 ? params : "(" + params + ")") + " -> " + body;
    }
    case ExprKind::kWindow: {
      auto show = [](const Expr& e) { return e.ToString(); };
      std::string spec = "(" + WindowText(*this, show) + ")";
      if (names.empty()) return spec;
      std::string out = names[0] + "(";
      if (distinct) out += "DISTINCT ";
      for (int32_t i = 0; i < window->num_args; ++i) {
        if (i > 0) out += ", ";
        out += children[static_cast<size_t>(i)]->ToString();
      }
      out += window->ignore_nulls ? " IGNORE NULLS)" : ")";
      return out + " OVER " + spec;
    }
  }
  return "?";
}

std::unique_ptr<Expr> Expr::Clone() const {
  auto copy = std::make_unique<Expr>();
  copy->kind = kind;
  copy->op = op;
  copy->literal_kind = literal_kind;
  copy->negated = negated;
  copy->has_operand = has_operand;
  copy->has_else = has_else;
  copy->try_cast = try_cast;
  copy->is_postfix = is_postfix;
  copy->distinct = distinct;
  copy->has_filter = has_filter;
  copy->arg_orders = arg_orders;
  copy->lambda_syntax = lambda_syntax;
  copy->text = text;
  copy->type_name = type_name;
  copy->names = names;
  copy->range = range;
  copy->height = height;
  for (const auto& child : children) copy->children.push_back(child->Clone());
  if (window) copy->window = std::make_unique<WindowSpec>(*window);
  return copy;
}

bool Expr::Equals(const Expr& other) const {
  if (kind != other.kind || op != other.op || literal_kind != other.literal_kind ||
      negated != other.negated || has_operand != other.has_operand ||
      has_else != other.has_else || try_cast != other.try_cast || distinct != other.distinct ||
      has_filter != other.has_filter || arg_orders.size() != other.arg_orders.size() ||
      text != other.text || Upper(type_name) != Upper(other.type_name) ||
      children.size() != other.children.size()) {
    return false;
  }
  if (names.size() != other.names.size()) return false;
  if ((window == nullptr) != (other.window == nullptr) || (window && !(*window == *other.window))) {
    return false;
  }
  for (size_t i = 0; i < arg_orders.size(); ++i) {
    if (arg_orders[i].descending != other.arg_orders[i].descending ||
        arg_orders[i].nulls_first != other.arg_orders[i].nulls_first) {
      return false;
    }
  }
  for (size_t i = 0; i < names.size(); ++i) {
    // Function names are case-insensitive; column names keep their spelling.
    if (kind == ExprKind::kFunction ? Upper(names[i]) != Upper(other.names[i])
                                    : names[i] != other.names[i]) {
      return false;
    }
  }
  for (size_t i = 0; i < children.size(); ++i) {
    if (!children[i]->Equals(*other.children[i])) return false;
  }
  return true;
}

void UpdateHeight(Expr* e) {
  int32_t tallest = 0;
  for (const auto& child : e->children) tallest = std::max(tallest, child->height);
  e->height = tallest + 1;
}

std::unique_ptr<Expr> MakeLiteral(LiteralKind literal_kind, std::string text) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kLiteral;
  e->literal_kind = literal_kind;
  e->text = std::move(text);
  return e;
}

std::unique_ptr<Expr> MakeColumnRef(std::vector<std::string> names) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kColumnRef;
  e->names = std::move(names);
  return e;
}

std::unique_ptr<Expr> MakeUnary(Op op, std::unique_ptr<Expr> operand) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kUnary;
  e->op = op;
  e->children.push_back(std::move(operand));
  UpdateHeight(e.get());
  return e;
}

std::unique_ptr<Expr> MakeBinary(Op op, std::unique_ptr<Expr> left, std::unique_ptr<Expr> right) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kBinary;
  e->op = op;
  e->children.push_back(std::move(left));
  e->children.push_back(std::move(right));
  UpdateHeight(e.get());
  return e;
}

std::unique_ptr<Expr> MakeFunction(std::string name, std::vector<std::unique_ptr<Expr>> args) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kFunction;
  e->names.push_back(std::move(name));
  e->children = std::move(args);
  UpdateHeight(e.get());
  return e;
}

std::unique_ptr<Expr> MakeLambda(std::vector<std::string> params, std::unique_ptr<Expr> body,
                                 bool lambda_syntax) {
  auto e = std::make_unique<Expr>();
  e->kind = ExprKind::kLambda;
  e->lambda_syntax = lambda_syntax;
  e->names = std::move(params);
  e->children.push_back(std::move(body));
  UpdateHeight(e.get());
  return e;
}

}  // namespace tarn::ast
