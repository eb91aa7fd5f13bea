// Runs the built `tarn` program as a user would, for the program's tests.
#pragma once

#include <string>
#include <vector>

#include "support/test_util.h"

namespace tarn::testing {

struct RunResult {
  int exit_code = -1;
  std::string out;  // standard output
  std::string err;  // standard error
};

// Runs BinaryDir()/tarn with `args` (each passed as one argument); `stdin_text`, when
// given, is fed on standard input (otherwise /dev/null). Scratch files go into `dir`.
RunResult RunTarn(const std::vector<std::string>& args, const TempDir& dir,
                  const std::string* stdin_text = nullptr);
// The same, run from the folder `cwd` (relative paths in `args` are read from there).
RunResult RunTarnIn(const std::string& cwd, const std::vector<std::string>& args,
                    const TempDir& dir);

}  // namespace tarn::testing
