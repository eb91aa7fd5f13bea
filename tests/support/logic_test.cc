#include "support/logic_test.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>

#include "tarn/format.h"

namespace tarn::testing {

std::vector<LogicRecord> ParseLogicFile(const std::string& path,
                                        const std::vector<std::string>& directives) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::vector<LogicRecord> records;
  size_t i = 0;
  while (i < lines.size()) {
    const std::string& header = lines[i];
    if (header.empty() || header[0] == '#') {
      ++i;
      continue;
    }
    LogicRecord record;
    record.line = static_cast<int>(i + 1);
    auto directive =
        std::find_if(directives.begin(), directives.end(), [&](const std::string& name) {
          return header.rfind(name + " ", 0) == 0;
        });
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
    } else if (directive != directives.end()) {
      record.kind = *directive;
      record.detail = header.substr(directive->size() + 1);
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

std::vector<std::string> LogicTestFiles(const std::string& dir) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".test") files.push_back(entry.path().filename().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string LogicTestName(const std::string& file) {
  std::string name = file.substr(0, file.size() - 5);
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

namespace {

bool TypeMatches(char letter, const DataType& type) {
  switch (letter) {
    case 'I': return type.IsInteger();
    case 'R': return type.IsFloating() || type.id == TypeId::kDecimal;
    case 'B': return type.id == TypeId::kBoolean;
    case 'T': return true;
    default: return false;
  }
}

// Every row of `sql`'s result, values tab-separated; an empty non-NULL string is "(empty)".
Status QueryRows(Session* session, const std::string& sql, std::shared_ptr<const Schema>* schema,
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

}  // namespace

LogicTestRunner::LogicTestRunner(std::string dir, std::string file)
    : dir_(std::move(dir)), file_(std::move(file)) {
  SetVariable("SHARED", SharedDir());
  SetVariable("TEMP", temp_.path());
}

void LogicTestRunner::AddDirective(std::string name, Directive handler) {
  directives_.emplace_back(std::move(name), std::move(handler));
}

void LogicTestRunner::SetVariable(const std::string& name, std::string value) {
  const std::string key = "${" + name + "}";
  for (auto& variable : variables_) {
    if (variable.first == key) {
      variable.second = std::move(value);
      return;
    }
  }
  variables_.emplace_back(key, std::move(value));
}

std::string LogicTestRunner::Substitute(std::string text) const {
  for (const auto& [key, value] : variables_) {
    size_t at;
    while ((at = text.find(key)) != std::string::npos) text.replace(at, key.size(), value);
  }
  return text;
}

void LogicTestRunner::Run() {
  const std::string path = dir_ + "/" + file_;
  std::vector<std::string> names;
  for (const auto& directive : directives_) names.push_back(directive.first);
  std::vector<LogicRecord> records = ParseLogicFile(path, names);
  ASSERT_FALSE(records.empty()) << path << " has no records";
  for (const LogicRecord& record : records) {
    const std::string where = file_ + ":" + std::to_string(record.line);
    auto directive = std::find_if(directives_.begin(), directives_.end(),
                                  [&](const auto& entry) { return entry.first == record.kind; });
    if (directive != directives_.end()) {
      directive->second(record.detail, where);
      if (::testing::Test::HasFatalFailure()) return;
      continue;
    }
    if (record.kind == "statement ok" || record.kind == "statement error") {
      RunStatement(record, where);
      continue;
    }
    ASSERT_EQ(record.kind, "query") << where;
    RunQuery(record, where);
  }
}

void LogicTestRunner::RunStatement(const LogicRecord& record, const std::string& where) {
  const std::string sql = Substitute(record.sql);
  Status status = session_.ExecuteScript(sql, [](QueryResult& result) {
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, result.reader->Next());
      if (!batch) return Status::OK();
    }
  });
  if (record.kind == "statement ok") {
    EXPECT_TRUE(status.ok()) << where << ": " << status.ToString() << "\n" << sql;
    return;
  }
  EXPECT_FALSE(status.ok()) << where << ": expected an error containing \"" << record.detail
                            << "\"\n" << sql;
  const std::string detail = Substitute(record.detail);
  EXPECT_NE(status.message().find(detail), std::string::npos)
      << where << ": error \"" << status.message() << "\" lacks \"" << detail << "\"";
}

void LogicTestRunner::RunQuery(const LogicRecord& record, const std::string& where) {
  const std::string sql = Substitute(record.sql);
  std::shared_ptr<const Schema> schema;
  std::vector<std::string> rows;
  Status status = QueryRows(&session_, sql, &schema, &rows);
  if (!status.ok()) {
    ADD_FAILURE() << where << ": " << status.ToString() << "\n" << sql;
    return;
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
  for (const std::string& row : record.expected) expected.push_back(Substitute(row));
  if (record.rowsort) {
    std::sort(rows.begin(), rows.end());
    std::sort(expected.begin(), expected.end());
  }
  std::string actual_text, expected_text;
  for (const auto& row : rows) actual_text += row + "\n";
  for (const auto& row : expected) expected_text += row + "\n";
  EXPECT_EQ(actual_text, expected_text) << where << "\n" << sql;
}

}  // namespace tarn::testing
