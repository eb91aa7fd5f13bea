// DataType, Field and Schema helpers: factories, classification, equality and the DuckDB and
// DuckLake spellings. Parsing lives in type_parse.cc.
#include "tarn/type.h"

#include <cctype>

#include "columnar/sql_keywords.h"

namespace tarn {

DataType DataType::Decimal(int precision, int scale) {
  DataType type(TypeId::kDecimal);
  type.precision = static_cast<uint8_t>(precision);
  type.scale = static_cast<uint8_t>(scale);
  return type;
}

DataType DataType::List(Field element) {
  DataType type(TypeId::kList);
  element.name = "element";
  type.children.push_back(std::move(element));
  return type;
}

DataType DataType::List(DataType element_type) {
  return List(Field("element", std::move(element_type), /*is_nullable=*/true));
}

DataType DataType::Map(DataType key, DataType value) {
  // Map entries and keys are never NULL (as in Arrow and DuckDB); values may be.
  std::vector<Field> entry_fields;
  entry_fields.emplace_back("key", std::move(key), /*is_nullable=*/false);
  entry_fields.emplace_back("value", std::move(value), /*is_nullable=*/true);
  DataType type(TypeId::kMap);
  type.children.emplace_back("key_value", Struct(std::move(entry_fields)), /*is_nullable=*/false);
  return type;
}

DataType DataType::Struct(std::vector<Field> fields) {
  DataType type(TypeId::kStruct);
  type.children = std::move(fields);
  return type;
}

bool DataType::IsInteger() const {
  switch (id) {
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64:
    case TypeId::kInt128:
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64:
    case TypeId::kUInt128:
      return true;
    default:
      return false;
  }
}

bool DataType::IsTemporal() const {
  switch (id) {
    case TypeId::kDate:
    case TypeId::kTime:
    case TypeId::kTimeNs:
    case TypeId::kTimeTz:
    case TypeId::kTimestamp:
    case TypeId::kTimestampS:
    case TypeId::kTimestampMs:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTz:
    case TypeId::kInterval:
      return true;
    default:
      return false;
  }
}

bool DataType::IsVarLength() const {
  switch (id) {
    case TypeId::kVarchar:
    case TypeId::kJson:
    case TypeId::kBlob:
    case TypeId::kVariant:
    case TypeId::kGeometry:
      return true;
    default:
      return false;
  }
}

int DataType::FixedWidth() const {
  switch (id) {
    case TypeId::kInt8:
    case TypeId::kUInt8:
      return 1;
    case TypeId::kInt16:
    case TypeId::kUInt16:
      return 2;
    case TypeId::kInt32:
    case TypeId::kUInt32:
    case TypeId::kFloat32:
    case TypeId::kDate:
      return 4;
    case TypeId::kInt64:
    case TypeId::kUInt64:
    case TypeId::kFloat64:
    case TypeId::kTime:
    case TypeId::kTimeNs:
    case TypeId::kTimeTz:
    case TypeId::kTimestamp:
    case TypeId::kTimestampS:
    case TypeId::kTimestampMs:
    case TypeId::kTimestampNs:
    case TypeId::kTimestampTz:
      return 8;
    case TypeId::kInt128:
    case TypeId::kUInt128:
    case TypeId::kDecimal:
    case TypeId::kInterval:
    case TypeId::kUuid:
      return 16;
    default:
      return 0;
  }
}

namespace {

// DuckDB prints a struct field name bare when it is a plain ASCII identifier and not a
// keyword, else double-quoted.
std::string FieldNameSql(const std::string& name) {
  bool plain = !name.empty() && (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_');
  for (char c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') plain = false;
  }
  if (plain && !internal::IsSqlKeyword(name)) return name;
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

// A type inside a nested type: DuckDB quotes the NULL type there ("NULL"[]).
std::string ChildTypeSql(const DataType& type) {
  return type.id == TypeId::kNull ? std::string("\"NULL\"") : type.ToString();
}

}  // namespace

bool DataType::IsUnnamedStruct() const {
  if (id != TypeId::kStruct || children.empty()) return false;
  for (const Field& field : children) {
    if (!field.name.empty()) return false;
  }
  return true;
}

std::string DataType::ToString() const {
  switch (id) {
    case TypeId::kNull: return "NULL";
    case TypeId::kBoolean: return "BOOLEAN";
    case TypeId::kInt8: return "TINYINT";
    case TypeId::kInt16: return "SMALLINT";
    case TypeId::kInt32: return "INTEGER";
    case TypeId::kInt64: return "BIGINT";
    case TypeId::kInt128: return "HUGEINT";
    case TypeId::kUInt8: return "UTINYINT";
    case TypeId::kUInt16: return "USMALLINT";
    case TypeId::kUInt32: return "UINTEGER";
    case TypeId::kUInt64: return "UBIGINT";
    case TypeId::kUInt128: return "UHUGEINT";
    case TypeId::kFloat32: return "FLOAT";
    case TypeId::kFloat64: return "DOUBLE";
    case TypeId::kDecimal:
      return "DECIMAL(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
    case TypeId::kDate: return "DATE";
    case TypeId::kTime: return "TIME";
    case TypeId::kTimeNs: return "TIME_NS";
    case TypeId::kTimeTz: return "TIME WITH TIME ZONE";
    case TypeId::kTimestamp: return "TIMESTAMP";
    case TypeId::kTimestampS: return "TIMESTAMP_S";
    case TypeId::kTimestampMs: return "TIMESTAMP_MS";
    case TypeId::kTimestampNs: return "TIMESTAMP_NS";
    case TypeId::kTimestampTz: return "TIMESTAMP WITH TIME ZONE";
    case TypeId::kInterval: return "INTERVAL";
    case TypeId::kVarchar: return "VARCHAR";
    case TypeId::kBlob: return "BLOB";
    case TypeId::kUuid: return "UUID";
    case TypeId::kJson: return "JSON";
    case TypeId::kVariant: return "VARIANT";
    case TypeId::kGeometry: return "GEOMETRY";
    case TypeId::kStruct: {
      const bool unnamed = IsUnnamedStruct();
      std::string out = "STRUCT(";
      for (size_t field_idx = 0; field_idx < children.size(); ++field_idx) {
        if (field_idx > 0) out += ", ";
        if (!unnamed) {
          out += FieldNameSql(children[field_idx].name);
          out += ' ';
        }
        out += ChildTypeSql(children[field_idx].type);
      }
      return out + ")";
    }
    case TypeId::kList:
      return (children.empty() ? std::string("\"NULL\"") : ChildTypeSql(children[0].type)) + "[]";
    case TypeId::kMap: {
      if (children.empty() || children[0].type.children.size() != 2) return "MAP(?)";
      const auto& entry = children[0].type.children;
      return "MAP(" + ChildTypeSql(entry[0].type) + ", " + ChildTypeSql(entry[1].type) + ")";
    }
  }
  return "UNKNOWN";
}

std::string DataType::ToDuckLakeName() const {
  switch (id) {
    case TypeId::kNull: return "unknown";
    case TypeId::kBoolean: return "boolean";
    case TypeId::kInt8: return "int8";
    case TypeId::kInt16: return "int16";
    case TypeId::kInt32: return "int32";
    case TypeId::kInt64: return "int64";
    case TypeId::kInt128: return "int128";
    case TypeId::kUInt8: return "uint8";
    case TypeId::kUInt16: return "uint16";
    case TypeId::kUInt32: return "uint32";
    case TypeId::kUInt64: return "uint64";
    case TypeId::kUInt128: return "uint128";
    case TypeId::kFloat32: return "float32";
    case TypeId::kFloat64: return "float64";
    case TypeId::kDecimal:
      return "decimal(" + std::to_string(precision) + "," + std::to_string(scale) + ")";
    case TypeId::kDate: return "date";
    case TypeId::kTime: return "time";
    case TypeId::kTimeNs: return "time_ns";
    case TypeId::kTimeTz: return "timetz";
    case TypeId::kTimestamp: return "timestamp";
    case TypeId::kTimestampS: return "timestamp_s";
    case TypeId::kTimestampMs: return "timestamp_ms";
    case TypeId::kTimestampNs: return "timestamp_ns";
    case TypeId::kTimestampTz: return "timestamptz";
    case TypeId::kInterval: return "interval";
    case TypeId::kVarchar: return "varchar";
    case TypeId::kBlob: return "blob";
    case TypeId::kUuid: return "uuid";
    case TypeId::kJson: return "json";
    case TypeId::kStruct: return "struct";
    case TypeId::kList: return "list";
    case TypeId::kMap: return "map";
    case TypeId::kVariant: return "variant";
    case TypeId::kGeometry: return "geometry";
  }
  return "unknown";
}

bool operator==(const DataType& a, const DataType& b) {
  if (a.id != b.id) return false;
  if (a.id == TypeId::kDecimal && (a.precision != b.precision || a.scale != b.scale)) {
    return false;
  }
  return a.children == b.children;
}

bool operator==(const Field& a, const Field& b) {
  return a.name == b.name && a.nullable == b.nullable && a.field_id == b.field_id &&
         a.type == b.type;
}

int Schema::FindField(std::string_view name) const {
  for (size_t field_idx = 0; field_idx < fields.size(); ++field_idx) {
    const std::string& candidate = fields[field_idx].name;
    if (candidate.size() != name.size()) continue;
    bool same = true;
    for (size_t i = 0; i < name.size() && same; ++i) {
      same = std::tolower(static_cast<unsigned char>(candidate[i])) ==
             std::tolower(static_cast<unsigned char>(name[i]));
    }
    if (same) return static_cast<int>(field_idx);
  }
  return -1;
}

std::string Schema::ToString() const {
  // "(a INTEGER NOT NULL, b VARCHAR)": readable, and parseable field by field.
  std::string out = "(";
  for (size_t field_idx = 0; field_idx < fields.size(); ++field_idx) {
    if (field_idx > 0) out += ", ";
    out += FieldNameSql(fields[field_idx].name);
    out += ' ';
    out += fields[field_idx].type.ToString();
    if (!fields[field_idx].nullable) out += " NOT NULL";
  }
  return out + ")";
}

}  // namespace tarn
