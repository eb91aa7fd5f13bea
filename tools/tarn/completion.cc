#include "completion.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

namespace tarn::cli {
namespace {

constexpr const char* kKeywords[] = {
    "ALL", "ALTER", "AND", "ANTI", "AS", "ASC", "AT", "ATTACH", "BEGIN", "BETWEEN", "BY",
    "CALL", "CASE", "CAST", "COLUMN", "COMMIT", "COPY", "CREATE", "CROSS", "DEFAULT", "DELETE",
    "DESC", "DESCRIBE", "DETACH", "DISTINCT", "DROP", "ELSE", "END", "EXCEPT", "EXISTS",
    "EXPLAIN", "FALSE", "FILTER", "FIRST", "FROM", "FULL", "GROUP", "HAVING", "IF", "ILIKE",
    "IN", "INNER", "INSERT", "INTERSECT", "INTO", "IS", "JOIN", "LAST", "LEFT", "LIKE", "LIMIT",
    "MERGE", "NOT", "NULL", "NULLS", "OFFSET", "ON", "OR", "ORDER", "OUTER", "OVER",
    "PARTITION", "PIVOT", "QUALIFY", "RECURSIVE", "RENAME", "REPLACE", "RESET", "RIGHT",
    "ROLLBACK", "SCHEMA", "SELECT", "SEMI", "SET", "SHOW", "SUMMARIZE", "TABLE", "TABLES",
    "THEN", "TIMESTAMP", "TO", "TRANSACTION", "TRUE", "UNION", "UNNEST", "UPDATE", "USE",
    "USING", "VALUES", "VERSION", "VIEW", "WHEN", "WHERE", "WINDOW", "WITH"};

constexpr const char* kFunctions[] = {
    "abs", "any_value", "approx_count_distinct", "arg_max", "arg_min", "array_agg", "avg",
    "bool_and", "bool_or", "ceil", "coalesce", "concat", "concat_ws", "contains", "count",
    "current_date", "current_timestamp", "date_diff", "date_part", "date_trunc",
    "ducklake_list_files", "ducklake_options", "ducklake_snapshots", "ducklake_table_changes",
    "ducklake_table_info", "duckdb_columns", "duckdb_databases", "duckdb_schemas",
    "duckdb_tables", "duckdb_views", "ends_with", "epoch", "epoch_ms", "extract", "first",
    "floor", "generate_series", "greatest", "hash", "ifnull", "last", "least", "left",
    "length", "list_value", "lower", "ltrim", "max", "md5", "median", "min", "mode", "now",
    "nullif", "parquet_metadata", "parquet_schema", "quantile_cont", "range", "read_csv",
    "read_csv_auto", "read_parquet", "regexp_extract", "regexp_matches", "regexp_replace",
    "replace", "right", "round", "row_number", "rtrim", "split_part", "sqrt", "starts_with",
    "stats", "stddev", "string_agg", "strftime", "strptime", "struct_pack", "substr",
    "substring", "sum", "trim", "trunc", "typeof", "unnest", "upper", "variance"};

constexpr const char* kSettings[] = {"layout_picker", "layout_sample_rows", "memory_limit",
                                     "threads"};

bool IsWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  if (prefix.size() > text.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) !=
        std::tolower(static_cast<unsigned char>(prefix[i]))) {
      return false;
    }
  }
  return true;
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// File names under the directory part of `partial` that start with its last part.
std::vector<std::string> CompletePath(const std::string& partial) {
  std::vector<std::string> matches;
  const size_t slash = partial.rfind('/');
  const std::string directory = slash == std::string::npos ? "" : partial.substr(0, slash + 1);
  const std::string stem = slash == std::string::npos ? partial : partial.substr(slash + 1);
  std::error_code error;
  std::filesystem::directory_iterator entries(directory.empty() ? "." : directory, error);
  if (error) return matches;
  for (const auto& entry : entries) {
    std::string name = entry.path().filename().string();
    if (name.compare(0, stem.size(), stem) != 0) continue;
    if (name[0] == '.' && (stem.empty() || stem[0] != '.')) continue;
    std::error_code type_error;
    if (entry.is_directory(type_error)) name += '/';
    matches.push_back(directory + name);
  }
  return matches;
}

}  // namespace

const std::vector<DotCommandHelp>& DotCommands() {
  static const std::vector<DotCommandHelp> commands = {
      {".exit", "", "Exit the shell (also .quit, Ctrl-D)"},
      {".help", "", "Show this message"},
      {".maxrows", "N", "Rows a table shows before eliding the middle (default 40)"},
      {".mode", "MODE", "Result format: table, box, csv, json, markdown or line"},
      {".open", "LAKE [DATA_PATH]", "Close this session and open LAKE in a new one"},
      {".pager", "on|off", "Show results taller than the terminal through $PAGER (less)"},
      {".output", "[FILE]", "Write results to FILE (no FILE: back to standard output)"},
      {".quit", "", "Exit the shell"},
      {".read", "FILE", "Run the SQL statements in FILE"},
      {".schema", "[TABLE]", "Show the CREATE statements of the tables (or of TABLE)"},
      {".tables", "[PATTERN]", "List the tables and views (names LIKE PATTERN)"},
      {".timer", "on|off", "Show the run time (wall and CPU) of each statement"},
  };
  return commands;
}

std::string CommonPrefix(const std::vector<std::string>& matches) {
  if (matches.empty()) return "";
  std::string prefix = matches[0];
  for (const std::string& match : matches) {
    size_t length = 0;
    while (length < prefix.size() && length < match.size() && prefix[length] == match[length]) {
      ++length;
    }
    prefix.resize(length);
  }
  return prefix;
}

Completion Complete(std::string_view line, const CompletionNames& names) {
  Completion completion;
  // Inside a quoted string (an odd number of quotes before the cursor): a file path.
  size_t quotes = static_cast<size_t>(std::count(line.begin(), line.end(), '\''));
  if (quotes % 2 == 1) {
    completion.word_start = line.rfind('\'') + 1;
    completion.matches = CompletePath(std::string(line.substr(completion.word_start)));
    std::sort(completion.matches.begin(), completion.matches.end());
    return completion;
  }
  size_t start = line.size();
  while (start > 0 && IsWordChar(line[start - 1])) --start;
  completion.word_start = start;
  const std::string_view word = line.substr(start);
  std::vector<std::string>& matches = completion.matches;

  const size_t first = line.find_first_not_of(" \t");
  if (first != std::string_view::npos && line[first] == '.' &&
      line.find_first_of(" \t", first) == std::string_view::npos) {
    completion.word_start = first;
    for (const DotCommandHelp& command : DotCommands()) {
      if (StartsWithNoCase(command.name, line.substr(first))) matches.push_back(command.name);
    }
    return completion;
  }
  if (word.empty()) return completion;  // everything would match: list nothing

  const bool lower_case = std::islower(static_cast<unsigned char>(word[0])) != 0;
  for (const char* keyword : kKeywords) {
    if (StartsWithNoCase(keyword, word)) matches.push_back(lower_case ? Lower(keyword) : keyword);
  }
  auto add = [&](const std::string& name) {
    if (StartsWithNoCase(name, word)) matches.push_back(name);
  };
  for (const char* function : kFunctions) add(function);
  for (const char* setting : kSettings) add(setting);
  for (const std::string& name : names.lakes) add(name);
  for (const std::string& name : names.schemas) add(name);
  for (const std::string& name : names.tables) add(name);
  for (const std::string& name : names.columns) add(name);
  std::sort(matches.begin(), matches.end());
  matches.erase(std::unique(matches.begin(), matches.end()), matches.end());
  return completion;
}

}  // namespace tarn::cli
