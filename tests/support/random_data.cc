#include "support/random_data.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <cstring>
#include <limits>

#include "columnar/variant.h"

namespace tarn::testing {
namespace {

using Rng = std::mt19937_64;

// DuckDB's finite ranges (checked against DuckDB 1.x): dates are int32 days with
// ±2147483647 reserved for ±infinity; timestamps reach back to 290309-12-22 (BC).
constexpr int64_t kMinDate = -2147483646;
constexpr int64_t kMaxDate = 2147483646;
constexpr int64_t kMinTimestampUs = -9223372022400000000LL;
constexpr int64_t kMaxTimestampUs = 9223372036854775806LL;
constexpr int64_t kMinTimestampNs = -9223286400000000000LL;  // 1677-09-22 00:00:00
constexpr int64_t kMaxTimestampNs = 9223372036854775806LL;
constexpr int64_t kMicrosPerDay = 86400000000LL;

bool Chance(Rng& rng, double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }
int64_t Uniform(Rng& rng, int64_t lo, int64_t hi) {
  return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
}
template <typename T>
const T& Pick(Rng& rng, std::initializer_list<T> options) {
  return *(options.begin() + Uniform(rng, 0, static_cast<int64_t>(options.size()) - 1));
}

// An integer in [lo, hi], half the time one of the edges or near zero.
int64_t EdgyInt(Rng& rng, int64_t lo, int64_t hi) {
  if (Chance(rng, 0.4)) {
    switch (Uniform(rng, 0, 4)) {
      case 0: return lo;
      case 1: return hi;
      case 2: return std::clamp<int64_t>(0, lo, hi);
      case 3: return std::clamp<int64_t>(-1, lo, hi);
      default: return std::clamp<int64_t>(1, lo, hi);
    }
  }
  if (Chance(rng, 0.5)) return std::clamp<int64_t>(Uniform(rng, -1000, 1000), lo, hi);
  return Uniform(rng, lo, hi);
}

uint64_t EdgyUInt(Rng& rng, uint64_t max) {
  if (Chance(rng, 0.4)) return Pick<uint64_t>(rng, {0, 1, max, max - 1});
  return std::uniform_int_distribution<uint64_t>(0, max)(rng);
}

__int128 Random128(Rng& rng) {
  return static_cast<__int128>((static_cast<unsigned __int128>(rng()) << 64) | rng());
}

__int128 PowerOfTen(int digits) {
  __int128 result = 1;
  for (int i = 0; i < digits; ++i) result *= 10;
  return result;
}

double EdgyDouble(Rng& rng, bool is_float) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (Chance(rng, 0.4)) {
    const double max = is_float ? std::numeric_limits<float>::max() : std::numeric_limits<double>::max();
    const double tiny = is_float ? std::numeric_limits<float>::denorm_min()
                                 : std::numeric_limits<double>::denorm_min();
    return Pick<double>(rng, {0.0, -0.0, INFINITY, -INFINITY, nan, -nan, max, -max, tiny, -tiny,
                              1.0, -1.5});
  }
  if (Chance(rng, 0.5)) return std::uniform_real_distribution<double>(-1e6, 1e6)(rng);
  // Random bits cover every exponent; NaN payloads are made quiet so that float/double
  // conversions cannot change them.
  if (is_float) {
    uint32_t bits = static_cast<uint32_t>(rng());
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isnan(f)) return std::signbit(f) ? -nan : nan;
    return f;
  }
  uint64_t bits = rng();
  double d;
  std::memcpy(&d, &bits, 8);
  if (std::isnan(d)) return std::signbit(d) ? -nan : nan;
  return d;
}

void AppendUtf8(std::string* out, uint32_t code_point) {
  if (code_point < 0x80) {
    *out += static_cast<char>(code_point);
  } else if (code_point < 0x800) {
    *out += static_cast<char>(0xC0 | (code_point >> 6));
    *out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else if (code_point < 0x10000) {
    *out += static_cast<char>(0xE0 | (code_point >> 12));
    *out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (code_point & 0x3F));
  } else {
    *out += static_cast<char>(0xF0 | (code_point >> 18));
    *out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
    *out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    *out += static_cast<char>(0x80 | (code_point & 0x3F));
  }
}

std::string RandomText(Rng& rng) {
  if (Chance(rng, 0.1)) return "";
  if (Chance(rng, 0.15)) {
    return Pick<std::string>(rng, {"ü", "日本語テキスト", "😀🎉", "a\tb\nc", "'quoted' \"double\"",
                                   "NULL", " leading and trailing ", "\\", "Ωmega ∑ ∞"});
  }
  // Rarely, a string longer than 64 KiB (it crosses page and buffer boundaries).
  const int64_t size = Chance(rng, 0.003) ? Uniform(rng, 65537, 100000) : Uniform(rng, 1, 24);
  std::string text;
  text.reserve(static_cast<size_t>(size));
  while (static_cast<int64_t>(text.size()) < size) {
    if (Chance(rng, 0.9)) {
      text += static_cast<char>(Uniform(rng, 32, 126));
    } else {
      // Any scalar value outside the surrogate range.
      uint32_t code_point = static_cast<uint32_t>(Uniform(rng, 0x80, 0x10FFFF - 0x800));
      if (code_point >= 0xD800) code_point += 0x800;
      AppendUtf8(&text, code_point);
    }
  }
  return text;
}

std::string RandomBlob(Rng& rng) {
  if (Chance(rng, 0.1)) return "";
  if (Chance(rng, 0.1)) return std::string("\0\0\xff\0", 4);
  const int64_t size = Chance(rng, 0.003) ? Uniform(rng, 65537, 100000) : Uniform(rng, 1, 24);
  std::string bytes(static_cast<size_t>(size), '\0');
  for (char& c : bytes) c = static_cast<char>(rng());
  return bytes;
}

std::string RandomJson(Rng& rng) {
  switch (Uniform(rng, 0, 6)) {
    case 0: return "null";
    case 1: return std::to_string(EdgyInt(rng, INT32_MIN, INT32_MAX));
    case 2: return "\"s\\u00fc\\n\"";
    case 3: return "[1,2.5,\"x\",true,null]";
    case 4: return "{\"a\":{\"b\":[]},\"ü\":\"日本\"}";
    case 5: return "{}";
    default: return "\"" + std::to_string(rng() % 1000) + "\"";
  }
}

// A little-endian WKB point.
std::string RandomWkbPoint(Rng& rng) {
  std::string wkb;
  wkb += '\x01';
  const uint32_t point_type = 1;
  wkb.append(reinterpret_cast<const char*>(&point_type), 4);
  for (int axis = 0; axis < 2; ++axis) {
    double coordinate = std::uniform_real_distribution<double>(-180, 180)(rng);
    wkb.append(reinterpret_cast<const char*>(&coordinate), 8);
  }
  return wkb;
}

// A VARIANT of kinds that keep their bytes through a Parquet file: INT32, VARCHAR, DOUBLE,
// or an object with fields in name order.
std::string RandomVariant(Rng& rng) {
  using variant::VariantNode;
  auto scalar = [&]() {
    switch (rng() % 3) {
      case 0: return VariantNode::Primitive(Value::Int(DataType(TypeId::kInt32), static_cast<int32_t>(rng())));
      case 1: return VariantNode::Primitive(Value::Varchar(RandomBlob(rng)));
      default: return VariantNode::Primitive(Value::Float64(static_cast<double>(rng() % 1000) / 8));
    }
  };
  VariantNode node = scalar();
  if (rng() % 3 == 0) {
    node = VariantNode();
    node.kind = VariantNode::Kind::kObject;
    node.names = {"a", "b"};
    node.children = {scalar(), scalar()};
  }
  Result<std::string> bytes = variant::Encode(node);
  return bytes.ok() ? std::move(bytes).value() : std::string();
}

std::string RandomUuid(Rng& rng) {
  if (Chance(rng, 0.1)) return std::string(16, '\0');
  if (Chance(rng, 0.1)) return std::string(16, '\xff');
  std::string bytes(16, '\0');
  for (char& c : bytes) c = static_cast<char>(rng());
  return bytes;
}

Value MaybeNull(Rng& rng, const Field& field, double null_fraction);

}  // namespace

Value RandomValue(Rng& rng, const DataType& type, double null_fraction) {
  switch (type.id) {
    case TypeId::kNull: return Value::Null(type);
    case TypeId::kBoolean: return Value::Boolean(Chance(rng, 0.5));
    case TypeId::kInt8: return Value::Int(type, EdgyInt(rng, INT8_MIN, INT8_MAX));
    case TypeId::kInt16: return Value::Int(type, EdgyInt(rng, INT16_MIN, INT16_MAX));
    case TypeId::kInt32: return Value::Int(type, EdgyInt(rng, INT32_MIN, INT32_MAX));
    case TypeId::kInt64: return Value::Int(type, EdgyInt(rng, INT64_MIN, INT64_MAX));
    case TypeId::kUInt8: return Value::UInt(type, EdgyUInt(rng, UINT8_MAX));
    case TypeId::kUInt16: return Value::UInt(type, EdgyUInt(rng, UINT16_MAX));
    case TypeId::kUInt32: return Value::UInt(type, EdgyUInt(rng, UINT32_MAX));
    case TypeId::kUInt64: return Value::UInt(type, EdgyUInt(rng, UINT64_MAX));
    case TypeId::kInt128: {
      const __int128 max = static_cast<__int128>(~static_cast<unsigned __int128>(0) >> 1);
      if (Chance(rng, 0.3)) return Value::Int128(type, Pick<__int128>(rng, {max, -max - 1, 0, -1}));
      return Value::Int128(type, Chance(rng, 0.5) ? Random128(rng) : EdgyInt(rng, INT64_MIN, INT64_MAX));
    }
    case TypeId::kUInt128: {
      if (Chance(rng, 0.3)) return Value::Int128(type, Pick<__int128>(rng, {0, 1, -1}));  // -1 = max
      return Value::Int128(type, Random128(rng));
    }
    case TypeId::kFloat32:  // rounded to float so that storing it loses nothing
      return Value::Double(type, static_cast<float>(EdgyDouble(rng, true)));
    case TypeId::kFloat64: return Value::Double(type, EdgyDouble(rng, false));
    case TypeId::kDecimal: {
      const __int128 limit = PowerOfTen(type.precision) - 1;
      if (Chance(rng, 0.3)) return Value::Int128(type, Pick<__int128>(rng, {limit, -limit, 0}));
      __int128 v = Random128(rng) % (limit + 1);
      return Value::Int128(type, v);
    }
    case TypeId::kDate: return Value::Int(type, EdgyInt(rng, kMinDate, kMaxDate));
    case TypeId::kTime:
    case TypeId::kTimeTz: return Value::Int(type, EdgyInt(rng, 0, kMicrosPerDay));
    case TypeId::kTimeNs: return Value::Int(type, EdgyInt(rng, 0, kMicrosPerDay * 1000 - 1));
    case TypeId::kTimestamp:
    case TypeId::kTimestampTz: return Value::Int(type, EdgyInt(rng, kMinTimestampUs, kMaxTimestampUs));
    case TypeId::kTimestampS:
      return Value::Int(type, EdgyInt(rng, kMinTimestampUs / 1000000, kMaxTimestampUs / 1000000));
    case TypeId::kTimestampMs:
      return Value::Int(type, EdgyInt(rng, kMinTimestampUs / 1000, kMaxTimestampUs / 1000));
    case TypeId::kTimestampNs: return Value::Int(type, EdgyInt(rng, kMinTimestampNs, kMaxTimestampNs));
    case TypeId::kInterval: {
      // Whole microseconds: DuckDB intervals hold micros, so these survive a round trip. No
      // part is negative and the time part stays below 2^32 ms, so that Parquet's INTERVAL
      // (three unsigned words) holds every one; the writer refuses the others (tested apart).
      Interval interval;
      interval.months = static_cast<int32_t>(EdgyInt(rng, 0, INT32_MAX));
      interval.days = static_cast<int32_t>(EdgyInt(rng, 0, INT32_MAX));
      interval.nanos = EdgyInt(rng, 0, int64_t{0xFFFFFFFF} * 1000) * 1000;
      return Value::MakeInterval(interval);
    }
    case TypeId::kVarchar: return Value::Bytes(type, RandomText(rng));
    case TypeId::kJson: return Value::Bytes(type, RandomJson(rng));
    case TypeId::kBlob:
    case TypeId::kVariant: return Value::Bytes(type, RandomVariant(rng));
    case TypeId::kGeometry: return Value::Bytes(type, RandomWkbPoint(rng));
    case TypeId::kUuid: return Value::Bytes(type, RandomUuid(rng));
    case TypeId::kStruct: {
      std::vector<Value> fields;
      for (const Field& field : type.children) fields.push_back(MaybeNull(rng, field, null_fraction));
      return Value::Nested(type, std::move(fields));
    }
    case TypeId::kList: {
      std::vector<Value> elements;
      const int64_t count = Chance(rng, 0.2) ? 0 : Uniform(rng, 1, 4);
      for (int64_t i = 0; i < count; ++i) {
        elements.push_back(MaybeNull(rng, type.children[0], null_fraction));
      }
      return Value::Nested(type, std::move(elements));
    }
    case TypeId::kMap: {
      // Keys are unique within a map, as DuckDB requires.
      const DataType& entry_type = type.children[0].type;
      std::vector<Value> entries;
      std::vector<Value> keys;
      const int64_t count = Chance(rng, 0.2) ? 0 : Uniform(rng, 1, 3);
      for (int64_t i = 0; i < count; ++i) {
        Value key = RandomValue(rng, entry_type.children[0].type, null_fraction);
        if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
        keys.push_back(key);
        entries.push_back(Value::Nested(
            entry_type, {key, MaybeNull(rng, entry_type.children[1], null_fraction)}));
      }
      return Value::Nested(type, std::move(entries));
    }
  }
  return Value::Null(type);
}

namespace {

Value MaybeNull(Rng& rng, const Field& field, double null_fraction) {
  if (field.nullable && Chance(rng, null_fraction)) return Value::Null(field.type);
  return RandomValue(rng, field.type, null_fraction);
}

constexpr TypeId kScalarTypes[] = {
    TypeId::kBoolean,   TypeId::kInt8,        TypeId::kInt16,       TypeId::kInt32,
    TypeId::kInt64,     TypeId::kInt128,      TypeId::kUInt8,       TypeId::kUInt16,
    TypeId::kUInt32,    TypeId::kUInt64,      TypeId::kUInt128,     TypeId::kFloat32,
    TypeId::kFloat64,   TypeId::kDecimal,     TypeId::kDate,        TypeId::kTime,
    TypeId::kTimeNs,    TypeId::kTimeTz,      TypeId::kTimestamp,   TypeId::kTimestampS,
    TypeId::kTimestampMs, TypeId::kTimestampNs, TypeId::kTimestampTz, TypeId::kInterval,
    TypeId::kVarchar,   TypeId::kBlob,        TypeId::kUuid,        TypeId::kJson,
    TypeId::kVariant,   TypeId::kGeometry,
};

DataType RandomScalarType(Rng& rng) {
  TypeId id = kScalarTypes[Uniform(rng, 0, std::size(kScalarTypes) - 1)];
  if (id == TypeId::kDecimal) {
    const int precision = Chance(rng, 0.5) ? Pick<int>(rng, {1, 4, 9, 10, 18, 19, 38})
                                           : static_cast<int>(Uniform(rng, 1, 38));
    const int scale = Chance(rng, 0.3) ? Pick<int>(rng, {0, precision})
                                       : static_cast<int>(Uniform(rng, 0, precision));
    return DataType::Decimal(precision, scale);
  }
  return DataType(id);
}

std::string RandomFieldName(Rng& rng, int index) {
  if (Chance(rng, 0.1)) {
    return Pick<std::string>(rng, {"with space", "Ünïcode", "\"quoted\"", "select"}) +
           std::to_string(index);
  }
  return "f" + std::to_string(index);
}

void AssignFieldIds(std::vector<Field>* fields, int32_t* next_id) {
  for (Field& field : *fields) {
    field.field_id = (*next_id)++;
    AssignFieldIds(&field.type.children, next_id);
  }
}

}  // namespace

DataType RandomType(Rng& rng, int max_depth) {
  if (max_depth <= 0 || Chance(rng, 0.7)) return RandomScalarType(rng);
  switch (Uniform(rng, 0, 2)) {
    case 0: {
      std::vector<Field> fields;
      const int count = static_cast<int>(Uniform(rng, 1, 4));
      for (int field_idx = 0; field_idx < count; ++field_idx) {
        fields.emplace_back(RandomFieldName(rng, field_idx), RandomType(rng, max_depth - 1),
                            /*is_nullable=*/!Chance(rng, 0.15));
      }
      return DataType::Struct(std::move(fields));
    }
    case 1:
      return DataType::List(Field("element", RandomType(rng, max_depth - 1), !Chance(rng, 0.15)));
    default: {
      // DuckDB map keys are scalars here (floats excluded: NaN keys make uniqueness murky).
      DataType key = RandomScalarType(rng);
      while (key.IsFloating()) key = RandomScalarType(rng);
      return DataType::Map(std::move(key), RandomType(rng, max_depth - 1));
    }
  }
}

Schema RandomSchema(Rng& rng, int num_fields, int max_depth) {
  std::vector<Field> fields;
  for (int field_idx = 0; field_idx < num_fields; ++field_idx) {
    fields.emplace_back("c" + std::to_string(field_idx), RandomType(rng, max_depth),
                        /*is_nullable=*/!Chance(rng, 0.1));
  }
  int32_t next_id = 1;
  AssignFieldIds(&fields, &next_id);
  return Schema(std::move(fields));
}

std::shared_ptr<Column> RandomColumn(Rng& rng, const DataType& type, int64_t rows,
                                     double null_fraction) {
  ColumnBuilder builder(type);
  builder.Reserve(rows);
  for (int64_t row = 0; row < rows; ++row) {
    if (Chance(rng, null_fraction)) {
      builder.AppendNull();
      continue;
    }
    Status status = builder.Append(RandomValue(rng, type, null_fraction));
    if (!status.ok()) std::abort();  // a generator bug: the value does not fit its own type
  }
  return builder.Finish();
}

std::shared_ptr<Batch> RandomBatch(Rng& rng, const Schema& schema, int64_t rows,
                                   double null_fraction) {
  std::vector<std::shared_ptr<Column>> columns;
  for (const Field& field : schema.fields) {
    columns.push_back(RandomColumn(rng, field.type, rows, field.nullable ? null_fraction : 0.0));
  }
  auto batch = MakeBatch(std::make_shared<const Schema>(schema), std::move(columns));
  batch->num_rows = rows;
  return batch;
}

std::string DescribeMismatch(const Batch& expected, const Batch& actual) {
  if (expected.num_rows != actual.num_rows) {
    return StrCat("row count: expected ", expected.num_rows, ", actual ", actual.num_rows);
  }
  if (expected.num_columns() != actual.num_columns()) {
    return StrCat("column count: expected ", expected.num_columns(), ", actual ", actual.num_columns());
  }
  for (int column_idx = 0; column_idx < expected.num_columns(); ++column_idx) {
    const DataType& expected_type = expected.column(column_idx).type;
    const DataType& actual_type = actual.column(column_idx).type;
    if (expected_type != actual_type) {
      return StrCat("column ", column_idx, " type: expected ", expected_type.ToString(),
                    ", actual ", actual_type.ToString());
    }
  }
  for (int64_t row = 0; row < expected.num_rows; ++row) {
    for (int column_idx = 0; column_idx < expected.num_columns(); ++column_idx) {
      Value want = expected.column(column_idx).GetValue(row);
      Value got = actual.column(column_idx).GetValue(row);
      if (want != got) {
        std::string name = expected.schema && column_idx < expected.schema->num_fields()
                               ? expected.schema->field(column_idx).name
                               : std::to_string(column_idx);
        return StrCat("row ", row, " column ", column_idx, " '", name, "': expected ",
                      want.ToString(), ", actual ", got.ToString());
      }
    }
  }
  return "";
}

}  // namespace tarn::testing
