#include "format/text_parse.h"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "util/calendar.h"

namespace tarn::format {
namespace {

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// Reads exactly `count` digits at `*pos`.
bool Digits(std::string_view text, size_t* pos, int count, int64_t* value) {
  if (text.size() - *pos < static_cast<size_t>(count)) return false;
  *value = 0;
  for (int i = 0; i < count; ++i) {
    const char c = text[(*pos)++];
    if (c < '0' || c > '9') return false;
    *value = *value * 10 + (c - '0');
  }
  return true;
}

bool Expect(std::string_view text, size_t* pos, char c) {
  if (*pos >= text.size() || text[*pos] != c) return false;
  ++*pos;
  return true;
}

bool DatePart(std::string_view text, size_t* pos, int64_t* days) {
  int64_t year;
  int64_t month;
  int64_t day;
  if (!Digits(text, pos, 4, &year) || !Expect(text, pos, '-') || !Digits(text, pos, 2, &month) ||
      !Expect(text, pos, '-') || !Digits(text, pos, 2, &day)) {
    return false;
  }
  return DaysFromCivil(year, static_cast<int>(month), static_cast<int>(day), days);
}

// HH:MM[:SS[.fraction]] at *pos to micros.
bool TimePart(std::string_view text, size_t* pos, int64_t* micros) {
  int64_t hour;
  int64_t minute;
  int64_t second = 0;
  if (!Digits(text, pos, 2, &hour) || !Expect(text, pos, ':') || !Digits(text, pos, 2, &minute)) {
    return false;
  }
  int64_t fraction = 0;
  if (*pos < text.size() && text[*pos] == ':') {
    ++*pos;
    if (!Digits(text, pos, 2, &second)) return false;
    if (*pos < text.size() && text[*pos] == '.') {
      ++*pos;
      int digits = 0;
      while (*pos < text.size() && text[*pos] >= '0' && text[*pos] <= '9') {
        if (digits < 6) fraction = fraction * 10 + (text[*pos] - '0');
        ++digits;
        ++*pos;
      }
      if (digits == 0) return false;
      for (int d = digits; d < 6; ++d) fraction *= 10;
    }
  }
  if (hour > 24 || minute > 59 || second > 59) return false;
  *micros = ((hour * 60 + minute) * 60 + second) * 1000000 + fraction;
  return *micros <= 86400LL * 1000000;
}

}  // namespace

bool DaysFromCivil(int64_t year, int month, int day, int64_t* days) {
  if (month < 1 || month > 12 || day < 1) return false;
  static constexpr int kDaysInMonth[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (day > kDaysInMonth[month - 1] + (month == 2 && leap ? 1 : 0)) return false;
  *days = tarn::DaysFromCivil(year, month, day);
  return true;
}

bool ParseInt64(std::string_view text, int64_t* out) {
  text = Trim(text);
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return false;
  auto result = std::from_chars(text.data(), text.data() + text.size(), *out);
  return result.ec == std::errc() && result.ptr == text.data() + text.size();
}

bool ParseDouble(std::string_view text, double* out) {
  text = Trim(text);
  if (text.empty()) return false;
  std::string_view body = text;
  bool negative = false;
  if (body.front() == '-' || body.front() == '+') {
    negative = body.front() == '-';
    body.remove_prefix(1);
  }
  if (EqualsIgnoringCase(body, "nan")) {
    *out = negative ? -std::numeric_limits<double>::quiet_NaN()
                    : std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (EqualsIgnoringCase(body, "inf") || EqualsIgnoringCase(body, "infinity")) {
    *out = negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
    return true;
  }
  // Only plain decimal notation: digits, one '.', an exponent.
  bool seen_digit = false;
  for (size_t i = 0; i < body.size(); ++i) {
    const char c = body[i];
    if (c >= '0' && c <= '9') {
      seen_digit = true;
    } else if (c != '.' && c != 'e' && c != 'E' && !((c == '-' || c == '+') && i > 0 &&
                                                      (body[i - 1] == 'e' || body[i - 1] == 'E'))) {
      return false;
    }
  }
  if (!seen_digit) return false;
  std::string copy(text);
  char* end = nullptr;
  errno = 0;
  *out = std::strtod(copy.c_str(), &end);
  return end == copy.c_str() + copy.size();
}

bool ParseBoolean(std::string_view text, bool* out) {
  text = Trim(text);
  if (EqualsIgnoringCase(text, "true") || EqualsIgnoringCase(text, "t")) {
    *out = true;
    return true;
  }
  if (EqualsIgnoringCase(text, "false") || EqualsIgnoringCase(text, "f")) {
    *out = false;
    return true;
  }
  return false;
}

bool ParseDate(std::string_view text, int32_t* days) {
  text = Trim(text);
  size_t pos = 0;
  int64_t value;
  if (!DatePart(text, &pos, &value) || pos != text.size()) return false;
  *days = static_cast<int32_t>(value);
  return true;
}

bool ParseTimestampMicros(std::string_view text, bool allow_date_only, int64_t* micros) {
  text = Trim(text);
  size_t pos = 0;
  int64_t days;
  if (!DatePart(text, &pos, &days)) return false;
  int64_t time = 0;
  if (pos == text.size()) {
    if (!allow_date_only) return false;
  } else {
    if (text[pos] != ' ' && text[pos] != 'T') return false;
    ++pos;
    if (!TimePart(text, &pos, &time) || pos != text.size()) return false;
  }
  *micros = days * 86400LL * 1000000 + time;
  return true;
}

bool ParseTimeMicros(std::string_view text, int64_t* micros) {
  text = Trim(text);
  size_t pos = 0;
  return TimePart(text, &pos, micros) && pos == text.size();
}

bool ParseDecimal(std::string_view text, int precision, int scale, __int128* unscaled) {
  text = Trim(text);
  bool negative = false;
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  __int128 value = 0;
  int digits = 0;
  int fraction_digits = -1;  // -1: no '.' seen
  for (char c : text) {
    if (c == '.') {
      if (fraction_digits >= 0) return false;
      fraction_digits = 0;
      continue;
    }
    if (c < '0' || c > '9') return false;
    if (fraction_digits >= 0 && ++fraction_digits > scale) return false;
    value = value * 10 + (c - '0');
    if (value != 0 && ++digits > 38) return false;
  }
  if (text.empty() || text == ".") return false;
  __int128 limit = 1;
  for (int d = 0; d < precision && d < 38; ++d) limit *= 10;
  for (int d = fraction_digits < 0 ? 0 : fraction_digits; d < scale; ++d) {
    if (value >= limit) return false;
    value *= 10;
  }
  if (value >= limit) return false;
  *unscaled = negative ? -value : value;
  return true;
}

namespace {

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Result<std::string> ParseBlob(std::string_view text) {
  std::string bytes;
  bytes.reserve(text.size());
  for (size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '\\') {
      // An escape is four bytes, \xAB; DuckDB calls any shorter rest of the text unterminated.
      if (text.size() - at < 4) {
        return Status::InvalidArgument(
            "Conversion Error: Invalid hex escape code encountered in string -> blob "
            "conversion of string \"", text, "\": unterminated escape code at end of blob");
      }
      const int high = HexDigitValue(text[at + 2]);
      const int low = HexDigitValue(text[at + 3]);
      if (text[at + 1] != 'x' || high < 0 || low < 0) {
        return Status::InvalidArgument(
            "Conversion Error: Invalid hex escape code encountered in string -> blob "
            "conversion of string \"", text, "\": ", text.substr(at, 4));
      }
      bytes.push_back(static_cast<char>(high * 16 + low));
      at += 3;
    } else if (static_cast<unsigned char>(c) < 0x80) {
      bytes.push_back(c);
    } else {
      return Status::InvalidArgument(
          "Conversion Error: Invalid byte encountered in STRING -> BLOB conversion of string \"",
          text, "\". All non-ascii characters must be escaped with hex codes (e.g. \\xAA)");
    }
  }
  return bytes;
}

Status AppendParsed(std::string_view text, const DataType& type, ColumnBuilder* builder) {
  auto fail = [&] { return Status::InvalidArgument("cannot parse '", text, "' as ", type.ToString()); };
  switch (type.id) {
    case TypeId::kVarchar:
    case TypeId::kJson:
      builder->AppendBytes(text);
      return Status::OK();
    case TypeId::kBlob: {
      TARN_ASSIGN_OR_RETURN(std::string bytes, ParseBlob(text));
      builder->AppendBytes(bytes);
      return Status::OK();
    }
    case TypeId::kBoolean: {
      bool v;
      if (!ParseBoolean(text, &v)) return fail();
      builder->AppendBool(v);
      return Status::OK();
    }
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64: {
      int64_t v;
      if (!ParseInt64(text, &v)) return fail();
      const int width = type.FixedWidth();
      if (width < 8) {
        const int64_t limit = int64_t{1} << (width * 8 - 1);
        if (v < -limit || v >= limit) return fail();
      }
      if (width == 1) builder->AppendNumber(static_cast<int8_t>(v));
      if (width == 2) builder->AppendNumber(static_cast<int16_t>(v));
      if (width == 4) builder->AppendNumber(static_cast<int32_t>(v));
      if (width == 8) builder->AppendNumber(v);
      return Status::OK();
    }
    case TypeId::kFloat32:
    case TypeId::kFloat64: {
      double v;
      if (!ParseDouble(text, &v)) return fail();
      if (type.id == TypeId::kFloat32) {
        builder->AppendNumber(static_cast<float>(v));
      } else {
        builder->AppendNumber(v);
      }
      return Status::OK();
    }
    case TypeId::kDecimal: {
      __int128 v;
      if (!ParseDecimal(text, type.precision, type.scale, &v)) return fail();
      builder->AppendNumber(v);
      return Status::OK();
    }
    case TypeId::kDate: {
      int32_t v;
      if (!ParseDate(text, &v)) return fail();
      builder->AppendNumber(v);
      return Status::OK();
    }
    case TypeId::kTime: {
      int64_t v;
      if (!ParseTimeMicros(text, &v)) return fail();
      builder->AppendNumber(v);
      return Status::OK();
    }
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: {
      int64_t v;
      if (!ParseTimestampMicros(text, /*allow_date_only=*/true, &v)) return fail();
      builder->AppendNumber(v);
      return Status::OK();
    }
    default:
      return Status::NotSupported("reading ", type.ToString(), " from CSV text");
  }
}

}  // namespace tarn::format
