#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "support/random_data.h"
#include "tarn/columnar.h"

namespace tarn {
namespace {

DataType Int() { return DataType(TypeId::kInt32); }
DataType Varchar() { return DataType(TypeId::kVarchar); }

// Appends `values` and checks that GetValue gives each one back and the column is valid.
void ExpectRoundTrip(const DataType& type, const std::vector<Value>& values) {
  ColumnBuilder builder(type);
  for (const Value& value : values) {
    ASSERT_TRUE(builder.Append(value).ok()) << value.ToString();
  }
  ASSERT_EQ(builder.length(), static_cast<int64_t>(values.size()));
  std::shared_ptr<Column> column = builder.Finish();
  ASSERT_TRUE(column->Validate().ok()) << column->Validate().ToString();
  ASSERT_EQ(column->length, static_cast<int64_t>(values.size()));
  int64_t nulls = 0;
  for (size_t row = 0; row < values.size(); ++row) {
    Value expected = values[row].is_null() ? Value::Null(type) : values[row];
    EXPECT_EQ(column->GetValue(static_cast<int64_t>(row)), expected)
        << type.ToString() << " row " << row << ": " << expected.ToString() << " vs "
        << column->GetValue(static_cast<int64_t>(row)).ToString();
    nulls += values[row].is_null();
  }
  EXPECT_EQ(column->null_count, nulls);
  EXPECT_EQ(column->validity != nullptr, nulls > 0);
}

TEST(ColumnBuilderTest, RandomValuesRoundTripForEveryType) {
  std::mt19937_64 rng(1);
  for (int iteration = 0; iteration < 400; ++iteration) {
    DataType type = testing::RandomType(rng, iteration % 4);
    std::vector<Value> values;
    const int rows = static_cast<int>(rng() % 50);
    for (int row = 0; row < rows; ++row) {
      values.push_back(rng() % 4 == 0 ? Value::Null(type) : testing::RandomValue(rng, type, 0.3));
    }
    ExpectRoundTrip(type, values);
  }
}

TEST(ColumnBuilderTest, NullsAtEveryLevel) {
  DataType inner = DataType::Struct({Field("x", Int()), Field("s", Varchar())});
  DataType type = DataType::List(DataType::Struct({Field("inner", inner), Field("tags", DataType::List(Varchar()))}));
  const DataType& element = type.children[0].type;
  auto inner_value = [&](Value x, Value s) { return Value::Nested(inner, {std::move(x), std::move(s)}); };
  std::vector<Value> values = {
      Value::Null(type),
      Value::Nested(type, {}),
      Value::Nested(type, {Value::Null(element)}),
      Value::Nested(type, {Value::Nested(element, {Value::Null(inner), Value::Null(element.children[1].type)})}),
      Value::Nested(type, {Value::Nested(element, {inner_value(Value::Null(Int()), Value::Null(Varchar())),
                                                   Value::Nested(element.children[1].type,
                                                                 {Value::Null(Varchar()), Value::Varchar("")})})}),
      Value::Nested(type, {Value::Nested(element, {inner_value(Value::Int(Int(), 5), Value::Varchar("ü")),
                                                   Value::Nested(element.children[1].type, {})})}),
  };
  ExpectRoundTrip(type, values);
}

TEST(ColumnBuilderTest, NullRowsAreZeroedAndEmpty) {
  ColumnBuilder ints(DataType(TypeId::kInt64));
  ints.AppendNumber<int64_t>(-1);
  ints.AppendNull();
  ints.AppendNumber<int64_t>(-1);
  auto int_column = ints.Finish();
  EXPECT_EQ(int_column->values_as<int64_t>()[1], 0);

  ColumnBuilder strings(Varchar());
  strings.AppendBytes("abc");
  strings.AppendNull();
  strings.AppendBytes("de");
  auto string_column = strings.Finish();
  const int64_t* offsets = string_column->values_as<int64_t>();
  EXPECT_EQ(offsets[1], offsets[2]);
  EXPECT_EQ(string_column->GetView(2), "de");

  // A NULL struct row gives its nullable children a NULL and its NOT NULL children a default.
  DataType type = DataType::Struct({Field("a", Int(), true), Field("b", Int(), false),
                                    Field("l", DataType::List(Int()), false)});
  ColumnBuilder structs(type);
  structs.AppendNull();
  auto struct_column = structs.Finish();
  ASSERT_TRUE(struct_column->Validate().ok()) << struct_column->Validate().ToString();
  EXPECT_TRUE(struct_column->children[0]->IsNull(0));
  EXPECT_TRUE(struct_column->children[1]->IsValid(0));
  EXPECT_EQ(struct_column->children[1]->values_as<int32_t>()[0], 0);
  EXPECT_EQ(struct_column->children[2]->GetValue(0), Value::Nested(type.children[2].type, {}));
}

TEST(ColumnBuilderTest, FastPathsMatchAppend) {
  ColumnBuilder fast(DataType(TypeId::kFloat32));
  ColumnBuilder slow(DataType(TypeId::kFloat32));
  for (float v : {0.0f, -0.0f, 1.5f, -std::numeric_limits<float>::infinity()}) {
    fast.AppendNumber(v);
    ASSERT_TRUE(slow.Append(Value::Double(DataType(TypeId::kFloat32), v)).ok());
  }
  auto a = fast.Finish();
  auto b = slow.Finish();
  EXPECT_EQ(std::memcmp(a->values->data(), b->values->data(), 16), 0);
  EXPECT_NE(a->GetValue(0), a->GetValue(1));  // 0.0 vs -0.0

  ColumnBuilder bools(DataType(TypeId::kBoolean));
  for (int i = 0; i < 20; ++i) bools.AppendBool(i % 3 == 0);
  auto bool_column = bools.Finish();
  for (int i = 0; i < 20; ++i) EXPECT_EQ(bool_column->GetBool(i), i % 3 == 0);

  ColumnBuilder uuids(DataType(TypeId::kUuid));
  uuids.AppendBytes(std::string("0123456789abcdef"));
  EXPECT_EQ(uuids.Finish()->GetValue(0).GetBytes(), "0123456789abcdef");
}

TEST(ColumnBuilderTest, FinishResetsTheBuilder) {
  ColumnBuilder builder(DataType::List(Varchar()));
  ASSERT_TRUE(builder.Append(Value::Nested(builder.type(), {Value::Varchar("a")})).ok());
  builder.AppendNull();
  auto first = builder.Finish();
  EXPECT_EQ(builder.length(), 0);
  ASSERT_TRUE(builder.Append(Value::Nested(builder.type(), {Value::Varchar("b"), Value::Varchar("c")})).ok());
  auto second = builder.Finish();
  ASSERT_TRUE(second->Validate().ok());
  EXPECT_EQ(second->length, 1);
  EXPECT_EQ(second->null_count, 0);
  EXPECT_EQ(second->children[0]->length, 2);
  EXPECT_EQ(first->GetValue(0), Value::Nested(first->type, {Value::Varchar("a")}));
}

TEST(ColumnBuilderTest, LargeColumnGrowsCorrectly) {
  ColumnBuilder builder(Varchar());
  builder.Reserve(10);
  std::string expected;
  for (int row = 0; row < 100000; ++row) {
    if (row % 7 == 0) {
      builder.AppendNull();
    } else {
      builder.AppendBytes(std::to_string(row));
    }
  }
  auto column = builder.Finish();
  ASSERT_TRUE(column->Validate().ok());
  EXPECT_EQ(column->null_count, (100000 + 6) / 7);
  EXPECT_EQ(column->GetView(99999), "99999");
  EXPECT_TRUE(column->IsNull(99995));
  EXPECT_EQ(reinterpret_cast<uintptr_t>(column->data->data()) % 64, 0u);
  EXPECT_EQ(column->values->capacity() % 64, 0);
}

TEST(ColumnBuilderTest, RejectsValuesThatDoNotFit) {
  struct Case {
    DataType type;
    Value value;
  };
  DataType strict = DataType::Struct({Field("a", Int(), false)});
  const Case cases[] = {
      {DataType(TypeId::kInt8), Value::Int64(128)},
      {DataType(TypeId::kInt8), Value::Int64(-129)},
      {DataType(TypeId::kUInt8), Value::UInt(DataType(TypeId::kUInt8), 256)},
      {Int(), Value::Varchar("1")},
      {DataType(TypeId::kUInt32), Value::Int64(1)},
      {DataType::Decimal(3, 1), Value::Int128(DataType::Decimal(3, 1), 1000)},
      {DataType::Decimal(3, 1), Value::Int128(DataType::Decimal(3, 1), -1000)},
      {DataType(TypeId::kUuid), Value::Bytes(DataType(TypeId::kUuid), "short")},
      {strict, Value::Nested(strict, {Value::Null(Int())})},
      {strict, Value::Nested(strict, {})},
      {DataType::List(Int()), Value::Int64(3)},
  };
  for (const Case& c : cases) {
    ColumnBuilder builder(c.type);
    Status status = builder.Append(c.value);
    EXPECT_EQ(status.code(), StatusCode::kInvalidArgument) << c.type.ToString() << " " << c.value.ToString();
    EXPECT_EQ(builder.length(), 0);
  }
  // Limits that do fit.
  ColumnBuilder decimals(DataType::Decimal(3, 1));
  EXPECT_TRUE(decimals.Append(Value::Int128(DataType::Decimal(3, 1), 999)).ok());
  EXPECT_TRUE(decimals.Append(Value::Int128(DataType::Decimal(3, 1), -999)).ok());
  // A rejected nested value leaves no partial rows in the children.
  DataType list_of_strict = DataType::List(strict);
  ColumnBuilder lists(list_of_strict);
  Value good = Value::Nested(strict, {Value::Int(Int(), 1)});
  Value bad = Value::Nested(strict, {Value::Null(Int())});
  EXPECT_FALSE(lists.Append(Value::Nested(list_of_strict, {good, bad})).ok());
  auto column = lists.Finish();
  EXPECT_EQ(column->length, 0);
  EXPECT_EQ(column->children[0]->length, 0);
}

// The generator must actually produce the edge cases other tests rely on.
TEST(RandomDataTest, CoversTheEdges) {
  std::mt19937_64 rng(42);
  auto doubles = testing::RandomColumn(rng, DataType(TypeId::kFloat64), 2000, 0.1);
  bool negative_nan = false, positive_nan = false, negative_zero = false, positive_zero = false;
  bool infinity = false;
  for (int64_t row = 0; row < doubles->length; ++row) {
    if (doubles->IsNull(row)) continue;
    double v = doubles->values_as<double>()[row];
    negative_nan |= std::isnan(v) && std::signbit(v);
    positive_nan |= std::isnan(v) && !std::signbit(v);
    negative_zero |= v == 0 && std::signbit(v);
    positive_zero |= v == 0 && !std::signbit(v);
    infinity |= std::isinf(v);
  }
  EXPECT_TRUE(negative_nan && positive_nan && negative_zero && positive_zero && infinity);

  auto strings = testing::RandomColumn(rng, DataType(TypeId::kVarchar), 3000, 0.1);
  bool empty = false, long_string = false, multibyte = false;
  for (int64_t row = 0; row < strings->length; ++row) {
    if (strings->IsNull(row)) continue;
    std::string_view v = strings->GetView(row);
    empty |= v.empty();
    long_string |= v.size() > 65536;
    for (char c : v) multibyte |= static_cast<unsigned char>(c) >= 0x80;
  }
  EXPECT_TRUE(empty && long_string && multibyte);
  EXPECT_TRUE(strings->Validate().ok());

  auto bigints = testing::RandomColumn(rng, DataType(TypeId::kInt64), 500, 0.0);
  bool min = false, max = false;
  for (int64_t row = 0; row < bigints->length; ++row) {
    min |= bigints->values_as<int64_t>()[row] == INT64_MIN;
    max |= bigints->values_as<int64_t>()[row] == INT64_MAX;
  }
  EXPECT_TRUE(min && max);

  DataType decimal = DataType::Decimal(38, 5);
  auto decimals = testing::RandomColumn(rng, decimal, 500, 0.0);
  bool at_limit = false;
  __int128 limit = 1;
  for (int i = 0; i < 38; ++i) limit *= 10;
  for (int64_t row = 0; row < decimals->length; ++row) {
    at_limit |= decimals->GetValue(row).GetInt128() == -(limit - 1);
  }
  EXPECT_TRUE(at_limit);

  // NULLs inside lists and structs, empty lists and NULL lists.
  DataType nested = DataType::List(DataType::Struct({Field("a", DataType(TypeId::kInt32))}));
  auto lists = testing::RandomColumn(rng, nested, 500, 0.2);
  ASSERT_TRUE(lists->Validate().ok());
  const Column& structs = *lists->children[0];
  EXPECT_GT(lists->null_count, 0);
  EXPECT_GT(structs.null_count, 0);
  EXPECT_GT(structs.children[0]->null_count, 0);
  bool empty_list = false;
  for (int64_t row = 0; row < lists->length; ++row) {
    empty_list |= lists->IsValid(row) && lists->GetValue(row).children().empty();
  }
  EXPECT_TRUE(empty_list);

  auto blobs = testing::RandomColumn(rng, DataType(TypeId::kBlob), 500, 0.0);
  bool nul_byte = false;
  for (int64_t row = 0; row < blobs->length; ++row) {
    nul_byte |= blobs->GetView(row).find('\0') != std::string_view::npos;
  }
  EXPECT_TRUE(nul_byte);
}

TEST(ValueTest, EqualityAndFormatting) {
  const DataType f64(TypeId::kFloat64);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(Value::Double(f64, nan), Value::Double(f64, -nan));
  EXPECT_NE(Value::Double(f64, 0.0), Value::Double(f64, -0.0));
  EXPECT_NE(Value::Double(f64, nan), Value::Double(f64, 1.0));
  EXPECT_NE(Value::Int64(1), Value::Int(Int(), 1));  // types differ
  EXPECT_NE(Value::Null(Int()), Value::Int(Int(), 0));
  EXPECT_EQ(Value::Null(Int()), Value::Null(Int()));

  EXPECT_EQ(Value::Int128(DataType::Decimal(5, 2), -5).ToString(), "-0.05");
  EXPECT_EQ(Value::Int128(DataType::Decimal(5, 0), 123).ToString(), "123");
  EXPECT_EQ(Value::Int(DataType(TypeId::kDate), 0).ToString(), "1970-01-01");
  EXPECT_EQ(Value::Int(DataType(TypeId::kDate), 2147483646).ToString(), "5881580-07-10");
  EXPECT_EQ(Value::Int(DataType(TypeId::kDate), -2147483646).ToString(), "5877642-06-25 (BC)");
  EXPECT_EQ(Value::Int(DataType(TypeId::kTimestamp), -9223372022400000000LL).ToString(),
            "290309-12-22 (BC) 00:00:00");
  EXPECT_EQ(Value::Int(DataType(TypeId::kTimestamp), 9223372036854775806LL).ToString(),
            "294247-01-10 04:00:54.775806");
  EXPECT_EQ(Value::Int(DataType(TypeId::kTime), 86400000000LL).ToString(), "24:00:00");
  EXPECT_EQ(Value::MakeInterval({14, 3, 14706789000000LL}).ToString(), "1 year 2 months 3 days 04:05:06.789");
  EXPECT_EQ(Value::MakeInterval({0, 0, -1000000000}).ToString(), "-00:00:01");
  EXPECT_EQ(Value::Bytes(DataType(TypeId::kBlob), std::string("a\0\xff", 3)).ToString(), "a\\x00\\xFF");
  EXPECT_EQ(Value::Bytes(DataType(TypeId::kUuid), std::string(16, '\x11')).ToString(),
            "11111111-1111-1111-1111-111111111111");
  EXPECT_EQ(Value::Int128(DataType(TypeId::kUInt128), -1).ToString(),
            "340282366920938463463374607431768211455");
  __int128 min128 = static_cast<__int128>(static_cast<unsigned __int128>(1) << 127);
  EXPECT_EQ(Value::Int128(DataType(TypeId::kInt128), min128).ToString(),
            "-170141183460469231731687303715884105728");
  DataType map = DataType::Map(Varchar(), Int());
  Value entry = Value::Nested(map.children[0].type, {Value::Varchar("k"), Value::Int(Int(), 1)});
  EXPECT_EQ(Value::Nested(map, {entry}).ToString(), "{'k'=1}");
  DataType list = DataType::List(Int());
  EXPECT_EQ(Value::Nested(list, {Value::Int(Int(), 1), Value::Null(Int())}).ToString(), "[1, NULL]");
  EXPECT_EQ(Value::Double(f64, -nan).ToString(), "-nan");
  EXPECT_EQ(Value::Double(f64, -0.0).ToString(), "-0.0");
  EXPECT_EQ(Value::Double(f64, 1e20).ToString(), "1e+20");
  EXPECT_EQ(Value::Double(DataType(TypeId::kFloat32), 0.1f).ToString(), "0.1");
}

}  // namespace
}  // namespace tarn
