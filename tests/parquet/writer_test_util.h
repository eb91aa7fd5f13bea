// Helpers for the Parquet writer tests (header-only: every tests/parquet/*_test.cc file is a
// test source): generated data with the edge cases that matter (NULLs at every level, signed
// zeros, infinities, NaNs, extreme integers, empty and long strings, empty lists), and DuckDB
// SQL literals for tarn Values so that DuckDB builds the expected side of a comparison itself.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/type.h"

namespace tarn::testing {

struct GeneratedTable {
  std::shared_ptr<const Schema> schema;
  std::vector<std::vector<Value>> columns;  // columns[c][row]
  int64_t num_rows = 0;
};

// Every writable flat type, with a non-null BIGINT `id` (= row index) as column 0.
inline Schema AllFlatTypesSchema() {
  std::vector<Field> fields;
  int32_t next_id = 1;
  auto add = [&](const std::string& name, DataType type, bool nullable = true) {
    fields.emplace_back(name, std::move(type), nullable, next_id++);
  };
  add("id", DataType(TypeId::kInt64), false);
  add("b", DataType(TypeId::kBoolean));
  add("i8", DataType(TypeId::kInt8));
  add("i16", DataType(TypeId::kInt16));
  add("i32", DataType(TypeId::kInt32));
  add("i64", DataType(TypeId::kInt64));
  add("u8", DataType(TypeId::kUInt8));
  add("u16", DataType(TypeId::kUInt16));
  add("u32", DataType(TypeId::kUInt32));
  add("u64", DataType(TypeId::kUInt64));
  add("f32", DataType(TypeId::kFloat32));
  add("f64", DataType(TypeId::kFloat64));
  add("d4", DataType::Decimal(4, 1));
  add("d18", DataType::Decimal(18, 3));
  add("d38", DataType::Decimal(38, 10));
  add("dt", DataType(TypeId::kDate));
  add("tm", DataType(TypeId::kTime));
  add("tmtz", DataType(TypeId::kTimeTz));
  add("tmns", DataType(TypeId::kTimeNs));
  add("ts", DataType(TypeId::kTimestamp));
  add("ts_s", DataType(TypeId::kTimestampS));
  add("ts_ms", DataType(TypeId::kTimestampMs));
  add("ts_ns", DataType(TypeId::kTimestampNs));
  add("tstz", DataType(TypeId::kTimestampTz));
  add("iv", DataType(TypeId::kInterval));
  add("s", DataType(TypeId::kVarchar));
  add("js", DataType(TypeId::kJson));
  add("bl", DataType(TypeId::kBlob));
  add("uu", DataType(TypeId::kUuid));
  add("h", DataType(TypeId::kInt128));
  add("uh", DataType(TypeId::kUInt128));
  add("req_s", DataType(TypeId::kVarchar), false);
  return Schema(std::move(fields));
}

// Nested types: lists (of lists, of structs), structs (with lists), maps; NULLs at each level.
inline Schema NestedTypesSchema() {
  std::vector<Field> fields;
  fields.emplace_back("id", DataType(TypeId::kInt64), false, 1);
  Field element("element", DataType(TypeId::kInt32), true, 3);
  fields.emplace_back("li", DataType::List(element), true, 2);
  Field inner("element", DataType::List(Field("element", DataType(TypeId::kVarchar), true, 6)),
              true, 5);
  fields.emplace_back("lls", DataType::List(inner), true, 4);
  std::vector<Field> struct_fields;
  struct_fields.emplace_back("a", DataType(TypeId::kFloat64), true, 8);
  struct_fields.emplace_back("b", DataType::List(Field("element", DataType(TypeId::kInt64),
                                                       false, 10)),
                             true, 9);
  struct_fields.emplace_back("c", DataType(TypeId::kVarchar), false, 11);
  fields.emplace_back("st", DataType::Struct(struct_fields), true, 7);
  std::vector<Field> element_fields;
  element_fields.emplace_back("x", DataType(TypeId::kInt16), true, 14);
  element_fields.emplace_back("y", DataType::Decimal(20, 2), true, 15);
  fields.emplace_back("lst", DataType::List(Field("element", DataType::Struct(element_fields),
                                                  true, 13)),
                      true, 12);
  DataType map = DataType::Map(DataType(TypeId::kVarchar), DataType(TypeId::kDate));
  map.children[0].type.children[0].field_id = 17;
  map.children[0].type.children[1].field_id = 18;
  fields.emplace_back("mp", map, true, 16);
  fields.emplace_back("req_l", DataType::List(Field("element", DataType(TypeId::kBoolean), true,
                                                    20)),
                      false, 19);
  return Schema(std::move(fields));
}

inline int64_t RandomInt(std::mt19937_64& rng, int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(rng() % static_cast<uint64_t>(hi - lo + 1));
}

inline std::string RandomText(std::mt19937_64& rng) {
  static const char* kPieces[] = {"a", "b", "Zz", " ", "'", "\"", "é", "日本", "x,y", "\n",
                                  "\\", "%", "ü", "0"};
  switch (rng() % 8) {
    case 0: return "";
    case 1: return std::string(static_cast<size_t>(100 + rng() % 300), 'L');  // long
    default: {
      std::string out;
      int64_t pieces = RandomInt(rng, 1, 8);
      for (int64_t i = 0; i < pieces; ++i) out += kPieces[rng() % 14];
      return out;
    }
  }
}

inline Value GenerateValue(const DataType& type, bool nullable, std::mt19937_64& rng) {
  if (nullable && rng() % 8 == 0) return Value::Null(type);
  bool edge = rng() % 4 == 0;
  auto signed_value = [&](int bits) -> int64_t {
    int64_t max = bits == 64 ? std::numeric_limits<int64_t>::max() : (int64_t{1} << (bits - 1)) - 1;
    int64_t min = -max - 1;
    if (edge) {
      int64_t edges[] = {min, max, 0, -1, 1};
      return edges[rng() % 5];
    }
    return RandomInt(rng, std::max<int64_t>(min, -1000000), std::min<int64_t>(max, 1000000));
  };
  auto unsigned_value = [&](int bits) -> uint64_t {
    uint64_t max = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    if (edge) return rng() % 2 ? max : 0;
    return rng() % (std::min<uint64_t>(max, 1000000) + 1);
  };
  constexpr int64_t kDayMicros = 86400000000LL;
  switch (type.id) {
    case TypeId::kBoolean: return Value::Boolean(rng() % 2);
    case TypeId::kInt8: return Value::Int(type, signed_value(8));
    case TypeId::kInt16: return Value::Int(type, signed_value(16));
    case TypeId::kInt32: return Value::Int(type, signed_value(32));
    case TypeId::kInt64: return Value::Int(type, signed_value(64));
    case TypeId::kUInt8: return Value::UInt(type, unsigned_value(8));
    case TypeId::kUInt16: return Value::UInt(type, unsigned_value(16));
    case TypeId::kUInt32: return Value::UInt(type, unsigned_value(32));
    case TypeId::kUInt64: return Value::UInt(type, unsigned_value(64));
    case TypeId::kInt128: {
      __int128 v = static_cast<__int128>(signed_value(64)) * (edge ? 1000003 : 1);
      return Value::Int128(type, v);
    }
    case TypeId::kUInt128:
      return Value::Int128(type, static_cast<__int128>(unsigned_value(64)) * (edge ? 7 : 1));
    case TypeId::kFloat32:
    case TypeId::kFloat64: {
      double nan = std::numeric_limits<double>::quiet_NaN();
      double inf = std::numeric_limits<double>::infinity();
      if (edge) {
        double edges[] = {0.0, -0.0, inf, -inf, nan, -nan, 1e-30, -3.5e30};
        return Value::Double(type, edges[rng() % 8]);
      }
      double v = static_cast<double>(RandomInt(rng, -100000, 100000)) / 64.0;
      return Value::Double(type, v);
    }
    case TypeId::kDecimal: {
      __int128 max = 1;
      for (int i = 0; i < type.precision; ++i) max *= 10;
      max -= 1;
      __int128 v = edge ? (rng() % 2 ? max : -max) : RandomInt(rng, -99999, 99999) % max;
      return Value::Int128(type, v);
    }
    case TypeId::kDate: return Value::Int(type, edge ? (rng() % 2 ? -700000 : 2900000)
                                                      : RandomInt(rng, -20000, 40000));
    case TypeId::kTime:
    case TypeId::kTimeTz:
      return Value::Int(type, edge ? (rng() % 2 ? 0 : kDayMicros - 1)
                                   : RandomInt(rng, 0, kDayMicros - 1));
    case TypeId::kTimeNs:
      return Value::Int(type, RandomInt(rng, 0, kDayMicros - 1) * 1000 + RandomInt(rng, 0, 999));
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz:
      return Value::Int(type, RandomInt(rng, -4000000000000000LL, 4000000000000000LL));
    case TypeId::kTimestampS: return Value::Int(type, RandomInt(rng, -4000000000LL, 4000000000LL));
    case TypeId::kTimestampMs:
      return Value::Int(type, RandomInt(rng, -4000000000000LL, 4000000000000LL));
    case TypeId::kTimestampNs:
      return Value::Int(type, edge ? std::numeric_limits<int64_t>::max() - 1
                                   : RandomInt(rng, -4000000000000000000LL, 4000000000000000000LL));
    case TypeId::kInterval: {
      Interval iv;
      iv.months = static_cast<int32_t>(RandomInt(rng, 0, 500));
      iv.days = static_cast<int32_t>(RandomInt(rng, 0, 500));
      iv.nanos = RandomInt(rng, 0, 100000000) * 1000000;  // whole milliseconds
      return Value::MakeInterval(iv);
    }
    case TypeId::kVarchar: return Value::Bytes(type, RandomText(rng));
    case TypeId::kJson: {
      std::string text = edge ? "[]" : "{\"k\": " + std::to_string(rng() % 1000) + "}";
      return Value::Bytes(type, text);
    }
    case TypeId::kBlob: {
      std::string bytes(static_cast<size_t>(rng() % 12), '\0');
      for (char& c : bytes) c = static_cast<char>(rng());
      return Value::Bytes(type, bytes);
    }
    case TypeId::kUuid: {
      std::string bytes(16, '\0');
      for (char& c : bytes) c = static_cast<char>(edge ? (rng() % 2 ? 0xFF : 0) : rng());
      return Value::Bytes(type, bytes);
    }
    case TypeId::kStruct: {
      std::vector<Value> children;
      for (const Field& field : type.children) {
        children.push_back(GenerateValue(field.type, field.nullable, rng));
      }
      return Value::Nested(type, std::move(children));
    }
    case TypeId::kList: {
      std::vector<Value> elements;
      int64_t count = rng() % 4 == 0 ? 0 : RandomInt(rng, 1, 5);
      for (int64_t i = 0; i < count; ++i) {
        elements.push_back(GenerateValue(type.children[0].type, type.children[0].nullable, rng));
      }
      return Value::Nested(type, std::move(elements));
    }
    case TypeId::kMap: {
      const DataType& entry = type.children[0].type;
      std::vector<Value> entries;
      int64_t count = rng() % 4 == 0 ? 0 : RandomInt(rng, 1, 4);
      for (int64_t i = 0; i < count; ++i) {
        // Keys are unique within a map, as DuckDB requires.
        Value key = Value::Bytes(entry.children[0].type, "k" + std::to_string(i) +
                                                             std::to_string(rng() % 3));
        Value value = GenerateValue(entry.children[1].type, entry.children[1].nullable, rng);
        entries.push_back(Value::Nested(entry, {key, value}));
      }
      return Value::Nested(type, std::move(entries));
    }
    default: return Value::Null(type);
  }
}

// Random values for `schema`; about a third drawn from a small pool so dictionaries pay off.
// Column 0 named "id" gets the row index.
inline GeneratedTable GenerateTable(const Schema& schema, int64_t num_rows, uint64_t seed) {
  std::mt19937_64 rng(seed);
  GeneratedTable table;
  table.schema = std::make_shared<Schema>(schema);
  table.num_rows = num_rows;
  for (const Field& field : schema.fields) {
    std::vector<Value> pool;
    for (int i = 0; i < 4; ++i) pool.push_back(GenerateValue(field.type, field.nullable, rng));
    std::vector<Value> values;
    for (int64_t row = 0; row < num_rows; ++row) {
      if (field.name == "id") {
        values.push_back(Value::Int(field.type, row));
      } else if (rng() % 3 == 0) {
        values.push_back(pool[rng() % pool.size()]);
      } else {
        values.push_back(GenerateValue(field.type, field.nullable, rng));
      }
    }
    table.columns.push_back(std::move(values));
  }
  return table;
}

// Builds the batch holding rows [offset, offset + length) of `table`.
inline std::shared_ptr<Batch> MakeBatchFrom(const GeneratedTable& table, int64_t offset,
                                            int64_t length) {
  std::vector<std::shared_ptr<Column>> columns;
  for (size_t column_idx = 0; column_idx < table.columns.size(); ++column_idx) {
    ColumnBuilder builder(table.schema->fields[column_idx].type);
    for (int64_t row = offset; row < offset + length; ++row) {
      Status appended = builder.Append(table.columns[column_idx][row]);
      if (!appended.ok()) ADD_FAILURE() << appended.ToString();
    }
    columns.push_back(builder.Finish());
  }
  return MakeBatch(table.schema, std::move(columns));
}

inline std::string QuoteIdent(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

inline std::string QuoteString(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

// The type DuckDB reads back from tarn's file for a column of `type` (128-bit integers as
// DOUBLE, TIMESTAMP_S as TIMESTAMP, TIME_NS as TIME).
inline DataType ReadBackType(const DataType& type) {
  if (type.id == TypeId::kInt128 || type.id == TypeId::kUInt128) {
    return DataType(TypeId::kFloat64);
  }
  if (type.id == TypeId::kTimestampS) return DataType(TypeId::kTimestamp);
  // DuckDB reads TIME(NANOS) as a microsecond TIME.
  if (type.id == TypeId::kTimeNs) return DataType(TypeId::kTime);
  DataType out = type;
  for (Field& child : out.children) child.type = ReadBackType(child.type);
  return out;
}

inline std::string Int128Text(__int128 v) {
  bool negative = v < 0;
  unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(v)
                                         : static_cast<unsigned __int128>(v);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  return negative ? "-" + digits : digits;
}

inline std::string ClockText(int64_t units, int digits, int64_t per_second) {
  int64_t seconds = units / per_second;
  int64_t fraction = units % per_second;
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%02lld:%02lld:%02lld.%0*lld",
                static_cast<long long>(seconds / 3600), static_cast<long long>(seconds / 60 % 60),
                static_cast<long long>(seconds % 60), digits, static_cast<long long>(fraction));
  return buffer;
}

// A DuckDB SQL expression of type ReadBackType(type) equal to what the file holds for `value`.
inline std::string SqlLiteral(const Value& value, const DataType& type) {
  const std::string read_type = ReadBackType(type).ToString();
  if (value.is_null()) return "CAST(NULL AS " + read_type + ")";
  auto cast = [&](const std::string& text) { return "CAST(" + text + " AS " + read_type + ")"; };
  switch (type.id) {
    case TypeId::kBoolean: return value.GetBool() ? "true" : "false";
    case TypeId::kInt8:
    case TypeId::kInt16:
    case TypeId::kInt32:
    case TypeId::kInt64: return cast(QuoteString(std::to_string(value.GetInt64())));
    case TypeId::kUInt8:
    case TypeId::kUInt16:
    case TypeId::kUInt32:
    case TypeId::kUInt64: return cast(QuoteString(std::to_string(value.GetUInt64())));
    case TypeId::kInt128:
      return "CAST(CAST(" + QuoteString(Int128Text(value.GetInt128())) + " AS HUGEINT) AS DOUBLE)";
    case TypeId::kUInt128:
      return "CAST(CAST(" + QuoteString(Int128Text(value.GetInt128())) +
             " AS UHUGEINT) AS DOUBLE)";
    case TypeId::kFloat32:
    case TypeId::kFloat64: {
      double v = value.GetDouble();
      if (std::isnan(v)) return cast("'nan'");
      if (std::isinf(v)) return cast(v > 0 ? "'inf'" : "'-inf'");
      char buffer[64];
      std::snprintf(buffer, sizeof(buffer), "%.17g", type.id == TypeId::kFloat32
                                                          ? static_cast<double>(static_cast<float>(v))
                                                          : v);
      return cast(QuoteString(buffer));
    }
    case TypeId::kDecimal: {
      __int128 unscaled = value.GetInt128();
      std::string digits = Int128Text(unscaled < 0 ? -unscaled : unscaled);
      while (static_cast<int>(digits.size()) <= type.scale) digits.insert(digits.begin(), '0');
      if (type.scale > 0) digits.insert(digits.end() - type.scale, '.');
      return cast(QuoteString((unscaled < 0 ? "-" : "") + digits));
    }
    case TypeId::kDate:
      return "(DATE '1970-01-01' + CAST(" + std::to_string(value.GetInt64()) + " AS INTEGER))";
    case TypeId::kTime: return cast(QuoteString(ClockText(value.GetInt64(), 6, 1000000)));
    case TypeId::kTimeTz:
      return cast(QuoteString(ClockText(value.GetInt64(), 6, 1000000) + "+00"));
    case TypeId::kTimeNs: return cast(QuoteString(ClockText(value.GetInt64() / 1000, 6, 1000000)));
    case TypeId::kTimestamp:
      return "make_timestamp(CAST(" + std::to_string(value.GetInt64()) + " AS BIGINT))";
    case TypeId::kTimestampTz:
      return cast("make_timestamp(CAST(" + std::to_string(value.GetInt64()) + " AS BIGINT))");
    case TypeId::kTimestampS:
      return "make_timestamp(CAST(" + std::to_string(value.GetInt64()) + " AS BIGINT) * 1000000)";
    case TypeId::kTimestampMs:
      return cast("make_timestamp(CAST(" + std::to_string(value.GetInt64()) + " AS BIGINT) * 1000)");
    case TypeId::kTimestampNs:
      return "make_timestamp_ns(CAST(" + std::to_string(value.GetInt64()) + " AS BIGINT))";
    case TypeId::kInterval: {
      const Interval& iv = value.GetInterval();
      return "(to_months(" + std::to_string(iv.months) + ") + to_days(" +
             std::to_string(iv.days) + ") + to_microseconds(CAST(" +
             std::to_string(iv.nanos / 1000000 * 1000) + " AS BIGINT)))";
    }
    case TypeId::kVarchar: return QuoteString(value.GetBytes());
    case TypeId::kJson: return cast(QuoteString(value.GetBytes()));
    case TypeId::kBlob: {
      static const char* kHex = "0123456789abcdef";
      std::string hex;
      for (unsigned char c : value.GetBytes()) {
        hex += kHex[c >> 4];
        hex += kHex[c & 15];
      }
      return "from_hex('" + hex + "')";
    }
    case TypeId::kUuid: {
      static const char* kHex = "0123456789abcdef";
      std::string text;
      const std::string& bytes = value.GetBytes();
      for (size_t i = 0; i < bytes.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) text += '-';
        text += kHex[static_cast<unsigned char>(bytes[i]) >> 4];
        text += kHex[static_cast<unsigned char>(bytes[i]) & 15];
      }
      return cast(QuoteString(text));
    }
    case TypeId::kStruct: {
      std::string out = "struct_pack(";
      for (size_t i = 0; i < type.children.size(); ++i) {
        if (i > 0) out += ", ";
        out += QuoteIdent(type.children[i].name) + " := " +
               SqlLiteral(value.children()[i], type.children[i].type);
      }
      return cast(out + ")");
    }
    case TypeId::kList: {
      std::string out = "[";
      for (size_t i = 0; i < value.children().size(); ++i) {
        if (i > 0) out += ", ";
        out += SqlLiteral(value.children()[i], type.children[0].type);
      }
      return cast(out + "]");
    }
    case TypeId::kMap: {
      const DataType& entry = type.children[0].type;
      if (value.children().empty()) return cast("MAP {}");
      std::string out = "map_from_entries([";
      for (size_t i = 0; i < value.children().size(); ++i) {
        if (i > 0) out += ", ";
        const Value& pair = value.children()[i];
        out += "struct_pack(k := " + SqlLiteral(pair.children()[0], entry.children[0].type) +
               ", v := " + SqlLiteral(pair.children()[1], entry.children[1].type) + ")";
      }
      return cast(out + "])");
    }
    default: return "NULL";
  }
}

}  // namespace tarn::testing
