// WINDOW: window functions over PARTITION BY ... ORDER BY ... with ROWS, RANGE and GROUPS
// frames, as DuckDB computes them.
//
// The operator reads its whole input (past memory_limit, when every function shares a PARTITION
// BY and there is a temp_directory, it splits the rows into partition files by those keys and
// computes each file on its own, rows then coming out file by file; else it fails naming itself),
// then for each function sorts the row numbers by its partition and order keys (NULLs last
// unless NULLS FIRST, DESC reversing values only; ties keep input order), finds partitions
// and peer groups (rows equal on every order key), and computes one value per row. It emits
// the input rows in input order with one column per function appended (named by
// WindowFunction::name).
//
// Functions: row_number, rank, dense_rank, percent_rank, cume_dist, ntile(n), lag and lead
// (x [, offset [, default]]), first_value, last_value, nth_value(x, n), and the aggregates
// count(*), count, sum, avg, min, max over the frame. Ranking functions and lag/lead ignore
// the frame. The default frame is the whole partition without ORDER BY, else RANGE BETWEEN
// UNBOUNDED PRECEDING AND CURRENT ROW (up to the last peer).
//
// Thread-safety: one thread at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "expr/parse/ast.h"
#include "sql/exec/operator.h"
#include "sql/exec/sort.h"

namespace tarn::sql {

struct WindowFrame {
  ast::FrameUnit unit = ast::FrameUnit::kRange;
  ast::FrameBound start = ast::FrameBound::kUnboundedPreceding;
  ast::FrameBound end = ast::FrameBound::kCurrentRow;
  // ROWS / GROUPS: the offsets as BIGINT expressions (null when the bound has none).
  // RANGE: the bound's key per row, the order key minus (PRECEDING) or plus (FOLLOWING) the
  // offset (plus / minus under DESC), cast to the type `range_key` has.
  std::unique_ptr<BoundExpr> start_offset;
  std::unique_ptr<BoundExpr> end_offset;
  // RANGE with an offset: the only order key, cast to the type both bounds compare in.
  std::unique_ptr<BoundExpr> range_key;
};

struct WindowFunction {
  std::string function;  // lower case: "row_number", "sum", "count_star", ...
  std::vector<std::unique_ptr<BoundExpr>> arguments;
  std::vector<std::unique_ptr<BoundExpr>> partitions;
  std::vector<std::unique_ptr<BoundExpr>> orders;
  std::vector<SortKey> order_keys;  // direction and NULL placement of each of `orders`
  WindowFrame frame;
  bool ignore_nulls = false;
  std::string name;     // the output column ("#w0")
  std::string display;  // for EXPLAIN: the call as written
};

// Whether `name` (lower case) is a window function: the ranking and value functions above or
// an aggregate.
bool IsWindowFunctionName(const std::string& name);

// The result type of `function` over arguments of `argument_types`; a function that does not
// exist or does not take these arguments is a Binder Error naming it.
Result<DataType> WindowResultType(const std::string& function,
                                  const std::vector<DataType>& argument_types);

Result<std::unique_ptr<Operator>> MakeWindow(std::unique_ptr<Operator> input,
                                             std::vector<WindowFunction> functions,
                                             const ExecContext& context);

}  // namespace tarn::sql
