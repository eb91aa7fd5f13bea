#include "support/oracle.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "support/test_util.h"

extern char** environ;

namespace tarn::testing {
namespace {

constexpr const char* kSetupHint = "run scripts/setup.sh to install node and the DuckDB oracle";

// A scratch directory for one oracle call, removed on destruction.
class ScratchDir {
 public:
  ScratchDir() {
    char name[] = "/tmp/tarn-oracle-call-XXXXXX";
    if (::mkdtemp(name) != nullptr) path_ = name;
  }
  ~ScratchDir() {
    std::error_code error;
    if (!path_.empty()) std::filesystem::remove_all(path_, error);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  bool ok() const { return !path_.empty(); }
  std::string Join(const char* name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// Returns the full path of `program` on PATH, or "" when it is not there.
std::string FindOnPath(const std::string& program) {
  const char* path_env = std::getenv("PATH");
  std::string_view dirs = path_env != nullptr ? path_env : "/usr/local/bin:/usr/bin:/bin";
  while (true) {
    size_t colon = dirs.find(':');
    std::string dir(dirs.substr(0, colon));
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + program;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    if (colon == std::string_view::npos) return "";
    dirs.remove_prefix(colon + 1);
  }
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char escaped[8];
          std::snprintf(escaped, sizeof(escaped), "\\u%04x", static_cast<unsigned>(c));
          out += escaped;
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

Status WriteTextFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) return Status::IOError("cannot write '", path, "'");
  return Status::OK();
}

std::string ReadTextFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs node query.mjs on `request_path`, its stdout and stderr going to files in `scratch`.
Status RunNode(const ScratchDir& scratch, const std::string& request_path,
               const std::string& response_path) {
  std::string oracle_dir = OracleDir();
  std::string script = oracle_dir + "/query.mjs";
  std::string node = FindOnPath("node");
  if (node.empty()) return Status::NotFound("DuckDB oracle: 'node' is not on PATH; ", kSetupHint);
  std::string module_dir = oracle_dir + "/node_modules/@duckdb/node-api";
  struct stat st;
  if (::stat(module_dir.c_str(), &st) != 0) {
    return Status::NotFound("DuckDB oracle: '", module_dir, "' is missing; ", kSetupHint);
  }
  std::string stdout_path = scratch.Join("stdout");
  std::string stderr_path = scratch.Join("stderr");

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdout_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<std::string> args = {node, script, request_path, response_path};
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  int spawn_error = ::posix_spawn(&pid, node.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawn_error != 0) {
    return Status::IOError("DuckDB oracle: cannot start '", node, "': ",
                           std::strerror(spawn_error), "; ", kSetupHint);
  }
  int wait_status = 0;
  while (::waitpid(pid, &wait_status, 0) < 0) {
    if (errno != EINTR) return Status::IOError("DuckDB oracle: waitpid: ", std::strerror(errno));
  }
  if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) == 0) return Status::OK();
  std::string how = WIFEXITED(wait_status)
                        ? StrCat("exited with status ", WEXITSTATUS(wait_status))
                        : StrCat("was killed by signal ", WTERMSIG(wait_status));
  return Status::Internal("DuckDB oracle: node ", script, " ", how, ": ",
                          ReadTextFile(stderr_path), ReadTextFile(stdout_path));
}

// Parses the response: per query "OK <n>\n" or "ERR <n>\n", n bytes, "\n".
Result<std::vector<Result<std::string>>> ParseResponse(const std::string& response,
                                                       size_t expected) {
  std::vector<Result<std::string>> results;
  size_t pos = 0;
  while (results.size() < expected) {
    size_t line_end = response.find('\n', pos);
    if (line_end == std::string::npos) {
      return Status::Internal("DuckDB oracle: response ends after ", results.size(), " of ",
                              expected, " results");
    }
    std::string header = response.substr(pos, line_end - pos);
    size_t space = header.find(' ');
    std::string kind = header.substr(0, space);
    char* end = nullptr;
    unsigned long long length =
        space == std::string::npos ? 0 : std::strtoull(header.c_str() + space + 1, &end, 10);
    size_t body = line_end + 1;
    if ((kind != "OK" && kind != "ERR") || end == nullptr || *end != '\0' ||
        length > response.size() - body || response.size() - body - length < 1) {
      return Status::Internal("DuckDB oracle: malformed response header '", header,
                              "' at byte ", pos);
    }
    std::string text = response.substr(body, length);
    if (kind == "OK") {
      results.emplace_back(std::move(text));
    } else {
      results.emplace_back(Status::InvalidArgument("DuckDB error: ", text));
    }
    pos = body + length + 1;
  }
  return results;
}

Result<std::vector<Result<std::string>>> RunOracle(const std::string& mode,
                                                   const std::vector<std::string>& queries) {
  ScratchDir scratch;
  if (!scratch.ok()) {
    return Status::IOError("DuckDB oracle: mkdtemp under /tmp failed: ", std::strerror(errno));
  }
  std::string request = "{\"mode\": " + JsonString(mode) + ", \"queries\": [";
  for (size_t query_idx = 0; query_idx < queries.size(); ++query_idx) {
    if (query_idx > 0) request += ", ";
    request += JsonString(queries[query_idx]);
  }
  request += "]}\n";
  std::string request_path = scratch.Join("request.json");
  std::string response_path = scratch.Join("response");
  TARN_RETURN_NOT_OK(WriteTextFile(request_path, request));
  TARN_RETURN_NOT_OK(RunNode(scratch, request_path, response_path));
  return ParseResponse(ReadTextFile(response_path), queries.size());
}

}  // namespace

Result<std::string> DuckDBQueryCsv(const std::string& sql) {
  TARN_ASSIGN_OR_RETURN(auto results, RunOracle("csv", {sql}));
  return std::move(results[0]);
}

Status DuckDBExecute(const std::string& sql) {
  TARN_ASSIGN_OR_RETURN(auto results, RunOracle("exec", {sql}));
  return results[0].status();
}

std::vector<Result<std::string>> DuckDBQueryCsvBatch(const std::vector<std::string>& queries) {
  auto results = RunOracle("csv", queries);
  if (results.ok()) return std::move(results).value();
  // The oracle itself failed: every query reports why.
  return std::vector<Result<std::string>>(queries.size(), results.status());
}

}  // namespace tarn::testing
