// Value::ToString: a DuckDB-like rendering for messages and tests.
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "columnar/geometry.h"
#include "tarn/columnar.h"
#include "util/calendar.h"

namespace tarn {
namespace {

std::string UInt128ToString(unsigned __int128 v) {
  if (v == 0) return "0";
  char digits[48];
  int pos = 0;
  while (v != 0) {
    digits[pos++] = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  }
  std::string out;
  while (pos > 0) out += digits[--pos];
  return out;
}

std::string Int128ToString(__int128 v) {
  if (v >= 0) return UInt128ToString(static_cast<unsigned __int128>(v));
  // Negate in unsigned arithmetic so that the minimum value does not overflow.
  return "-" + UInt128ToString(static_cast<unsigned __int128>(0) - static_cast<unsigned __int128>(v));
}

std::string DecimalToString(__int128 unscaled, int scale) {
  std::string digits = Int128ToString(unscaled);
  bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  if (scale > 0) {
    if (static_cast<int>(digits.size()) <= scale) {
      digits.insert(0, static_cast<size_t>(scale + 1 - static_cast<int>(digits.size())), '0');
    }
    digits.insert(digits.size() - static_cast<size_t>(scale), ".");
  }
  return negative ? "-" + digits : digits;
}

std::string DoubleToString(double v, bool is_float) {
  if (std::isnan(v)) return std::signbit(v) ? "-nan" : "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char text[64];
  std::to_chars_result result = is_float
                                    ? std::to_chars(text, text + sizeof text, static_cast<float>(v))
                                    : std::to_chars(text, text + sizeof text, v);
  std::string out(text, result.ptr);
  // DuckDB writes integral doubles with a ".0" ("1.0", "-0.0"), exponent forms as they are.
  if (out.find_first_of(".e") == std::string::npos) out += ".0";
  return out;
}

// Days since 1970-01-01 to a proleptic Gregorian (year, month, day).
void CivilFromDays(int64_t days, int64_t* year, int* month, int* day) {
  int64_t m;
  int64_t d;
  tarn::CivilFromDays(days, year, &m, &d);
  *month = static_cast<int>(m);
  *day = static_cast<int>(d);
}

std::string DateToString(int64_t days) {
  int64_t year;
  int month;
  int day;
  CivilFromDays(days, &year, &month, &day);
  // DuckDB writes years before 1 AD as "(BC)" with year 1 - y.
  bool bc = year <= 0;
  char text[64];
  std::snprintf(text, sizeof text, "%04lld-%02d-%02d%s",
                static_cast<long long>(bc ? 1 - year : year), month, day, bc ? " (BC)" : "");
  return text;
}

// A time of day from a count of `units_per_second` units; fractional digits without
// trailing zeros.
std::string TimeOfDayToString(int64_t units, int64_t units_per_second, int fraction_digits) {
  const int64_t total_seconds = units / units_per_second;
  const int64_t fraction = units % units_per_second;
  char text[64];
  std::snprintf(text, sizeof text, "%02lld:%02lld:%02lld", static_cast<long long>(total_seconds / 3600),
                static_cast<long long>(total_seconds / 60 % 60),
                static_cast<long long>(total_seconds % 60));
  std::string out = text;
  if (fraction != 0) {
    char digits[32];
    std::snprintf(digits, sizeof digits, "%0*lld", fraction_digits, static_cast<long long>(fraction));
    std::string fraction_text = digits;
    while (!fraction_text.empty() && fraction_text.back() == '0') fraction_text.pop_back();
    out += "." + fraction_text;
  }
  return out;
}

std::string TimestampToString(int64_t units, int64_t units_per_second, int fraction_digits) {
  const int64_t units_per_day = units_per_second * 86400;
  int64_t days = units / units_per_day;
  int64_t rest = units % units_per_day;
  if (rest < 0) {
    rest += units_per_day;
    --days;
  }
  // DuckDB keeps the era marker with the date: "290309-12-22 (BC) 00:00:00".
  return DateToString(days) + " " + TimeOfDayToString(rest, units_per_second, fraction_digits);
}

std::string IntervalToString(const Interval& interval) {
  std::string out;
  auto part = [&out](int64_t count, const char* unit) {
    if (count == 0) return;
    if (!out.empty()) out += ' ';
    out += std::to_string(count) + " " + unit + (count == 1 || count == -1 ? "" : "s");
  };
  part(interval.months / 12, "year");
  part(interval.months % 12, "month");
  part(interval.days, "day");
  if (interval.nanos != 0 || out.empty()) {
    if (!out.empty()) out += ' ';
    int64_t nanos = interval.nanos;
    if (nanos < 0) {
      out += '-';
      // Split to avoid negating INT64_MIN.
      out += TimeOfDayToString(-(nanos / 1000000000), 1, 0);
      int64_t fraction = -(nanos % 1000000000);
      if (fraction != 0) {
        std::string fraction_text = TimeOfDayToString(fraction, 1000000000, 9);
        out += fraction_text.substr(8);
      }
    } else {
      out += TimeOfDayToString(nanos, 1000000000, 9);
    }
  }
  return out;
}

std::string BlobToString(const std::string& bytes) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : bytes) {
    if (c < 32 || c > 126 || c == '\\' || c == '\'' || c == '"') {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string UuidToString(const std::string& bytes) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    unsigned char c = static_cast<unsigned char>(bytes[i]);
    out += kHex[c >> 4];
    out += kHex[c & 15];
  }
  return out;
}

std::string Render(const Value& value);

// Inside a struct, list or map, strings and temporal values are quoted, as DuckDB does.
std::string RenderChild(const Value& value) {
  std::string text = Render(value);
  if (!value.is_null() && (value.type().IsVarLength() || value.type().id == TypeId::kUuid ||
                           value.type().IsTemporal())) {
    return "'" + text + "'";
  }
  return text;
}

// The Value::Storage alternative each type uses (see columnar.h).
size_t StorageIndexOf(const DataType& type) {
  if (type.id == TypeId::kBoolean) return 1;
  if (type.id == TypeId::kInt128 || type.id == TypeId::kUInt128 || type.id == TypeId::kDecimal) return 4;
  if (type.id == TypeId::kUInt8 || type.id == TypeId::kUInt16 || type.id == TypeId::kUInt32 ||
      type.id == TypeId::kUInt64) {
    return 3;
  }
  if (type.IsFloating()) return 5;
  if (type.IsVarLength() || type.id == TypeId::kUuid) return 6;
  if (type.id == TypeId::kInterval) return 7;
  if (type.IsNested()) return 8;
  return 2;
}

// A Value whose storage does not match its type (a caller bug) still renders, by storage.
std::string RenderMismatched(const Value& value) {
  return std::visit(
      [](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) return v ? "true" : "false";
        if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, uint64_t>) return std::to_string(v);
        if constexpr (std::is_same_v<T, __int128>) return Int128ToString(v);
        if constexpr (std::is_same_v<T, double>) return DoubleToString(v, false);
        if constexpr (std::is_same_v<T, std::string>) return BlobToString(v);
        if constexpr (std::is_same_v<T, Interval>) return IntervalToString(v);
        if constexpr (std::is_same_v<T, std::vector<Value>>) {
          std::string out = "[";
          for (size_t i = 0; i < v.size(); ++i) out += (i > 0 ? ", " : "") + v[i].ToString();
          return out + "]";
        }
        return "NULL";
      },
      value.storage());
}

std::string Render(const Value& value) {
  if (value.is_null()) return "NULL";
  const DataType& type = value.type();
  if (value.storage().index() != StorageIndexOf(type)) {
    return RenderMismatched(value) + " (mismatched " + type.ToString() + ")";
  }
  switch (type.id) {
    case TypeId::kNull: return "NULL";
    case TypeId::kBoolean: return value.GetBool() ? "true" : "false";
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64: return std::to_string(value.GetInt64());
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64: return std::to_string(value.GetUInt64());
    case TypeId::kInt128: return Int128ToString(value.GetInt128());
    case TypeId::kUInt128:
      return UInt128ToString(static_cast<unsigned __int128>(value.GetInt128()));
    case TypeId::kDecimal: return DecimalToString(value.GetInt128(), type.scale);
    case TypeId::kFloat32: return DoubleToString(value.GetDouble(), true);
    case TypeId::kFloat64: return DoubleToString(value.GetDouble(), false);
    case TypeId::kDate: return DateToString(value.GetInt64());
    case TypeId::kTime: return TimeOfDayToString(value.GetInt64(), 1000000, 6);
    case TypeId::kTimeNs: return TimeOfDayToString(value.GetInt64(), 1000000000, 9);
    case TypeId::kTimeTz: return TimeOfDayToString(value.GetInt64(), 1000000, 6) + "+00";
    case TypeId::kTimestamp: return TimestampToString(value.GetInt64(), 1000000, 6);
    case TypeId::kTimestampS: return TimestampToString(value.GetInt64(), 1, 0);
    case TypeId::kTimestampMs: return TimestampToString(value.GetInt64(), 1000, 3);
    case TypeId::kTimestampNs: return TimestampToString(value.GetInt64(), 1000000000, 9);
    case TypeId::kTimestampTz: return TimestampToString(value.GetInt64(), 1000000, 6) + "+00";
    case TypeId::kInterval: return IntervalToString(value.GetInterval());
    case TypeId::kVarchar:
    case TypeId::kJson: return value.GetBytes();
    case TypeId::kBlob:
    case TypeId::kVariant: return BlobToString(value.GetBytes());
    case TypeId::kGeometry: {
      Result<std::string> wkt = geometry::WkbToWkt(value.GetBytes());
      return wkt.ok() ? std::move(wkt).value() : BlobToString(value.GetBytes());
    }
    case TypeId::kUuid: return UuidToString(value.GetBytes());
    case TypeId::kStruct: {
      std::string out = "{";
      const auto& children = value.children();
      for (size_t i = 0; i < children.size(); ++i) {
        if (i > 0) out += ", ";
        std::string name = i < type.children.size() ? type.children[i].name : "?";
        out += "'" + name + "': " + RenderChild(children[i]);
      }
      return out + "}";
    }
    case TypeId::kList: {
      std::string out = "[";
      const auto& children = value.children();
      for (size_t i = 0; i < children.size(); ++i) {
        if (i > 0) out += ", ";
        out += RenderChild(children[i]);
      }
      return out + "]";
    }
    case TypeId::kMap: {
      std::string out = "{";
      const auto& entries = value.children();
      for (size_t i = 0; i < entries.size(); ++i) {
        if (i > 0) out += ", ";
        if (entries[i].is_null() || entries[i].children().size() != 2) {
          out += "?";
          continue;
        }
        out += RenderChild(entries[i].children()[0]) + "=" + RenderChild(entries[i].children()[1]);
      }
      return out + "}";
    }
  }
  return "?";
}

}  // namespace

std::string Value::ToString() const { return Render(*this); }

}  // namespace tarn
