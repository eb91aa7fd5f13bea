// Drives the interactive shell (`tarn` with a terminal on standard input) through a
// pseudo-terminal, as a user at a keyboard would: typing, multi-line statements, history kept
// across runs, dot commands, Tab completion and Ctrl-C. And checks that piped input gets none
// of it.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_tarn.h"
#include "support/test_util.h"

namespace tarn {
namespace {

using testing::BinaryDir;
using testing::RunResult;
using testing::RunTarn;
using testing::TempDir;

// A `tarn` process on the slave side of a pseudo-terminal; the test holds the master side.
class PtyShell {
 public:
  // Starts BinaryDir()/tarn `args` with HOME=`home` and `env` (NAME=value), on a 120x40
  // terminal.
  PtyShell(const std::string& home, const std::vector<std::string>& args = {},
           const std::vector<std::string>& env = {}) {
    struct winsize size {};
    size.ws_row = 40;
    size.ws_col = 120;
    pid_ = forkpty(&master_, nullptr, nullptr, &size);
    if (pid_ == 0) {
      setenv("HOME", home.c_str(), 1);
      setenv("TERM", "xterm", 1);
      unsetenv("NO_COLOR");
      for (const std::string& entry : env) {
        const size_t equals = entry.find('=');
        setenv(entry.substr(0, equals).c_str(), entry.substr(equals + 1).c_str(), 1);
      }
      std::string program = BinaryDir() + "/tarn";
      std::vector<char*> argv;
      argv.push_back(program.data());
      std::vector<std::string> copies = args;
      for (std::string& arg : copies) argv.push_back(arg.data());
      argv.push_back(nullptr);
      execv(program.c_str(), argv.data());
      _exit(127);
    }
  }
  ~PtyShell() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) close(master_);
  }

  bool started() const { return pid_ > 0; }

  // Sends `keys` as typed. Waits a moment first: the shell prints its prompt before it puts
  // the terminal in raw mode, and keys sent before that would be echoed and edited by the
  // terminal's line discipline instead of the shell.
  void Type(const std::string& keys) {
    usleep(200 * 1000);
    size_t done = 0;
    while (done < keys.size()) {
      ssize_t n = write(master_, keys.data() + done, keys.size() - done);
      if (n <= 0) return;
      done += static_cast<size_t>(n);
    }
  }

  // Reads until `text` appears in the output after the last mark (then moves the mark past
  // it), or until `seconds` pass.
  bool WaitFor(const std::string& text, double seconds = 60) {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
    while (true) {
      size_t found = output_.find(text, mark_);
      if (found != std::string::npos) {
        mark_ = found + text.size();
        return true;
      }
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                            deadline - std::chrono::steady_clock::now())
                            .count();
      if (left <= 0 || !ReadSome(static_cast<int>(left))) return false;
    }
  }

  // Waits for the process to end; its exit status, or -1 after `seconds`.
  int WaitExit(double seconds = 30) {
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      pid_t done = waitpid(pid_, &status, WNOHANG);
      if (done == pid_) {
        exited_ = true;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      ReadSome(50);
    }
    return -1;
  }

  // Everything read since the last mark.
  std::string Unread() const { return output_.substr(mark_); }
  const std::string& output() const { return output_; }

 private:
  // False when nothing more can come (timeout or end).
  bool ReadSome(int milliseconds) {
    struct pollfd poll_fd {master_, POLLIN, 0};
    if (poll(&poll_fd, 1, milliseconds) <= 0) return false;
    char buffer[4096];
    ssize_t n = read(master_, buffer, sizeof(buffer));
    if (n <= 0) return false;
    output_.append(buffer, static_cast<size_t>(n));
    return true;
  }

  pid_t pid_ = -1;
  int master_ = -1;
  bool exited_ = false;
  std::string output_;
  size_t mark_ = 0;
};

constexpr const char* kPrompt = "tarn> ";

TEST(ShellTest, TypedQueryShowsItsResult) {
  TempDir home;
  PtyShell shell(home.path());
  ASSERT_TRUE(shell.started());
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT 40 + 2 AS answer;\r");
  ASSERT_TRUE(shell.WaitFor("answer")) << shell.output();
  ASSERT_TRUE(shell.WaitFor("42")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".quit\r");
  EXPECT_EQ(shell.WaitExit(), 0) << shell.output();
}

// Editing keys as typed: Left, Ctrl-E (end), Backspace, Ctrl-A (start of line).
TEST(ShellTest, EditingKeysFixTheLine) {
  TempDir home;
  PtyShell shell(home.path());
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  // "ELECT 'ac" <Left> "b" <Ctrl-E> "' AS w, 40 + 3" <Backspace> "2 AS answer;" <Ctrl-A> "S"
  shell.Type("ELECT 'ac" "\x1b[D" "b" "\x05" "' AS w, 40 + 3" "\x7f" "2 AS answer;" "\x01" "S\r");
  ASSERT_TRUE(shell.WaitFor("│ abc     │     42 │")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
}

TEST(ShellTest, MultiLineStatementWaitsForSemicolon) {
  TempDir home;
  PtyShell shell(home.path());
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT 6 *\r");
  ASSERT_TRUE(shell.WaitFor("...> ")) << shell.output();
  shell.Type("  7 AS product_of_two_lines\r");
  ASSERT_TRUE(shell.WaitFor("...> ")) << shell.output();
  shell.Type(";\r");
  ASSERT_TRUE(shell.WaitFor("product_of_two_lines")) << shell.output();
  ASSERT_TRUE(shell.WaitFor("42")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("\x04");  // Ctrl-D
  EXPECT_EQ(shell.WaitExit(), 0) << shell.output();
}

TEST(ShellTest, HistorySurvivesRestart) {
  TempDir home;
  {
    PtyShell shell(home.path());
    ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
    shell.Type("SELECT 'remembered' || '_value' AS h;\r");
    ASSERT_TRUE(shell.WaitFor("remembered_value")) << shell.output();
    ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
    shell.Type("\x04");  // Ctrl-D (.quit would be the last history entry)
    ASSERT_EQ(shell.WaitExit(), 0) << shell.output();
  }
  std::stringstream saved;
  saved << std::ifstream(home.Join(".tarn_history")).rdbuf();
  EXPECT_NE(saved.str().find("remembered"), std::string::npos) << saved.str();

  PtyShell shell(home.path());
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("\x10");  // Ctrl-P: the previous history line, here the last run's
  shell.Type("\r");
  ASSERT_TRUE(shell.WaitFor("remembered_value")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
}

TEST(ShellTest, TimerShowsRunTime) {
  TempDir home;
  PtyShell shell(home.path());
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".timer on\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT 1 AS one;\r");
  ASSERT_TRUE(shell.WaitFor("Run Time (s): real ")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(" user ")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(" sys ")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".timer off\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT 2 AS two;\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  EXPECT_EQ(shell.Unread().find("Run Time"), std::string::npos);
  shell.Type("SELECT 3 AS three;\r");
  ASSERT_TRUE(shell.WaitFor("three")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  EXPECT_EQ(shell.output().rfind("Run Time"), shell.output().find("Run Time"));
}

TEST(ShellTest, ModeCsv) {
  TempDir home;
  PtyShell shell(home.path());
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".mode csv\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT 1 AS a, 'x' AS b;\r");
  // The terminal turns "\n" into "\r\n".
  ASSERT_TRUE(shell.WaitFor("a,b\r\n1,x\r\n")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".mode nonsense\r");
  ASSERT_TRUE(shell.WaitFor("Usage: .mode")) << shell.output();
}

// `.mode box` is DuckDB's: borders and names, every row, no types and no row count; the
// default (table) keeps both.
TEST(ShellTest, ModeBoxDrawsNamesOnly) {
  TempDir home;
  PtyShell shell(home.path());
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT 1 AS a, 'x' AS b;\r");
  ASSERT_TRUE(shell.WaitFor("│ int32 │ varchar │")) << shell.output();
  ASSERT_TRUE(shell.WaitFor("1 row")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".mode box\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT range AS a, 'x' AS b FROM range(60);\r");
  ASSERT_TRUE(shell.WaitFor("┌────┬───┐\r\n│ a  │ b │\r\n├────┼───┤\r\n│  0 │ x │")) << shell.output();
  ASSERT_TRUE(shell.WaitFor("│ 59 │ x │\r\n└────┴───┘\r\n")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  const std::string shown = shell.output();
  EXPECT_EQ(shown.find("60 rows"), std::string::npos);
  EXPECT_EQ(shown.find("·"), std::string::npos);  // no row elided
}

// `.pager on`: a result taller than the terminal goes through $PAGER, a short one does not.
TEST(ShellTest, PagerShowsTallResults) {
  TempDir home;
  PtyShell shell(home.path(), {}, {"PAGER=sed s/^/paged:/"});
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".pager on\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT 'short' AS s;\r");
  ASSERT_TRUE(shell.WaitFor("short")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  EXPECT_EQ(shell.output().find("paged:"), std::string::npos) << shell.output();
  shell.Type(".maxrows 100\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT range AS tall FROM range(80);\r");
  ASSERT_TRUE(shell.WaitFor("paged:│      79 │")) << shell.output();
  ASSERT_TRUE(shell.WaitFor("paged:│ 80 rows │")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".pager maybe\r");
  ASSERT_TRUE(shell.WaitFor("Usage: .pager on|off")) << shell.output();
}

TEST(ShellTest, TabCompletesTableAndColumnNames) {
  TempDir home;
  PtyShell shell(home.path(), {home.Join("lake.sqlite"), "--data-path", home.Join("data")});
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("CREATE TABLE zebra_stripes(stripe_count INTEGER);\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("INSERT INTO zebra_stripes VALUES (17);\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  // The terminal shows only what completion adds; the statement runs only if both names
  // were completed.
  shell.Type("SELECT stripe_c\t");
  ASSERT_TRUE(shell.WaitFor("ount ")) << shell.output();
  shell.Type("+ 1 AS more FROM zebra_s\t");
  ASSERT_TRUE(shell.WaitFor("tripes ")) << shell.output();
  shell.Type(";\r");
  ASSERT_TRUE(shell.WaitFor("more")) << shell.output();
  ASSERT_TRUE(shell.WaitFor("18")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  EXPECT_EQ(shell.output().find("Error"), std::string::npos) << shell.output();
  // Several names fit: Tab lists them.
  shell.Type("SELECT * FROM duckdb_\t");
  ASSERT_TRUE(shell.WaitFor("duckdb_columns")) << shell.output();
  ASSERT_TRUE(shell.WaitFor("duckdb_views")) << shell.output();
  shell.Type("\x03");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".tables\r");
  ASSERT_TRUE(shell.WaitFor("zebra_stripes")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
}

TEST(ShellTest, TabCompletesDotCommandsAndQuotedPaths) {
  TempDir home;
  std::filesystem::create_directory(home.Join("flights_dir"));
  std::ofstream(home.Join("flights_dir/only.csv")) << "origin,n\nAMS,3\n";
  PtyShell shell(home.path());
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".tim\t");
  ASSERT_TRUE(shell.WaitFor("er ")) << shell.output();
  shell.Type("on\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT n FROM '" + home.Join("flights_d") + "\t");
  ASSERT_TRUE(shell.WaitFor("ir/")) << shell.output();
  shell.Type("on\t");
  ASSERT_TRUE(shell.WaitFor("ly.csv")) << shell.output();
  shell.Type("';\r");
  ASSERT_TRUE(shell.WaitFor("Run Time (s)")) << shell.output();  // .timer was completed
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  EXPECT_NE(shell.output().find("│     3 │"), std::string::npos) << shell.output();
}

TEST(ShellTest, CtrlCInterruptsLongQuery) {
  TempDir home;
  PtyShell shell(home.path());
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT sum(range % 7) FROM range(10000000000);\r");
  ASSERT_TRUE(shell.WaitFor("range(10000000000);")) << shell.output();
  ASSERT_FALSE(shell.WaitFor(kPrompt, 1.0)) << "finished before Ctrl-C: " << shell.output();
  const auto start = std::chrono::steady_clock::now();
  shell.Type("\x03");
  ASSERT_TRUE(shell.WaitFor("Interrupted", 30)) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  shell.Type("SELECT 'still here' AS after;\r");
  ASSERT_TRUE(shell.WaitFor("still here")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
}

// A statement running past half a second shows a progress bar on standard error (the share of
// the rows planned, the rows read, the rate, the time left), erased before anything else is
// printed; a quick statement shows none.
TEST(ShellTest, SlowStatementShowsProgressBarErasedAfter) {
  TempDir home;
  PtyShell shell(home.path());
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT 42 AS quick;\r");
  ASSERT_TRUE(shell.WaitFor("quick")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  EXPECT_EQ(shell.output().find("rows/s"), std::string::npos) << shell.output();
  shell.Type("SELECT count(*) AS counted FROM range(10000000000) t(x) WHERE x < 0;\r");
  ASSERT_TRUE(shell.WaitFor("% \u2595", 30)) << shell.output();
  ASSERT_TRUE(shell.WaitFor("rows/s", 30)) << shell.output();
  ASSERT_TRUE(shell.WaitFor(" left", 30)) << shell.output();
  shell.Type("\x03");
  ASSERT_TRUE(shell.WaitFor("Interrupted", 30)) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  const std::string& out = shell.output();
  const size_t error = out.rfind("Interrupted");
  const size_t erased = out.rfind("\r\x1b[K", error);
  const size_t last_bar = out.rfind("rows/s", error);
  ASSERT_NE(erased, std::string::npos) << out;
  EXPECT_GT(erased, last_bar) << "the bar was not erased before the error: " << out;
}

TEST(ShellTest, CtrlCRollsBackALargeInsert) {
  TempDir home;
  PtyShell shell(home.path(), {home.Join("lake.sqlite"), "--data-path", home.Join("data")});
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("CREATE TABLE t(x BIGINT); INSERT INTO t SELECT range FROM range(1000);\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".mode csv\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT max(snapshot_id) AS before_insert FROM ducklake_snapshots('lake');\r");
  ASSERT_TRUE(shell.WaitFor("before_insert\r\n")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  const std::string& out = shell.output();
  const std::string header = "before_insert\r\n";
  const size_t value_at = out.rfind(header) + header.size();
  const std::string snapshot = out.substr(value_at, out.find('\r', value_at) - value_at);
  ASSERT_FALSE(snapshot.empty());
  shell.Type("INSERT INTO t SELECT range FROM range(10000000000);\r");
  ASSERT_TRUE(shell.WaitFor("range(10000000000);")) << shell.output();
  ASSERT_FALSE(shell.WaitFor(kPrompt, 3.0)) << "finished before Ctrl-C: " << shell.output();
  shell.Type("\x03");
  ASSERT_TRUE(shell.WaitFor("Interrupted", 30)) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT count(*) AS n, (SELECT max(snapshot_id) FROM ducklake_snapshots('lake')) "
             "AS s FROM t;\r");
  ASSERT_TRUE(shell.WaitFor("n,s\r\n1000," + snapshot + "\r\n")) << shell.output();
}

TEST(ShellTest, CtrlCAtPromptClearsLineThenExits) {
  TempDir home;
  PtyShell shell(home.path());
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT 'never run' AS");
  shell.Type("\x03");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT 5 AS five;\r");
  ASSERT_TRUE(shell.WaitFor("five")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  EXPECT_EQ(shell.output().find("never run\r\n"), std::string::npos) << shell.output();
  shell.Type("\x03");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("\x03");
  EXPECT_EQ(shell.WaitExit(), 0) << shell.output();
}

TEST(ShellTest, SyntaxErrorShowsCaretInColour) {
  TempDir home;
  PtyShell shell(home.path());
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT 1 +;\r");
  ASSERT_TRUE(shell.WaitFor("\033[1;31mError:\033[0m syntax error at or near \";\" (line 1, "
                            "column 11)\r\nSELECT 1 +;\r\n          \033[1;31m^\033[0m"))
      << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
}

TEST(ShellTest, DotCommandsReadOutputOpenSchemaTables) {
  TempDir home;
  std::ofstream(home.Join("script.sql")) << "SELECT 7 AS from_script;\n";
  PtyShell shell(home.path());
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".read " + home.Join("script.sql") + "\r");
  ASSERT_TRUE(shell.WaitFor("from_script")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".output " + home.Join("out.txt") + "\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".mode csv\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("SELECT 3 AS to_file;\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".output\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  std::stringstream written;
  written << std::ifstream(home.Join("out.txt")).rdbuf();
  EXPECT_EQ(written.str(), "to_file\n3\n");
  EXPECT_EQ(shell.output().find("to_file\r\n"), std::string::npos) << shell.output();

  shell.Type(".open " + home.Join("lake.sqlite") + " " + home.Join("data") + "\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type("CREATE TABLE penguins(species VARCHAR, weight DOUBLE);\r");
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".schema\r");
  ASSERT_TRUE(shell.WaitFor("CREATE TABLE penguins(species VARCHAR, weight DOUBLE);\r\n"))
      << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".tables peng%\r");
  ASSERT_TRUE(shell.WaitFor("penguins\r\n")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".bogus\r");
  ASSERT_TRUE(shell.WaitFor("unknown command \".bogus\"")) << shell.output();
  ASSERT_TRUE(shell.WaitFor(kPrompt)) << shell.output();
  shell.Type(".exit\r");
  EXPECT_EQ(shell.WaitExit(), 0) << shell.output();
}

TEST(ShellTest, PipedInputHasNoPromptOrColour) {
  TempDir dir;
  const std::string sql = "SELECT 1 AS a, 'x' AS b;";
  RunResult piped = RunTarn({}, dir, &sql);
  RunResult command = RunTarn({"-c", sql}, dir);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.out, command.out);
  EXPECT_EQ(piped.out.find("tarn>"), std::string::npos);
  EXPECT_EQ(piped.out.find('\033'), std::string::npos);
  const std::string bad = "SELECT nope FROM range(1);";
  RunResult error = RunTarn({}, dir, &bad);
  EXPECT_EQ(error.exit_code, 1);
  EXPECT_EQ(error.err.rfind("Error: ", 0), 0u) << error.err;
  EXPECT_EQ(error.err.find('\033'), std::string::npos) << error.err;
}

}  // namespace
}  // namespace tarn
