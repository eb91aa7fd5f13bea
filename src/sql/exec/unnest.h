// UNNEST: rows repeated once per element of their lists.
//
// The operator behind UNNEST in a select list (`SELECT x, unnest(l) FROM t`), in FROM
// (`FROM unnest([1, 2, 3])`) and joined laterally (`FROM t, unnest(t.l) AS u(v)`): each input
// row becomes as many rows as its longest list among the unnested columns has elements (a NULL
// or empty list counts 0, so a row whose lists are all NULL or empty yields none), the kept
// columns repeated on each, every list's elements side by side, NULL where a list is shorter.
//
// Thread-safety: a per-batch operator (TransformBatch from any number of threads).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sql/exec/operator.h"

namespace tarn::sql {

// Output columns: the input's `kept` columns (in that order), then one column per entry of
// `lists` (input columns of LIST or NULL type) holding its elements, named `element_names`.
// `keep_empty` (LEFT JOIN unnest(...) ON true): a row whose lists are all empty or NULL is
// kept once, its elements NULL.
std::unique_ptr<Operator> MakeUnnest(std::unique_ptr<Operator> input, std::vector<int> kept,
                                     std::vector<int> lists,
                                     std::vector<std::string> element_names,
                                     bool keep_empty = false);

// The type of an unnested list's elements: a LIST's element type, NULL for NULL.
// InvalidArgument (DuckDB's message) for any other type.
Result<DataType> UnnestedType(const DataType& list);

}  // namespace tarn::sql
