// The syntax tree of a SQL expression, as written: names unresolved, types unknown.
//
// One node struct with a kind tag (rather than a class per kind) keeps walking, copying and
// printing trivial; each kind documents which fields it uses. The parser builds it, the binder
// (binder.h) resolves it against a schema, and the SQL front end embeds it in statements.
// ToString prints SQL that parses back to an equal tree, with only the parentheses that
// precedence requires.
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tarn::ast {

enum class ExprKind : uint8_t {
  kLiteral,    // literal_kind, text (typed literal: type_name too)
  kColumnRef,  // names: one or more parts (a.b.c); the binder decides column vs. struct field
  kStar,       // * (only as a function argument, e.g. count(*)); text "DEFAULT": DEFAULT as an
               // INSERT ... VALUES value (the column's default)
  kParameter,  // text: "$1" or "?"
  kUnary,      // op (kNegate, kPlus, kNot), children[0]
  kBinary,     // op (arithmetic, comparison, AND, OR, ||, IS [NOT] DISTINCT FROM), 2 children
  kIsNull,     // negated, children[0]
  kIn,         // negated, children[0] IN (children[1..])
  kBetween,    // negated, children: value, low, high
  kLike,       // op (kLike, kILike, kGlob), negated, children: value, pattern [, escape]
  kCase,       // has_operand, has_else; children: [operand] when, then, ..., [else]
  kCast,       // type_name, try_cast; children[0]; is_postfix = written x::T
  // names[0] = function name as written; children = arguments; distinct. With named arguments
  // (f(a, b := 1), for macros) names[1 + i] is child i's name ("" when positional).
  kFunction,
  kSubscript,  // children: base, index (1-based list index)
  kField,      // children[0] . names[0] (field access on a non-name expression)
  kList,       // [children...]: a list literal (DuckDB's list_value)
  kStruct,     // {'names[i]': children[i], ...}: a struct literal (DuckDB's struct_pack)
  // f(args) OVER (...): names[0] = function name, distinct; `window` says how children split
  // into the arguments, PARTITION BY and ORDER BY expressions and the frame offsets. A named
  // window definition (WINDOW w AS (...)) is a kWindow without a function name.
  kWindow,
  // A lambda, `x -> body`, `(x, y) -> body` or `lambda x, y: body` (lambda_syntax): names =
  // the parameters, children[0] = the body. When the left of `->` is no parameter list,
  // names is empty and children[1] keeps it (the binder refuses it with DuckDB's message).
  kLambda,
};

enum class LiteralKind : uint8_t { kNull, kTrue, kFalse, kInteger, kDecimal, kFloat, kString, kTyped };

enum class Op : uint8_t {
  kNone,
  // unary (kBitNot: ~x)
  kNegate, kPlus, kNot, kBitNot,
  // arithmetic
  kAdd, kSubtract, kMultiply, kDivide, kIntDivide, kModulo, kPower, kConcat,
  // bitwise on integers: & | << >>
  kBitAnd, kBitOr, kShiftLeft, kShiftRight,
  // JSON: j ->> path (json_extract_string)
  kJsonExtractText,
  // comparison
  kEqual, kNotEqual, kLess, kLessEqual, kGreater, kGreaterEqual,
  kIsDistinctFrom, kIsNotDistinctFrom,
  // logic
  kAnd, kOr,
  // LIKE family
  kLike, kILike, kGlob,
};

// A window frame: ROWS, RANGE or GROUPS BETWEEN start AND end, each bound UNBOUNDED
// PRECEDING / FOLLOWING, CURRENT ROW or an offset PRECEDING / FOLLOWING.
enum class FrameUnit : uint8_t { kRows, kRange, kGroups };
enum class FrameBound : uint8_t {
  kUnboundedPreceding, kPreceding, kCurrentRow, kFollowing, kUnboundedFollowing,
};
inline bool HasOffset(FrameBound bound) {
  return bound == FrameBound::kPreceding || bound == FrameBound::kFollowing;
}

struct WindowOrder {
  bool descending = false;
  int8_t nulls_first = -1;  // -1: not written (NULLS LAST), 0: NULLS LAST, 1: NULLS FIRST
  bool ascending_written = false;  // ASC written out (DuckDB names such a column differently)
};

// What OVER (...) says besides its expressions. The kWindow node's children are, in order:
// num_args arguments, num_partitions PARTITION BY expressions, one ORDER BY expression per
// `orders` entry, then the start offset (when HasOffset(start)) and the end offset (when
// HasOffset(end)).
struct WindowSpec {
  std::string base;  // OVER w / OVER (w ...): the named window this one extends; else empty
  int32_t num_args = 0;
  int32_t num_partitions = 0;
  std::vector<WindowOrder> orders;
  bool has_frame = false;  // false: DuckDB's default frame
  FrameUnit unit = FrameUnit::kRange;
  FrameBound start = FrameBound::kUnboundedPreceding;
  FrameBound end = FrameBound::kCurrentRow;
  bool ignore_nulls = false;  // lag(x IGNORE NULLS), first_value(...) IGNORE NULLS

  size_t order_begin() const { return static_cast<size_t>(num_args + num_partitions); }
  size_t offsets_begin() const { return order_begin() + orders.size(); }
  bool operator==(const WindowSpec& other) const;
};

// Where a node came from in the source text (bytes), for error messages.
struct SourceRange {
  int32_t offset = 0;
  int32_t length = 0;
};

struct Expr {
  ExprKind kind = ExprKind::kLiteral;
  Op op = Op::kNone;
  LiteralKind literal_kind = LiteralKind::kNull;
  bool negated = false;
  bool has_operand = false;
  bool has_else = false;
  bool try_cast = false;
  bool is_postfix = false;
  bool distinct = false;
  bool has_filter = false;  // kFunction: the last child is the condition of FILTER (WHERE ...)
  // kFunction: f(args ORDER BY k1 [DESC], ...), an ordered aggregate. The keys are children
  // after the arguments (before a FILTER condition), one per entry.
  std::vector<WindowOrder> arg_orders;
  bool lambda_syntax = false;  // kLambda: written `lambda x: body` rather than `x -> body`
  std::string text;       // literal value (unescaped), parameter spelling
  std::string type_name;  // kCast target, kTyped literal type (as written)
  std::vector<std::string> names;
  std::vector<std::unique_ptr<Expr>> children;
  std::unique_ptr<WindowSpec> window;  // kWindow only
  SourceRange range;
  // Nodes on the longest path from this one down to a leaf (1 for a leaf), as set by the
  // builders below and the parser (UpdateHeight); the parser refuses trees taller than its
  // limit, which keeps every recursive walk of a tree (binding, printing, destruction) within
  // the stack. Code that edits children afterwards need not maintain it.
  int32_t height = 1;

  Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;

  std::unique_ptr<Expr> Clone() const;
  // kFunction: the number of arguments (children before ORDER BY keys and FILTER).
  size_t num_args() const {
    return children.size() - arg_orders.size() - (has_filter ? 1 : 0);
  }
  // SQL text that parses back to an equal tree.
  std::string ToString() const;
  // Structural equality (ignores ranges and how a cast was written).
  bool Equals(const Expr& other) const;
};

// Spelling of an operator: "+", "AND", "IS DISTINCT FROM", "LIKE".
const char* OpName(Op op);
// Binding strength, higher binds tighter (DuckDB's PostgreSQL-derived order).
int Precedence(const Expr& expr);

// Sets e->height from its children's heights.
void UpdateHeight(Expr* e);

// Builders used by the parser and by code that synthesizes expressions (heights set).
std::unique_ptr<Expr> MakeLiteral(LiteralKind kind, std::string text);
std::unique_ptr<Expr> MakeColumnRef(std::vector<std::string> names);
std::unique_ptr<Expr> MakeUnary(Op op, std::unique_ptr<Expr> operand);
std::unique_ptr<Expr> MakeBinary(Op op, std::unique_ptr<Expr> left, std::unique_ptr<Expr> right);
std::unique_ptr<Expr> MakeFunction(std::string name, std::vector<std::unique_ptr<Expr>> args);
std::unique_ptr<Expr> MakeLambda(std::vector<std::string> params, std::unique_ptr<Expr> body,
                                 bool lambda_syntax);

// The inside of a kWindow node's OVER (...): "PARTITION BY a ORDER BY b DESC ROWS BETWEEN ...",
// each expression printed by `show`.
std::string WindowText(const Expr& expr, const std::function<std::string(const Expr&)>& show);

// Quotes an identifier when it is not a plain lower-case word or is a reserved word.
std::string QuoteIdentifier(const std::string& name);

// DuckDB's spelling of an expression (its ParsedExpression::ToString): every operator and
// comparison parenthesized ("(id + 0)"), function names lower-case, casts as CAST(x AS T),
// identifiers quoted only when they hold other characters than letters, digits and '_' or are
// keywords. The DuckLake extension stores sort-key expressions in this form
// (ducklake_sort_expression.expression), so tarn writes them the same way.
std::string ToDuckDBText(const Expr& expr);
std::string DuckDBIdentifier(const std::string& name);

}  // namespace tarn::ast
