// Calendar arithmetic and DuckDB's text forms for DATE, TIME, TIMESTAMP and INTERVAL.
//
// Dates are days since 1970-01-01 (proleptic Gregorian), timestamps microseconds since the
// epoch, times microseconds since midnight, intervals {months, days, nanos} as in columnar.h.
//
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tarn/columnar.h"
#include "util/calendar.h"

namespace tarn::expr {

constexpr int64_t kMicrosPerSecond = 1000000;
constexpr int64_t kMicrosPerDay = 86400LL * kMicrosPerSecond;

// DuckDB's finite ranges: DATE 5877642-06-25 (BC) .. 5881580-07-10 (±(2^31 - 2) days; the
// infinities are ±(2^31 - 1)), TIMESTAMP 290309-12-22 (BC) 00:00:00 .. 294247-01-10
// 04:00:54.775806 (2^63 - 2 microseconds; the infinities are ±(2^63 - 1)).
constexpr int64_t kMinDateDays = -2147483646;
constexpr int64_t kMaxDateDays = 2147483646;
constexpr int64_t kMinTimestampDays = -106751991;  // 290309-12-22 (BC)
constexpr int64_t kMaxTimestampDays = 106751991;   // 294247-01-10

// The proleptic Gregorian calendar (util/calendar.h), shared with the other modules.
using tarn::CivilFromDays;
using tarn::CivilFromDaysWide;
using tarn::DaysFromCivil;
bool IsValidDate(int64_t year, int64_t month, int64_t day);

// "2020-01-31" (also "2020-1-5", "5877642-06-25 (BC)"; surrounding spaces allowed). nullopt
// when malformed or outside DATE's finite range.
std::optional<int32_t> ParseDate(std::string_view text);
// "2020-01-31 10:20:30.123456", "T" separator, optional seconds/fraction, optional "+00" or
// "Z" offset (converted to UTC), a bare date = midnight.
std::optional<int64_t> ParseTimestampMicros(std::string_view text);
// The same in nanoseconds (nine fraction digits kept); nullopt also outside int64's range.
std::optional<int64_t> ParseTimestampNanos(std::string_view text);
std::optional<int64_t> ParseTimeMicros(std::string_view text);
// "12:34:56.5+05:30" (offsets ±HH[:MM[:SS]], none is +00) as UTC microseconds of the day, in
// [0, 24h): tarn holds TIMETZ as UTC, as DuckDB's Parquet writer stores it (the offset is not
// kept).
std::optional<int64_t> ParseTimeTzMicros(std::string_view text);
// "1 day", "2 hours 30 minutes", "1 year 2 months", "-3 days", "10:00:00", "1 day 02:00:00".
std::optional<Interval> ParseInterval(std::string_view text);

std::string FormatDate(int64_t days);
std::string FormatTimeMicros(int64_t micros);
std::string FormatTimestampMicros(int64_t micros);
std::string FormatInterval(const Interval& interval);

// Adds an interval to a timestamp (months clamp the day to the month's end, as DuckDB).
int64_t AddInterval(int64_t timestamp_micros, const Interval& interval);

}  // namespace tarn::expr
