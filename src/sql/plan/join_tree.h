// The bound FROM tree of a join query, shared by its binder (join_source.cc) and its planner
// (join_order.cc). Internal to src/sql/plan.
//
// Thread-safety: plain values.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"
#include "sql/plan/conjuncts.h"
#include "sql/plan/source.h"

namespace tarn::sql {

// One table, file, table function or subquery of the FROM clause.
struct JoinLeaf {
  std::string qualifier;                // alias, else table / file / function name
  std::unique_ptr<Source> source;       // tables, files, table functions
  std::unique_ptr<Operator> subquery;   // a planned subquery (source is null)
  double subquery_rows = -1;            // about how many rows it returns; -1: unknown
  Schema schema;                        // its columns under the names the query uses
  int visible = 0;                      // columns past this are pseudo-columns (rowid)
  std::vector<std::string> internal;    // each column's unique name in the joined row
  bool renamed = false;                 // FROM t AS x(a, b): filters are not pushed
  bool accessible = true;               // false under the right side of SEMI / ANTI JOIN
  // `..., unnest(list)` after other leaves (joined laterally): the list over the internal
  // names of the leaves before it; the leaf's one column holds its elements, one row per
  // element for each joined row before it (sql/exec/unnest.h).
  std::unique_ptr<ast::Expr> lateral_list;
};

struct JoinTreeNode {
  int leaf = -1;  // >= 0: this node is that leaf; else a join of left and right
  JoinType type = JoinType::kInner;
  std::unique_ptr<JoinTreeNode> left;
  std::unique_ptr<JoinTreeNode> right;
  // The ON condition's conjuncts and USING / NATURAL equalities, references resolved.
  std::vector<std::unique_ptr<ast::Expr>> conditions;
  // `right` is a lateral unnest leaf: each row of `left` repeated per element of its list
  // (type kInner / kCross; kLeft keeps a row whose list is empty, with a NULL element).
  bool lateral = false;
};

struct JoinQuery {
  std::vector<JoinLeaf> leaves;
  std::unique_ptr<JoinTreeNode> root;
  // Lower-cased internal name → (leaf, column).
  std::map<std::string, std::pair<int, int>> columns;
};

// Plans the operators of `query` producing the columns `outputs` (internal names, in order)
// of the joined rows that satisfy every one of `where` (conjuncts over internal names).
Result<std::unique_ptr<Operator>> PlanJoinQuery(JoinQuery* query,
                                                std::vector<std::unique_ptr<ast::Expr>> where,
                                                const std::vector<std::string>& outputs,
                                                const ExecContext& context);

}  // namespace tarn::sql
