// Column::GetValue: row-wise access for formatting, statistics and tests.
#include <cstring>

#include "tarn/columnar.h"

namespace tarn {
namespace {

template <typename T>
T Load(const Column& column, int64_t row) {
  T v;
  std::memcpy(&v, column.values->data() + row * static_cast<int64_t>(sizeof(T)), sizeof(T));
  return v;
}

}  // namespace

Value Column::GetValue(int64_t row) const {
  if (IsNull(row) || type.id == TypeId::kNull) return Value::Null(type);
  switch (type.id) {
    case TypeId::kNull: return Value::Null(type);
    case TypeId::kBoolean: return Value::Boolean(GetBool(row));
    case TypeId::kInt8: return Value::Int(type, Load<int8_t>(*this, row));
    case TypeId::kInt16: return Value::Int(type, Load<int16_t>(*this, row));
    case TypeId::kInt32:
    case TypeId::kDate: return Value::Int(type, Load<int32_t>(*this, row));
    case TypeId::kInt64:
    case TypeId::kTime:
    case TypeId::kTimeNs:
    case TypeId::kTimeTz:
    case TypeId::kTimestamp:
    case TypeId::kTimestampS:
    case TypeId::kTimestampMs:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTz: return Value::Int(type, Load<int64_t>(*this, row));
    case TypeId::kUInt8: return Value::UInt(type, Load<uint8_t>(*this, row));
    case TypeId::kUInt16: return Value::UInt(type, Load<uint16_t>(*this, row));
    case TypeId::kUInt32: return Value::UInt(type, Load<uint32_t>(*this, row));
    case TypeId::kUInt64: return Value::UInt(type, Load<uint64_t>(*this, row));
    case TypeId::kInt128:
    case TypeId::kUInt128:
    case TypeId::kDecimal: return Value::Int128(type, Load<__int128>(*this, row));
    case TypeId::kFloat32: return Value::Double(type, Load<float>(*this, row));
    case TypeId::kFloat64: return Value::Double(type, Load<double>(*this, row));
    case TypeId::kInterval: {
      const uint8_t* slot = values->data() + row * 16;
      Interval interval;
      std::memcpy(&interval.months, slot, 4);
      std::memcpy(&interval.days, slot + 4, 4);
      std::memcpy(&interval.nanos, slot + 8, 8);
      return Value::MakeInterval(interval);
    }
    case TypeId::kUuid:
      return Value::Bytes(type, std::string(reinterpret_cast<const char*>(values->data()) + row * 16, 16));
    case TypeId::kVarchar:
    case TypeId::kJson:
    case TypeId::kBlob:
    case TypeId::kVariant:
    case TypeId::kGeometry: return Value::Bytes(type, std::string(GetView(row)));
    case TypeId::kStruct: {
      std::vector<Value> fields;
      fields.reserve(children.size());
      for (const auto& child : children) fields.push_back(child->GetValue(row));
      return Value::Nested(type, std::move(fields));
    }
    case TypeId::kList:
    case TypeId::kMap: {
      const int32_t* offsets = values->data_as<int32_t>();
      std::vector<Value> elements;
      elements.reserve(static_cast<size_t>(offsets[row + 1] - offsets[row]));
      for (int64_t element = offsets[row]; element < offsets[row + 1]; ++element) {
        elements.push_back(children[0]->GetValue(element));
      }
      return Value::Nested(type, std::move(elements));
    }
  }
  return Value::Null(type);
}

}  // namespace tarn
