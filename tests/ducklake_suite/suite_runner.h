// Runs the official DuckLake extension's sqllogictest files through tarn::Session, with the
// rules of DuckDB's runner: substitutions (__TEST_DIR__, {UUID}, {BASE_TEST_NAME},
// ${VAR}), test-env (the configuration's environment wins), require / require-env (a
// missing extension or variable skips the file), loops, skipif/onlyif, mode skip, sort modes
// and result labels, statement error with message matching, named connections, and a file
// stopping at its first failing record.
//
// Named connections (`statement ok con1`) are Sessions of their own; each starts by replaying
// the session-level statements (ATTACH, DETACH, USE, SET, RESET) the default connection ran,
// so it sees the same lakes, as a second connection of one DuckDB database does.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tarn/status.h"

namespace tarn::suite {

// The suite and its configuration (test/configs/sqlite.json).
struct SuiteConfig {
  std::string root;                               // the suite's folder: test/, data/
  std::map<std::string, std::string> env;         // test_env: name -> value (unsubstituted)
  std::map<std::string, std::string> skip_tests;  // "test/sql/x.test" -> reason
  std::vector<std::string> skip_error_messages;   // an error containing one skips the file
};

Result<SuiteConfig> LoadSuiteConfig(const std::string& root, const std::string& config_path);

// Every test file of the suite ("test/sql/.../x.test"), sorted.
std::vector<std::string> SuiteFiles(const SuiteConfig& config);

struct FileOutcome {
  enum class Kind { kPass, kFail, kSkip, kCrash, kTimeout };
  Kind kind = Kind::kPass;
  int line = 0;        // the failing or skipping record's line (0: the file as a whole)
  std::string reason;  // one line
};

const char* KindName(FileOutcome::Kind kind);

// Runs the file `relative` ("test/sql/...") with `test_dir` as __TEST_DIR__ (an empty folder
// the caller owns). The working directory must be config.root, so "data/..." resolves.
FileOutcome RunSuiteFile(const SuiteConfig& config, const std::string& relative,
                         const std::string& test_dir);

// The reason with names, numbers and paths blurred, so failures of one cause group together.
std::string CauseOf(const std::string& reason);

}  // namespace tarn::suite
