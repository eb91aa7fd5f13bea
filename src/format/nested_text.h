// DuckDB's text of nested values, split into their elements: lists `[1, NULL, 'a, b']`,
// structs `{'x': 1, 'y': abc}` (or positional `(1, abc)`), maps `{k=v, 'k 2'=NULL}`, and lists
// of JSON (a JSON array whose elements keep their JSON spelling).
//
// The grammar is that of DuckDB's printer and VARCHAR cast: elements split at top-level commas;
// quoted strings ('...' or "...", with backslash escapes inside) and brackets ({}, [], (),
// quotes inside honored) are skipped as units; surrounding spaces are dropped; an unquoted
// `NULL` (any case) is NULL; quotes are removed, adjacent pieces joining as DuckDB joins them
// ('it''s' is "its"); bracketed text is kept as is for the child's type to split again.
//
// Every function takes untrusted text, never reads outside it, and returns false for text that
// is not one nested value's spelling.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tarn::format {

// One piece of a nested value's text: NULL, or the element's text with its quotes removed.
struct NestedPiece {
  bool is_null = false;
  std::string text;
};

// `[a, b, ...]`: the elements ("[]" has none, "[,]" two empty ones).
bool SplitListText(std::string_view text, std::vector<NestedPiece>* pieces);
// A JSON array as a list of JSON prints it: elements keep their JSON spelling.
bool SplitJsonArrayText(std::string_view text, std::vector<NestedPiece>* pieces);
// `{name: value, ...}` or, with *positional set, `(value, ...)` (names empty).
bool SplitStructText(std::string_view text,
                     std::vector<std::pair<std::string, NestedPiece>>* pieces, bool* positional);
// `{key=value, ...}`; a NULL key is refused.
bool SplitMapText(std::string_view text, std::vector<std::pair<NestedPiece, NestedPiece>>* pieces);

}  // namespace tarn::format
