// Runs every tests/sql/lake/*.test file: SQL logic tests over DuckLake fixture lakes.
//
// The format is tests/sql/*.test's (statement ok / statement error <substring> / query
// <types> [rowsort], see sql_logic_test.cc) plus one directive:
//
//   attach <fixture> [read_only|copy_data]
//
// which copies /work/shared/fixtures/ducklake/<fixture>/catalog.sqlite into the file's temp
// directory and attaches the copy as catalog "lake" with the fixture's data/ as data path (a
// writable attach, the default or copy_data, gets a copy of data/ too, so writes never touch
// the shared fixture; a missing fixture fails the file). ${SHARED}, ${TEMP} and ${DATA} (the
// attached fixture's data folder) are substituted in SQL and expected rows. Each file runs in its own Session.
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

std::string LakeTestDir() { return std::string(TARN_SOURCE_DIR) + "/tests/sql/lake"; }

std::vector<std::string> TestFiles() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(LakeTestDir())) {
    if (entry.path().extension() == ".test") files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string FixtureDir(const std::string& name) {
  return testing::SharedPath("fixtures/ducklake/" + name);
}

struct Record {
  int line = 0;
  std::string kind;    // "statement ok", "statement error", "query", "attach"
  std::string detail;  // error substring, query types, or the attach arguments
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
    } else if (header.rfind("attach ", 0) == 0) {
      record.kind = "attach";
      record.detail = header.substr(7);
      records.push_back(std::move(record));
      ++i;
      continue;
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

class LakeLogicTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LakeLogicTest, File) {
  const std::string path = LakeTestDir() + "/" + GetParam();
  testing::TempDir temp;
  Session session;
  std::string data_dir;
  auto substitute = [&](std::string text) {
    auto replace = [&](const std::string& key, const std::string& value) {
      size_t at;
      while ((at = text.find(key)) != std::string::npos) text.replace(at, key.size(), value);
    };
    replace("${SHARED}", TARN_SHARED_DIR);
    replace("${TEMP}", temp.path());
    replace("${DATA}", data_dir);
    return text;
  };
  std::vector<Record> records = ParseFile(path);
  ASSERT_FALSE(records.empty()) << path << " has no records";
  for (const Record& record : records) {
    std::string where = GetParam() + ":" + std::to_string(record.line);
    if (record.kind == "attach") {
      std::istringstream words(record.detail);
      std::string fixture, mode;
      words >> fixture >> mode;
      ASSERT_TRUE(mode.empty() || mode == "read_only" || mode == "copy_data")
          << "attach mode \"" << mode << "\" (expected read_only or copy_data)";
      const std::string catalog = FixtureDir(fixture) + "/catalog.sqlite";
      ASSERT_TRUE(testing::FileExists(catalog)) << where;
      const std::string copy = temp.Join(fixture + ".sqlite");
      std::filesystem::copy_file(catalog, copy,
                                 std::filesystem::copy_options::overwrite_existing);
      std::filesystem::permissions(copy, std::filesystem::perms::owner_read |
                                             std::filesystem::perms::owner_write);
      data_dir = FixtureDir(fixture) + "/data";
      if (mode != "read_only") {
        // Writes go to a private copy: the shared fixture stays as it is.
        const std::string data_copy = temp.Join(fixture + "-data");
        std::filesystem::remove_all(data_copy);
        std::filesystem::copy(data_dir, data_copy, std::filesystem::copy_options::recursive);
        for (const auto& entry : std::filesystem::recursive_directory_iterator(data_copy)) {
          std::filesystem::permissions(entry.path(), std::filesystem::perms::owner_all,
                                       std::filesystem::perm_options::add);
        }
        data_dir = data_copy;
      }
      AttachOptions options;
      options.data_path = data_dir;
      options.read_only = mode == "read_only";
      Status attached = session.Attach("ducklake:sqlite:" + copy, options);
      ASSERT_TRUE(attached.ok()) << where << ": " << attached.ToString();
      continue;
    }
    std::string sql = substitute(record.sql);
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
        std::string detail = substitute(record.detail);
        EXPECT_NE(status.message().find(detail), std::string::npos)
            << where << ": error \"" << status.message() << "\" lacks \"" << detail << "\"";
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
    for (const std::string& row : record.expected) expected.push_back(substitute(row));
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

INSTANTIATE_TEST_SUITE_P(Files, LakeLogicTest, ::testing::ValuesIn(TestFiles()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name =
                               param_info.param.substr(0, param_info.param.size() - 5);
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace tarn
