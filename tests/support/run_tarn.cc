#include "support/run_tarn.h"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "support/test_util.h"

namespace tarn::testing {
namespace {

std::string ShellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

namespace {

RunResult Run(const std::string* cwd, const std::vector<std::string>& args, const TempDir& dir,
              const std::string* stdin_text) {
  std::string command;
  if (cwd != nullptr) command = "cd " + ShellQuote(*cwd) + " && ";
  command += ShellQuote(BinaryDir() + "/tarn");
  for (const std::string& arg : args) command += " " + ShellQuote(arg);
  if (stdin_text != nullptr) {
    std::string in_path = dir.Join("stdin.sql");
    std::ofstream(in_path) << *stdin_text;
    command += " <" + ShellQuote(in_path);
  } else {
    command += " </dev/null";
  }
  std::string err_path = dir.Join("stderr.txt");
  command += " 2>" + ShellQuote(err_path);
  RunResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return result;
  std::array<char, 65536> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
    result.out.append(buffer.data(), n);
  }
  int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::stringstream err;
  err << std::ifstream(err_path).rdbuf();
  result.err = err.str();
  return result;
}

}  // namespace

RunResult RunTarn(const std::vector<std::string>& args, const TempDir& dir,
                  const std::string* stdin_text) {
  return Run(nullptr, args, dir, stdin_text);
}

RunResult RunTarnIn(const std::string& cwd, const std::vector<std::string>& args,
                    const TempDir& dir) {
  return Run(&cwd, args, dir, nullptr);
}

}  // namespace tarn::testing
