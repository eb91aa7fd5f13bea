// The records of one DuckDB sqllogictest file, as the official DuckLake extension's suite
// writes them (../shared/ducklake-suite/test/sql/**/*.test).
//
// A record starts at a header line and ends at a blank line:
//   statement ok|error|maybe [connection]     SQL lines; for error/maybe, optionally "----"
//                                             and the expected message (substring or
//                                             "<REGEX>:pattern", "<!REGEX>:pattern")
//   query <types> [nosort|rowsort|valuesort] [label|connection]
//                                             SQL lines, "----", expected rows (tab-separated
//                                             values; or one value per line)
//   require X / require-env NAME [VALUE] / test-env NAME VALUE / mode skip|unskip|... /
//   skipif C / onlyif C (apply to the next record) / loop V FROM TO / foreach V A B ... /
//   concurrentloop V FROM TO / concurrentforeach V ... / endloop / unzip SRC DST / other
//   one-line directives.
// '#' lines outside SQL are comments. Parsing never fails: an unknown header becomes a
// directive record the runner reports as unsupported.
#pragma once

#include <string>
#include <vector>

namespace tarn::suite {

struct SuiteRecord {
  int line = 0;                       // 1-based line of the header
  std::vector<std::string> header;    // the header's words: {"statement", "ok", "con1"}
  std::string sql;                    // the SQL lines joined by '\n'
  bool has_expected = false;          // a "----" line was present
  std::vector<std::string> expected;  // the lines after "----"
};

// Splits `text` into records. `text` is the whole file.
std::vector<SuiteRecord> ParseSuiteFile(const std::string& text);

}  // namespace tarn::suite
