// Value factories and exact equality. Rendering lives in value_format.cc.
#include <cmath>
#include <cstring>

#include "tarn/columnar.h"

namespace tarn {

Value Value::Null(DataType type) {
  Value value;
  value.type_ = std::move(type);
  return value;
}

Value Value::Boolean(bool v) {
  Value value;
  value.type_ = DataType(TypeId::kBoolean);
  value.storage_ = v;
  return value;
}

Value Value::Int(DataType type, int64_t v) {
  Value value;
  value.type_ = std::move(type);
  value.storage_ = v;
  return value;
}

Value Value::UInt(DataType type, uint64_t v) {
  Value value;
  value.type_ = std::move(type);
  value.storage_ = v;
  return value;
}

Value Value::Int128(DataType type, __int128 v) {
  Value value;
  value.type_ = std::move(type);
  value.storage_ = v;
  return value;
}

Value Value::Double(DataType type, double v) {
  Value value;
  value.type_ = std::move(type);
  value.storage_ = v;
  return value;
}

Value Value::Bytes(DataType type, std::string v) {
  Value value;
  value.type_ = std::move(type);
  value.storage_ = std::move(v);
  return value;
}

Value Value::MakeInterval(Interval v) {
  Value value;
  value.type_ = DataType(TypeId::kInterval);
  value.storage_ = v;
  return value;
}

Value Value::Nested(DataType type, std::vector<Value> children) {
  Value value;
  value.type_ = std::move(type);
  value.storage_ = std::move(children);
  return value;
}

namespace {

// NaN equals NaN whatever its sign or payload; otherwise equality is bitwise, so that
// 0.0 and -0.0 differ (a writer that loses the sign of zero is a bug tests must catch).
bool SameDouble(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  uint64_t a_bits;
  uint64_t b_bits;
  std::memcpy(&a_bits, &a, sizeof a_bits);
  std::memcpy(&b_bits, &b, sizeof b_bits);
  return a_bits == b_bits;
}

}  // namespace

bool operator==(const Value& a, const Value& b) {
  if (a.storage_.index() != b.storage_.index()) return false;
  if (a.type_ != b.type_) return false;
  if (const double* a_double = std::get_if<double>(&a.storage_)) {
    return SameDouble(*a_double, std::get<double>(b.storage_));
  }
  // Nested children compare recursively through this operator (std::vector uses ==).
  return a.storage_ == b.storage_;
}

}  // namespace tarn
