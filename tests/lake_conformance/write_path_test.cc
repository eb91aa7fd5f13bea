// The full write path (WriteTransaction: Parquet files, inlined rows, delete files, commit)
// under concurrency and failure:
// - two processes commit 200 inserting transactions each on one lake: the final row count is
//   the sum of the committed inserts, every key once, and every failed commit names its
//   conflict;
// - a process killed at each step of a commit (TARN_COMMIT_CRASH_AT) of an insert + delete +
//   update transaction: the lake opens at the old or the new snapshot with every committed
//   row intact, every referenced file present, and at most unreferenced files left over;
// - the fault-injecting file system failing each file operation of an insert, a delete and
//   an update: the same, in process.
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <sstream>

#include "write_path_util.h"

namespace tarn {
namespace {

using lake_testing::Env;
using lake_testing::InsertKeys;
using lake_testing::OpenWritable;
using lake_testing::ParquetFilesUnder;
using lake_testing::PreparedLake;
using lake_testing::ReferencedFiles;
using lake_testing::RowsAt;
using RowMap = std::map<int64_t, std::pair<int64_t, std::string>>;
using Op = FaultInjectingFileSystem::Op;

// The operations that change files.
const std::vector<Op> kWriteOps = {Op::kOpenWrite, Op::kAppend,  Op::kSync,  Op::kClose,
                                   Op::kCreateDir, Op::kDelete, Op::kRename};

// Counts the write operations (kWriteOps) that reach the wrapped file system.
class CountingFileSystem final : public FileSystem {
 public:
  explicit CountingFileSystem(std::shared_ptr<FileSystem> base) : base_(std::move(base)) {}
  int64_t writes() const { return writes_; }

  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    return base_->OpenForRead(path);
  }
  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path) override {
    ++writes_;
    TARN_ASSIGN_OR_RETURN(auto file, base_->OpenForWrite(path));
    return std::unique_ptr<WritableFile>(std::make_unique<File>(std::move(file), &writes_));
  }
  Result<FileInfo> Stat(const std::string& path) override { return base_->Stat(path); }
  Result<bool> Exists(const std::string& path) override { return base_->Exists(path); }
  Result<std::vector<FileInfo>> List(const std::string& dir, bool recursive) override {
    return base_->List(dir, recursive);
  }
  Status CreateDirectories(const std::string& dir) override {
    ++writes_;
    return base_->CreateDirectories(dir);
  }
  Status Delete(const std::string& path) override {
    ++writes_;
    return base_->Delete(path);
  }
  Status Rename(const std::string& from, const std::string& to) override {
    ++writes_;
    return base_->Rename(from, to);
  }

 private:
  class File final : public WritableFile {
   public:
    File(std::unique_ptr<WritableFile> base, std::atomic<int64_t>* writes)
        : base_(std::move(base)), writes_(writes) {}
    const std::string& path() const override { return base_->path(); }
    Status Append(std::string_view bytes) override {
      ++*writes_;
      return base_->Append(bytes);
    }
    int64_t bytes_written() const override { return base_->bytes_written(); }
    Status Sync() override {
      ++*writes_;
      return base_->Sync();
    }
    Status Close() override {
      ++*writes_;
      return base_->Close();
    }

   private:
    std::unique_ptr<WritableFile> base_;
    std::atomic<int64_t>* writes_;
  };
  std::shared_ptr<FileSystem> base_;
  std::atomic<int64_t> writes_{0};
};

// The transaction every failure test runs: an insert to a file and a few inlined rows, a
// delete touching files (delete files and an inlined delete) and inlined rows, an update
// rewriting rows with their rowids.
Status MixedTransaction(WriteTransaction& txn, int which = 7) {
  if (which & 1) {
    TARN_RETURN_NOT_OK(InsertKeys(txn, 5000, 40, "new").status());
  }
  if (which & 2) {
    TARN_RETURN_NOT_OK(txn.Delete("main", "t", std::string("k % 7 = 3 OR k = 100001")).status());
  }
  if (which & 4) {
    TARN_RETURN_NOT_OK(
        txn.Update("main", "t", {{"s", "s || '_u'"}}, std::string("k % 11 = 5")).status());
  }
  return Status::OK();
}

// What MixedTransaction does to `rows` (rowids of new rows are unknown: keyed by -k - 1).
RowMap ApplyMixed(RowMap rows, int which = 7) {
  if (which & 1) {
    for (int64_t k = 5000; k < 5040; ++k) rows[-k - 1] = {k, "new" + std::to_string(k)};
  }
  if (which & 2) {
    std::erase_if(rows, [](const auto& e) {
      return e.second.first % 7 == 3 || e.second.first == 100001;
    });
  }
  if (which & 4) {
    for (auto& [rowid, row] : rows) {
      if (row.first % 11 == 5) row.second += "_u";
    }
  }
  return rows;
}

// Rows compared by value only where the model does not know the rowid.
void ExpectRows(const RowMap& model, const RowMap& actual, const std::string& where) {
  std::multiset<std::pair<int64_t, std::string>> want, got;
  for (const auto& [rowid, row] : model) {
    want.insert(row);
    if (rowid >= 0) {
      auto found = actual.find(rowid);
      ASSERT_NE(found, actual.end()) << where << ": committed rowid " << rowid << " lost";
      EXPECT_EQ(found->second, row) << where << ": rowid " << rowid;
    }
  }
  for (const auto& [rowid, row] : actual) got.insert(row);
  EXPECT_EQ(want, got) << where;
}

// After a failure: the lake opens, sits at `before` or `before + 1`, holds the matching rows,
// every referenced file exists, and the leftovers are unreferenced Parquet files only.
void CheckRecovered(const PreparedLake& lake, int64_t before, const RowMap& old_rows,
                    const RowMap& new_rows, const std::set<std::string>& files_before,
                    const std::string& where, std::optional<bool> committed = std::nullopt) {
  auto opened = OpenWritable(lake.catalog, lake.data);
  ASSERT_TRUE(opened.ok()) << where << ": " << opened.status().ToString();
  auto latest = (*opened)->FindSnapshot(SnapshotSelector::Latest());
  ASSERT_TRUE(latest.ok()) << where << ": " << latest.status().ToString();
  const int64_t at = latest->snapshot_id;
  ASSERT_TRUE(at == before || at == before + 1) << where << ": snapshot " << at;
  if (committed.has_value()) {
    EXPECT_EQ(at == before + 1, *committed) << where;
  }
  auto rows = RowsAt(**opened, -1);
  ASSERT_TRUE(rows.ok()) << where << ": " << rows.status().ToString();
  ExpectRows(at == before ? old_rows : new_rows, *rows, where);
  // The old snapshot still reads the same after a commit.
  if (at == before + 1) {
    auto old = RowsAt(**opened, before);
    ASSERT_TRUE(old.ok()) << where << ": " << old.status().ToString();
    ExpectRows(old_rows, *old, where + " (old snapshot)");
  }
  const std::set<std::string> referenced = ReferencedFiles(lake.catalog, lake.data);
  const std::set<std::string> present = ParquetFilesUnder(lake.data);
  for (const std::string& path : referenced) {
    EXPECT_TRUE(present.count(path)) << where << ": referenced file missing: " << path;
  }
  for (const std::string& path : files_before) {
    EXPECT_TRUE(present.count(path)) << where << ": a file of an old snapshot vanished: " << path;
  }
  // And it takes the next commit.
  auto txn = WriteTransaction::Begin(**opened, LocalFileSystem());
  ASSERT_TRUE(txn.ok()) << where << ": " << txn.status().ToString();
  ASSERT_TRUE(InsertKeys(**txn, 900000, 2).ok());
  auto next = (*txn)->Commit();
  ASSERT_TRUE(next.ok()) << where << ": " << next.status().ToString();
  EXPECT_EQ(next->snapshot.snapshot_id, at + 1) << where;
}

// ---- workers (run by RunWorker in a child process) ------------------------------------------

// LAKE_CATALOG, LAKE_DATA, LAKE_PROCESS (0/1), LAKE_COMMITS, LAKE_LOG: commits LAKE_COMMITS
// inserting transactions; logs "ok <first_k> <rows>" or "fail <code> <message>" per commit.
TEST(LakeWorker, DISABLED_InsertLoop) {
  const int process = std::stoi(Env("LAKE_PROCESS"));
  const int commits = std::stoi(Env("LAKE_COMMITS"));
  auto lake = OpenWritable(Env("LAKE_CATALOG"), Env("LAKE_DATA"));
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  std::ofstream log(Env("LAKE_LOG"));
  for (int i = 0; i < commits; ++i) {
    auto txn = WriteTransaction::Begin(**lake, LocalFileSystem());
    ASSERT_TRUE(txn.ok()) << txn.status().ToString();
    // Mostly inlined inserts, every fourth one a Parquet file.
    const int64_t rows = i % 4 == 3 ? 25 : 1 + i % 5;
    const int64_t first_k = static_cast<int64_t>(process) * 1000000 + i * 100;
    ASSERT_TRUE(InsertKeys(**txn, first_k, rows, StrCat("p", process, "-")).ok());
    (*txn)->SetCommitInfo(StrCat("process ", process), std::nullopt);
    auto committed = (*txn)->Commit();
    if (committed.ok()) {
      log << "ok " << first_k << " " << rows << "\n";
    } else {
      std::string message = committed.status().message();
      std::replace(message.begin(), message.end(), '\n', ' ');
      log << "fail " << static_cast<int>(committed.status().code()) << " " << message << "\n";
    }
  }
}

// LAKE_CATALOG, LAKE_DATA; TARN_COMMIT_CRASH_AT set: runs MixedTransaction and commits
// (the process ends at the step).
TEST(LakeWorker, DISABLED_CrashingCommit) {
  auto lake = OpenWritable(Env("LAKE_CATALOG"), Env("LAKE_DATA"));
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto txn = WriteTransaction::Begin(**lake, LocalFileSystem());
  ASSERT_TRUE(txn.ok()) << txn.status().ToString();
  Status mixed = MixedTransaction(**txn);
  ASSERT_TRUE(mixed.ok()) << mixed.ToString();
  auto committed = (*txn)->Commit();
  ASSERT_TRUE(committed.ok()) << committed.status().ToString();
}

// ---- tests ------------------------------------------------------------------------------------

TEST(WritePathTest, TwoProcessesTwoHundredInsertCommitsEach) {
  PreparedLake lake;
  ASSERT_TRUE(lake.Create(0).ok());
  const int kCommits = 200;
  std::vector<pid_t> workers;
  for (int p = 0; p < 2; ++p) {
    workers.push_back(lake_testing::StartWorker(
        "InsertLoop", {{"LAKE_CATALOG", lake.catalog},
                       {"LAKE_DATA", lake.data},
                       {"LAKE_PROCESS", std::to_string(p)},
                       {"LAKE_COMMITS", std::to_string(kCommits)},
                       {"LAKE_LOG", lake.dir->Join(StrCat("p", p, ".log"))}}));
  }
  for (pid_t pid : workers) EXPECT_EQ(lake_testing::WaitWorker(pid), 0);
  int64_t committed_rows = 0, committed = 0, failed = 0;
  std::multiset<int64_t> expected_keys;
  for (int p = 0; p < 2; ++p) {
    std::ifstream log(lake.dir->Join(StrCat("p", p, ".log")));
    int lines = 0;
    for (std::string line; std::getline(log, line); ++lines) {
      std::istringstream in(line);
      std::string verdict;
      in >> verdict;
      if (verdict == "ok") {
        int64_t first_k = 0, rows = 0;
        in >> first_k >> rows;
        committed_rows += rows;
        ++committed;
        for (int64_t k = first_k; k < first_k + rows; ++k) expected_keys.insert(k);
      } else {
        ++failed;
        int code = 0;
        in >> code;
        std::string message;
        std::getline(in, message);
        // Inserts conflict with nothing another insert does: only a race lost every time.
        EXPECT_EQ(code, static_cast<int>(StatusCode::kConflict)) << line;
        EXPECT_NE(message.find("onflict"), std::string::npos) << line;
        EXPECT_NE(message.find("lost the race"), std::string::npos) << line;
      }
    }
    EXPECT_EQ(lines, kCommits) << "process " << p;
  }
  RecordProperty("committed", static_cast<int>(committed));
  RecordProperty("failed", static_cast<int>(failed));
  auto opened = OpenWritable(lake.catalog, lake.data);
  ASSERT_TRUE(opened.ok());
  auto rows = RowsAt(**opened, -1);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(static_cast<int64_t>(rows->size()), committed_rows);
  std::multiset<int64_t> keys;
  for (const auto& [rowid, row] : *rows) keys.insert(row.first);
  EXPECT_EQ(keys, expected_keys);
  // One snapshot per committed transaction, after the two of the setup.
  auto latest = (*opened)->FindSnapshot(SnapshotSelector::Latest());
  ASSERT_TRUE(latest.ok());
  EXPECT_EQ(latest->snapshot_id, 1 + committed);
  // The statistics count every committed row; row ids were never handed out twice.
  auto snapshot = (*opened)->LoadSnapshot();
  ASSERT_TRUE(snapshot.ok());
  auto table = (*opened)->LoadTable(**snapshot, (*snapshot)->FindTable("main", "t")->table_id);
  ASSERT_TRUE(table.ok());
  ASSERT_TRUE((*table)->stats.has_value());
  EXPECT_EQ((*table)->stats->record_count, committed_rows);
  EXPECT_EQ((*table)->stats->next_row_id, committed_rows);
  EXPECT_EQ(rows->rbegin()->first, committed_rows - 1);
}

TEST(WritePathTest, CrashAtEveryCommitStepOfAMixedTransaction) {
  PreparedLake base;
  ASSERT_TRUE(base.Create(300).ok());
  RowMap old_rows;
  int64_t before = 0;
  {
    auto lake = OpenWritable(base.catalog, base.data);
    ASSERT_TRUE(lake.ok());
    auto rows = RowsAt(**lake, -1);
    ASSERT_TRUE(rows.ok()) << rows.status().ToString();
    old_rows = *rows;
    before = (*lake)->FindSnapshot(SnapshotSelector::Latest())->snapshot_id;
  }
  const RowMap new_rows = ApplyMixed(old_rows);
  for (const char* step : {"begin", "read", "catalog_rows", "data_rows", "stats", "snapshot",
                           "before_commit", "after_commit"}) {
    SCOPED_TRACE(step);
    PreparedLake lake = base.Copy();
    const std::set<std::string> files_before = ParquetFilesUnder(lake.data);
    const int status = lake_testing::RunWorker(
        "CrashingCommit",
        {{"LAKE_CATALOG", lake.catalog}, {"LAKE_DATA", lake.data}, {"TARN_COMMIT_CRASH_AT", step}});
    ASSERT_EQ(status, 86) << "the worker did not stop at " << step;
    const bool committed = std::string(step) == "after_commit";
    CheckRecovered(lake, before, old_rows, new_rows, files_before, step, committed);
    // The killed transaction's files are unreferenced unless it committed.
    const std::set<std::string> referenced = ReferencedFiles(lake.catalog, lake.data);
    int leftovers = 0;
    for (const std::string& path : ParquetFilesUnder(lake.data)) {
      leftovers += referenced.count(path) == 0;
    }
    if (committed) {
      EXPECT_EQ(leftovers, 0);
    } else {
      EXPECT_GT(leftovers, 0) << "the transaction wrote no file before its commit?";
    }
  }
}

// Fails the n-th file-system operation of one transaction, for every n, for an insert, a
// delete and an update.
TEST(WritePathTest, FaultInjectedFileSystemAtEveryOperation) {
  PreparedLake base;
  ASSERT_TRUE(base.Create(300).ok());
  RowMap old_rows;
  int64_t before = 0;
  {
    auto lake = OpenWritable(base.catalog, base.data);
    ASSERT_TRUE(lake.ok());
    old_rows = *RowsAt(**lake, -1);
    before = (*lake)->FindSnapshot(SnapshotSelector::Latest())->snapshot_id;
  }
  struct Case {
    const char* name;
    int which;
  };
  for (const Case& c : {Case{"insert", 1}, Case{"delete", 2}, Case{"update", 4}}) {
    const RowMap new_rows = ApplyMixed(old_rows, c.which);
    // How many write operations the transaction makes when nothing fails.
    int64_t total_writes = 0;
    {
      PreparedLake lake = base.Copy();
      auto counting = std::make_shared<CountingFileSystem>(LocalFileSystem());
      auto opened = OpenWritable(lake.catalog, lake.data);
      ASSERT_TRUE(opened.ok());
      auto txn = WriteTransaction::Begin(**opened, counting);
      ASSERT_TRUE(txn.ok());
      ASSERT_TRUE(MixedTransaction(**txn, c.which).ok());
      ASSERT_TRUE((*txn)->Commit().ok());
      total_writes = counting->writes();
    }
    ASSERT_GT(total_writes, 3) << c.name;
    int failures_injected = 0;
    for (int64_t n = 0; n < total_writes; ++n) {
      const std::string where = StrCat(c.name, ": failing write operation ", n, " of ",
                                       total_writes);
      SCOPED_TRACE(where);
      PreparedLake lake = base.Copy();
      const std::set<std::string> files_before = ParquetFilesUnder(lake.data);
      auto fs = std::make_shared<FaultInjectingFileSystem>(LocalFileSystem());
      bool ok = false;
      {
        auto opened = OpenWritable(lake.catalog, lake.data);
        ASSERT_TRUE(opened.ok());
        auto txn = WriteTransaction::Begin(**opened, fs);
        ASSERT_TRUE(txn.ok());
        fs->FailAfter(n, kWriteOps);
        Status status = MixedTransaction(**txn, c.which);
        if (status.ok()) {
          auto committed = (*txn)->Commit();
          status = committed.status();
        }
        ok = status.ok();
        if (!ok) {
          EXPECT_EQ(status.code(), StatusCode::kIOError) << status.ToString();
          EXPECT_NE(status.message().find("injected fault"), std::string::npos)
              << status.ToString();
          ++failures_injected;
        }
      }
      CheckRecovered(lake, before, old_rows, new_rows, files_before, where, ok);
      if (::testing::Test::HasFailure()) return;
    }
    RecordProperty(StrCat(c.name, "_failures"), failures_injected);
    // Only a failed clean-up (deleting a file) may pass unnoticed.
    EXPECT_GE(failures_injected, total_writes / 2) << c.name;
  }
}

}  // namespace
}  // namespace tarn
