// The runner of tarn's SQL logic tests (tests/sql/*.test, tests/sql/lake/*.test), in the
// sqllogictest style. A file is a list of records separated by blank lines ('#' lines are
// comments):
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
// A user adds directives: a one-line record "<name> <arguments>" handled by its own code.
// ${SHARED}, ${TEMP} (a fresh directory per file) and the user's variables are substituted in
// SQL, expected rows and error substrings. Each file runs in its own Session.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "support/test_util.h"
#include "tarn/sql.h"

namespace tarn::testing {

// One record of a .test file.
struct LogicRecord {
  int line = 0;         // 1-based line of the header
  std::string kind;     // "statement ok", "statement error", "query", a directive's name, or
                        // "invalid: <header>"
  std::string detail;   // error substring, query types, or a directive's arguments
  bool rowsort = false;
  std::string sql;
  std::vector<std::string> expected;
};

// The records of the file at `path`. A header "<name> <arguments>" whose name is one of
// `directives` is a record of its own, without SQL or rows.
std::vector<LogicRecord> ParseLogicFile(const std::string& path,
                                        const std::vector<std::string>& directives);

// The names of the *.test files in `dir`, sorted.
std::vector<std::string> LogicTestFiles(const std::string& dir);

// A gtest parameter name for the .test file `file`: without ".test", every character other
// than a letter or digit replaced by '_'.
std::string LogicTestName(const std::string& file);

// Runs one .test file in its own Session and temporary directory, reporting every mismatch
// as a gtest failure. Call Run() from the body of a test.
class LogicTestRunner {
 public:
  // Handles one directive record. `arguments` is the header after "<name> "; `where` is
  // "file:line". Failures are reported with gtest assertions; a fatal one stops the file.
  using Directive = std::function<void(const std::string& arguments, const std::string& where)>;

  // The file `dir`/`file`.
  LogicTestRunner(std::string dir, std::string file);

  Session& session() { return session_; }
  const TempDir& temp() const { return temp_; }

  void AddDirective(std::string name, Directive handler);
  // ${name} is replaced by `value` from now on (setting a name again replaces its value).
  void SetVariable(const std::string& name, std::string value);

  void Run();

 private:
  std::string Substitute(std::string text) const;
  void RunStatement(const LogicRecord& record, const std::string& where);
  void RunQuery(const LogicRecord& record, const std::string& where);

  std::string dir_;
  std::string file_;
  TempDir temp_;
  Session session_;
  std::vector<std::pair<std::string, std::string>> variables_;  // "${name}", value
  std::vector<std::pair<std::string, Directive>> directives_;
};

}  // namespace tarn::testing
