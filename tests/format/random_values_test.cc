// Random values of every type with matching DuckDB SQL literals (see random_values.h).
// The literals are built independently of tarn's formatting code: numbers through printf,
// dates as day offsets, timestamps through make_timestamp(micros), so a formatting bug in
// tarn cannot hide in the literal.
#include "format/random_values.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>

#include "tarn/status.h"
#include "support/sql_test_util.h"

namespace tarn::testing {
namespace {

using Gen = std::function<std::pair<Value, std::string>(std::mt19937_64&)>;

int64_t Uniform(std::mt19937_64& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}

std::string I128Text(__int128 v) {
  if (v == 0) return "0";
  const bool negative = v < 0;
  unsigned __int128 m = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string digits;
  while (m != 0) {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
    m /= 10;
  }
  return negative ? "-" + digits : digits;
}

using tarn::testing::SqlString;

std::string Cast(const std::string& text, const std::string& sql_type) {
  return "CAST(" + SqlString(text) + " AS " + sql_type + ")";
}

std::string RandomText(std::mt19937_64& rng) {
  static const std::vector<std::string> kSpecial = {
      "", " ", "NULL", "null", "Null", " x", "x ", "a b", "a,b", "#", "\"q\"", "it's", "[1]",
      "{k}", "(p)", "a:b", "a=b", "back\\slash", "tab\tin", "new\nline", "cr\rx", "é€😀", "\t"};
  if (Uniform(rng, 0, 2) == 0) return kSpecial[static_cast<size_t>(Uniform(rng, 0, kSpecial.size() - 1))];
  static const std::string kAlphabet = "abcXYZ019 ,\"'#[]{}():=\\\t\n\r-._";
  std::string text;
  const int64_t length = Uniform(rng, 0, 8);
  for (int64_t i = 0; i < length; ++i) text += kAlphabet[static_cast<size_t>(Uniform(rng, 0, kAlphabet.size() - 1))];
  return text;
}

template <typename T>
Gen SignedInt(TypeId id, const char* sql_type) {
  return [id, sql_type](std::mt19937_64& rng) {
    int64_t v = Uniform(rng, 0, 3) == 0
                    ? (Uniform(rng, 0, 1) ? std::numeric_limits<T>::min() : std::numeric_limits<T>::max())
                    : Uniform(rng, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    return std::make_pair(Value::Int(DataType(id), v), Cast(std::to_string(v), sql_type));
  };
}

template <typename T>
Gen UnsignedInt(TypeId id, const char* sql_type) {
  return [id, sql_type](std::mt19937_64& rng) {
    uint64_t v = std::uniform_int_distribution<uint64_t>(0, std::numeric_limits<T>::max())(rng);
    return std::make_pair(Value::UInt(DataType(id), v), Cast(std::to_string(v), sql_type));
  };
}

__int128 Random128(std::mt19937_64& rng) {
  return static_cast<__int128>((static_cast<unsigned __int128>(rng()) << 64) | rng());
}

Gen Double(bool is_float) {
  return [is_float](std::mt19937_64& rng) {
    double v;
    switch (Uniform(rng, 0, 4)) {
      case 0: {  // any bit pattern
        if (is_float) {
          uint32_t bits = static_cast<uint32_t>(rng());
          float f;
          std::memcpy(&f, &bits, 4);
          v = f;
        } else {
          uint64_t bits = rng();
          std::memcpy(&v, &bits, 8);
        }
        break;
      }
      case 1: {  // short decimals at any magnitude: 1e20, 1.5e-07, 0.1
        v = static_cast<double>(Uniform(rng, -99, 99)) * std::pow(10.0, static_cast<double>(Uniform(rng, -30, 30)));
        break;
      }
      case 2: {
        static const double kEdges[] = {0.0, -0.0, 0.1, 1e15, 1e16, 1e-4, 1e-5, 123456789.0,
                                        9999999999999998.0, 5e-324, 1.7976931348623157e308,
                                        std::numeric_limits<double>::infinity(),
                                        -std::numeric_limits<double>::infinity(), std::nan("")};
        v = kEdges[Uniform(rng, 0, 13)];
        break;
      }
      default: v = std::uniform_real_distribution<double>(-1e6, 1e6)(rng);
    }
    if (is_float) v = static_cast<double>(static_cast<float>(v));
    std::string text;
    if (std::isnan(v)) {
      v = std::nan("");
      text = "nan";
    } else if (std::isinf(v)) {
      text = v < 0 ? "-inf" : "inf";
    } else {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, is_float ? "%.9g" : "%.17g", v);
      text = buffer;
    }
    DataType type(is_float ? TypeId::kFloat32 : TypeId::kFloat64);
    return std::make_pair(Value::Double(type, v), Cast(text, is_float ? "FLOAT" : "DOUBLE"));
  };
}

Gen Decimal(int precision, int scale) {
  return [precision, scale](std::mt19937_64& rng) {
    __int128 limit = 1;
    for (int i = 0; i < precision; ++i) limit *= 10;
    __int128 unscaled = Random128(rng) % limit;
    if (Uniform(rng, 0, 2) == 0) unscaled %= 1000;
    std::string digits = I128Text(unscaled < 0 ? -unscaled : unscaled);
    while (static_cast<int>(digits.size()) <= scale) digits.insert(digits.begin(), '0');
    if (scale > 0) digits.insert(digits.end() - scale, '.');
    if (unscaled < 0) digits.insert(digits.begin(), '-');
    const std::string sql_type = StrCat("DECIMAL(", precision, ",", scale, ")");
    return std::make_pair(Value::Int128(DataType::Decimal(precision, scale), unscaled), Cast(digits, sql_type));
  };
}

Gen Date() {
  return [](std::mt19937_64& rng) {
    int64_t days;
    switch (Uniform(rng, 0, 3)) {
      case 0: days = Uniform(rng, -1000000000, 1000000000); break;
      case 1: days = Uniform(rng, -719528 - 400, -719162 + 400); break;  // around year 1
      case 2: {
        days = Uniform(rng, 0, 1) ? std::numeric_limits<int32_t>::max() : -std::numeric_limits<int32_t>::max();
        return std::make_pair(Value::Int(DataType(TypeId::kDate), days),
                              Cast(days > 0 ? "infinity" : "-infinity", "DATE"));
      }
      default: days = Uniform(rng, -30000, 30000);
    }
    return std::make_pair(Value::Int(DataType(TypeId::kDate), days), StrCat("(DATE '1970-01-01' + ", days, ")"));
  };
}

std::string ClockText(int64_t units, int64_t per_second, int digits) {
  char buffer[64];
  const int64_t seconds = units / per_second;
  std::snprintf(buffer, sizeof buffer, "%02lld:%02lld:%02lld.%0*lld", static_cast<long long>(seconds / 3600),
                static_cast<long long>(seconds / 60 % 60), static_cast<long long>(seconds % 60), digits,
                static_cast<long long>(units % per_second));
  return buffer;
}

Gen Time(TypeId id) {
  return [id](std::mt19937_64& rng) {
    const bool nanos = id == TypeId::kTimeNs;
    const int64_t per_second = nanos ? 1000000000 : 1000000;
    int64_t units = Uniform(rng, 0, 86400 * per_second - 1);
    if (Uniform(rng, 0, 3) == 0) units -= units % (Uniform(rng, 0, 1) ? per_second : per_second / 100);
    if (id == TypeId::kTime && Uniform(rng, 0, 10) == 0) units = 86400 * per_second;  // 24:00:00
    std::string text = ClockText(units, per_second, nanos ? 9 : 6);
    if (id == TypeId::kTimeTz) return std::make_pair(Value::Int(DataType(id), units), Cast(text + "+00", "TIMETZ"));
    return std::make_pair(Value::Int(DataType(id), units), Cast(text, nanos ? "TIME_NS" : "TIME"));
  };
}

Gen Timestamp(TypeId id) {
  return [id](std::mt19937_64& rng) {
    int64_t per_second = id == TypeId::kTimestampS ? 1 : id == TypeId::kTimestampMs ? 1000
                         : id == TypeId::kTimestampNs ? 1000000000 : 1000000;
    const char* sql_type = id == TypeId::kTimestampS ? "TIMESTAMP_S" : id == TypeId::kTimestampMs ? "TIMESTAMP_MS"
                           : id == TypeId::kTimestampNs ? "TIMESTAMP_NS" : id == TypeId::kTimestampTz ? "TIMESTAMPTZ" : "TIMESTAMP";
    if (Uniform(rng, 0, 12) == 0) {
      const int64_t v = Uniform(rng, 0, 1) ? std::numeric_limits<int64_t>::max() : -std::numeric_limits<int64_t>::max();
      return std::make_pair(Value::Int(DataType(id), v), Cast(v > 0 ? "infinity" : "-infinity", sql_type));
    }
    // Micros within DuckDB's range (about 290308 BC to 294246 AD), nanos over all of int64.
    const int64_t max_micros = 9200000000000000000LL;
    int64_t value = id == TypeId::kTimestampNs ? Uniform(rng, -max_micros, max_micros)
                                               : Uniform(rng, -max_micros, max_micros) / (1000000 / per_second);
    if (id == TypeId::kTimestampTz) {
      // DuckDB renders TIMESTAMPTZ through ICU calendars, which are off by a millisecond for
      // some instants hundreds of millennia away; stay within years 1..9999.
      value = Uniform(rng, -62135596800LL * 1000000, 253402300799LL * 1000000);
    }
    if (Uniform(rng, 0, 2) == 0) value -= value % (per_second * 60);
    if (id == TypeId::kTimestampNs) {
      return std::make_pair(Value::Int(DataType(id), value), StrCat("make_timestamp_ns(", value, "::BIGINT)"));
    }
    const int64_t micros = value * (1000000 / per_second);
    return std::make_pair(Value::Int(DataType(id), value),
                          StrCat("CAST(make_timestamp(", micros, "::BIGINT) AS ", sql_type, ")"));
  };
}

Gen IntervalGen() {
  return [](std::mt19937_64& rng) {
    Interval interval;
    interval.months = static_cast<int32_t>(Uniform(rng, 0, 2) ? Uniform(rng, -30, 30) : 0);
    interval.days = static_cast<int32_t>(Uniform(rng, 0, 2) ? Uniform(rng, -400, 400) : 0);
    int64_t micros = Uniform(rng, 0, 2) ? Uniform(rng, -400000000000LL, 400000000000LL) : 0;
    if (Uniform(rng, 0, 1)) micros -= micros % 1000000;
    interval.nanos = micros * 1000;
    return std::make_pair(Value::MakeInterval(interval),
                          StrCat("(to_months(", interval.months, ") + to_days(", interval.days,
                                 ") + to_microseconds(", micros, "::BIGINT))"));
  };
}

Gen Varchar() {
  return [](std::mt19937_64& rng) {
    std::string text = RandomText(rng);
    return std::make_pair(Value::Varchar(text), "CAST(" + SqlString(text) + " AS VARCHAR)");
  };
}

Gen Blob() {
  return [](std::mt19937_64& rng) {
    std::string bytes;
    std::string hex;
    const int64_t length = Uniform(rng, 0, 6);
    for (int64_t i = 0; i < length; ++i) {
      const int byte = static_cast<int>(Uniform(rng, 0, 3) == 0 ? Uniform(rng, 32, 126) : Uniform(rng, 0, 255));
      bytes.push_back(static_cast<char>(byte));
      char buffer[4];
      std::snprintf(buffer, sizeof buffer, "%02X", byte);
      hex += buffer;
    }
    return std::make_pair(Value::Bytes(DataType(TypeId::kBlob), bytes), "from_hex('" + hex + "')");
  };
}

Gen Uuid() {
  return [](std::mt19937_64& rng) {
    std::string bytes;
    std::string text;
    for (int i = 0; i < 16; ++i) {
      const int byte = static_cast<int>(Uniform(rng, 0, 255));
      bytes.push_back(static_cast<char>(byte));
      char buffer[4];
      std::snprintf(buffer, sizeof buffer, "%02x", byte);
      if (i == 4 || i == 6 || i == 8 || i == 10) text += "-";
      text += buffer;
    }
    return std::make_pair(Value::Bytes(DataType(TypeId::kUuid), bytes), Cast(text, "UUID"));
  };
}

Gen Json() {
  return [](std::mt19937_64& rng) {
    static const std::vector<std::string> kTexts = {
        "{\"a\": [1, 2.5, null], \"b\":\"x\"}", "[]", "\"str\"", "1.0e2", "{\"k\": {\"n\": true}}",
        "[1,2,3]", "null", "  12 ", "\"a, b\"", "{\"u\": \"\\u00e9\\/\"}", "-0", "12345678901234567890123"};
    const std::string& text = kTexts[static_cast<size_t>(Uniform(rng, 0, kTexts.size() - 1))];
    return std::make_pair(Value::Bytes(DataType(TypeId::kJson), text), Cast(text, "JSON"));
  };
}

Gen Boolean() {
  return [](std::mt19937_64& rng) {
    const bool b = Uniform(rng, 0, 1) == 1;
    return std::make_pair(Value::Boolean(b), std::string(b ? "true" : "false"));
  };
}

// A generator that yields NULL one time in `one_in`.
Gen Nullable(Gen gen, DataType type, std::string sql_type, int one_in) {
  return [=](std::mt19937_64& rng) {
    if (Uniform(rng, 1, one_in) == 1) return std::make_pair(Value::Null(type), "CAST(NULL AS " + sql_type + ")");
    return gen(rng);
  };
}

Gen List(Gen element, DataType element_type, std::string element_sql) {
  return [=](std::mt19937_64& rng) {
    std::vector<Value> elements;
    std::string literal = "[";
    const int64_t length = Uniform(rng, 0, 4);
    Gen nullable = Nullable(element, element_type, element_sql, 5);
    for (int64_t i = 0; i < length; ++i) {
      auto [value, text] = nullable(rng);
      elements.push_back(value);
      literal += (i > 0 ? ", " : "") + text;
    }
    literal += "]";
    return std::make_pair(Value::Nested(DataType::List(element_type), std::move(elements)),
                          "CAST(" + literal + " AS " + element_sql + "[])");
  };
}

}  // namespace

std::vector<RandomColumn> MakeRandomColumns(std::mt19937_64& rng, int rows) {
  struct Spec {
    std::string name;
    DataType type;
    std::string sql_type;
    Gen gen;
  };
  std::vector<Spec> specs = {
      {"bool", DataType(TypeId::kBoolean), "BOOLEAN", Boolean()},
      {"i8", DataType(TypeId::kInt8), "TINYINT", SignedInt<int8_t>(TypeId::kInt8, "TINYINT")},
      {"i16", DataType(TypeId::kInt16), "SMALLINT", SignedInt<int16_t>(TypeId::kInt16, "SMALLINT")},
      {"i32", DataType(TypeId::kInt32), "INTEGER", SignedInt<int32_t>(TypeId::kInt32, "INTEGER")},
      {"i64", DataType(TypeId::kInt64), "BIGINT", SignedInt<int64_t>(TypeId::kInt64, "BIGINT")},
      {"u8", DataType(TypeId::kUInt8), "UTINYINT", UnsignedInt<uint8_t>(TypeId::kUInt8, "UTINYINT")},
      {"u16", DataType(TypeId::kUInt16), "USMALLINT", UnsignedInt<uint16_t>(TypeId::kUInt16, "USMALLINT")},
      {"u32", DataType(TypeId::kUInt32), "UINTEGER", UnsignedInt<uint32_t>(TypeId::kUInt32, "UINTEGER")},
      {"u64", DataType(TypeId::kUInt64), "UBIGINT", UnsignedInt<uint64_t>(TypeId::kUInt64, "UBIGINT")},
      {"i128", DataType(TypeId::kInt128), "HUGEINT",
       [](std::mt19937_64& r) {
         __int128 v = Random128(r);
         return std::make_pair(Value::Int128(DataType(TypeId::kInt128), v), Cast(I128Text(v), "HUGEINT"));
       }},
      {"u128", DataType(TypeId::kUInt128), "UHUGEINT",
       [](std::mt19937_64& r) {
         unsigned __int128 v = static_cast<unsigned __int128>(Random128(r));
         std::string digits;
         for (unsigned __int128 m = v; m != 0 || digits.empty(); m /= 10) {
           digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(m % 10)));
         }
         return std::make_pair(Value::Int128(DataType(TypeId::kUInt128), static_cast<__int128>(v)),
                               Cast(digits, "UHUGEINT"));
       }},
      {"f32", DataType(TypeId::kFloat32), "FLOAT", Double(true)},
      {"f64", DataType(TypeId::kFloat64), "DOUBLE", Double(false)},
      {"dec4_2", DataType::Decimal(4, 2), "DECIMAL(4,2)", Decimal(4, 2)},
      {"dec9_0", DataType::Decimal(9, 0), "DECIMAL(9,0)", Decimal(9, 0)},
      {"dec15_2", DataType::Decimal(15, 2), "DECIMAL(15,2)", Decimal(15, 2)},
      {"dec18_6", DataType::Decimal(18, 6), "DECIMAL(18,6)", Decimal(18, 6)},
      {"dec38_10", DataType::Decimal(38, 10), "DECIMAL(38,10)", Decimal(38, 10)},
      {"dec3_3", DataType::Decimal(3, 3), "DECIMAL(3,3)", Decimal(3, 3)},
      {"dec38_38", DataType::Decimal(38, 38), "DECIMAL(38,38)", Decimal(38, 38)},
      {"date", DataType(TypeId::kDate), "DATE", Date()},
      {"time", DataType(TypeId::kTime), "TIME", Time(TypeId::kTime)},
      {"time_ns", DataType(TypeId::kTimeNs), "TIME_NS", Time(TypeId::kTimeNs)},
      {"timetz", DataType(TypeId::kTimeTz), "TIMETZ", Time(TypeId::kTimeTz)},
      {"ts", DataType(TypeId::kTimestamp), "TIMESTAMP", Timestamp(TypeId::kTimestamp)},
      {"ts_s", DataType(TypeId::kTimestampS), "TIMESTAMP_S", Timestamp(TypeId::kTimestampS)},
      {"ts_ms", DataType(TypeId::kTimestampMs), "TIMESTAMP_MS", Timestamp(TypeId::kTimestampMs)},
      {"ts_ns", DataType(TypeId::kTimestampNs), "TIMESTAMP_NS", Timestamp(TypeId::kTimestampNs)},
      {"tstz", DataType(TypeId::kTimestampTz), "TIMESTAMPTZ", Timestamp(TypeId::kTimestampTz)},
      {"interval", DataType(TypeId::kInterval), "INTERVAL", IntervalGen()},
      {"varchar", DataType(TypeId::kVarchar), "VARCHAR", Varchar()},
      {"blob", DataType(TypeId::kBlob), "BLOB", Blob()},
      {"uuid", DataType(TypeId::kUuid), "UUID", Uuid()},
      {"json", DataType(TypeId::kJson), "JSON", Json()},
  };
  // Nested types over some of the scalars.
  auto find = [&](const std::string& name) -> const Spec& {
    for (const Spec& spec : specs) {
      if (spec.name == name) return spec;
    }
    return specs[0];
  };
  std::vector<Spec> nested;
  for (const char* element : {"i32", "varchar", "f64", "ts", "tstz", "blob", "json", "interval", "date", "dec4_2", "uuid", "bool"}) {
    const Spec& spec = find(element);
    nested.push_back({StrCat("list_", element), DataType::List(spec.type), spec.sql_type + "[]",
                      List(spec.gen, spec.type, spec.sql_type)});
  }
  {
    const Spec& inner = nested[1];  // VARCHAR[]
    nested.push_back({"list_list", DataType::List(inner.type), "VARCHAR[][]", List(inner.gen, inner.type, inner.sql_type)});
  }
  {
    // STRUCT(a INTEGER, "b c" VARCHAR, d DOUBLE[], "it's" TIMESTAMP)
    std::vector<Spec> parts = {find("i32"), find("varchar"), nested[2], find("ts")};
    std::vector<std::string> names = {"a", "b c", "d", "it's"};
    std::vector<Field> fields;
    std::string sql_type = "STRUCT(";
    for (size_t i = 0; i < parts.size(); ++i) {
      fields.emplace_back(names[i], parts[i].type);
      sql_type += (i ? ", \"" : "\"") + names[i] + "\" " + parts[i].sql_type;
    }
    sql_type += ")";
    DataType type = DataType::Struct(fields);
    Gen gen = [=](std::mt19937_64& r) {
      std::vector<Value> children;
      std::string literal = "{";
      for (size_t i = 0; i < parts.size(); ++i) {
        auto [value, text] = Nullable(parts[i].gen, parts[i].type, parts[i].sql_type, 4)(r);
        children.push_back(value);
        literal += (i ? ", " : "") + SqlString(names[i]) + ": " + text;
      }
      return std::make_pair(Value::Nested(type, std::move(children)), "CAST(" + literal + "} AS " + sql_type + ")");
    };
    nested.push_back({"struct", type, sql_type, gen});
  }
  {
    // MAP(VARCHAR, INTEGER) with distinct keys.
    DataType type = DataType::Map(DataType(TypeId::kVarchar), DataType(TypeId::kInt32));
    const DataType entry_type = type.children[0].type;
    Gen value_gen = Nullable(find("i32").gen, DataType(TypeId::kInt32), "INTEGER", 4);
    Gen gen = [=](std::mt19937_64& r) {
      std::vector<Value> entries;
      std::vector<std::string> keys;
      std::string literal = "MAP {";
      const int64_t length = Uniform(r, 0, 3);
      for (int64_t i = 0; i < length; ++i) {
        std::string key = RandomText(r);
        if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
        keys.push_back(key);
        auto [value, text] = value_gen(r);
        entries.push_back(Value::Nested(entry_type, {Value::Varchar(key), value}));
        literal += (keys.size() > 1 ? ", " : "") + SqlString(key) + ": " + text;
      }
      return std::make_pair(Value::Nested(type, std::move(entries)), "CAST(" + literal + "} AS MAP(VARCHAR, INTEGER))");
    };
    nested.push_back({"map", type, "MAP(VARCHAR, INTEGER)", gen});
  }
  specs.insert(specs.end(), nested.begin(), nested.end());

  std::vector<RandomColumn> columns;
  for (const Spec& spec : specs) {
    RandomColumn column{spec.name, spec.type, spec.sql_type, {}, {}};
    Gen gen = Nullable(spec.gen, spec.type, spec.sql_type, 10);
    for (int row = 0; row < rows; ++row) {
      auto [value, literal] = gen(rng);
      column.values.push_back(std::move(value));
      column.literals.push_back(std::move(literal));
    }
    columns.push_back(std::move(column));
  }
  return columns;
}

std::string ValuesQuery(const std::vector<const RandomColumn*>& columns, int rows) {
  std::string sql = "SET TimeZone='UTC'; SELECT ";
  for (size_t c = 0; c < columns.size(); ++c) sql += (c ? ", \"" : "\"") + columns[c]->name + "\"";
  sql += " FROM (VALUES ";
  for (int row = 0; row < rows; ++row) {
    sql += row ? ", (" : "(";
    sql += std::to_string(row);
    for (const RandomColumn* column : columns) sql += ", " + column->literals[static_cast<size_t>(row)];
    sql += ")";
  }
  sql += ") t(row_index";
  for (const RandomColumn* column : columns) sql += ", \"" + column->name + "\"";
  return sql + ") ORDER BY row_index";
}

std::shared_ptr<Batch> MakeBatchOf(const std::vector<const RandomColumn*>& columns) {
  std::vector<Field> fields;
  std::vector<std::shared_ptr<Column>> built;
  for (const RandomColumn* column : columns) {
    fields.emplace_back(column->name, column->type);
    ColumnBuilder builder(column->type);
    for (const Value& value : column->values) {
      Status status = builder.Append(value);
      if (!status.ok()) ADD_FAILURE() << column->name << ": " << status.ToString();
    }
    built.push_back(builder.Finish());
  }
  return MakeBatch(std::make_shared<const Schema>(std::move(fields)), std::move(built));
}

}  // namespace tarn::testing
