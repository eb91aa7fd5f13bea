// Text forms of values as a DuckLake catalog stores them: statistics strings, default
// literals, partition values and inlined values kept as text.
//
// Every parser takes untrusted text, never reads outside it, and returns false (or an error)
// for text that is not one complete value. No surrounding spaces are accepted.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tarn/columnar.h"
#include "tarn/status.h"
#include "tarn/type.h"
#include "util/calendar.h"

namespace tarn::catalog_internal {

bool ParseInt64Text(std::string_view text, int64_t* out);
bool ParseUInt64Text(std::string_view text, uint64_t* out);
bool ParseInt128Text(std::string_view text, __int128* out);
// Decimal or scientific notation; also inf, -inf, +inf, infinity, nan, -nan (any case).
bool ParseDoubleText(std::string_view text, double* out);
// true/false, t/f, 1/0 (any case).
bool ParseBoolText(std::string_view text, bool* out);
// "12.345", "-0.50", "7", ".5" as an unscaled value with `scale` digits; fractional digits
// past the scale must be zeros; false when the value exceeds `precision` digits.
bool ParseDecimalText(std::string_view text, int precision, int scale, __int128* unscaled);
// YYYY-MM-DD with an optional " (BC)"; "infinity" / "-infinity" (int32 max / -max).
bool ParseDateText(std::string_view text, int32_t* days);
// HH:MM:SS[.fraction] (up to 9 fractional digits) in units of 1/units_per_second.
bool ParseTimeText(std::string_view text, int64_t units_per_second, int64_t* out);
// YYYY-MM-DD[ T]HH:MM:SS[.fraction][ (BC)][offset] in units of 1/units_per_second since the
// epoch, converted to UTC when an offset ("+00", "-05:30", "+0530", "Z") is present. A date
// alone is midnight. "infinity" / "-infinity" are int64 max / -max.
bool ParseTimestampText(std::string_view text, int64_t units_per_second, int64_t* out);
// 32 hex digits, with or without the canonical dashes, into 16 big-endian bytes.
bool ParseUuidText(std::string_view text, std::string* bytes16);
// Pairs of hex digits (any case).
bool ParseHexText(std::string_view text, std::string* bytes);
// DuckDB's BLOB text: printable bytes as is, others as \xAB.
bool ParseEscapedBlobText(std::string_view text, std::string* bytes);

// Days since 1970-01-01 of a proleptic Gregorian date.
using tarn::DaysFromCivil;

// A literal as DuckDB prints a value of `type` (CAST(v AS VARCHAR)): for column defaults and
// partition values. Nested, interval, variant and geometry types are InvalidArgument.
Result<Value> DecodeLiteralValue(std::string_view text, const DataType& type);

}  // namespace tarn::catalog_internal
