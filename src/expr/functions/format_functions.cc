#include "expr/functions/format_functions.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "expr/eval/cast.h"

namespace tarn::expr {
namespace {

// One conversion, in the terms both syntaxes share.
struct Spec {
  char fill = ' ';
  char align = 0;   // '<', '>', '^' or 0 (numbers right, text left)
  char sign = '-';  // '-' (only negatives), '+' (always), ' ' (space for positives)
  bool alternate = false;
  bool zero = false;
  int64_t width = 0;
  int64_t precision = -1;
  char grouping = 0;  // ',' to group thousands
  char type = 0;      // 0: the value's own text (format's `{}`)
  bool c_style = false;  // printf: C's rules (`%#x` of 0 is "0", not "0x0")
};

// How the formatting library sees a value: DuckDB hands it integers (and booleans) as
// integers, DECIMAL and floating values as doubles, and everything else as its text.
enum class Kind { kInteger, kFloat, kBool, kString };

Kind KindOf(TypeId id) {
  switch (id) {
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
    case TypeId::kInt128: case TypeId::kUInt128:
      return Kind::kInteger;
    case TypeId::kFloat32: case TypeId::kFloat64: case TypeId::kDecimal:
      return Kind::kFloat;
    case TypeId::kBoolean:
      return Kind::kBool;
    default:
      return Kind::kString;
  }
}

Status TypeMismatch(char type, Kind kind) {
  const char* name = kind == Kind::kInteger ? "int"
                     : kind == Kind::kFloat ? "float"
                     : kind == Kind::kBool  ? "bool"
                                            : "string";
  return Status::InvalidArgument("Invalid Input Error: Invalid type specifier \"",
                                 std::string(1, type), "\" for formatting a value of type ",
                                 name);
}

Status MissingArgument(size_t index) {
  return Status::InvalidArgument("Invalid Input Error: Argument index \"", index,
                                 "\" out of range");
}

// The magnitude and sign of an integer value.
void IntegerParts(const Value& value, unsigned __int128* magnitude, bool* negative) {
  *negative = false;
  switch (value.type().id) {
    case TypeId::kBoolean:
      *magnitude = value.GetBool() ? 1 : 0;
      return;
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
      *magnitude = value.GetUInt64();
      return;
    case TypeId::kUInt128:
      *magnitude = static_cast<unsigned __int128>(value.GetInt128());
      return;
    case TypeId::kInt128: {
      const __int128 v = value.GetInt128();
      *negative = v < 0;
      *magnitude = *negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
      return;
    }
    default: {
      const int64_t v = value.GetInt64();
      *negative = v < 0;
      *magnitude = *negative ? -static_cast<unsigned __int128>(static_cast<__int128>(v))
                             : static_cast<unsigned __int128>(v);
      return;
    }
  }
}

std::string Digits(unsigned __int128 magnitude, int base, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  if (magnitude == 0) return "0";
  std::string out;
  while (magnitude != 0) {
    out.insert(out.begin(), digits[static_cast<int>(magnitude % static_cast<unsigned>(base))]);
    magnitude /= static_cast<unsigned>(base);
  }
  return out;
}

std::string Grouped(const std::string& digits, char separator) {
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(separator);
    out.push_back(digits[i]);
  }
  return out;
}

void AppendUtf8(uint32_t code_point, std::string* out) {
  if (code_point < 0x80) {
    out->push_back(static_cast<char>(code_point));
  } else if (code_point < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (code_point >> 6)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else if (code_point < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (code_point >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (code_point >> 18)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((code_point >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code_point & 0x3F)));
  }
}

int64_t CodePoints(const std::string& text) {
  int64_t count = 0;
  for (char c : text) count += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return count;
}

// The first `n` code points of `text`.
std::string FirstCodePoints(const std::string& text, int64_t n) {
  size_t end = 0;
  int64_t seen = 0;
  while (end < text.size()) {
    if ((static_cast<unsigned char>(text[end]) & 0xC0) != 0x80) {
      if (seen == n) break;
      ++seen;
    }
    ++end;
  }
  return text.substr(0, end);
}

// `body` padded to the width: `prefix` (sign and base prefix) stays in front of zero padding.
std::string Pad(const Spec& spec, const std::string& prefix, const std::string& body,
                bool numeric) {
  const int64_t length = CodePoints(prefix) + CodePoints(body);
  if (length >= spec.width) return prefix + body;
  const size_t missing = static_cast<size_t>(spec.width - length);
  if (numeric && spec.zero && spec.align == 0) {
    return prefix + std::string(missing, '0') + body;
  }
  const char align = spec.align != 0                 ? spec.align
                     : numeric || spec.c_style ? '>'
                                               : '<';
  const std::string text = prefix + body;
  if (align == '<') return text + std::string(missing, spec.fill);
  if (align == '>') return std::string(missing, spec.fill) + text;
  const size_t left = missing / 2;
  return std::string(left, spec.fill) + text + std::string(missing - left, spec.fill);
}

Result<std::string> RenderInteger(const Value& value, const Spec& spec) {
  unsigned __int128 magnitude = 0;
  bool negative = false;
  IntegerParts(value, &magnitude, &negative);
  const char type = spec.type == 0 ? 'd' : spec.type;
  if (type == 'c') {
    if (negative || magnitude > 0x10FFFF) {
      return Status::InvalidArgument("Invalid Input Error: ", value.ToString(),
                                     " is not a character code");
    }
    std::string out;
    AppendUtf8(static_cast<uint32_t>(magnitude), &out);
    return Pad(spec, "", out, false);
  }
  int base = 10;
  std::string prefix;
  switch (type) {
    case 'd': case 'i': case 'u': break;
    case 'x': base = 16; if (spec.alternate) prefix = "0x"; break;
    case 'X': base = 16; if (spec.alternate) prefix = "0X"; break;
    case 'o': base = 8; if (spec.alternate && magnitude != 0) prefix = "0"; break;
    case 'b': base = 2; if (spec.alternate) prefix = "0b"; break;
    default: return TypeMismatch(type, Kind::kInteger);
  }
  if (negative && base != 10 && spec.c_style) {
    // printf: a negative number in another base is its two's complement, 64 bits wide (128
    // for HUGEINT), as C's printf shows it; format keeps the sign (-0b111).
    if (value.type().id == TypeId::kInt128) {
      magnitude = static_cast<unsigned __int128>(value.GetInt128());
    } else {
      magnitude = static_cast<uint64_t>(value.GetInt64());
    }
    negative = false;
  }
  if (spec.c_style && magnitude == 0 && base != 8) prefix.clear();
  std::string digits = Digits(magnitude, base, type == 'X');
  if (spec.precision >= 0 && static_cast<int64_t>(digits.size()) < spec.precision) {
    digits.insert(0, static_cast<size_t>(spec.precision) - digits.size(), '0');
  }
  if (spec.grouping != 0 && base == 10) digits = Grouped(digits, spec.grouping);
  const std::string sign = negative ? "-" : spec.sign == '-' ? "" : std::string(1, spec.sign);
  return Pad(spec, sign + prefix, digits, true);
}

Result<std::string> RenderFloating(double x, const Spec& spec, char type) {
  std::string conversion = "%";
  if (spec.sign != '-') conversion += spec.sign;
  if (spec.alternate) conversion += '#';
  conversion += '.';
  conversion += std::to_string(spec.precision >= 0 ? spec.precision : 6);
  conversion += type;
  char buffer[512];
  const int written = std::snprintf(buffer, sizeof(buffer), conversion.c_str(), x);
  std::string text;
  if (written < static_cast<int>(sizeof(buffer))) {
    text.assign(buffer, static_cast<size_t>(written));
  } else {
    text.resize(static_cast<size_t>(written) + 1);
    std::snprintf(text.data(), text.size(), conversion.c_str(), x);
    text.resize(static_cast<size_t>(written));
  }
  std::string prefix;
  if (!text.empty() && (text[0] == '-' || text[0] == '+' || text[0] == ' ')) {
    prefix = text.substr(0, 1);
    text.erase(0, 1);
  }
  if (spec.grouping != 0 && std::isfinite(x)) {
    const size_t end = text.find_first_not_of("0123456789");
    const std::string integral = text.substr(0, end);
    text = Grouped(integral, spec.grouping) + (end == std::string::npos ? "" : text.substr(end));
  }
  if (!std::isfinite(x) && spec.zero && spec.align == 0) {
    // The formatting library DuckDB uses fills a non-finite value's width with zeros after it.
    const int64_t length = CodePoints(prefix) + CodePoints(text);
    if (length < spec.width) text.append(static_cast<size_t>(spec.width - length), '0');
    return prefix + text;
  }
  return Pad(spec, prefix, text, std::isfinite(x));
}

Result<std::string> Render(const Value& value, const Spec& spec) {
  const Kind kind = KindOf(value.type().id);
  const char type = spec.type;
  auto text_of = [&]() -> Result<std::string> {
    TARN_ASSIGN_OR_RETURN(Value text, CastValue(value, DataType(TypeId::kVarchar)));
    return text.GetBytes();
  };
  if (type == 0 && kind == Kind::kInteger) return RenderInteger(value, spec);
  if (type == 0 && kind == Kind::kFloat) {
    // A DECIMAL is formatted as the DOUBLE it is handed over as (1.50 shows as 1.5).
    Value number = value;
    if (value.type().id == TypeId::kDecimal) {
      TARN_ASSIGN_OR_RETURN(number, CastValue(value, DataType(TypeId::kFloat64)));
    }
    TARN_ASSIGN_OR_RETURN(Value text, CastValue(number, DataType(TypeId::kVarchar)));
    return Pad(spec, "", text.GetBytes(), true);
  }
  if (type == 0 || type == 's') {
    if (kind == Kind::kInteger || kind == Kind::kFloat) return TypeMismatch(type, kind);
    TARN_ASSIGN_OR_RETURN(std::string text, text_of());
    if (spec.precision >= 0) text = FirstCodePoints(text, spec.precision);
    return Pad(spec, "", text, false);
  }
  switch (type) {
    case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'b': case 'c':
      if (kind != Kind::kInteger && kind != Kind::kBool) return TypeMismatch(type, kind);
      return RenderInteger(value, spec);
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A': {
      if (kind != Kind::kFloat) return TypeMismatch(type, kind);
      double x = 0;
      if (value.type().id == TypeId::kDecimal) {
        TARN_ASSIGN_OR_RETURN(Value cast, CastValue(value, DataType(TypeId::kFloat64)));
        x = cast.GetDouble();
      } else {
        x = value.GetDouble();
      }
      return RenderFloating(x, spec, type);
    }
    default:
      return TypeMismatch(type, kind);
  }
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// Reads decimal digits at `*pos` into `*out` (unchanged when there are none).
void ReadNumber(const std::string& text, size_t* pos, int64_t* out) {
  if (*pos >= text.size() || !IsDigit(text[*pos])) return;
  int64_t n = 0;
  while (*pos < text.size() && IsDigit(text[*pos])) {
    n = std::min<int64_t>(n * 10 + (text[*pos] - '0'), 1 << 20);
    ++*pos;
  }
  *out = n;
}

}  // namespace

Result<Value> Printf(std::span<const Value> args) {
  for (const Value& arg : args) {
    if (arg.is_null()) return Value::Null(DataType(TypeId::kVarchar));
  }
  const std::string& format = args[0].GetBytes();
  std::string out;
  size_t next = 1;
  for (size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out.push_back(format[i]);
      continue;
    }
    const size_t start = i++;
    if (i < format.size() && format[i] == '%') {
      out.push_back('%');
      continue;
    }
    Spec spec;
    spec.c_style = true;
    for (; i < format.size(); ++i) {
      const char c = format[i];
      if (c == '-') spec.align = '<';
      else if (c == '+') spec.sign = '+';
      else if (c == ' ') { if (spec.sign != '+') spec.sign = ' '; }
      else if (c == '#') spec.alternate = true;
      else if (c == '0') spec.zero = true;
      else break;
    }
    ReadNumber(format, &i, &spec.width);
    if (i < format.size() && format[i] == '.') {
      ++i;
      spec.precision = 0;
      ReadNumber(format, &i, &spec.precision);
    }
    while (i < format.size() && (format[i] == 'l' || format[i] == 'h' || format[i] == 'z' ||
                                 format[i] == 'j' || format[i] == 't' || format[i] == 'L')) {
      ++i;
    }
    if (i >= format.size()) {
      return Status::InvalidArgument("Invalid Input Error: printf: the conversion at position ",
                                     start + 1, " of '", format, "' is incomplete");
    }
    spec.type = format[i];
    if (spec.align == '<') spec.zero = false;
    if (spec.type == 's' || spec.type == 'c') spec.zero = false;
    if (next >= args.size()) return MissingArgument(next - 1);
    TARN_ASSIGN_OR_RETURN(std::string text, Render(args[next++], spec));
    out += text;
  }
  return Value::Varchar(std::move(out));
}

Result<Value> Format(std::span<const Value> args) {
  for (const Value& arg : args) {
    if (arg.is_null()) return Value::Null(DataType(TypeId::kVarchar));
  }
  const std::string& format = args[0].GetBytes();
  std::string out;
  size_t next = 1;
  for (size_t i = 0; i < format.size(); ++i) {
    const char c = format[i];
    if (c == '}') {
      if (i + 1 < format.size() && format[i + 1] == '}') ++i;
      out.push_back('}');
      continue;
    }
    if (c != '{') {
      out.push_back(c);
      continue;
    }
    if (i + 1 < format.size() && format[i + 1] == '{') {
      out.push_back('{');
      ++i;
      continue;
    }
    const size_t close = format.find('}', i);
    if (close == std::string::npos) {
      return Status::InvalidArgument("Invalid Input Error: format: '", format,
                                     "' has a '{' without its '}'");
    }
    const std::string field = format.substr(i + 1, close - i - 1);
    i = close;
    size_t pos = 0;
    size_t index = next;
    if (pos < field.size() && IsDigit(field[pos])) {
      int64_t n = 0;
      ReadNumber(field, &pos, &n);
      index = static_cast<size_t>(n) + 1;
    } else {
      ++next;
    }
    Spec spec;
    if (pos < field.size()) {
      if (field[pos] != ':') {
        return Status::InvalidArgument("Invalid Input Error: format: invalid field '{", field,
                                       "}'");
      }
      ++pos;
      auto is_align = [](char a) { return a == '<' || a == '>' || a == '^'; };
      if (pos + 1 < field.size() && is_align(field[pos + 1])) {
        spec.fill = field[pos];
        spec.align = field[pos + 1];
        pos += 2;
      } else if (pos < field.size() && is_align(field[pos])) {
        spec.align = field[pos++];
      }
      if (pos < field.size() && (field[pos] == '+' || field[pos] == '-' || field[pos] == ' ')) {
        spec.sign = field[pos++];
      }
      if (pos < field.size() && field[pos] == '#') {
        spec.alternate = true;
        ++pos;
      }
      if (pos < field.size() && field[pos] == '0') {
        spec.zero = true;
        ++pos;
      }
      ReadNumber(field, &pos, &spec.width);
      if (pos < field.size() && (field[pos] == ',' || field[pos] == '_')) {
        spec.grouping = field[pos++];
      }
      if (pos < field.size() && field[pos] == '.') {
        ++pos;
        spec.precision = 0;
        ReadNumber(field, &pos, &spec.precision);
      }
      if (pos < field.size()) spec.type = field[pos++];
      if (pos != field.size()) {
        return Status::InvalidArgument("Invalid Input Error: format: invalid format spec '{",
                                       field, "}'");
      }
    }
    if (index >= args.size()) return MissingArgument(index - 1);
    TARN_ASSIGN_OR_RETURN(std::string text, Render(args[index], spec));
    out += text;
  }
  return Value::Varchar(std::move(out));
}

}  // namespace tarn::expr
