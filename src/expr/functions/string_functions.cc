#include "expr/functions/string_functions.h"

#include <string>

#include "expr/eval/cast.h"
#include "expr/functions/format_functions.h"

namespace tarn::expr {
namespace {

constexpr char kHexDigits[] = "0123456789ABCDEF";

std::string HexOfBytes(const std::string& bytes) {
  std::string out;
  out.reserve(bytes.size() * 2);
  for (unsigned char c : bytes) {
    out += kHexDigits[c >> 4];
    out += kHexDigits[c & 15];
  }
  return out;
}

// Hex digits of `value` without leading zeros ("0" for zero).
std::string HexOfUnsigned(unsigned __int128 value) {
  if (value == 0) return "0";
  std::string out;
  while (value != 0) {
    out.insert(out.begin(), kHexDigits[static_cast<int>(value & 15)]);
    value >>= 4;
  }
  return out;
}

Result<Value> Unhex(const std::string& text) {
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  out.reserve(text.size() / 2 + 1);
  size_t i = 0;
  int pending = text.size() % 2 == 1 ? 0 : -1;  // an odd count reads as if led by a 0
  for (; i < text.size(); ++i) {
    const int d = digit(text[i]);
    if (d < 0) {
      return Status::InvalidArgument("Invalid Input Error: Invalid input for hex digit: ",
                                     std::string(1, text[i]));
    }
    if (pending < 0) {
      pending = d;
    } else {
      out += static_cast<char>(pending * 16 + d);
      pending = -1;
    }
  }
  return Value::Bytes(DataType(TypeId::kBlob), std::move(out));
}

// Byte offsets of the first `count` code points of UTF-8 `text` (all of it when shorter):
// returns the byte length they take and sets *found to how many there were.
size_t CodePointPrefix(const std::string& text, int64_t count, int64_t* found) {
  size_t at = 0;
  int64_t seen = 0;
  while (at < text.size() && seen < count) {
    ++at;
    while (at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) ++at;
    ++seen;
  }
  *found = seen;
  return at;
}

Result<Value> Pad(const std::string& text, int64_t length, const std::string& pad, bool left) {
  if (length < 1) return Value::Varchar("");
  int64_t have = 0;
  const size_t kept = CodePointPrefix(text, length, &have);
  if (have == length) return Value::Varchar(text.substr(0, kept));
  if (pad.empty()) {
    return Status::InvalidArgument("Invalid Input Error: Insufficient padding in ",
                                   left ? "LPAD." : "RPAD.");
  }
  std::string filler;
  int64_t missing = length - have;
  while (missing > 0) {
    int64_t taken = 0;
    const size_t bytes = CodePointPrefix(pad, missing, &taken);
    filler.append(pad, 0, bytes);
    missing -= taken;
  }
  return Value::Varchar(left ? filler + text : text + filler);
}

// chr(n): the character of code point n.
Result<Value> Chr(int64_t code_point) {
  if (code_point < 0 || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF)) {
    return Status::InvalidArgument("Invalid Input Error: Invalid UTF8 Codepoint ", code_point);
  }
  const auto c = static_cast<uint32_t>(code_point);
  std::string out;
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
  return Value::Varchar(std::move(out));
}

// ascii(s): the code point of the first character, 0 for ''.
int64_t FirstCodePoint(const std::string& text) {
  if (text.empty()) return 0;
  const auto first = static_cast<unsigned char>(text[0]);
  int length = first < 0x80 ? 1 : first < 0xE0 ? 2 : first < 0xF0 ? 3 : 4;
  if (static_cast<size_t>(length) > text.size()) length = 1;
  uint32_t c = length == 1 ? first : length == 2 ? (first & 0x1F) : length == 3 ? (first & 0x0F)
                                                                                : (first & 0x07);
  for (int i = 1; i < length; ++i) c = (c << 6) | (static_cast<unsigned char>(text[i]) & 0x3F);
  return c;
}

}  // namespace

bool IsStringFunction(FunctionId id) {
  return id == FunctionId::kHex || id == FunctionId::kUnhex || id == FunctionId::kLpad ||
         id == FunctionId::kRpad || id == FunctionId::kRepeat || id == FunctionId::kPrintf ||
         id == FunctionId::kFormat || id == FunctionId::kChr || id == FunctionId::kAscii;
}

Status ResolveStringFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                  std::vector<DataType>* cast_to, DataType* result) {
  auto mismatch = [] { return Status::InvalidArgument("mismatch"); };
  const DataType varchar(TypeId::kVarchar);
  switch (id) {
    case FunctionId::kHex: {
      if (arg_types.size() != 1) return mismatch();
      const DataType& arg = arg_types[0];
      DataType as;
      switch (arg.id) {
        case TypeId::kNull: case TypeId::kVarchar: as = varchar; break;
        case TypeId::kBlob: as = arg; break;
        case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kInt64:
          as = DataType(TypeId::kInt64);
          break;
        case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32: case TypeId::kUInt64:
          as = DataType(TypeId::kUInt64);
          break;
        case TypeId::kInt128: case TypeId::kUInt128: as = arg; break;
        default: return mismatch();
      }
      *cast_to = {as};
      *result = varchar;
      return Status::OK();
    }
    case FunctionId::kUnhex:
      if (arg_types.size() != 1 || !ImplicitlyCastable(arg_types[0], varchar)) return mismatch();
      *cast_to = {varchar};
      *result = DataType(TypeId::kBlob);
      return Status::OK();
    case FunctionId::kLpad: case FunctionId::kRpad: {
      const DataType integer(TypeId::kInt32);
      if (arg_types.size() != 3 || !ImplicitlyCastable(arg_types[0], varchar) ||
          !ImplicitlyCastable(arg_types[1], integer) ||
          !ImplicitlyCastable(arg_types[2], varchar)) {
        return mismatch();
      }
      *cast_to = {varchar, integer, varchar};
      *result = varchar;
      return Status::OK();
    }
    case FunctionId::kRepeat: {
      const DataType bigint(TypeId::kInt64);
      if (arg_types.size() != 2 || !ImplicitlyCastable(arg_types[1], bigint)) return mismatch();
      // A NULL first argument takes the BLOB overload, as DuckDB's binder picks it.
      const DataType as = arg_types[0].id == TypeId::kBlob || arg_types[0].id == TypeId::kNull
                              ? DataType(TypeId::kBlob)
                              : varchar;
      if (!ImplicitlyCastable(arg_types[0], as)) return mismatch();
      *cast_to = {as, bigint};
      *result = as;
      return Status::OK();
    }
    case FunctionId::kChr: {
      const DataType integer(TypeId::kInt32);
      if (arg_types.size() != 1 || !ImplicitlyCastable(arg_types[0], integer)) return mismatch();
      *cast_to = {integer};
      *result = varchar;
      return Status::OK();
    }
    case FunctionId::kAscii:
      if (arg_types.size() != 1 || !ImplicitlyCastable(arg_types[0], varchar)) return mismatch();
      *cast_to = {varchar};
      *result = DataType(TypeId::kInt32);
      return Status::OK();
    case FunctionId::kPrintf: case FunctionId::kFormat: {
      // The format, then any values: each is formatted as its own type.
      if (arg_types.empty() || !ImplicitlyCastable(arg_types[0], varchar)) return mismatch();
      *cast_to = arg_types;
      (*cast_to)[0] = varchar;
      for (DataType& type : *cast_to) {
        if (type.id == TypeId::kNull) type = varchar;
      }
      *result = varchar;
      return Status::OK();
    }
    default:
      return mismatch();
  }
}

Result<Value> InvokeStringFunction(FunctionId id, std::span<const Value> args,
                                   const DataType& /*result_type*/) {
  switch (id) {
    case FunctionId::kHex: {
      const Value& arg = args[0];
      switch (arg.type().id) {
        case TypeId::kVarchar: case TypeId::kBlob: return Value::Varchar(HexOfBytes(arg.GetBytes()));
        case TypeId::kInt64:
          return Value::Varchar(HexOfUnsigned(static_cast<uint64_t>(arg.GetInt64())));
        case TypeId::kUInt64: return Value::Varchar(HexOfUnsigned(arg.GetUInt64()));
        case TypeId::kInt128: case TypeId::kUInt128:
          return Value::Varchar(HexOfUnsigned(static_cast<unsigned __int128>(arg.GetInt128())));
        default: return Status::Internal("hex of ", arg.type().ToString());
      }
    }
    case FunctionId::kUnhex: return Unhex(args[0].GetBytes());
    case FunctionId::kLpad: case FunctionId::kRpad:
      return Pad(args[0].GetBytes(), args[1].GetInt64(), args[2].GetBytes(),
                 id == FunctionId::kLpad);
    case FunctionId::kRepeat: {
      const std::string& text = args[0].GetBytes();
      const int64_t count = args[1].GetInt64();
      if (count <= 0 || text.empty()) return Value::Bytes(args[0].type(), "");
      // One value is at most 4 GiB, as DuckDB's strings are.
      constexpr uint64_t kMaxBytes = uint64_t{1} << 32;
      if (static_cast<uint64_t>(count) > kMaxBytes / text.size()) {
        return Status::InvalidArgument("Invalid Input Error: repeat of ", text.size(),
                                       " bytes ", count, " times exceeds the 4 GiB limit");
      }
      std::string out;
      out.reserve(text.size() * static_cast<size_t>(count));
      for (int64_t i = 0; i < count; ++i) out += text;
      return Value::Bytes(args[0].type(), std::move(out));
    }
    case FunctionId::kChr: return Chr(args[0].GetInt64());
    case FunctionId::kAscii: return Value::Int(DataType(TypeId::kInt32), FirstCodePoint(args[0].GetBytes()));
    case FunctionId::kPrintf: return Printf(args);
    case FunctionId::kFormat: return Format(args);
    default: return Status::Internal("not a string function");
  }
}

}  // namespace tarn::expr
