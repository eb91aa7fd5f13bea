#include "expr/eval/cast.h"
#include "expr/eval/cast_internal.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "columnar/geometry.h"
#include "expr/functions/datetime.h"
#include "expr/functions/json_functions.h"
#include "expr/functions/variant_functions.h"
#include "format/nested_text.h"
#include "format/scalar_text.h"
#include "format/text_parse.h"
#include "tarn/format.h"

namespace tarn::expr {
namespace {

constexpr __int128 kInt128Max = (static_cast<__int128>(0x7fffffffffffffffLL) << 64) |
                                static_cast<__int128>(~0ULL);
constexpr __int128 kInt128Min = -kInt128Max - 1;

std::string Int128ToString(__int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  while (u > 0) {
    digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  }
  if (negative) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

std::string UInt128ToString(unsigned __int128 u) {
  std::string digits;
  do {
    digits.push_back(static_cast<char>('0' + static_cast<int>(u % 10)));
    u /= 10;
  } while (u > 0);
  return std::string(digits.rbegin(), digits.rend());
}

// "[+]digits" into an unsigned 128-bit value; false when malformed or past 2^128 - 1.
bool ParseUnsigned128(std::string_view s, unsigned __int128* out) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  if (s.empty()) return false;
  unsigned __int128 v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, c - '0', &v)) return false;
  }
  *out = v;
  return true;
}

}  // namespace

std::string_view TrimSpaces(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Divides by 10^shift rounding half away from zero.
__int128 RoundDivide(__int128 v, int shift) {
  if (shift <= 0) return v;
  __int128 divisor = PowerOfTen(shift);
  __int128 q = v / divisor;
  __int128 r = v % divisor;
  if (r < 0) r = -r;
  if (r * 2 >= divisor) q += v < 0 ? -1 : 1;
  return q;
}

// Parses "[-]digits[.digits][e[-]digits]" exactly into an unscaled value at `scale`, rounding
// half away from zero. False when malformed or too large for int128.
bool ParseDecimalText(std::string_view s, int scale, __int128* out) {
  s = TrimSpaces(s);
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  std::string digits;
  int fraction_digits = 0;
  bool seen_dot = false, any = false;
  size_t pos = 0;
  for (; pos < s.size(); ++pos) {
    char c = s[pos];
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
      any = true;
      if (seen_dot) ++fraction_digits;
    } else if (c == '.' && !seen_dot) {
      seen_dot = true;
    } else {
      break;
    }
  }
  if (!any) return false;
  int exponent = 0;
  if (pos < s.size() && (s[pos] == 'e' || s[pos] == 'E')) {
    ++pos;
    auto [ptr, ec] = std::from_chars(s.data() + pos + (pos < s.size() && s[pos] == '+'),
                                     s.data() + s.size(), exponent);
    if (ec != std::errc() || ptr != s.data() + s.size() || exponent > 100 || exponent < -100) {
      return false;
    }
    pos = s.size();
  }
  if (pos != s.size()) return false;
  // value = digits * 10^(exponent - fraction_digits); we want value * 10^scale.
  int shift = exponent - fraction_digits + scale;
  while (digits.size() > 1 && digits[0] == '0') digits.erase(0, 1);
  if (shift < 0) {
    int drop = -shift;
    if (drop > static_cast<int>(digits.size())) {
      *out = 0;
      return true;
    }
    bool round_up = drop > 0 && digits[digits.size() - static_cast<size_t>(drop)] >= '5';
    digits.resize(digits.size() - static_cast<size_t>(drop));
    if (digits.empty()) digits = "0";
    if (digits.size() > 38) return false;
    __int128 v = 0;
    for (char c : digits) v = v * 10 + (c - '0');
    if (round_up) ++v;
    *out = negative ? -v : v;
    return true;
  }
  if (digits.size() + static_cast<size_t>(shift) > 38) return false;
  __int128 v = 0;
  for (char c : digits) v = v * 10 + (c - '0');
  v *= PowerOfTen(shift);
  *out = negative ? -v : v;
  return true;
}

namespace {

Status OutOfRange(const Value& v, const DataType& to) {
  return Status::InvalidArgument("Conversion Error: Type ", v.type().ToString(), " with value ",
                                 ValueToText(v),
                                 " can't be cast because the value is out of range for the "
                                 "destination type ", to.ToString());
}

// Between two integer types (or from a float to an integer) DuckDB names the physical types:
// "Type INT32 with value -1 can't be cast … destination type UINT64".
Status IntegerOutOfRange(const Value& v, const DataType& to) {
  return Status::InvalidArgument("Conversion Error: Type ", PhysicalName(v.type().id),
                                 " with value ", ValueToText(v),
                                 " can't be cast because the value is out of range for the "
                                 "destination type ", PhysicalName(to.id));
}

// DuckDB names integers by their physical type (INT32) and BOOLEAN as BOOL here, and quotes
// the text of a DECIMAL with double quotes.
Status CouldNotConvert(const Value& v, const DataType& to) {
  if (to.id == TypeId::kDecimal) {
    return Status::InvalidArgument("Conversion Error: Could not convert string \"", v.GetBytes(),
                                   "\" to ", to.ToString());
  }
  const std::string name = to.IsInteger()                ? std::string(PhysicalName(to.id))
                           : to.id == TypeId::kBoolean ? std::string("BOOL")
                                                         : to.ToString();
  return Status::InvalidArgument("Conversion Error: Could not convert string '", v.GetBytes(),
                                 "' to ", name);
}

// DuckDB's infinite dates and timestamps: the largest value of the storage type and its
// negation (for every timestamp unit alike).
constexpr int64_t kDateInfinity = std::numeric_limits<int32_t>::max();
constexpr int64_t kTimestampInfinity = std::numeric_limits<int64_t>::max();

bool IsTimestampId(TypeId id) {
  return id == TypeId::kTimestamp || id == TypeId::kTimestampS || id == TypeId::kTimestampMs ||
         id == TypeId::kTimestampNs || id == TypeId::kTimestampTz;
}

}  // namespace

bool EqualsIgnoringCase(std::string_view text, std::string_view lower_word) {
  if (text.size() != lower_word.size()) return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != lower_word[i]) return false;
  }
  return true;
}

namespace {

// +1 for infinity, -1 for -infinity, 0 for a finite (or non-temporal) value.
int InfinitySign(const Value& v) {
  const TypeId id = v.type().id;
  if (id != TypeId::kDate && !IsTimestampId(id)) return 0;
  const int64_t limit = id == TypeId::kDate ? kDateInfinity : kTimestampInfinity;
  const int64_t raw = v.GetInt64();
  return raw == limit ? 1 : raw == -limit ? -1 : 0;
}

Value Infinite(const DataType& to, int sign) {
  return Value::Int(to, sign * (to.id == TypeId::kDate ? kDateInfinity : kTimestampInfinity));
}

}  // namespace

// "infinity"/"inf" and "-infinity"/"-inf" in any case, the words DuckDB reads as the infinite
// DATE and TIMESTAMP values: +1 or -1, and 0 for any other text.
int InfinityWord(std::string_view trimmed) {
  int sign = 1;
  if (!trimmed.empty() && trimmed.front() == '-') {
    sign = -1;
    trimmed.remove_prefix(1);
  }
  return EqualsIgnoringCase(trimmed, "infinity") || EqualsIgnoringCase(trimmed, "inf") ? sign : 0;
}

namespace {

// `value` divided by `unit`, rounded to the nearest, halves away from zero (DuckDB's rounding
// when a timestamp moves to a coarser unit).
int64_t DivideRounded(int64_t value, int64_t unit) {
  int64_t quotient = value / unit;
  int64_t remainder = value % unit;
  if (remainder * 2 >= unit) ++quotient;
  if (remainder * 2 <= -unit) --quotient;
  return quotient;
}

// A timestamp of any unit in microseconds (nanoseconds truncate toward zero, as in DuckDB).
// REQUIRES: finite (InfinitySign(v) == 0).
int64_t TimestampMicros(const Value& v) {
  int64_t raw = v.GetInt64();
  switch (v.type().id) {
    case TypeId::kTimestampS: return raw * kMicrosPerSecond;
    case TypeId::kTimestampMs: return raw * 1000;
    case TypeId::kTimestampNs: return raw / 1000;
    default: return raw;
  }
}

// Microseconds as a timestamp of unit `to`: coarser units round (DivideRounded), nanoseconds
// fail outside their range (years 1677..2262).
Result<Value> FromMicros(const DataType& to, int64_t micros) {
  switch (to.id) {
    case TypeId::kTimestampS: return Value::Int(to, DivideRounded(micros, kMicrosPerSecond));
    case TypeId::kTimestampMs: return Value::Int(to, DivideRounded(micros, 1000));
    case TypeId::kTimestampNs: {
      int64_t nanos = 0;
      if (__builtin_mul_overflow(micros, 1000, &nanos) || nanos == kTimestampInfinity ||
          nanos == -kTimestampInfinity) {
        return Status::InvalidArgument("Conversion Error: Could not convert timestamp ",
                                       FormatTimestampMicros(micros), " to TIMESTAMP_NS");
      }
      return Value::Int(to, nanos);
    }
    default: return Value::Int(to, micros);
  }
}

bool IsTimestamp(TypeId id) { return IsTimestampId(id); }

int IntegerRank(TypeId id) {  // width rank for widening
  switch (id) {
    case TypeId::kInt8: case TypeId::kUInt8: return 1;
    case TypeId::kInt16: case TypeId::kUInt16: return 2;
    case TypeId::kInt32: case TypeId::kUInt32: return 3;
    case TypeId::kInt64: case TypeId::kUInt64: return 4;
    default: return 5;
  }
}

bool IsUnsigned(TypeId id) {
  return id == TypeId::kUInt8 || id == TypeId::kUInt16 || id == TypeId::kUInt32 ||
         id == TypeId::kUInt64 || id == TypeId::kUInt128;
}

TypeId SignedOfRank(int rank) {
  static constexpr TypeId kByRank[] = {TypeId::kInt8, TypeId::kInt8, TypeId::kInt16,
                                       TypeId::kInt32, TypeId::kInt64, TypeId::kInt128};
  return kByRank[std::min(rank, 5)];
}

// DuckDB's UUID text: 32 hex digits, '-' anywhere between them, optionally inside {...}.
bool ParseUuidText(std::string_view text, std::string* bytes) {
  if (text.size() >= 2 && text.front() == '{' && text.back() == '}') {
    text = text.substr(1, text.size() - 2);
  }
  std::string digits;
  for (char c : text) {
    if (c == '-') continue;
    if (!std::isxdigit(static_cast<unsigned char>(c)) || digits.size() == 32) return false;
    digits.push_back(c);
  }
  if (digits.size() != 32) return false;
  auto nibble = [](char c) {
    return c <= '9' ? c - '0' : (std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
  };
  bytes->clear();
  for (size_t i = 0; i < 32; i += 2) {
    bytes->push_back(static_cast<char>(nibble(digits[i]) << 4 | nibble(digits[i + 1])));
  }
  return true;
}

// Index of the field of `type` named `name` (ASCII case-insensitive), or -1.
int FindFieldIndex(const DataType& type, const std::string& name) {
  for (size_t i = 0; i < type.children.size(); ++i) {
    const std::string& candidate = type.children[i].name;
    if (candidate.size() != name.size()) continue;
    bool same = true;
    for (size_t k = 0; k < name.size() && same; ++k) {
      same = std::tolower(static_cast<unsigned char>(candidate[k])) ==
             std::tolower(static_cast<unsigned char>(name[k]));
    }
    if (same) return static_cast<int>(i);
  }
  return -1;
}

// Casts between nested types: lists and maps element by element, structs by field name
// (target fields missing from the source are NULL). nullopt when no such cast exists.
std::optional<Result<Value>> CastNested(const Value& v, const DataType& to, bool try_cast) {
  const DataType& from = v.type();
  if (from.id != to.id) return std::nullopt;
  if (from.id == TypeId::kList || from.id == TypeId::kMap) {
    const DataType& element = to.children[0].type;
    std::vector<Value> out;
    out.reserve(v.children().size());
    for (const Value& child : v.children()) {
      Result<Value> cast = CastValue(child, element, try_cast);
      if (!cast.ok()) return cast;
      out.push_back(std::move(cast).value());
    }
    return Value::Nested(to, std::move(out));
  }
  if (from.id == TypeId::kStruct) {
    std::vector<Value> out;
    bool any_match = false;
    for (const Field& field : to.children) {
      int index = FindFieldIndex(from, field.name);
      if (index < 0) {
        out.push_back(Value::Null(field.type));
        continue;
      }
      any_match = true;
      Result<Value> cast = CastValue(v.children()[static_cast<size_t>(index)], field.type, try_cast);
      if (!cast.ok()) return cast;
      out.push_back(std::move(cast).value());
    }
    if (!any_match) {
      return Status::InvalidArgument(
          "Binder Error: STRUCT to STRUCT cast must have at least one matching member");
    }
    return Value::Nested(to, std::move(out));
  }
  return std::nullopt;
}

Status CannotCastText(std::string_view text, const DataType& to) {
  return Status::InvalidArgument("Conversion Error: Type VARCHAR with value '", text,
                                 "' can't be cast to the destination type ", to.ToString());
}

// DuckDB's VARCHAR cast to a list, struct or map: the text as DuckDB prints such a value
// (format/nested_text.h), each element's text cast to the element's type. Struct fields are
// named exactly (missing ones are NULL); map keys are unique. Under TRY_CAST an element that
// does not convert is NULL, as in DuckDB.
Result<Value> CastTextToNested(std::string_view text, const DataType& to, bool try_cast) {
  auto element = [&](const format::NestedPiece& piece, const DataType& type) -> Result<Value> {
    if (piece.is_null) return Value::Null(type);
    return CastValue(Value::Varchar(piece.text), type, try_cast);
  };
  switch (to.id) {
    case TypeId::kList: {
      const DataType& element_type = to.children[0].type;
      std::vector<format::NestedPiece> pieces;
      const bool split = element_type.id == TypeId::kJson
                             ? format::SplitJsonArrayText(text, &pieces)
                             : format::SplitListText(text, &pieces);
      if (!split) return CannotCastText(text, to);
      std::vector<Value> elements;
      elements.reserve(pieces.size());
      for (const format::NestedPiece& piece : pieces) {
        TARN_ASSIGN_OR_RETURN(Value value, element(piece, element_type));
        elements.push_back(std::move(value));
      }
      return Value::Nested(to, std::move(elements));
    }
    case TypeId::kStruct: {
      std::vector<std::pair<std::string, format::NestedPiece>> pieces;
      bool positional = false;
      if (!format::SplitStructText(text, &pieces, &positional) ||
          (positional && pieces.size() > to.children.size())) {
        return CannotCastText(text, to);
      }
      std::vector<Value> fields;
      fields.reserve(to.children.size());
      for (const Field& field : to.children) fields.push_back(Value::Null(field.type));
      for (size_t i = 0; i < pieces.size(); ++i) {
        size_t index = i;
        if (!positional) {
          index = to.children.size();
          for (size_t f = 0; f < to.children.size(); ++f) {
            if (to.children[f].name == pieces[i].first) index = f;
          }
          if (index == to.children.size()) return CannotCastText(text, to);
        }
        TARN_ASSIGN_OR_RETURN(fields[index], element(pieces[i].second, to.children[index].type));
      }
      return Value::Nested(to, std::move(fields));
    }
    case TypeId::kMap: {
      std::vector<std::pair<format::NestedPiece, format::NestedPiece>> pieces;
      if (!format::SplitMapText(text, &pieces)) return CannotCastText(text, to);
      const DataType& entry_type = to.children[0].type;
      std::vector<Value> entries;
      entries.reserve(pieces.size());
      for (const auto& [key_piece, value_piece] : pieces) {
        TARN_ASSIGN_OR_RETURN(Value key, element(key_piece, entry_type.children[0].type));
        if (key.is_null()) return CannotCastText(text, to);  // a key that did not convert
        for (const Value& earlier : entries) {
          if (CompareValues(earlier.children()[0], key) == 0) {
            return Status::InvalidArgument("Invalid Input Error: Map keys must be unique.");
          }
        }
        TARN_ASSIGN_OR_RETURN(Value value, element(value_piece, entry_type.children[1].type));
        entries.push_back(Value::Nested(entry_type, {std::move(key), std::move(value)}));
      }
      return Value::Nested(to, std::move(entries));
    }
    default:
      return CannotCastText(text, to);
  }
}

Result<Value> CastFromText(const Value& v, const DataType& to, bool try_cast) {
  std::string_view text = v.GetBytes();
  std::string_view trimmed = TrimSpaces(text);
  if (to.IsNested() && v.type().id != TypeId::kBlob) return CastTextToNested(text, to, try_cast);
  if (to.IsInteger()) {
    __int128 parsed = 0;
    if (!ParseDecimalText(trimmed, 0, &parsed)) {
      // UHUGEINT reaches 2^128 - 1, past what the signed parse holds.
      unsigned __int128 big = 0;
      if (to.id == TypeId::kUInt128 && ParseUnsigned128(trimmed, &big)) {
        return Value::Int128(to, static_cast<__int128>(big));
      }
      return CouldNotConvert(v, to);
    }
    __int128 lo, hi;
    IntegerRange(to.id, &lo, &hi);
    if (parsed < lo || parsed > hi) return CouldNotConvert(v, to);
    return MakeInteger(to, parsed);
  }
  switch (to.id) {
    case TypeId::kBoolean: {
      std::string lower(trimmed);
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower == "true" || lower == "t" || lower == "1" || lower == "yes" || lower == "y") {
        return Value::Boolean(true);
      }
      if (lower == "false" || lower == "f" || lower == "0" || lower == "no" || lower == "n") {
        return Value::Boolean(false);
      }
      return CouldNotConvert(v, to);
    }
    case TypeId::kFloat32:
    case TypeId::kFloat64: {
      std::string lower(trimmed);
      for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      double d = 0;
      bool negative = !lower.empty() && lower[0] == '-';
      std::string_view body = lower;
      if (!body.empty() && (body[0] == '-' || body[0] == '+')) body.remove_prefix(1);
      if (body == "nan") {
        d = negative ? -std::nan("") : std::nan("");
      } else if (body == "inf" || body == "infinity") {
        d = negative ? -INFINITY : INFINITY;
      } else {
        const char* begin = lower.data() + (lower[0] == '+' ? 1 : 0);
        auto [ptr, ec] = std::from_chars(begin, lower.data() + lower.size(), d);
        if (lower.empty() || ptr != lower.data() + lower.size() ||
            (ec != std::errc() && ec != std::errc::result_out_of_range)) {
          return CouldNotConvert(v, to);
        }
        // The syntax is checked; the value is rounded once to the target type, as DuckDB
        // does: past the largest finite value it is ±inf ('3.4028236e38' as FLOAT, '1e400'),
        // below the smallest subnormal ±0.
        if (to.id == TypeId::kFloat32) {
          return Value::Double(to, static_cast<double>(std::strtof(begin, nullptr)));
        }
        d = std::strtod(begin, nullptr);
      }
      if (to.id == TypeId::kFloat32) d = static_cast<float>(d);
      return Value::Double(to, d);
    }
    case TypeId::kDecimal: {
      __int128 parsed = 0;
      if (!ParseDecimalText(trimmed, to.scale, &parsed)) return CouldNotConvert(v, to);
      __int128 limit = PowerOfTen(to.precision);
      if (parsed >= limit || parsed <= -limit) return CouldNotConvert(v, to);
      return Value::Int128(to, parsed);
    }
    case TypeId::kDate: {
      if (int sign = InfinityWord(trimmed)) return Infinite(to, sign);
      if (EqualsIgnoringCase(trimmed, "epoch")) return Value::Int(to, 0);
      auto days = ParseDate(trimmed);
      if (!days) {
        // DuckDB reads the date before a time or anything else after a space or a 'T':
        // '2020-02-29 10:11:12' and '2020-02-29T10:11' are 2020-02-29.
        // A " (BC)" era belongs to the date: such a text out of range stays an error.
        const size_t cut = trimmed.find_first_of(" T");
        if (cut != std::string_view::npos && trimmed.find('(', cut) == std::string_view::npos) {
          days = ParseDate(trimmed.substr(0, cut));
        }
      }
      if (!days || *days == kDateInfinity || *days == -kDateInfinity) {
        return CouldNotConvert(v, to);
      }
      return Value::Int(to, *days);
    }
    case TypeId::kTime: {
      auto micros = ParseTimeMicros(trimmed);
      if (!micros) return CouldNotConvert(v, to);
      return Value::Int(to, *micros);
    }
    case TypeId::kTimeTz: {
      auto micros = ParseTimeTzMicros(trimmed);
      if (!micros) return CouldNotConvert(v, to);
      return Value::Int(to, *micros);
    }
    case TypeId::kInterval: {
      auto interval = ParseInterval(trimmed);
      if (!interval) return CouldNotConvert(v, to);
      return Value::MakeInterval(*interval);
    }
    case TypeId::kBlob: {
      if (v.type().id == TypeId::kBlob) return v;
      TARN_ASSIGN_OR_RETURN(std::string bytes, format::ParseBlob(text));
      return Value::Bytes(to, std::move(bytes));
    }
    case TypeId::kVarchar: case TypeId::kJson:
      return Value::Bytes(to, v.GetBytes());
    case TypeId::kUuid: {
      std::string bytes;
      if (!ParseUuidText(text, &bytes)) {
        // DuckDB names its UUID storage type here.
        return Status::InvalidArgument("Conversion Error: Could not convert string '", text,
                                       "' to INT128");
      }
      return Value::Bytes(to, std::move(bytes));
    }
    default:
      if (IsTimestamp(to.id)) {
        if (int sign = InfinityWord(trimmed)) return Infinite(to, sign);
        if (EqualsIgnoringCase(trimmed, "epoch")) return Value::Int(to, 0);
        if (to.id == TypeId::kTimestampNs) {
          auto nanos = ParseTimestampNanos(trimmed);
          if (!nanos || *nanos == kTimestampInfinity || *nanos == -kTimestampInfinity) {
            return CouldNotConvert(v, to);
          }
          return Value::Int(to, *nanos);
        }
        auto micros = ParseTimestampMicros(trimmed);
        if (!micros) return CouldNotConvert(v, to);
        return FromMicros(to, *micros);
      }
      return Status::NotSupported("Unimplemented cast from ", v.type().ToString(), " to ",
                                  to.ToString());
  }
}

}  // namespace

const char* PhysicalName(TypeId id) {
  switch (id) {
    case TypeId::kInt8: return "INT8";
    case TypeId::kInt16: return "INT16";
    case TypeId::kInt32: return "INT32";
    case TypeId::kInt64: return "INT64";
    case TypeId::kInt128: return "INT128";
    case TypeId::kUInt8: return "UINT8";
    case TypeId::kUInt16: return "UINT16";
    case TypeId::kUInt32: return "UINT32";
    case TypeId::kUInt64: return "UINT64";
    case TypeId::kUInt128: return "UINT128";
    case TypeId::kFloat32: return "FLOAT";
    case TypeId::kFloat64: return "DOUBLE";
    default: return "?";
  }
}

void IntegerRange(TypeId id, __int128* min, __int128* max) {
  switch (id) {
    case TypeId::kInt8: *min = INT8_MIN; *max = INT8_MAX; return;
    case TypeId::kInt16: *min = INT16_MIN; *max = INT16_MAX; return;
    case TypeId::kInt32: *min = INT32_MIN; *max = INT32_MAX; return;
    case TypeId::kInt64: *min = INT64_MIN; *max = INT64_MAX; return;
    case TypeId::kUInt8: *min = 0; *max = UINT8_MAX; return;
    case TypeId::kUInt16: *min = 0; *max = UINT16_MAX; return;
    case TypeId::kUInt32: *min = 0; *max = UINT32_MAX; return;
    case TypeId::kUInt64: *min = 0; *max = UINT64_MAX; return;
    case TypeId::kUInt128: *min = 0; *max = kInt128Max; return;
    default: *min = kInt128Min; *max = kInt128Max; return;
  }
}

DataType DecimalForInteger(TypeId id) {
  switch (id) {
    case TypeId::kInt8: case TypeId::kUInt8: return DataType::Decimal(3, 0);
    case TypeId::kInt16: case TypeId::kUInt16: return DataType::Decimal(5, 0);
    case TypeId::kInt32: case TypeId::kUInt32: return DataType::Decimal(10, 0);
    case TypeId::kInt64: return DataType::Decimal(19, 0);
    case TypeId::kUInt64: return DataType::Decimal(20, 0);
    default: return DataType::Decimal(38, 0);
  }
}

__int128 PowerOfTen(int exponent) {
  __int128 v = 1;
  for (int i = 0; i < exponent; ++i) v *= 10;
  return v;
}

__int128 AsInt128(const Value& v) {
  const auto& s = v.storage();
  if (auto* i = std::get_if<int64_t>(&s)) return *i;
  if (auto* u = std::get_if<uint64_t>(&s)) return static_cast<__int128>(*u);
  if (auto* h = std::get_if<__int128>(&s)) return *h;
  if (auto* b = std::get_if<bool>(&s)) return *b ? 1 : 0;
  if (auto* d = std::get_if<double>(&s)) return static_cast<__int128>(*d);
  return 0;
}

double AsDouble(const Value& v) {
  const auto& s = v.storage();
  if (auto* d = std::get_if<double>(&s)) return *d;
  if (v.type().id == TypeId::kDecimal) {
    return static_cast<double>(static_cast<long double>(v.GetInt128()) /
                               static_cast<long double>(PowerOfTen(v.type().scale)));
  }
  if (v.type().id == TypeId::kUInt128) {
    return static_cast<double>(static_cast<unsigned __int128>(v.GetInt128()));
  }
  return static_cast<double>(AsInt128(v));
}

bool IsBeyondInt128(const Value& v) {
  return v.type().id == TypeId::kUInt128 && !v.is_null() && v.GetInt128() < 0;
}

Value MakeInteger(const DataType& type, __int128 v) {
  switch (type.id) {
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
      return Value::UInt(type, static_cast<uint64_t>(v));
    case TypeId::kInt128: case TypeId::kUInt128: case TypeId::kDecimal:
      return Value::Int128(type, v);
    default:
      return Value::Int(type, static_cast<int64_t>(v));
  }
}

int CompareValues(const Value& a, const Value& b) {
  const auto& sa = a.storage();
  const auto& sb = b.storage();
  if (auto* x = std::get_if<double>(&sa)) {
    double y = std::get<double>(sb);
    if (FloatEqual(*x, y)) return 0;
    return FloatLess(*x, y) ? -1 : 1;
  }
  if (auto* x = std::get_if<int64_t>(&sa)) {
    int64_t y = std::get<int64_t>(sb);
    return *x < y ? -1 : *x > y;
  }
  if (auto* x = std::get_if<uint64_t>(&sa)) {
    uint64_t y = std::get<uint64_t>(sb);
    return *x < y ? -1 : *x > y;
  }
  if (auto* x = std::get_if<__int128>(&sa)) {
    __int128 y = std::get<__int128>(sb);
    if (a.type().id == TypeId::kUInt128) {  // UHUGEINT values compare as unsigned
      auto ux = static_cast<unsigned __int128>(*x), uy = static_cast<unsigned __int128>(y);
      return ux < uy ? -1 : ux > uy;
    }
    return *x < y ? -1 : *x > y;
  }
  if (auto* x = std::get_if<bool>(&sa)) {
    bool y = std::get<bool>(sb);
    return *x < y ? -1 : *x > y;
  }
  if (auto* x = std::get_if<std::string>(&sa)) {
    int c = x->compare(std::get<std::string>(sb));
    return c < 0 ? -1 : c > 0;
  }
  if (auto* x = std::get_if<Interval>(&sa)) {
    // DuckDB normalizes intervals to (months, days, micros) with 30-day months for ordering.
    const Interval& y = std::get<Interval>(sb);
    auto total = [](const Interval& i) {
      return (static_cast<__int128>(i.months) * 30 + i.days) * 86400000000000LL + i.nanos;
    };
    __int128 tx = total(*x), ty = total(y);
    return tx < ty ? -1 : tx > ty;
  }
  if (auto* x = std::get_if<std::vector<Value>>(&sa)) {
    const auto& y = std::get<std::vector<Value>>(sb);
    for (size_t i = 0; i < x->size() && i < y.size(); ++i) {
      const Value& xi = (*x)[i];
      const Value& yi = y[i];
      if (xi.is_null() || yi.is_null()) {
        if (xi.is_null() != yi.is_null()) return xi.is_null() ? 1 : -1;  // NULLs last
        continue;
      }
      int c = CompareValues(xi, yi);
      if (c != 0) return c;
    }
    return x->size() < y.size() ? -1 : x->size() > y.size();
  }
  return 0;
}

void AppendDoubleText(double v, bool single_precision, std::string* out) {
  if (std::isnan(v)) {
    out->append(std::signbit(v) ? "-nan" : "nan");
    return;
  }
  if (std::isinf(v)) {
    out->append(v < 0 ? "-inf" : "inf");
    return;
  }
  // The shortest round-trip digits in scientific form ("-1.2345e+20"), laid out again.
  char buffer[64];
  const std::to_chars_result result =
      single_precision
          ? std::to_chars(buffer, buffer + sizeof(buffer), static_cast<float>(v),
                          std::chars_format::scientific)
          : std::to_chars(buffer, buffer + sizeof(buffer), v, std::chars_format::scientific);
  const char* p = buffer;
  const char* const end = result.ptr;
  if (*p == '-') {
    out->push_back('-');
    ++p;
  }
  char digits[40];
  int n = 0;
  for (; p < end && *p != 'e'; ++p) {
    if (*p != '.') digits[n++] = *p;
  }
  int exponent = 0;
  if (p < end) {
    const bool negative_exponent = p[1] == '-';
    for (const char* q = p + 2; q < end; ++q) exponent = exponent * 10 + (*q - '0');
    if (negative_exponent) exponent = -exponent;
  }
  if (exponent >= -5 && exponent < 16) {
    if (exponent < 0) {
      out->append("0.");
      out->append(static_cast<size_t>(-exponent - 1), '0');
      out->append(digits, static_cast<size_t>(n));
    } else if (n <= exponent + 1) {
      out->append(digits, static_cast<size_t>(n));
      out->append(static_cast<size_t>(exponent + 1 - n), '0');
      out->append(".0");
    } else {
      out->append(digits, static_cast<size_t>(exponent + 1));
      out->push_back('.');
      out->append(digits + exponent + 1, static_cast<size_t>(n - exponent - 1));
    }
    return;
  }
  out->push_back(digits[0]);
  if (n > 1) {
    out->push_back('.');
    out->append(digits + 1, static_cast<size_t>(n - 1));
  }
  char exp_buffer[16];
  std::snprintf(exp_buffer, sizeof(exp_buffer), "e%c%02d", exponent < 0 ? '-' : '+',
                exponent < 0 ? -exponent : exponent);
  out->append(exp_buffer);
}

std::string FormatDouble(double v, bool single_precision) {
  std::string out;
  AppendDoubleText(v, single_precision, &out);
  return out;
}

std::string ValueToText(const Value& v) {
  if (v.is_null()) return "NULL";
  const DataType& type = v.type();
  switch (type.id) {
    case TypeId::kBoolean: return v.GetBool() ? "true" : "false";
    case TypeId::kFloat32: return FormatDouble(v.GetDouble(), true);
    case TypeId::kFloat64: return FormatDouble(v.GetDouble(), false);
    case TypeId::kDecimal: {
      std::string out;
      format::AppendDecimal(v.GetInt128(), type.precision, type.scale, &out);
      return out;
    }
    case TypeId::kTime: return FormatTimeMicros(v.GetInt64());
    case TypeId::kInterval: return FormatInterval(v.GetInterval());
    // Dates, times in nanoseconds and timestamps in every unit print as DuckDB prints them,
    // at their own precision and with infinity.
    case TypeId::kDate: {
      std::string text;
      format::AppendDate(static_cast<int32_t>(v.GetInt64()), &text);
      return text;
    }
    case TypeId::kTimeNs: {
      std::string text;
      format::AppendTimeOfDay(v.GetInt64(), 1000000000, &text);
      return text;
    }
    case TypeId::kTimestampS: case TypeId::kTimestampMs: case TypeId::kTimestamp:
    case TypeId::kTimestampNs: case TypeId::kTimestampTz: {
      const int64_t units_per_second = type.id == TypeId::kTimestampS    ? 1
                                       : type.id == TypeId::kTimestampMs ? 1000
                                       : type.id == TypeId::kTimestampNs ? 1000000000
                                                                         : 1000000;
      std::string text;
      format::AppendTimestamp(v.GetInt64(), units_per_second,
                              /*utc_suffix=*/type.id == TypeId::kTimestampTz, &text);
      return text;
    }
    case TypeId::kVarchar: case TypeId::kJson:
      return v.GetBytes();
    case TypeId::kBlob: {
      std::string text;
      format::AppendBlob(v.GetBytes(), &text);
      return text;
    }
    case TypeId::kGeometry:
      return FormatValue(v);  // WKT
    case TypeId::kVariant:
      return VariantText(v);
    default:
      break;
  }
  if (type.id == TypeId::kUInt128) {
    return UInt128ToString(static_cast<unsigned __int128>(v.GetInt128()));
  }
  if (type.IsInteger()) return Int128ToString(AsInt128(v));
  if (type.IsNested()) return FormatValue(v);
  return v.ToString();
}

Result<Value> CastValue(const Value& v, const DataType& to, bool try_cast) {
  if (v.is_null()) return Value::Null(to);
  const DataType& from = v.type();
  if (from == to) return v;
  Result<Value> result = [&]() -> Result<Value> {
    if (to.id == TypeId::kJson) {
      if (from.id == TypeId::kVarchar) {  // validated, kept as written
        TARN_RETURN_NOT_OK(ValidateJsonText(v.GetBytes()));
        return Value::Bytes(to, v.GetBytes());
      }
      if (from.id != TypeId::kVariant) {
        const Value args[] = {v};
        return InvokeJsonFunction(FunctionId::kToJson, args, to);
      }
    }
    if (from.id == TypeId::kJson && to.id != TypeId::kVarchar && to.id != TypeId::kVariant) {
      return CastJsonToValue(v.GetBytes(), to);
    }
    if (to.id == TypeId::kVariant) return CastToVariant(v);
    if (from.id == TypeId::kVariant) return CastFromVariant(v, to, try_cast);
    if (to.id == TypeId::kVarchar) return Value::Varchar(ValueToText(v));
    if (to.id == TypeId::kGeometry || from.id == TypeId::kGeometry) {
      // DuckDB casts GEOMETRY only from and to text (WKT); not even BLOB converts.
      if (to.id == TypeId::kGeometry && from.id == TypeId::kVarchar) {
        TARN_ASSIGN_OR_RETURN(std::string wkb, geometry::WktToWkb(v.GetBytes()));
        return Value::Bytes(to, std::move(wkb));
      }
      return Status::InvalidArgument("Conversion Error: Unimplemented type for cast (",
                                     from.ToString(), " -> ", to.ToString(), ")");
    }
    if (from.IsNested()) {
      if (auto nested = CastNested(v, to, try_cast)) return std::move(*nested);
    }
    if (from.id == TypeId::kVarchar || from.id == TypeId::kJson || from.id == TypeId::kBlob) {
      return CastFromText(v, to, try_cast);
    }
    if (from.id == TypeId::kBoolean && (to.IsNumeric())) {
      return CastValue(Value::Int(DataType(TypeId::kInt32), v.GetBool() ? 1 : 0), to);
    }
    if (from.IsNumeric() && to.id == TypeId::kBoolean) {
      return Value::Boolean(from.IsFloating() ? v.GetDouble() != 0 : AsInt128(v) != 0);
    }
    if (from.IsInteger() || from.id == TypeId::kDecimal) {
      int from_scale = from.id == TypeId::kDecimal ? from.scale : 0;
      __int128 unscaled = AsInt128(v);
      // A UHUGEINT past 2^127 - 1 fits no other integer or decimal type.
      if (IsBeyondInt128(v) && !to.IsFloating()) return OutOfRange(v, to);
      if (to.IsInteger()) {
        __int128 value = RoundDivide(unscaled, from_scale);
        __int128 lo, hi;
        IntegerRange(to.id, &lo, &hi);
        if (value < lo || value > hi) {
          return from.IsInteger() ? IntegerOutOfRange(v, to) : OutOfRange(v, to);
        }
        return MakeInteger(to, value);
      }
      if (to.IsFloating()) {
        double d = AsDouble(v);
        if (to.id == TypeId::kFloat32) d = static_cast<float>(d);
        return Value::Double(to, d);
      }
      if (to.id == TypeId::kDecimal) {
        __int128 value = unscaled;
        if (to.scale >= from_scale) {
          int up = to.scale - from_scale;
          __int128 limit = PowerOfTen(38 - up);
          if (value >= limit || value <= -limit) return OutOfRange(v, to);
          value *= PowerOfTen(up);
        } else {
          value = RoundDivide(value, from_scale - to.scale);
        }
        __int128 limit = PowerOfTen(to.precision);
        if (value >= limit || value <= -limit) return OutOfRange(v, to);
        return Value::Int128(to, value);
      }
    }
    if (from.IsFloating()) {
      double d = v.GetDouble();
      if (to.IsFloating()) {
        if (to.id == TypeId::kFloat64) return Value::Double(to, d);
        // A finite DOUBLE past FLOAT's range is an error, as in DuckDB (text rounds to ±inf).
        const float f = static_cast<float>(d);
        if (std::isinf(f) && std::isfinite(d)) return OutOfRange(v, to);
        return Value::Double(to, f);
      }
      if (to.IsInteger()) {
        __int128 lo, hi;
        IntegerRange(to.id, &lo, &hi);
        double rounded = std::nearbyint(d);
        constexpr double kTwo127 = 170141183460469231731687303715884105728.0;
        if (to.id == TypeId::kUInt128 && rounded >= kTwo127 && rounded < 2 * kTwo127) {
          return Value::Int128(to, static_cast<__int128>(static_cast<unsigned __int128>(rounded)));
        }
        if (!std::isfinite(d) || rounded < static_cast<double>(lo) ||
            rounded >= static_cast<double>(hi) + 1.0) {
          return IntegerOutOfRange(v, to);
        }
        return MakeInteger(to, static_cast<__int128>(rounded));
      }
      if (to.id == TypeId::kDecimal) {
        long double scaled = static_cast<long double>(d) * static_cast<long double>(PowerOfTen(to.scale));
        scaled = std::round(scaled);
        long double limit = static_cast<long double>(PowerOfTen(to.precision));
        if (!std::isfinite(d) || scaled >= limit || scaled <= -limit) return OutOfRange(v, to);
        return Value::Int128(to, static_cast<__int128>(scaled));
      }
    }
    if (int sign = InfinitySign(v)) {
      // An infinite date or timestamp stays infinite as another of them; TIME has no infinity.
      if (to.id == TypeId::kDate || IsTimestamp(to.id)) return Infinite(to, sign);
      return Status::InvalidArgument("Invalid Input Error: Type INT64 with value ",
                                     sign > 0 ? "infinity" : "-infinity",
                                     " can't be cast to the destination type ", to.ToString());
    }
    if (from.id == TypeId::kDate) {
      if (IsTimestamp(to.id)) return FromMicros(to, v.GetInt64() * kMicrosPerDay);
    }
    if (IsTimestamp(from.id)) {
      int64_t micros = TimestampMicros(v);
      if (IsTimestamp(to.id)) return FromMicros(to, micros);
      int64_t days = micros >= 0 ? micros / kMicrosPerDay : -((-micros + kMicrosPerDay - 1) / kMicrosPerDay);
      if (to.id == TypeId::kDate) return Value::Int(to, days);
      if (to.id == TypeId::kTime) return Value::Int(to, micros - days * kMicrosPerDay);
    }
    return Status::InvalidArgument("Conversion Error: Unimplemented type for cast (",
                                   from.ToString(), " -> ", to.ToString(), ")");
  }();
  if (!result.ok() && try_cast) return Value::Null(to);
  return result;
}

std::optional<DataType> MaxType(const DataType& a, const DataType& b) {
  if (a == b) return a;
  if (a.id == TypeId::kNull) return b;
  if (b.id == TypeId::kNull) return a;
  if (a.IsInteger() && b.IsInteger()) {
    bool ua = IsUnsigned(a.id), ub = IsUnsigned(b.id);
    int ra = IntegerRank(a.id), rb = IntegerRank(b.id);
    if (ua == ub) return ra >= rb ? a : b;
    // Mixed signedness: the smallest signed type holding both.
    int unsigned_rank = ua ? ra : rb;
    int signed_rank = ua ? rb : ra;
    return DataType(SignedOfRank(std::max(unsigned_rank + 1, signed_rank)));
  }
  if (a.IsFloating() || b.IsFloating()) {
    if (!a.IsNumeric() || !b.IsNumeric()) {
      if (a.id == TypeId::kVarchar) return b;
      if (b.id == TypeId::kVarchar) return a;
      return std::nullopt;
    }
    if (a.id == TypeId::kFloat64 || b.id == TypeId::kFloat64) return DataType(TypeId::kFloat64);
    if (a.id == TypeId::kDecimal || b.id == TypeId::kDecimal) return DataType(TypeId::kFloat64);
    return DataType(TypeId::kFloat32);
  }
  if ((a.IsInteger() || a.id == TypeId::kDecimal) && (b.IsInteger() || b.id == TypeId::kDecimal)) {
    DataType da = a.id == TypeId::kDecimal ? a : DecimalForInteger(a.id);
    DataType db = b.id == TypeId::kDecimal ? b : DecimalForInteger(b.id);
    int scale = std::max(da.scale, db.scale);
    int integral = std::max(da.precision - da.scale, db.precision - db.scale);
    if (integral + scale > 38) return DataType::Decimal(38, std::min(scale, 38));
    return DataType::Decimal(integral + scale, scale);
  }
  // A VARIANT operand converts to the other side's type (DuckDB: v.c = 84 compares INTEGERs).
  if (a.id == TypeId::kVariant) return b;
  if (b.id == TypeId::kVariant) return a;
  if (a.id == TypeId::kDate && IsTimestamp(b.id)) return b;
  if (b.id == TypeId::kDate && IsTimestamp(a.id)) return a;
  if (IsTimestamp(a.id) && IsTimestamp(b.id)) return DataType(TypeId::kTimestamp);
  // A VARCHAR operand converts to the other side's type, as DuckDB does for comparisons.
  if (a.id == TypeId::kVarchar && !b.IsNested() && b.id != TypeId::kBlob) return b;
  if (b.id == TypeId::kVarchar && !a.IsNested() && a.id != TypeId::kBlob) return a;
  if (a.id == TypeId::kList && b.id == TypeId::kList) {
    auto element = MaxType(a.children[0].type, b.children[0].type);
    if (!element) return std::nullopt;
    return DataType::List(*element);
  }
  if (a.id == TypeId::kMap && b.id == TypeId::kMap) {
    const auto& ea = a.children[0].type.children;
    const auto& eb = b.children[0].type.children;
    auto key = MaxType(ea[0].type, eb[0].type);
    auto value = MaxType(ea[1].type, eb[1].type);
    if (!key || !value) return std::nullopt;
    return DataType::Map(*key, *value);
  }
  if (a.id == TypeId::kStruct && b.id == TypeId::kStruct) {
    // Fields by name: shared ones take their common type, the others are added (DuckDB).
    std::vector<Field> fields = a.children;
    for (const Field& field : b.children) {
      int index = FindFieldIndex(a, field.name);
      if (index < 0) {
        fields.push_back(field);
        continue;
      }
      auto common = MaxType(fields[static_cast<size_t>(index)].type, field.type);
      if (!common) return std::nullopt;
      fields[static_cast<size_t>(index)].type = *common;
    }
    return DataType::Struct(std::move(fields));
  }
  return std::nullopt;
}

bool ImplicitlyCastable(const DataType& from, const DataType& to) {
  if (from == to || from.id == TypeId::kNull) return true;
  if (to.id == TypeId::kFloat64) return from.IsNumeric();
  if (to.id == TypeId::kFloat32) return from.IsInteger() || from.id == TypeId::kFloat32;
  if (from.IsInteger() && to.IsInteger()) {
    auto max = MaxType(from, to);
    return max && *max == to;
  }
  if (from.IsInteger() && to.id == TypeId::kDecimal) return true;
  if (from.id == TypeId::kDate && IsTimestamp(to.id)) return true;
  if (to.id == TypeId::kVarchar) return false;
  return false;
}

}  // namespace tarn::expr
