// Many processes writing one lake whose catalog is on PostgreSQL (TARN_TEST_PG) and whose data
// is on the S3 test server (TARN_TEST_S3): four processes of 100 commits each — inserts into
// tables of their own and into a shared one, updates and deletes of the shared one — lose
// nothing committed, and every refused commit names its conflict; a process killed in the
// middle of its commits loses none it finished; the PostgreSQL server restarted between
// statements and the S3 server going away in the middle of a scan and a write leave an error
// or a retried success, never a broken lake.
//
// The workers are this test binary run again (DISABLED_Worker below, selected by
// --gtest_also_run_disabled_tests), each writing what it did to a log the parent checks.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "support/postgres_test_util.h"
#include "support/s3_test_util.h"
#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/sql.h"

extern char** environ;

namespace tarn {
namespace {

using testing::TarnCsv;
using testing::TempDir;

using tarn::testing::SqlString;

// A session with the test server's secret and the lake attached as `l`.
Status Attach(Session* session, const std::string& conninfo, const std::string& data_path) {
  TARN_ASSIGN_OR_RETURN(std::string secret, testing::TestS3SecretSql());
  TARN_RETURN_NOT_OK(session->Execute(secret).status());
  return session
      ->Execute(StrCat("ATTACH ", SqlString("ducklake:postgres:" + conninfo), " AS l (DATA_PATH ",
                       SqlString(data_path), ")"))
      .status();
}

Status Exec(Session* session, const std::string& sql) {
  TARN_ASSIGN_OR_RETURN(QueryResult result, session->Execute(sql));
  if (result.reader != nullptr) {
    while (true) {
      TARN_ASSIGN_OR_RETURN(auto batch, result.reader->Next());
      if (batch == nullptr) break;
    }
  }
  return Status::OK();
}

// ---- the worker: one process's commits, logged as it goes ---------------------------------

// TARN_WORKER="<index> <commits> <log path>", TARN_WORKER_LAKE="<conninfo>",
// TARN_WORKER_DATA="<data path>". Each line of the log: "<op> <key> ok" once committed, or
// "<op> <key> refused <message>"; a line "<op> <key> begin" comes before each commit, so a
// process killed mid-commit leaves its last operation open.
TEST(ManyWritersTest, DISABLED_Worker) {
  const char* spec = std::getenv("TARN_WORKER");
  ASSERT_NE(spec, nullptr) << "run by ManyWritersTest only";
  std::istringstream in(spec);
  int index = 0;
  int commits = 0;
  std::string log_path;
  in >> index >> commits >> log_path;
  std::ofstream log(log_path, std::ios::app);
  Session session;
  ASSERT_TRUE(Attach(&session, std::getenv("TARN_WORKER_LAKE"), std::getenv("TARN_WORKER_DATA"))
                  .ok());
  std::vector<int64_t> shared_keys;  // keys this worker inserted into the shared table
  for (int i = 0; i < commits; ++i) {
    const int64_t key = int64_t{index} * 100000 + i;
    std::string op;
    std::string sql;
    switch (i % 4) {
      case 0:
        op = "own";
        sql = StrCat("INSERT INTO l.own_", index, " VALUES (", key, ")");
        break;
      case 1:
        op = "insert";
        sql = StrCat("INSERT INTO l.shared VALUES (", key, ", 0, ", index, ")");
        break;
      case 2:
        if (shared_keys.empty()) continue;
        op = "update";
        sql = StrCat("UPDATE l.shared SET v = v + 1 WHERE k = ",
                     shared_keys[static_cast<size_t>(i) % shared_keys.size()]);
        break;
      default:
        if (shared_keys.size() < 3) continue;
        op = "delete";
        sql = StrCat("DELETE FROM l.shared WHERE k = ", shared_keys.front());
        break;
    }
    const int64_t logged_key = op == "update"   ? shared_keys[static_cast<size_t>(i) % shared_keys.size()]
                               : op == "delete" ? shared_keys.front()
                                                : key;
    log << op << " " << logged_key << " begin" << std::endl;
    Status done = Exec(&session, sql);
    if (done.ok()) {
      log << op << " " << logged_key << " ok" << std::endl;
      if (op == "insert") shared_keys.push_back(key);
      if (op == "delete") shared_keys.erase(shared_keys.begin());
    } else {
      std::string message = done.message();
      for (char& c : message) if (c == '\n') c = ' ';
      log << op << " " << logged_key << " refused " << message << std::endl;
    }
  }
}

// Starts this binary as worker `index`; returns its pid.
pid_t StartWorker(int index, int commits, const std::string& log_path,
                  const std::string& conninfo, const std::string& data_path) {
  std::vector<std::string> env_strings = {
      StrCat("TARN_WORKER=", index, " ", commits, " ", log_path),
      "TARN_WORKER_LAKE=" + conninfo, "TARN_WORKER_DATA=" + data_path};
  for (char** e = environ; *e != nullptr; ++e) env_strings.emplace_back(*e);
  std::vector<char*> env;
  for (std::string& s : env_strings) env.push_back(s.data());
  env.push_back(nullptr);
  std::string self = "/proc/self/exe";
  char resolved[4096];
  const ssize_t n = ::readlink(self.c_str(), resolved, sizeof(resolved) - 1);
  if (n > 0) self.assign(resolved, static_cast<size_t>(n));
  std::vector<std::string> arg_strings = {self, "--gtest_also_run_disabled_tests",
                                          "--gtest_filter=ManyWritersTest.DISABLED_Worker"};
  std::vector<char*> args;
  for (std::string& s : arg_strings) args.push_back(s.data());
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, self.c_str(), &actions, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  return spawned == 0 ? pid : -1;
}

struct Logged {
  std::string op;
  int64_t key = 0;
  std::string outcome;  // "ok", "refused …", or "begin" when the process died mid-commit
};

std::vector<Logged> ReadLog(const std::string& path) {
  std::vector<Logged> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    Logged entry;
    fields >> entry.op >> entry.key;
    std::getline(fields, entry.outcome);
    if (!entry.outcome.empty() && entry.outcome[0] == ' ') entry.outcome.erase(0, 1);
    if (entry.outcome == "begin") {
      out.push_back(entry);
    } else if (!out.empty() && out.back().outcome == "begin" && out.back().key == entry.key &&
               out.back().op == entry.op) {
      out.back() = entry;
    }
  }
  return out;
}

std::set<int64_t> Keys(Session* session, const std::string& sql) {
  std::set<int64_t> out;
  auto csv = TarnCsv(session, sql);
  EXPECT_TRUE(csv.ok()) << sql << ": " << csv.status().ToString();
  if (!csv.ok()) return out;
  std::istringstream lines(*csv);
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) out.insert(std::stoll(line));
  return out;
}

TEST(ManyWritersTest, FourProcessesOfAHundredCommitsLoseNothingAndAKilledOneNothingCommitted) {
  auto conninfo = testing::NewPostgresSchema();
  ASSERT_TRUE(conninfo.ok()) << conninfo.status().ToString();
  const std::string data_path = testing::UniqueS3Prefix("writers");
  constexpr int kWorkers = 4;
  constexpr int kCommits = 100;
  {
    Session setup;
    ASSERT_TRUE(Attach(&setup, *conninfo, data_path).ok());
    ASSERT_TRUE(Exec(&setup, "CREATE TABLE l.shared (k BIGINT, v BIGINT, w INTEGER)").ok());
    for (int w = 0; w <= kWorkers; ++w) {
      ASSERT_TRUE(Exec(&setup, StrCat("CREATE TABLE l.own_", w, " (k BIGINT)")).ok());
    }
  }
  TempDir dir;
  std::vector<pid_t> pids;
  for (int w = 0; w < kWorkers; ++w) {
    pids.push_back(StartWorker(w, kCommits, dir.Join(StrCat("log", w)), *conninfo, data_path));
    ASSERT_GT(pids.back(), 0);
  }
  // A fifth writer, killed while it commits.
  const pid_t doomed = StartWorker(kWorkers, 100000, dir.Join(StrCat("log", kWorkers)), *conninfo,
                                   data_path);
  ASSERT_GT(doomed, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  ::kill(doomed, SIGKILL);
  int status = 0;
  ::waitpid(doomed, &status, 0);
  for (pid_t pid : pids) {
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "worker exit status " << status;
  }

  // What the logs say was committed, against what the lake holds.
  std::map<int64_t, int64_t> shared;  // key -> committed updates, for rows still present
  int64_t committed = 0;
  int64_t refused = 0;
  Session reader;
  ASSERT_TRUE(Attach(&reader, *conninfo, data_path).ok());
  for (int w = 0; w <= kWorkers; ++w) {
    std::set<int64_t> own;
    std::optional<int64_t> open_own;  // an insert the kill may have caught mid-commit
    for (const Logged& entry : ReadLog(dir.Join(StrCat("log", w)))) {
      if (entry.outcome == "begin") {
        ASSERT_EQ(w, kWorkers) << "only the killed worker leaves a commit open";
        if (entry.op == "own") open_own = entry.key;
        continue;
      }
      if (entry.outcome != "ok") {
        ++refused;
        EXPECT_NE(entry.outcome.find("onflict"), std::string::npos)
            << "a refused commit must name its conflict: " << entry.outcome;
        continue;
      }
      ++committed;
      if (entry.op == "own") own.insert(entry.key);
      if (entry.op == "insert") shared[entry.key] = 0;
      if (entry.op == "update") ++shared[entry.key];
      if (entry.op == "delete") shared.erase(entry.key);
    }
    std::set<int64_t> in_lake = Keys(&reader, StrCat("SELECT k FROM l.own_", w, " ORDER BY k"));
    if (open_own.has_value()) in_lake.erase(*open_own);  // committed or not: both are whole
    EXPECT_EQ(in_lake, own) << "own_" << w;
  }
  EXPECT_GE(committed, kWorkers * kCommits * 7 / 10) << refused << " refused";
  auto rows = TarnCsv(&reader, "SELECT k, v FROM l.shared ORDER BY k");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  std::string expected = "k,v\n";
  for (const auto& [key, updates] : shared) expected += StrCat(key, ",", updates, "\n");
  EXPECT_EQ(*rows, expected);
  // The lake takes writes after all this.
  ASSERT_TRUE(Exec(&reader, "INSERT INTO l.shared VALUES (-1, 0, -1)").ok());
  EXPECT_EQ(*TarnCsv(&reader, "SELECT count(*) AS n FROM l.shared WHERE k = -1"), "n\n1\n");
}

TEST(ManyWritersTest, S3OutagesInTheMiddleOfAScanAndAWriteAreRetried) {
  // A server of its own: its outages would fail other tests' requests on the shared one.
  auto server = testing::PrivateS3Server::Start();
  ASSERT_TRUE(server.ok()) << server.status().ToString();
  const std::string endpoint = (*server)->endpoint();
  TempDir dir;
  const std::string data_path = testing::UniqueS3Prefix("outage");
  Session session;
  auto secret = testing::TestS3SecretSql(endpoint);
  ASSERT_TRUE(secret.ok());
  ASSERT_TRUE(Exec(&session, *secret).ok());
  ASSERT_TRUE(Exec(&session, StrCat("ATTACH ", SqlString("ducklake:sqlite:" + dir.Join("l.sqlite")),
                                   " AS l (DATA_PATH ", SqlString(data_path), ")"))
                  .ok());
  ASSERT_TRUE(Exec(&session, "CALL ducklake_set_option('l', 'target_file_size', '32KB')").ok());
  ASSERT_TRUE(Exec(&session, "CREATE TABLE l.t AS SELECT range AS k, 'x' || range AS s FROM "
                            "range(200000)")
                  .ok());
  const std::string count = "SELECT count(*) AS n, sum(k) AS s FROM l.t";
  const std::string before = *TarnCsv(&session, count);
  // The server goes away for 1.5 s while a scan of many files runs, then while a write
  // uploads: both finish, through the client's retries.
  for (const std::string& statement :
       {count, std::string("INSERT INTO l.t SELECT range + 200000, 'y' FROM range(100000)")}) {
    // The server is back from the last outage before the next one starts.
    for (int tries = 0; !testing::S3ServerControl(endpoint, "stats", false).ok() && tries < 100; ++tries) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::thread outage([&endpoint] {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      auto stopped = testing::S3ServerControl(endpoint, "outage?ms=1500");
      EXPECT_TRUE(stopped.ok()) << stopped.status().ToString();
    });
    auto result = TarnCsv(&session, statement);
    outage.join();
    EXPECT_TRUE(result.ok()) << statement << ": " << result.status().ToString();
  }
  EXPECT_EQ(*TarnCsv(&session, "SELECT count(*) AS n FROM l.t"), "n\n300000\n");
  EXPECT_NE(before, "");
  // Failures that outlast the retries fail the statement and leave the lake as it was.
  ASSERT_TRUE(testing::S3ServerControl(endpoint, "fail?count=100000&status=503").ok());
  auto failed = session.Execute("INSERT INTO l.t SELECT range, 'z' FROM range(100000)");
  ASSERT_TRUE(testing::S3ServerControl(endpoint, "fail?count=0").ok());
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("503"), std::string::npos) << failed.status().message();
  EXPECT_EQ(*TarnCsv(&session, "SELECT count(*) AS n FROM l.t"), "n\n300000\n");
}

TEST(ManyWritersTest, APostgresRestartBetweenStatementsIsSurvived) {
  // The test server's folder (scripts/test.sh) lets the test restart it.
  const char* folder = std::getenv("TARN_TEST_PG_DIR");
  ASSERT_NE(folder, nullptr) << "TARN_TEST_PG_DIR is not set: run the tests through "
                                "scripts/test.sh (it names the PostgreSQL server's folder)";
  auto conninfo = testing::NewPostgresSchema();
  ASSERT_TRUE(conninfo.ok()) << conninfo.status().ToString();
  TempDir dir;
  Session session;
  ASSERT_TRUE(Attach(&session, *conninfo, testing::UniqueS3Prefix("pgrestart")).ok());
  ASSERT_TRUE(Exec(&session, "CREATE TABLE l.t AS SELECT range AS k FROM range(1000)").ok());
  const std::string restart =
      StrCat(testing::SourceDir(), "/scripts/pg-server.sh restart ", folder, " >/dev/null");
  ASSERT_EQ(std::system(restart.c_str()), 0) << restart;
  // The session's connection was cut: the next statements reconnect.
  auto read = TarnCsv(&session, "SELECT count(*) AS n FROM l.t");
  ASSERT_TRUE(read.ok()) << read.status().ToString();
  EXPECT_EQ(*read, "n\n1000\n");
  ASSERT_TRUE(Exec(&session, "INSERT INTO l.t SELECT range + 1000 FROM range(10)").ok());
  EXPECT_EQ(*TarnCsv(&session, "SELECT count(*) AS n FROM l.t"), "n\n1010\n");
}

}  // namespace
}  // namespace tarn
