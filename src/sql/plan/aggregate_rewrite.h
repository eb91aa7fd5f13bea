// Rewrites the expressions of an aggregate query (select list, HAVING, ORDER BY) over the
// aggregate's output: each GROUP BY expression becomes a reference to key column "#g<i>" and
// each aggregate call a reference to "#a<j>" (equal calls share one column). A column
// reference left outside both is an error, as in DuckDB.
//
// Thread-safety: one thread at a time.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "expr/parse/ast.h"
#include "tarn/status.h"

namespace tarn::sql {

// Whether the tree holds an aggregate call (count, sum, avg, min, max).
bool ContainsAggregate(const ast::Expr& expr);

class AggregateRewriter {
 public:
  explicit AggregateRewriter(std::vector<const ast::Expr*> group_exprs)
      : groups_(std::move(group_exprs)) {}

  Result<std::unique_ptr<ast::Expr>> Rewrite(const ast::Expr& expr);

  // The aggregate calls found, in column order (#a0, #a1, ...).
  const std::vector<std::unique_ptr<ast::Expr>>& aggregates() const { return aggregates_; }

  static std::string KeyColumn(size_t index) { return "#g" + std::to_string(index); }
  static std::string AggregateColumn(size_t index) { return "#a" + std::to_string(index); }

 private:
  Result<std::unique_ptr<ast::Expr>> RewriteNode(const ast::Expr& expr, bool inside_aggregate);

  std::vector<const ast::Expr*> groups_;
  std::vector<std::unique_ptr<ast::Expr>> aggregates_;
  // The parameters of the lambdas around the node being rewritten: names that are no columns.
  std::vector<std::string> lambda_params_;
};

}  // namespace tarn::sql
