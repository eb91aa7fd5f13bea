// Unicode case mapping of UTF-8 text, as DuckDB's lower, upper and ILIKE do it: each code point
// maps to its simple (one code point) lower- or uppercase form from the Unicode character
// database (utf8proc), so lower('ÉCOLE') is 'école' and upper('ß') is 'ẞ'. Identifiers are not
// compared this way: DuckDB, and so tarn, folds only ASCII letters in names.
//
// Bytes that are not valid UTF-8 are copied unchanged, so mapping never fails or loses bytes.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace tarn::expr {

std::string LowerUtf8(std::string_view text);
std::string UpperUtf8(std::string_view text);
// The same appended to `out`.
void AppendLowerUtf8(std::string_view text, std::string* out);
void AppendUpperUtf8(std::string_view text, std::string* out);

}  // namespace tarn::expr
