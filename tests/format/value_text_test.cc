// Differential tests: tarn's CSV and JSON text of random values of every type against DuckDB's
// `COPY ... TO` output for the same values.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "format/random_values.h"
#include "support/oracle.h"
#include "support/test_util.h"
#include "tarn/format.h"

namespace tarn {
namespace {

constexpr int kRows = 80;

// TARN_TEST_SEED overrides the fixed seed, to explore more values.
uint64_t Seed(uint64_t fixed) {
  const char* env = std::getenv("TARN_TEST_SEED");
  return env != nullptr ? std::strtoull(env, nullptr, 10) : fixed;
}

std::string FirstDifference(const std::string& expected, const std::string& actual,
                            const testing::RandomColumn* column) {
  std::istringstream e(expected);
  std::istringstream a(actual);
  std::string el;
  std::string al;
  for (int line = 1;; ++line) {
    bool he = static_cast<bool>(std::getline(e, el));
    bool ha = static_cast<bool>(std::getline(a, al));
    if (!he && !ha) return "(differs only in line ends)";
    if (he != ha || el != al) {
      std::string literal;
      if (column != nullptr && line >= 2 && line - 2 < static_cast<int>(column->literals.size())) {
        literal = "\n  literal: " + column->literals[static_cast<size_t>(line - 2)];
      }
      return StrCat("line ", line, "\n  duckdb: ", he ? el : "<end>", "\n  tarn:   ",
                    ha ? al : "<end>", literal);
    }
  }
}

std::string TarnCsv(const Batch& batch) {
  std::string csv;
  StringSink sink(&csv);
  CsvWriter writer(&sink);
  EXPECT_TRUE(writer.Write(batch).ok());
  return csv;
}

std::string TarnJson(const Batch& batch) {
  std::string json;
  StringSink sink(&json);
  JsonLinesWriter writer(&sink);
  EXPECT_TRUE(writer.Write(batch).ok());
  return json;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ValueTextTest, EveryTypeMatchesDuckDBCsv) {
  const uint64_t seed = Seed(20240611);
  std::mt19937_64 rng(seed);
  std::vector<testing::RandomColumn> columns = testing::MakeRandomColumns(rng, kRows);
  std::vector<std::string> queries;
  for (const auto& column : columns) queries.push_back(testing::ValuesQuery({&column}, kRows));
  // All columns in one query too: header, separators and quoting across columns.
  std::vector<const testing::RandomColumn*> all;
  for (const auto& column : columns) all.push_back(&column);
  queries.push_back(testing::ValuesQuery(all, kRows));

  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  for (size_t c = 0; c <= columns.size(); ++c) {
    const bool combined = c == columns.size();
    const std::string name = combined ? "all columns" : columns[c].name;
    ASSERT_TRUE(expected[c].ok()) << name << ": " << expected[c].status().ToString();
    std::shared_ptr<Batch> batch =
        testing::MakeBatchOf(combined ? all : std::vector<const testing::RandomColumn*>{&columns[c]});
    std::string actual = TarnCsv(*batch);
    EXPECT_EQ(*expected[c], actual) << name << " (seed " << seed << "): first difference at "
                                    << FirstDifference(*expected[c], actual,
                                                       combined ? nullptr : &columns[c]);
  }
}

TEST(ValueTextTest, EveryTypeMatchesDuckDBJson) {
  const uint64_t seed = Seed(777);
  std::mt19937_64 rng(seed);
  std::vector<testing::RandomColumn> columns = testing::MakeRandomColumns(rng, kRows);
  testing::TempDir dir;
  std::string sql = "SET TimeZone='UTC';";
  for (const auto& column : columns) {
    std::string query = testing::ValuesQuery({&column}, kRows);
    query = query.substr(query.find("SELECT"));
    sql += "COPY (" + query + ") TO '" + dir.Join(column.name + ".json") + "' (FORMAT JSON);";
  }
  ASSERT_TRUE(testing::DuckDBExecute(sql).ok());
  for (const auto& column : columns) {
    std::string expected = ReadAll(dir.Join(column.name + ".json"));
    std::string actual = TarnJson(*testing::MakeBatchOf({&column}));
    EXPECT_EQ(expected, actual) << column.name << " (seed " << seed << "): first difference at "
                                << FirstDifference("h\n" + expected, "h\n" + actual, &column);
  }
}

// Spellings checked against DuckDB by hand; these hold even where no oracle runs.
TEST(ValueTextTest, DoubleSpellings) {
  EXPECT_EQ(FormatDouble(1e20), "1e+20");
  EXPECT_EQ(FormatDouble(1.5e-7), "1.5e-07");
  EXPECT_EQ(FormatDouble(0.1), "0.1");
  EXPECT_EQ(FormatDouble(-0.0), "-0.0");
  EXPECT_EQ(FormatDouble(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(FormatDouble(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(FormatDouble(std::nan("")), "nan");
  EXPECT_EQ(FormatDouble(-std::nan("")), "-nan");
  EXPECT_EQ(FormatDouble(1e15), "1000000000000000.0");
  EXPECT_EQ(FormatDouble(1e16), "1e+16");
  EXPECT_EQ(FormatDouble(1e-4), "0.0001");
  EXPECT_EQ(FormatDouble(1e-5), "1e-05");
  EXPECT_EQ(FormatDouble(5e-324), "5e-324");
  EXPECT_EQ(FormatDouble(1.7976931348623157e308), "1.7976931348623157e+308");
  EXPECT_EQ(FormatFloat(0.1f), "0.1");
  EXPECT_EQ(FormatFloat(1.4e-45f), "1e-45");
  EXPECT_EQ(FormatFloat(16777216.0f), "16777216.0");
  EXPECT_EQ(FormatFloat(3.4028235e38f), "3.4028235e+38");
}

TEST(ValueTextTest, ScalarSpellings) {
  EXPECT_EQ(FormatValue(Value::Int128(DataType::Decimal(3, 3), -1)), "-.001");
  EXPECT_EQ(FormatValue(Value::Int128(DataType::Decimal(4, 3), 1)), "0.001");
  EXPECT_EQ(FormatValue(Value::Int128(DataType::Decimal(18, 6), 0)), "0.000000");
  EXPECT_EQ(FormatValue(Value::Int(DataType(TypeId::kDate), -719163)), "0001-12-31 (BC)");
  EXPECT_EQ(FormatValue(Value::Int(DataType(TypeId::kTime), 86400000000LL)), "24:00:00");
  EXPECT_EQ(FormatValue(Value::Int(DataType(TypeId::kTimestampTz), 1500000)),
            "1970-01-01 00:00:01.5+00");
  EXPECT_EQ(FormatValue(Value::MakeInterval({14, 3, 14706007000000LL})),
            "1 year 2 months 3 days 04:05:06.007");
  EXPECT_EQ(FormatValue(Value::MakeInterval({0, 0, 0})), "00:00:00");
  EXPECT_EQ(FormatValue(Value::MakeInterval({-13, 0, 0})), "-1 year -1 month");
  EXPECT_EQ(FormatValue(Value::Bytes(DataType(TypeId::kBlob), std::string("\x00\x01" "a'\"\\ \x7f\xff", 9))),
            "\\x00\\x01a\\x27\\x22\\x5C \\x7F\\xFF");
  EXPECT_EQ(FormatValue(Value::Null(DataType(TypeId::kInt32))), "NULL");
}

TEST(ValueTextTest, NestedQuoting) {
  DataType list = DataType::List(DataType(TypeId::kVarchar));
  std::vector<Value> elements;
  for (const char* text : {"a", "b c", "", "it's", "x,y", "NULL", " s ", "back\\slash", "#"}) {
    elements.push_back(Value::Varchar(text));
  }
  elements.push_back(Value::Null(DataType(TypeId::kVarchar)));
  EXPECT_EQ(FormatValue(Value::Nested(list, elements)),
            "[a, b c, '', 'it\\'s', 'x,y', 'NULL', ' s ', back\\slash, #, NULL]");
  DataType map = DataType::Map(DataType(TypeId::kVarchar), DataType(TypeId::kInt32));
  Value entry = Value::Nested(map.children[0].type,
                              {Value::Varchar("x y"), Value::Null(DataType(TypeId::kInt32))});
  EXPECT_EQ(FormatValue(Value::Nested(map, {entry})), "{x y=NULL}");
  DataType st = DataType::Struct({Field("a\\b", DataType(TypeId::kInt32)), Field("c'd", DataType(TypeId::kVarchar))});
  EXPECT_EQ(FormatValue(Value::Nested(st, {Value::Int(DataType(TypeId::kInt32), 1), Value::Varchar("q")})),
            "{'a\\\\b': 1, 'c\\'d': q}");
}

// DuckDB prints a list's JSON elements as they are (the list's text is a JSON array) and
// quotes a struct's or a map's JSON value like text when it needs quotes.
TEST(ValueTextTest, JsonInsideNestedValues) {
  const DataType json(TypeId::kJson);
  auto j = [&](const char* text) { return Value::Bytes(json, text); };
  const DataType list = DataType::List(json);
  EXPECT_EQ(FormatValue(Value::Nested(list, {j("\"é\""), j("{\"k\":  1}"), j("null"),
                                             Value::Null(json), j("\"a b\"")})),
            "[\"é\", {\"k\":  1}, null, NULL, \"a b\"]");
  const DataType st = DataType::Struct({Field("a", json), Field("b", json), Field("c", json),
                                        Field("d", json)});
  EXPECT_EQ(FormatValue(Value::Nested(st, {j("\"x\""), j("1"), j("null"), j("[1, 2]")})),
            "{'a': '\"x\"', 'b': 1, 'c': 'null', 'd': '[1, 2]'}");
  const DataType map = DataType::Map(json, json);
  EXPECT_EQ(FormatValue(Value::Nested(map, {Value::Nested(map.children[0].type,
                                                          {j("{\"k\": 1}"), j("[]")})})),
            "{'{\"k\": 1}'='[]'}");
  const DataType nested = DataType::List(DataType::List(json));
  EXPECT_EQ(FormatValue(Value::Nested(nested, {Value::Nested(nested.children[0].type,
                                                             {j("\"x\"")})})),
            "[[\"x\"]]");
}

}  // namespace
}  // namespace tarn
