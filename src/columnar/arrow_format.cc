// Arrow format strings and extension names for tarn types, both directions.
#include "columnar/arrow_internal.h"

namespace tarn::internal {

Result<std::string> ArrowFormatOf(const DataType& type) {
  switch (type.id) {
    case TypeId::kNull: return std::string("n");
    case TypeId::kBoolean: return std::string("b");
    case TypeId::kInt8: return std::string("c");
    case TypeId::kInt16: return std::string("s");
    case TypeId::kInt32: return std::string("i");
    case TypeId::kInt64: return std::string("l");
    case TypeId::kUInt8: return std::string("C");
    case TypeId::kUInt16: return std::string("S");
    case TypeId::kUInt32: return std::string("I");
    case TypeId::kUInt64: return std::string("L");
    case TypeId::kInt128:
    case TypeId::kUInt128:
    case TypeId::kUuid: return std::string("w:16");
    case TypeId::kFloat32: return std::string("f");
    case TypeId::kFloat64: return std::string("g");
    case TypeId::kDecimal:
      return "d:" + std::to_string(type.precision) + "," + std::to_string(type.scale);
    case TypeId::kDate: return std::string("tdD");
    case TypeId::kTime:
    case TypeId::kTimeTz: return std::string("ttu");
    case TypeId::kTimeNs: return std::string("ttn");
    case TypeId::kTimestamp: return std::string("tsu:");
    case TypeId::kTimestampS: return std::string("tss:");
    case TypeId::kTimestampMs: return std::string("tsm:");
    case TypeId::kTimestampNs: return std::string("tsn:");
    case TypeId::kTimestampTz: return std::string("tsu:UTC");
    case TypeId::kInterval: return std::string("tin");
    case TypeId::kVarchar:
    case TypeId::kJson: return std::string("U");
    case TypeId::kBlob:
    case TypeId::kVariant:
    case TypeId::kGeometry: return std::string("Z");
    case TypeId::kStruct: return std::string("+s");
    case TypeId::kList: return std::string("+l");
    case TypeId::kMap: return std::string("+m");
  }
  return Status::NotSupported("no Arrow format for type id ", static_cast<int>(type.id));
}

const char* ArrowExtensionOf(const DataType& type) {
  switch (type.id) {
    case TypeId::kUuid: return "arrow.uuid";
    case TypeId::kJson: return "arrow.json";
    case TypeId::kInt128: return "duckdb.hugeint";
    case TypeId::kUInt128: return "duckdb.uhugeint";
    case TypeId::kGeometry: return "geoarrow.wkb";
    case TypeId::kTimeTz: return "tarn.time_tz";
    case TypeId::kVariant: return "tarn.variant";
    default: return nullptr;
  }
}

namespace {

// Parses "d:p,s" or "d:p,s,bitwidth"; only 128-bit decimals are supported.
Result<DataType> ParseDecimal(std::string_view format) {
  auto unsupported = [&] { return Status::NotSupported("Arrow format '", format, "' is not supported"); };
  std::string_view args = format.substr(2);
  int64_t numbers[3] = {0, 0, 128};
  int count = 0;
  while (true) {
    size_t comma = args.find(',');
    std::string_view part = args.substr(0, comma);
    if (count == 3 || part.empty() || part.size() > 4) return unsupported();
    int64_t value = 0;
    for (char c : part) {
      if (c < '0' || c > '9') return unsupported();
      value = value * 10 + (c - '0');
    }
    numbers[count++] = value;
    if (comma == std::string_view::npos) break;
    args = args.substr(comma + 1);
  }
  if (count < 2) return unsupported();
  if (numbers[2] != 128 || numbers[0] < 1 || numbers[0] > 38 || numbers[1] > numbers[0]) {
    return Status::NotSupported("Arrow format '", format,
                                "' is not supported: tarn stores 128-bit decimals of precision 1..38");
  }
  return DataType::Decimal(static_cast<int>(numbers[0]), static_cast<int>(numbers[1]));
}

}  // namespace

Result<DataType> TypeOfArrowFormat(std::string_view format, std::string_view extension) {
  struct Simple {
    const char* format;
    TypeId id;
  };
  static constexpr Simple kSimple[] = {
      {"n", TypeId::kNull},         {"b", TypeId::kBoolean},      {"c", TypeId::kInt8},
      {"s", TypeId::kInt16},        {"i", TypeId::kInt32},        {"l", TypeId::kInt64},
      {"C", TypeId::kUInt8},        {"S", TypeId::kUInt16},       {"I", TypeId::kUInt32},
      {"L", TypeId::kUInt64},       {"f", TypeId::kFloat32},      {"g", TypeId::kFloat64},
      {"tdD", TypeId::kDate},       {"ttn", TypeId::kTimeNs},     {"tsu:", TypeId::kTimestamp},
      {"tss:", TypeId::kTimestampS}, {"tsm:", TypeId::kTimestampMs}, {"tsn:", TypeId::kTimestampNs},
      {"tin", TypeId::kInterval},
  };
  for (const Simple& simple : kSimple) {
    if (format == simple.format) return DataType(simple.id);
  }
  if (format == "ttu") return DataType(extension == "tarn.time_tz" ? TypeId::kTimeTz : TypeId::kTime);
  if (format == "w:16") {
    // A bare 16-byte fixed binary is read as HUGEINT, the first type the table in type.h
    // gives this format.
    if (extension == "arrow.uuid") return DataType(TypeId::kUuid);
    if (extension == "duckdb.uhugeint") return DataType(TypeId::kUInt128);
    return DataType(TypeId::kInt128);
  }
  if (format == "U" || format == "u") {
    return DataType(extension == "arrow.json" ? TypeId::kJson : TypeId::kVarchar);
  }
  if (format == "Z" || format == "z") {
    if (extension == "tarn.variant") return DataType(TypeId::kVariant);
    if (extension == "geoarrow.wkb") return DataType(TypeId::kGeometry);
    return DataType(TypeId::kBlob);
  }
  // Any non-empty zone means an instant; tarn holds those as UTC microseconds only.
  if (format.size() > 4 && format.substr(0, 4) == "tsu:") return DataType(TypeId::kTimestampTz);
  if (format.size() > 2 && format.substr(0, 2) == "d:") return ParseDecimal(format);
  return Status::NotSupported("Arrow format '", format, "' is not supported");
}

}  // namespace tarn::internal
