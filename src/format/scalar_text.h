// Text of single scalar values exactly as DuckDB casts them to VARCHAR (and so as its CSV
// writer prints them), plus the JSON number spelling of DuckDB's JSON writer.
//
// Every function appends to `out` and never fails: any bit pattern of the raw unit has a
// spelling. Raw units follow type.h (days, micros, nanos, unscaled decimals, ...).
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tarn/columnar.h"

namespace tarn::format {

void AppendInt64(int64_t v, std::string* out);
void AppendUInt64(uint64_t v, std::string* out);
void AppendInt128(__int128 v, std::string* out);
void AppendUInt128(unsigned __int128 v, std::string* out);

// DuckDB's decimal text: "12.345", "-0.50", and no integer digit when scale == precision
// (".001", "-.5").
void AppendDecimal(__int128 unscaled, int precision, int scale, std::string* out);

// Shortest round-trip digits laid out as Python's repr does: fixed notation for decimal
// exponents in [-4, 16) with at least one fractional digit ("3.0", "0.0001"), otherwise
// "1e+16", "1.5e-07". Specials: "nan", "-nan", "inf", "-inf"; "-0.0".
void AppendDouble(double v, std::string* out);
void AppendFloat(float v, std::string* out);  // shortest digits of the float itself

// DuckDB's JSON writer spelling of a double: fixed for decimal exponents in [-6, 21)
// ("100000000000000000000.0", "0.000001"), otherwise "1e21", "1e-7", "1.5e300"; NaN,
// Infinity, -Infinity as bare words.
void AppendJsonDouble(double v, std::string* out);

// Dates: "2024-01-05", "0001-12-31 (BC)", "infinity", "-infinity" (int32 max / -max).
void AppendDate(int32_t days, std::string* out);
// Time of day from a count of sub-second units (`units_per_second` 10^6 or 10^9):
// "01:02:03", "01:02:03.5", "24:00:00"; trailing fractional zeros dropped.
void AppendTimeOfDay(int64_t units, int64_t units_per_second, std::string* out);
// Timestamps in any unit (1, 10^3, 10^6, 10^9 per second): "2024-01-02 03:04:05.12",
// "0001-12-31 (BC) 00:00:00", "infinity", "-infinity" (int64 max / -max). With `utc_suffix`
// "+00" follows (TIMESTAMP WITH TIME ZONE printed in UTC).
void AppendTimestamp(int64_t value, int64_t units_per_second, bool utc_suffix, std::string* out);
// "1 year 2 months 3 days 04:05:06.007", "00:00:00", "-1 day 01:00:00".
void AppendInterval(const Interval& interval, std::string* out);
// Printable ASCII other than '"', '\'' and '\\' as is, every other byte as "\xAB".
void AppendBlob(std::string_view bytes, std::string* out);
// 16 big-endian bytes as "123e4567-e89b-12d3-a456-426614174000".
void AppendUuid(std::string_view bytes16, std::string* out);

}  // namespace tarn::format
