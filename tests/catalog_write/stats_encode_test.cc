// EncodeStatsValue / EncodeDefaultLiteral: round trips through the decoders over every type
// with statistics (random values and edge values), the exact text the extension wrote in every
// fixture catalog, and the refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "catalog/value_text.h"
#include "write_test_util.h"

namespace tarn {
namespace {

using testing::FixtureCatalog;
using testing::QueryRows;

void ExpectRoundTrip(const Value& value) {
  auto text = EncodeStatsValue(value, value.type());
  ASSERT_TRUE(text.ok()) << value.ToString() << ": " << text.status().ToString();
  auto back = DecodeStatsValue(*text, value.type());
  ASSERT_TRUE(back.ok()) << *text << ": " << back.status().ToString();
  EXPECT_EQ(*back, value) << "text '" << *text << "' of " << value.type().ToString();
}

TEST(StatsEncodeTest, RandomRoundTripsOverEveryType) {
  std::mt19937_64 rng(20261130);
  auto bits = [&] { return rng(); };
  const int kCount = 2000;
  for (int i = 0; i < kCount; ++i) {
    const int64_t r = static_cast<int64_t>(bits());
    ExpectRoundTrip(Value::Boolean(r & 1));
    ExpectRoundTrip(Value::Int(DataType(TypeId::kInt8), static_cast<int8_t>(r)));
    ExpectRoundTrip(Value::Int(DataType(TypeId::kInt16), static_cast<int16_t>(r)));
    ExpectRoundTrip(Value::Int(DataType(TypeId::kInt32), static_cast<int32_t>(r)));
    ExpectRoundTrip(Value::Int(DataType(TypeId::kInt64), r));
    ExpectRoundTrip(Value::UInt(DataType(TypeId::kUInt8), static_cast<uint8_t>(r)));
    ExpectRoundTrip(Value::UInt(DataType(TypeId::kUInt16), static_cast<uint16_t>(r)));
    ExpectRoundTrip(Value::UInt(DataType(TypeId::kUInt32), static_cast<uint32_t>(r)));
    ExpectRoundTrip(Value::UInt(DataType(TypeId::kUInt64), static_cast<uint64_t>(r)));
    // Doubles from random bit patterns (any exponent), NaN skipped.
    uint64_t raw = bits();
    double d = 0;
    std::memcpy(&d, &raw, 8);
    if (!std::isnan(d)) ExpectRoundTrip(Value::Double(DataType(TypeId::kFloat64), d));
    uint32_t raw32 = static_cast<uint32_t>(bits());
    float f = 0;
    std::memcpy(&f, &raw32, 4);
    if (!std::isnan(f)) ExpectRoundTrip(Value::Double(DataType(TypeId::kFloat32), f));
    // Decimals of several widths, the unscaled value within the precision.
    for (auto [p, s] : {std::pair{4, 0}, {9, 3}, {18, 18}, {12, 3}, {30, 5}, {38, 10}}) {
      __int128 limit = 1;
      for (int k = 0; k < p; ++k) limit *= 10;
      __int128 v = ((static_cast<__int128>(bits()) << 64) | bits()) % limit;
      if (r & 2) v = -v;
      ExpectRoundTrip(Value::Int128(DataType::Decimal(p, s), v));
    }
    // Dates within 5877642 BC .. 5881580 AD (DuckDB's range), times, timestamps.
    ExpectRoundTrip(Value::Int(DataType(TypeId::kDate), static_cast<int32_t>(r % 2000000000)));
    ExpectRoundTrip(Value::Int(DataType(TypeId::kTime), static_cast<int64_t>(bits() % 86400000000ULL)));
    ExpectRoundTrip(
        Value::Int(DataType(TypeId::kTimeNs), static_cast<int64_t>(bits() % 86400000000000ULL)));
    const int64_t micros = r % (int64_t{9000} * 365 * 86400 * 1000000);  // ±9000 years
    ExpectRoundTrip(Value::Int(DataType(TypeId::kTimestamp), micros));
    ExpectRoundTrip(Value::Int(DataType(TypeId::kTimestampTz), micros));
    ExpectRoundTrip(Value::Int(DataType(TypeId::kTimestampS), micros / 1000000));
    ExpectRoundTrip(Value::Int(DataType(TypeId::kTimestampMs), micros / 1000));
    ExpectRoundTrip(Value::Int(DataType(TypeId::kTimestampNs), r));
    std::string uuid(16, '\0'), blob(static_cast<size_t>(bits() % 20), '\0'), text;
    for (char& c : uuid) c = static_cast<char>(bits());
    for (char& c : blob) c = static_cast<char>(bits());
    for (int k = 0; k < static_cast<int>(bits() % 12); ++k) text.push_back(static_cast<char>('a' + bits() % 26));
    ExpectRoundTrip(Value::Bytes(DataType(TypeId::kUuid), uuid));
    ExpectRoundTrip(Value::Bytes(DataType(TypeId::kBlob), blob));
    ExpectRoundTrip(Value::Bytes(DataType(TypeId::kVarchar), text));
    ExpectRoundTrip(Value::Bytes(DataType(TypeId::kJson), "{\"a\": " + text + "}"));
  }
}

TEST(StatsEncodeTest, EdgeValuesAndExactText) {
  const double inf = std::numeric_limits<double>::infinity();
  struct Case {
    Value value;
    const char* text;
  };
  const Case cases[] = {
      {Value::Boolean(false), "0"},
      {Value::Boolean(true), "1"},
      {Value::Int(DataType(TypeId::kInt64), std::numeric_limits<int64_t>::min()),
       "-9223372036854775808"},
      {Value::UInt(DataType(TypeId::kUInt64), std::numeric_limits<uint64_t>::max()),
       "18446744073709551615"},
      {Value::Double(DataType(TypeId::kFloat64), inf), "inf"},
      {Value::Double(DataType(TypeId::kFloat64), -inf), "-inf"},
      {Value::Double(DataType(TypeId::kFloat64), -0.0), "-0.0"},
      {Value::Double(DataType(TypeId::kFloat64), 0.0), "0.0"},
      {Value::Double(DataType(TypeId::kFloat64), 5000.0 / 3.0), "1666.6666666666667"},
      {Value::Double(DataType(TypeId::kFloat32), static_cast<float>(5000.0 / 7.0)), "714.2857"},
      {Value::Double(DataType(TypeId::kFloat32), -inf), "-inf"},
      {Value::Double(DataType(TypeId::kFloat64), -1.7976931348623157e308),
       "-1.7976931348623157e+308"},
      {Value::Int128(DataType::Decimal(12, 3), 0), "0.000"},
      {Value::Int128(DataType::Decimal(12, 3), -7498500), "-7498.500"},
      {Value::Int128(DataType::Decimal(38, 0), (static_cast<__int128>(1) << 100)),
       "1267650600228229401496703205376"},
      {Value::Int(DataType(TypeId::kDate), 18262), "2020-01-01"},
      {Value::Int(DataType(TypeId::kDate), std::numeric_limits<int32_t>::max()), "infinity"},
      {Value::Int(DataType(TypeId::kDate), -std::numeric_limits<int32_t>::max()), "-infinity"},
      {Value::Int(DataType(TypeId::kDate), -719163), "0001-12-31 (BC)"},
      {Value::Int(DataType(TypeId::kTime), 5000000000), "01:23:20"},
      {Value::Int(DataType(TypeId::kTimestamp), 1622505600000000), "2021-06-01 00:00:00"},
      {Value::Int(DataType(TypeId::kTimestamp), 1622505600000001), "2021-06-01 00:00:00.000001"},
      {Value::Int(DataType(TypeId::kTimestampTz), 1640995200000000), "2022-01-01 00:00:00+00"},
      {Value::Int(DataType(TypeId::kTimestampTz), std::numeric_limits<int64_t>::max()),
       "infinity"},
      {Value::Int(DataType(TypeId::kTimestamp), -std::numeric_limits<int64_t>::max()),
       "-infinity"},
      {Value::Int(DataType(TypeId::kTimestampNs), 1), "1970-01-01 00:00:00.000000001"},
      {Value::Bytes(DataType(TypeId::kBlob), "blob0"), "626C6F6230"},
      {Value::Bytes(DataType(TypeId::kBlob), std::string("\x00\xff", 2)), "00FF"},
      {Value::Bytes(DataType(TypeId::kBlob), ""), ""},
      {Value::Bytes(DataType(TypeId::kVarchar), ""), ""},
      {Value::Bytes(DataType(TypeId::kVarchar), "str_96"), "str_96"},
  };
  for (const Case& c : cases) {
    auto text = EncodeStatsValue(c.value, c.value.type());
    ASSERT_TRUE(text.ok()) << c.value.ToString() << ": " << text.status().ToString();
    EXPECT_EQ(*text, c.text) << c.value.type().ToString();
    ExpectRoundTrip(c.value);
  }
  std::string uuid_bytes;
  ASSERT_TRUE(catalog_internal::ParseUuidText("0004d0b5-9e19-461f-f126-e3a08a814c33", &uuid_bytes));
  EXPECT_EQ(*EncodeStatsValue(Value::Bytes(DataType(TypeId::kUuid), uuid_bytes),
                              DataType(TypeId::kUuid)),
            "0004d0b5-9e19-461f-f126-e3a08a814c33");
}

TEST(StatsEncodeTest, Refusals) {
  auto expect_invalid = [](const Value& v, const DataType& type, std::string_view needle) {
    auto text = EncodeStatsValue(v, type);
    ASSERT_FALSE(text.ok()) << v.ToString();
    EXPECT_EQ(text.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(text.status().message().find(needle), std::string::npos)
        << text.status().message();
  };
  expect_invalid(Value::Double(DataType(TypeId::kFloat64), std::nan("")), DataType(TypeId::kFloat64),
                 "NaN");
  expect_invalid(Value::Null(DataType(TypeId::kInt32)), DataType(TypeId::kInt32), "NULL");
  expect_invalid(Value::Int128(DataType(TypeId::kInt128), 5), DataType(TypeId::kInt128),
                 "no statistics");
  expect_invalid(Value::MakeInterval({1, 2, 3}), DataType(TypeId::kInterval), "no statistics");
  expect_invalid(Value::Int(DataType(TypeId::kInt32), 5), DataType(TypeId::kInt64), "given for");
  expect_invalid(Value::Int128(DataType::Decimal(10, 2), 5), DataType::Decimal(10, 3),
                 "given for");
}

// Every min/max the extension wrote into the fixture catalogs re-encodes to the same text from
// its decoded value (the text is DuckDB's own: a differential check against DuckDB).
TEST(StatsEncodeTest, FixtureStatisticsReencodeExactly) {
  int checked = 0;
  for (const char* fixture : {"basic", "compacted", "evolution", "inlined", "nan", "nested"}) {
    const std::string db = FixtureCatalog(fixture);
    ASSERT_TRUE(testing::FileExists(db));
    auto rows = QueryRows(
        db,
        "SELECT c.column_type, s.min_value, s.max_value FROM ducklake_file_column_stats s "
        "JOIN ducklake_data_file f ON f.data_file_id = s.data_file_id JOIN ducklake_column c "
        "ON c.table_id = s.table_id AND c.column_id = s.column_id AND c.begin_snapshot <= "
        "f.begin_snapshot AND (c.end_snapshot IS NULL OR c.end_snapshot > f.begin_snapshot) "
        "UNION ALL SELECT c.column_type, s.min_value, s.max_value FROM "
        "ducklake_table_column_stats s JOIN ducklake_column c ON c.table_id = s.table_id AND "
        "c.column_id = s.column_id AND c.end_snapshot IS NULL");
    ASSERT_FALSE(rows.empty()) << fixture;
    for (const auto& row : rows) {
      std::string type_name = row[0].substr(1, row[0].size() - 2);
      auto type = ParseDuckLakeType(type_name);
      if (!type.ok()) continue;  // nested parents
      for (int side = 1; side <= 2; ++side) {
        if (row[side] == "NULL") continue;
        std::string text = row[side].substr(1, row[side].size() - 2);
        auto value = DecodeStatsValue(text, *type);
        ASSERT_TRUE(value.ok()) << fixture << " " << type_name << " '" << text << "'";
        auto again = EncodeStatsValue(*value, *type);
        ASSERT_TRUE(again.ok()) << again.status().ToString();
        EXPECT_EQ(*again, text) << fixture << " " << type_name;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(StatsEncodeTest, DefaultLiterals) {
  EXPECT_EQ(*EncodeDefaultLiteral(Value::Null(DataType(TypeId::kInt32))), std::nullopt);
  EXPECT_EQ(*EncodeDefaultLiteral(Value::Int(DataType(TypeId::kInt64), 42)), "42");
  EXPECT_EQ(*EncodeDefaultLiteral(Value::Varchar("abc")), "abc");
  EXPECT_EQ(*EncodeDefaultLiteral(Value::Int(DataType(TypeId::kDate), 18262)), "2020-01-01");
  EXPECT_EQ(*EncodeDefaultLiteral(Value::Boolean(true)), "true");
  EXPECT_EQ(*EncodeDefaultLiteral(Value::Int128(DataType::Decimal(5, 2), -150)), "-1.50");
  // Round trip through the literal decoder for every primitive type.
  std::mt19937_64 rng(7);
  for (int i = 0; i < 500; ++i) {
    const int64_t r = static_cast<int64_t>(rng());
    std::string blob(static_cast<size_t>(rng() % 8), '\0');
    for (char& c : blob) c = static_cast<char>(rng());
    const Value values[] = {
        Value::Int(DataType(TypeId::kInt32), static_cast<int32_t>(r)),
        Value::UInt(DataType(TypeId::kUInt64), static_cast<uint64_t>(r)),
        Value::Double(DataType(TypeId::kFloat64), static_cast<double>(r) / 7.0),
        Value::Int128(DataType::Decimal(18, 4), r % 1000000000000000000),
        Value::Int(DataType(TypeId::kTimestampTz), r % (int64_t{4000} * 365 * 86400000000)),
        Value::Int(DataType(TypeId::kTime), static_cast<int64_t>(static_cast<uint64_t>(r) % 86400000000ULL)),
        Value::Bytes(DataType(TypeId::kBlob), blob),
        Value::Boolean(r & 1),
    };
    for (const Value& v : values) {
      auto text = EncodeDefaultLiteral(v);
      ASSERT_TRUE(text.ok() && text->has_value()) << v.ToString();
      auto back = catalog_internal::DecodeLiteralValue(**text, v.type());
      ASSERT_TRUE(back.ok()) << **text << ": " << back.status().ToString();
      EXPECT_EQ(*back, v) << **text;
    }
  }
}

}  // namespace
}  // namespace tarn
