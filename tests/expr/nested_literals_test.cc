// Struct, list and map literals, range(), INTERVAL (x) UNIT, TIME/TIMESTAMP/DATE arithmetic,
// to_timestamp, md5 and UUID casts: parsing and printing, then each expression against
// DuckDB (result type by typeof, value as VARCHAR through tarn's SQL, or both failing).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/oracle.h"
#include "tarn/expr.h"
#include "tarn/format.h"
#include "tarn/sql.h"
#include "util/md5.h"

namespace tarn {
namespace {

TEST(Md5Test, Rfc1321Vectors) {
  // RFC 1321, appendix A.5.
  EXPECT_EQ(Md5Hex(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Md5Hex("a"), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(Md5Hex("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Md5Hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(Md5Hex("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(Md5Hex("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
            "d174ab98d277d9f5a5611c2c9f419d9f");
  EXPECT_EQ(Md5Hex("1234567890123456789012345678901234567890123456789012345678901234567890"
                   "1234567890"),
            "57edf4a22be3c955ac49da2e2107b67a");
  // Lengths around the padding boundaries are checked against DuckDB below.
}

TEST(NestedLiteralsTest, ParseAndPrintRoundTrip) {
  const char* texts[] = {
      "{'x': 1, 'y': {'p': 2.5, 'q': TRUE}}",
      "[1, 2, NULL]",
      "[]",
      "[[1, NULL], [], NULL]",
      "[{'a': i, 'b': [1, 2]::INTEGER[]}, NULL]",
      "map(['a', 'b'], [1, NULL])",
      "to_seconds(CAST(i * 37 AS DOUBLE))",
      "range(i % 4)::INTEGER[]",
  };
  for (const char* text : texts) {
    auto parsed = ParseExpression(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status().ToString();
    EXPECT_EQ((*parsed)->ToString(), text);
    auto again = ParseExpression((*parsed)->ToString());
    ASSERT_TRUE(again.ok()) << text;
    EXPECT_TRUE((*again)->Equals(**parsed)) << text;
  }
  // The rewrites DuckDB makes too.
  EXPECT_EQ((*ParseExpression("MAP {'k': 1, 'j': 2}"))->ToString(), "map(['k', 'j'], [1, 2])");
  EXPECT_EQ((*ParseExpression("INTERVAL (i) SECOND"))->ToString(),
            "to_seconds(CAST(i AS DOUBLE))");
  EXPECT_EQ((*ParseExpression("INTERVAL (i) hours"))->ToString(),
            "to_hours(CAST(trunc(CAST(i AS DOUBLE)) AS BIGINT))");
  EXPECT_EQ((*ParseExpression("INTERVAL (i) DAY"))->ToString(),
            "to_days(CAST(trunc(CAST(i AS DOUBLE)) AS INTEGER))");
  EXPECT_EQ((*ParseExpression("{a: 1}"))->ToString(), "{'a': 1}");
}

TEST(NestedLiteralsTest, SyntaxErrors) {
  for (const char* text : {"{}", "{'a' 1}", "{'a': 1", "[1, 2", "MAP {'a' 1}", "{1: 2}"}) {
    auto parsed = ParseExpression(text);
    EXPECT_FALSE(parsed.ok()) << text;
    if (!parsed.ok()) {
      EXPECT_NE(parsed.status().message().find("syntax error"), std::string::npos);
    }
  }
}

TEST(NestedLiteralsTest, ColumnsFlowThroughNestedBuilders) {
  auto schema = std::make_shared<const Schema>(
      std::vector<Field>{Field("i", DataType(TypeId::kInt64))});
  ColumnBuilder builder(DataType(TypeId::kInt64));
  for (int64_t i : {0, 1, 2, 3}) builder.AppendNumber<int64_t>(i);
  builder.AppendNull();
  Batch batch;
  batch.schema = schema;
  batch.columns.push_back(builder.Finish());
  batch.num_rows = 5;
  auto bound = ParseAndBind(
      "{'x': i::INTEGER, 'l': CASE WHEN i % 2 = 0 THEN NULL ELSE range(i)::INTEGER[] END, "
      "'m': CASE WHEN i IS NULL THEN NULL ELSE map(['k' || i], [i]) END}",
      *schema);
  ASSERT_TRUE(bound.ok()) << bound.status().ToString();
  EXPECT_EQ((*bound)->type().ToString(),
            "STRUCT(x INTEGER, l INTEGER[], m MAP(VARCHAR, BIGINT))");
  auto column = (*bound)->Evaluate(batch);
  ASSERT_TRUE(column.ok()) << column.status().ToString();
  ASSERT_TRUE((*column)->Validate().ok());
  std::vector<std::string> texts;
  for (int64_t row = 0; row < 5; ++row) texts.push_back(ValueText(**column, row));
  EXPECT_EQ(texts, (std::vector<std::string>{
                       "{'x': 0, 'l': NULL, 'm': {k0=0}}",
                       "{'x': 1, 'l': [0], 'm': {k1=1}}",
                       "{'x': 2, 'l': NULL, 'm': {k2=2}}",
                       "{'x': 3, 'l': [0, 1, 2], 'm': {k3=3}}",
                       "{'x': NULL, 'l': NULL, 'm': NULL}",
                   }));
}

// Each expression's DuckDB type (typeof) and VARCHAR text, or that both engines fail.
TEST(NestedLiteralsTest, MatchesDuckDB) {
  std::vector<std::string> expressions = {
      // struct literals
      "{'x': 1, 'y': 'a'}", "{'x': NULL}", "{'x': 1, 'y': {'p': 2.5, 'q': true}}", "{a: 1}",
      "{'x': 1, 'x': 2}", "{'a': 1, 'A': 2}", "{'a': 1}.a", "{'s': 'it''s', 'e': ''}",
      // list literals
      "[1, 2, NULL]", "[]", "[]::INTEGER[]", "[[1, NULL], [], NULL]", "[NULL]", "[NULL, 1]",
      "[{'a': 1, 'b': [1, 2]::INTEGER[]}, NULL]", "['a', NULL, '']", "[1, 2::BIGINT]",
      "[1, 2.5]", "[1, 3000000000]", "[1.5, 2.25]", "[1, 1e3]", "[1, 'a']",
      "[{'x': 1}, {'y': 2}]", "[{'x': 1}, {'x': 2::BIGINT}]", "[1, 2, 3][2]",
      "[[1, 2], [3]][2][1]", "[1, 2] = [1, 2]", "[1, NULL] = [1, NULL]", "[1, 2] < [1, 3]",
      "{'x': 1} = {'x': 1}", "[TIME '01:02:03', NULL]", "[DATE '2020-01-01']",
      // casts between nested types
      "[1, 2]::INTEGER[]", "['1', '2']::INTEGER[]", "['x']::INTEGER[]", "[300]::TINYINT[]",
      "[1.5, 2.5]::INTEGER[]", "[[1], NULL]::VARCHAR[][]", "TRY_CAST([300, 1] AS TINYINT[])",
      "{'x': 1, 'y': 2}::STRUCT(y VARCHAR, x BIGINT)", "{'x': 1}::STRUCT(x BIGINT, z INT)",
      "{'x': 1, 'y': 2}::STRUCT(a INT, b INT)", "map(['a'], [1])::MAP(VARCHAR, BIGINT)",
      "CASE WHEN true THEN NULL ELSE {'x': 1} END",
      "CASE WHEN false THEN []::INTEGER[] ELSE range(3)::INTEGER[] END",
      "CASE WHEN false THEN [1] ELSE [3000000000] END",
      // maps
      "map(['a', 'b'], [1, NULL])", "MAP {'k': 1, 'j': 2}", "MAP {}", "map()",
      "map(['a', 'a'], [1, 2])", "map(['a', NULL], [1, 2])", "map(['a'], [1, 2])",
      "map(['a'], NULL)", "map(NULL, [1])", "map([1, 2], [[1], []])",
      "[map(['a'], [1]), map(['b'], [2::BIGINT])]", "map(['k'], [{'x': 1}])",
      "map(['a', 'b'], [1, 2])['b']", "map(['a'], [1])['z']", "MAP {1: 'x'}[1]",
      // range as a scalar function
      "range(3)", "range(2, 5)", "range(NULL)", "range(5, 2)", "range(1, 10, 3)",
      "range(10, 1, -3)", "range(1, 5, 0)", "range(0)", "range(3)::INTEGER[]",
      "range(-3, 3, 2)", "range(0, 9223372036854775807)", "range(1.5)",
      // intervals
      "INTERVAL (37 * 3) SECOND", "INTERVAL (NULL) SECOND", "INTERVAL (1.5) SECOND",
      "INTERVAL (2) MINUTE", "INTERVAL (3) HOUR", "INTERVAL (4) DAY", "INTERVAL (5) MONTH",
      "INTERVAL (6) YEAR", "INTERVAL (7) WEEK", "INTERVAL (2) QUARTER", "INTERVAL (1) DECADE",
      "INTERVAL (-2.9) HOUR", "INTERVAL (2.9) DAY", "INTERVAL (1.5) MILLISECOND",
      "INTERVAL (2.7) MICROSECOND", "INTERVAL (2) SECONDS", "INTERVAL (90061) SECOND",
      "INTERVAL ('7') SECOND", "INTERVAL ('x') SECOND", "INTERVAL (1e300) SECOND",
      "INTERVAL (3000000000) DAY", "INTERVAL '3' DAY", "INTERVAL 3 DAYS", "INTERVAL '2' HOUR",
      "INTERVAL (-0.0000015) SECOND", "to_minutes(9223372036854775807)",
      "to_weeks(2147483647)", "to_years(2147483647)", "to_microseconds(5)", "trunc(-2.5::DOUBLE)",
      "trunc(5)",
      // temporal arithmetic
      "TIMESTAMP '2021-06-01 00:00:00' + INTERVAL (100000) SECOND",
      "TIMESTAMP '2021-06-01 00:00:00' + INTERVAL (37 * 4999) SECOND",
      "TIME '00:00:00' + INTERVAL (86399) SECOND", "TIME '00:00:00' + INTERVAL (86400) SECOND",
      "TIME '23:00:00' + INTERVAL (7200) SECOND", "TIME '01:00:00' - INTERVAL 2 HOUR",
      "TIME '01:00:00' + INTERVAL 1 MONTH", "TIME '01:00:00' + INTERVAL 3 DAY",
      "TIME '12:00:00' + INTERVAL (-13) HOUR", "INTERVAL 1 HOUR + TIME '23:30:00'",
      "TIME '10:00' - INTERVAL (1.5) SECOND", "TIME '00:00:00' + INTERVAL (NULL) SECOND",
      "TIME '00:00:00' + INTERVAL (4999 % 86400) SECOND",
      "DATE '2020-01-01' + 5::INTEGER", "5 + DATE '2020-01-01'",
      "DATE '2020-01-01' + (999 % 1000)::INTEGER", "DATE '2020-01-01' - 1",
      // to_timestamp
      "to_timestamp(1640995200 + 61)", "to_timestamp(1.5)", "to_timestamp(NULL)",
      "to_timestamp(-1.25)", "to_timestamp(1e20)", "to_timestamp('nan'::DOUBLE)",
      "to_timestamp(0)", "to_timestamp(1640995200 + 11999 * 61)",
      // md5 and UUID
      "md5('1')", "md5('')", "md5(NULL)", "md5('a')", "md5('1')::UUID",
      "md5('11999')::UUID", "md5(11::VARCHAR)", "md5('é')",
      "'c4ca4238a0b923820dcc509a6f75849b'::UUID",
      "'{c4ca4238-a0b9-2382-0dcc-509a6f75849b}'::UUID",
      "'C4CA4238A0B923820DCC509A6F75849B'::UUID", "'xyz'::UUID",
      "'c4ca4238a0b923820dcc509a6f75849bb'::UUID", "'c4c-a4238a0b923820dcc509a6f75849b'::UUID",
      "' c4ca4238a0b923820dcc509a6f75849b'::UUID", "TRY_CAST('xyz' AS UUID)",
  };
  std::vector<std::string> queries;
  // Inputs around MD5's padding boundaries.
  for (size_t n : {55u, 56u, 63u, 64u, 65u, 119u, 120u}) {
    expressions.push_back("md5('" + std::string(n, 'x') + "')");
  }
  for (const std::string& e : expressions) {
    queries.push_back("SELECT typeof(" + e + ") AS t, CAST(" + e + " AS VARCHAR) AS v");
  }
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  Session session;
  Schema empty;
  for (size_t i = 0; i < expressions.size(); ++i) {
    const std::string& e = expressions[i];
    std::string tarn_csv;
    Status status = [&]() -> Status {
      TARN_ASSIGN_OR_RETURN(auto bound, ParseAndBind(e, empty));
      TARN_ASSIGN_OR_RETURN(QueryResult result,
                            session.Execute("SELECT CAST(" + e + " AS VARCHAR) AS v"));
      StringSink sink(&tarn_csv);
      TARN_RETURN_NOT_OK(WriteCsv(result.reader.get(), &sink));
      // Reassemble DuckDB's two-column CSV: the type, then the value's CSV field.
      std::string type = bound->type().ToString();
      std::string value = tarn_csv.substr(tarn_csv.find('\n') + 1);
      bool quote = type.find_first_of(",\"\n") != std::string::npos;
      std::string quoted = type;
      if (quote) {
        quoted = "\"";
        for (char c : type) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
        quoted += "\"";
      }
      tarn_csv = "t,v\n" + quoted + "," + value;
      return Status::OK();
    }();
    if (!expected[i].ok()) {
      EXPECT_FALSE(status.ok()) << e << " should fail like DuckDB: "
                                << expected[i].status().message() << "\ntarn gave " << tarn_csv;
      continue;
    }
    ASSERT_TRUE(status.ok()) << e << ": " << status.ToString();
    EXPECT_EQ(tarn_csv, *expected[i]) << e;
  }
}

}  // namespace
}  // namespace tarn
