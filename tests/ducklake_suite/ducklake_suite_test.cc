// The official DuckLake extension's sqllogictest suite (../shared/ducklake-suite) through
// tarn::Session on a SQLite catalog, with the configuration its CI uses there.
//
// Each file runs in a child process (a crash or a hang is that file's outcome, not the
// run's) with a fresh __TEST_DIR__, two files at a time. The outcomes are compared with
// tests/ducklake_suite/expected.txt: the test fails when a file listed as passing does not
// pass, or when any file crashes or hangs. A file passing that is not listed as passing is
// reported, so the list is raised (TARN_SUITE_UPDATE=1 rewrites it; scripts/ducklake-suite.sh
// prints the counts and the failures grouped by cause).
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "ducklake_suite/suite_file.h"
#include "ducklake_suite/suite_runner.h"
#include "support/test_util.h"

namespace tarn::suite {
namespace {

namespace fs = std::filesystem;
using Kind = FileOutcome::Kind;

std::string SuiteRoot() { return tarn::testing::SharedPath("ducklake-suite"); }
std::string ExpectedPath() {
  return tarn::testing::SourceDir() + "/tests/ducklake_suite/expected.txt";
}

int EnvInt(const char* name, int fallback) {
  const char* value = std::getenv(name);
  return value ? std::atoi(value) : fallback;
}

std::string Serialize(const FileOutcome& outcome) {
  return std::string(KindName(outcome.kind)) + "\t" + std::to_string(outcome.line) + "\t" +
         outcome.reason;
}

FileOutcome Deserialize(const std::string& text) {
  FileOutcome outcome;
  std::istringstream in(text);
  std::string kind, line;
  std::getline(in, kind, '\t');
  std::getline(in, line, '\t');
  std::getline(in, outcome.reason);
  outcome.line = std::atoi(line.c_str());
  outcome.kind = kind == "pass" ? Kind::kPass : kind == "skip" ? Kind::kSkip : Kind::kFail;
  return outcome;
}

struct Child {
  pid_t pid = -1;
  int pipe = -1;
  std::string file;
  std::string output;
  std::chrono::steady_clock::time_point started;
};

// Starts `file` in a child process; its outcome arrives on the pipe.
Child Start(const SuiteConfig& config, const std::string& file) {
  int fds[2];
  if (::pipe(fds) != 0) std::abort();
  Child child;
  child.file = file;
  child.started = std::chrono::steady_clock::now();
  child.pid = ::fork();
  if (child.pid == 0) {
    ::close(fds[0]);
    // Quiet: the outcome is the report.
    int null_fd = ::open("/dev/null", O_WRONLY);
    ::dup2(null_fd, 1);
    char dir[] = "/tmp/tarn-suite-XXXXXX";
    FileOutcome outcome;
    if (::mkdtemp(dir) == nullptr || ::chdir(config.root.c_str()) != 0) {
      outcome.kind = Kind::kFail;
      outcome.reason = "runner: cannot make a test folder";
    } else {
      outcome = RunSuiteFile(config, file, dir);
    }
    const std::string text = Serialize(outcome);
    if (::write(fds[1], text.data(), text.size()) < 0) _exit(3);
    ::close(fds[1]);
    std::error_code error;
    fs::remove_all(dir, error);
    _exit(0);
  }
  ::close(fds[1]);
  child.pipe = fds[0];
  ::fcntl(child.pipe, F_SETFL, O_NONBLOCK);
  return child;
}

std::map<std::string, FileOutcome> RunAll(const SuiteConfig& config,
                                          const std::vector<std::string>& files) {
  const int parallel = std::max(1, EnvInt("TARN_SUITE_JOBS", 2));
  const auto timeout = std::chrono::seconds(EnvInt("TARN_SUITE_TIMEOUT", 120));
  std::map<std::string, FileOutcome> outcomes;
  std::vector<Child> running;
  size_t next = 0;
  while (next < files.size() || !running.empty()) {
    while (next < files.size() && static_cast<int>(running.size()) < parallel) {
      running.push_back(Start(config, files[next++]));
    }
    std::vector<pollfd> polls;
    for (const Child& child : running) polls.push_back({child.pipe, POLLIN, 0});
    ::poll(polls.data(), polls.size(), 200);
    for (size_t i = 0; i < running.size();) {
      Child& child = running[i];
      char buffer[4096];
      ssize_t n;
      bool closed = false;
      while ((n = ::read(child.pipe, buffer, sizeof(buffer))) > 0) child.output.append(buffer, n);
      if (n == 0) closed = true;
      int status = 0;
      pid_t done = closed ? ::waitpid(child.pid, &status, 0) : ::waitpid(child.pid, &status, WNOHANG);
      FileOutcome outcome;
      bool finished = false;
      if (done == child.pid) {
        while ((n = ::read(child.pipe, buffer, sizeof(buffer))) > 0) child.output.append(buffer, n);
        finished = true;
        if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && !child.output.empty()) {
          outcome = Deserialize(child.output);
        } else {
          outcome.kind = Kind::kCrash;
          outcome.reason = WIFSIGNALED(status)
                               ? "killed by signal " + std::to_string(WTERMSIG(status))
                               : "exited with " + std::to_string(WEXITSTATUS(status));
        }
      } else if (std::chrono::steady_clock::now() - child.started > timeout) {
        ::kill(child.pid, SIGKILL);
        ::waitpid(child.pid, &status, 0);
        finished = true;
        outcome.kind = Kind::kTimeout;
        outcome.reason = "no outcome within " + std::to_string(timeout.count()) + " s";
      }
      if (finished) {
        ::close(child.pipe);
        outcomes[child.file] = outcome;
        running.erase(running.begin() + i);
      } else {
        ++i;
      }
    }
  }
  return outcomes;
}

// expected.txt: "<file>\t<pass|fail|skip>[\t<line>\t<reason>]" per line, '#' comments.
std::map<std::string, std::string> ReadExpected() {
  std::map<std::string, std::string> expected;
  std::ifstream in(ExpectedPath());
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string file, kind;
    std::getline(fields, file, '\t');
    std::getline(fields, kind, '\t');
    expected[file] = kind;
  }
  return expected;
}

// Rewrites the outcomes of the files run, keeping the other files' lines.
void WriteExpected(const std::map<std::string, FileOutcome>& outcomes) {
  std::map<std::string, std::string> lines;
  {
    std::ifstream in(ExpectedPath());
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line[0] != '#') lines[line.substr(0, line.find('\t'))] = line;
    }
  }
  for (const auto& [file, outcome] : outcomes) {
    std::string line = file + "\t" + KindName(outcome.kind);
    if (outcome.kind != Kind::kPass) {
      line += "\t" + std::to_string(outcome.line) + "\t" + outcome.reason;
    }
    lines[file] = line;
  }
  std::ofstream out(ExpectedPath());
  out << "# The official DuckLake suite through tarn (tests/ducklake_suite): each file's outcome.\n"
         "# Written by `scripts/ducklake-suite.sh --update`; a file listed as pass must pass.\n";
  for (const auto& entry : lines) out << entry.second << '\n';
}

void PrintReport(const std::map<std::string, FileOutcome>& outcomes, bool detailed) {
  std::map<Kind, int> counts;
  std::map<std::string, std::vector<std::string>> causes;
  for (const auto& [file, outcome] : outcomes) {
    ++counts[outcome.kind];
    if (outcome.kind != Kind::kPass && outcome.kind != Kind::kSkip) {
      causes[CauseOf(outcome.reason)].push_back(file + ":" + std::to_string(outcome.line));
    }
  }
  const int run = static_cast<int>(outcomes.size()) - counts[Kind::kSkip];
  std::printf("ducklake suite: %d files, %d skipped, %d run: %d pass (%.1f%%), %d fail, "
              "%d crash, %d timeout\n",
              static_cast<int>(outcomes.size()), counts[Kind::kSkip], run, counts[Kind::kPass],
              run > 0 ? 100.0 * counts[Kind::kPass] / run : 0.0, counts[Kind::kFail],
              counts[Kind::kCrash], counts[Kind::kTimeout]);
  if (!detailed) return;
  std::vector<std::pair<std::string, std::vector<std::string>>> sorted(causes.begin(),
                                                                         causes.end());
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) {
    return a.second.size() != b.second.size() ? a.second.size() > b.second.size()
                                              : a.first < b.first;
  });
  std::printf("\nfailures by cause:\n");
  for (const auto& [cause, files] : sorted) {
    std::printf("%4zu  %s\n", files.size(), cause.c_str());
    for (const std::string& file : files) std::printf("        %s\n", file.c_str());
  }
}

TEST(DucklakeSuiteTest, EveryFileAsExpected) {
  const std::string root = SuiteRoot();
  const std::string config_path = root + "/test/configs/sqlite.json";
  ASSERT_TRUE(tarn::testing::FileExists(config_path));
  auto config = LoadSuiteConfig(root, config_path);
  ASSERT_TRUE(config.ok()) << config.status().ToString();
  std::vector<std::string> files = SuiteFiles(*config);
  ASSERT_GT(files.size(), 100u) << "the suite under " << root << " is incomplete";
  if (const char* only = std::getenv("TARN_SUITE_ONLY")) {
    std::vector<std::string> kept;
    for (const auto& file : files) {
      if (file.find(only) != std::string::npos) kept.push_back(file);
    }
    files = kept;
  }
  const std::map<std::string, FileOutcome> outcomes = RunAll(*config, files);
  PrintReport(outcomes, std::getenv("TARN_SUITE_REPORT") != nullptr);
  if (std::getenv("TARN_SUITE_UPDATE") != nullptr) {
    WriteExpected(outcomes);
    return;
  }
  const std::map<std::string, std::string> expected = ReadExpected();
  for (const auto& [file, outcome] : outcomes) {
    const std::string where = file + ":" + std::to_string(outcome.line);
    EXPECT_NE(outcome.kind, Kind::kCrash) << where << ": " << outcome.reason;
    EXPECT_NE(outcome.kind, Kind::kTimeout) << where << ": " << outcome.reason;
    auto listed = expected.find(file);
    if (listed != expected.end() && listed->second == "pass") {
      EXPECT_EQ(outcome.kind, Kind::kPass) << where << " was passing: " << outcome.reason;
    } else if (outcome.kind == Kind::kPass) {
      std::printf("now passing (raise tests/ducklake_suite/expected.txt): %s\n", file.c_str());
    }
  }
}

// The runner itself: a synthetic suite whose outcomes are known.
class SuiteRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(root_.Join("test/sql"));
    fs::create_directories(root_.Join("work"));
    config_.root = root_.path();
    config_.env["GREETING"] = "hello";
  }
  FileOutcome Run(const std::string& text) {
    std::ofstream(root_.Join("test/sql/x.test")) << text;
    return RunSuiteFile(config_, "test/sql/x.test", root_.Join("work"));
  }
  tarn::testing::TempDir root_;
  SuiteConfig config_;
};

TEST_F(SuiteRunnerTest, ParsesRecords) {
  auto records = ParseSuiteFile(
      "# c\nstatement ok\nSELECT 1\n\nquery II rowsort\nSELECT 1, 2\n----\n1\t2\n\n"
      "statement error\nSELECT x\n----\nnot found\n\nrequire parquet\n");
  ASSERT_EQ(records.size(), 4u);
  EXPECT_EQ(records[0].line, 2);
  EXPECT_EQ(records[1].header, (std::vector<std::string>{"query", "II", "rowsort"}));
  EXPECT_EQ(records[1].expected, (std::vector<std::string>{"1\t2"}));
  EXPECT_EQ(records[2].expected, (std::vector<std::string>{"not found"}));
  EXPECT_EQ(records[3].header[0], "require");
}

TEST_F(SuiteRunnerTest, PassesAndFailsAtTheFirstWrongRecord) {
  EXPECT_EQ(Run("query I\nSELECT 41 + 1\n----\n42\n").kind, Kind::kPass);
  FileOutcome wrong = Run("query I\nSELECT 1\n----\n1\n\nquery I\nSELECT 2\n----\n3\n");
  EXPECT_EQ(wrong.kind, Kind::kFail);
  EXPECT_EQ(wrong.line, 6);
  FileOutcome columns = Run("query II\nSELECT 1\n----\n1\n");
  EXPECT_EQ(columns.kind, Kind::kFail);
  EXPECT_NE(columns.reason.find("column count"), std::string::npos);
}

TEST_F(SuiteRunnerTest, StatementErrorsMatchTheirMessage) {
  EXPECT_EQ(Run("statement error\nSELECT * FROM no_such_table\n").kind, Kind::kPass);
  EXPECT_EQ(Run("statement error\nSELECT 1\n").kind, Kind::kFail);
  EXPECT_EQ(Run("statement error\nSELECT * FROM no_such_table\n----\nno_such_table\n").kind,
            Kind::kPass);
  EXPECT_EQ(Run("statement error\nSELECT * FROM no_such_table\n----\nsomething else\n").kind,
            Kind::kFail);
}

TEST_F(SuiteRunnerTest, SubstitutionsLoopsAndSkips) {
  EXPECT_EQ(Run("query T\nSELECT '${GREETING}'\n----\nhello\n").kind, Kind::kPass);
  EXPECT_EQ(Run("test-env GREETING bye\n\nquery T\nSELECT '${GREETING}'\n----\nhello\n").kind,
            Kind::kPass);
  EXPECT_EQ(Run("loop i 0 3\n\nquery I\nSELECT ${i} < 3\n----\ntrue\n\nendloop\n").kind,
            Kind::kPass);
  EXPECT_EQ(Run("foreach t a b\n\nquery T\nSELECT '${t}'\n----\na\n\nendloop\n").kind,
            Kind::kFail);
  EXPECT_EQ(Run("require httpfs\n\nquery I\nSELECT 1\n----\n2\n").kind, Kind::kSkip);
  EXPECT_EQ(Run("mode skip\n\nquery I\nSELECT 1\n----\n2\n\nmode unskip\n").kind, Kind::kPass);
  EXPECT_EQ(Run("skipif duckdb\nquery I\nSELECT 1\n----\n2\n").kind, Kind::kPass);
  EXPECT_EQ(Run("onlyif duckdb\nquery I\nSELECT 1\n----\n2\n").kind, Kind::kFail);
  EXPECT_EQ(Run("query T\nSELECT 'a/__TEST_DIR__'\n----\na/" + root_.Join("work") + "\n").kind,
            Kind::kPass);
}

TEST_F(SuiteRunnerTest, SortModesAndRegexes) {
  EXPECT_EQ(Run("query I rowsort\nSELECT * FROM range(3) ORDER BY 1 DESC\n----\n0\n1\n2\n").kind,
            Kind::kPass);
  EXPECT_EQ(Run("query I\nSELECT * FROM range(3) ORDER BY 1 DESC\n----\n0\n1\n2\n").kind,
            Kind::kFail);
  EXPECT_EQ(Run("query T\nSELECT 'Total Files Read: 1'\n----\n<REGEX>:.*Files Read: 1.*\n").kind,
            Kind::kPass);
  EXPECT_EQ(Run("query T\nSELECT 'Total Files Read: 2'\n----\n<REGEX>:.*Files Read: 1.*\n").kind,
            Kind::kFail);
  EXPECT_EQ(Run("query II\nSELECT 1, 2\n----\n1\n2\n").kind, Kind::kPass);
}

}  // namespace
}  // namespace tarn::suite
