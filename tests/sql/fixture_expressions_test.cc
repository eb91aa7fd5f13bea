// The INSERT ... SELECT statements that built the fixture lakes
// (fixtures/ducklake/{basic,nested,evolution}/spec.sql), run as plain SELECTs in tarn and in
// DuckDB: every value (CSV text, byte for byte, rows in a total order) and every column type
// must agree. They exercise the expression language end to end: struct, list and map
// literals, list casts, scalar range(), INTERVAL (x) SECOND, TIME/TIMESTAMP/DATE arithmetic,
// to_timestamp, md5(...)::UUID.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/oracle.h"
#include "support/test_util.h"
#include "tarn/format.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

// Statement `number` (1-based) of the fixture's spec.sql, one statement per line.
std::string SpecStatement(const std::string& fixture, int number) {
  std::ifstream in(testing::SharedPath("fixtures/ducklake/" + fixture + "/spec.sql"));
  EXPECT_TRUE(in.good()) << "missing fixture " << fixture;
  std::string line;
  int index = 0;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (++index == number) return line;
  }
  ADD_FAILURE() << fixture << " has no statement " << number;
  return "";
}

// "INSERT INTO t SELECT ... ;" -> "SELECT ..." ordered by its first column.
std::string AsSelect(const std::string& statement) {
  size_t select = statement.find("SELECT ");
  EXPECT_EQ(statement.rfind("INSERT INTO ", 0), 0u) << statement;
  EXPECT_NE(select, std::string::npos) << statement;
  std::string body = statement.substr(select);
  while (!body.empty() && (body.back() == ';' || body.back() == ' ')) body.pop_back();
  return body + " ORDER BY 1";
}

std::string WithoutHeader(const std::string& csv) { return csv.substr(csv.find('\n') + 1); }

void CompareWithDuckDB(const std::string& fixture, int number) {
  const std::string sql = AsSelect(SpecStatement(fixture, number));
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(
      {sql, "SELECT column_type FROM (DESCRIBE " + sql + ")"});
  ASSERT_EQ(expected.size(), 2u);
  ASSERT_TRUE(expected[0].ok()) << sql << "\n" << expected[0].status().ToString();
  ASSERT_TRUE(expected[1].ok()) << expected[1].status().ToString();

  Session session;
  Result<QueryResult> result = session.Execute(sql);
  ASSERT_TRUE(result.ok()) << sql << "\n" << result.status().ToString();
  std::string types = "column_type\n";
  for (const Field& field : result->schema->fields) {
    std::string type = field.type.ToString();
    bool quote = type.find_first_of(",\"") != std::string::npos;
    if (quote) {
      std::string quoted = "\"";
      for (char c : type) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
      type = quoted + "\"";
    }
    types += type + "\n";
  }
  EXPECT_EQ(types, *expected[1]) << sql;
  std::string actual;
  StringSink sink(&actual);
  ASSERT_TRUE(WriteCsv(result->reader.get(), &sink).ok());
  EXPECT_GT(expected[0]->size(), 100u);
  // Column names differ (tarn names expressions its own way); values must not.
  EXPECT_EQ(WithoutHeader(actual), WithoutHeader(*expected[0])) << sql;
}

TEST(FixtureExpressionsTest, BasicFirstInsert) { CompareWithDuckDB("basic", 3); }
TEST(FixtureExpressionsTest, NestedInsert) { CompareWithDuckDB("nested", 3); }
TEST(FixtureExpressionsTest, EvolutionStructInsert) { CompareWithDuckDB("evolution", 13); }

}  // namespace
}  // namespace tarn
