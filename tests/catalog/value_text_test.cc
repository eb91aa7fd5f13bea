// Statistics/literal text decoding, storage-form conversion, and the SQLite store itself.
// The round trips format random values with tarn's DuckDB-exact text formatter and check the
// catalog parser returns the same value.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>

#include "catalog/value_text.h"
#include "format/scalar_text.h"
#include "support/test_util.h"
#include "tarn/catalog.h"

namespace tarn {
namespace {

using testing::TempDir;

Value Stats(std::string_view text, const DataType& type) {
  Result<Value> value = DecodeStatsValue(text, type);
  EXPECT_TRUE(value.ok()) << text << ": " << value.status().ToString();
  return value.ok() ? *value : Value();
}

TEST(StatsTextTest, DecodesEveryStatsType) {
  EXPECT_EQ(Stats("1", DataType(TypeId::kBoolean)), Value::Boolean(true));
  EXPECT_EQ(Stats("false", DataType(TypeId::kBoolean)), Value::Boolean(false));
  EXPECT_EQ(Stats("-128", DataType(TypeId::kInt8)), Value::Int(DataType(TypeId::kInt8), -128));
  EXPECT_EQ(Stats("-9223372036854775808", DataType(TypeId::kInt64)),
            Value::Int64(std::numeric_limits<int64_t>::min()));
  EXPECT_EQ(Stats("18446744073709551615", DataType(TypeId::kUInt64)),
            Value::UInt(DataType(TypeId::kUInt64), std::numeric_limits<uint64_t>::max()));
  EXPECT_EQ(Stats("inf", DataType(TypeId::kFloat64)), Value::Float64(INFINITY));
  EXPECT_EQ(Stats("-inf", DataType(TypeId::kFloat32)),
            Value::Double(DataType(TypeId::kFloat32), -INFINITY));
  Value nan = Stats("nan", DataType(TypeId::kFloat64));
  EXPECT_TRUE(std::isnan(nan.GetDouble()));
  EXPECT_TRUE(std::signbit(Stats("-0.0", DataType(TypeId::kFloat64)).GetDouble()));
  EXPECT_EQ(Stats("1e+20", DataType(TypeId::kFloat64)), Value::Float64(1e20));
  EXPECT_EQ(Stats("-12.50", DataType::Decimal(5, 2)), Value::Int128(DataType::Decimal(5, 2), -1250));
  EXPECT_EQ(Stats(".5", DataType::Decimal(3, 3)), Value::Int128(DataType::Decimal(3, 3), 500));
  EXPECT_EQ(Stats("infinity", DataType(TypeId::kDate)),
            Value::Int(DataType(TypeId::kDate), std::numeric_limits<int32_t>::max()));
  EXPECT_EQ(Stats("0001-12-31 (BC)", DataType(TypeId::kDate)),
            Value::Int(DataType(TypeId::kDate), catalog_internal::DaysFromCivil(0, 12, 31)));
  EXPECT_EQ(Stats("1970-01-01 00:00:01.5", DataType(TypeId::kTimestamp)),
            Value::Int(DataType(TypeId::kTimestamp), 1500000));
  EXPECT_EQ(Stats("1970-01-01 00:00:01.123456789", DataType(TypeId::kTimestampNs)),
            Value::Int(DataType(TypeId::kTimestampNs), 1123456789));
  EXPECT_EQ(Stats("1970-01-01 00:00:01.123", DataType(TypeId::kTimestampMs)),
            Value::Int(DataType(TypeId::kTimestampMs), 1123));
  EXPECT_EQ(Stats("1970-01-01 00:01:00", DataType(TypeId::kTimestampS)),
            Value::Int(DataType(TypeId::kTimestampS), 60));
  EXPECT_EQ(Stats("1970-01-01 02:00:00+02", DataType(TypeId::kTimestampTz)),
            Value::Int(DataType(TypeId::kTimestampTz), 0));
  EXPECT_EQ(Stats("-infinity", DataType(TypeId::kTimestamp)),
            Value::Int(DataType(TypeId::kTimestamp), -std::numeric_limits<int64_t>::max()));
  EXPECT_EQ(Stats("24:00:00", DataType(TypeId::kTime)),
            Value::Int(DataType(TypeId::kTime), 86400LL * 1000000));
  EXPECT_EQ(Stats("00:00:00.000000001", DataType(TypeId::kTimeNs)),
            Value::Int(DataType(TypeId::kTimeNs), 1));
  EXPECT_EQ(Stats("00FF", DataType(TypeId::kBlob)),
            Value::Bytes(DataType(TypeId::kBlob), std::string("\x00\xff", 2)));
  EXPECT_EQ(Stats("", DataType(TypeId::kVarchar)), Value::Varchar(""));
}

TEST(StatsTextTest, RejectsMalformedText) {
  struct Bad {
    const char* text;
    DataType type;
  };
  const Bad kBad[] = {
      {"2", DataType(TypeId::kBoolean)},
      {"128", DataType(TypeId::kInt8)},
      {"9223372036854775808", DataType(TypeId::kInt64)},
      {"-1", DataType(TypeId::kUInt32)},
      {"12a", DataType(TypeId::kInt32)},
      {" 1", DataType(TypeId::kInt32)},
      {"", DataType(TypeId::kInt64)},
      {"0x10", DataType(TypeId::kFloat64)},
      {"1.2.3e", DataType(TypeId::kFloat64)},
      {"123.45", DataType::Decimal(4, 2)},
      {"1.234", DataType::Decimal(5, 2)},
      {"2023-02-29", DataType(TypeId::kDate)},
      {"2023-13-01", DataType(TypeId::kDate)},
      {"2023-01-01 25:00:00", DataType(TypeId::kTimestamp)},
      {"2023-01-01 10:00:00+2x", DataType(TypeId::kTimestampTz)},
      {"24:00:01", DataType(TypeId::kTime)},
      {"0G", DataType(TypeId::kBlob)},
      {"ABC", DataType(TypeId::kBlob)},
      {"0004d0b5-9e19-461f-f126-e3a08a814c3", DataType(TypeId::kUuid)},
      {"0004d0b59-e19-461f-f126-e3a08a814c33", DataType(TypeId::kUuid)},
      {"1", DataType(TypeId::kInt128)},
      {"1", DataType(TypeId::kInterval)},
      {"x", DataType::List(DataType(TypeId::kInt32))},
  };
  for (const Bad& bad : kBad) {
    Result<Value> value = DecodeStatsValue(bad.text, bad.type);
    EXPECT_FALSE(value.ok()) << "'" << bad.text << "' as " << bad.type.ToString();
    if (!value.ok()) {
      EXPECT_EQ(value.status().code(), StatusCode::kInvalidArgument);
    }
  }
}

TEST(StatsTextTest, RandomRoundTripsThroughDuckDBText) {
  std::mt19937_64 rng(20260801);
  for (int i = 0; i < 20000; ++i) {
    int64_t v = static_cast<int64_t>(rng());
    std::string text;
    format::AppendInt64(v, &text);
    EXPECT_EQ(Stats(text, DataType(TypeId::kInt64)), Value::Int64(v));

    double d;
    uint64_t bits = rng();
    std::memcpy(&d, &bits, sizeof(d));
    if (!std::isnan(d)) {
      text.clear();
      format::AppendDouble(d, &text);
      EXPECT_EQ(Stats(text, DataType(TypeId::kFloat64)), Value::Float64(d)) << text;
    }
    // Dates within DuckDB's printable range, BC included.
    int32_t days = static_cast<int32_t>(static_cast<int64_t>(rng() % 2000000) - 1000000);
    text.clear();
    format::AppendDate(days, &text);
    EXPECT_EQ(Stats(text, DataType(TypeId::kDate)), Value::Int(DataType(TypeId::kDate), days))
        << text;
    // Timestamps (micros) in years 1..9999, printed with +00 as for TIMESTAMPTZ.
    int64_t micros = static_cast<int64_t>(rng() % 315537897600000000ULL) - 62135596800000000LL;
    text.clear();
    format::AppendTimestamp(micros, 1000000, /*utc_suffix=*/true, &text);
    EXPECT_EQ(Stats(text, DataType(TypeId::kTimestampTz)),
              Value::Int(DataType(TypeId::kTimestampTz), micros))
        << text;
    int64_t nanos_of_day = static_cast<int64_t>(rng() % (86400ULL * 1000000000ULL));
    text.clear();
    format::AppendTimeOfDay(nanos_of_day, 1000000000, &text);
    EXPECT_EQ(Stats(text, DataType(TypeId::kTimeNs)),
              Value::Int(DataType(TypeId::kTimeNs), nanos_of_day))
        << text;
    __int128 unscaled = static_cast<__int128>(static_cast<int64_t>(rng())) % 1000000000000000000LL;
    text.clear();
    format::AppendDecimal(unscaled, 18, 6, &text);
    EXPECT_EQ(Stats(text, DataType::Decimal(18, 6)), Value::Int128(DataType::Decimal(18, 6), unscaled))
        << text;
    std::string uuid(16, '\0');
    for (char& c : uuid) c = static_cast<char>(rng());
    text.clear();
    format::AppendUuid(uuid, &text);
    EXPECT_EQ(Stats(text, DataType(TypeId::kUuid)), Value::Bytes(DataType(TypeId::kUuid), uuid));
    // A blob literal in DuckDB's escaped spelling.
    std::string blob(rng() % 8, '\0');
    for (char& c : blob) c = static_cast<char>(rng());
    text.clear();
    format::AppendBlob(blob, &text);
    auto literal = catalog_internal::DecodeLiteralValue(text, DataType(TypeId::kBlob));
    ASSERT_TRUE(literal.ok()) << text;
    EXPECT_EQ(*literal, Value::Bytes(DataType(TypeId::kBlob), blob));
  }
}

TEST(CatalogDatumTest, ConvertsStorageFormsToDeclaredTypes) {
  auto convert = [](const CatalogDatum& d, CatalogType t) { return ConvertCatalogDatum(d, t); };
  EXPECT_EQ(convert(CatalogDatum::Text("42"), CatalogType::kBigint)->integer(), 42);
  EXPECT_EQ(convert(CatalogDatum::Real(42.0), CatalogType::kBigint)->integer(), 42);
  EXPECT_FALSE(convert(CatalogDatum::Real(42.5), CatalogType::kBigint).ok());
  EXPECT_FALSE(convert(CatalogDatum::Real(9.3e18), CatalogType::kBigint).ok());
  EXPECT_FALSE(convert(CatalogDatum::Text("4 2"), CatalogType::kBigint).ok());
  EXPECT_FALSE(convert(CatalogDatum::Blob("42"), CatalogType::kBigint).ok());
  EXPECT_EQ(convert(CatalogDatum::Text("true"), CatalogType::kBoolean)->integer(), 1);
  EXPECT_EQ(convert(CatalogDatum::Text("F"), CatalogType::kBoolean)->integer(), 0);
  EXPECT_EQ(convert(CatalogDatum::Integer(1), CatalogType::kBoolean)->integer(), 1);
  EXPECT_FALSE(convert(CatalogDatum::Integer(2), CatalogType::kBoolean).ok());
  EXPECT_EQ(convert(CatalogDatum::Integer(7), CatalogType::kVarchar)->bytes(), "7");
  EXPECT_EQ(convert(CatalogDatum::Blob("ab"), CatalogType::kVarchar)->bytes(), "ab");
  EXPECT_EQ(convert(CatalogDatum::Text("2.5"), CatalogType::kDouble)->real(), 2.5);
  EXPECT_TRUE(convert(CatalogDatum::Null(), CatalogType::kBigint)->is_null());
  Result<CatalogDatum> bad = convert(CatalogDatum::Text("abc"), CatalogType::kBigint);
  EXPECT_EQ(bad.status().message(), "'abc' is not a BIGINT");
}

TEST(SqliteCatalogStoreTest, QueriesTransactionsAndConflicts) {
  TempDir dir;
  std::string path = dir.Join("store.sqlite");
  std::ofstream(path).close();
  auto opened = OpenSqliteCatalogStore(path, false);
  ASSERT_TRUE(opened.ok());
  CatalogStore& store = **opened;
  EXPECT_EQ(store.backend(), "sqlite");
  ASSERT_TRUE(store.Execute("CREATE TABLE s (id BIGINT PRIMARY KEY, v VARCHAR, flag BOOLEAN)", {}).ok());
  std::vector<CatalogDatum> row = {CatalogDatum::Integer(1), CatalogDatum::Text("one"),
                                   CatalogDatum::Text("true")};
  EXPECT_EQ(*store.Execute("INSERT INTO s VALUES (?1, ?2, ?3)", row), 1);
  // The same primary key again is the race a commit loses: Conflict.
  Result<int64_t> again = store.Execute("INSERT INTO s VALUES (?1, ?2, ?3)", row);
  EXPECT_EQ(again.status().code(), StatusCode::kConflict) << again.status().ToString();
  // A rolled-back write leaves nothing.
  ASSERT_TRUE(store.Begin(CatalogTransactionMode::kWrite).ok());
  EXPECT_TRUE(store.in_transaction());
  ASSERT_TRUE(store.Execute("INSERT INTO s VALUES (2, 'two', 0)", {}).ok());
  ASSERT_TRUE(store.Rollback().ok());
  EXPECT_FALSE(store.in_transaction());
  CatalogQuery query;
  query.sql = "SELECT id, v, flag, '17' FROM s WHERE id >= ?1";
  query.params = {CatalogDatum::Integer(0)};
  query.result_types = {CatalogType::kBigint, CatalogType::kVarchar, CatalogType::kBoolean,
                        CatalogType::kBigint};
  query.what = "s";
  auto result = store.Query(query);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  ASSERT_EQ(result->rows.size(), 1u);
  EXPECT_EQ(result->column_names[1], "v");
  EXPECT_EQ(result->rows[0][2].integer(), 1);  // stored as the text 'true'
  EXPECT_EQ(result->rows[0][3].integer(), 17);
  query.result_types[1] = CatalogType::kBigint;
  auto bad = store.Query(query);
  ASSERT_TRUE(bad.status().IsCorruption());
  EXPECT_EQ(bad.status().message(),
            StrCat("SQLite catalog '", path, "': s row 1 (id = 1), column v: 'one' is not a BIGINT"));
  EXPECT_EQ(store.Query({"SELEC 1", {}, {}, "x"}).status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(*store.TableExists("s"), true);
  EXPECT_EQ(*store.TableExists("t"), false);
  EXPECT_EQ(*store.TableColumns("s"), (std::vector<std::string>{"id", "v", "flag"}));
  EXPECT_TRUE(store.TableColumns("t").status().IsNotFound());

  auto read_only = OpenSqliteCatalogStore(path, true);
  ASSERT_TRUE(read_only.ok());
  EXPECT_FALSE((*read_only)->Execute("DELETE FROM s", {}).ok());
}

}  // namespace
}  // namespace tarn
