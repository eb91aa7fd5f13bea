// Session::Interrupt, the cancellation behind the shell's Ctrl-C, called from another thread
// as a program would: a query stops with "Interrupted", a write rolls back leaving the lake at
// its snapshot with no new files, and the next statement runs as usual. (Here, beside the
// shell tests that drive the same path through a terminal.)
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <set>
#include <string>
#include <thread>

#include "support/test_util.h"
#include "tarn/format.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::TempDir;

// Reads a result to its end.
Status Drain(QueryResult& result) {
  while (true) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, result.reader->Next());
    if (!batch) return Status::OK();
  }
}

// Attaches a new lake in `dir` (catalog lake.sqlite, data under data/) as "lake".
Status AttachNewLake(Session* session, const TempDir& dir) {
  AttachOptions options;
  options.data_path = dir.Join("data");
  options.create_if_missing = true;
  return session->Attach(dir.Join("lake.sqlite"), options);
}

// Runs `sql` to the end, interrupting it from another thread after `delay`.
Status RunInterrupted(Session* session, const std::string& sql, std::chrono::milliseconds delay) {
  std::thread interrupter([&] {
    std::this_thread::sleep_for(delay);
    session->Interrupt();
  });
  Status status = session->ExecuteScript(sql, Drain);
  interrupter.join();
  return status;
}

std::string OneValue(Session* session, const std::string& sql) {
  auto result = session->Execute(sql);
  if (!result.ok()) return "error: " + result.status().ToString();
  auto all = ReadAllBatches(result->reader.get());
  if (!all.ok()) return "error: " + all.status().ToString();
  if ((*all)->num_rows != 1) return "rows: " + std::to_string((*all)->num_rows);
  return ValueText((*all)->column(0), 0);
}

std::set<std::string> FilesUnder(const std::string& directory) {
  std::set<std::string> files;
  std::error_code error;
  for (auto it = std::filesystem::recursive_directory_iterator(directory, error);
       !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
    if (it->is_regular_file()) files.insert(it->path().string());
  }
  return files;
}

TEST(SessionInterruptTest, QueryFailsWithInterrupted) {
  Session session;
  const auto start = std::chrono::steady_clock::now();
  Status status = RunInterrupted(&session, "SELECT sum(range % 7) FROM range(10000000000)",
                                 std::chrono::milliseconds(300));
  ASSERT_TRUE(status.IsCancelled()) << status.ToString();
  EXPECT_EQ(status.message(), "Interrupted");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
  // The next statement is not interrupted.
  EXPECT_EQ(OneValue(&session, "SELECT count(*) FROM range(1000)"), "1000");
}

TEST(SessionInterruptTest, InterruptedInsertRollsBack) {
  TempDir dir;
  Session session;
  ASSERT_TRUE(AttachNewLake(&session, dir).ok());
  Status created = session.ExecuteScript(
      "SET threads = 2; CREATE TABLE t(x BIGINT, s VARCHAR);"
      "INSERT INTO t SELECT range, 'v' || range FROM range(100000)",
      [](QueryResult&) { return Status::OK(); });
  ASSERT_TRUE(created.ok()) << created.ToString();
  const std::string snapshot =
      OneValue(&session, "SELECT max(snapshot_id) FROM ducklake_snapshots('lake')");
  const std::set<std::string> files = FilesUnder(dir.Join("data"));
  ASSERT_FALSE(files.empty());

  // Long enough that the insert has written files of its own when it is interrupted.
  Status status = RunInterrupted(
      &session, "INSERT INTO t SELECT range, 'w' || range FROM range(10000000000)",
      std::chrono::milliseconds(3000));
  ASSERT_TRUE(status.IsCancelled()) << status.ToString();
  EXPECT_EQ(status.message(), "Interrupted");

  EXPECT_EQ(OneValue(&session, "SELECT max(snapshot_id) FROM ducklake_snapshots('lake')"),
            snapshot);
  EXPECT_EQ(OneValue(&session, "SELECT count(*) FROM t"), "100000");
  EXPECT_EQ(FilesUnder(dir.Join("data")), files);
}

// DELETE and UPDATE, interrupted at any moment (their scans or after them), leave the lake as
// it was.
TEST(SessionInterruptTest, InterruptedDeleteAndUpdateCommitNothing) {
  TempDir dir;
  Session session;
  ASSERT_TRUE(AttachNewLake(&session, dir).ok());
  Status created = session.ExecuteScript(
      "CREATE TABLE t(x BIGINT); INSERT INTO t SELECT range FROM range(100000)",
      [](QueryResult&) { return Status::OK(); });
  ASSERT_TRUE(created.ok()) << created.ToString();
  const std::string snapshot =
      OneValue(&session, "SELECT max(snapshot_id) FROM ducklake_snapshots('lake')");
  const std::set<std::string> files = FilesUnder(dir.Join("data"));

  for (const std::string sql :
       {"DELETE FROM t WHERE x % 2 = 0", "UPDATE t SET x = x + 1 WHERE x < 50000"}) {
    // Interrupts again and again until the statement ends, so it is interrupted whatever
    // moment it checks.
    std::atomic<bool> done{false};
    std::thread interrupter([&] {
      while (!done.load()) {
        session.Interrupt();
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      }
    });
    Status status = session.ExecuteScript(sql, Drain);
    done.store(true);
    interrupter.join();
    ASSERT_TRUE(status.IsCancelled()) << sql << ": " << status.ToString();
    EXPECT_EQ(status.message(), "Interrupted");
  }
  EXPECT_EQ(OneValue(&session, "SELECT max(snapshot_id) FROM ducklake_snapshots('lake')"),
            snapshot);
  EXPECT_EQ(OneValue(&session, "SELECT count(*) FROM t"), "100000");
  EXPECT_EQ(OneValue(&session, "SELECT sum(x) FROM t"), "4999950000");
  EXPECT_EQ(FilesUnder(dir.Join("data")), files);
}

// The table layer's scans (DELETE, UPDATE, compaction and rewrites) report their rows to
// Session::Progress, planned from the catalog's counts, and stop between batches at an
// interrupt rather than reading on to the end.
TEST(SessionInterruptTest, TableLayerWorkReportsProgressAndStopsEarly) {
  TempDir dir;
  Session session;
  ASSERT_TRUE(AttachNewLake(&session, dir).ok());
  // Four files of 500,000 rows.
  Status created = session.ExecuteScript(
      "CREATE TABLE t(x BIGINT, s VARCHAR);"
      "INSERT INTO t SELECT range, 's' || range FROM range(500000);"
      "INSERT INTO t SELECT range, 's' || range FROM range(500000, 1000000);"
      "INSERT INTO t SELECT range, 's' || range FROM range(1000000, 1500000);"
      "INSERT INTO t SELECT range, 's' || range FROM range(1500000, 2000000)",
      [](QueryResult&) { return Status::OK(); });
  ASSERT_TRUE(created.ok()) << created.ToString();
  auto run = [&](const std::string& sql) {
    return session.ExecuteScript(sql, Drain);
  };
  ASSERT_TRUE(run("DELETE FROM t WHERE x % 1000 = 0").ok());
  EXPECT_EQ(session.Progress().rows_planned, 2000000);
  EXPECT_EQ(session.Progress().rows_read, 2000000);
  ASSERT_TRUE(run("UPDATE t SET s = 'u' WHERE x % 1000 = 1").ok());
  // Planned from the files' row counts; the rows the DELETE removed are not read.
  EXPECT_EQ(session.Progress().rows_planned, 2000000);
  EXPECT_EQ(session.Progress().rows_read, 1998000);
  // The rewrite reads the four files whose rows were deleted (and not the update's own file).
  ASSERT_TRUE(run("CALL ducklake_rewrite_data_files('lake', 't', delete_threshold => 0)").ok());
  EXPECT_EQ(session.Progress().rows_planned, 2000000);
  EXPECT_EQ(session.Progress().rows_read, 2000000);  // each file's rows as it is read
  EXPECT_EQ(OneValue(&session, "SELECT count(*) FROM t"), "1998000");
  // Publishing row summaries counts the rows of the files it publishes; sweeping counts files.
  ASSERT_TRUE(run("CALL tarn_publish_row_summaries()").ok());
  EXPECT_EQ(session.Progress().rows_planned, 1998000);
  EXPECT_EQ(session.Progress().rows_read, 1998000);
  EXPECT_EQ(session.Progress().unit, "rows");
  ASSERT_TRUE(run("CALL tarn_sweep_row_summaries()").ok());
  EXPECT_EQ(session.Progress().unit, "files");
  EXPECT_GT(session.Progress().rows_planned, 0);
  EXPECT_EQ(session.Progress().rows_read, session.Progress().rows_planned);
  ASSERT_TRUE(run("SELECT count(*) FROM t").ok());
  EXPECT_EQ(session.Progress().unit, "rows");

  // Interrupted once it has read some rows: it stops within a batch of them.
  const std::string snapshot =
      OneValue(&session, "SELECT max(snapshot_id) FROM ducklake_snapshots('lake')");
  std::atomic<bool> done{false};
  // (The earlier statements' counts stay until the UPDATE starts: wait for its plan.)
  std::thread interrupter([&] {
    while (!done.load() && (session.Progress().rows_planned < 1000000 ||
                            session.Progress().rows_read == 0)) {
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    session.Interrupt();
  });
  Status status = run("UPDATE t SET s = s || '!' WHERE x % 7 = 0");
  done.store(true);
  interrupter.join();
  ASSERT_TRUE(status.IsCancelled()) << status.ToString();
  EXPECT_LT(session.Progress().rows_read, session.Progress().rows_planned);
  EXPECT_EQ(OneValue(&session, "SELECT max(snapshot_id) FROM ducklake_snapshots('lake')"),
            snapshot);
  EXPECT_EQ(OneValue(&session, "SELECT count(*) FROM t WHERE s LIKE '%!'"), "0");
}

}  // namespace
}  // namespace tarn
