// Randomized checks of the hash aggregate, the sort / top-N and the statement parser against
// simple models.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "sql/parse/statement_parser.h"
#include "support/test_util.h"
#include "tarn/format.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

// Rows of a query as text lines "a|b|c".
std::vector<std::string> Rows(Session* session, const std::string& sql) {
  auto result = session->Execute(sql);
  EXPECT_TRUE(result.ok()) << sql << "\n" << result.status().ToString();
  if (!result.ok()) return {};
  auto batch = ReadAllBatches(result->reader.get());
  EXPECT_TRUE(batch.ok()) << batch.status().ToString();
  std::vector<std::string> rows;
  for (int64_t row = 0; row < (*batch)->num_rows; ++row) {
    std::string line;
    for (int c = 0; c < (*batch)->num_columns(); ++c) {
      if (c > 0) line += "|";
      line += ValueText((*batch)->column(c), row);
    }
    rows.push_back(line);
  }
  return rows;
}

// Writes random (k BIGINT, s VARCHAR, v BIGINT) rows to CSV and returns the model rows.
struct RandomTable {
  std::vector<int64_t> k;
  std::vector<std::string> s;
  std::vector<int64_t> v;
};

RandomTable WriteRandomCsv(const std::string& path, uint32_t seed, int rows) {
  std::mt19937 rng(seed);
  RandomTable table;
  std::string text = "k,s,v\n";
  for (int i = 0; i < rows; ++i) {
    table.k.push_back(static_cast<int64_t>(rng() % 50) - 25);
    table.s.push_back("s" + std::to_string(rng() % 7));
    table.v.push_back(static_cast<int64_t>(rng() % 1000));
    text += std::to_string(table.k.back()) + "," + table.s.back() + "," +
            std::to_string(table.v.back()) + "\n";
  }
  EXPECT_TRUE(LocalFileSystem()->WriteFile(path, text).ok());
  return table;
}

TEST(SqlOperatorsTest, GroupByMatchesModel) {
  tarn::testing::TempDir dir;
  std::string path = dir.path() + "/t.csv";
  for (uint32_t seed = 1; seed <= 5; ++seed) {
    RandomTable table = WriteRandomCsv(path, seed, 3000);
    struct Agg { int64_t count = 0, sum = 0, min = INT64_MAX, max = INT64_MIN; };
    std::map<std::pair<int64_t, std::string>, Agg> model;
    std::map<int64_t, Agg> by_k;
    for (size_t i = 0; i < table.k.size(); ++i) {
      for (Agg* agg : {&model[{table.k[i], table.s[i]}], &by_k[table.k[i]]}) {
        agg->count++;
        agg->sum += table.v[i];
        agg->min = std::min(agg->min, table.v[i]);
        agg->max = std::max(agg->max, table.v[i]);
      }
    }
    Session session;
    std::vector<std::string> expected;
    for (const auto& [key, agg] : model) {
      expected.push_back(std::to_string(key.first) + "|" + key.second + "|" +
                         std::to_string(agg.count) + "|" + std::to_string(agg.sum) + "|" +
                         std::to_string(agg.min) + "|" + std::to_string(agg.max));
    }
    std::sort(expected.begin(), expected.end());
    std::vector<std::string> actual = Rows(
        &session, "SELECT k, s, count(*), sum(v), min(v), max(v) FROM read_csv('" + path +
                      "') GROUP BY k, s");
    std::sort(actual.begin(), actual.end());
    EXPECT_EQ(actual, expected) << "seed " << seed;

    std::vector<std::string> expected_k;
    for (const auto& [key, agg] : by_k) {
      expected_k.push_back(std::to_string(key) + "|" + std::to_string(agg.count) + "|" +
                           std::to_string(agg.sum));
    }
    // The integer-key table, in key order through ORDER BY.
    EXPECT_EQ(Rows(&session, "SELECT k, count(v), sum(v) FROM read_csv('" + path +
                                 "') GROUP BY k ORDER BY k"),
              expected_k)
        << "seed " << seed;
  }
}

TEST(SqlOperatorsTest, SortAndTopNMatchModel) {
  tarn::testing::TempDir dir;
  std::string path = dir.path() + "/t.csv";
  RandomTable table = WriteRandomCsv(path, 7, 5000);
  std::vector<size_t> order(table.k.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  // ORDER BY s DESC, k, v DESC (ties broken by v; exact duplicates print alike).
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (table.s[a] != table.s[b]) return table.s[a] > table.s[b];
    if (table.k[a] != table.k[b]) return table.k[a] < table.k[b];
    return table.v[a] > table.v[b];
  });
  std::vector<std::string> expected;
  for (size_t i : order) {
    expected.push_back(table.s[i] + "|" + std::to_string(table.k[i]) + "|" +
                       std::to_string(table.v[i]));
  }
  Session session;
  std::string base = "SELECT s, k, v FROM read_csv('" + path + "') ORDER BY s DESC, k, v DESC";
  EXPECT_EQ(Rows(&session, base), expected);
  for (int64_t limit : {0, 1, 17, 4999, 5000, 6000}) {
    for (int64_t offset : {0, 3, 4990}) {
      std::vector<std::string> slice;
      for (int64_t i = offset; i < offset + limit && i < static_cast<int64_t>(expected.size()); ++i) {
        slice.push_back(expected[i]);
      }
      EXPECT_EQ(Rows(&session, base + " LIMIT " + std::to_string(limit) + " OFFSET " +
                                   std::to_string(offset)),
                slice)
          << limit << " " << offset;
    }
  }
}

TEST(SqlParserTest, StatementsAndPositions) {
  auto parsed = sql::ParseStatements("SELECT 1; ; EXPLAIN SELECT a FROM t ORDER BY a DESC NULLS FIRST;"
                                     "SET threads TO 2; COPY (SELECT 1) TO 'x.csv' (FORMAT csv, HEADER)");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  ASSERT_EQ(parsed->size(), 4u);
  EXPECT_EQ((*parsed)[0]->kind, sql::StatementKind::kSelect);
  EXPECT_EQ((*parsed)[1]->kind, sql::StatementKind::kExplain);
  const sql::SelectStmt& explained = *(*parsed)[1]->inner->select;
  ASSERT_EQ(explained.order_by.size(), 1u);
  EXPECT_TRUE(explained.order_by[0].descending);
  EXPECT_EQ(explained.order_by[0].nulls_first, std::optional<bool>(true));
  EXPECT_EQ((*parsed)[2]->setting, "threads");
  EXPECT_EQ((*parsed)[3]->copy_path, "x.csv");
  ASSERT_EQ((*parsed)[3]->copy_options.size(), 2u);
  EXPECT_EQ((*parsed)[3]->copy_options[0].first, "FORMAT");
  EXPECT_EQ((*parsed)[1]->text, "EXPLAIN SELECT a FROM t ORDER BY a DESC NULLS FIRST");

  auto error = sql::ParseStatements("SELECT 1;\nSELECT a FROM t WHERE;");
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.status().message(),
            "syntax error at or near \";\" (line 2, column 22)\nSELECT a FROM t WHERE;\n"
            "                     ^");
  auto unterminated = sql::ParseStatements("SELECT 'abc");
  ASSERT_FALSE(unterminated.ok());
  EXPECT_NE(unterminated.status().message().find("line 1"), std::string::npos);
}

TEST(SqlSessionTest, ScriptStopsAtFirstErrorAndSettingsApply) {
  Session session;
  int results = 0;
  Status status = session.ExecuteScript(
      "SET memory_limit = '64MiB'; SELECT 1; SELECT x; SELECT 2", [&](QueryResult& result) {
        ++results;
        return ReadAllBatches(result.reader.get()).status();
      });
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(results, 2);
  EXPECT_EQ(session.settings().memory_limit, 64 << 20);
  EXPECT_FALSE(session.Execute("SELECT 1; SELECT 2").ok());
  EXPECT_EQ(ParseMemorySize("1GB").ValueOr(0), 1000000000);
  EXPECT_EQ(ParseMemorySize("1.5 GiB").ValueOr(0), 1610612736);
  EXPECT_EQ(ParseMemorySize("42").ValueOr(0), 42);
  EXPECT_FALSE(ParseMemorySize("GB").ok());
}

}  // namespace
}  // namespace tarn
