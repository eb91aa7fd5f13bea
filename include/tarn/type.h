// Logical types, fields and schemas: the DuckLake 1.0 type system as tarn holds it in memory.
//
// A DataType is a plain value: an id, decimal precision/scale, and child fields for nested
// types. Its in-memory layout (see columnar.h) follows the Arrow C Data Interface:
//
//   type                      buffers                        Arrow format
//   kBoolean                  validity, bitmap               "b"
//   kInt8..kInt64             validity, values               "c" "s" "i" "l"
//   kUInt8..kUInt64           validity, values               "C" "S" "I" "L"
//   kInt128, kUInt128         validity, 16-byte LE values    "w:16"
//   kFloat32, kFloat64        validity, values               "f" "g"
//   kDecimal(p, s)            validity, 16-byte LE int128    "d:p,s"
//   kDate                     validity, int32 days           "tdD"
//   kTime, kTimeTz            validity, int64 micros         "ttu"
//   kTimeNs                   validity, int64 nanos          "ttn"
//   kTimestamp                validity, int64 micros         "tsu:"
//   kTimestampS               validity, int64 seconds        "tss:"
//   kTimestampMs              validity, int64 millis         "tsm:"
//   kTimestampNs              validity, int64 nanos          "tsn:"
//   kTimestampTz              validity, int64 micros UTC     "tsu:UTC"
//   kInterval                 validity, {i32 months, i32 days, i64 nanos}  "tin"
//   kVarchar, kJson           validity, int64 offsets, bytes "U"
//   kBlob, kVariant, kGeometry validity, int64 offsets, bytes "Z"
//   kUuid                     validity, 16 bytes big-endian  "w:16"
//   kStruct                   validity, children             "+s"
//   kList                     validity, int32 offsets, child "+l"
//   kMap                      validity, int32 offsets, child struct{key, value}  "+m"
//
// Thread-safety: values; no shared mutable state.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/status.h"

namespace tarn {

enum class TypeId : uint8_t {
  kNull = 0,  // the type of a NULL literal; never stored in files
  kBoolean,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kInt128,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kUInt128,
  kFloat32,
  kFloat64,
  kDecimal,
  kDate,
  kTime,
  kTimeNs,
  kTimeTz,
  kTimestamp,
  kTimestampS,
  kTimestampMs,
  kTimestampNs,
  kTimestampTz,
  kInterval,
  kVarchar,
  kBlob,
  kUuid,
  kJson,
  kStruct,
  kList,
  kMap,
  kVariant,
  kGeometry,
};

struct Field;

struct DataType {
  TypeId id = TypeId::kNull;
  uint8_t precision = 0;  // kDecimal only: 1..38
  uint8_t scale = 0;      // kDecimal only: 0..precision
  // kStruct: the fields. kList: one field named "element". kMap: one field named "key_value"
  // of type kStruct with two fields, "key" (not nullable) and "value".
  std::vector<Field> children;

  DataType() = default;
  explicit DataType(TypeId type_id) : id(type_id) {}

  static DataType Decimal(int precision, int scale);
  static DataType List(Field element);
  static DataType List(DataType element_type);
  static DataType Map(DataType key, DataType value);
  static DataType Struct(std::vector<Field> fields);

  bool IsNested() const { return id == TypeId::kStruct || id == TypeId::kList || id == TypeId::kMap; }
  // A kStruct whose fields have no names (DuckDB's unnamed struct: row(a, b), list_zip's
  // elements), printed STRUCT(INTEGER, VARCHAR) with values (1, a).
  bool IsUnnamedStruct() const;
  bool IsInteger() const;   // signed or unsigned, any width
  bool IsFloating() const { return id == TypeId::kFloat32 || id == TypeId::kFloat64; }
  bool IsNumeric() const { return IsInteger() || IsFloating() || id == TypeId::kDecimal; }
  bool IsTemporal() const;  // date, time*, timestamp*, interval
  bool IsVarLength() const; // varchar, json, blob, variant, geometry: offsets + bytes
  // Bytes per value of a fixed-width type (0 for booleans, var-length and nested types).
  int FixedWidth() const;

  // DuckDB's spelling: "INTEGER", "DECIMAL(18,3)", "STRUCT(a INTEGER, b VARCHAR[])",
  // "INTEGER[]", "MAP(VARCHAR, BIGINT)", "TIMESTAMP WITH TIME ZONE".
  std::string ToString() const;
  // DuckLake's catalog spelling (`column_type`): "int32", "decimal(18,3)", "struct", "list",
  // "map", "timestamptz". Nested types give only their outer name, as the catalog stores them.
  std::string ToDuckLakeName() const;

  friend bool operator==(const DataType& a, const DataType& b);
  friend bool operator!=(const DataType& a, const DataType& b) { return !(a == b); }
};

// Parses a DuckLake `column_type` string (case-insensitive) for a non-nested type.
Result<DataType> ParseDuckLakeType(std::string_view name);
// Parses DuckDB's SQL type spelling, nested included: "INTEGER", "INT", "BIGINT[]",
// "STRUCT(a INT, b VARCHAR)", "MAP(VARCHAR, INT)", "DECIMAL(10,2)", "TIMESTAMPTZ".
Result<DataType> ParseSqlType(std::string_view text);

struct Field {
  std::string name;
  DataType type;
  bool nullable = true;
  std::optional<int32_t> field_id;  // Parquet field id (DuckLake column id)

  Field() = default;
  Field(std::string field_name, DataType field_type, bool is_nullable = true,
        std::optional<int32_t> id = std::nullopt)
      : name(std::move(field_name)), type(std::move(field_type)), nullable(is_nullable),
        field_id(id) {}

  friend bool operator==(const Field& a, const Field& b);
};

// An ordered list of top-level fields.
struct Schema {
  std::vector<Field> fields;

  Schema() = default;
  explicit Schema(std::vector<Field> schema_fields) : fields(std::move(schema_fields)) {}

  int num_fields() const { return static_cast<int>(fields.size()); }
  const Field& field(int index) const { return fields[index]; }
  // Index of the first field named `name` (case-insensitive, as SQL), or -1.
  int FindField(std::string_view name) const;
  std::string ToString() const;

  friend bool operator==(const Schema& a, const Schema& b) { return a.fields == b.fields; }
};

}  // namespace tarn
