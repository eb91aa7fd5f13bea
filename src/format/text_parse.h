// Parsing of value text as read from CSV files: numbers, booleans, dates and timestamps, with
// the spellings DuckDB's CSV reader accepts for simple files.
//
// Every function takes untrusted text, never reads outside it, and returns false (or an
// error) for text that is not a complete value of the type. Surrounding spaces are allowed
// around numbers, booleans, dates and timestamps.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string_view>

#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::format {

bool ParseInt64(std::string_view text, int64_t* out);
bool ParseDouble(std::string_view text, double* out);  // also nan, inf, -inf, infinity
bool ParseBoolean(std::string_view text, bool* out);   // true/false/t/f, any case
bool ParseDate(std::string_view text, int32_t* days);  // YYYY-MM-DD
// YYYY-MM-DD[ T]HH:MM[:SS[.fraction]] in micros since the epoch (fraction digits past six
// are dropped); a date alone is midnight only when `allow_date_only`.
bool ParseTimestampMicros(std::string_view text, bool allow_date_only, int64_t* micros);
// HH:MM:SS[.fraction] in micros.
bool ParseTimeMicros(std::string_view text, int64_t* micros);
// "12.34", "-0.5", "7" as an unscaled value with `scale` digits; false when the text has
// more fractional digits than the scale or the value exceeds `precision` digits.
bool ParseDecimal(std::string_view text, int precision, int scale, __int128* unscaled);

// DuckDB's text form of a BLOB as its bytes: "\xAB" (two hex digits of either case) is one
// byte and every other byte stands for itself, which must then be ASCII. Fails with DuckDB's
// Conversion Error naming the text (an unterminated or invalid escape, a non-ASCII byte).
Result<std::string> ParseBlob(std::string_view text);

// Days since 1970-01-01 of a proleptic Gregorian date; false for an impossible date.
bool DaysFromCivil(int64_t year, int month, int day, int64_t* days);

// Parses `text` as a value of `type` and appends it to `builder`. Supports the integer,
// floating, decimal, boolean, date, time, timestamp, varchar, JSON and blob (ParseBlob) types.
Status AppendParsed(std::string_view text, const DataType& type, ColumnBuilder* builder);

}  // namespace tarn::format
