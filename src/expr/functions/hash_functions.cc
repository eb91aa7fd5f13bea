#include "expr/functions/hash_functions.h"

#include <openssl/evp.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "expr/eval/cast.h"

namespace tarn::expr {
namespace {

constexpr uint64_t kNullHash = 0xbf58476d1ce4e5b9ULL;
constexpr uint64_t kMultiplier = 0xd6e8feb86659fd93ULL;

uint64_t Murmur64(uint64_t x) {
  x ^= x >> 32;
  x *= kMultiplier;
  x ^= x >> 32;
  x *= kMultiplier;
  x ^= x >> 32;
  return x;
}

uint64_t Hash32(int64_t value) { return Murmur64(static_cast<uint32_t>(value)); }
uint64_t Hash64(uint64_t value) { return Murmur64(value); }
uint64_t Hash128(unsigned __int128 value) {
  return Murmur64(static_cast<uint64_t>(value)) ^ Murmur64(static_cast<uint64_t>(value >> 64));
}

uint64_t HashBytes(const std::string& bytes) {
  const size_t size = bytes.size();
  uint64_t h = 0xe17a1465ULL ^ (static_cast<uint64_t>(size) * 0xc6a4a7935bd1e995ULL);
  const size_t remainder = size & 7U;
  size_t at = 0;
  for (; at + 8 <= size; at += 8) {
    uint64_t block = 0;
    std::memcpy(&block, bytes.data() + at, 8);
    h ^= block;
    h *= kMultiplier;
  }
  if (remainder != 0) {
    uint64_t block = 0;
    std::memcpy(&block, bytes.data() + at, remainder);
    h ^= block;
    h *= kMultiplier;
  }
  return Murmur64(h);
}

// DuckDB's physical width of a DECIMAL of `precision` digits.
int DecimalBits(int precision) {
  return precision <= 4 ? 16 : precision <= 9 ? 32 : precision <= 18 ? 64 : 128;
}

uint64_t HashInterval(const Interval& interval) {
  constexpr int64_t kDaysPerMonth = 30;
  constexpr int64_t kMicrosPerDay = 86400000000LL;
  constexpr int64_t kMicrosPerMonth = kMicrosPerDay * kDaysPerMonth;
  int64_t days = interval.days;
  int64_t micros = interval.nanos / 1000;
  const int64_t extra_months_days = days / kDaysPerMonth;
  const int64_t extra_months_micros = micros / kMicrosPerMonth;
  days -= extra_months_days * kDaysPerMonth;
  micros -= extra_months_micros * kMicrosPerMonth;
  const int64_t extra_days = micros / kMicrosPerDay;
  micros -= extra_days * kMicrosPerDay;
  const int64_t months = interval.months + extra_months_days + extra_months_micros;
  days += extra_days;
  return Hash32(months) ^ Hash32(days) ^ Hash64(static_cast<uint64_t>(micros));
}

std::string HexDigest(const std::string& bytes, const EVP_MD* md) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &length, md, nullptr);
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  out.reserve(length * 2);
  for (unsigned int i = 0; i < length; ++i) {
    out += kDigits[digest[i] >> 4];
    out += kDigits[digest[i] & 15];
  }
  return out;
}

}  // namespace

uint64_t DuckDBCombineHash(uint64_t left, uint64_t right) {
  left ^= left >> 32;
  left *= kMultiplier;
  return left ^ right;
}

uint64_t DuckDBHash(const Value& value, const DataType& type) {
  if (value.is_null()) return kNullHash;
  switch (type.id) {
    case TypeId::kBoolean: return Hash32(value.GetBool() ? 1 : 0);
    case TypeId::kInt8: case TypeId::kInt16: case TypeId::kInt32: case TypeId::kDate:
      return Hash32(value.GetInt64());
    case TypeId::kUInt8: case TypeId::kUInt16: case TypeId::kUInt32:
      return Hash32(static_cast<int64_t>(value.GetUInt64()));
    case TypeId::kUInt64: return Hash64(value.GetUInt64());
    case TypeId::kInt64: case TypeId::kTime: case TypeId::kTimeNs: case TypeId::kTimestamp:
    case TypeId::kTimestampS: case TypeId::kTimestampMs: case TypeId::kTimestampNs:
    case TypeId::kTimestampTz:
      return Hash64(static_cast<uint64_t>(value.GetInt64()));
    case TypeId::kInt128: case TypeId::kUInt128:
      return Hash128(static_cast<unsigned __int128>(value.GetInt128()));
    case TypeId::kDecimal: {
      const __int128 unscaled = value.GetInt128();
      const int bits = DecimalBits(type.precision);
      if (bits <= 32) return Hash32(static_cast<int64_t>(unscaled));
      if (bits == 64) return Hash64(static_cast<uint64_t>(static_cast<int64_t>(unscaled)));
      return Hash128(static_cast<unsigned __int128>(unscaled));
    }
    case TypeId::kFloat32: {
      float f = static_cast<float>(value.GetDouble());
      if (f == 0.0f) f = 0.0f;
      if (std::isnan(f)) f = std::numeric_limits<float>::quiet_NaN();
      uint32_t bits = 0;
      std::memcpy(&bits, &f, sizeof(bits));
      return Hash32(bits);
    }
    case TypeId::kFloat64: {
      double d = value.GetDouble();
      if (d == 0.0) d = 0.0;
      if (std::isnan(d)) d = std::numeric_limits<double>::quiet_NaN();
      uint64_t bits = 0;
      std::memcpy(&bits, &d, sizeof(bits));
      return Hash64(bits);
    }
    case TypeId::kInterval: return HashInterval(value.GetInterval());
    case TypeId::kUuid: {
      // DuckDB keeps a UUID as a HUGEINT: its 16 bytes big-endian, the top bit flipped.
      const std::string& bytes = value.GetBytes();
      unsigned __int128 x = 0;
      for (unsigned char c : bytes) x = (x << 8) | c;
      x ^= static_cast<unsigned __int128>(1) << 127;
      return Hash128(x);
    }
    case TypeId::kList: case TypeId::kStruct: case TypeId::kMap: {
      const std::vector<Value>& children = value.children();
      if (children.empty()) return kNullHash;
      uint64_t h = 0;
      for (size_t i = 0; i < children.size(); ++i) {
        const DataType& child_type = type.id == TypeId::kStruct
                                         ? type.children[i].type
                                         : type.children[0].type;
        const uint64_t child = DuckDBHash(children[i], child_type);
        h = i == 0 ? child : DuckDBCombineHash(h, child);
      }
      return h;
    }
    default:
      if (std::holds_alternative<std::string>(value.storage())) return HashBytes(value.GetBytes());
      return kNullHash;
  }
}

bool IsHashFunction(FunctionId id) {
  return id == FunctionId::kHash || id == FunctionId::kSha256 || id == FunctionId::kSha1;
}

Status ResolveHashFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                std::vector<DataType>* cast_to, DataType* result) {
  auto mismatch = [] { return Status::InvalidArgument("mismatch"); };
  if (id == FunctionId::kHash) {
    if (arg_types.empty()) return mismatch();
    for (const DataType& type : arg_types) {
      if (type.id == TypeId::kVariant || type.id == TypeId::kGeometry) return mismatch();
    }
    *cast_to = arg_types;
    *result = DataType(TypeId::kUInt64);
    return Status::OK();
  }
  if (arg_types.size() != 1) return mismatch();
  const DataType& arg = arg_types[0];
  if (arg.id == TypeId::kBlob) {
    *cast_to = {arg};
  } else if (arg.id == TypeId::kVarchar || arg.id == TypeId::kNull ||
             ImplicitlyCastable(arg, DataType(TypeId::kVarchar))) {
    *cast_to = {DataType(TypeId::kVarchar)};
  } else {
    return mismatch();
  }
  *result = DataType(TypeId::kVarchar);
  return Status::OK();
}

Result<Value> InvokeHashFunction(FunctionId id, std::span<const Value> args,
                                 const DataType& result_type) {
  switch (id) {
    case FunctionId::kHash: {
      uint64_t h = 0;
      for (size_t i = 0; i < args.size(); ++i) {
        const uint64_t one = DuckDBHash(args[i], args[i].type());
        h = i == 0 ? one : DuckDBCombineHash(h, one);
      }
      return Value::UInt(result_type, h);
    }
    case FunctionId::kSha256: return Value::Varchar(HexDigest(args[0].GetBytes(), EVP_sha256()));
    case FunctionId::kSha1: return Value::Varchar(HexDigest(args[0].GetBytes(), EVP_sha1()));
    default: return Status::Internal("not a hash function");
  }
}

}  // namespace tarn::expr
