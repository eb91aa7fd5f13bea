#include "format/scalar_text.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

#include "util/calendar.h"
#include "util/integer_math.h"

namespace tarn::format {
namespace {

constexpr char kHexUpper[] = "0123456789ABCDEF";
constexpr char kHexLower[] = "0123456789abcdef";

// The two decimal digits of 0 <= v < 100 at out[0..1].
void PutTwoDigits(unsigned v, char* out) {
  out[0] = static_cast<char>('0' + v / 10);
  out[1] = static_cast<char>('0' + v % 10);
}

void AppendPadded(int64_t v, int width, std::string* out) {
  if (width == 2 && v >= 0 && v < 100) {
    char two[2];
    PutTwoDigits(static_cast<unsigned>(v), two);
    out->append(two, 2);
    return;
  }
  char digits[24];
  auto result = std::to_chars(digits, digits + sizeof digits, v);
  int len = static_cast<int>(result.ptr - digits);
  for (int pad = len; pad < width; ++pad) out->push_back('0');
  out->append(digits, result.ptr);
}

// Appends `fraction` (0 <= fraction < 10^digits) as ".ddd" without trailing zeros; nothing
// when it is zero.
void AppendFraction(int64_t fraction, int digits, std::string* out) {
  if (fraction == 0) return;
  char text[16];
  for (int i = digits - 1; i >= 0; --i) {
    text[i] = static_cast<char>('0' + fraction % 10);
    fraction /= 10;
  }
  int len = digits;
  while (len > 0 && text[len - 1] == '0') --len;
  out->push_back('.');
  out->append(text, static_cast<size_t>(len));
}

int DigitsOf(int64_t units_per_second) {
  int digits = 0;
  for (int64_t u = units_per_second; u > 1; u /= 10) ++digits;
  return digits;
}

// Days since 1970-01-01 to a proleptic Gregorian date (days may be far outside int32).
void CivilFromDays(int64_t days, int64_t* year, int* month, int* day) {
  int64_t m;
  int64_t d;
  tarn::CivilFromDays(days, year, &m, &d);
  *month = static_cast<int>(m);
  *day = static_cast<int>(d);
}

void AppendCivilDate(int64_t days, std::string* out, bool* bc) {
  int64_t year;
  int month;
  int day;
  CivilFromDays(days, &year, &month, &day);
  *bc = year <= 0;
  if (year >= 1 && year <= 9999) {  // "YYYY-MM-DD" written at once
    char text[10];
    PutTwoDigits(static_cast<unsigned>(year / 100), text);
    PutTwoDigits(static_cast<unsigned>(year % 100), text + 2);
    text[4] = '-';
    PutTwoDigits(static_cast<unsigned>(month), text + 5);
    text[7] = '-';
    PutTwoDigits(static_cast<unsigned>(day), text + 8);
    out->append(text, sizeof text);
    return;
  }
  AppendPadded(*bc ? 1 - year : year, 4, out);
  out->push_back('-');
  AppendPadded(month, 2, out);
  out->push_back('-');
  AppendPadded(day, 2, out);
}

// Shortest round-trip decimal digits of a finite, non-zero value: `digits` without a dot and
// the decimal exponent of the first digit (value = d.ddd x 10^exponent).
template <typename T>
void ShortestDigits(T v, std::string* digits, int* exponent) {
  char text[64];
  auto result = std::to_chars(text, text + sizeof text, v, std::chars_format::scientific);
  std::string_view s(text, static_cast<size_t>(result.ptr - text));
  size_t e_pos = s.find('e');
  digits->clear();
  for (char c : s.substr(0, e_pos)) {
    if (c >= '0' && c <= '9') digits->push_back(c);
  }
  int exp_value = 0;
  std::from_chars(s.data() + e_pos + (s[e_pos + 1] == '+' ? 2 : 1), s.data() + s.size(),
                  exp_value);
  *exponent = exp_value;
}

// Lays out shortest digits. Fixed notation when fixed_low <= exponent < fixed_high; else
// scientific with `exp_plus` ("e+16" vs "e16") and `exp_min_digits` exponent digits.
template <typename T>
void AppendShortest(T v, int fixed_low, int fixed_high, bool exp_plus, int exp_min_digits,
                    std::string* out) {
  if (std::signbit(v)) out->push_back('-');
  if (v == 0) {
    out->append("0.0");
    return;
  }
  std::string digits;
  int exponent = 0;
  ShortestDigits(std::fabs(v), &digits, &exponent);
  const int n = static_cast<int>(digits.size());
  if (exponent >= fixed_low && exponent < fixed_high) {
    if (exponent < 0) {
      out->append("0.");
      out->append(static_cast<size_t>(-exponent - 1), '0');
      out->append(digits);
    } else if (exponent + 1 >= n) {
      out->append(digits);
      out->append(static_cast<size_t>(exponent + 1 - n), '0');
      out->append(".0");
    } else {
      out->append(digits, 0, static_cast<size_t>(exponent + 1));
      out->push_back('.');
      out->append(digits, static_cast<size_t>(exponent + 1));
    }
    return;
  }
  out->push_back(digits[0]);
  if (n > 1) {
    out->push_back('.');
    out->append(digits, 1);
  }
  out->push_back('e');
  if (exponent < 0) {
    out->push_back('-');
  } else if (exp_plus) {
    out->push_back('+');
  }
  AppendPadded(exponent < 0 ? -exponent : exponent, exp_min_digits, out);
}

// The exact decimal value of a double (glibc prints binary values exactly): significant
// digits without trailing zeros and the exponent of the first one.
void ExactDecimal(double x, std::string* digits, int* exponent) {
  char text[256];
  std::snprintf(text, sizeof text, "%.160e", x);
  std::string_view s(text);
  const size_t e_pos = s.find('e');
  digits->clear();
  for (char c : s.substr(0, e_pos)) {
    if (c >= '0' && c <= '9') digits->push_back(c);
  }
  while (digits->size() > 1 && digits->back() == '0') digits->pop_back();
  *exponent = std::atoi(text + e_pos + 1);
}

// DuckDB's float spelling is the float's shortest digits except where that choice is not
// clear-cut: when the value lies exactly halfway between two shortest candidates, or the
// shortest candidate lies exactly on the edge of the float's rounding interval. There it
// prints the shortest digits of the value widened to double (the exact value for such
// floats), e.g. 3855801.25 rather than 3855801.2, and 39433048.0 rather than 39433050.0.
bool FloatShortestIsAmbiguous(float v) {
  if (v == 0 || !std::isfinite(v)) return false;
  const float magnitude = std::fabs(v);
  std::string shortest;
  int shortest_exp = 0;
  ShortestDigits(magnitude, &shortest, &shortest_exp);
  const int last_digit_exp = shortest_exp - static_cast<int>(shortest.size()) + 1;
  std::string exact;
  int exact_exp = 0;
  ExactDecimal(static_cast<double>(magnitude), &exact, &exact_exp);
  if (exact.back() == '5' && exact_exp - static_cast<int>(exact.size()) + 1 == last_digit_exp - 1) {
    return true;  // halfway between two candidates of the shortest length
  }
  const double value = static_cast<double>(magnitude);
  const double up = (static_cast<double>(std::nextafter(magnitude, INFINITY)) - value) / 2;
  const double down = (value - static_cast<double>(std::nextafter(magnitude, 0.0f))) / 2;
  for (double edge : {value + up, value - down}) {
    std::string edge_digits;
    int edge_exp = 0;
    ExactDecimal(edge, &edge_digits, &edge_exp);
    std::string trimmed = shortest;
    while (trimmed.size() > 1 && trimmed.back() == '0') trimmed.pop_back();
    if (edge_digits == trimmed && edge_exp == shortest_exp) return true;
  }
  return false;
}

template <typename T>
void AppendReprFloating(T v, std::string* out) {
  if (std::isnan(v)) {
    out->append(std::signbit(v) ? "-nan" : "nan");
  } else if (std::isinf(v)) {
    out->append(v < 0 ? "-inf" : "inf");
  } else if (std::is_same_v<T, float> && FloatShortestIsAmbiguous(static_cast<float>(v))) {
    AppendShortest(static_cast<double>(v), -4, 16, /*exp_plus=*/true, /*exp_min_digits=*/2, out);
  } else {
    AppendShortest(v, -4, 16, /*exp_plus=*/true, /*exp_min_digits=*/2, out);
  }
}

}  // namespace

void AppendInt64(int64_t v, std::string* out) {
  char text[24];
  auto result = std::to_chars(text, text + sizeof text, v);
  out->append(text, result.ptr);
}

void AppendUInt64(uint64_t v, std::string* out) {
  char text[24];
  auto result = std::to_chars(text, text + sizeof text, v);
  out->append(text, result.ptr);
}

void AppendUInt128(unsigned __int128 v, std::string* out) {
  char text[48];
  int pos = sizeof text;
  do {
    text[--pos] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v != 0);
  out->append(text + pos, sizeof text - static_cast<size_t>(pos));
}

void AppendInt128(__int128 v, std::string* out) {
  if (v < 0) {
    out->push_back('-');
    // Negate in unsigned arithmetic so that the minimum value does not overflow.
    AppendUInt128(static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(v), out);
  } else {
    AppendUInt128(static_cast<unsigned __int128>(v), out);
  }
}

void AppendDecimal(__int128 unscaled, int precision, int scale, std::string* out) {
  if (scale <= 0) {
    AppendInt128(unscaled, out);
    return;
  }
  std::string digits;
  unsigned __int128 magnitude = unscaled < 0 ? static_cast<unsigned __int128>(0) -
                                                   static_cast<unsigned __int128>(unscaled)
                                             : static_cast<unsigned __int128>(unscaled);
  AppendUInt128(magnitude, &digits);
  if (static_cast<int>(digits.size()) < scale) {
    digits.insert(0, static_cast<size_t>(scale - static_cast<int>(digits.size())), '0');
  }
  if (unscaled < 0) out->push_back('-');
  const size_t int_len = digits.size() - static_cast<size_t>(scale);
  if (int_len > 0) {
    out->append(digits, 0, int_len);
  } else if (precision > scale) {
    out->push_back('0');
  }
  out->push_back('.');
  out->append(digits, int_len);
}

void AppendDouble(double v, std::string* out) { AppendReprFloating(v, out); }
void AppendFloat(float v, std::string* out) { AppendReprFloating(v, out); }

void AppendJsonDouble(double v, std::string* out) {
  if (std::isnan(v)) {
    out->append("NaN");
  } else if (std::isinf(v)) {
    out->append(v < 0 ? "-Infinity" : "Infinity");
  } else {
    AppendShortest(v, -6, 21, /*exp_plus=*/false, /*exp_min_digits=*/1, out);
  }
}

void AppendDate(int32_t days, std::string* out) {
  if (days == std::numeric_limits<int32_t>::max()) {
    out->append("infinity");
    return;
  }
  if (days == -std::numeric_limits<int32_t>::max()) {
    out->append("-infinity");
    return;
  }
  bool bc = false;
  AppendCivilDate(days, out, &bc);
  if (bc) out->append(" (BC)");
}

void AppendTimeOfDay(int64_t units, int64_t units_per_second, std::string* out) {
  // DuckDB prints a time's fields from the absolute value; negative times do not occur in
  // valid data but must not crash.
  uint64_t magnitude = units < 0 ? 0 - static_cast<uint64_t>(units) : static_cast<uint64_t>(units);
  if (units < 0) out->push_back('-');
  const uint64_t per_second = static_cast<uint64_t>(units_per_second);
  uint64_t seconds = magnitude / per_second;
  const int64_t fraction = static_cast<int64_t>(magnitude % per_second);
  AppendPadded(static_cast<int64_t>(seconds / 3600), 2, out);
  out->push_back(':');
  AppendPadded(static_cast<int64_t>(seconds / 60 % 60), 2, out);
  out->push_back(':');
  AppendPadded(static_cast<int64_t>(seconds % 60), 2, out);
  AppendFraction(fraction, DigitsOf(units_per_second), out);
}

void AppendTimestamp(int64_t value, int64_t units_per_second, bool utc_suffix, std::string* out) {
  if (value == std::numeric_limits<int64_t>::max()) {
    out->append("infinity");
    return;
  }
  if (value == -std::numeric_limits<int64_t>::max()) {
    out->append("-infinity");
    return;
  }
  const int64_t units_per_day = units_per_second * 86400;
  const int64_t days = FloorDiv(value, units_per_day);
  const int64_t time = value - days * units_per_day;
  bool bc = false;
  AppendCivilDate(days, out, &bc);
  if (bc) out->append(" (BC)");
  out->push_back(' ');
  AppendTimeOfDay(time, units_per_second, out);
  if (utc_suffix) out->append("+00");
}

void AppendInterval(const Interval& interval, std::string* out) {
  const size_t start = out->size();
  auto append_part = [&](int64_t count, const char* unit) {
    if (count == 0) return;
    if (out->size() != start) out->push_back(' ');
    AppendInt64(count, out);
    out->push_back(' ');
    out->append(unit);
    if (count != 1 && count != -1) out->push_back('s');
  };
  append_part(interval.months / 12, "year");
  append_part(interval.months % 12, "month");
  append_part(interval.days, "day");
  if (interval.nanos != 0) {
    if (out->size() != start) out->push_back(' ');
    uint64_t magnitude = interval.nanos < 0 ? 0 - static_cast<uint64_t>(interval.nanos)
                                            : static_cast<uint64_t>(interval.nanos);
    if (interval.nanos < 0) out->push_back('-');
    const uint64_t seconds = magnitude / 1000000000ULL;
    AppendPadded(static_cast<int64_t>(seconds / 3600), 2, out);
    out->push_back(':');
    AppendPadded(static_cast<int64_t>(seconds / 60 % 60), 2, out);
    out->push_back(':');
    AppendPadded(static_cast<int64_t>(seconds % 60), 2, out);
    AppendFraction(static_cast<int64_t>(magnitude % 1000000000ULL), 9, out);
  } else if (out->size() == start) {
    out->append("00:00:00");
  }
}

void AppendBlob(std::string_view bytes, std::string* out) {
  for (char c : bytes) {
    const unsigned char byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte <= 0x7E && c != '"' && c != '\'' && c != '\\') {
      out->push_back(c);
    } else {
      out->append("\\x");
      out->push_back(kHexUpper[byte >> 4]);
      out->push_back(kHexUpper[byte & 15]);
    }
  }
}

void AppendUuid(std::string_view bytes16, std::string* out) {
  for (size_t i = 0; i < bytes16.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out->push_back('-');
    const unsigned char byte = static_cast<unsigned char>(bytes16[i]);
    out->push_back(kHexLower[byte >> 4]);
    out->push_back(kHexLower[byte & 15]);
  }
}

}  // namespace tarn::format
