// Publishing and sweeping: passes since a snapshot, concurrent publishers with a sweep racing
// them, the background publisher (retries, cancellation on close), and the sweep's rules.
#include <gtest/gtest.h>

#include <thread>

#include "rowid/sidecar.h"
#include "rowid_test_files.h"
#include "support/test_util.h"

namespace tarn {
namespace {

using testing::TempDir;

struct Copy {
  TempDir dir;
  std::shared_ptr<FileSystem> fs = LocalFileSystem();
  std::string data_path;
  std::unique_ptr<Lake> lake;
};

std::unique_ptr<Copy> CopyLake(const std::string& name) {
  auto copy = std::make_unique<Copy>();
  const std::string fixture = testing::SharedPath("fixtures/ducklake/" + name);
  copy->data_path = copy->dir.Join("data") + "/";
  testing::CopyTree(*copy->fs, fixture + "/data/", copy->data_path);
  LakeOpenOptions options;
  options.data_path = copy->data_path;
  auto lake = Lake::Open("ducklake:sqlite:" + fixture + "/catalog.sqlite", options);
  EXPECT_TRUE(lake.ok()) << lake.status().ToString();
  copy->lake = std::move(*lake);
  return copy;
}

RowSummaryContext ContextFor(const Copy& copy, std::shared_ptr<FileSystem> fs = nullptr) {
  RowSummaryContext ctx;
  ctx.fs = fs ? fs : copy.fs;
  ctx.data_path = copy.data_path;
  ctx.stats = std::make_shared<RowSummaryStats>();
  ctx.stats->log = [](const std::string&) {};
  return ctx;
}

// The embedded-row-id files of the latest snapshot and whether each has a valid sidecar.
std::vector<std::pair<DataFileInfo, bool>> SidecarState(Copy& copy) {
  std::vector<std::pair<DataFileInfo, bool>> out;
  auto snapshot = *copy.lake->LoadSnapshot();
  for (const auto& table : snapshot->tables()) {
    auto meta = *copy.lake->LoadTable(*snapshot, table->table_id);
    for (const DataFileInfo& f : meta->data_files) {
      auto reader = std::move(ParquetReader::Open(copy.fs, f.path).value());
      bool embeds = false;
      for (const Field& field : reader->schema().fields) embeds |= field.field_id == kEmbeddedRowIdFieldId;
      if (!embeds) continue;
      auto header = rowid_internal::ReadRowsumHeader(*copy.fs, SidecarPath(f),
                                                     IdentityOf(table->table_id, f, copy.data_path));
      out.emplace_back(f, header.ok());
    }
  }
  return out;
}

TEST(PublishTest, PassSinceASnapshotConsidersOnlyLaterFiles) {
  auto copy = CopyLake("compacted");
  RowSummaryContext ctx = ContextFor(*copy);
  auto snapshots = *copy->lake->ListSnapshots();
  PublishOptions since_last;
  since_last.since_snapshot = snapshots.back().snapshot_id;
  auto none = PublishRowSummaries(*copy->lake, ctx, since_last);
  ASSERT_TRUE(none.ok()) << none.status().ToString();
  EXPECT_EQ(none->files_considered, 0);
  PublishOptions since_8;
  since_8.since_snapshot = 8;  // the rewrite at 9 registered the embedded file
  auto some = *PublishRowSummaries(*copy->lake, ctx, since_8);
  EXPECT_GT(some.files_considered, 0);
  EXPECT_EQ(some.published, 1);
  PublishOptions other_table;
  other_table.table_ids = {12345};
  EXPECT_EQ(PublishRowSummaries(*copy->lake, ctx, other_table)->files_considered, 0);
  auto all = *PublishRowSummaries(*copy->lake, ctx);
  EXPECT_EQ(all.already_published, 1);
  EXPECT_EQ(ctx.stats->published.load(), 1);
}

TEST(PublishTest, ConcurrentPublishersAndARacingSweep) {
  auto copy = CopyLake("compacted");
  // A stranded sidecar the sweep must remove, next to live ones.
  ASSERT_TRUE(copy->fs->WriteFile(copy->data_path + "gone.parquet.rowsum", "stale").ok());
  std::atomic<bool> stop{false};
  std::atomic<int64_t> swept{0};
  std::thread sweeper([&] {
    // At least one pass, even when the publishers finish before this thread first runs (as on
    // a loaded machine under the sanitizers).
    do {
      auto report = SweepRowSummaries(*copy->fs, copy->data_path);
      ASSERT_TRUE(report.ok()) << report.status().ToString();
      swept += report->deleted;
    } while (!stop.load());
  });
  std::vector<std::thread> publishers;
  std::vector<Result<PublishReport>> results(4, Status::Internal("not run"));
  for (int t = 0; t < 4; ++t) {
    publishers.emplace_back([&, t] {
      RowSummaryContext ctx = ContextFor(*copy);
      results[t] = PublishRowSummaries(*copy->lake, ctx);
    });
  }
  for (auto& t : publishers) t.join();
  stop = true;
  sweeper.join();
  for (auto& r : results) {
    ASSERT_TRUE(r.ok()) << r.status().ToString();
    EXPECT_EQ(r->failed, 0) << (r->errors.empty() ? "" : r->errors[0]);
  }
  EXPECT_EQ(swept.load(), 1);
  EXPECT_FALSE(*copy->fs->Exists(copy->data_path + "gone.parquet.rowsum"));
  for (const auto& [file, valid] : SidecarState(*copy)) EXPECT_TRUE(valid) << file.path;
  // No temporary or partial sidecar is left behind.
  std::vector<FileInfo> listing = *copy->fs->List(copy->data_path, true);
  for (const FileInfo& f : listing) {
    EXPECT_EQ(f.path.find(".tarn-tmp-"), std::string::npos) << f.path;
  }
}

TEST(PublishTest, SweepKeepsSidecarsOfLiveFilesAndNeverTouchesParquet) {
  TempDir dir;
  auto fs = LocalFileSystem();
  const std::string data = dir.path() + "/";
  ASSERT_TRUE(fs->CreateDirectories(data + "a/b").ok());
  ASSERT_TRUE(fs->WriteFile(data + "a/b/x.parquet", "x").ok());
  ASSERT_TRUE(fs->WriteFile(data + "a/b/x.parquet.rowsum", "s").ok());
  ASSERT_TRUE(fs->WriteFile(data + "a/y.parquet.rowsum", "s").ok());
  ASSERT_TRUE(fs->WriteFile(data + "a/z.parquet", "z").ok());
  ASSERT_TRUE(fs->WriteFile(data + "a/note.rowsum.txt", "n").ok());
  auto report = SweepRowSummaries(*fs, data);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->sidecars, 2);
  EXPECT_EQ(report->deleted, 1);
  EXPECT_TRUE(*fs->Exists(data + "a/b/x.parquet.rowsum"));
  EXPECT_FALSE(*fs->Exists(data + "a/y.parquet.rowsum"));
  EXPECT_TRUE(*fs->Exists(data + "a/z.parquet"));
  EXPECT_TRUE(*fs->Exists(data + "a/note.rowsum.txt"));
}

TEST(PublishTest, BackgroundPublisherRetriesThenSucceeds) {
  auto copy = CopyLake("compacted");
  auto faulty = std::make_shared<FaultInjectingFileSystem>(copy->fs);
  // The first sidecar write fails.
  faulty->FailAfter(0, {FaultInjectingFileSystem::Op::kOpenWrite});
  RowSummaryContext ctx = ContextFor(*copy, faulty);
  PublisherOptions options;
  options.initial_backoff = std::chrono::milliseconds(20);
  options.max_backoff = std::chrono::milliseconds(80);
  auto publisher = RowSummaryPublisher::Start(copy->lake.get(), ctx, options);
  ASSERT_TRUE(publisher.ok());
  (*publisher)->EnqueueBackfill();
  (*publisher)->EnqueueCommit(1, 8);
  ASSERT_TRUE((*publisher)->WaitIdle(std::chrono::seconds(60)));
  auto progress = (*publisher)->progress();
  EXPECT_GE(progress.retries, 1);
  EXPECT_GE(progress.passes_ok, 2);
  EXPECT_GE(ctx.stats->publish_failures.load(), 1);
  (*publisher)->Close();
  for (const auto& [file, valid] : SidecarState(*copy)) EXPECT_TRUE(valid) << file.path;
}

TEST(PublishTest, CloseCancelsABackoffPromptly) {
  auto copy = CopyLake("compacted");
  auto faulty = std::make_shared<FaultInjectingFileSystem>(copy->fs);
  faulty->FailAfter(0, {FaultInjectingFileSystem::Op::kOpenWrite}, /*sticky=*/true);
  RowSummaryContext ctx = ContextFor(*copy, faulty);
  PublisherOptions options;  // the real backoff: 1 s, then 2 s, ...
  auto publisher = std::move(RowSummaryPublisher::Start(copy->lake.get(), ctx, options).value());
  publisher->EnqueueBackfill();
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (publisher->progress().passes_failed == 0 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  ASSERT_GT(publisher->progress().passes_failed, 0);
  const auto start = std::chrono::steady_clock::now();
  publisher->Close();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(900));
  EXPECT_FALSE(publisher->WaitIdle(std::chrono::milliseconds(1)));  // the batch was kept, not run
}

// Opening a data file takes 30 ms: a pass over several files outlives a 5 ms deadline.
class SlowFileSystem : public FileSystem {
 public:
  explicit SlowFileSystem(std::shared_ptr<FileSystem> base) : base_(std::move(base)) {}
  Result<std::unique_ptr<RandomAccessFile>> OpenForRead(const std::string& path) override {
    if (path.ends_with(".parquet")) std::this_thread::sleep_for(std::chrono::milliseconds(30));
    return base_->OpenForRead(path);
  }
  Result<std::unique_ptr<WritableFile>> OpenForWrite(const std::string& path) override {
    return base_->OpenForWrite(path);
  }
  Result<FileInfo> Stat(const std::string& path) override { return base_->Stat(path); }
  Result<bool> Exists(const std::string& path) override { return base_->Exists(path); }
  Result<std::vector<FileInfo>> List(const std::string& dir, bool recursive) override {
    return base_->List(dir, recursive);
  }
  Status CreateDirectories(const std::string& dir) override { return base_->CreateDirectories(dir); }
  Status Delete(const std::string& path) override { return base_->Delete(path); }
  Status Rename(const std::string& from, const std::string& to) override { return base_->Rename(from, to); }

 private:
  std::shared_ptr<FileSystem> base_;
};

TEST(PublishTest, AnAttemptPastItsDeadlineIsCancelledAndRetried) {
  auto copy = CopyLake("basic");  // five files, each opened at least once per pass
  RowSummaryContext ctx = ContextFor(*copy, std::make_shared<SlowFileSystem>(copy->fs));
  PublisherOptions options;
  options.max_concurrency = 1;
  options.attempt_deadline = std::chrono::milliseconds(5);
  options.initial_backoff = std::chrono::milliseconds(10);
  options.max_backoff = std::chrono::milliseconds(20);
  auto publisher = std::move(RowSummaryPublisher::Start(copy->lake.get(), ctx, options).value());
  publisher->EnqueueBackfill();
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (publisher->progress().retries < 2 && std::chrono::steady_clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  publisher->Close();
  EXPECT_GE(publisher->progress().passes_failed, 2);
  EXPECT_EQ(publisher->progress().passes_ok, 0);
}

}  // namespace
}  // namespace tarn
