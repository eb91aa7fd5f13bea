// Runs every tests/sql/*.test file: SQL logic tests in the sqllogictest style.
//
// A file is a list of records separated by blank lines ('#' lines are comments):
//
//   statement ok
//   <sql>                        runs (every statement, results drained) and must succeed
//
//   statement error <substring>
//   <sql>                        must fail with a message containing <substring>
//
//   query <types> [rowsort]
//   <sql>
//   ----
//   <row>                        values tab-separated as DuckDB prints them (NULL, (empty))
//
// <types> has one letter per column: I integer (any width, HUGEINT too), R floating point or
// DECIMAL, B boolean, T anything. rowsort compares rows after sorting them as strings.
// ${SHARED}, ${FLIGHTS} and ${TEMP} (a fresh directory per file) are substituted in SQL.
// Each file runs in its own Session.
#include <gtest/gtest.h>

#include <algorithm>
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

std::vector<std::string> TestFiles() {
  std::vector<std::string> files;
  std::string dir = std::string(TARN_SOURCE_DIR) + "/tests/sql";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".test") files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string Substitute(std::string text, const std::string& temp) {
  auto replace = [&](const std::string& key, const std::string& value) {
    size_t at;
    while ((at = text.find(key)) != std::string::npos) text.replace(at, key.size(), value);
  };
  replace("${SHARED}", TARN_SHARED_DIR);
  replace("${FLIGHTS}", testing::FlightsPath());
  replace("${TEMP}", temp);
  return text;
}

struct Record {
  int line = 0;
  std::string kind;     // "statement ok", "statement error", "query"
  std::string detail;   // error substring, or query types
  bool rowsort = false;
  std::string sql;
  std::vector<std::string> expected;
};

std::vector<Record> ParseFile(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::vector<Record> records;
  size_t i = 0;
  while (i < lines.size()) {
    const std::string& header = lines[i];
    if (header.empty() || header[0] == '#') {
      ++i;
      continue;
    }
    Record record;
    record.line = static_cast<int>(i + 1);
    if (header == "statement ok") {
      record.kind = header;
    } else if (header.rfind("statement error", 0) == 0) {
      record.kind = "statement error";
      record.detail = header.size() > 16 ? header.substr(16) : "";
    } else if (header.rfind("query ", 0) == 0) {
      record.kind = "query";
      std::istringstream words(header.substr(6));
      words >> record.detail;
      std::string mode;
      if (words >> mode) record.rowsort = mode == "rowsort";
    } else {
      record.kind = "invalid: " + header;
    }
    ++i;
    while (i < lines.size() && !lines[i].empty() && lines[i] != "----") {
      record.sql += lines[i++] + "\n";
    }
    if (i < lines.size() && lines[i] == "----") {
      ++i;
      while (i < lines.size() && !lines[i].empty()) record.expected.push_back(lines[i++]);
    }
    records.push_back(std::move(record));
  }
  return records;
}

bool TypeMatches(char letter, const DataType& type) {
  switch (letter) {
    case 'I': return type.IsInteger();
    case 'R': return type.IsFloating() || type.id == TypeId::kDecimal;
    case 'B': return type.id == TypeId::kBoolean;
    case 'T': return true;
    default: return false;
  }
}

Status RunQuery(Session* session, const std::string& sql, std::shared_ptr<const Schema>* schema,
                std::vector<std::string>* rows) {
  TARN_ASSIGN_OR_RETURN(QueryResult result, session->Execute(sql));
  *schema = result.schema;
  while (true) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, result.reader->Next());
    if (!batch) break;
    for (int64_t row = 0; row < batch->num_rows; ++row) {
      std::string line;
      for (int c = 0; c < batch->num_columns(); ++c) {
        if (c > 0) line += '\t';
        std::string text = ValueText(batch->column(c), row);
        if (text.empty() && batch->column(c).IsValid(row)) text = "(empty)";
        line += text;
      }
      rows->push_back(std::move(line));
    }
  }
  return Status::OK();
}

class SqlLogicTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SqlLogicTest, File) {
  std::string path = std::string(TARN_SOURCE_DIR) + "/tests/sql/" + GetParam();
  testing::TempDir temp;
  Session session;
  std::vector<Record> records = ParseFile(path);
  ASSERT_FALSE(records.empty()) << path << " has no records";
  for (const Record& record : records) {
    std::string where = GetParam() + ":" + std::to_string(record.line);
    std::string sql = Substitute(record.sql, temp.path());
    if (record.kind == "statement ok" || record.kind == "statement error") {
      Status status = session.ExecuteScript(sql, [](QueryResult& result) {
        while (true) {
          TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, result.reader->Next());
          if (!batch) return Status::OK();
        }
      });
      if (record.kind == "statement ok") {
        EXPECT_TRUE(status.ok()) << where << ": " << status.ToString() << "\n" << sql;
      } else {
        EXPECT_FALSE(status.ok()) << where << ": expected an error containing \""
                                  << record.detail << "\"\n" << sql;
        EXPECT_NE(status.message().find(record.detail), std::string::npos)
            << where << ": error \"" << status.message() << "\" lacks \"" << record.detail << "\"";
      }
      continue;
    }
    ASSERT_EQ(record.kind, "query") << where;
    std::shared_ptr<const Schema> schema;
    std::vector<std::string> rows;
    Status status = RunQuery(&session, sql, &schema, &rows);
    if (!status.ok()) {
      ADD_FAILURE() << where << ": " << status.ToString() << "\n" << sql;
      continue;
    }
    if (static_cast<int>(record.detail.size()) != schema->num_fields()) {
      ADD_FAILURE() << where << ": " << schema->num_fields() << " columns, types say \""
                    << record.detail << "\"";
    } else {
      for (int c = 0; c < schema->num_fields(); ++c) {
        EXPECT_TRUE(TypeMatches(record.detail[c], schema->field(c).type))
            << where << ": column " << c << " is " << schema->field(c).type.ToString()
            << ", not '" << record.detail[c] << "'";
      }
    }
    std::vector<std::string> expected;
    for (const std::string& row : record.expected) expected.push_back(Substitute(row, temp.path()));
    if (record.rowsort) {
      std::sort(rows.begin(), rows.end());
      std::sort(expected.begin(), expected.end());
    }
    std::string actual_text, expected_text;
    for (const auto& row : rows) actual_text += row + "\n";
    for (const auto& row : expected) expected_text += row + "\n";
    EXPECT_EQ(actual_text, expected_text) << where << "\n" << sql;
  }
}

INSTANTIATE_TEST_SUITE_P(Files, SqlLogicTest, ::testing::ValuesIn(TestFiles()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param.substr(0, param_info.param.size() - 5);
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace tarn
