#include "columnar/value_check.h"

namespace tarn::internal {
namespace {

Status Mismatch(const DataType& type, const Value& value, std::string_view why) {
  return Status::InvalidArgument("cannot store value ", value.ToString(), " in a ",
                                 type.ToString(), " column: ", why);
}

template <typename T>
bool HoldsKind(const Value& value) {
  return std::holds_alternative<T>(value.storage());
}

}  // namespace

__int128 PowerOfTen(int digits) {
  __int128 result = 1;
  for (int i = 0; i < digits; ++i) result *= 10;
  return result;
}

Status CheckValueForType(const DataType& type, const Value& value) {
  if (value.is_null()) return Status::OK();
  auto check_signed = [&](int64_t min, int64_t max) -> Status {
    if (!HoldsKind<int64_t>(value)) return Mismatch(type, value, "expected a signed integer");
    int64_t v = value.GetInt64();
    if (v < min || v > max) return Mismatch(type, value, "out of range");
    return Status::OK();
  };
  auto check_unsigned = [&](uint64_t max) -> Status {
    if (!HoldsKind<uint64_t>(value)) return Mismatch(type, value, "expected an unsigned integer");
    if (value.GetUInt64() > max) return Mismatch(type, value, "out of range");
    return Status::OK();
  };
  switch (type.id) {
    case TypeId::kNull: return Mismatch(type, value, "only NULL fits the NULL type");
    case TypeId::kBoolean:
      return HoldsKind<bool>(value) ? Status::OK() : Mismatch(type, value, "expected a bool");
    case TypeId::kInt8: return check_signed(INT8_MIN, INT8_MAX);
    case TypeId::kInt16: return check_signed(INT16_MIN, INT16_MAX);
    case TypeId::kInt32:
    case TypeId::kDate: return check_signed(INT32_MIN, INT32_MAX);
    case TypeId::kInt64:
    case TypeId::kTime:
    case TypeId::kTimeNs:
    case TypeId::kTimeTz:
    case TypeId::kTimestamp:
    case TypeId::kTimestampS:
    case TypeId::kTimestampMs:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTz: return check_signed(INT64_MIN, INT64_MAX);
    case TypeId::kUInt8: return check_unsigned(UINT8_MAX);
    case TypeId::kUInt16: return check_unsigned(UINT16_MAX);
    case TypeId::kUInt32: return check_unsigned(UINT32_MAX);
    case TypeId::kUInt64: return check_unsigned(UINT64_MAX);
    case TypeId::kInt128:
    case TypeId::kUInt128:
      return HoldsKind<__int128>(value) ? Status::OK()
                                        : Mismatch(type, value, "expected a 128-bit integer");
    case TypeId::kDecimal: {
      if (!HoldsKind<__int128>(value)) return Mismatch(type, value, "expected an unscaled int128");
      __int128 limit = PowerOfTen(type.precision);
      __int128 v = value.GetInt128();
      if (v >= limit || v <= -limit) return Mismatch(type, value, "exceeds the precision");
      return Status::OK();
    }
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      return HoldsKind<double>(value) ? Status::OK() : Mismatch(type, value, "expected a double");
    case TypeId::kInterval:
      return HoldsKind<Interval>(value) ? Status::OK()
                                        : Mismatch(type, value, "expected an interval");
    case TypeId::kUuid:
      if (!HoldsKind<std::string>(value) || value.GetBytes().size() != 16) {
        return Mismatch(type, value, "expected 16 bytes");
      }
      return Status::OK();
    case TypeId::kVarchar:
    case TypeId::kJson:
    case TypeId::kBlob:
    case TypeId::kVariant:
    case TypeId::kGeometry:
      return HoldsKind<std::string>(value) ? Status::OK() : Mismatch(type, value, "expected bytes");
    case TypeId::kStruct: {
      if (!HoldsKind<std::vector<Value>>(value) ||
          value.children().size() != type.children.size()) {
        return Mismatch(type, value, "expected one value per struct field");
      }
      for (size_t i = 0; i < type.children.size(); ++i) {
        const Field& field = type.children[i];
        if (!field.nullable && value.children()[i].is_null()) {
          return Mismatch(type, value, "NULL in non-nullable field '" + field.name + "'");
        }
        TARN_RETURN_NOT_OK(CheckValueForType(field.type, value.children()[i]));
      }
      return Status::OK();
    }
    case TypeId::kList:
    case TypeId::kMap: {
      if (!HoldsKind<std::vector<Value>>(value)) return Mismatch(type, value, "expected elements");
      if (type.children.size() != 1) return Mismatch(type, value, "malformed nested type");
      const Field& element = type.children[0];
      if (value.children().size() > static_cast<size_t>(INT32_MAX)) {
        return Mismatch(type, value, "too many elements");
      }
      for (const Value& child : value.children()) {
        if (!element.nullable && child.is_null()) {
          return Mismatch(type, value, "NULL element in a non-nullable position");
        }
        TARN_RETURN_NOT_OK(CheckValueForType(element.type, child));
      }
      return Status::OK();
    }
  }
  return Mismatch(type, value, "unknown type");
}

}  // namespace tarn::internal
