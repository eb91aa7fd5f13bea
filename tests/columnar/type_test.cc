#include <gtest/gtest.h>

#include <random>

#include "support/random_data.h"
#include "tarn/type.h"

namespace tarn {
namespace {

DataType Int() { return DataType(TypeId::kInt32); }
DataType Varchar() { return DataType(TypeId::kVarchar); }

TEST(TypeTest, DuckDbSpelling) {
  const std::pair<DataType, const char*> cases[] = {
      {DataType(TypeId::kBoolean), "BOOLEAN"},
      {DataType(TypeId::kInt8), "TINYINT"},
      {DataType(TypeId::kInt16), "SMALLINT"},
      {Int(), "INTEGER"},
      {DataType(TypeId::kInt64), "BIGINT"},
      {DataType(TypeId::kInt128), "HUGEINT"},
      {DataType(TypeId::kUInt8), "UTINYINT"},
      {DataType(TypeId::kUInt16), "USMALLINT"},
      {DataType(TypeId::kUInt32), "UINTEGER"},
      {DataType(TypeId::kUInt64), "UBIGINT"},
      {DataType(TypeId::kUInt128), "UHUGEINT"},
      {DataType(TypeId::kFloat32), "FLOAT"},
      {DataType(TypeId::kFloat64), "DOUBLE"},
      {DataType::Decimal(18, 3), "DECIMAL(18,3)"},
      {DataType(TypeId::kDate), "DATE"},
      {DataType(TypeId::kTime), "TIME"},
      {DataType(TypeId::kTimeNs), "TIME_NS"},
      {DataType(TypeId::kTimeTz), "TIME WITH TIME ZONE"},
      {DataType(TypeId::kTimestamp), "TIMESTAMP"},
      {DataType(TypeId::kTimestampS), "TIMESTAMP_S"},
      {DataType(TypeId::kTimestampMs), "TIMESTAMP_MS"},
      {DataType(TypeId::kTimestampNs), "TIMESTAMP_NS"},
      {DataType(TypeId::kTimestampTz), "TIMESTAMP WITH TIME ZONE"},
      {DataType(TypeId::kInterval), "INTERVAL"},
      {Varchar(), "VARCHAR"},
      {DataType(TypeId::kBlob), "BLOB"},
      {DataType(TypeId::kUuid), "UUID"},
      {DataType(TypeId::kJson), "JSON"},
      {DataType(TypeId::kVariant), "VARIANT"},
      {DataType(TypeId::kGeometry), "GEOMETRY"},
      {DataType::Struct({Field("a", Int()), Field("b", Varchar())}), "STRUCT(a INTEGER, b VARCHAR)"},
      {DataType::Struct({Field("B c", Int())}), "STRUCT(\"B c\" INTEGER)"},
      {DataType::List(Int()), "INTEGER[]"},
      {DataType::List(DataType::List(Int())), "INTEGER[][]"},
      {DataType::Map(Varchar(), Int()), "MAP(VARCHAR, INTEGER)"},
      {DataType::Struct({Field("s", DataType::List(Varchar()))}), "STRUCT(s VARCHAR[])"},
  };
  for (const auto& [type, text] : cases) EXPECT_EQ(type.ToString(), text);
}

TEST(TypeTest, Classification) {
  EXPECT_TRUE(DataType(TypeId::kUInt128).IsInteger());
  EXPECT_FALSE(DataType::Decimal(9, 2).IsInteger());
  EXPECT_TRUE(DataType::Decimal(9, 2).IsNumeric());
  EXPECT_TRUE(DataType(TypeId::kInterval).IsTemporal());
  EXPECT_FALSE(DataType(TypeId::kInt64).IsTemporal());
  EXPECT_TRUE(DataType(TypeId::kGeometry).IsVarLength());
  EXPECT_FALSE(DataType(TypeId::kUuid).IsVarLength());
  EXPECT_EQ(DataType(TypeId::kBoolean).FixedWidth(), 0);
  EXPECT_EQ(DataType(TypeId::kDate).FixedWidth(), 4);
  EXPECT_EQ(DataType(TypeId::kTimestampNs).FixedWidth(), 8);
  EXPECT_EQ(DataType(TypeId::kInterval).FixedWidth(), 16);
  EXPECT_EQ(DataType(TypeId::kUuid).FixedWidth(), 16);
  EXPECT_EQ(DataType::Decimal(4, 1).FixedWidth(), 16);
  EXPECT_EQ(Varchar().FixedWidth(), 0);
  EXPECT_EQ(DataType::List(Int()).FixedWidth(), 0);
}

TEST(TypeTest, Factories) {
  DataType map = DataType::Map(Varchar(), Int());
  ASSERT_EQ(map.children.size(), 1u);
  EXPECT_EQ(map.children[0].name, "key_value");
  const DataType& entry = map.children[0].type;
  ASSERT_EQ(entry.id, TypeId::kStruct);
  EXPECT_EQ(entry.children[0].name, "key");
  EXPECT_FALSE(entry.children[0].nullable);
  EXPECT_EQ(entry.children[1].name, "value");
  EXPECT_TRUE(entry.children[1].nullable);
  DataType list = DataType::List(Field("whatever", Int(), false));
  EXPECT_EQ(list.children[0].name, "element");
  EXPECT_FALSE(list.children[0].nullable);
}

TEST(TypeTest, Equality) {
  EXPECT_EQ(DataType::Decimal(18, 3), DataType::Decimal(18, 3));
  EXPECT_NE(DataType::Decimal(18, 3), DataType::Decimal(18, 2));
  EXPECT_NE(DataType::Decimal(18, 3), DataType::Decimal(17, 3));
  EXPECT_NE(DataType::List(Int()), DataType::List(Varchar()));
  EXPECT_NE(DataType::Struct({Field("a", Int())}), DataType::Struct({Field("b", Int())}));
  EXPECT_NE(Field("a", Int(), true), Field("a", Int(), false));
  EXPECT_NE(Field("a", Int(), true, 1), Field("a", Int(), true, 2));
  EXPECT_EQ(Field("a", Int(), true, 1), Field("a", Int(), true, 1));
}

TEST(TypeTest, DuckLakeNamesRoundTrip) {
  std::mt19937_64 rng(7);
  for (int iteration = 0; iteration < 500; ++iteration) {
    DataType type = testing::RandomType(rng, 0);
    std::string name = type.ToDuckLakeName();
    Result<DataType> parsed = ParseDuckLakeType(name);
    ASSERT_TRUE(parsed.ok()) << name << ": " << parsed.status().ToString();
    EXPECT_EQ(*parsed, type) << name;
  }
  EXPECT_EQ(DataType::Decimal(38, 0).ToDuckLakeName(), "decimal(38,0)");
  EXPECT_EQ(DataType(TypeId::kTimestampTz).ToDuckLakeName(), "timestamptz");
  EXPECT_EQ(DataType::List(Int()).ToDuckLakeName(), "list");
  EXPECT_EQ(*ParseDuckLakeType("TIMESTAMP_US"), DataType(TypeId::kTimestamp));
  EXPECT_EQ(*ParseDuckLakeType("Int64"), DataType(TypeId::kInt64));
  EXPECT_EQ(ParseDuckLakeType("struct")->id, TypeId::kStruct);
  EXPECT_EQ(ParseDuckLakeType("enum").status().code(), StatusCode::kNotSupported);
  EXPECT_EQ(ParseDuckLakeType("unknown").status().code(), StatusCode::kNotSupported);
  EXPECT_EQ(ParseDuckLakeType("decimal(39,0)").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseDuckLakeType("decimal(5,6)").status().code(), StatusCode::kInvalidArgument);
  EXPECT_FALSE(ParseDuckLakeType("decimal(5)").ok());
  EXPECT_FALSE(ParseDuckLakeType("decimal(a,b)").ok());
}

TEST(TypeTest, SqlAliases) {
  const std::pair<const char*, DataType> cases[] = {
      {"INT", Int()}, {"int4", Int()}, {"INTEGER", Int()}, {"signed", Int()},
      {"BIGINT", DataType(TypeId::kInt64)}, {"INT8", DataType(TypeId::kInt64)},
      {"LONG", DataType(TypeId::kInt64)}, {"SMALLINT", DataType(TypeId::kInt16)},
      {"INT2", DataType(TypeId::kInt16)}, {"TINYINT", DataType(TypeId::kInt8)},
      {"INT1", DataType(TypeId::kInt8)}, {"HUGEINT", DataType(TypeId::kInt128)},
      {"UTINYINT", DataType(TypeId::kUInt8)}, {"USMALLINT", DataType(TypeId::kUInt16)},
      {"UINTEGER", DataType(TypeId::kUInt32)}, {"UBIGINT", DataType(TypeId::kUInt64)},
      {"UHUGEINT", DataType(TypeId::kUInt128)}, {"REAL", DataType(TypeId::kFloat32)},
      {"FLOAT4", DataType(TypeId::kFloat32)}, {"FLOAT", DataType(TypeId::kFloat32)},
      {"DOUBLE", DataType(TypeId::kFloat64)}, {"FLOAT8", DataType(TypeId::kFloat64)},
      {"double precision", DataType(TypeId::kFloat64)}, {"BOOL", DataType(TypeId::kBoolean)},
      {"boolean", DataType(TypeId::kBoolean)}, {"TEXT", Varchar()}, {"STRING", Varchar()},
      {"varchar(20)", Varchar()}, {"BYTEA", DataType(TypeId::kBlob)},
      {"BLOB", DataType(TypeId::kBlob)}, {"DECIMAL", DataType::Decimal(18, 3)},
      {"NUMERIC", DataType::Decimal(18, 3)}, {"DECIMAL(10,2)", DataType::Decimal(10, 2)},
      {"numeric ( 5 )", DataType::Decimal(5, 0)}, {"TIMESTAMPTZ", DataType(TypeId::kTimestampTz)},
      {"timestamp with time zone", DataType(TypeId::kTimestampTz)},
      {"TIME WITH TIME ZONE", DataType(TypeId::kTimeTz)}, {"TIMETZ", DataType(TypeId::kTimeTz)},
      {"TIMESTAMP", DataType(TypeId::kTimestamp)}, {"DATETIME", DataType(TypeId::kTimestamp)},
      {"TIMESTAMP_NS", DataType(TypeId::kTimestampNs)}, {"UUID", DataType(TypeId::kUuid)},
      {"JSON", DataType(TypeId::kJson)}, {"INTERVAL", DataType(TypeId::kInterval)},
      {"INT[]", DataType::List(Int())}, {"int [ ] [ ]", DataType::List(DataType::List(Int()))},
      {"STRUCT(a INT, b VARCHAR)", DataType::Struct({Field("a", Int()), Field("b", Varchar())})},
      {"struct(\"a \"\"b\"\"\" int)", DataType::Struct({Field("a \"b\"", Int())})},
      {"MAP(VARCHAR, INT)", DataType::Map(Varchar(), Int())},
      {"MAP(INT, STRUCT(x DOUBLE)[])",
       DataType::Map(Int(), DataType::List(DataType::Struct({Field("x", DataType(TypeId::kFloat64))})))},
  };
  for (const auto& [text, type] : cases) {
    Result<DataType> parsed = ParseSqlType(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status().ToString();
    EXPECT_EQ(*parsed, type) << text;
  }
}

TEST(TypeTest, SqlErrors) {
  for (const char* text : {"", "NOPE", "INT[3]", "STRUCT(a)", "STRUCT(a INT", "MAP(INT)",
                           "DECIMAL(40,1)", "DECIMAL(4,5)", "INT INT", "\"unterminated",
                           "TIMESTAMP WITH ZONE", "STRUCT()"}) {
    Result<DataType> parsed = ParseSqlType(text);
    EXPECT_FALSE(parsed.ok()) << text;
    if (!parsed.ok()) {
      EXPECT_EQ(parsed.status().code(), StatusCode::kInvalidArgument) << text;
    }
  }
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += "STRUCT(a ";
  EXPECT_FALSE(ParseSqlType(deep + "INT").ok());
}

// ParseSqlType(ToString()) gives back the type, up to what the SQL spelling does not carry
// (nullability and field ids).
void StripToSql(DataType* type, bool is_map_entry = false) {
  for (size_t child_idx = 0; child_idx < type->children.size(); ++child_idx) {
    Field& field = type->children[child_idx];
    field.field_id.reset();
    StripToSql(&field.type, type->id == TypeId::kMap);
    const bool fixed_not_null = type->id == TypeId::kMap || (is_map_entry && child_idx == 0);
    if (!fixed_not_null) field.nullable = true;
  }
}

TEST(TypeTest, SqlSpellingRoundTripsRandomTypes) {
  std::mt19937_64 rng(11);
  for (int iteration = 0; iteration < 1000; ++iteration) {
    DataType type = testing::RandomType(rng, 3);
    StripToSql(&type);
    Result<DataType> parsed = ParseSqlType(type.ToString());
    ASSERT_TRUE(parsed.ok()) << type.ToString() << ": " << parsed.status().ToString();
    EXPECT_EQ(*parsed, type) << type.ToString();
  }
}

TEST(TypeTest, SchemaFindFieldAndToString) {
  Schema schema({Field("id", DataType(TypeId::kInt64), false), Field("Name", Varchar())});
  EXPECT_EQ(schema.FindField("ID"), 0);
  EXPECT_EQ(schema.FindField("name"), 1);
  EXPECT_EQ(schema.FindField("nam"), -1);
  EXPECT_EQ(schema.ToString(), "(id BIGINT NOT NULL, \"Name\" VARCHAR)");  // NAME is a keyword
}

}  // namespace
}  // namespace tarn
