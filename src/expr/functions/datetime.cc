#include "expr/functions/datetime.h"

#include <cctype>
#include <cstdio>
#include <algorithm>
#include <cstdlib>

#include "catalog/inlined_text.h"

namespace tarn::expr {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Reads 1..max_digits digits at *pos.
bool ReadNumber(std::string_view s, size_t* pos, int max_digits, int64_t* out) {
  size_t start = *pos;
  int64_t value = 0;
  while (*pos < s.size() && std::isdigit(static_cast<unsigned char>(s[*pos])) &&
         static_cast<int>(*pos - start) < max_digits) {
    value = value * 10 + (s[*pos] - '0');
    ++*pos;
  }
  *out = value;
  return *pos > start;
}

int DaysInMonth(int64_t year, int64_t month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : kDays[month - 1];
}

// Parses "HH:MM[:SS[.fffffffff]]" at *pos into nanoseconds since midnight (fraction digits
// past nine are dropped).
bool ReadClock(std::string_view s, size_t* pos, int64_t* nanos) {
  int64_t hour = 0, minute = 0, second = 0, fraction = 0;
  if (!ReadNumber(s, pos, 2, &hour) || *pos >= s.size() || s[*pos] != ':') return false;
  ++*pos;
  if (!ReadNumber(s, pos, 2, &minute)) return false;
  if (*pos < s.size() && s[*pos] == ':') {
    ++*pos;
    if (!ReadNumber(s, pos, 2, &second)) return false;
    if (*pos < s.size() && s[*pos] == '.') {
      ++*pos;
      int digits = 0;
      while (*pos < s.size() && std::isdigit(static_cast<unsigned char>(s[*pos]))) {
        if (digits < 9) {
          fraction = fraction * 10 + (s[*pos] - '0');
          ++digits;
        }
        ++*pos;
      }
      while (digits++ < 9) fraction *= 10;
    }
  }
  if (hour > 24 || minute > 59 || second > 59) return false;
  *nanos = ((hour * 60 + minute) * 60 + second) * 1000000000LL + fraction;
  return true;
}

// "[-]Y-M-D" with an optional " (BC)" right after the day (year n BC is year 1 - n), as
// DuckDB writes dates outside the common era; the day count is not range-checked here.
bool ReadDate(std::string_view s, size_t* pos, int64_t* days) {
  int64_t year = 0, month = 0, day = 0;
  bool negative = false;
  if (*pos < s.size() && s[*pos] == '-') {
    negative = true;
    ++*pos;
  }
  if (!ReadNumber(s, pos, 7, &year) || *pos >= s.size() || s[*pos] != '-') return false;
  ++*pos;
  if (!ReadNumber(s, pos, 2, &month) || *pos >= s.size() || s[*pos] != '-') return false;
  ++*pos;
  if (!ReadNumber(s, pos, 2, &day)) return false;
  if (negative) year = -year;
  constexpr std::string_view kBc = " (BC)";
  if (s.size() - *pos >= kBc.size() && s[*pos] == ' ' && s[*pos + 1] == '(' &&
      (s[*pos + 2] | 0x20) == 'b' && (s[*pos + 3] | 0x20) == 'c' && s[*pos + 4] == ')') {
    if (year <= 0) return false;
    year = 1 - year;
    *pos += kBc.size();
  }
  if (!IsValidDate(year, month, day)) return false;
  *days = DaysFromCivil(year, month, day);
  return true;
}

}  // namespace

bool IsValidDate(int64_t year, int64_t month, int64_t day) {
  return month >= 1 && month <= 12 && day >= 1 && day <= DaysInMonth(year, month) &&
         year > -5877650 && year < 5881590;
}

std::optional<int32_t> ParseDate(std::string_view text) {
  std::string_view s = Trim(text);
  size_t pos = 0;
  int64_t days = 0;
  if (!ReadDate(s, &pos, &days) || pos != s.size()) return std::nullopt;
  if (days < kMinDateDays || days > kMaxDateDays) return std::nullopt;
  return static_cast<int32_t>(days);
}

std::optional<int64_t> ParseTimeMicros(std::string_view text) {
  std::string_view s = Trim(text);
  size_t pos = 0;
  int64_t nanos = 0;
  if (!ReadClock(s, &pos, &nanos) || pos != s.size()) return std::nullopt;
  return nanos / 1000;
}

std::optional<int64_t> ParseTimeTzMicros(std::string_view text) {
  std::string_view s = Trim(text);
  if (s.find_first_of("+-") == std::string_view::npos) {
    auto micros = ParseTimeMicros(s);
    if (!micros) return std::nullopt;
    return *micros % kMicrosPerDay;
  }
  // The time of day as TIME reads it ("12:5:00" too), then the offset.
  const size_t sign = s.find_first_of("+-");
  int64_t offset_seconds = 0;
  auto local = ParseTimeMicros(s.substr(0, sign));
  if (!local || !catalog_internal::ParseUtcOffset(Trim(s.substr(sign)), &offset_seconds)) {
    return std::nullopt;
  }
  return catalog_internal::TimeTzToUtc(*local, offset_seconds);
}

namespace {

// The parts of a timestamp's text: its date, the time of day, and the UTC offset it names.
struct TimestampParts {
  int64_t days = 0;
  int64_t nanos_of_day = 0;
  int64_t offset_minutes = 0;
};

std::optional<TimestampParts> ReadTimestamp(std::string_view text) {
  std::string_view s = Trim(text);
  size_t pos = 0;
  TimestampParts parts;
  if (!ReadDate(s, &pos, &parts.days)) return std::nullopt;
  if (pos < s.size() && (s[pos] == ' ' || s[pos] == 'T')) {
    ++pos;
    if (!ReadClock(s, &pos, &parts.nanos_of_day)) return std::nullopt;
  }
  while (pos < s.size() && s[pos] == ' ') ++pos;
  if (pos < s.size() && (s[pos] == 'Z' || s[pos] == 'z')) {
    ++pos;
  } else if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    int64_t sign = s[pos] == '-' ? -1 : 1;
    ++pos;
    int64_t hours = 0, minutes = 0;
    if (!ReadNumber(s, &pos, 2, &hours)) return std::nullopt;
    if (pos < s.size() && s[pos] == ':') ++pos;
    ReadNumber(s, &pos, 2, &minutes);
    parts.offset_minutes = sign * (hours * 60 + minutes);
  }
  if (pos != s.size()) return std::nullopt;
  return parts;
}

}  // namespace

std::optional<int64_t> ParseTimestampMicros(std::string_view text) {
  auto parts = ReadTimestamp(text);
  if (!parts || parts->days < kMinTimestampDays || parts->days > kMaxTimestampDays) {
    return std::nullopt;
  }
  int64_t micros = 0;
  if (__builtin_mul_overflow(parts->days, kMicrosPerDay, &micros) ||
      __builtin_add_overflow(micros, parts->nanos_of_day / 1000 -
                                         parts->offset_minutes * 60 * kMicrosPerSecond,
                             &micros) ||
      micros == INT64_MAX || micros <= -INT64_MAX) {
    return std::nullopt;  // past the largest timestamp, or one of the infinities
  }
  return micros;
}

std::optional<int64_t> ParseTimestampNanos(std::string_view text) {
  auto parts = ReadTimestamp(text);
  if (!parts || parts->days < kMinTimestampDays || parts->days > kMaxTimestampDays) {
    return std::nullopt;
  }
  int64_t nanos = 0;
  if (__builtin_mul_overflow(parts->days, 86400LL * 1000000000LL, &nanos) ||
      __builtin_add_overflow(nanos, parts->nanos_of_day - parts->offset_minutes * 60000000000LL,
                             &nanos)) {
    return std::nullopt;
  }
  return nanos;
}

std::optional<Interval> ParseInterval(std::string_view text) {
  // One grammar for DuckDB's interval text, shared with the catalog's inlined values.
  Interval result;
  if (!catalog_internal::ParseIntervalText(Trim(text), &result)) return std::nullopt;
  return result;
}

std::string FormatDate(int64_t days) {
  int64_t year = 0, month = 0, day = 0;
  CivilFromDays(days, &year, &month, &day);
  char buffer[96];  // room for any int64 fields, which keeps -Wformat-truncation quiet
  if (year <= 0) {
    std::snprintf(buffer, sizeof(buffer), "%04lld-%02lld-%02lld (BC)",
                  static_cast<long long>(1 - year), static_cast<long long>(month),
                  static_cast<long long>(day));
  } else {
    std::snprintf(buffer, sizeof(buffer), "%04lld-%02lld-%02lld", static_cast<long long>(year),
                  static_cast<long long>(month), static_cast<long long>(day));
  }
  return buffer;
}

std::string FormatTimeMicros(int64_t micros) {
  int64_t seconds = micros / kMicrosPerSecond;
  int64_t fraction = micros % kMicrosPerSecond;
  char buffer[48];
  std::snprintf(buffer, sizeof(buffer), "%02lld:%02lld:%02lld",
                static_cast<long long>(seconds / 3600), static_cast<long long>(seconds / 60 % 60),
                static_cast<long long>(seconds % 60));
  std::string out = buffer;
  if (fraction != 0) {
    std::snprintf(buffer, sizeof(buffer), ".%06lld", static_cast<long long>(fraction));
    std::string frac = buffer;
    while (frac.back() == '0') frac.pop_back();
    out += frac;
  }
  return out;
}

std::string FormatTimestampMicros(int64_t micros) {
  int64_t days = micros / kMicrosPerDay;
  int64_t rest = micros % kMicrosPerDay;
  if (rest < 0) {
    rest += kMicrosPerDay;
    --days;
  }
  return FormatDate(days) + " " + FormatTimeMicros(rest);
}

std::string FormatInterval(const Interval& interval) {
  std::string out;
  auto part = [&](int64_t value, const char* unit) {
    if (value == 0) return;
    if (!out.empty()) out += " ";
    out += std::to_string(value) + " " + unit + (value == 1 || value == -1 ? "" : "s");
  };
  part(interval.months / 12, "year");
  part(interval.months % 12, "month");
  part(interval.days, "day");
  if (interval.nanos != 0 || out.empty()) {
    int64_t micros = interval.nanos / 1000;
    if (!out.empty()) out += " ";
    if (micros < 0) {
      out += "-";
      micros = -micros;
    }
    out += FormatTimeMicros(micros);
  }
  return out;
}

int64_t AddInterval(int64_t timestamp_micros, const Interval& interval) {
  int64_t days = timestamp_micros / kMicrosPerDay;
  int64_t rest = timestamp_micros % kMicrosPerDay;
  if (rest < 0) {
    rest += kMicrosPerDay;
    --days;
  }
  if (interval.months != 0) {
    int64_t year = 0, month = 0, day = 0;
    CivilFromDays(days, &year, &month, &day);
    int64_t total = year * 12 + (month - 1) + interval.months;
    year = total >= 0 ? total / 12 : (total - 11) / 12;
    month = total - year * 12 + 1;
    day = std::min<int64_t>(day, DaysInMonth(year, month));
    days = DaysFromCivil(year, month, day);
  }
  days += interval.days;
  return days * kMicrosPerDay + rest + interval.nanos / 1000;
}

}  // namespace tarn::expr
