// The bound (resolved, typed) expression tree that the evaluator and pruner walk.
//
// The binder guarantees: operands of comparisons, IN lists, CASE branches and COALESCE share
// one type (implicit casts are explicit kCast nodes); arithmetic children have the types the
// operator's kernel expects; every node's `type` is its result type.
//
// Thread-safety: immutable after binding.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "expr/parse/ast.h"
#include "expr/functions/functions.h"
#include "tarn/columnar.h"
#include "tarn/type.h"

namespace tarn::expr {

enum class BoundKind : uint8_t {
  kConstant,   // constant
  kColumn,     // column_index
  kField,      // children[0] (struct) . field_index
  kListIndex,  // children[0] (list) [children[1] (BIGINT, 1-based)]
  kCast,       // children[0] → type; try_cast
  kNegate,     // -children[0]
  kArith,      // op in {kAdd, kSubtract, kMultiply, kDivide, kIntDivide, kModulo, kPower}
  kCompare,    // op in {kEqual .. kGreaterEqual, kIsDistinctFrom, kIsNotDistinctFrom}
  kAnd,        // n children
  kOr,         // n children
  kNot,
  kIsNull,     // negated: IS NOT NULL
  kIn,         // children[0] [NOT] IN (children[1..]); negated
  kLike,       // children: value, pattern, escape (all VARCHAR); op kLike/kILike; negated
  kCase,       // children: when, then, ..., else (else always present, NULL if unwritten)
  kCoalesce,   // first non-NULL child
  kFunction,   // function, children
  // A lambda's parameter: column_index = its slot, the parameters of the lambdas around it
  // numbered from the outermost (a lambda with parameters x, i inside one with acc, y: acc 0,
  // y 1, x 2, i 3). The evaluator holds one column per slot, a row per list element.
  kLambdaParam,
  // list_transform / list_filter / list_reduce (function) with a lambda: children list, body
  // [, initial value of list_reduce]; column_index = the slot of the lambda's first parameter,
  // field_index = its parameter count. The body is bound with the parameters' types.
  kListLambda,
};

struct BoundNode {
  BoundKind kind = BoundKind::kConstant;
  DataType type;
  ast::Op op = ast::Op::kNone;
  bool negated = false;
  bool try_cast = false;
  // Set on constants written as an integer or string literal: they may still adapt to the
  // other operand's type, as DuckDB's INTEGER_LITERAL / STRING_LITERAL do.
  bool integer_literal = false;
  bool string_literal = false;
  Value constant;
  int column_index = -1;
  int field_index = -1;
  FunctionId function = FunctionId::kNone;
  std::string name;  // column name or function name, for printing
  std::vector<std::unique_ptr<BoundNode>> children;

  std::string ToString() const;
  // No column reference below (a lambda's parameters do not count: they stand for elements
  // of a list below the lambda call).
  bool IsConstant() const;
};

// A deep copy of `node`.
std::unique_ptr<BoundNode> CloneBound(const BoundNode& node);

}  // namespace tarn::expr
