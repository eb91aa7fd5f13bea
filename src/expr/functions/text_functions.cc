#include "expr/functions/text_functions.h"

#include <re2/re2.h>
#include <utf8proc.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "expr/eval/cast.h"
#include "util/md5.h"

namespace tarn::expr {
namespace {

const DataType kVarchar(TypeId::kVarchar);
const DataType kBigint(TypeId::kInt64);
const DataType kDouble(TypeId::kFloat64);
const DataType kBlob(TypeId::kBlob);

// Byte offsets where each grapheme cluster of UTF-8 `s` starts, plus the end.
std::vector<size_t> GraphemeStarts(std::string_view s) {
  std::vector<size_t> starts;
  utf8proc_int32_t previous = -1;
  utf8proc_int32_t state = 0;
  size_t at = 0;
  while (at < s.size()) {
    utf8proc_int32_t code_point = 0;
    utf8proc_ssize_t length =
        utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(s.data() + at),
                         static_cast<utf8proc_ssize_t>(s.size() - at), &code_point);
    if (length <= 0) {  // not UTF-8: a byte on its own
      length = 1;
      code_point = -1;
    }
    if (previous < 0 || code_point < 0 ||
        utf8proc_grapheme_break_stateful(previous, code_point, &state)) {
      starts.push_back(at);
    }
    previous = code_point < 0 ? -1 : code_point;
    if (code_point < 0) state = 0;
    at += static_cast<size_t>(length);
  }
  starts.push_back(s.size());
  return starts;
}

std::vector<size_t> CodePointStarts(std::string_view s) {
  std::vector<size_t> starts;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
  }
  starts.push_back(s.size());
  return starts;
}

std::string Reverse(std::string_view s) {
  std::vector<size_t> starts = GraphemeStarts(s);
  std::string out;
  out.reserve(s.size());
  for (size_t i = starts.size() - 1; i > 0; --i) {
    out.append(s.substr(starts[i - 1], starts[i] - starts[i - 1]));
  }
  return out;
}

Value SplitPart(std::string_view s, std::string_view delimiter, int64_t index) {
  std::vector<std::string_view> parts;
  if (delimiter.empty()) {
    std::vector<size_t> starts = CodePointStarts(s);
    for (size_t i = 0; i + 1 < starts.size(); ++i) {
      parts.push_back(s.substr(starts[i], starts[i + 1] - starts[i]));
    }
    if (parts.empty()) parts.push_back("");
  } else {
    size_t at = 0;
    while (true) {
      const size_t found = s.find(delimiter, at);
      if (found == std::string_view::npos) {
        parts.push_back(s.substr(at));
        break;
      }
      parts.push_back(s.substr(at, found - at));
      at = found + delimiter.size();
    }
  }
  const auto count = static_cast<int64_t>(parts.size());
  if (index > 0 && index <= count) return Value::Varchar(std::string(parts[index - 1]));
  if (index < 0 && -index <= count) return Value::Varchar(std::string(parts[count + index]));
  return Value::Varchar("");
}

std::string Translate(std::string_view s, std::string_view from, std::string_view to) {
  auto pieces = [](std::string_view text) {
    std::vector<std::string_view> out;
    std::vector<size_t> starts = CodePointStarts(text);
    for (size_t i = 0; i + 1 < starts.size(); ++i) {
      out.push_back(text.substr(starts[i], starts[i + 1] - starts[i]));
    }
    return out;
  };
  const std::vector<std::string_view> source = pieces(from);
  const std::vector<std::string_view> target = pieces(to);
  std::string out;
  for (std::string_view c : pieces(s)) {
    auto it = std::find(source.begin(), source.end(), c);
    if (it == source.end()) {
      out.append(c);
    } else if (static_cast<size_t>(it - source.begin()) < target.size()) {
      out.append(target[static_cast<size_t>(it - source.begin())]);
    }
  }
  return out;
}

std::string StripAccents(const std::string& s) {
  utf8proc_uint8_t* mapped = nullptr;
  const utf8proc_ssize_t length = utf8proc_map(
      reinterpret_cast<const utf8proc_uint8_t*>(s.data()), static_cast<utf8proc_ssize_t>(s.size()),
      &mapped, static_cast<utf8proc_option_t>(UTF8PROC_STABLE | UTF8PROC_COMPOSE |
                                              UTF8PROC_STRIPMARK));
  if (length < 0) return s;
  std::string out(reinterpret_cast<char*>(mapped), static_cast<size_t>(length));
  std::free(mapped);
  return out;
}

int64_t Levenshtein(std::string_view a, std::string_view b) {
  if (a.empty()) return static_cast<int64_t>(b.size());
  if (b.empty()) return static_cast<int64_t>(a.size());
  std::vector<int64_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = static_cast<int64_t>(j);
  for (size_t i = 1; i <= a.size(); ++i) {
    int64_t diagonal = row[0];
    row[0] = static_cast<int64_t>(i);
    for (size_t j = 1; j <= b.size(); ++j) {
      const int64_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The true Damerau-Levenshtein distance (transpositions of non-adjacent edits allowed), by
// Lowrance and Wagner's algorithm over bytes.
int64_t DamerauLevenshtein(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  const int64_t infinity = static_cast<int64_t>(n + m);
  std::vector<int64_t> d((n + 2) * (m + 2));
  auto at = [&](size_t i, size_t j) -> int64_t& { return d[i * (m + 2) + j]; };
  at(0, 0) = infinity;
  for (size_t i = 0; i <= n; ++i) {
    at(i + 1, 0) = infinity;
    at(i + 1, 1) = static_cast<int64_t>(i);
  }
  for (size_t j = 0; j <= m; ++j) {
    at(0, j + 1) = infinity;
    at(1, j + 1) = static_cast<int64_t>(j);
  }
  size_t last_row[256] = {0};
  for (size_t i = 1; i <= n; ++i) {
    size_t last_match_column = 0;
    for (size_t j = 1; j <= m; ++j) {
      const size_t i1 = last_row[static_cast<unsigned char>(b[j - 1])];
      const size_t j1 = last_match_column;
      int64_t cost = 1;
      if (a[i - 1] == b[j - 1]) {
        cost = 0;
        last_match_column = j;
      }
      at(i + 1, j + 1) = std::min({at(i, j) + cost, at(i + 1, j) + 1, at(i, j + 1) + 1,
                                   at(i1, j1) + static_cast<int64_t>(i - i1 - 1) + 1 +
                                       static_cast<int64_t>(j - j1 - 1)});
    }
    last_row[static_cast<unsigned char>(a[i - 1])] = i;
  }
  return at(n + 1, m + 1);
}

double Jaccard(std::string_view a, std::string_view b) {
  bool in_a[256] = {false}, in_b[256] = {false};
  for (unsigned char c : a) in_a[c] = true;
  for (unsigned char c : b) in_b[c] = true;
  int both = 0, either = 0;
  for (int i = 0; i < 256; ++i) {
    both += in_a[i] && in_b[i];
    either += in_a[i] || in_b[i];
  }
  return either == 0 ? 0.0 : static_cast<double>(both) / either;
}

double Jaro(std::string_view a, std::string_view b) {
  if (a.empty() && b.empty()) return 0.0;
  if (a.empty() || b.empty()) return 0.0;
  const size_t window = std::max(a.size(), b.size()) / 2 > 0
                            ? std::max(a.size(), b.size()) / 2 - 1
                            : 0;
  std::vector<bool> matched_a(a.size()), matched_b(b.size());
  size_t matches = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const size_t low = i > window ? i - window : 0;
    const size_t high = std::min(b.size(), i + window + 1);
    for (size_t j = low; j < high; ++j) {
      if (!matched_b[j] && a[i] == b[j]) {
        matched_a[i] = matched_b[j] = true;
        ++matches;
        break;
      }
    }
  }
  if (matches == 0) return 0.0;
  size_t transpositions = 0;
  for (size_t i = 0, j = 0; i < a.size(); ++i) {
    if (!matched_a[i]) continue;
    while (!matched_b[j]) ++j;
    if (a[i] != b[j]) ++transpositions;
    ++j;
  }
  const double m = static_cast<double>(matches);
  return (m / static_cast<double>(a.size()) + m / static_cast<double>(b.size()) +
          (m - static_cast<double>(transpositions / 2)) / m) / 3.0;
}

double JaroWinkler(std::string_view a, std::string_view b) {
  const double jaro = Jaro(a, b);
  if (jaro <= 0.7) return jaro;
  size_t prefix = 0;
  while (prefix < 4 && prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  return jaro + static_cast<double>(prefix) * 0.1 * (1.0 - jaro);
}

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string ToBase64(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = (static_cast<unsigned char>(bytes[i]) << 16) |
                       (static_cast<unsigned char>(bytes[i + 1]) << 8) |
                       static_cast<unsigned char>(bytes[i + 2]);
    out += kBase64[(v >> 18) & 63];
    out += kBase64[(v >> 12) & 63];
    out += kBase64[(v >> 6) & 63];
    out += kBase64[v & 63];
  }
  if (i < bytes.size()) {
    uint32_t v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kBase64[(v >> 18) & 63];
    out += kBase64[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kBase64[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

Result<std::string> FromBase64(std::string_view text) {
  auto fail = [&](std::string_view why) {
    return Status::InvalidArgument("Conversion Error: Could not decode string \"", text,
                                   "\" as base64: ", why);
  };
  if (text.size() % 4 != 0) return fail("length must be a multiple of 4");
  auto digit = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < text.size(); i += 4) {
    uint32_t v = 0;
    int padding = 0;
    for (size_t k = 0; k < 4; ++k) {
      const char c = text[i + k];
      if (c == '=' && i + 4 == text.size() && k >= 2) {
        // Padding: the group ends here, whatever follows.
        padding = static_cast<int>(4 - k);
        v <<= 6 * (4 - k);
        break;
      }
      const int d = digit(c);
      if (d < 0) {
        return fail(StrCat("invalid byte value '", static_cast<int>(static_cast<unsigned char>(c)),
                           "' at position ", i + k));
      }
      v = (v << 6) | static_cast<uint32_t>(d);
    }
    out += static_cast<char>((v >> 16) & 255);
    if (padding < 2) out += static_cast<char>((v >> 8) & 255);
    if (padding < 1) out += static_cast<char>(v & 255);
  }
  return out;
}

Result<std::string> ToBase(int64_t number, int64_t radix, int64_t min_length) {
  if (number < 0) {
    return Status::InvalidArgument(
        "Invalid Input Error: 'to_base' number must be greater than or equal to 0");
  }
  if (radix < 2 || radix > 36) {
    return Status::InvalidArgument("Invalid Input Error: 'to_base' radix must be between 2 and 36");
  }
  if (min_length > 64 || min_length < 0) {
    return Status::InvalidArgument(
        "Invalid Input Error: 'to_base' min_length must be between 0 and 64");
  }
  static constexpr char kDigits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  std::string out;
  auto value = static_cast<uint64_t>(number);
  do {
    out.insert(out.begin(), kDigits[value % static_cast<uint64_t>(radix)]);
    value /= static_cast<uint64_t>(radix);
  } while (value != 0);
  while (static_cast<int64_t>(out.size()) < min_length) out.insert(out.begin(), '0');
  return out;
}

std::string Binary(const Value& v) {
  const DataType& type = v.type();
  if (type.id == TypeId::kVarchar || type.id == TypeId::kBlob) {
    std::string out;
    for (unsigned char c : v.GetBytes()) {
      for (int bit = 7; bit >= 0; --bit) out += ((c >> bit) & 1) ? '1' : '0';
    }
    return out;
  }
  unsigned __int128 x = 0;
  if (type.id == TypeId::kInt128 || type.id == TypeId::kUInt128) {
    x = static_cast<unsigned __int128>(v.GetInt128());
  } else if (type.id == TypeId::kUInt64) {
    x = v.GetUInt64();
  } else {
    x = static_cast<uint64_t>(static_cast<int64_t>(AsInt128(v)));
  }
  if (x == 0) return "0";
  std::string out;
  while (x != 0) {
    out.insert(out.begin(), (x & 1) ? '1' : '0');
    x >>= 1;
  }
  return out;
}

// DuckDB's StringUtil::BytesToHumanReadableString of |bytes| (signed): the value split into
// base-`multiplier` digits; the largest non-zero one with a tenth from the digit below it.
std::string HumanReadableBytes(int64_t bytes, int64_t multiplier) {
  const std::string sign = bytes < 0 ? "-" : "";
  const uint64_t value = bytes < 0 ? static_cast<uint64_t>(-(bytes + 1)) + 1
                                   : static_cast<uint64_t>(bytes);
  const auto base = static_cast<uint64_t>(multiplier);
  static constexpr const char* kUnits[2][6] = {{"bytes", "KiB", "MiB", "GiB", "TiB", "PiB"},
                                               {"bytes", "kB", "MB", "GB", "TB", "PB"}};
  const int sel = multiplier == 1000 ? 1 : 0;
  uint64_t digits[6] = {value, 0, 0, 0, 0, 0};
  for (int i = 1; i < 6; ++i) {
    digits[i] = digits[i - 1] / base;
    digits[i - 1] %= base;
  }
  for (int i = 5; i >= 1; --i) {
    if (digits[i] != 0) {
      return StrCat(sign, digits[i], ".", digits[i - 1] * 10 / base, " ", kUnits[sel][i]);
    }
  }
  return StrCat(sign, digits[0], value == 1 ? " byte" : " bytes");
}

std::string UrlEncode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string UrlDecode(std::string_view s) {
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && digit(s[i + 1]) >= 0 && digit(s[i + 2]) >= 0) {
      out += static_cast<char>(digit(s[i + 1]) * 16 + digit(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The MD5 digest's two halves, each read as a little-endian 64-bit number.
std::pair<uint64_t, uint64_t> Md5Halves(const std::string& bytes) {
  const std::string hex = Md5Hex(bytes);
  unsigned char digest[16];
  for (int i = 0; i < 16; ++i) {
    digest[i] = static_cast<unsigned char>(std::stoi(hex.substr(static_cast<size_t>(i) * 2, 2),
                                                     nullptr, 16));
  }
  uint64_t upper = 0, lower = 0;
  std::memcpy(&upper, digest, 8);
  std::memcpy(&lower, digest + 8, 8);
  return {upper, lower};
}

}  // namespace

bool IsTextFunction(FunctionId id) {
  return id >= FunctionId::kReverse && id <= FunctionId::kRegexpEscape;
}

bool TextFunctionPropagatesNull(FunctionId id) { return id != FunctionId::kConcatWs; }

Status ResolveTextFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                std::vector<DataType>* cast_to, DataType* result) {
  auto mismatch = [] { return Status::InvalidArgument("mismatch"); };
  const size_t n = arg_types.size();
  auto expect = [&](std::vector<DataType> want, DataType out) {
    return ExpectArgumentTypes(arg_types, std::move(want), std::move(out), cast_to, result);
  };
  switch (id) {
    case FunctionId::kReverse: case FunctionId::kStripAccents: case FunctionId::kUrlEncode:
    case FunctionId::kUrlDecode: case FunctionId::kRegexpEscape:
      return expect({kVarchar}, kVarchar);
    case FunctionId::kConcatWs: {
      if (n < 2) return mismatch();
      for (const DataType& t : arg_types) {
        if (t.id == TypeId::kVariant) return mismatch();
      }
      *cast_to = std::vector<DataType>(n, kVarchar);
      *result = kVarchar;
      return Status::OK();
    }
    case FunctionId::kSplitPart: return expect({kVarchar, kVarchar, kBigint}, kVarchar);
    case FunctionId::kTranslate: return expect({kVarchar, kVarchar, kVarchar}, kVarchar);
    case FunctionId::kUnicode: return expect({kVarchar}, DataType(TypeId::kInt32));
    case FunctionId::kBitLength: case FunctionId::kStrlen: case FunctionId::kLengthGrapheme:
      return expect({kVarchar}, kBigint);
    case FunctionId::kOctetLength:
      if (n == 1 && arg_types[0].id == TypeId::kBlob) return expect({kBlob}, kBigint);
      return mismatch();
    case FunctionId::kLevenshtein: case FunctionId::kDamerauLevenshtein:
    case FunctionId::kHamming:
      return expect({kVarchar, kVarchar}, kBigint);
    case FunctionId::kJaccard: case FunctionId::kJaro: case FunctionId::kJaroWinkler:
      return expect({kVarchar, kVarchar}, kDouble);
    case FunctionId::kToBase64:
      if (n == 1 && arg_types[0].id == TypeId::kVarchar) return mismatch();
      return expect({kBlob}, kVarchar);
    case FunctionId::kFromBase64: return expect({kVarchar}, kBlob);
    case FunctionId::kToBase:
      if (n == 2) return expect({kBigint, DataType(TypeId::kInt32)}, kVarchar);
      return expect({kBigint, DataType(TypeId::kInt32), DataType(TypeId::kInt32)}, kVarchar);
    case FunctionId::kBin: {
      if (n != 1) return mismatch();
      const DataType& t = arg_types[0];
      if (t.id == TypeId::kVarchar || t.id == TypeId::kBlob) return expect({t}, kVarchar);
      if (t.id == TypeId::kInt128 || t.id == TypeId::kUInt128 || t.id == TypeId::kUInt64) {
        return expect({t}, kVarchar);
      }
      if (t.IsInteger() || t.id == TypeId::kNull) return expect({kBigint}, kVarchar);
      return mismatch();
    }
    case FunctionId::kFormatBytes: case FunctionId::kFormatDecimalBytes:
      return expect({kBigint}, kVarchar);
    case FunctionId::kMd5Number: return expect({kVarchar}, DataType(TypeId::kUInt128));
    case FunctionId::kMd5NumberUpper: case FunctionId::kMd5NumberLower:
      return expect({kVarchar}, DataType(TypeId::kUInt64));
    default: return mismatch();
  }
}

Result<Value> InvokeTextFunction(FunctionId id, std::span<const Value> args,
                                 const DataType& result_type) {
  switch (id) {
    case FunctionId::kReverse: return Value::Varchar(Reverse(args[0].GetBytes()));
    case FunctionId::kConcatWs: {
      if (args[0].is_null()) return Value::Null(result_type);
      std::string out;
      bool first = true;
      for (size_t i = 1; i < args.size(); ++i) {
        if (args[i].is_null()) continue;
        if (!first) out += args[0].GetBytes();
        out += args[i].GetBytes();
        first = false;
      }
      return Value::Varchar(std::move(out));
    }
    case FunctionId::kSplitPart:
      return SplitPart(args[0].GetBytes(), args[1].GetBytes(),
                       static_cast<int64_t>(AsInt128(args[2])));
    case FunctionId::kTranslate:
      return Value::Varchar(Translate(args[0].GetBytes(), args[1].GetBytes(), args[2].GetBytes()));
    case FunctionId::kStripAccents: return Value::Varchar(StripAccents(args[0].GetBytes()));
    case FunctionId::kUnicode: {
      const std::string& s = args[0].GetBytes();
      if (s.empty()) return Value::Int(result_type, -1);
      utf8proc_int32_t code_point = 0;
      const utf8proc_ssize_t length =
          utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(s.data()),
                           static_cast<utf8proc_ssize_t>(s.size()), &code_point);
      return Value::Int(result_type, length <= 0 ? static_cast<unsigned char>(s[0]) : code_point);
    }
    case FunctionId::kBitLength:
      return Value::Int64(static_cast<int64_t>(args[0].GetBytes().size()) * 8);
    case FunctionId::kOctetLength: case FunctionId::kStrlen:
      return Value::Int64(static_cast<int64_t>(args[0].GetBytes().size()));
    case FunctionId::kLengthGrapheme:
      return Value::Int64(static_cast<int64_t>(GraphemeStarts(args[0].GetBytes()).size()) - 1);
    case FunctionId::kLevenshtein:
      return Value::Int64(Levenshtein(args[0].GetBytes(), args[1].GetBytes()));
    case FunctionId::kDamerauLevenshtein:
      return Value::Int64(DamerauLevenshtein(args[0].GetBytes(), args[1].GetBytes()));
    case FunctionId::kHamming: {
      const std::string& a = args[0].GetBytes();
      const std::string& b = args[1].GetBytes();
      if (a.size() != b.size()) {
        return Status::InvalidArgument(
            "Invalid Input Error: Mismatch Function: Strings must be of equal length!");
      }
      int64_t count = 0;
      for (size_t i = 0; i < a.size(); ++i) count += a[i] != b[i];
      return Value::Int64(count);
    }
    case FunctionId::kJaccard: {
      if (args[0].GetBytes().empty() || args[1].GetBytes().empty()) {
        return Status::InvalidArgument("Invalid Input Error: Jaccard Function: An argument too short!");
      }
      return Value::Float64(Jaccard(args[0].GetBytes(), args[1].GetBytes()));
    }
    case FunctionId::kJaro: return Value::Float64(Jaro(args[0].GetBytes(), args[1].GetBytes()));
    case FunctionId::kJaroWinkler:
      return Value::Float64(JaroWinkler(args[0].GetBytes(), args[1].GetBytes()));
    case FunctionId::kToBase64: return Value::Varchar(ToBase64(args[0].GetBytes()));
    case FunctionId::kFromBase64: {
      TARN_ASSIGN_OR_RETURN(std::string bytes, FromBase64(args[0].GetBytes()));
      return Value::Bytes(result_type, std::move(bytes));
    }
    case FunctionId::kToBase: {
      TARN_ASSIGN_OR_RETURN(std::string text,
                            ToBase(static_cast<int64_t>(AsInt128(args[0])),
                                   static_cast<int64_t>(AsInt128(args[1])),
                                   args.size() > 2 ? static_cast<int64_t>(AsInt128(args[2])) : 0));
      return Value::Varchar(std::move(text));
    }
    case FunctionId::kBin: return Value::Varchar(Binary(args[0]));
    case FunctionId::kFormatBytes:
      return Value::Varchar(HumanReadableBytes(static_cast<int64_t>(AsInt128(args[0])), 1024));
    case FunctionId::kFormatDecimalBytes:
      return Value::Varchar(HumanReadableBytes(static_cast<int64_t>(AsInt128(args[0])), 1000));
    case FunctionId::kMd5Number: case FunctionId::kMd5NumberUpper:
    case FunctionId::kMd5NumberLower: {
      const auto [upper, lower] = Md5Halves(args[0].GetBytes());
      if (id == FunctionId::kMd5NumberUpper) return Value::UInt(result_type, upper);
      if (id == FunctionId::kMd5NumberLower) return Value::UInt(result_type, lower);
      const unsigned __int128 number = (static_cast<unsigned __int128>(lower) << 64) | upper;
      return Value::Int128(result_type, static_cast<__int128>(number));
    }
    case FunctionId::kUrlEncode: return Value::Varchar(UrlEncode(args[0].GetBytes()));
    case FunctionId::kUrlDecode: return Value::Varchar(UrlDecode(args[0].GetBytes()));
    case FunctionId::kRegexpEscape: return Value::Varchar(RE2::QuoteMeta(args[0].GetBytes()));
    default: return Status::Internal("not a text function");
  }
}

}  // namespace tarn::expr
