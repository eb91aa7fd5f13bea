// DuckDB's regular expression functions, through RE2 (the engine DuckDB itself embeds):
//   regexp_matches(s, p [, options]) -> BOOLEAN        p matches somewhere in s
//   regexp_full_match(s, p [, options]) -> BOOLEAN     p matches all of s (also SIMILAR TO, ~)
//   regexp_extract(s, p [, group [, options]]) -> VARCHAR: group `group` (0..9, default 0) of
//       the first match, '' when nothing matches; with a list of names as `group`
//       (['y', 'm']) a STRUCT(y VARCHAR, m VARCHAR) of groups 1..n
//   regexp_extract_all(s, p [, group [, options]]) -> VARCHAR[]: that group of every match
//   regexp_replace(s, p, replacement [, options]) -> VARCHAR: the first match (every match
//       with option 'g') replaced; \0..\9 in the replacement name groups
//   regexp_split_to_array(s, p [, options]) -> VARCHAR[] (also string_split_regex,
//       str_split_regex): s cut at every match
// Options are letters: c (case-sensitive), i (case-insensitive), l (p is literal text), m, n,
// p ('.' does not match a newline, the default), s ('.' matches a newline), g (regexp_replace
// only); spaces are ignored. Options and the group must be constants; a constant pattern is
// checked while binding. Errors are DuckDB's ("Invalid Input Error: missing ): (", "Group
// index must be between 0 and 9!").
//
// Compiled patterns are kept per thread (a small cache keyed by options and pattern), so a
// pattern is compiled once per thread, not once per row.
//
// Thread-safety: pure functions (the cache is thread-local).
#pragma once

#include <span>
#include <vector>

#include "expr/functions/functions.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

bool IsRegexpFunction(FunctionId id);
// `constant_args[i]` is argument i's value when it is a constant, else nullptr.
Status ResolveRegexpFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                  const std::vector<const Value*>& constant_args,
                                  std::vector<DataType>* cast_to, DataType* result);
Result<Value> InvokeRegexpFunction(FunctionId id, std::span<const Value> args,
                                   const DataType& result_type);

}  // namespace tarn::expr
