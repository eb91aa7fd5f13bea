// Parsing of the value text a DuckLake catalog holds (see value_text.h and docs/catalog.md).
#include "catalog/value_text.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "catalog/names.h"
#include "tarn/catalog.h"

namespace tarn::catalog_internal {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Reads exactly `count` digits at `*pos`.
bool ReadDigits(std::string_view text, size_t* pos, size_t count, int64_t* out) {
  if (*pos + count > text.size()) return false;
  int64_t value = 0;
  for (size_t i = 0; i < count; ++i) {
    char c = text[*pos + i];
    if (!IsDigit(c)) return false;
    value = value * 10 + (c - '0');
  }
  *pos += count;
  *out = value;
  return true;
}

// Reads 1..max_count digits.
bool ReadSomeDigits(std::string_view text, size_t* pos, size_t max_count, int64_t* out) {
  size_t start = *pos;
  int64_t value = 0;
  while (*pos < text.size() && IsDigit(text[*pos]) && *pos - start < max_count) {
    value = value * 10 + (text[*pos] - '0');
    ++*pos;
  }
  *out = value;
  return *pos > start;
}

bool IsLeapYear(int64_t year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

bool ValidDate(int64_t year, int64_t month, int64_t day) {
  static const int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  if (month < 1 || month > 12 || day < 1) return false;
  int64_t max_day = kDays[month - 1] + (month == 2 && IsLeapYear(year) ? 1 : 0);
  return day <= max_day;
}

// Parses "YYYY-MM-DD" with an optional " (BC)" at `*pos` into days.
bool ParseDatePart(std::string_view text, size_t* pos, int64_t* days) {
  int64_t year = 0, month = 0, day = 0;
  if (!ReadSomeDigits(text, pos, 9, &year)) return false;
  if (*pos >= text.size() || text[*pos] != '-') return false;
  ++*pos;
  if (!ReadDigits(text, pos, 2, &month)) return false;
  if (*pos >= text.size() || text[*pos] != '-') return false;
  ++*pos;
  if (!ReadDigits(text, pos, 2, &day)) return false;
  constexpr std::string_view kBc = " (BC)";
  if (text.substr(*pos, kBc.size()) == kBc) {
    *pos += kBc.size();
    if (year == 0) return false;
    year = 1 - year;  // 1 BC is year 0
  }
  if (!ValidDate(year, month, day)) return false;
  *days = DaysFromCivil(year, month, day);
  return true;
}

// Parses "HH:MM:SS[.fraction]" at `*pos` into units (1/units_per_second).
bool ParseTimePart(std::string_view text, size_t* pos, int64_t units_per_second, int64_t* out) {
  int64_t hour = 0, minute = 0, second = 0;
  if (!ReadDigits(text, pos, 2, &hour)) return false;
  if (*pos >= text.size() || text[*pos] != ':') return false;
  ++*pos;
  if (!ReadDigits(text, pos, 2, &minute)) return false;
  if (*pos < text.size() && text[*pos] == ':') {
    ++*pos;
    if (!ReadDigits(text, pos, 2, &second)) return false;
  }
  int64_t fraction_units = 0;
  if (*pos < text.size() && text[*pos] == '.') {
    ++*pos;
    size_t start = *pos;
    int64_t nanos = 0;
    size_t digits = 0;
    while (*pos < text.size() && IsDigit(text[*pos])) {
      if (digits < 9) {
        nanos = nanos * 10 + (text[*pos] - '0');
        ++digits;
      }
      ++*pos;
    }
    if (*pos == start) return false;
    for (; digits < 9; ++digits) nanos *= 10;
    fraction_units = nanos / (1000000000 / units_per_second);
  }
  if (minute > 59 || second > 59) return false;
  if (hour > 24 || (hour == 24 && (minute != 0 || second != 0 || fraction_units != 0))) {
    return false;
  }
  *out = ((hour * 60 + minute) * 60 + second) * units_per_second + fraction_units;
  return true;
}

// Parses a UTC offset at `*pos`: Z, +HH, +HH:MM, +HHMM. Sets seconds east of UTC.
bool ParseOffset(std::string_view text, size_t* pos, int64_t* offset_seconds) {
  if (*pos >= text.size()) return false;
  if (text[*pos] == 'Z' || text[*pos] == 'z') {
    ++*pos;
    *offset_seconds = 0;
    return true;
  }
  int sign = text[*pos] == '+' ? 1 : text[*pos] == '-' ? -1 : 0;
  if (sign == 0) return false;
  ++*pos;
  int64_t hours = 0, minutes = 0;
  if (!ReadDigits(text, pos, 2, &hours)) return false;
  if (*pos < text.size() && text[*pos] == ':') ++*pos;
  if (*pos < text.size()) {
    if (!ReadDigits(text, pos, 2, &minutes)) return false;
  }
  if (hours > 23 || minutes > 59) return false;
  *offset_seconds = sign * (hours * 3600 + minutes * 60);
  return true;
}

}  // namespace


bool ParseInt128Text(std::string_view text, __int128* out) {
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
    negative = text[pos] == '-';
    ++pos;
  }
  if (pos == text.size()) return false;
  // Accumulate negatively so that the minimum value fits.
  const __int128 kMin = static_cast<__int128>(static_cast<unsigned __int128>(1) << 127);
  __int128 value = 0;
  for (; pos < text.size(); ++pos) {
    if (!IsDigit(text[pos])) return false;
    int digit = text[pos] - '0';
    if (value < (kMin + digit) / 10) return false;
    value = value * 10 - digit;
  }
  if (!negative) {
    if (value == kMin) return false;
    value = -value;
  }
  *out = value;
  return true;
}

bool ParseInt64Text(std::string_view text, int64_t* out) {
  __int128 wide = 0;
  if (text.size() > 40 || !ParseInt128Text(text, &wide)) return false;
  if (wide < std::numeric_limits<int64_t>::min() || wide > std::numeric_limits<int64_t>::max()) {
    return false;
  }
  *out = static_cast<int64_t>(wide);
  return true;
}

bool ParseUInt64Text(std::string_view text, uint64_t* out) {
  if (text.empty() || text.size() > 40 || text[0] == '-') return false;
  __int128 wide = 0;
  if (!ParseInt128Text(text, &wide)) return false;
  if (wide < 0 || wide > static_cast<__int128>(std::numeric_limits<uint64_t>::max())) return false;
  *out = static_cast<uint64_t>(wide);
  return true;
}

bool ParseDoubleText(std::string_view text, double* out) {
  if (text.empty() || text.size() > 400) return false;
  std::string_view body = text;
  bool negative = false;
  if (body[0] == '-' || body[0] == '+') {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (EqualsIgnoreCase(body, "inf") || EqualsIgnoreCase(body, "infinity")) {
    *out = negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
    return true;
  }
  if (EqualsIgnoreCase(body, "nan")) {
    *out = negative ? -std::numeric_limits<double>::quiet_NaN()
                    : std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  // Only plain decimal/scientific notation reaches strtod (no hex floats, no spaces).
  bool digit_seen = false;
  for (char c : body) {
    if (IsDigit(c)) {
      digit_seen = true;
    } else if (c != '.' && c != 'e' && c != 'E' && c != '-' && c != '+') {
      return false;
    }
  }
  if (!digit_seen) return false;
  std::string copy(text);
  char* end = nullptr;
  errno = 0;
  double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return false;
  // ERANGE for overflow gives ±HUGE_VAL, which is what the text denotes; underflow gives a
  // denormal or zero, also fine.
  *out = value;
  return true;
}

bool ParseBoolText(std::string_view text, bool* out) {
  if (EqualsIgnoreCase(text, "true") || EqualsIgnoreCase(text, "t") || text == "1") {
    *out = true;
    return true;
  }
  if (EqualsIgnoreCase(text, "false") || EqualsIgnoreCase(text, "f") || text == "0") {
    *out = false;
    return true;
  }
  return false;
}

bool ParseDecimalText(std::string_view text, int precision, int scale, __int128* unscaled) {
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
    negative = text[pos] == '-';
    ++pos;
  }
  __int128 value = 0;
  int integer_digits = 0;
  int fraction_digits = 0;
  bool any_digit = false;
  for (; pos < text.size() && IsDigit(text[pos]); ++pos) {
    any_digit = true;
    if (value == 0 && text[pos] == '0') continue;  // leading zeros do not count
    if (++integer_digits > precision - scale) return false;
    value = value * 10 + (text[pos] - '0');
  }
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    for (; pos < text.size() && IsDigit(text[pos]); ++pos) {
      any_digit = true;
      if (fraction_digits == scale) {
        if (text[pos] != '0') return false;  // more precision than the type holds
        continue;
      }
      value = value * 10 + (text[pos] - '0');
      ++fraction_digits;
    }
  }
  if (!any_digit || pos != text.size()) return false;
  for (; fraction_digits < scale; ++fraction_digits) value *= 10;
  *unscaled = negative ? -value : value;
  return true;
}

bool ParseDateText(std::string_view text, int32_t* days) {
  if (text == "infinity") {
    *days = std::numeric_limits<int32_t>::max();
    return true;
  }
  if (text == "-infinity") {
    *days = -std::numeric_limits<int32_t>::max();
    return true;
  }
  size_t pos = 0;
  int64_t value = 0;
  if (!ParseDatePart(text, &pos, &value) || pos != text.size()) return false;
  if (value >= std::numeric_limits<int32_t>::max() || value <= -std::numeric_limits<int32_t>::max()) {
    return false;
  }
  *days = static_cast<int32_t>(value);
  return true;
}

bool ParseTimeText(std::string_view text, int64_t units_per_second, int64_t* out) {
  size_t pos = 0;
  return ParseTimePart(text, &pos, units_per_second, out) && pos == text.size();
}

bool ParseTimestampText(std::string_view text, int64_t units_per_second, int64_t* out) {
  if (text == "infinity") {
    *out = std::numeric_limits<int64_t>::max();
    return true;
  }
  if (text == "-infinity") {
    *out = -std::numeric_limits<int64_t>::max();
    return true;
  }
  size_t pos = 0;
  int64_t days = 0;
  if (!ParseDatePart(text, &pos, &days)) return false;
  int64_t time_units = 0;
  int64_t offset_seconds = 0;
  if (pos < text.size()) {
    if (text[pos] != ' ' && text[pos] != 'T') return false;
    ++pos;
    if (!ParseTimePart(text, &pos, units_per_second, &time_units)) return false;
    constexpr std::string_view kBc = " (BC)";
    if (text.substr(pos, kBc.size()) == kBc) return false;  // BC goes after the date
    if (pos < text.size() && !ParseOffset(text, &pos, &offset_seconds)) return false;
    if (pos != text.size()) return false;
  }
  // Days fit in ~31 bits here, so the products below fit in int128 and are range-checked.
  __int128 total = static_cast<__int128>(days) * 86400 * units_per_second + time_units -
                   static_cast<__int128>(offset_seconds) * units_per_second;
  if (total >= std::numeric_limits<int64_t>::max() || total <= -std::numeric_limits<int64_t>::max()) {
    return false;
  }
  *out = static_cast<int64_t>(total);
  return true;
}

bool ParseUuidText(std::string_view text, std::string* bytes16) {
  std::string out;
  out.reserve(16);
  int high = -1;
  size_t hex_count = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '-') {
      // Dashes only at the canonical places (after hex digits 8, 12, 16, 20).
      if (high != -1 || (hex_count != 8 && hex_count != 12 && hex_count != 16 && hex_count != 20)) {
        return false;
      }
      continue;
    }
    int digit = HexDigit(c);
    if (digit < 0) return false;
    ++hex_count;
    if (high < 0) {
      high = digit;
    } else {
      out.push_back(static_cast<char>(high * 16 + digit));
      high = -1;
    }
  }
  if (hex_count != 32) return false;
  *bytes16 = std::move(out);
  return true;
}

bool ParseHexText(std::string_view text, std::string* bytes) {
  if (text.size() % 2 != 0) return false;
  std::string out;
  out.reserve(text.size() / 2);
  for (size_t i = 0; i < text.size(); i += 2) {
    int high = HexDigit(text[i]);
    int low = HexDigit(text[i + 1]);
    if (high < 0 || low < 0) return false;
    out.push_back(static_cast<char>(high * 16 + low));
  }
  *bytes = std::move(out);
  return true;
}

bool ParseEscapedBlobText(std::string_view text, std::string* bytes) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\') {
      if (i + 4 > text.size() || (text[i + 1] != 'x' && text[i + 1] != 'X')) return false;
      int high = HexDigit(text[i + 2]);
      int low = HexDigit(text[i + 3]);
      if (high < 0 || low < 0) return false;
      out.push_back(static_cast<char>(high * 16 + low));
      i += 3;
    } else {
      out.push_back(text[i]);
    }
  }
  *bytes = std::move(out);
  return true;
}

namespace {

Status Undecodable(std::string_view text, const DataType& type, std::string_view form) {
  std::string shown(text.substr(0, 64));
  return Status::InvalidArgument("'", shown, text.size() > 64 ? "...'" : "'", " is not a ",
                                 form, " value of type ", type.ToDuckLakeName());
}

// The shared part of stats and literal decoding; `stats` selects the blob spelling.
Result<Value> DecodeText(std::string_view text, const DataType& type, bool stats) {
  const std::string_view form = stats ? "statistics" : "literal";
  switch (type.id) {
    case TypeId::kBoolean: {
      bool v = false;
      if (!ParseBoolText(text, &v)) return Undecodable(text, type, form);
      return Value::Boolean(v);
    }
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64: {
      int64_t v = 0;
      if (!ParseInt64Text(text, &v)) return Undecodable(text, type, form);
      int bits = type.id == TypeId::kInt8 ? 8 : type.id == TypeId::kInt16 ? 16
                 : type.id == TypeId::kInt32 ? 32 : 64;
      if (bits < 64) {
        int64_t limit = int64_t{1} << (bits - 1);
        if (v < -limit || v >= limit) return Undecodable(text, type, form);
      }
      return Value::Int(type, v);
    }
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64: {
      uint64_t v = 0;
      if (!ParseUInt64Text(text, &v)) return Undecodable(text, type, form);
      int bits = type.id == TypeId::kUInt8 ? 8 : type.id == TypeId::kUInt16 ? 16
                 : type.id == TypeId::kUInt32 ? 32 : 64;
      if (bits < 64 && v >= (uint64_t{1} << bits)) return Undecodable(text, type, form);
      return Value::UInt(type, v);
    }
    case TypeId::kInt128:
    case TypeId::kUInt128: {
      if (stats) break;
      if (type.id == TypeId::kUInt128) {  // up to 2^128 - 1, held as its bit pattern
        if (text.empty() || text.size() > 39) return Undecodable(text, type, form);
        unsigned __int128 u = 0;
        for (char c : text) {
          if (!IsDigit(c) || __builtin_mul_overflow(u, 10, &u) ||
              __builtin_add_overflow(u, static_cast<unsigned>(c - '0'), &u)) {
            return Undecodable(text, type, form);
          }
        }
        return Value::Int128(type, static_cast<__int128>(u));
      }
      __int128 v = 0;
      if (!ParseInt128Text(text, &v)) return Undecodable(text, type, form);
      return Value::Int128(type, v);
    }
    case TypeId::kFloat32:
    case TypeId::kFloat64: {
      double v = 0;
      if (!ParseDoubleText(text, &v)) return Undecodable(text, type, form);
      // A float's text is its shortest spelling; the value is the nearest float.
      if (type.id == TypeId::kFloat32) v = static_cast<double>(static_cast<float>(v));
      return Value::Double(type, v);
    }
    case TypeId::kDecimal: {
      __int128 v = 0;
      if (!ParseDecimalText(text, type.precision, type.scale, &v)) {
        return Undecodable(text, type, form);
      }
      return Value::Int128(type, v);
    }
    case TypeId::kDate: {
      int32_t days = 0;
      if (!ParseDateText(text, &days)) return Undecodable(text, type, form);
      return Value::Int(type, days);
    }
    case TypeId::kTime:
    case TypeId::kTimeNs: {
      int64_t v = 0;
      if (!ParseTimeText(text, type.id == TypeId::kTime ? 1000000 : 1000000000, &v)) {
        return Undecodable(text, type, form);
      }
      return Value::Int(type, v);
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
    case TypeId::kTimestampS:
    case TypeId::kTimestampMs:
    case TypeId::kTimestampNs: {
      int64_t units = type.id == TypeId::kTimestampS    ? 1
                      : type.id == TypeId::kTimestampMs ? 1000
                      : type.id == TypeId::kTimestampNs ? 1000000000
                                                        : 1000000;
      int64_t v = 0;
      if (!ParseTimestampText(text, units, &v)) return Undecodable(text, type, form);
      return Value::Int(type, v);
    }
    case TypeId::kVarchar:
    case TypeId::kJson:
      return Value::Bytes(type, std::string(text));
    case TypeId::kBlob: {
      std::string bytes;
      bool ok = stats ? ParseHexText(text, &bytes) : ParseEscapedBlobText(text, &bytes);
      if (!ok) return Undecodable(text, type, form);
      return Value::Bytes(type, std::move(bytes));
    }
    case TypeId::kUuid: {
      std::string bytes;
      if (!ParseUuidText(text, &bytes)) return Undecodable(text, type, form);
      return Value::Bytes(type, std::move(bytes));
    }
    default:
      break;
  }
  return Status::InvalidArgument("type ", type.ToDuckLakeName(), " has no ", form,
                                 " text form tarn decodes");
}

}  // namespace

Result<Value> DecodeLiteralValue(std::string_view text, const DataType& type) {
  return DecodeText(text, type, /*stats=*/false);
}

}  // namespace tarn::catalog_internal

namespace tarn {

Result<Value> DecodeStatsValue(std::string_view text, const DataType& type) {
  return catalog_internal::DecodeText(text, type, /*stats=*/true);
}

Result<int64_t> ParseCatalogTimestamp(std::string_view text) {
  int64_t micros = 0;
  if (!catalog_internal::ParseTimestampText(text, 1000000, &micros)) {
    return Status::InvalidArgument("'", text, "' is not a timestamp");
  }
  return micros;
}

}  // namespace tarn
