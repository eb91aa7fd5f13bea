// Window functions in a query: the WINDOW clause's definitions merged into the OVER clauses
// that name them, window calls lifted out of the select list, QUALIFY and ORDER BY into
// columns of a WINDOW operator (exec/window.h), and each call bound into a WindowFunction.
//
// Thread-safety: one thread at a time.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "expr/parse/ast.h"
#include "sql/exec/window.h"
#include "sql/parse/statement.h"

namespace tarn::sql {

// Whether the tree holds a window call.
bool ContainsWindow(const ast::Expr& expr);

// row_number() OVER (PARTITION BY partitions ORDER BY order): the number of each row within
// its partition in the query's order (what DISTINCT ON and LATERAL ... LIMIT rewrite into). An
// ORDER BY position (ORDER BY 2) or a select-list alias stands for that item's expression; a
// position naming no expression is NotSupported, naming `what`.
Result<std::unique_ptr<ast::Expr>> RowNumberOver(
    const std::vector<std::unique_ptr<ast::Expr>>& partitions, const std::vector<OrderItem>& order,
    const std::vector<SelectItem>& items, const std::string& what);

// OVER w and OVER (w ...) in the select list, QUALIFY and ORDER BY → the definition of w from
// the WINDOW clause merged in (its PARTITION BY, its ORDER BY unless the reference has one,
// its frame unless the reference has one); then clears select->windows. An unknown window is
// a Binder Error.
Status ResolveNamedWindows(SelectStmt* select);

class WindowExtractor {
 public:
  // Replaces each window call under *expr by a reference to column "#w<i>" (equal calls
  // share one). A window call inside another's arguments is a Binder Error, as in DuckDB.
  Status Extract(std::unique_ptr<ast::Expr>* expr);

  const std::vector<std::unique_ptr<ast::Expr>>& windows() const { return windows_; }
  static std::string Column(size_t index) { return "#w" + std::to_string(index); }

 private:
  std::vector<std::unique_ptr<ast::Expr>> windows_;
};

using BindFn = std::function<Result<std::unique_ptr<BoundExpr>>(const ast::Expr&)>;

// The window call `call` (a kWindow node) with its expressions bound by `bind`, as the
// operator column `name`.
Result<WindowFunction> BindWindow(const ast::Expr& call, const BindFn& bind, std::string name);

}  // namespace tarn::sql
