// UNNEST in a select list and in FROM, rewritten into derived tables the UNNEST operator
// (sql/exec/unnest.h) expands.
//
// `SELECT g, unnest(l) + 1 AS x FROM t WHERE ... GROUP BY ... ORDER BY x LIMIT n` becomes
//
//   SELECT g, "#u_e0" + 1 AS x FROM (SELECT g, l AS "#u_l0" FROM t WHERE ... GROUP BY ...)
//     -- the derived table's last column unnested (TableRef::unnest_lists = 1) into "#u_e0"
//   ORDER BY x LIMIT n
//
// so every clause before the select list (FROM, WHERE, GROUP BY, HAVING, windows, QUALIFY)
// runs once per input row, and DISTINCT, ORDER BY and LIMIT over the unnested rows, as in
// DuckDB. The parts of a select item outside its UNNEST calls that read the input are computed
// by the inner query; several UNNEST calls unnest side by side (the shorter padded with NULL).
// `FROM unnest(list)` becomes a derived table of the list's one row, unnested.
//
// Thread-safety: pure functions.
#pragma once

#include <memory>
#include <vector>

#include "sql/parse/statement.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::sql {

// Whether a select item calls UNNEST outside subqueries and lambdas.
bool HasSelectUnnest(const SelectStmt& select);
// REQUIRES: HasSelectUnnest(select), and no set operation or VALUES.
Result<std::unique_ptr<SelectStmt>> RewriteSelectUnnest(const SelectStmt& select);

// unnest(s) of a STRUCT s as a whole select item is its fields, one column each, named after
// them (DuckDB's rule; any other place of a struct's UNNEST is DuckDB's Binder Error). The
// argument types come from planning a probe query: the select list's whole-item unnest(x)
// calls (BareUnnestItems: their positions), each `x` alone (UnnestArgumentProbe). Then
// ExpandStructUnnests puts struct_extract(x, 'field') AS field for each STRUCT one.
std::vector<size_t> BareUnnestItems(const SelectStmt& select);
std::unique_ptr<SelectStmt> UnnestArgumentProbe(const SelectStmt& select,
                                                const std::vector<size_t>& items);
// `types[k]`: the type of items[k]'s argument. Null when none is a STRUCT nor has a
// `recursive :=` argument. unnest(x, recursive := true) flattens a list of lists (flatten) to
// its innermost elements and expands structs, and struct fields that are structs, into
// columns (lists inside structs stay); beside another UNNEST call, a recursive unnest of
// nested lists is refused (DuckDB unnests it a level at a time).
Result<std::unique_ptr<SelectStmt>> ExpandStructUnnests(const SelectStmt& select,
                                                        const std::vector<size_t>& items,
                                                        const std::vector<DataType>& types);

// Whether `ref` is a call of the table function unnest.
bool IsUnnestFunction(const TableRef& ref);
// `FROM unnest(list) [AS a[(c)]]` as a derived table over `SELECT list AS unnest`, unnested.
Result<TableRef> UnnestFunctionAsDerivedTable(const TableRef& ref);

// Whether `ref` is range(...) or generate_series(...) with an argument reading a column (of
// the tables before it: DuckDB joins such a call laterally).
bool IsSeriesOverColumns(const TableRef& ref);
// That call as `unnest(range(...)) AS range(range)`: the elements of the list function of the
// same name, its column and (without an alias) its table named after the function.
TableRef SeriesAsUnnest(const TableRef& ref);

}  // namespace tarn::sql
