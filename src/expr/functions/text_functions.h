// DuckDB's text functions beyond string_functions.h:
//   reverse(s): s with its grapheme clusters in reverse order
//   concat_ws(sep, x, ...): the non-NULL arguments (as text) joined by sep; NULL when sep is
//   split_part(s, delim, i): the i-th part (1-based; negative from the end; '' out of range;
//       an empty delimiter splits into characters)
//   translate(s, from, to): each character of `from` in s replaced by the one at the same
//       position in `to`, or removed when `to` is shorter
//   strip_accents(s): s without combining marks (utf8proc's decomposition)
//   unicode(s), ord(s) -> INTEGER: the first code point, -1 for ''
//   bit_length(s), octet_length(b), strlen(s), length_grapheme(s) -> BIGINT
//   levenshtein / editdist3, damerau_levenshtein, hamming / mismatches (equal lengths) ->
//       BIGINT; jaccard, jaro_similarity, jaro_winkler_similarity -> DOUBLE: over bytes, as
//       DuckDB computes them
//   base64 / to_base64(b) -> VARCHAR, from_base64(s) -> BLOB
//   to_base(n, radix[, min_length]), bin(x) / to_binary(x) -> VARCHAR
//   format_bytes / formatReadableSize(n) (KiB, MiB, ...), formatReadableDecimalSize(n) (kB,
//       MB, ...) -> VARCHAR
//   md5_number(s) -> UHUGEINT, md5_number_upper / md5_number_lower -> UBIGINT
//   url_encode(s), url_decode(s), regexp_escape(s) -> VARCHAR
//
// Thread-safety: pure functions.
#pragma once

#include <span>
#include <vector>

#include "expr/functions/functions.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

bool IsTextFunction(FunctionId id);
bool TextFunctionPropagatesNull(FunctionId id);
Status ResolveTextFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                std::vector<DataType>* cast_to, DataType* result);
Result<Value> InvokeTextFunction(FunctionId id, std::span<const Value> args,
                                 const DataType& result_type);

}  // namespace tarn::expr
