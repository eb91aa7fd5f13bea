#include "parquet/statistics.h"

#include <cmath>
#include <cstring>

#include "parquet/encoding.h"

namespace tarn {

namespace {

bool IsFloatValue(const Value& value) {
  return !value.is_null() && value.type().IsFloating();
}

}  // namespace

std::optional<Value> ColumnStatistics::LowerBound() const {
  if (!min.has_value() || min->is_null()) return std::nullopt;
  if (IsFloatValue(*min)) {
    const double v = min->GetDouble();
    if (std::isnan(v)) return std::nullopt;
    if (v == 0.0) return Value::Double(min->type(), -0.0);
  }
  return min;
}

std::optional<Value> ColumnStatistics::UpperBound() const {
  if (!max.has_value() || max->is_null()) return std::nullopt;
  if (IsFloatValue(*max)) {
    // NaN sorts above every number: only a recorded zero NaN count bounds the column.
    if (!nan_count.has_value() || *nan_count != 0) return std::nullopt;
    const double v = max->GetDouble();
    if (std::isnan(v)) return std::nullopt;
    if (v == 0.0) return Value::Double(max->type(), 0.0);
  }
  return max;
}

}  // namespace tarn

namespace tarn::parquet {

namespace {

template <typename T>
T LoadLE(const uint8_t* bytes) {
  T value;
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

// Whether the deprecated signed-order min/max may be trusted for this leaf.
bool SignedOrderIsRight(const LeafDescriptor& leaf) {
  switch (leaf.physical_type) {
    case PhysicalType::kBoolean:
    case PhysicalType::kFloat:
    case PhysicalType::kDouble:
      return true;
    case PhysicalType::kInt32:
    case PhysicalType::kInt64:
      switch (leaf.type.id) {
        case TypeId::kUInt8:
        case TypeId::kUInt16:
        case TypeId::kUInt32:
        case TypeId::kUInt64:
          return false;
        default:
          return true;
      }
    default:
      return false;
  }
}

int64_t ApplyFactor(const LeafDescriptor& leaf, int64_t raw) {
  switch (leaf.kind) {
    case ValueKind::kInt64Multiply:
      if (raw == INT64_MAX || raw == -INT64_MAX) return raw;  // an infinite timestamp
      [[fallthrough]];
    case ValueKind::kInt32ToInt64:
      return static_cast<int64_t>(static_cast<uint64_t>(raw) * static_cast<uint64_t>(leaf.factor));
    case ValueKind::kInt64Divide: {
      int64_t q = raw / leaf.factor;
      if ((raw % leaf.factor) < 0) --q;  // floor
      return q;
    }
    default:
      return raw;
  }
}

}  // namespace

std::optional<Value> DecodeStatisticsValue(const LeafDescriptor& leaf, std::string_view text) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  const int64_t size = static_cast<int64_t>(text.size());
  const DataType& type = leaf.type;
  switch (leaf.kind) {
    case ValueKind::kBoolean:
      if (size < 1) return std::nullopt;
      return Value::Boolean(bytes[0] != 0);
    case ValueKind::kInt96ToMicros:
    case ValueKind::kIntervalToInterval:
      return std::nullopt;  // no defined order
    case ValueKind::kBytes:
    case ValueKind::kFlbaToBytes:
      return Value::Bytes(type, std::string(text));
    case ValueKind::kBytesToInt128:
    case ValueKind::kFlbaToInt128:
      if (size < 1 || size > 16) return std::nullopt;
      return Value::Int128(type, BigEndianToInt128(bytes, static_cast<int>(size)));
    case ValueKind::kFloat16ToFloat:
      if (size != 2) return std::nullopt;
      return Value::Double(type, HalfToFloat(LoadLE<uint16_t>(bytes)));
    default:
      break;
  }
  if (leaf.physical_type == PhysicalType::kFixedLenByteArray) {  // UUID
    if (size != leaf.type_length) return std::nullopt;
    return Value::Bytes(type, std::string(text));
  }
  if (leaf.physical_type == PhysicalType::kFloat) {
    if (size != 4) return std::nullopt;
    return Value::Double(type, LoadLE<float>(bytes));
  }
  if (leaf.physical_type == PhysicalType::kDouble) {
    if (size != 8) return std::nullopt;
    return Value::Double(type, LoadLE<double>(bytes));
  }
  int64_t raw = 0;
  if (leaf.physical_type == PhysicalType::kInt32) {
    if (size != 4) return std::nullopt;
    const int32_t v = LoadLE<int32_t>(bytes);
    switch (type.id) {
      case TypeId::kUInt8: return Value::UInt(type, static_cast<uint8_t>(v));
      case TypeId::kUInt16: return Value::UInt(type, static_cast<uint16_t>(v));
      case TypeId::kUInt32: return Value::UInt(type, static_cast<uint32_t>(v));
      case TypeId::kInt8: return Value::Int(type, static_cast<int8_t>(v));
      case TypeId::kInt16: return Value::Int(type, static_cast<int16_t>(v));
      default: raw = v;
    }
  } else if (leaf.physical_type == PhysicalType::kInt64) {
    if (size != 8) return std::nullopt;
    raw = LoadLE<int64_t>(bytes);
    if (type.id == TypeId::kUInt64) return Value::UInt(type, static_cast<uint64_t>(raw));
  } else {
    return std::nullopt;
  }
  if (type.id == TypeId::kDecimal) return Value::Int128(type, raw);
  return Value::Int(type, ApplyFactor(leaf, raw));
}

std::optional<ColumnStatistics> DecodeColumnStatistics(const ColumnMetaData& meta,
                                                       const LeafDescriptor& leaf) {
  if (!meta.statistics.has_value()) return std::nullopt;
  const Statistics& stats = *meta.statistics;
  ColumnStatistics out;
  out.null_count = stats.null_count;
  out.value_count = meta.num_values;
  out.compressed_bytes = meta.total_compressed_size;
  out.uncompressed_bytes = meta.total_uncompressed_size;
  const std::string* min_bytes = nullptr;
  const std::string* max_bytes = nullptr;
  if (stats.min_value.has_value() || stats.max_value.has_value()) {
    if (stats.min_value) min_bytes = &*stats.min_value;
    if (stats.max_value) max_bytes = &*stats.max_value;
    out.min_exact = stats.is_min_value_exact.value_or(true);
    out.max_exact = stats.is_max_value_exact.value_or(true);
  } else if (SignedOrderIsRight(leaf)) {
    if (stats.min) min_bytes = &*stats.min;
    if (stats.max) max_bytes = &*stats.max;
  }
  if (min_bytes) out.min = DecodeStatisticsValue(leaf, *min_bytes);
  if (max_bytes) out.max = DecodeStatisticsValue(leaf, *max_bytes);
  if (leaf.type.IsFloating()) {
    if (out.min && std::isnan(out.min->GetDouble())) out.min.reset();
    if (out.max && std::isnan(out.max->GetDouble())) out.max.reset();
    if (out.min && out.min->GetDouble() == 0.0) out.min = Value::Double(leaf.type, -0.0);
    if (out.max && out.max->GetDouble() == 0.0) out.max = Value::Double(leaf.type, 0.0);
  }
  return out;
}

}  // namespace tarn::parquet
