// Lambdas over lists, DuckDB's list_transform(l, x -> f(x)), list_filter(l, x -> p(x)) and
// list_reduce(l, (acc, x) -> g(acc, x) [, initial]) with their aliases (list_functions.h); a
// last extra parameter is the element's 1-based index (BIGINT): (x, i) -> ..., (acc, x, i).
//
// The binder (binder.cc BindLambdaCall) binds the body with the parameters in scope: they hide
// columns of the same name, and the body may read the row's columns (captured: the row's value
// for each of its elements). list_filter casts the body to BOOLEAN and keeps the elements where
// it is TRUE; list_reduce casts it to the accumulator type, the element type (or the common
// type of the elements and the initial value, to which the list is cast).
//
// Evaluation is vectorized: the body is evaluated once over the elements of every list of a
// batch, as a batch of its own with one row per element; its parameters are the element column
// (and an index column), and each column or outer parameter it reads is repeated per element.
// list_reduce steps through the positions, evaluating the body once per step over the lists
// still longer than the step. Errors are DuckDB's ("Cannot perform list_reduce on an empty
// input list", ...).
//
// Thread-safety: pure functions.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "expr/parse/ast.h"
#include "expr/bind/bound.h"
#include "expr/eval/evaluator.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

// DuckDB's errors for a lambda function's list argument and lambda parameters.
Status CheckLambda(FunctionId id, const ast::Expr& lambda, const DataType& list_type);

// list_reduce's accumulator type for a list of `element` and the initial value `initial`.
Result<DataType> ReduceAccumulatorType(const DataType& element, const BoundNode& initial);

// A kListLambda node's value: `inputs` are the values of its list (children[0]) and, for
// list_reduce with one, its initial value (children[2]), over `batch` of `rows` rows whose
// lambda parameters in scope are `params` (one column per slot, bound.h kLambdaParam).
Result<Vec> EvaluateListLambda(const BoundNode& node, const std::vector<Vec>& inputs,
                               const Batch& batch,
                               std::span<const std::shared_ptr<Column>> params, int64_t rows);

}  // namespace tarn::expr
