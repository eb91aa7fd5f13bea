// EncodeStatsValue and EncodeDefaultLiteral: values as the text a DuckLake catalog stores in
// statistics and default columns (the inverses of DecodeStatsValue and of the literal decoding
// in value_text.cc).
#include "catalog/stats_encode.h"

#include <cmath>

#include "tarn/format.h"
#include "tarn/lake_write.h"

namespace tarn {

namespace catalog_internal {

bool HasStatsText(const DataType& type) {
  switch (type.id) {
    case TypeId::kNull:
    case TypeId::kInt128:
    case TypeId::kUInt128:
    case TypeId::kInterval:
    case TypeId::kTimeTz:
    case TypeId::kStruct:
    case TypeId::kList:
    case TypeId::kMap:
    case TypeId::kVariant:
    case TypeId::kGeometry:
      return false;
    default:
      return true;
  }
}

}  // namespace catalog_internal

namespace {

bool SameStorageType(const DataType& a, const DataType& b) {
  if (a.id != b.id) return false;
  if (a.id == TypeId::kDecimal) return a.scale == b.scale && a.precision == b.precision;
  return true;
}

}  // namespace

Result<std::string> EncodeStatsValue(const Value& value, const DataType& type) {
  if (value.is_null()) {
    return Status::InvalidArgument("a NULL has no statistics text (leave the bound unset)");
  }
  if (!SameStorageType(value.type(), type)) {
    return Status::InvalidArgument("statistics value of type ", value.type().ToString(),
                                   " given for a column of type ", type.ToString());
  }
  if (!catalog_internal::HasStatsText(type)) {
    return Status::InvalidArgument("type ", type.ToDuckLakeName(), " has no statistics text");
  }
  switch (type.id) {
    case TypeId::kBoolean:
      return std::string(value.GetBool() ? "1" : "0");
    case TypeId::kFloat32:
    case TypeId::kFloat64:
      if (std::isnan(value.GetDouble())) {
        return Status::InvalidArgument("NaN is not a statistics bound (set contains_nan)");
      }
      return FormatValue(value);
    case TypeId::kBlob: {
      static constexpr char kHex[] = "0123456789ABCDEF";
      const std::string& bytes = value.GetBytes();
      std::string text;
      text.reserve(bytes.size() * 2);
      for (unsigned char c : bytes) {
        text.push_back(kHex[c >> 4]);
        text.push_back(kHex[c & 15]);
      }
      return text;
    }
    case TypeId::kVarchar:
    case TypeId::kJson:
      return value.GetBytes();
    default:
      // Integers, decimals, dates, times and timestamps print as DuckDB casts them to VARCHAR
      // (timestamptz in UTC with "+00", ±infinity); uuids canonical.
      return FormatValue(value);
  }
}

Result<std::optional<std::string>> EncodeDefaultLiteral(const Value& value) {
  if (value.is_null()) return std::optional<std::string>();
  switch (value.type().id) {
    case TypeId::kVariant:
    case TypeId::kGeometry:
      return Status::NotSupported("defaults of type ", value.type().ToString(),
                                  " are not supported");
    default:
      return std::optional<std::string>(FormatValue(value));
  }
}

}  // namespace tarn
