// Tab completion for the interactive shell: which word the cursor is on and what it may
// become, from names the shell reads from the live session (tables, columns, schemas, lakes)
// and fixed lists (keywords, functions, settings, dot commands).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tarn::cli {

// The names completion draws on besides the fixed lists.
struct CompletionNames {
  std::vector<std::string> lakes;    // attached catalogs
  std::vector<std::string> schemas;
  std::vector<std::string> tables;   // tables and views
  std::vector<std::string> columns;
};

struct Completion {
  size_t word_start = 0;              // where the completed word starts in the line
  std::vector<std::string> matches;   // sorted, without duplicates; each replaces the word
};

// Completes the word that ends at the end of `line` (the text before the cursor). Inside a
// single-quoted string: file paths (directories end in '/'). The first word of a line starting
// with '.': dot commands. Otherwise: keywords (in the case the word is typed in), function,
// setting, lake, schema, table and column names, matched case-insensitively.
Completion Complete(std::string_view line, const CompletionNames& names);

// The longest prefix shared by every match.
std::string CommonPrefix(const std::vector<std::string>& matches);

// The dot commands, with their help text, in the order .help shows them.
struct DotCommandHelp {
  const char* name;
  const char* arguments;
  const char* description;
};
const std::vector<DotCommandHelp>& DotCommands();

}  // namespace tarn::cli
