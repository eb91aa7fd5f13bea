// Binding and planning a FROM clause that joins several tables.
//
// BindJoins resolves the FROM tree: each table, file, table function or subquery becomes a
// leaf with a qualifier (its alias, else its table, file or function name) and columns, and
// every column reference of the SELECT is rewritten to the unique name of the column it
// means in the joined row ("col" when no other leaf has a column of that name, else
// "qualifier.col"). Qualified names resolve to their leaf; an unqualified name that two leaves
// have is ambiguous (DuckDB's message); USING and NATURAL join columns merge into one (the
// left's, the right's for RIGHT JOIN, COALESCE of both for FULL JOIN), listed first by `*`.
// Names that match no column are left as written, for select-list aliases and the binder's
// error. The result is the rewritten SELECT over one Source whose schema is the joined row.
//
// That Source plans the joins when opened (join_order.h): the WHERE clause is split into
// conjuncts, each pushed to the one leaf it reads (so scans prune and filter while decoding)
// or used as a join condition: equalities between the two sides become hash join keys, the
// rest residual conditions or, without any equality, a nested-loop join. Inner joins and
// comma joins are ordered by estimated size (see join_order.h); outer, semi and anti joins
// keep their written order.
//
// Thread-safety: one thread at a time.
#pragma once

#include <memory>
#include <string_view>

#include "sql/exec/operator.h"
#include "sql/parse/statement.h"
#include "sql/plan/source.h"

namespace tarn::sql {

struct BoundJoins {
  std::unique_ptr<SelectStmt> select;  // column references resolved; FROM is a placeholder
  std::unique_ptr<Source> source;      // the joined rows; FiltersRows() is true
};

// REQUIRES: select.from.kind == TableRef::Kind::kJoin.
Result<BoundJoins> BindJoins(const SelectStmt& select, std::string_view sql_text,
                             const ExecContext& context);

}  // namespace tarn::sql
