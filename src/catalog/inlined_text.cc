#include "catalog/inlined_text.h"
#include "catalog/names.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "catalog/value_text.h"
#include "format/nested_text.h"

namespace tarn::catalog_internal {

namespace {

using format::NestedPiece;

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
char Lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// `CAST('text' AS TYPE)` (SQL quoting: '' is one quote) → text; nullopt for anything else.
std::optional<std::string> UnwrapSqlCast(std::string_view text) {
  constexpr std::string_view kCast = "cast(";
  if (text.size() < kCast.size() || !EqualsIgnoreCase(text.substr(0, kCast.size()), kCast)) {
    return std::nullopt;
  }
  size_t pos = kCast.size();
  while (pos < text.size() && IsSpace(text[pos])) ++pos;
  if (pos >= text.size() || text[pos] != '\'') return std::nullopt;
  ++pos;
  std::string inner;
  while (true) {
    if (pos >= text.size()) return std::nullopt;
    if (text[pos] == '\'') {
      if (pos + 1 < text.size() && text[pos + 1] == '\'') {
        inner += '\'';
        pos += 2;
        continue;
      }
      ++pos;
      break;
    }
    inner += text[pos++];
  }
  while (pos < text.size() && IsSpace(text[pos])) ++pos;
  if (pos + 2 >= text.size() || !EqualsIgnoreCase(text.substr(pos, 2), "as") ||
      !IsSpace(text[pos + 2]) || text.back() != ')') {
    return std::nullopt;
  }
  return inner;
}

Status NotAValue(std::string_view text, const DataType& type) {
  std::string shown(text.substr(0, 80));
  return Status::InvalidArgument("'", shown, text.size() > 80 ? "...'" : "'",
                                 " is not a value of type ", type.ToString());
}

Result<Value> DecodeElement(const NestedPiece& piece, const DataType& type) {
  if (piece.is_null) return Value::Null(type);
  if (!type.IsNested() && type.id != TypeId::kVarchar && type.id != TypeId::kJson) {
    if (std::optional<std::string> inner = UnwrapSqlCast(piece.text)) {
      return DecodeInlinedText(*inner, type);
    }
  }
  return DecodeInlinedText(piece.text, type);
}

Result<Value> DecodeList(std::string_view text, const DataType& type) {
  std::vector<NestedPiece> pieces;
  const DataType& element_type = type.children[0].type;
  const bool split = element_type.id == TypeId::kJson ? format::SplitJsonArrayText(text, &pieces)
                                                      : format::SplitListText(text, &pieces);
  if (!split) return NotAValue(text, type);
  std::vector<Value> elements;
  elements.reserve(pieces.size());
  for (const NestedPiece& piece : pieces) {
    TARN_ASSIGN_OR_RETURN(Value element, DecodeElement(piece, element_type));
    elements.push_back(std::move(element));
  }
  return Value::Nested(type, std::move(elements));
}

Result<Value> DecodeStruct(std::string_view text, const DataType& type) {
  std::vector<std::pair<std::string, NestedPiece>> pieces;
  bool positional = false;
  if (!format::SplitStructText(text, &pieces, &positional)) return NotAValue(text, type);
  std::vector<Value> fields;
  for (const Field& field : type.children) fields.push_back(Value::Null(field.type));
  if (positional && pieces.size() > type.children.size()) return NotAValue(text, type);
  for (size_t i = 0; i < pieces.size(); ++i) {
    size_t index = i;
    if (!positional) {
      index = type.children.size();
      for (size_t f = 0; f < type.children.size(); ++f) {
        if (type.children[f].name == pieces[i].first) index = f;
      }
      if (index == type.children.size()) {
        return Status::InvalidArgument("'", pieces[i].first, "' is not a field of ",
                                       type.ToString());
      }
    }
    TARN_ASSIGN_OR_RETURN(fields[index],
                          DecodeElement(pieces[i].second, type.children[index].type));
  }
  return Value::Nested(type, std::move(fields));
}

Result<Value> DecodeMap(std::string_view text, const DataType& type) {
  std::vector<std::pair<NestedPiece, NestedPiece>> pieces;
  if (!format::SplitMapText(text, &pieces)) return NotAValue(text, type);
  const DataType& entry_type = type.children[0].type;
  std::vector<Value> entries;
  entries.reserve(pieces.size());
  std::vector<std::string> seen_keys;
  for (const auto& [key_piece, value_piece] : pieces) {
    TARN_ASSIGN_OR_RETURN(Value key, DecodeElement(key_piece, entry_type.children[0].type));
    TARN_ASSIGN_OR_RETURN(Value value, DecodeElement(value_piece, entry_type.children[1].type));
    seen_keys.push_back(key.ToString());
    entries.push_back(Value::Nested(entry_type, {std::move(key), std::move(value)}));
  }
  std::sort(seen_keys.begin(), seen_keys.end());
  if (std::adjacent_find(seen_keys.begin(), seen_keys.end()) != seen_keys.end()) {
    return Status::InvalidArgument("'", text.substr(0, 80), "': map keys must be unique");
  }
  return Value::Nested(type, std::move(entries));
}

// Reads an optionally signed run of digits at `*pos` into a 128-bit magnitude.
bool ReadSignedNumber(std::string_view text, size_t* pos, __int128* out) {
  bool negative = false;
  if (*pos < text.size() && (text[*pos] == '-' || text[*pos] == '+')) {
    negative = text[*pos] == '-';
    ++*pos;
  }
  size_t start = *pos;
  __int128 v = 0;
  while (*pos < text.size() && IsDigit(text[*pos])) {
    if (v > (static_cast<__int128>(1) << 100)) return false;
    v = v * 10 + (text[*pos] - '0');
    ++*pos;
  }
  if (*pos == start) return false;
  *out = negative ? -v : v;
  return true;
}

// "[-]H+:MM[:SS[.fraction]]" at `*pos` (the sign already read) into microseconds.
bool ParseIntervalTime(std::string_view text, size_t* pos, __int128 hours, __int128* micros) {
  auto two_digits = [&](int64_t* out) {
    if (*pos + 2 > text.size() || !IsDigit(text[*pos]) || !IsDigit(text[*pos + 1])) return false;
    *out = (text[*pos] - '0') * 10 + (text[*pos + 1] - '0');
    *pos += 2;
    return true;
  };
  int64_t minutes = 0, seconds = 0, fraction = 0;
  ++*pos;  // ':'
  if (!two_digits(&minutes) || minutes > 59) return false;
  if (*pos < text.size() && text[*pos] == ':') {
    ++*pos;
    if (!two_digits(&seconds) || seconds > 59) return false;
    if (*pos < text.size() && text[*pos] == '.') {
      ++*pos;
      int digits = 0;
      while (*pos < text.size() && IsDigit(text[*pos])) {
        if (digits < 6) {
          fraction = fraction * 10 + (text[*pos] - '0');
          ++digits;
        }
        ++*pos;
      }
      if (digits == 0) return false;
      for (; digits < 6; ++digits) fraction *= 10;
    }
  }
  *micros = ((hours * 60 + minutes) * 60 + seconds) * 1000000 + fraction;
  return true;
}

}  // namespace

bool ParseIntervalText(std::string_view text, Interval* out) {
  __int128 months = 0, days = 0, micros = 0;
  size_t pos = 0;
  bool any = false;
  while (true) {
    while (pos < text.size() && IsSpace(text[pos])) ++pos;
    if (pos >= text.size()) break;
    const bool negative = text[pos] == '-';
    __int128 number = 0;
    if (!ReadSignedNumber(text, &pos, &number)) return false;
    any = true;
    if (pos < text.size() && text[pos] == ':') {
      __int128 time = 0;
      if (!ParseIntervalTime(text, &pos, negative ? -number : number, &time)) return false;
      micros += negative ? -time : time;
      continue;
    }
    while (pos < text.size() && IsSpace(text[pos])) ++pos;
    size_t unit_start = pos;
    while (pos < text.size() && Lower(text[pos]) >= 'a' && Lower(text[pos]) <= 'z') ++pos;
    std::string unit;
    for (char c : text.substr(unit_start, pos - unit_start)) unit += Lower(c);
    if (unit.size() > 1 && unit.back() == 's' && unit != "ms" && unit != "us") unit.pop_back();
    if (unit == "millennium" || unit == "millennia") {
      months += number * 12000;
    } else if (unit == "century" || unit == "centurie") {
      months += number * 1200;
    } else if (unit == "decade") {
      months += number * 120;
    } else if (unit == "year" || unit == "yr" || unit == "y") {
      months += number * 12;
    } else if (unit == "month" || unit == "mon") {
      months += number;
    } else if (unit == "week" || unit == "w") {
      days += number * 7;
    } else if (unit == "day" || unit == "d") {
      days += number;
    } else if (unit == "hour" || unit == "hr" || unit == "h") {
      micros += number * 3600000000LL;
    } else if (unit == "minute" || unit == "min" || unit == "m") {
      micros += number * 60000000LL;
    } else if (unit == "second" || unit == "sec" || unit == "s") {
      micros += number * 1000000;
    } else if (unit == "millisecond" || unit == "msec" || unit == "ms") {
      micros += number * 1000;
    } else if (unit == "microsecond" || unit == "usec" || unit == "us") {
      micros += number;
    } else {
      return false;
    }
    if (months > INT32_MAX || months < INT32_MIN || days > INT32_MAX || days < INT32_MIN ||
        micros > INT64_MAX / 1000 || micros < INT64_MIN / 1000) {
      return false;
    }
  }
  if (!any) return false;
  if (months > INT32_MAX || months < INT32_MIN || days > INT32_MAX || days < INT32_MIN ||
      micros > INT64_MAX / 1000 || micros < INT64_MIN / 1000) {
    return false;
  }
  out->months = static_cast<int32_t>(months);
  out->days = static_cast<int32_t>(days);
  out->nanos = static_cast<int64_t>(micros) * 1000;
  return true;
}

bool ParseUtcOffset(std::string_view offset, int64_t* seconds) {
  if (offset.empty() || (offset[0] != '+' && offset[0] != '-')) return false;
  // ±HH[:MM[:SS]] or ±HHMM[SS].
  int64_t parts[3] = {0, 0, 0};
  size_t pos = 1;
  for (int part = 0; part < 3 && pos < offset.size(); ++part) {
    if (part > 0 && offset[pos] == ':') ++pos;
    if (pos + 2 > offset.size() || !IsDigit(offset[pos]) || !IsDigit(offset[pos + 1])) {
      return false;
    }
    parts[part] = (offset[pos] - '0') * 10 + (offset[pos + 1] - '0');
    pos += 2;
  }
  if (pos == 1 || pos != offset.size() || parts[0] > 23 || parts[1] > 59 || parts[2] > 59) {
    return false;
  }
  *seconds = parts[0] * 3600 + parts[1] * 60 + parts[2];
  if (offset[0] == '-') *seconds = -*seconds;
  return true;
}

int64_t TimeTzToUtc(int64_t local_micros, int64_t offset_seconds) {
  constexpr int64_t kDay = 86400LL * 1000000;
  int64_t utc = (local_micros - offset_seconds * 1000000) % kDay;
  if (utc < 0) utc += kDay;
  return utc;
}

bool ParseTimeTzText(std::string_view text, int64_t* utc_micros) {
  const size_t sign = text.find_first_of("+-");
  if (sign == std::string_view::npos || sign == 0) return false;
  int64_t local = 0;
  int64_t offset_seconds = 0;
  if (!ParseTimeText(text.substr(0, sign), 1000000, &local) ||
      !ParseUtcOffset(text.substr(sign), &offset_seconds)) {
    return false;
  }
  *utc_micros = TimeTzToUtc(local, offset_seconds);
  return true;
}

Result<Value> DecodeInlinedText(std::string_view text, const DataType& type) {
  switch (type.id) {
    case TypeId::kList:
      return DecodeList(text, type);
    case TypeId::kStruct:
      return DecodeStruct(text, type);
    case TypeId::kMap:
      return DecodeMap(text, type);
    case TypeId::kInterval: {
      Interval interval;
      if (!ParseIntervalText(text, &interval)) return NotAValue(text, type);
      return Value::MakeInterval(interval);
    }
    case TypeId::kTimeTz: {
      int64_t micros = 0;
      if (!ParseTimeTzText(text, &micros)) return NotAValue(text, type);
      return Value::Int(type, micros);
    }
    case TypeId::kVariant:
    case TypeId::kGeometry:
      return Status::NotSupported("inlined values of type ", type.ToString(),
                                  " are not supported");
    default:
      return DecodeLiteralValue(text, type);
  }
}

}  // namespace tarn::catalog_internal
