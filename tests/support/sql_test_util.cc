#include "support/sql_test_util.h"

#include <gtest/gtest.h>

#include "support/oracle.h"
#include "tarn/format.h"

namespace tarn::testing {

Result<std::string> TarnCsv(Session* session, const std::string& sql) {
  TARN_ASSIGN_OR_RETURN(QueryResult result, session->Execute(sql));
  std::string out;
  StringSink sink(&out);
  TARN_RETURN_NOT_OK(WriteCsv(result.reader.get(), &sink));
  return out;
}

void ExpectQueriesMatchDuckDB(const std::vector<std::string>& queries,
                              const std::vector<int>& threads) {
  std::vector<Result<std::string>> expected = DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  for (int count : threads) {
    Session session;
    ASSERT_TRUE(session.Execute("SET threads = " + std::to_string(count)).ok());
    for (size_t k = 0; k < queries.size(); ++k) {
      ASSERT_TRUE(expected[k].ok()) << queries[k] << "\n" << expected[k].status().ToString();
      Result<std::string> actual = TarnCsv(&session, queries[k]);
      ASSERT_TRUE(actual.ok()) << queries[k] << "\n" << actual.status().ToString();
      EXPECT_EQ(*actual, *expected[k]) << queries[k] << " (threads " << count << ")";
    }
  }
}

void ExpectRefusedLikeDuckDB(const std::vector<std::string>& queries) {
  std::vector<Result<std::string>> expected = DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  Session session;
  for (size_t k = 0; k < queries.size(); ++k) {
    ASSERT_FALSE(expected[k].ok()) << queries[k] << ": DuckDB answers it";
    Result<std::string> actual = TarnCsv(&session, queries[k]);
    ASSERT_FALSE(actual.ok()) << queries[k] << ": tarn answers it";
    std::string duckdb = expected[k].status().message();
    if (duckdb.starts_with("DuckDB error: ")) duckdb = duckdb.substr(14);
    const std::string error_class = duckdb.substr(0, duckdb.find(':'));
    EXPECT_NE(actual.status().message().find(error_class), std::string::npos)
        << queries[k] << ": " << actual.status().message() << "\nDuckDB: " << duckdb;
  }
}

std::string SqlString(std::string_view text) {
  std::string out = "'";
  for (char c : text) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  return out + "'";
}

std::string ReplaceAll(std::string text, const std::string& key, const std::string& value) {
  size_t at = 0;
  while ((at = text.find(key, at)) != std::string::npos) {
    text.replace(at, key.size(), value);
    at += value.size();
  }
  return text;
}

}  // namespace tarn::testing
