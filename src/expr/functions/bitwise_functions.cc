#include "expr/functions/bitwise_functions.h"

#include <bit>
#include <optional>
#include <string>
#include <variant>

#include "expr/eval/cast.h"
#include "format/scalar_text.h"

namespace tarn::expr {
namespace {

using U128 = unsigned __int128;

// Width in bits and signedness of an integer type.
struct IntegerShape {
  int bits = 0;
  bool is_signed = true;
};

std::optional<IntegerShape> ShapeOf(TypeId id) {
  switch (id) {
    case TypeId::kInt8: return IntegerShape{8, true};
    case TypeId::kInt16: return IntegerShape{16, true};
    case TypeId::kInt32: return IntegerShape{32, true};
    case TypeId::kInt64: return IntegerShape{64, true};
    case TypeId::kInt128: return IntegerShape{128, true};
    case TypeId::kUInt8: return IntegerShape{8, false};
    case TypeId::kUInt16: return IntegerShape{16, false};
    case TypeId::kUInt32: return IntegerShape{32, false};
    case TypeId::kUInt64: return IntegerShape{64, false};
    case TypeId::kUInt128: return IntegerShape{128, false};
    default: return std::nullopt;
  }
}

// The value's two's-complement bits, sign-extended (signed types) or zero-extended to 128.
U128 BitsOf(const Value& v) {
  if (const auto* x = std::get_if<int64_t>(&v.storage())) {
    return static_cast<U128>(static_cast<__int128>(*x));
  }
  if (const auto* x = std::get_if<uint64_t>(&v.storage())) return static_cast<U128>(*x);
  return static_cast<U128>(v.GetInt128());
}

U128 Mask(int bits) { return bits >= 128 ? ~U128{0} : (U128{1} << bits) - 1; }

// A value of `type` from bits that are already sign- or zero-extended as the type's shape says.
Value FromBits(const DataType& type, const IntegerShape& shape, U128 bits) {
  if (shape.bits == 128) return Value::Int128(type, static_cast<__int128>(bits));
  if (shape.is_signed) return Value::Int(type, static_cast<int64_t>(static_cast<__int128>(bits)));
  return Value::UInt(type, static_cast<uint64_t>(bits));
}

std::string Text(const IntegerShape& shape, U128 bits) {
  std::string out;
  if (shape.is_signed) {
    format::AppendInt128(static_cast<__int128>(bits), &out);
  } else {
    format::AppendUInt128(bits, &out);
  }
  return out;
}

bool Negative(const IntegerShape& shape, U128 bits) {
  return shape.is_signed && static_cast<__int128>(bits) < 0;
}

Result<Value> ShiftLeft(const DataType& type, const IntegerShape& shape, U128 a, U128 s) {
  if (Negative(shape, a)) {
    return Status::InvalidArgument("Out of Range Error: Cannot left-shift negative number ",
                                   Text(shape, a));
  }
  if (Negative(shape, s)) {
    return Status::InvalidArgument("Out of Range Error: Cannot left-shift by negative number ",
                                   Text(shape, s));
  }
  // An unsigned value may move up to its full width (1 << 8 of UTINYINT overflows, 1 << 9 is
  // out of range), a signed one up to one bit less.
  const U128 max_shift = static_cast<U128>(shape.bits + (shape.is_signed ? 0 : 1));
  if (s >= max_shift) {
    if (a == 0) return FromBits(type, shape, 0);
    return Status::InvalidArgument("Out of Range Error: Left-shift value ", Text(shape, s),
                                   " is out of range");
  }
  if (s == 0 || a == 0) return FromBits(type, shape, a);
  const int shift = static_cast<int>(s);
  const U128 limit = U128{1} << (shape.bits - shift - (shape.is_signed ? 1 : 0));
  if (a >= limit) {
    return Status::InvalidArgument("Out of Range Error: Overflow in left shift (",
                                   Text(shape, a), " << ", Text(shape, s), ")");
  }
  return FromBits(type, shape, a << shift);
}

Value ShiftRight(const DataType& type, const IntegerShape& shape, U128 a, U128 s) {
  if (Negative(shape, s) || s >= static_cast<U128>(shape.bits)) return FromBits(type, shape, 0);
  const int shift = static_cast<int>(s);
  if (shape.is_signed) {
    return FromBits(type, shape, static_cast<U128>(static_cast<__int128>(a) >> shift));
  }
  return FromBits(type, shape, a >> shift);
}

}  // namespace

bool IsBitwiseFunction(FunctionId id) {
  switch (id) {
    case FunctionId::kBitAnd: case FunctionId::kBitOr: case FunctionId::kBitXor:
    case FunctionId::kShiftLeft: case FunctionId::kShiftRight: case FunctionId::kBitNot:
    case FunctionId::kBitCount:
      return true;
    default:
      return false;
  }
}

Status ResolveBitwiseFunctionTypes(FunctionId id, const std::vector<DataType>& arg_types,
                                   std::vector<DataType>* cast_to, DataType* result) {
  const size_t arity = id == FunctionId::kBitNot || id == FunctionId::kBitCount ? 1 : 2;
  if (arg_types.size() != arity) return Status::InvalidArgument("mismatch");
  std::optional<DataType> common = arg_types[0];
  if (arity == 2) common = MaxType(arg_types[0], arg_types[1]);
  if (!common) return Status::InvalidArgument("mismatch");
  if (common->id == TypeId::kNull) common = DataType(TypeId::kInt64);
  if (!ShapeOf(common->id)) return Status::InvalidArgument("mismatch");
  *cast_to = std::vector<DataType>(arity, *common);
  *result = *common;
  return Status::OK();
}

Result<Value> InvokeBitwiseFunction(FunctionId id, std::span<const Value> args,
                                    const DataType& result_type) {
  std::optional<IntegerShape> shape = ShapeOf(result_type.id);
  if (!shape) return Status::Internal("bitwise function of a non-integer type");
  const U128 a = BitsOf(args[0]);
  switch (id) {
    case FunctionId::kBitNot: {
      U128 bits = ~a;
      if (!shape->is_signed) bits &= Mask(shape->bits);
      return FromBits(result_type, *shape, bits);
    }
    case FunctionId::kBitCount: {
      const U128 bits = a & Mask(shape->bits);
      const int count = std::popcount(static_cast<uint64_t>(bits)) +
                        std::popcount(static_cast<uint64_t>(bits >> 64));
      return FromBits(result_type, *shape, static_cast<U128>(count));
    }
    default:
      break;
  }
  const U128 b = BitsOf(args[1]);
  switch (id) {
    case FunctionId::kBitAnd: return FromBits(result_type, *shape, a & b);
    case FunctionId::kBitOr: return FromBits(result_type, *shape, a | b);
    case FunctionId::kBitXor: return FromBits(result_type, *shape, a ^ b);
    case FunctionId::kShiftLeft: return ShiftLeft(result_type, *shape, a, b);
    case FunctionId::kShiftRight: return ShiftRight(result_type, *shape, a, b);
    default: return Status::Internal("not a bitwise function");
  }
}

}  // namespace tarn::expr
