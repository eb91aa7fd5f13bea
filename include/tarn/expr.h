// SQL expressions and predicates: parse, bind, evaluate on batches, prune on statistics.
//
// The life of an expression:
//   text --ParseExpression--> ast::Expr (syntax only; see expr/parse/ast.h)
//        --Bind(schema)--> BoundExpr (names resolved to column indices, every node typed by
//                          DuckDB's rules, implicit casts made explicit)
//        --Evaluate(batch)--> a Column of type() with one value per row
//        --MakeStatisticsPredicate--> a pruner for row groups and files.
// Semantics follow DuckDB: NULL propagation and three-valued logic; NaN equal to itself and
// above every number (so NaN > 'inf' is true); -0.0 = 0.0; `/` on integers gives DOUBLE, `//`
// truncates; integer overflow is an error; strings compare byte-wise.
//
// The SQL front end reuses this module: the tokenizer (expr/parse/lexer.h) and expression parser
// (expr/parse/parser.h) parse expressions inside statements; BoundExpr evaluates SELECT lists and
// WHERE clauses.
//
// Thread-safety: a BoundExpr is immutable after Bind and may be evaluated from many threads
// at once.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "expr/parse/ast.h"
#include "tarn/columnar.h"
#include "tarn/parquet.h"
#include "tarn/status.h"
#include "tarn/type.h"

namespace tarn {

namespace expr {
struct BoundNode;
struct SharedNodes;
}  // namespace expr

// Parses one expression. A syntax error is InvalidArgument with line, column and a caret
// excerpt: "syntax error at or near \"FROM\" (line 1, column 12)\n<line>\n     ^".
Result<std::unique_ptr<ast::Expr>> ParseExpression(std::string_view text);

// A typed expression over the columns of one schema.
class BoundExpr {
 public:
  explicit BoundExpr(std::unique_ptr<expr::BoundNode> root);
  ~BoundExpr();
  BoundExpr(const BoundExpr&) = delete;
  BoundExpr& operator=(const BoundExpr&) = delete;

  const DataType& type() const;
  // Evaluates over every row of `batch`, whose columns must match the bound schema's types.
  // The result has batch.num_rows rows. Errors (overflow, failed casts) name the expression.
  Result<std::shared_ptr<Column>> Evaluate(const Batch& batch) const;
  // SQL text of the bound form, implicit casts shown: "(CAST(a AS BIGINT) > 5)".
  std::string ToString() const;
  // Indices of the schema columns the expression reads, ascending.
  std::vector<int> ReferencedColumns() const;
  // True when the expression reads no column (its value is the same for every row).
  bool IsConstant() const;
  // REQUIRES: IsConstant().
  Result<Value> EvaluateConstant() const;

  const expr::BoundNode& root() const { return *root_; }

 private:
  std::unique_ptr<expr::BoundNode> root_;
};

// Several bound expressions evaluated over the same batches, each deterministic computation
// they share (the same operation on the same inputs, as TPC-H Q01's l_extendedprice * (1 -
// l_discount) under two sums) once per batch. The expressions must outlive it. Thread-safe:
// Evaluate keeps its values on the stack.
class SharedEvaluation {
 public:
  // Null entries give null results.
  explicit SharedEvaluation(std::vector<const BoundExpr*> exprs);
  ~SharedEvaluation();
  SharedEvaluation(const SharedEvaluation&) = delete;
  SharedEvaluation& operator=(const SharedEvaluation&) = delete;

  // One column of batch.num_rows rows per expression, in order.
  Result<std::vector<std::shared_ptr<Column>>> Evaluate(const Batch& batch) const;
  // Whether any computation is shared (else each expression is evaluated on its own).
  bool shares_any() const;

 private:
  std::vector<const BoundExpr*> exprs_;
  std::unique_ptr<expr::SharedNodes> shared_;
};

// Resolves names (case-insensitive; an unknown name fails with NotFound naming the closest
// columns: "column \"nme\" not found; did you mean \"name\"?") and types (a type error is
// InvalidArgument naming the expression text).
Result<std::unique_ptr<BoundExpr>> Bind(const ast::Expr& expr, const Schema& schema);
// ParseExpression + Bind.
Result<std::unique_ptr<BoundExpr>> ParseAndBind(std::string_view text, const Schema& schema);

// Evaluates a BOOLEAN predicate and keeps the rows where it is TRUE (not FALSE, not NULL).
// Fails when the predicate is not BOOLEAN.
Result<std::shared_ptr<Batch>> FilterBatch(const Batch& batch, const BoundExpr& predicate);
// The rows where a BOOLEAN predicate is TRUE, as a bitmap of batch.num_rows bits (LSB-first),
// and their count.
Result<std::vector<uint8_t>> SelectRows(const Batch& batch, const BoundExpr& predicate,
                                        int64_t* selected_count);

// A pruner for the predicate, bound against `schema`, for row groups and files. It understands
// comparisons of a column (possibly under a widening cast) with constants, BETWEEN, IN,
// IS [NOT] NULL, AND, OR and NOT over these; anything else "may match". It never rejects a
// group holding a row where the predicate is TRUE (NaN-aware; see ColumnStatistics bounds).
std::shared_ptr<const StatisticsPredicate> MakeStatisticsPredicate(const BoundExpr& predicate,
                                                                   const Schema& schema);

}  // namespace tarn
