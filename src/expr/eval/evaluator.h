// Vectorized evaluation of a bound expression over a batch.
//
// Each node evaluates to a column (or a one-row constant that broadcasts). Comparisons, AND /
// OR / NOT, IS NULL, IN over constant lists, arithmetic (integers, floats, decimals, calendar
// arithmetic), the common casts (cast_kernels.cc) and the common functions
// (function_kernels.h) run as typed loops over the buffers; what remains goes row by row
// through Values. CASE and COALESCE evaluate each branch only on the rows that reach it, as
// DuckDB does, so a guarded branch cannot raise an error for rows it does not own; each row then
// takes its value from the branch that decided it. Lambdas (lambda_functions.h) evaluate their
// body over the elements of the batch's lists.
//
// Thread-safety: evaluation reads the batch and the bound tree only.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "expr/bind/bound.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

// A result: a column of `length` rows, or of one row when `constant`.
struct Vec {
  std::shared_ptr<Column> column;
  bool constant = false;
};

Result<Vec> EvaluateVec(const BoundNode& node, const Batch& batch);
// The same inside a lambda's body: lambda parameter slot k (bound.h kLambdaParam) reads
// params[k], a column of batch.num_rows rows.
Result<Vec> EvaluateVec(const BoundNode& node, const Batch& batch,
                        std::vector<std::shared_ptr<Column>> params);
// Expands a constant to `rows` rows (a column is returned as is).
std::shared_ptr<Column> Broadcast(const Vec& vec, int64_t rows);

// The subexpressions several trees share: nodes that compute something (not a column, a
// constant or a lambda's parameter), call nothing volatile and are structurally equal to
// another node of the trees; equal nodes share a slot.
struct SharedNodes {
  std::unordered_map<const BoundNode*, int> slot_of;
  int slots = 0;
};
SharedNodes FindSharedNodes(const std::vector<const BoundNode*>& roots);
// Evaluates each root over `batch` (a null root gives an empty Vec), the nodes of `shared`
// once per slot.
Result<std::vector<Vec>> EvaluateShared(const std::vector<const BoundNode*>& roots,
                                        const SharedNodes& shared, const Batch& batch);

}  // namespace tarn::expr
