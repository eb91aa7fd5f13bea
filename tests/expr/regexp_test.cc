// The regular expression functions against DuckDB: a fixed list of cases (types, values,
// options, groups, empty matches, anchors, UTF-8, and every error DuckDB raises, message
// included), then random texts through random patterns, every function and option, compared
// row by row (TARN_EXPR_SEED=<n> explores other inputs).
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "support/oracle.h"
#include "tarn/format.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

// `query`'s result as CSV with a header, as the oracle writes it, or its error.
Result<std::string> TarnCsv(Session& session, const std::string& query) {
  TARN_ASSIGN_OR_RETURN(QueryResult result, session.Execute(query));
  std::string csv;
  StringSink sink(&csv);
  TARN_RETURN_NOT_OK(WriteCsv(result.reader.get(), &sink));
  return csv;
}

std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

void CompareWithDuckDB(const std::vector<std::string>& queries, bool messages) {
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  Session session;
  for (size_t i = 0; i < queries.size(); ++i) {
    Result<std::string> got = TarnCsv(session, queries[i]);
    if (!expected[i].ok()) {
      ASSERT_FALSE(got.ok()) << queries[i] << " should fail like DuckDB: "
                             << expected[i].status().message() << "\ntarn gave " << *got;
      if (messages) {
        std::string duck = expected[i].status().message();
        constexpr std::string_view kOraclePrefix = "DuckDB error: ";
        if (duck.rfind(kOraclePrefix, 0) == 0) duck.erase(0, kOraclePrefix.size());
        EXPECT_EQ(got.status().message().substr(0, duck.size()), duck) << queries[i];
      }
      continue;
    }
    ASSERT_TRUE(got.ok()) << queries[i] << ": " << got.status().ToString();
    EXPECT_EQ(*got, *expected[i]) << queries[i];
  }
}

TEST(RegexpTest, CasesMatchDuckDB) {
  const std::vector<std::string> expressions = {
      // regexp_matches / regexp_full_match and their options
      "regexp_matches('abc', 'b')", "regexp_matches('abc', 'B')", "regexp_matches('abc', 'B', 'i')",
      "regexp_matches('abc', '^b')", "regexp_matches('', '')", "regexp_matches('a.c', '.', 'l')",
      "regexp_matches('abc', '.', 'l')", "regexp_matches('a\nb', 'a.b')",
      "regexp_matches('a\nb', 'a.b', 's')",
      "regexp_matches('a\nb', 'a.b', 'sn')", "regexp_matches('ABC', 'b', 'ic')",
      "regexp_matches('abc', 'b', 'c i l')", "regexp_full_match('abc', 'a.c')",
      "regexp_full_match('abc', 'b')", "regexp_full_match('ABC', 'abc', 'i')",
      "'abc' SIMILAR TO 'a.c'", "'abc' NOT SIMILAR TO 'a.c'", "'abc' ~ 'b'", "'abc' !~ 'b'",
      "'abc' ~ '.*b.*'", "regexp_matches('日本語', '本')", "regexp_full_match('é', '.')",
      // regexp_extract
      "regexp_extract('abc123def', '[0-9]+')", "regexp_extract('abc123def', '([a-z]+)([0-9]+)', 2)",
      "regexp_extract('abc123def', '([a-z]+)([0-9]+)', 0)", "regexp_extract('xyz', '[0-9]+')",
      "regexp_extract('abc', '([a-z]+)', 3)", "regexp_extract('abc', '(x)?b', 1)",
      "regexp_extract('ABC', 'b', 0, 'i')", "regexp_extract('abc', 'b', 9)",
      "regexp_extract('2023-04-05', '(\\d+)-(\\d+)-(\\d+)', ['y', 'm', 'd'])",
      "regexp_extract('abc', '(b)(c)', ['x'])", "regexp_extract('nothing', '(b)(c)', ['x', 'y'])",
      "regexp_extract('/a/part_key=3/f.parquet', '.*(part_key=[0-9])[/\\\\].*', 1)",
      // regexp_extract_all
      "regexp_extract_all('a1b22c333', '[0-9]+')",
      "regexp_extract_all('a1b22c333', '([a-z])([0-9]+)', 2)", "regexp_extract_all('abc', 'x*')",
      "regexp_extract_all('abc', 'b*')", "regexp_extract_all('', 'x*')",
      "regexp_extract_all('ab cd', '\\b')", "regexp_extract_all('aXbx', 'x', 0, 'i')",
      "regexp_extract_all('é日b', '')", "regexp_extract_all('abc', '(x)?(b)', 1)",
      "regexp_extract_all('abc', 'b', 3)",
      // regexp_replace
      "regexp_replace('aaa', 'a', 'b')", "regexp_replace('aaa', 'a', 'b', 'g')",
      "regexp_replace('abc', '(b)', '[\\1]')", "regexp_replace('ABC', 'b', 'x', 'gi')",
      "regexp_replace('abc', 'b', '\\2')", "regexp_replace('abc', '', '-', 'g')",
      "regexp_replace('abc', 'x*', '-', 'g')", "regexp_replace('abc', '(.)', '\\0\\0', 'g')",
      "regexp_replace('a.c', '.', 'x', 'l')", "regexp_replace('abc', 'b', '\\\\')",
      // regexp_split_to_array
      "regexp_split_to_array('a,b;c', '[,;]')", "string_split_regex('a1b', '[0-9]')",
      "str_split_regex('a1b', '[0-9]')", "regexp_split_to_array('', ',')",
      "regexp_split_to_array('abc', '')", "regexp_split_to_array(',a,', ',')",
      "regexp_split_to_array('abc', 'x*')", "regexp_split_to_array('a1b2', '^.')",
      "regexp_split_to_array('aXbxc', 'x', 'i')", "regexp_split_to_array('é日b', '')",
      // NULLs
      "regexp_matches(NULL, 'b')", "regexp_extract(NULL, 'a')", "regexp_matches('a', NULL)",
      "regexp_replace('a', 'a', NULL)", "regexp_split_to_array(NULL, ',')",
      "regexp_extract_all(NULL, 'a')",
      // errors
      "regexp_matches('abc', '(')", "regexp_extract('abc', '(', 0)", "regexp_matches('abc', 'b', 'g')",
      "regexp_matches('abc', 'b', 'q')", "regexp_extract('abc', 'b', -1)",
      "regexp_extract('abc', 'b', 10)", "regexp_extract('abc', '(b)(c)', [])",
      "regexp_extract('abc', '(b)', ['x', 'y'])", "regexp_replace('abc', '[', 'x')",
      "regexp_split_to_array('abc', '(?P<n')", "regexp_full_match('abc', '*')",
  };
  std::vector<std::string> queries;
  for (const std::string& e : expressions) {
    queries.push_back("SELECT typeof(" + e + ") AS t, CAST(" + e + " AS VARCHAR) AS v");
  }
  // Patterns and groups that are not constants.
  queries.push_back("SELECT regexp_matches(s, p) AS m FROM (VALUES ('abc', 'b'), ('abc', 'x'), "
                    "(NULL, 'a'), ('a', NULL)) t(s, p)");
  queries.push_back("SELECT regexp_matches(s, p) AS m FROM (VALUES ('abc', 'b'), ('abc', '(')) "
                    "t(s, p)");
  queries.push_back("SELECT regexp_extract('abc', 'b', x) AS e FROM (SELECT 1 x)");
  queries.push_back("SELECT regexp_matches('abc', 'b', o) AS e FROM (SELECT 'i' o)");
  CompareWithDuckDB(queries, true);
}

// A random text over a small alphabet with newlines, separators and multi-byte characters.
std::string RandomText(std::mt19937& rng) {
  static const std::vector<std::string> kPieces = {"a", "b", "A", "B", "1", "22", ",", ";",
                                                   " ", "\n", "é", "日", ".", "ab", "x"};
  std::string text;
  const int length = static_cast<int>(rng() % 9);
  for (int i = 0; i < length; ++i) text += kPieces[rng() % kPieces.size()];
  return text;
}

TEST(RegexpTest, RandomTextsMatchDuckDB) {
  const char* seed_text = std::getenv("TARN_EXPR_SEED");
  std::mt19937 rng(seed_text ? static_cast<uint32_t>(std::atoi(seed_text)) : 17u);
  const std::vector<std::string> patterns = {
      "a",     "a+",     "(a)(b)?", "[0-9]+", "x*",   "^a",        "b$",     "(?i)b",  ".",
      "a.b",   "[,;]",   "\\s",     "",       "é",    "(日|a)+",   "\\b",    "^",      "(a|b)*",
      "[^a]+", "(\\d)", "a{2}",    "\\.",    ".*",   "(?s).",     "[aé]",   "(b)|(1)"};
  const std::vector<std::string> options = {"", "i", "s", "l", "c", "is"};
  std::string values;
  for (int row = 0; row < 40; ++row) {
    values += std::string(row ? ", " : "") + "(" + std::to_string(row) + ", " +
              Quote(RandomText(rng)) + ")";
  }
  std::vector<std::string> queries;
  for (const std::string& pattern : patterns) {
    const std::string option = options[rng() % options.size()];
    const std::string p = Quote(pattern), o = Quote(option);
    const std::string group = std::to_string(rng() % 3);
    const std::string replace_option = Quote(option + (rng() % 2 ? "g" : ""));
    queries.push_back(
        "SELECT id, regexp_matches(s, " + p + ", " + o + ") AS m, regexp_full_match(s, " + p +
        ", " + o + ") AS f, regexp_extract(s, " + p + ", " + group + ", " + o +
        ") AS e, regexp_extract_all(s, " + p + ", 0, " + o +
        ")::VARCHAR AS a, regexp_replace(s, " + p + ", '<\\0>', " + replace_option +
        ") AS r, regexp_split_to_array(s, " + p + ", " + o + ")::VARCHAR AS t FROM (VALUES " +
        values + ") v(id, s) ORDER BY id");
  }
  CompareWithDuckDB(queries, false);
}

}  // namespace
}  // namespace tarn
