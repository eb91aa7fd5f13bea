// The text parsing pieces of CAST (cast.cc) that the vectorized casts (cast_kernels.cc) share,
// so that both read text exactly alike.
//
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

namespace tarn::expr {

// `s` without leading and trailing white space.
std::string_view TrimSpaces(std::string_view s);
// Divides by 10^shift rounding half away from zero.
__int128 RoundDivide(__int128 v, int shift);
// Parses "[-]digits[.digits][e[-]digits]" exactly into an unscaled value at `scale`, rounding
// half away from zero. False when malformed or too large for int128.
bool ParseDecimalText(std::string_view s, int scale, __int128* out);
// Whether `text` equals `lower_word` ignoring ASCII case.
bool EqualsIgnoringCase(std::string_view text, std::string_view lower_word);
// "infinity"/"inf" and "-infinity"/"-inf" in any case: +1 or -1; 0 for any other text.
int InfinityWord(std::string_view trimmed);
// Appends DuckDB's CAST(v AS VARCHAR) text of a DOUBLE (FLOAT when `single_precision`).
void AppendDoubleText(double v, bool single_precision, std::string* out);

}  // namespace tarn::expr
