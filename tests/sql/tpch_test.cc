// The 22 TPC-H queries over the SF 0.1 Parquet files and over a lake built from them, against
// DuckDB's answers (the qNN.csv files beside the queries, written by DuckDB's COPY ... TO
// (HEADER)), at 1 and 2 threads; and Q9 and Q18, the two that hold the most rows in hash
// tables, under a memory_limit below a quarter of what they need in memory, spilling.
//
// Every query must give DuckDB's answer: the same header and rows in the same order, every
// value's text equal except DOUBLE columns, which may differ in the last digits (relative
// 1e-9). The test prints which of the 22 it answers.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_util.h"
#include "tarn/format.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::SharedPath;

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The query with each TPC-H table name of a FROM list replaced by its Parquet file, whose
// implicit alias is the table name. Only names right after FROM, JOIN or a comma are tables
// (Q8 and Q9 also use "nation" as a column alias, in the select list, WHEN, GROUP and ORDER BY).
const char* const kTables[] = {"lineitem", "orders", "customer", "partsupp",
                              "part",     "supplier", "nation", "region"};

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// True when the text before `pos` ends, past blanks, with a comma or the word FROM or JOIN.
bool FollowsFromJoinOrComma(const std::string& sql, size_t pos) {
  size_t end = pos;
  while (end > 0 && std::isspace(static_cast<unsigned char>(sql[end - 1]))) --end;
  if (end > 0 && sql[end - 1] == ',') return true;
  size_t begin = end;
  while (begin > 0 && IsWordChar(sql[begin - 1])) --begin;
  std::string word = sql.substr(begin, end - begin);
  for (char& c : word) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return word == "FROM" || word == "JOIN";
}

std::string BindTables(const std::string& sql) {
  std::string out;
  size_t pos = 0;
  while (pos < sql.size()) {
    if (!IsWordChar(sql[pos])) {
      out += sql[pos++];
      continue;
    }
    size_t end = pos;
    while (end < sql.size() && IsWordChar(sql[end])) ++end;
    const std::string word = sql.substr(pos, end - pos);
    bool table = false;
    for (const char* name : kTables) table = table || word == name;
    if (table && FollowsFromJoinOrComma(sql, pos)) {
      out += "'" + SharedPath("data/tpch-sf0.1/" + word + ".parquet") + "'";
    } else {
      out += word;
    }
    pos = end;
  }
  return out;
}

std::vector<std::string> SplitLines(const std::string& text) {
  std::vector<std::string> lines;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// CSV fields of one line (the answers hold no quoted commas but strings may be quoted).
std::vector<std::string> SplitFields(const std::string& line) {
  std::vector<std::string> fields;
  std::string current;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  fields.push_back(current);
  return fields;
}

bool CloseDoubles(const std::string& a, const std::string& b) {
  char* end_a = nullptr;
  char* end_b = nullptr;
  double x = std::strtod(a.c_str(), &end_a);
  double y = std::strtod(b.c_str(), &end_b);
  if (a.empty() || b.empty() || *end_a != '\0' || *end_b != '\0') return false;
  return std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
}

// Empty when `actual` is DuckDB's answer `expected`; else what differs.
std::string Compare(const std::string& actual, const std::string& expected, const Schema& schema) {
  std::vector<std::string> got = SplitLines(actual);
  std::vector<std::string> want = SplitLines(expected);
  if (got.size() != want.size()) {
    return "rows: " + std::to_string(got.size()) + " vs expected " + std::to_string(want.size());
  }
  for (size_t row = 0; row < got.size(); ++row) {
    if (got[row] == want[row]) continue;
    std::vector<std::string> a = SplitFields(got[row]);
    std::vector<std::string> b = SplitFields(want[row]);
    bool same = a.size() == b.size() && row > 0;
    for (size_t c = 0; same && c < a.size(); ++c) {
      const bool floating = c < schema.fields.size() &&
                            (schema.fields[c].type.id == TypeId::kFloat64 ||
                             schema.fields[c].type.id == TypeId::kFloat32);
      same = a[c] == b[c] || (floating && CloseDoubles(a[c], b[c]));
    }
    if (!same) return "line " + std::to_string(row + 1) + ": " + got[row] + " vs expected " + want[row];
  }
  return "";
}

// Runs the 22 queries in `session` (over the files when `over_files`, else over the tables of
// its default lake) at `threads` threads, each against DuckDB's answer.
void RunQueries(Session* session, bool over_files, int threads, const char* where) {
  ASSERT_TRUE(session->Execute("SET threads = " + std::to_string(threads)).ok());
  std::string answered;
  for (int q = 1; q <= 22; ++q) {
    char name[16];
    std::snprintf(name, sizeof(name), "q%02d", q);
    const std::string base = SharedPath(std::string("data/tpch-queries/") + name);
    const std::string text = ReadText(base + ".sql");
    std::string sql = over_files ? BindTables(text) : text;
    const std::string expected = ReadText(base + ".csv");
    ASSERT_FALSE(expected.empty()) << base;
    Result<QueryResult> result = session->Execute(sql);
    std::string out;
    Status status = result.status();
    if (status.ok()) {
      StringSink sink(&out);
      status = WriteCsv(result->reader.get(), &sink);
    }
    if (!status.ok()) {
      ADD_FAILURE() << name << " over " << where << " at " << threads
                    << " threads: " << status.ToString();
      continue;
    }
    std::string difference = Compare(out, expected, *result->schema);
    EXPECT_EQ(difference, "") << name << " over " << where << " at " << threads << " threads";
    if (difference.empty()) answered += " " + std::string(name);
  }
  std::printf("TPC-H queries answered as DuckDB does over %s at %d threads:%s\n", where, threads,
              answered.c_str());
}

Status RunScript(Session* session, const std::string& sql) {
  return session->ExecuteScript(sql, [](QueryResult& result) {
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, result.reader->Next());
      if (!batch) return Status::OK();
    }
  });
}

TEST(TpchTest, QueriesAtOneThread) {
  Session session;
  RunQueries(&session, true, 1, "Parquet files");
}

TEST(TpchTest, QueriesAtTwoThreads) {
  Session session;
  RunQueries(&session, true, 2, "Parquet files");
}

// The same queries over a lake whose tables are copies of the files (CREATE TABLE ... AS).
TEST(TpchTest, QueriesOverALake) {
  testing::TempDir dir;
  Session session;
  std::string setup = "ATTACH 'ducklake:sqlite:" + dir.Join("tpch.db") + "' AS tpch (DATA_PATH '" +
                      dir.Join("files") + "'); USE tpch;";
  for (const char* table : kTables) {
    setup += std::string(" CREATE TABLE ") + table + " AS SELECT * FROM '" +
             SharedPath(std::string("data/tpch-sf0.1/") + table + ".parquet") + "';";
  }
  Status created = RunScript(&session, setup);
  ASSERT_TRUE(created.ok()) << created.ToString();
  RunQueries(&session, false, 1, "a lake");
  RunQueries(&session, false, 2, "a lake");
}

// Runs query `q` as DuckDB's text over the files; its CSV text, or the error.
Result<std::string> QueryCsv(Session* session, int q, std::string* expected,
                             std::shared_ptr<const Schema>* schema) {
  char name[16];
  std::snprintf(name, sizeof(name), "q%02d", q);
  const std::string base = SharedPath(std::string("data/tpch-queries/") + name);
  *expected = ReadText(base + ".csv");
  TARN_ASSIGN_OR_RETURN(QueryResult result, session->Execute(BindTables(ReadText(base + ".sql"))));
  std::string out;
  StringSink sink(&out);
  TARN_RETURN_NOT_OK(WriteCsv(result.reader.get(), &sink));
  *schema = result.schema;
  return out;
}

// Q9 (a five-way join whose largest build side is most of orders) and Q18 (lineitem grouped by
// order, then joined with orders and lineitem). The memory a query needs in memory is found
// first: halving memory_limit with spilling off until it fails, at `need` in (L, 2L]. At L / 4
// with spilling on, below a quarter of the need, the query must still give DuckDB's answer,
// and leave nothing in the temp_directory.
TEST(TpchTest, Q9AndQ18SpillUnderAQuarterOfTheirMemory) {
  testing::TempDir dir;
  const std::string temp = dir.Join("spill");
  for (int q : {9, 18}) {
    Session session;
    ASSERT_TRUE(session.Execute("SET threads = 2").ok());
    ASSERT_TRUE(session.Execute("SET temp_directory = ''").ok());
    std::string expected;
    std::shared_ptr<const Schema> schema;
    int64_t fails_at = 0;
    for (int64_t limit = int64_t{512} << 20; limit >= (int64_t{1} << 20); limit /= 2) {
      ASSERT_TRUE(session.Execute("SET memory_limit = '" + std::to_string(limit) + "B'").ok());
      Result<std::string> answer = QueryCsv(&session, q, &expected, &schema);
      if (!answer.ok()) {
        EXPECT_NE(answer.status().message().find("Out of Memory Error"), std::string::npos)
            << "Q" << q << ": " << answer.status().ToString();
        fails_at = limit;
        break;
      }
      ASSERT_EQ(Compare(*answer, expected, *schema), "") << "Q" << q << " at " << limit;
    }
    ASSERT_GT(fails_at, 0) << "Q" << q << " never passed a memory_limit down to 1 MiB";
    const int64_t quarter = fails_at / 4;
    ASSERT_TRUE(session.Execute("SET temp_directory = '" + temp + "'").ok());
    ASSERT_TRUE(session.Execute("SET memory_limit = '" + std::to_string(quarter) + "B'").ok());
    Result<std::string> answer = QueryCsv(&session, q, &expected, &schema);
    ASSERT_TRUE(answer.ok()) << "Q" << q << " at " << quarter << " bytes: "
                             << answer.status().ToString();
    EXPECT_EQ(Compare(*answer, expected, *schema), "") << "Q" << q << " spilling at " << quarter;
    std::printf("Q%d needs more than %lld bytes in memory; answered spilling at %lld\n", q,
                static_cast<long long>(fails_at), static_cast<long long>(quarter));
    ASSERT_TRUE(std::filesystem::exists(temp)) << "Q" << q << " did not spill";
    EXPECT_TRUE(std::filesystem::is_empty(temp)) << "Q" << q << " left spill files behind";
  }
}

}  // namespace
}  // namespace tarn
