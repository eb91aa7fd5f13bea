#include "expr/functions/date_functions.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "expr/eval/cast.h"
#include "expr/functions/datetime.h"
#include "util/integer_math.h"

namespace tarn::expr {
namespace {

const DataType kBigint(TypeId::kInt64);
const DataType kDouble(TypeId::kFloat64);
const DataType kVarchar(TypeId::kVarchar);
const DataType kDate(TypeId::kDate);
const DataType kTimestamp(TypeId::kTimestamp);

constexpr const char* kDayNames[] = {"Sunday", "Monday", "Tuesday", "Wednesday",
                                     "Thursday", "Friday", "Saturday"};
constexpr const char* kMonthNames[] = {"January", "February", "March",     "April",
                                       "May",     "June",     "July",      "August",
                                       "September", "October", "November", "December"};

bool IsDateLike(const DataType& t) {
  return t.id == TypeId::kDate || t.id == TypeId::kTimestamp || t.id == TypeId::kTimestampTz ||
         t.id == TypeId::kTimestampS || t.id == TypeId::kTimestampMs ||
         t.id == TypeId::kTimestampNs;
}

// The calendar fields of a timestamp.
struct Civil {
  int64_t days;    // since 1970-01-01
  int64_t in_day;  // microseconds since midnight
  int64_t year, month, day;
};

Civil CivilOf(int64_t micros) {
  Civil c;
  c.days = FloorDiv(micros, kMicrosPerDay);
  c.in_day = micros - c.days * kMicrosPerDay;
  CivilFromDays(c.days, &c.year, &c.month, &c.day);
  return c;
}

int64_t DayOfWeek(int64_t days) { return FloorMod(days + 4, 7); }  // 1970-01-01: Thursday

// ISO 8601 year and week: the week (Monday first) holding the year's first Thursday is week 1.
void IsoWeek(int64_t days, int64_t* iso_year, int64_t* week) {
  const int64_t iso_dow = DayOfWeek(days) == 0 ? 7 : DayOfWeek(days);
  const int64_t thursday = days - (iso_dow - 1) + 3;
  int64_t year, month, day;
  CivilFromDays(thursday, &year, &month, &day);
  *iso_year = year;
  *week = (thursday - DaysFromCivil(year, 1, 1)) / 7 + 1;
}

int64_t Century(int64_t year) { return year > 0 ? (year - 1) / 100 + 1 : year / 100 - 1; }
int64_t Millennium(int64_t year) { return year > 0 ? (year - 1) / 1000 + 1 : year / 1000 - 1; }

struct PartName {
  const char* name;
  DatePart part;
};

constexpr PartName kPartNames[] = {
    {"year", DatePart::kYear}, {"years", DatePart::kYear}, {"y", DatePart::kYear},
    {"yr", DatePart::kYear}, {"yrs", DatePart::kYear},
    {"quarter", DatePart::kQuarter}, {"quarters", DatePart::kQuarter},
    {"month", DatePart::kMonth}, {"months", DatePart::kMonth}, {"mon", DatePart::kMonth},
    {"mons", DatePart::kMonth},
    {"week", DatePart::kWeek}, {"weeks", DatePart::kWeek}, {"w", DatePart::kWeek},
    {"weekofyear", DatePart::kWeek},
    {"day", DatePart::kDay}, {"days", DatePart::kDay}, {"d", DatePart::kDay},
    {"dayofmonth", DatePart::kDay},
    {"dayofweek", DatePart::kDayOfWeek}, {"dow", DatePart::kDayOfWeek},
    {"weekday", DatePart::kDayOfWeek},
    {"isodow", DatePart::kIsoDayOfWeek},
    {"dayofyear", DatePart::kDayOfYear}, {"doy", DatePart::kDayOfYear},
    {"isoyear", DatePart::kIsoYear}, {"yearweek", DatePart::kYearWeek},
    {"decade", DatePart::kDecade}, {"decades", DatePart::kDecade}, {"dec", DatePart::kDecade},
    {"decs", DatePart::kDecade},
    {"century", DatePart::kCentury}, {"centuries", DatePart::kCentury},
    {"cent", DatePart::kCentury}, {"c", DatePart::kCentury},
    {"millennium", DatePart::kMillennium}, {"millennia", DatePart::kMillennium},
    {"millenniums", DatePart::kMillennium}, {"millenium", DatePart::kMillennium},
    {"mil", DatePart::kMillennium}, {"mils", DatePart::kMillennium},
    {"era", DatePart::kEra},
    {"hour", DatePart::kHour}, {"hours", DatePart::kHour}, {"h", DatePart::kHour},
    {"hr", DatePart::kHour}, {"hrs", DatePart::kHour},
    {"minute", DatePart::kMinute}, {"minutes", DatePart::kMinute}, {"m", DatePart::kMinute},
    {"min", DatePart::kMinute}, {"mins", DatePart::kMinute},
    {"second", DatePart::kSecond}, {"seconds", DatePart::kSecond}, {"s", DatePart::kSecond},
    {"sec", DatePart::kSecond}, {"secs", DatePart::kSecond},
    {"millisecond", DatePart::kMillisecond}, {"milliseconds", DatePart::kMillisecond},
    {"ms", DatePart::kMillisecond}, {"msec", DatePart::kMillisecond},
    {"msecs", DatePart::kMillisecond}, {"msecond", DatePart::kMillisecond},
    {"mseconds", DatePart::kMillisecond},
    {"microsecond", DatePart::kMicrosecond}, {"microseconds", DatePart::kMicrosecond},
    {"us", DatePart::kMicrosecond}, {"usec", DatePart::kMicrosecond},
    {"usecs", DatePart::kMicrosecond}, {"usecond", DatePart::kMicrosecond},
    {"useconds", DatePart::kMicrosecond},
    {"epoch", DatePart::kEpoch},
};

Status UnknownPart(std::string_view name) {
  return Status::InvalidArgument("Conversion Error: extract specifier \"", name,
                                 "\" not recognized");
}

}  // namespace

std::optional<DatePart> ParseDatePart(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const PartName& entry : kPartNames) {
    if (lower == entry.name) return entry.part;
  }
  return std::nullopt;
}

int64_t ExtractDatePart(DatePart part, int64_t micros) {
  const Civil c = CivilOf(micros);
  switch (part) {
    case DatePart::kYear: return c.year;
    case DatePart::kQuarter: return (c.month - 1) / 3 + 1;
    case DatePart::kMonth: return c.month;
    case DatePart::kDay: return c.day;
    case DatePart::kDayOfWeek: return DayOfWeek(c.days);
    case DatePart::kIsoDayOfWeek: return DayOfWeek(c.days) == 0 ? 7 : DayOfWeek(c.days);
    case DatePart::kDayOfYear: return c.days - DaysFromCivil(c.year, 1, 1) + 1;
    case DatePart::kWeek: case DatePart::kIsoYear: case DatePart::kYearWeek: {
      int64_t iso_year, week;
      IsoWeek(c.days, &iso_year, &week);
      if (part == DatePart::kWeek) return week;
      if (part == DatePart::kIsoYear) return iso_year;
      return iso_year * 100 + (iso_year < 0 ? -week : week);
    }
    case DatePart::kDecade: return c.year / 10;
    case DatePart::kCentury: return Century(c.year);
    case DatePart::kMillennium: return Millennium(c.year);
    case DatePart::kEra: return c.year > 0 ? 1 : 0;
    case DatePart::kHour: return c.in_day / 3600000000LL;
    case DatePart::kMinute: return c.in_day / 60000000LL % 60;
    case DatePart::kSecond: return c.in_day / kMicrosPerSecond % 60;
    case DatePart::kMillisecond: return c.in_day / 1000 % 60000;
    case DatePart::kMicrosecond: return c.in_day % 60000000LL;
    case DatePart::kEpoch: return FloorDiv(micros, kMicrosPerSecond);
  }
  return 0;
}

bool TruncatesTo(DatePart part) {
  switch (part) {
    case DatePart::kYear: case DatePart::kQuarter: case DatePart::kMonth: case DatePart::kWeek:
    case DatePart::kDay: case DatePart::kDecade: case DatePart::kCentury:
    case DatePart::kMillennium: case DatePart::kHour: case DatePart::kMinute:
    case DatePart::kSecond: case DatePart::kMillisecond: case DatePart::kMicrosecond:
      return true;
    default:
      return false;
  }
}

int64_t TruncateMicros(DatePart part, int64_t micros) {
  const Civil c = CivilOf(micros);
  const int64_t midnight = c.days * kMicrosPerDay;
  switch (part) {
    case DatePart::kYear: return DaysFromCivil(c.year, 1, 1) * kMicrosPerDay;
    case DatePart::kQuarter:
      return DaysFromCivil(c.year, (c.month - 1) / 3 * 3 + 1, 1) * kMicrosPerDay;
    case DatePart::kMonth: return DaysFromCivil(c.year, c.month, 1) * kMicrosPerDay;
    case DatePart::kWeek: {
      const int64_t iso_dow = DayOfWeek(c.days) == 0 ? 7 : DayOfWeek(c.days);
      return (c.days - (iso_dow - 1)) * kMicrosPerDay;
    }
    case DatePart::kDay: return midnight;
    case DatePart::kDecade: return DaysFromCivil(FloorDiv(c.year, 10) * 10, 1, 1) * kMicrosPerDay;
    case DatePart::kCentury:
      return DaysFromCivil(FloorDiv(c.year, 100) * 100, 1, 1) * kMicrosPerDay;
    case DatePart::kMillennium:
      return DaysFromCivil(FloorDiv(c.year, 1000) * 1000, 1, 1) * kMicrosPerDay;
    case DatePart::kHour: return midnight + c.in_day / 3600000000LL * 3600000000LL;
    case DatePart::kMinute: return midnight + c.in_day / 60000000LL * 60000000LL;
    case DatePart::kSecond: return midnight + c.in_day / kMicrosPerSecond * kMicrosPerSecond;
    case DatePart::kMillisecond: return midnight + c.in_day / 1000 * 1000;
    default: return micros;
  }
}

bool DiffersBy(DatePart part) { return TruncatesTo(part); }  // the same units

int64_t DateDiff(DatePart part, int64_t start_micros, int64_t end_micros) {
  const Civil a = CivilOf(start_micros), b = CivilOf(end_micros);
  switch (part) {
    case DatePart::kYear: return b.year - a.year;
    case DatePart::kQuarter:
      return (b.year * 4 + (b.month - 1) / 3) - (a.year * 4 + (a.month - 1) / 3);
    case DatePart::kMonth: return (b.year * 12 + b.month) - (a.year * 12 + a.month);
    case DatePart::kWeek: return (b.days - a.days) / 7;
    case DatePart::kDay: return b.days - a.days;
    case DatePart::kDecade: return b.year / 10 - a.year / 10;
    case DatePart::kCentury: return b.year / 100 - a.year / 100;
    case DatePart::kMillennium: return b.year / 1000 - a.year / 1000;
    case DatePart::kHour:
      return FloorDiv(end_micros, 3600000000LL) - FloorDiv(start_micros, 3600000000LL);
    case DatePart::kMinute:
      return FloorDiv(end_micros, 60000000LL) - FloorDiv(start_micros, 60000000LL);
    case DatePart::kSecond:
      return FloorDiv(end_micros, kMicrosPerSecond) - FloorDiv(start_micros, kMicrosPerSecond);
    case DatePart::kMillisecond: return FloorDiv(end_micros, 1000) - FloorDiv(start_micros, 1000);
    case DatePart::kMicrosecond: return end_micros - start_micros;
    default: return 0;
  }
}

namespace {

int64_t MonthDays(int64_t year, int64_t month) {
  const int64_t next_year = month == 12 ? year + 1 : year;
  const int64_t next_month = month == 12 ? 1 : month + 1;
  return DaysFromCivil(next_year, next_month, 1) - DaysFromCivil(year, month, 1);
}

struct AgeFields {
  int64_t months = 0;  // years folded in
  int64_t days = 0;
  int64_t micros = 0;
};

AgeFields AgeFieldsOf(int64_t a_micros, int64_t b_micros) {
  const Civil a = CivilOf(a_micros), b = CivilOf(b_micros);
  int64_t years = a.year - b.year, months = a.month - b.month, days = a.day - b.day;
  int64_t micros = a.in_day - b.in_day;
  const bool flipped = a_micros < b_micros;
  if (flipped) {
    years = -years;
    months = -months;
    days = -days;
    micros = -micros;
  }
  if (micros < 0) {
    micros += kMicrosPerDay;
    --days;
  }
  while (days < 0) {
    days += flipped ? MonthDays(a.year, a.month) : MonthDays(b.year, b.month);
    --months;
  }
  while (months < 0) {
    months += 12;
    --years;
  }
  AgeFields fields{years * 12 + months, days, micros};
  if (flipped) fields = AgeFields{-fields.months, -fields.days, -fields.micros};
  return fields;
}

// Whole months from start to end: when end is the last day of its month, a start on a later
// day of its month (or the same day, earlier in it) counts as that last day.
int64_t MonthsBetween(int64_t start_micros, int64_t end_micros) {
  if (start_micros > end_micros) return -MonthsBetween(end_micros, start_micros);
  const Civil end = CivilOf(end_micros);
  const int64_t end_days = MonthDays(end.year, end.month);
  if (end.day == end_days) {
    const Civil start = CivilOf(start_micros);
    if (start.day > end_days || (start.day == end_days && start.in_day < end.in_day)) {
      start_micros = DaysFromCivil(start.year, start.month, end_days) * kMicrosPerDay +
                     start.in_day;
    }
  }
  return AgeFieldsOf(end_micros, start_micros).months;
}

}  // namespace

int64_t DateSub(DatePart part, int64_t start_micros, int64_t end_micros) {
  const int64_t span = end_micros - start_micros;
  switch (part) {
    case DatePart::kYear: return MonthsBetween(start_micros, end_micros) / 12;
    case DatePart::kQuarter: return MonthsBetween(start_micros, end_micros) / 3;
    case DatePart::kMonth: return MonthsBetween(start_micros, end_micros);
    case DatePart::kDecade: return MonthsBetween(start_micros, end_micros) / 120;
    case DatePart::kCentury: return MonthsBetween(start_micros, end_micros) / 1200;
    case DatePart::kMillennium: return MonthsBetween(start_micros, end_micros) / 12000;
    case DatePart::kWeek: return span / (7 * kMicrosPerDay);
    case DatePart::kDay: case DatePart::kDayOfWeek: case DatePart::kIsoDayOfWeek:
    case DatePart::kDayOfYear:
      return span / kMicrosPerDay;
    case DatePart::kHour: return span / 3600000000LL;
    case DatePart::kMinute: return span / 60000000LL;
    case DatePart::kSecond: return span / kMicrosPerSecond;
    case DatePart::kMillisecond: return span / 1000;
    case DatePart::kMicrosecond: return span;
    default: return 0;
  }
}

static bool SubtractsBy(DatePart part) {
  return TruncatesTo(part) || part == DatePart::kDayOfWeek ||
         part == DatePart::kIsoDayOfWeek || part == DatePart::kDayOfYear;
}

Interval AgeOf(int64_t a_micros, int64_t b_micros) {
  const AgeFields fields = AgeFieldsOf(a_micros, b_micros);
  Interval interval;
  interval.months = static_cast<int32_t>(fields.months);
  interval.days = static_cast<int32_t>(fields.days);
  interval.nanos = fields.micros * 1000;
  return interval;
}

// ---------------------------------------------------------------------------------------------
// strftime / strptime

namespace {

constexpr std::string_view kSpecs = "aAwdbhBmyYHIpMSfgnjUWcxXzZGVu%";

void AppendNumber(int64_t v, int width, bool unpadded, std::string* out) {
  if (v < 0) {
    out->push_back('-');
    v = -v;
  }
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
  const int digits = static_cast<int>(result.ptr - buffer);
  if (!unpadded && digits < width) out->append(static_cast<size_t>(width - digits), '0');
  out->append(buffer, result.ptr);
}

}  // namespace

Result<DateFormat> DateFormat::Compile(std::string_view format) {
  DateFormat compiled;
  compiled.text_ = std::string(format);
  std::string literal;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      literal.push_back(format[i]);
      continue;
    }
    bool unpadded = false;
    size_t at = i + 1;
    if (at < format.size() && format[at] == '-') {
      unpadded = true;
      ++at;
    }
    const char spec = at < format.size() ? format[at] : '\0';
    const bool numeric_spec = std::string_view("dmyHIMSj").find(spec) != std::string_view::npos;
    if (spec == '\0' || kSpecs.find(spec) == std::string_view::npos ||
        (unpadded && !numeric_spec)) {
      std::string shown = spec == '\0' ? "%" : "%" + std::string(unpadded ? "-" : "") + spec;
      if (spec == '\0') {
        return Status::InvalidArgument("Invalid Input Error: Failed to parse format specifier ",
                                       format, ": Trailing format character %");
      }
      return Status::InvalidArgument("Invalid Input Error: Failed to parse format specifier ",
                                     format, ": Unrecognized format for strftime/strptime: ",
                                     shown);
    }
    if (spec == '%') {
      literal.push_back('%');
      i = at;
      continue;
    }
    if (!literal.empty()) {
      compiled.pieces_.push_back(Piece{0, false, std::move(literal)});
      literal.clear();
    }
    if (spec == 'c' || spec == 'x' || spec == 'X') {  // the ISO forms DuckDB uses
      const std::string_view expanded = spec == 'c' ? "%Y-%m-%d %H:%M:%S"
                                        : spec == 'x' ? "%Y-%m-%d"
                                                      : "%H:%M:%S";
      TARN_ASSIGN_OR_RETURN(DateFormat inner, Compile(expanded));
      for (Piece& piece : inner.pieces_) compiled.pieces_.push_back(std::move(piece));
    } else {
      compiled.pieces_.push_back(Piece{spec, unpadded, {}});
    }
    i = at;
  }
  if (!literal.empty()) compiled.pieces_.push_back(Piece{0, false, std::move(literal)});
  return compiled;
}

void DateFormat::Format(int64_t micros, std::string* out) const {
  const Civil c = CivilOf(micros);
  const int64_t hour = c.in_day / 3600000000LL;
  for (const Piece& piece : pieces_) {
    switch (piece.spec) {
      case 0: out->append(piece.literal); break;
      case 'a': out->append(kDayNames[DayOfWeek(c.days)], 3); break;
      case 'A': out->append(kDayNames[DayOfWeek(c.days)]); break;
      case 'w': AppendNumber(DayOfWeek(c.days), 1, true, out); break;
      case 'u': AppendNumber(ExtractDatePart(DatePart::kIsoDayOfWeek, micros), 1, true, out); break;
      case 'd': AppendNumber(c.day, 2, piece.unpadded, out); break;
      case 'b': case 'h': out->append(kMonthNames[c.month - 1], 3); break;
      case 'B': out->append(kMonthNames[c.month - 1]); break;
      case 'm': AppendNumber(c.month, 2, piece.unpadded, out); break;
      case 'y': AppendNumber(FloorMod(c.year, 100), 2, piece.unpadded, out); break;
      case 'Y': AppendNumber(c.year, 4, c.year < 0, out); break;
      case 'G': AppendNumber(ExtractDatePart(DatePart::kIsoYear, micros), 4, false, out); break;
      case 'V': AppendNumber(ExtractDatePart(DatePart::kWeek, micros), 2, false, out); break;
      case 'H': AppendNumber(hour, 2, piece.unpadded, out); break;
      case 'I': AppendNumber(hour % 12 == 0 ? 12 : hour % 12, 2, piece.unpadded, out); break;
      case 'p': out->append(hour < 12 ? "AM" : "PM"); break;
      case 'M': AppendNumber(c.in_day / 60000000LL % 60, 2, piece.unpadded, out); break;
      case 'S': AppendNumber(c.in_day / kMicrosPerSecond % 60, 2, piece.unpadded, out); break;
      case 'f': AppendNumber(c.in_day % kMicrosPerSecond, 6, false, out); break;
      case 'g': AppendNumber(c.in_day % kMicrosPerSecond / 1000, 3, false, out); break;
      case 'n': AppendNumber(c.in_day % kMicrosPerSecond * 1000, 9, false, out); break;
      case 'j':
        AppendNumber(ExtractDatePart(DatePart::kDayOfYear, micros), 3, piece.unpadded, out);
        break;
      case 'U': {
        const int64_t doy = ExtractDatePart(DatePart::kDayOfYear, micros);
        AppendNumber((doy + 6 - DayOfWeek(c.days)) / 7, 2, false, out);
        break;
      }
      case 'W': {
        const int64_t doy = ExtractDatePart(DatePart::kDayOfYear, micros);
        AppendNumber((doy + 6 - (DayOfWeek(c.days) + 6) % 7) / 7, 2, false, out);
        break;
      }
      case 'z': out->append("+00"); break;
      case 'Z': break;
      default: break;
    }
  }
}

Result<int64_t> DateFormat::Parse(std::string_view text) const {
  size_t at = 0;
  int64_t year = 1900, month = 1, day = 1, hour = 0, minute = 0, second = 0, micros = 0;
  int64_t day_of_year = -1, offset_minutes = 0;
  bool pm = false, has_ampm = false;
  auto fail = [&](std::string_view reason) -> Status {
    std::string caret(std::min(at, text.size()), ' ');
    return Status::InvalidArgument("Invalid Input Error: Could not parse string \"", text,
                                   "\" according to format specifier \"", text_, "\"\n", text,
                                   "\n", caret, "^\nError: ", reason);
  };
  auto skip_spaces = [&]() {
    while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  };
  // Up to `max_digits` digits (at least one), after optional white space.
  auto number = [&](int max_digits, int64_t* out, bool allow_sign = false) -> bool {
    skip_spaces();
    bool negative = false;
    if (allow_sign && at < text.size() && (text[at] == '-' || text[at] == '+')) {
      negative = text[at] == '-';
      ++at;
    }
    int64_t v = 0;
    int digits = 0;
    while (at < text.size() && digits < max_digits && text[at] >= '0' && text[at] <= '9') {
      v = v * 10 + (text[at] - '0');
      ++at;
      ++digits;
    }
    *out = negative ? -v : v;
    return digits > 0;
  };
  // One of `names` (any case, full or first three letters when `abbreviated`).
  auto name = [&](const char* const* names, int count, bool abbreviated, int64_t* index) {
    for (int k = 0; k < count; ++k) {
      const std::string_view full = names[k];
      const size_t length = abbreviated ? 3 : full.size();
      if (text.size() - at < length) continue;
      bool same = true;
      for (size_t j = 0; j < length && same; ++j) {
        same = std::tolower(static_cast<unsigned char>(text[at + j])) ==
               std::tolower(static_cast<unsigned char>(full[j]));
      }
      if (same) {
        at += length;
        *index = k;
        return true;
      }
    }
    return false;
  };
  for (const Piece& piece : pieces_) {
    int64_t v = 0;
    switch (piece.spec) {
      case 0:
        for (char expected : piece.literal) {
          if (std::isspace(static_cast<unsigned char>(expected))) {
            skip_spaces();
            continue;
          }
          if (at >= text.size() || text[at] != expected) {
            return fail("Literal does not match, expected " + piece.literal);
          }
          ++at;
        }
        break;
      case 'a': case 'A':
        if (!name(kDayNames, 7, piece.spec == 'a', &v)) return fail("Expected a weekday name");
        break;
      case 'b': case 'h': case 'B':
        if (!name(kMonthNames, 12, piece.spec != 'B', &v)) return fail("Expected a month name");
        month = v + 1;
        break;
      case 'w': case 'u':
        if (!number(1, &v)) return fail("Expected a number");
        break;
      case 'd':
        if (!number(2, &day)) return fail("Expected a number");
        if (day < 1 || day > 31) return fail("Day out of range, expected a value between 1 and 31");
        break;
      case 'm':
        if (!number(2, &month)) return fail("Expected a number");
        if (month < 1 || month > 12) {
          return fail("Month out of range, expected a value between 1 and 12");
        }
        break;
      case 'y':
        if (!number(2, &v)) return fail("Expected a number");
        year = v >= 69 ? 1900 + v : 2000 + v;
        break;
      case 'Y': case 'G':
        if (!number(9, &year, true)) return fail("Expected a number");
        break;
      case 'V': case 'U': case 'W':
        if (!number(2, &v)) return fail("Expected a number");
        break;
      case 'H':
        if (!number(2, &hour)) return fail("Expected a number");
        if (hour > 23) return fail("Hour out of range, expected a value between 0 and 23");
        break;
      case 'I':
        if (!number(2, &hour)) return fail("Expected a number");
        if (hour < 1 || hour > 12) {
          return fail("Hour12 out of range, expected a value between 1 and 12");
        }
        has_ampm = true;
        break;
      case 'p': {
        skip_spaces();
        const std::string_view rest = text.substr(at);
        if (rest.size() >= 2 && (rest[1] == 'M' || rest[1] == 'm') &&
            (rest[0] == 'A' || rest[0] == 'a' || rest[0] == 'P' || rest[0] == 'p')) {
          pm = rest[0] == 'P' || rest[0] == 'p';
          at += 2;
        } else {
          return fail("Expected AM/PM");
        }
        break;
      }
      case 'M':
        if (!number(2, &minute)) return fail("Expected a number");
        if (minute > 59) return fail("Minutes out of range, expected a value between 0 and 59");
        break;
      case 'S':
        if (!number(2, &second)) return fail("Expected a number");
        if (second > 59) return fail("Seconds out of range, expected a value between 0 and 59");
        break;
      case 'f': case 'g': case 'n': {
        const int width = piece.spec == 'f' ? 6 : piece.spec == 'g' ? 3 : 9;
        const size_t start = at;
        if (!number(width, &v)) return fail("Expected a number");
        int digits = static_cast<int>(at - start);
        while (digits < width) {
          v *= 10;
          ++digits;
        }
        micros = piece.spec == 'f' ? v : piece.spec == 'g' ? v * 1000 : v / 1000;
        break;
      }
      case 'j':
        if (!number(3, &day_of_year)) return fail("Expected a number");
        if (day_of_year < 1 || day_of_year > 366) {
          return fail("Day of the year out of range, expected a value between 1 and 366");
        }
        break;
      case 'z': {
        skip_spaces();
        if (at < text.size() && (text[at] == 'Z' || text[at] == 'z')) {
          ++at;
          break;
        }
        if (at >= text.size() || (text[at] != '+' && text[at] != '-')) {
          return fail("Expected +HH[MM] or -HH[MM]");
        }
        const bool negative = text[at] == '-';
        ++at;
        int64_t hours = 0, minutes = 0;
        if (!number(2, &hours)) return fail("Expected +HH[MM] or -HH[MM]");
        if (at < text.size() && text[at] == ':') ++at;
        number(2, &minutes);
        offset_minutes = (negative ? -1 : 1) * (hours * 60 + minutes);
        break;
      }
      case 'Z':
        while (at < text.size() && !std::isspace(static_cast<unsigned char>(text[at]))) ++at;
        break;
      default: break;
    }
  }
  skip_spaces();
  if (at < text.size()) return fail("Full specifier did not match: trailing characters");
  if (has_ampm) hour = hour % 12 + (pm ? 12 : 0);
  int64_t days;
  if (day_of_year > 0) {
    days = DaysFromCivil(year, 1, 1) + day_of_year - 1;
  } else {
    if (!IsValidDate(year, month, day)) {
      at = 0;
      return fail("Date out of range: " + std::to_string(year) + "-" + std::to_string(month) +
                  "-" + std::to_string(day));
    }
    days = DaysFromCivil(year, month, day);
  }
  if (days < kMinTimestampDays || days > kMaxTimestampDays) {
    return fail("Date out of range for a timestamp");
  }
  return days * kMicrosPerDay + ((hour * 60 + minute - offset_minutes) * 60 + second) *
                                    kMicrosPerSecond + micros;
}

int64_t MicrosOfDateValue(const Value& v) {
  const int64_t raw = v.GetInt64();
  switch (v.type().id) {
    case TypeId::kDate: return raw * kMicrosPerDay;
    case TypeId::kTimestampS: return raw * kMicrosPerSecond;
    case TypeId::kTimestampMs: return raw * 1000;
    case TypeId::kTimestampNs: return FloorDiv(raw, 1000);
    default: return raw;
  }
}

// ---------------------------------------------------------------------------------------------
// The functions.

std::optional<DatePart> PartOfFunction(FunctionId id) {
  switch (id) {
    case FunctionId::kYear: return DatePart::kYear;
    case FunctionId::kMonth: return DatePart::kMonth;
    case FunctionId::kDay: return DatePart::kDay;
    case FunctionId::kHour: return DatePart::kHour;
    case FunctionId::kMinute: return DatePart::kMinute;
    case FunctionId::kSecond: return DatePart::kSecond;
    case FunctionId::kQuarter: return DatePart::kQuarter;
    case FunctionId::kDayOfWeek: return DatePart::kDayOfWeek;
    case FunctionId::kIsoDow: return DatePart::kIsoDayOfWeek;
    case FunctionId::kDayOfYear: return DatePart::kDayOfYear;
    case FunctionId::kWeek: return DatePart::kWeek;
    case FunctionId::kIsoYear: return DatePart::kIsoYear;
    case FunctionId::kYearWeek: return DatePart::kYearWeek;
    case FunctionId::kDecade: return DatePart::kDecade;
    case FunctionId::kCentury: return DatePart::kCentury;
    case FunctionId::kMillennium: return DatePart::kMillennium;
    case FunctionId::kEra: return DatePart::kEra;
    case FunctionId::kMillisecond: return DatePart::kMillisecond;
    case FunctionId::kMicrosecond: return DatePart::kMicrosecond;
    default: return std::nullopt;
  }
}

namespace {

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// DuckDB's time_bucket: buckets of whole months counted from 2000-01-01, or of a fixed width
// counted from 2000-01-03 (a Monday), or from the origin given; an offset shifts the buckets.
Result<Value> TimeBucket(std::span<const Value> args, const DataType& result_type) {
  const Interval& width = args[0].GetInterval();
  const bool date = result_type.id == TypeId::kDate;
  int64_t t = date ? args[1].GetInt64() * kMicrosPerDay : args[1].GetInt64();
  int64_t offset = 0;
  std::optional<int64_t> origin;
  if (args.size() > 2) {
    if (args[2].type().id == TypeId::kInterval) {
      const Interval& shift = args[2].GetInterval();
      offset = (static_cast<int64_t>(shift.days) * kMicrosPerDay + shift.nanos / 1000) +
               static_cast<int64_t>(shift.months) * 30 * kMicrosPerDay;
    } else {
      origin = args[2].GetInt64();
    }
  }
  const int64_t width_micros = static_cast<int64_t>(width.days) * kMicrosPerDay +
                               width.nanos / 1000;
  int64_t bucket = 0;
  if (width.months != 0) {
    if (width_micros != 0) {
      return Status::InvalidArgument(
          "Not implemented Error: Month intervals cannot have day or time component");
    }
    if (width.months < 0) {
      return Status::InvalidArgument("Not implemented Error: Period must be greater than 0");
    }
    int64_t year, month, day;
    t -= offset;
    CivilFromDays(FloorDiv(t, kMicrosPerDay), &year, &month, &day);
    int64_t origin_months = 0;  // 2000-01
    if (origin) {
      int64_t oy, om, od;
      CivilFromDays(FloorDiv(*origin, kMicrosPerDay), &oy, &om, &od);
      origin_months = (oy - 2000) * 12 + om - 1;
    }
    const int64_t months = (year - 2000) * 12 + month - 1;
    const int64_t start = FloorDiv(months - origin_months, width.months) * width.months +
                          origin_months;
    const int64_t y = 2000 + FloorDiv(start, 12);
    const int64_t m = start - FloorDiv(start, 12) * 12 + 1;
    bucket = DaysFromCivil(y, m, 1) * kMicrosPerDay + offset;
  } else {
    if (width_micros <= 0) {
      return Status::InvalidArgument("Not implemented Error: Period must be greater than 0");
    }
    const int64_t base = origin ? *origin : 946857600000000LL + offset;  // 2000-01-03
    bucket = base + FloorDiv(t - base, width_micros) * width_micros;
  }
  if (date) return Value::Int(result_type, FloorDiv(bucket, kMicrosPerDay));
  return Value::Int(result_type, bucket);
}

}  // namespace

bool IsDateFunction(FunctionId id) {
  return PartOfFunction(id).has_value() || id == FunctionId::kDatePart ||
         id == FunctionId::kDateTrunc || id == FunctionId::kDateDiff ||
         id == FunctionId::kEpoch || id == FunctionId::kEpochMs || id == FunctionId::kEpochUs ||
         id == FunctionId::kEpochNs || id == FunctionId::kDayName ||
         id == FunctionId::kMonthName || id == FunctionId::kLastDay ||
         id == FunctionId::kStrftime || id == FunctionId::kStrptime ||
         id == FunctionId::kTryStrptime || id == FunctionId::kMakeDate ||
         id == FunctionId::kMakeTimestamp || id == FunctionId::kTimeBucket ||
         id == FunctionId::kMakeTime || id == FunctionId::kDateSub || id == FunctionId::kAge;
}

Status ResolveDateFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                const std::vector<const Value*>& constant_args,
                                std::vector<DataType>* cast_to, DataType* result) {
  const size_t n = arg_types.size();
  auto mismatch = []() { return Status::InvalidArgument("mismatch"); };
  auto expect = [&](std::vector<DataType> want, DataType out) -> Status {
    if (want.size() != n) return mismatch();
    *cast_to = std::move(want);
    *result = std::move(out);
    return Status::OK();
  };
  // A part name given as a constant must be one DuckDB knows.
  auto check_part = [&](size_t index, bool (*allowed)(DatePart)) -> Status {
    if (index >= constant_args.size() || constant_args[index] == nullptr ||
        constant_args[index]->is_null()) {
      return Status::OK();
    }
    const std::string& name = constant_args[index]->GetBytes();
    std::optional<DatePart> part = ParseDatePart(name);
    if (!part) return UnknownPart(name);
    if (allowed != nullptr && !allowed(*part)) {
      return Status::InvalidArgument("Not implemented Error: Specifier type not implemented for ",
                                     id == FunctionId::kDateTrunc ? "DATETRUNC" : "DATEDIFF",
                                     ": \"", name, "\"");
    }
    return Status::OK();
  };
  if (PartOfFunction(id)) {
    if (n != 1 || !IsDateLike(arg_types[0])) return mismatch();
    return expect({arg_types[0]}, kBigint);
  }
  switch (id) {
    case FunctionId::kDatePart: {
      if (n != 2 || arg_types[0].id != TypeId::kVarchar || !IsDateLike(arg_types[1])) {
        return mismatch();
      }
      TARN_RETURN_NOT_OK(check_part(0, nullptr));
      const bool epoch = constant_args[0] != nullptr && !constant_args[0]->is_null() &&
                         ParseDatePart(constant_args[0]->GetBytes()) == DatePart::kEpoch;
      return expect({kVarchar, arg_types[1]}, epoch ? kDouble : kBigint);
    }
    case FunctionId::kDateTrunc:
      if (n != 2 || arg_types[0].id != TypeId::kVarchar || !IsDateLike(arg_types[1])) {
        return mismatch();
      }
      TARN_RETURN_NOT_OK(check_part(0, TruncatesTo));
      return expect({kVarchar, arg_types[1]}, kTimestamp);
    case FunctionId::kDateDiff:
      if (n != 3 || arg_types[0].id != TypeId::kVarchar || !IsDateLike(arg_types[1]) ||
          !IsDateLike(arg_types[2])) {
        return mismatch();
      }
      TARN_RETURN_NOT_OK(check_part(0, DiffersBy));
      if (arg_types[1].id == TypeId::kDate && arg_types[2].id == TypeId::kDate) {
        return expect({kVarchar, kDate, kDate}, kBigint);
      }
      return expect({kVarchar, kTimestamp, kTimestamp}, kBigint);
    case FunctionId::kDateSub:
      if (n != 3 || (arg_types[0].id != TypeId::kVarchar && arg_types[0].id != TypeId::kNull) || !IsDateLike(arg_types[1]) ||
          !IsDateLike(arg_types[2])) {
        return mismatch();
      }
      TARN_RETURN_NOT_OK(check_part(0, SubtractsBy));
      if (arg_types[1].id == TypeId::kDate && arg_types[2].id == TypeId::kDate) {
        return expect({kVarchar, kDate, kDate}, kBigint);
      }
      return expect({kVarchar, kTimestamp, kTimestamp}, kBigint);
    case FunctionId::kAge:
      // age(a) measures from the current time: left out, as its answer changes by the second.
      if (n != 2 || (arg_types[0].id != TypeId::kTimestamp && arg_types[0].id != TypeId::kDate) ||
          (arg_types[1].id != TypeId::kTimestamp && arg_types[1].id != TypeId::kDate)) {
        return mismatch();
      }
      return expect({kTimestamp, kTimestamp}, DataType(TypeId::kInterval));
    case FunctionId::kEpoch:
      if (n != 1 || !IsDateLike(arg_types[0])) return mismatch();
      return expect({arg_types[0]}, kDouble);
    case FunctionId::kEpochMs:
      if (n == 1 && arg_types[0].IsInteger()) return expect({kBigint}, kTimestamp);
      [[fallthrough]];
    case FunctionId::kEpochUs: case FunctionId::kEpochNs:
      if (n != 1 || !IsDateLike(arg_types[0])) return mismatch();
      return expect({arg_types[0]}, kBigint);
    case FunctionId::kDayName: case FunctionId::kMonthName:
      if (n != 1 || !IsDateLike(arg_types[0])) return mismatch();
      return expect({arg_types[0]}, kVarchar);
    case FunctionId::kLastDay:
      if (n != 1 || !IsDateLike(arg_types[0])) return mismatch();
      return expect({arg_types[0]}, kDate);
    case FunctionId::kStrftime: {
      if (n != 2) return mismatch();
      // strftime(format, date) is accepted too, as DuckDB does.
      const size_t format_at = arg_types[0].id == TypeId::kVarchar ? 0 : 1;
      const size_t date_at = 1 - format_at;
      if (arg_types[format_at].id != TypeId::kVarchar || !IsDateLike(arg_types[date_at])) {
        return mismatch();
      }
      if (constant_args[format_at] != nullptr && !constant_args[format_at]->is_null()) {
        TARN_RETURN_NOT_OK(DateFormat::Compile(constant_args[format_at]->GetBytes()).status());
      }
      std::vector<DataType> want(2);
      want[format_at] = kVarchar;
      want[date_at] = arg_types[date_at];
      return expect(std::move(want), kVarchar);
    }
    case FunctionId::kStrptime: case FunctionId::kTryStrptime:
      if (n != 2 || arg_types[0].id != TypeId::kVarchar || arg_types[1].id != TypeId::kVarchar) {
        return mismatch();
      }
      if (constant_args[1] != nullptr && !constant_args[1]->is_null()) {
        TARN_RETURN_NOT_OK(DateFormat::Compile(constant_args[1]->GetBytes()).status());
      }
      return expect({kVarchar, kVarchar}, kTimestamp);
    case FunctionId::kMakeDate:
      if (n != 3) return mismatch();
      for (const DataType& t : arg_types) {
        if (!t.IsNumeric()) return mismatch();
      }
      return expect({kBigint, kBigint, kBigint}, kDate);
    case FunctionId::kMakeTimestamp:
      if (n != 6) return mismatch();
      for (const DataType& t : arg_types) {
        if (!t.IsNumeric()) return mismatch();
      }
      return expect({kBigint, kBigint, kBigint, kBigint, kBigint, kDouble}, kTimestamp);
    case FunctionId::kMakeTime:
      for (const DataType& t : arg_types) {
        if (!t.IsNumeric() && t.id != TypeId::kNull) return mismatch();
      }
      return expect({kBigint, kBigint, kDouble}, DataType(TypeId::kTime));
    case FunctionId::kTimeBucket: {
      // time_bucket(width, t[, origin TIMESTAMP | offset INTERVAL]): t's type, DATE or TIMESTAMP.
      // A DATE with an origin is bucketed as a TIMESTAMP.
      const DataType kInterval(TypeId::kInterval);
      if (n < 2 || n > 3 ||
          (arg_types[0].id != TypeId::kInterval && arg_types[0].id != TypeId::kNull)) {
        return mismatch();
      }
      const DataType& t = arg_types[1];
      if (t.id != TypeId::kDate && t.id != TypeId::kTimestamp && t.id != TypeId::kNull) {
        return mismatch();
      }
      const DataType out = t.id == TypeId::kDate ? DataType(TypeId::kDate) : kTimestamp;
      if (n == 2) return expect({kInterval, out}, out);
      const DataType& third = arg_types[2];
      if (third.id == TypeId::kInterval) return expect({kInterval, out, third}, out);
      if (third.id == TypeId::kDate || third.id == TypeId::kTimestamp || third.id == TypeId::kNull) {
        return expect({kInterval, kTimestamp, kTimestamp}, kTimestamp);
      }
      return mismatch();
    }
    default:
      return mismatch();
  }
}

Result<Value> InvokeDateFunction(FunctionId id, std::span<const Value> args,
                                 const DataType& result_type) {
  if (std::optional<DatePart> part = PartOfFunction(id)) {
    return Value::Int64(ExtractDatePart(*part, MicrosOfDateValue(args[0])));
  }
  switch (id) {
    case FunctionId::kDatePart: {
      const std::string& name = args[0].GetBytes();
      std::optional<DatePart> part = ParseDatePart(name);
      if (!part) return UnknownPart(name);
      const int64_t micros = MicrosOfDateValue(args[1]);
      if (*part == DatePart::kEpoch) {
        const double seconds = static_cast<double>(micros) / 1e6;
        if (result_type.id == TypeId::kFloat64) return Value::Float64(seconds);
        return Value::Int64(ExtractDatePart(DatePart::kEpoch, micros));
      }
      return Value::Int64(ExtractDatePart(*part, micros));
    }
    case FunctionId::kDateTrunc: {
      const std::string& name = args[0].GetBytes();
      std::optional<DatePart> part = ParseDatePart(name);
      if (!part) return UnknownPart(name);
      if (!TruncatesTo(*part)) {
        return Status::InvalidArgument(
            "Not implemented Error: Specifier type not implemented for DATETRUNC: \"", name, "\"");
      }
      return Value::Int(kTimestamp, TruncateMicros(*part, MicrosOfDateValue(args[1])));
    }
    case FunctionId::kDateDiff: {
      const std::string& name = args[0].GetBytes();
      std::optional<DatePart> part = ParseDatePart(name);
      if (!part) return UnknownPart(name);
      if (!DiffersBy(*part)) {
        return Status::InvalidArgument(
            "Not implemented Error: Specifier type not implemented for DATEDIFF: \"", name, "\"");
      }
      return Value::Int64(DateDiff(*part, MicrosOfDateValue(args[1]), MicrosOfDateValue(args[2])));
    }
    case FunctionId::kDateSub: {
      const std::string& name = args[0].GetBytes();
      std::optional<DatePart> part = ParseDatePart(name);
      if (!part) return UnknownPart(name);
      if (!SubtractsBy(*part)) {
        return Status::InvalidArgument(
            "Not implemented Error: Specifier type not implemented for DATESUB: \"", name, "\"");
      }
      return Value::Int64(DateSub(*part, MicrosOfDateValue(args[1]), MicrosOfDateValue(args[2])));
    }
    case FunctionId::kAge:
      return Value::MakeInterval(AgeOf(MicrosOfDateValue(args[0]), MicrosOfDateValue(args[1])));
    case FunctionId::kEpoch:
      return Value::Float64(static_cast<double>(MicrosOfDateValue(args[0])) / 1e6);
    case FunctionId::kEpochMs:
      if (args[0].type().IsInteger()) return Value::Int(kTimestamp, args[0].GetInt64() * 1000);
      return Value::Int64(FloorDiv(MicrosOfDateValue(args[0]), 1000));
    case FunctionId::kEpochUs: return Value::Int64(MicrosOfDateValue(args[0]));
    case FunctionId::kEpochNs:
      if (args[0].type().id == TypeId::kTimestampNs) return Value::Int64(args[0].GetInt64());
      return Value::Int64(MicrosOfDateValue(args[0]) * 1000);
    case FunctionId::kDayName:
      return Value::Varchar(kDayNames[DayOfWeek(FloorDiv(MicrosOfDateValue(args[0]), kMicrosPerDay))]);
    case FunctionId::kMonthName:
      return Value::Varchar(kMonthNames[ExtractDatePart(DatePart::kMonth, MicrosOfDateValue(args[0])) - 1]);
    case FunctionId::kLastDay: {
      const Civil c = CivilOf(MicrosOfDateValue(args[0]));
      const int64_t next = c.month == 12 ? DaysFromCivil(c.year + 1, 1, 1)
                                         : DaysFromCivil(c.year, c.month + 1, 1);
      return Value::Int(kDate, next - 1);
    }
    case FunctionId::kStrftime: {
      const size_t format_at = args[0].type().id == TypeId::kVarchar ? 0 : 1;
      TARN_ASSIGN_OR_RETURN(DateFormat format, DateFormat::Compile(args[format_at].GetBytes()));
      std::string out;
      format.Format(MicrosOfDateValue(args[1 - format_at]), &out);
      return Value::Varchar(std::move(out));
    }
    case FunctionId::kStrptime: case FunctionId::kTryStrptime: {
      TARN_ASSIGN_OR_RETURN(DateFormat format, DateFormat::Compile(args[1].GetBytes()));
      Result<int64_t> micros = format.Parse(args[0].GetBytes());
      if (!micros.ok()) {
        if (id == FunctionId::kTryStrptime) return Value::Null(kTimestamp);
        return micros.status();
      }
      return Value::Int(kTimestamp, *micros);
    }
    case FunctionId::kMakeDate: {
      const int64_t year = args[0].GetInt64(), month = args[1].GetInt64(), day = args[2].GetInt64();
      if (!IsValidDate(year, month, day)) {
        return Status::InvalidArgument("Conversion Error: Date out of range: ", year, "-", month,
                                       "-", day);
      }
      return Value::Int(kDate, DaysFromCivil(year, month, day));
    }
    case FunctionId::kMakeTimestamp: {
      const int64_t year = args[0].GetInt64(), month = args[1].GetInt64(), day = args[2].GetInt64();
      const int64_t hour = args[3].GetInt64(), minute = args[4].GetInt64();
      const double seconds = args[5].GetDouble();
      if (!IsValidDate(year, month, day)) {
        return Status::InvalidArgument("Conversion Error: Date out of range: ", year, "-", month,
                                       "-", day);
      }
      if (hour < 0 || hour > 24 || minute < 0 || minute > 59 || !(seconds >= 0 && seconds < 60)) {
        return Status::InvalidArgument("Conversion Error: Time out of range: ", hour, ":", minute,
                                       ":", FormatDouble(seconds, false));
      }
      const int64_t micros = static_cast<int64_t>(std::llround(seconds * 1e6));
      return Value::Int(kTimestamp, DaysFromCivil(year, month, day) * kMicrosPerDay +
                                        (hour * 60 + minute) * 60 * kMicrosPerSecond + micros);
    }
    case FunctionId::kMakeTime: {
      const int64_t hour = args[0].GetInt64(), minute = args[1].GetInt64();
      const double seconds = args[2].GetDouble();
      const int64_t micros = static_cast<int64_t>(std::llround(seconds * 1e6));
      if (hour < 0 || hour > 24 || minute < 0 || minute >= 60 || micros < 0 ||
          micros >= 60 * kMicrosPerSecond) {
        return Status::InvalidArgument("Conversion Error: Time out of range: ", hour, ":", minute,
                                       ":", seconds);
      }
      return Value::Int(result_type, (hour * 60 + minute) * 60 * kMicrosPerSecond + micros);
    }
    case FunctionId::kTimeBucket: return TimeBucket(args, result_type);
    default:
      return Status::Internal("not a date function");
  }
}

}  // namespace tarn::expr
