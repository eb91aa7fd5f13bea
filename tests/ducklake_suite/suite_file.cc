#include "ducklake_suite/suite_file.h"

#include <sstream>

namespace tarn::suite {
namespace {

std::vector<std::string> Words(const std::string& line) {
  std::vector<std::string> words;
  std::istringstream in(line);
  std::string word;
  while (in >> word) words.push_back(word);
  return words;
}

bool IsBlank(const std::string& line) {
  return line.find_first_not_of(" \t\r") == std::string::npos;
}

// Headers whose record carries SQL (and maybe expected lines) after the header line.
bool HasBody(const std::string& word) { return word == "statement" || word == "query"; }

}  // namespace

std::vector<SuiteRecord> ParseSuiteFile(const std::string& text) {
  std::vector<std::string> lines;
  {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      lines.push_back(std::move(line));
    }
  }
  std::vector<SuiteRecord> records;
  size_t at = 0;
  while (at < lines.size()) {
    const std::string& line = lines[at];
    if (IsBlank(line) || line[0] == '#') {
      ++at;
      continue;
    }
    SuiteRecord record;
    record.line = static_cast<int>(at) + 1;
    record.header = Words(line);
    ++at;
    if (!HasBody(record.header[0])) {
      records.push_back(std::move(record));
      continue;
    }
    // SQL until "----" or a blank line.
    std::string sql;
    while (at < lines.size() && !IsBlank(lines[at]) && lines[at] != "----") {
      if (!sql.empty()) sql += '\n';
      sql += lines[at];
      ++at;
    }
    record.sql = std::move(sql);
    if (at < lines.size() && lines[at] == "----") {
      record.has_expected = true;
      ++at;
      // A query's expected rows end at a blank line; so does an error message.
      while (at < lines.size() && !IsBlank(lines[at])) {
        record.expected.push_back(lines[at]);
        ++at;
      }
    }
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace tarn::suite
