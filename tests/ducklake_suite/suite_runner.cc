#include "ducklake_suite/suite_runner.h"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <random>
#include <regex>
#include <set>
#include <sstream>

#include "ducklake_suite/suite_file.h"
#include "tarn/format.h"
#include "tarn/sql.h"

namespace tarn::suite {
namespace {

namespace fs = std::filesystem;

// The extensions tarn is, for `require`, and the runner conditions that hold here (not
// Windows; no alternative verification).
bool Provides(const std::string& extension) {
  static const char* kProvided[] = {"ducklake", "parquet",   "json",
                                    "icu",      "core_functions", "notwindows",
                                    "no_alternative_verify"};
  return std::any_of(std::begin(kProvided), std::end(kProvided),
                     [&](const char* name) { return extension == name; });
}

std::string RandomUuid() {
  static std::mt19937_64 generator{std::random_device{}()};
  static const char* kHex = "0123456789abcdef";
  std::string uuid;
  for (int i = 0; i < 32; ++i) {
    if (i == 8 || i == 12 || i == 16 || i == 20) uuid += '-';
    uuid += kHex[generator() % 16];
  }
  return uuid;
}

void ReplaceAll(std::string* text, const std::string& from, const std::string& to) {
  size_t at = 0;
  while ((at = text->find(from, at)) != std::string::npos) {
    text->replace(at, from.size(), to);
    at += to.size();
  }
}

std::string OneLine(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  if (text.size() > 300) text = text.substr(0, 300) + "…";
  return text;
}

// "<REGEX>:p" matches when p matches the whole text; "." also matches a line break, as in
// DuckDB's runner.
bool RegexMatches(const std::string& pattern, const std::string& text, bool whole) {
  std::string translated;
  bool in_class = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      translated += c;
      translated += pattern[++i];
      continue;
    }
    if (c == '[') in_class = true;
    if (c == ']') in_class = false;
    if (c == '.' && !in_class) {
      translated += "[\\s\\S]";
      continue;
    }
    translated += c;
  }
  try {
    std::regex regex(translated, std::regex::ECMAScript);
    return whole ? std::regex_match(text, regex) : std::regex_search(text, regex);
  } catch (const std::regex_error&) {
    return false;
  }
}

bool ParseDouble(const std::string& text, double* value) {
  if (text.empty()) return false;
  char* end = nullptr;
  *value = std::strtod(text.c_str(), &end);
  return end == text.c_str() + text.size();
}

// DuckDB's runner compares the text; values that differ as text but are the same number
// (1 and 1.0, 0.30000000000000004 and 0.3 within rounding) are equal too.
// As DuckDB's runner compares a value that differs as text: cast to the column's type. For a
// BOOLEAN column that is DuckDB's VARCHAR-to-BOOLEAN cast ('True', 't', '1' are true).
std::optional<bool> BooleanText(const std::string& text) {
  std::string lower;
  for (char c : text) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "true" || lower == "t" || lower == "1") return true;
  if (lower == "false" || lower == "f" || lower == "0") return false;
  return std::nullopt;
}

bool ValueMatches(const std::string& expected, const std::string& actual, bool boolean) {
  if (expected == actual) return true;
  if (boolean) {
    std::optional<bool> e = BooleanText(expected), a = BooleanText(actual);
    return e && a && *e == *a;
  }
  if (expected.rfind("<REGEX>:", 0) == 0) return RegexMatches(expected.substr(8), actual, true);
  if (expected.rfind("<!REGEX>:", 0) == 0) return !RegexMatches(expected.substr(9), actual, true);
  double a, b;
  if (ParseDouble(expected, &a) && ParseDouble(actual, &b)) {
    if (std::isnan(a) && std::isnan(b)) return true;
    if (a == b) return true;
    const double scale = std::max({1.0, std::fabs(a), std::fabs(b)});
    return std::fabs(a - b) <= 1e-9 * scale;
  }
  return false;
}

std::vector<std::string> SplitTabs(const std::string& line) {
  std::vector<std::string> values;
  size_t start = 0;
  while (true) {
    size_t tab = line.find('\t', start);
    values.push_back(line.substr(start, tab == std::string::npos ? std::string::npos
                                                                  : tab - start));
    if (tab == std::string::npos) break;
    start = tab + 1;
  }
  return values;
}

Status GunzipFile(const std::string& from, const std::string& to) {
  gzFile in = gzopen(from.c_str(), "rb");
  if (in == nullptr) return Status::IOError("cannot open '", from, "'");
  std::ofstream out(to, std::ios::binary);
  if (!out) {
    gzclose(in);
    return Status::IOError("cannot create '", to, "'");
  }
  char buffer[1 << 16];
  int n;
  while ((n = gzread(in, buffer, sizeof(buffer))) > 0) out.write(buffer, n);
  const bool failed = n < 0;
  gzclose(in);
  if (failed) return Status::IOError("cannot decompress '", from, "'");
  return Status::OK();
}

// The rows of a query, as DuckDB's runner prints them.
struct Rows {
  int columns = 0;
  std::vector<bool> boolean;  // per column: is it BOOLEAN
  std::vector<std::vector<std::string>> values;
};

Status Drain(QueryResult& result, Rows* rows) {
  rows->columns = result.schema ? result.schema->num_fields() : 0;
  rows->boolean.assign(rows->columns, false);
  for (int c = 0; c < rows->columns; ++c) {
    rows->boolean[c] = result.schema->field(c).type.id == TypeId::kBoolean;
  }
  while (true) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, result.reader->Next());
    if (!batch) return Status::OK();
    for (int64_t row = 0; row < batch->num_rows; ++row) {
      std::vector<std::string> line;
      for (int c = 0; c < batch->num_columns(); ++c) {
        std::string text = ValueText(batch->column(c), row);
        if (text.empty() && batch->column(c).IsValid(row)) text = "(empty)";
        // DuckDB's runner writes a NUL byte as \0.
        for (size_t at = text.find('\0'); at != std::string::npos; at = text.find('\0', at)) {
          text.replace(at, 1, "\\0");
        }
        line.push_back(std::move(text));
      }
      rows->values.push_back(std::move(line));
    }
  }
}

class FileRun {
 public:
  FileRun(const SuiteConfig& config, std::string relative, std::string test_dir)
      : config_(config), relative_(std::move(relative)), test_dir_(std::move(test_dir)) {
    base_name_ = fs::path(relative_).stem().string();
    for (const auto& [name, value] : config_.env) {
      variables_[name] = Substitute(value);
      from_config_.push_back(name);
      environment_.insert(name);
    }
  }

  FileOutcome Run() {
    std::ifstream in(config_.root + "/" + relative_, std::ios::binary);
    if (!in) return Outcome(FileOutcome::Kind::kFail, 0, "cannot read the file");
    std::stringstream text;
    text << in.rdbuf();
    records_ = ParseSuiteFile(text.str());
    size_t end = records_.size();
    RunRange(0, end);
    if (done_) return outcome_;
    return Outcome(FileOutcome::Kind::kPass, 0, "");
  }

 private:
  FileOutcome Outcome(FileOutcome::Kind kind, int line, std::string reason) {
    FileOutcome outcome;
    outcome.kind = kind;
    outcome.line = line;
    outcome.reason = OneLine(std::move(reason));
    return outcome;
  }

  void Stop(FileOutcome::Kind kind, int line, std::string reason) {
    if (done_) return;
    done_ = true;
    outcome_ = Outcome(kind, line, std::move(reason));
  }

  std::string Substitute(std::string text) const {
    ReplaceAll(&text, "__TEST_DIR__", test_dir_);
    ReplaceAll(&text, "{TEST_DIR}", test_dir_);
    ReplaceAll(&text, "{BASE_TEST_NAME}", base_name_);
    ReplaceAll(&text, "__WORKING_DIRECTORY__", config_.root);
    size_t at;
    while ((at = text.find("{UUID}")) != std::string::npos) text.replace(at, 6, RandomUuid());
    for (const auto& [name, value] : variables_) ReplaceAll(&text, "${" + name + "}", value);
    // Environment variables (the config's and test-env's) may also be written {NAME}.
    for (const std::string& name : environment_) {
      auto found = variables_.find(name);
      if (found != variables_.end()) ReplaceAll(&text, "{" + name + "}", found->second);
    }
    return text;
  }

  // The index of the endloop closing the loop opened at `start`.
  size_t LoopEnd(size_t start) const {
    int depth = 0;
    for (size_t i = start; i < records_.size(); ++i) {
      const std::string& word = records_[i].header[0];
      if (word == "loop" || word == "foreach" || word == "concurrentloop" ||
          word == "concurrentforeach") {
        ++depth;
      } else if (word == "endloop") {
        if (--depth == 0) return i;
      }
    }
    return records_.size();
  }

  bool Condition(const std::string& condition) const {
    static const std::regex kCompare("^([A-Za-z_][A-Za-z0-9_]*)(=|!=|<|>)(.*)$");
    std::smatch match;
    if (std::regex_match(condition, match, kCompare)) {
      auto found = variables_.find(match[1].str());
      const std::string value = found == variables_.end() ? "" : found->second;
      const std::string op = match[2].str();
      const std::string other = match[3].str();
      double a, b;
      const bool numeric = ParseDouble(value, &a) && ParseDouble(other, &b);
      if (op == "=") return numeric ? a == b : value == other;
      if (op == "!=") return numeric ? a != b : value != other;
      if (!numeric) return false;
      return op == "<" ? a < b : a > b;
    }
    // An engine name: tarn answers as DuckDB does.
    return condition == "duckdb";
  }

  void RunRange(size_t begin, size_t end) {
    bool skip_next = false;
    for (size_t i = begin; i < end && !done_; ++i) {
      const SuiteRecord& record = records_[i];
      const std::vector<std::string>& header = record.header;
      const std::string& word = header[0];
      if (skipping_ && !(word == "mode" && header.size() > 1 && header[1] == "unskip")) {
        if (word == "loop" || word == "foreach" || word == "concurrentloop" ||
            word == "concurrentforeach") {
          i = LoopEnd(i);
        }
        continue;
      }
      if (word == "loop" || word == "concurrentloop" || word == "foreach" ||
          word == "concurrentforeach") {
        const size_t close = LoopEnd(i);
        if (close == records_.size()) {
          Stop(FileOutcome::Kind::kFail, record.line, "loop without endloop");
          return;
        }
        if (header.size() < 3) {
          Stop(FileOutcome::Kind::kFail, record.line, "malformed " + word);
          return;
        }
        std::vector<std::string> values;
        if (word == "loop" || word == "concurrentloop") {
          const long from = std::atol(Substitute(header[2]).c_str());
          const long to = header.size() > 3 ? std::atol(Substitute(header[3]).c_str()) : from;
          for (long v = from; v < to; ++v) values.push_back(std::to_string(v));
        } else {
          for (size_t w = 2; w < header.size(); ++w) values.push_back(Substitute(header[w]));
        }
        const std::string name = header[1];
        const bool had = variables_.count(name) > 0;
        const std::string saved = had ? variables_[name] : "";
        for (const std::string& value : values) {
          variables_[name] = value;
          RunRange(i + 1, close);
          if (done_) return;
        }
        if (had) {
          variables_[name] = saved;
        } else {
          variables_.erase(name);
        }
        i = close;
        continue;
      }
      if (skip_next) {
        skip_next = false;
        continue;
      }
      if (word == "skipif" || word == "onlyif") {
        const bool holds = header.size() > 1 && Condition(Substitute(header[1]));
        skip_next = word == "skipif" ? holds : !holds;
        continue;
      }
      RunRecord(record);
    }
  }

  void RunRecord(const SuiteRecord& record) {
    const std::vector<std::string>& header = record.header;
    const std::string& word = header[0];
    if (word == "statement") {
      RunStatement(record);
    } else if (word == "query") {
      RunQuery(record);
    } else if (word == "require") {
      const std::string what = header.size() > 1 ? header[1] : "";
      if (!Provides(what)) Stop(FileOutcome::Kind::kSkip, record.line, "require " + what);
    } else if (word == "require-env") {
      const std::string name = header.size() > 1 ? header[1] : "";
      auto found = variables_.find(name);
      const char* env = std::getenv(name.c_str());
      std::string value = found != variables_.end() ? found->second : (env ? env : "");
      const bool present = found != variables_.end() || env != nullptr;
      if (!present || (header.size() > 2 && value != header[2])) {
        Stop(FileOutcome::Kind::kSkip, record.line, "require-env " + name);
      }
    } else if (word == "test-env") {
      if (header.size() < 3) {
        Stop(FileOutcome::Kind::kFail, record.line, "malformed test-env");
        return;
      }
      if (std::find(from_config_.begin(), from_config_.end(), header[1]) == from_config_.end()) {
        variables_[header[1]] = Substitute(header[2]);
      }
      environment_.insert(header[1]);
    } else if (word == "mode") {
      if (header.size() > 1 && header[1] == "skip") skipping_ = true;
      if (header.size() > 1 && header[1] == "unskip") skipping_ = false;
    } else if (word == "unzip") {
      if (header.size() < 3) {
        Stop(FileOutcome::Kind::kFail, record.line, "malformed unzip");
        return;
      }
      const std::string to = Substitute(header[2]);
      std::error_code error;
      fs::create_directories(fs::path(to).parent_path(), error);
      Status status = GunzipFile(Substitute(header[1]), to);
      if (!status.ok()) Stop(FileOutcome::Kind::kFail, record.line, status.ToString());
    } else if (word == "endloop" || word == "hash-threshold" || word == "halt" ||
               word == "sleep" || word == "set") {
      if (word == "halt") Stop(FileOutcome::Kind::kPass, record.line, "");
    } else {
      Stop(FileOutcome::Kind::kFail, record.line, "runner: unsupported record '" + word + "'");
    }
  }

  // The Session of a connection name ("" is the default connection).
  Result<Session*> Connection(const std::string& name) {
    auto found = sessions_.find(name);
    if (found != sessions_.end()) return found->second.get();
    auto session = std::make_unique<Session>();
    if (!name.empty()) {
      for (const std::string& sql : session_statements_) {
        Status status = Execute(session.get(), sql, nullptr);
        if (!status.ok()) {
          return Status::InvalidArgument("connection ", name, " could not replay '", sql,
                                         "': ", status.ToString());
        }
      }
    }
    Session* raw = session.get();
    sessions_[name] = std::move(session);
    return raw;
  }

  static Status Execute(Session* session, const std::string& sql, Rows* rows) {
    return session->ExecuteScript(sql, [&](QueryResult& result) -> Status {
      Rows scratch;
      Rows* into = rows ? rows : &scratch;
      into->values.clear();
      return Drain(result, into);
    });
  }

  // Statements that shape what a connection sees, replayed by each new connection. ATTACH and
  // DETACH change the database instance every connection shares, so they reach the other open
  // connections too; USE and settings of the default connection are what a new one starts with.
  void Remember(const std::string& sql, const std::string& connection) {
    std::string head;
    for (char c : sql) {
      if (std::isspace(static_cast<unsigned char>(c))) {
        if (head.empty()) continue;
        break;
      }
      head += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    const bool shared = head == "ATTACH" || head == "DETACH";
    if (shared) {
      for (auto& [name, other] : sessions_) {
        if (name == connection) continue;
        // A connection that cannot follow (it holds the name already) keeps what it has.
        (void)Execute(other.get(), sql, nullptr);
      }
    }
    if (shared || (connection.empty() && (head == "USE" || head == "SET" || head == "RESET" ||
                                          head == "LOAD" || head == "INSTALL"))) {
      session_statements_.push_back(sql);
    }
  }

  bool SkippedError(const std::string& message) const {
    return std::any_of(config_.skip_error_messages.begin(), config_.skip_error_messages.end(),
                       [&](const std::string& skip) {
                         return message.find(skip) != std::string::npos;
                       });
  }

  bool ErrorMatches(const SuiteRecord& record, const std::string& message) const {
    if (record.expected.empty()) return true;
    std::string expected;
    for (const std::string& line : record.expected) {
      if (!expected.empty()) expected += '\n';
      expected += Substitute(line);
    }
    if (expected.rfind("<REGEX>:", 0) == 0) return RegexMatches(expected.substr(8), message, false);
    if (expected.rfind("<!REGEX>:", 0) == 0) {
      return !RegexMatches(expected.substr(9), message, false);
    }
    return message.find(expected) != std::string::npos;
  }

  void RunStatement(const SuiteRecord& record) {
    const std::vector<std::string>& header = record.header;
    const std::string mode = header.size() > 1 ? header[1] : "";
    const std::string connection = header.size() > 2 ? header[2] : "";
    const std::string sql = Substitute(record.sql);
    auto session = Connection(connection);
    if (!session.ok()) {
      Stop(FileOutcome::Kind::kFail, record.line, session.status().ToString());
      return;
    }
    Status status = Execute(*session, sql, nullptr);
    const std::string message = status.ok() ? "" : status.ToString();
    if (!status.ok() && SkippedError(message)) {
      Stop(FileOutcome::Kind::kSkip, record.line, "skipped error: " + message);
      return;
    }
    if (mode == "ok") {
      if (!status.ok()) {
        Stop(FileOutcome::Kind::kFail, record.line, message + " | " + sql);
        return;
      }
      Remember(sql, connection);
      return;
    }
    if (mode == "error") {
      if (status.ok()) {
        Stop(FileOutcome::Kind::kFail, record.line, "statement succeeded, expected an error | " + sql);
        return;
      }
      if (!ErrorMatches(record, message)) {
        std::string expected;
        for (const auto& line : record.expected) expected += line + " ";
        Stop(FileOutcome::Kind::kFail, record.line,
             "error message mismatch: expected '" + expected + "', got '" + message + "'");
      }
      return;
    }
    if (mode == "maybe") {
      if (!status.ok() && !ErrorMatches(record, message)) {
        Stop(FileOutcome::Kind::kFail, record.line, "unexpected error: " + message);
      }
      if (status.ok()) Remember(sql, connection);
      return;
    }
    Stop(FileOutcome::Kind::kFail, record.line, "runner: unknown statement mode '" + mode + "'");
  }

  void RunQuery(const SuiteRecord& record) {
    const std::vector<std::string>& header = record.header;
    if (header.size() < 2) {
      Stop(FileOutcome::Kind::kFail, record.line, "query without types");
      return;
    }
    const std::string types = header[1];
    std::string sort = "nosort", label, connection;
    for (size_t w = 2; w < header.size(); ++w) {
      const std::string& word = header[w];
      if (word == "nosort" || word == "rowsort" || word == "valuesort" || word == "sort") {
        sort = word;
      } else if (std::regex_match(word, std::regex("^con[0-9]+$"))) {
        connection = word;
      } else {
        label = word;
      }
    }
    const std::string sql = Substitute(record.sql);
    auto session = Connection(connection);
    if (!session.ok()) {
      Stop(FileOutcome::Kind::kFail, record.line, session.status().ToString());
      return;
    }
    Rows rows;
    Status status = Execute(*session, sql, &rows);
    if (!status.ok()) {
      const std::string message = status.ToString();
      if (SkippedError(message)) {
        Stop(FileOutcome::Kind::kSkip, record.line, "skipped error: " + message);
        return;
      }
      Stop(FileOutcome::Kind::kFail, record.line, message + " | " + sql);
      return;
    }
    if (rows.columns != static_cast<int>(types.size())) {
      Stop(FileOutcome::Kind::kFail, record.line,
           "wrong column count: " + std::to_string(rows.columns) + " columns, expected " +
               std::to_string(types.size()) + " | " + sql);
      return;
    }
    std::vector<std::vector<std::string>> actual = rows.values;
    if (sort == "rowsort" || sort == "sort") {
      std::sort(actual.begin(), actual.end());
    }
    std::vector<std::vector<std::string>> expected;
    for (const std::string& line : record.expected) expected.push_back(SplitTabs(Substitute(line)));
    if (!label.empty() && !record.has_expected) {
      auto stored = labels_.find(label);
      if (stored == labels_.end()) {
        labels_[label] = actual;
        return;
      }
      expected = stored->second;
    } else if (!label.empty()) {
      labels_[label] = actual;
    }
    // One value per line is allowed when a row has several columns.
    const size_t columns = types.size();
    if (columns > 1 && !expected.empty() &&
        std::all_of(expected.begin(), expected.end(),
                    [](const auto& line) { return line.size() == 1; }) &&
        expected.size() == actual.size() * columns) {
      std::vector<std::vector<std::string>> regrouped;
      for (size_t v = 0; v < expected.size(); v += columns) {
        std::vector<std::string> row;
        for (size_t c = 0; c < columns; ++c) row.push_back(expected[v + c][0]);
        regrouped.push_back(std::move(row));
      }
      expected = std::move(regrouped);
    }
    if (sort == "rowsort" || sort == "sort") std::sort(expected.begin(), expected.end());
    if (sort == "valuesort") {
      std::vector<std::string> a, e;
      for (const auto& row : actual) a.insert(a.end(), row.begin(), row.end());
      for (const auto& row : expected) e.insert(e.end(), row.begin(), row.end());
      std::sort(a.begin(), a.end());
      std::sort(e.begin(), e.end());
      actual = {a};
      expected = {e};
    }
    if (actual.size() != expected.size()) {
      Stop(FileOutcome::Kind::kFail, record.line,
           "wrong row count: " + std::to_string(actual.size()) + " rows, expected " +
               std::to_string(expected.size()) + " | " + sql + " | first row: " +
               (actual.empty() ? "(none)" : Join(actual[0])));
      return;
    }
    for (size_t r = 0; r < actual.size(); ++r) {
      if (actual[r].size() != expected[r].size()) {
        Stop(FileOutcome::Kind::kFail, record.line,
             "wrong result: row " + std::to_string(r + 1) + " is '" + Join(actual[r]) +
                 "', expected '" + Join(expected[r]) + "' | " + sql);
        return;
      }
      for (size_t c = 0; c < actual[r].size(); ++c) {
        const bool boolean = sort != "valuesort" && c < rows.boolean.size() && rows.boolean[c];
        if (!ValueMatches(expected[r][c], actual[r][c], boolean)) {
          Stop(FileOutcome::Kind::kFail, record.line,
               "wrong result: row " + std::to_string(r + 1) + " is '" + Join(actual[r]) +
                   "', expected '" + Join(expected[r]) + "' | " + sql);
          return;
        }
      }
    }
  }

  static std::string Join(const std::vector<std::string>& values) {
    std::string text;
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0) text += '\t';
      text += values[i];
    }
    return text;
  }

  const SuiteConfig& config_;
  const std::string relative_;
  const std::string test_dir_;
  std::string base_name_;
  std::vector<SuiteRecord> records_;
  std::map<std::string, std::string> variables_;
  std::vector<std::string> from_config_;
  std::set<std::string> environment_;  // names of the config's and test-env's variables
  std::map<std::string, std::unique_ptr<Session>> sessions_;
  std::vector<std::string> session_statements_;
  std::map<std::string, std::vector<std::vector<std::string>>> labels_;
  bool skipping_ = false;
  bool done_ = false;
  FileOutcome outcome_;
};

}  // namespace

Result<SuiteConfig> LoadSuiteConfig(const std::string& root, const std::string& config_path) {
  std::ifstream in(config_path);
  if (!in) return Status::NotFound("cannot read the suite configuration '", config_path, "'");
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& error) {
    return Status::InvalidArgument("suite configuration '", config_path, "': ", error.what());
  }
  SuiteConfig config;
  config.root = root;
  try {
    if (json.contains("test_env")) {
      for (const auto& entry : json["test_env"]) {
        config.env[entry.at("env_name").get<std::string>()] =
            entry.at("env_value").get<std::string>();
      }
    }
    if (json.contains("skip_tests")) {
      for (const auto& group : json["skip_tests"]) {
        const std::string reason = group.value("reason", "");
        for (const auto& path : group.at("paths")) config.skip_tests[path.get<std::string>()] = reason;
      }
    }
    if (json.contains("skip_error_messages")) {
      for (const auto& message : json["skip_error_messages"]) {
        config.skip_error_messages.push_back(message.get<std::string>());
      }
    }
  } catch (const nlohmann::json::exception& error) {
    return Status::InvalidArgument("suite configuration '", config_path, "': ", error.what());
  }
  return config;
}

std::vector<std::string> SuiteFiles(const SuiteConfig& config) {
  std::vector<std::string> files;
  const fs::path root(config.root);
  std::error_code error;
  for (fs::recursive_directory_iterator it(root / "test" / "sql", error), end; it != end;
       it.increment(error)) {
    if (error) break;
    if (it->is_regular_file() && it->path().extension() == ".test") {
      files.push_back(fs::relative(it->path(), root).string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

const char* KindName(FileOutcome::Kind kind) {
  switch (kind) {
    case FileOutcome::Kind::kPass: return "pass";
    case FileOutcome::Kind::kFail: return "fail";
    case FileOutcome::Kind::kSkip: return "skip";
    case FileOutcome::Kind::kCrash: return "crash";
    case FileOutcome::Kind::kTimeout: return "timeout";
  }
  return "?";
}

FileOutcome RunSuiteFile(const SuiteConfig& config, const std::string& relative,
                         const std::string& test_dir) {
  auto skip = config.skip_tests.find(relative);
  if (skip != config.skip_tests.end()) {
    FileOutcome outcome;
    outcome.kind = FileOutcome::Kind::kSkip;
    outcome.reason = "configuration: " + skip->second;
    return outcome;
  }
  FileRun run(config, relative, test_dir);
  return run.Run();
}

std::string CauseOf(const std::string& reason) {
  std::string cause = reason.substr(0, reason.find(" | "));
  cause = std::regex_replace(cause, std::regex("'[^']*'"), "'…'");
  cause = std::regex_replace(cause, std::regex("\"[^\"]*\""), "\"…\"");
  cause = std::regex_replace(cause, std::regex("[0-9]+"), "N");
  if (cause.size() > 110) cause = cause.substr(0, 110) + "…";
  return cause;
}

}  // namespace tarn::suite
