// DuckDB's date and timestamp functions: date_part / extract and the functions named after each
// part (year, quarter, dayofweek, isodow, week, yearweek, century, epoch, ...), date_trunc,
// date_diff, strftime / strptime, dayname, monthname, last_day, make_date, make_timestamp and
// epoch_ms / epoch_us / epoch_ns.
//
// Every function reads a DATE or TIMESTAMP as microseconds since 1970-01-01 (a DATE at
// midnight); the per-value cores below are shared by the row-wise InvokeDateFunction and the
// vectorized kernels (eval/function_kernels.cc), so both compute alike.
//
// Thread-safety: pure functions; a compiled DateFormat is immutable.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "expr/functions/functions.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::expr {

enum class DatePart : uint8_t {
  kYear, kQuarter, kMonth, kWeek, kDay, kDayOfWeek, kIsoDayOfWeek, kDayOfYear, kIsoYear,
  kYearWeek, kDecade, kCentury, kMillennium, kEra, kHour, kMinute, kSecond, kMillisecond,
  kMicrosecond, kEpoch,
};

// A part by any of DuckDB's names for it ("year", "yrs", "dow", "weekday", "ms", ...), any
// case; nullopt for an unknown name.
std::optional<DatePart> ParseDatePart(std::string_view name);
// The value of an integer part of a timestamp (REQUIRES: part != kEpoch).
int64_t ExtractDatePart(DatePart part, int64_t micros);
// date_trunc: the timestamp at the start of its part (week: the Monday). False for parts
// date_trunc does not take (dow, doy, epoch, ...).
bool TruncatesTo(DatePart part);
int64_t TruncateMicros(DatePart part, int64_t micros);
// date_diff: the number of part boundaries between two timestamps (weeks: whole weeks of
// days). False for parts date_diff does not take.
bool DiffersBy(DatePart part);
int64_t DateDiff(DatePart part, int64_t start_micros, int64_t end_micros);
// date_sub: the number of whole parts from start to end (negative when end is earlier);
// months count as DuckDB counts them (a month ending on its last day is whole).
int64_t DateSub(DatePart part, int64_t start_micros, int64_t end_micros);
// age(a, b): a - b as years, months, days and time, each field borrowed from the next larger
// one as DuckDB does (Interval::GetAge).
Interval AgeOf(int64_t a_micros, int64_t b_micros);

// A strftime / strptime format, compiled once.
class DateFormat {
 public:
  // DuckDB's message for an unknown specifier.
  static Result<DateFormat> Compile(std::string_view format);
  void Format(int64_t micros, std::string* out) const;
  // The timestamp `text` spells in this format; DuckDB's message naming what failed.
  Result<int64_t> Parse(std::string_view text) const;
  const std::string& text() const { return text_; }

 private:
  struct Piece {
    char spec = 0;         // 0: literal
    bool unpadded = false;  // %-d
    std::string literal;
  };
  std::string text_;
  std::vector<Piece> pieces_;
};

// Microseconds of a DATE or TIMESTAMP value of any unit.
int64_t MicrosOfDateValue(const Value& v);

bool IsDateFunction(FunctionId id);
Status ResolveDateFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                const std::vector<const Value*>& constant_args,
                                std::vector<DataType>* cast_to, DataType* result);
Result<Value> InvokeDateFunction(FunctionId id, std::span<const Value> args,
                                 const DataType& result_type);
// The part a function named after one reads (year → kYear), or nullopt.
std::optional<DatePart> PartOfFunction(FunctionId id);

}  // namespace tarn::expr
