// DuckDB's list functions that take no lambda, row at a time through Values:
//   list_zip(l1, ..., ln [, truncate]) -> STRUCT(T1, ..., Tn)[] (unnamed fields; the longest
//       list's length, the shortest's with truncate; a NULL list counts as empty)
//   flatten(T[][]) -> T[] (NULL inner lists skipped)
//   array_to_string(l, sep) -> VARCHAR: the elements' text joined by sep (',' for a NULL sep),
//       NULL elements skipped; '' for an empty list, NULL when every element is NULL
//   string_split(s, sep), str_split, string_to_array, split -> VARCHAR[] ('' splits into
//       characters, a NULL sep gives [s])
//   list_concat / list_cat / array_concat / array_cat(l, ...) -> T[] (NULL lists skipped, NULL
//       when all are); l1 || l2 (NULL when either is); list_append(l, e) / array_append /
//       array_push_back, list_prepend(e, l) / array_prepend / array_push_front
//   list_contains / list_has / array_contains / array_has(l, e) -> BOOLEAN
//   list_position / list_indexof / array_position / array_indexof(l, e) -> INTEGER (1-based,
//       NULL when absent; a NULL e finds the first NULL element)
//   list_distinct / array_distinct(l) -> T[] (NULLs dropped; in the order DuckDB's hash table
//       gives for fixed-width numbers and strings), list_unique / array_unique(l) -> UBIGINT
//   list_sort / array_sort(l [, 'ASC'|'DESC' [, 'NULLS FIRST'|'NULLS LAST']]),
//       list_reverse_sort / array_reverse_sort(l [, nulls]) -> T[] (constant orders; NULLS LAST
//       by default), list_reverse / array_reverse(l)
//   list_slice / array_slice(l, begin, end [, step]) (also x[begin:end:step], an omitted bound
//       being an empty list): 1-based, inclusive, negative bounds from the end; on VARCHAR by
//       characters
//   len / length / array_length(l) -> BIGINT
// The lambda functions list_transform / list_apply / array_transform / array_apply / apply,
// list_filter / array_filter / filter and list_reduce / array_reduce / reduce are named here
// too; the binder and the evaluator handle them (bound.h kListLambda).
//
// Thread-safety: pure functions.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "expr/functions/functions.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

// An argument as the binder sees it: DuckDB types literals as INTEGER_LITERAL and
// STRING_LITERAL until they adapt to the other arguments.
struct ListArgument {
  DataType type;
  const Value* constant = nullptr;  // the value when the argument is a constant
  bool integer_literal = false;
  bool string_literal = false;
  bool lambda = false;  // a lambda (named LAMBDA in messages; it has no type)
};

bool IsListFunction(FunctionId id);
// The list function `lower_name` calls (DuckDB's aliases included), or kNone.
FunctionId LookupListFunction(std::string_view lower_name);
const char* ListFunctionName(FunctionId id);
// Whether a NULL argument makes the result NULL without calling InvokeListFunction.
bool ListFunctionPropagatesNull(FunctionId id);

// The types the arguments are cast to and the result type, or DuckDB's error (the whole
// message, "Binder Error: ..." included).
Status ResolveListFunctionTypes(FunctionId id, std::string_view name,
                                std::span<const ListArgument> args,
                                std::vector<DataType>* cast_to, DataType* result);
Result<Value> InvokeListFunction(FunctionId id, std::span<const Value> args,
                                 const DataType& result_type);

// DuckDB's message when no signature of `name` takes these arguments.
Status NoListFunctionMatch(std::string_view name, std::span<const ListArgument> args);

}  // namespace tarn::expr
