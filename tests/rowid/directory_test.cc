// FileDirectory over the fixture lakes written by DuckLake (compacted: merged and rewritten
// files; inlined: a flushed file with repeated ids) at every snapshot, through every source,
// against the files read directly and against the scan's rowids; plus a moved lake, dense
// files answered without a read, and Refresh.
#include <gtest/gtest.h>

#include "rowid_test_files.h"
#include "support/test_util.h"
#include "tarn/table.h"

namespace tarn {
namespace {

using testing::TempDir;

struct LakeCopy {
  TempDir dir;
  std::shared_ptr<FileSystem> fs = LocalFileSystem();
  std::string data_path;
  std::unique_ptr<Lake> lake;

  void Reopen(const std::string& path) {
    data_path = path;
    LakeOpenOptions options;
    options.data_path = path;
    auto opened = Lake::Open("ducklake:sqlite:" + testing::SharedPath("fixtures/ducklake/" + name_) +
                                 "/catalog.sqlite",
                             options);
    ASSERT_TRUE(opened.ok()) << opened.status().ToString();
    lake = std::move(*opened);
  }
  std::string name_;
};

std::unique_ptr<LakeCopy> CopyLake(const std::string& name) {
  auto copy = std::make_unique<LakeCopy>();
  copy->name_ = name;
  const std::string fixture = testing::SharedPath("fixtures/ducklake/" + name);
  EXPECT_TRUE(copy->fs->Exists(fixture + "/catalog.sqlite").ValueOr(false)) << fixture;
  copy->data_path = copy->dir.Join("data") + "/";
  testing::CopyTree(*copy->fs, fixture + "/data/", copy->data_path);
  copy->Reopen(copy->data_path);
  return copy;
}

std::map<int64_t, std::string> Changes(Lake& lake) {
  std::map<int64_t, std::string> changes;
  std::vector<SnapshotInfo> snapshots = *lake.ListSnapshots();
  for (const SnapshotInfo& s : snapshots) changes[s.snapshot_id] = s.changes_made.value_or("");
  return changes;
}

// Places every id of every table at every snapshot and compares with the truth.
void CheckLake(LakeCopy& copy, const RowSummaryContext& ctx, const std::string& label,
               bool latest_only = false) {
  Lake& lake = *copy.lake;
  FileDirectoryOptions options;
  options.changes_by_snapshot = Changes(lake);
  int tables_checked = 0;
  std::vector<SnapshotInfo> snapshots = *lake.ListSnapshots();
  if (latest_only) snapshots.erase(snapshots.begin(), snapshots.end() - 1);
  for (const SnapshotInfo& info : snapshots) {
    auto snapshot = lake.LoadSnapshot(SnapshotSelector::Id(info.snapshot_id));
    ASSERT_TRUE(snapshot.ok());
    for (const auto& table : (*snapshot)->tables()) {
      auto meta = lake.LoadTable(**snapshot, table->table_id);
      ASSERT_TRUE(meta.ok());
      auto truth = testing::TruthOf(copy.fs, **meta);
      std::vector<int64_t> ask = {-1, 999999999, INT64_MAX};
      for (const auto& [id, where] : truth) ask.push_back(id);
      auto directory = FileDirectory::Build(*meta, ctx, options);
      ASSERT_TRUE(directory.ok());
      auto placed = (*directory)->Place(ask);
      ASSERT_TRUE(placed.ok()) << label << ": " << placed.status().ToString();
      std::map<int64_t, std::vector<std::pair<int64_t, std::vector<int64_t>>>> got;
      for (const RowPlacement& p : placed->placements) got[p.row_id].emplace_back(p.data_file_id, p.positions);
      EXPECT_EQ(got, truth) << label << " snapshot " << info.snapshot_id;
      EXPECT_EQ(placed->not_found, (std::vector<int64_t>{-1, 999999999, INT64_MAX}));
      // Every rowid a scan returns is placed.
      TableScanOptions scan_options;
      scan_options.with_rowid = true;
      auto scanned = ScanTableToBatch(lake, copy.fs, *meta, scan_options);
      ASSERT_TRUE(scanned.ok()) << scanned.status().ToString();
      std::vector<int64_t> scan_ids;
      const Column& rowids = (*scanned)->column(0);
      for (int64_t r = 0; r < (*scanned)->num_rows; ++r) scan_ids.push_back(rowids.values_as<int64_t>()[r]);
      auto scan_placed = (*directory)->Place(scan_ids);
      ASSERT_TRUE(scan_placed.ok());
      // Inlined rows are not in files; every other scanned rowid is.
      for (int64_t id : scan_placed->not_found) {
        EXPECT_EQ(truth.count(id), 0u) << label << " rowid " << id;
      }
      ++tables_checked;
    }
  }
  EXPECT_GT(tables_checked, 0);
}

int64_t EmbeddedFiles(LakeCopy& copy) {
  auto snapshot = *copy.lake->LoadSnapshot();
  int64_t n = 0;
  for (const auto& table : snapshot->tables()) {
    auto meta = *copy.lake->LoadTable(*snapshot, table->table_id);
    for (const DataFileInfo& f : meta->data_files) {
      auto reader = std::move(ParquetReader::Open(copy.fs, f.path).value());
      for (const Field& field : reader->schema().fields) n += field.field_id == kEmbeddedRowIdFieldId;
    }
  }
  return n;
}

class FixtureDirectoryTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FixtureDirectoryTest, EverySourceGivesTheFilesAnswers) {
  auto copy = CopyLake(GetParam());
  ASSERT_GT(EmbeddedFiles(*copy), 0) << "the fixture must hold embedded-row-id files";
  RowSummaryContext ctx;
  ctx.fs = copy->fs;
  ctx.data_path = copy->data_path;
  ctx.stats = std::make_shared<RowSummaryStats>();
  ctx.use_sidecars = false;
  CheckLake(*copy, ctx, "derived");
  EXPECT_GT(ctx.stats->derived.load(), 0);

  ctx.cache = *SummaryCache::Open({});
  CheckLake(*copy, ctx, "cache (cold)");
  CheckLake(*copy, ctx, "cache (warm)");
  EXPECT_GT(ctx.stats->cache_hits.load(), 0);

  // Publish, then a fresh process: sidecars answer, nothing is derived.
  RowSummaryContext publish_ctx = ctx;
  publish_ctx.cache = nullptr;
  auto report = PublishRowSummaries(*copy->lake, publish_ctx);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  EXPECT_EQ(report->failed, 0) << (report->errors.empty() ? "" : report->errors[0]);
  EXPECT_EQ(report->published, EmbeddedFiles(*copy));
  auto again = PublishRowSummaries(*copy->lake, publish_ctx);
  EXPECT_EQ(again->published, 0);
  EXPECT_EQ(again->already_published, EmbeddedFiles(*copy));

  RowSummaryContext sidecars = ctx;
  sidecars.cache = nullptr;
  sidecars.use_sidecars = true;
  sidecars.stats = std::make_shared<RowSummaryStats>();
  CheckLake(*copy, sidecars, "sidecars", /*latest_only=*/true);
  EXPECT_EQ(sidecars.stats->derived.load(), 0);
  EXPECT_GT(sidecars.stats->sidecar_hits.load(), 0);

  // A moved lake keeps using its sidecars.
  const std::string moved = copy->dir.Join("moved") + "/";
  ASSERT_TRUE(copy->fs->Rename(copy->data_path.substr(0, copy->data_path.size() - 1),
                               moved.substr(0, moved.size() - 1)).ok());
  copy->Reopen(moved);
  RowSummaryContext moved_ctx = sidecars;
  moved_ctx.data_path = moved;
  moved_ctx.stats = std::make_shared<RowSummaryStats>();
  CheckLake(*copy, moved_ctx, "moved lake", /*latest_only=*/true);
  EXPECT_EQ(moved_ctx.stats->derived.load(), 0);
  EXPECT_EQ(moved_ctx.stats->refused_identity.load(), 0);
  EXPECT_GT(moved_ctx.stats->sidecar_hits.load(), 0);
}

INSTANTIATE_TEST_SUITE_P(Lakes, FixtureDirectoryTest, ::testing::Values("compacted", "inlined"));

TEST(FileDirectoryTest, DenseFilesAnswerWithoutAnyRead) {
  auto copy = CopyLake("basic");
  auto snapshot = *copy->lake->LoadSnapshot();
  auto meta = *copy->lake->LoadTable(*snapshot, snapshot->tables()[0]->table_id);
  RowSummaryContext ctx;
  ctx.fs = copy->fs;
  ctx.data_path = copy->data_path;
  ctx.stats = std::make_shared<RowSummaryStats>();
  FileDirectoryOptions options;
  options.changes_by_snapshot = Changes(*copy->lake);
  auto directory = std::move(FileDirectory::Build(meta, ctx, options).value());
  // basic: inserts are dense; the UPDATE's file (row_id_start set, embedded ids) is not proven.
  EXPECT_GT(directory->counts().dense, 0);
  EXPECT_EQ(directory->counts().unclassified, 1);
  std::vector<int64_t> ask = {0, 1, 4999};
  auto placed = *directory->Place(ask);
  EXPECT_EQ(placed.placements.size(), 3u);
  // The unproven file needed its footer (its bounds then excluded or admitted it); nothing else.
  EXPECT_EQ(ctx.stats->footer_probes.load(), 1);
  EXPECT_EQ(directory->counts().unclassified, 0);
  auto truth = testing::TruthOf(copy->fs, *meta);
  std::vector<int64_t> all;
  for (const auto& [id, where] : truth) all.push_back(id);
  auto everything = *directory->Place(all);
  std::map<int64_t, std::vector<std::pair<int64_t, std::vector<int64_t>>>> got;
  for (const RowPlacement& p : everything.placements) got[p.row_id].emplace_back(p.data_file_id, p.positions);
  EXPECT_EQ(got, truth);

  // Without the snapshot changes every row_id_start file is classified by its footer.
  ctx.stats = std::make_shared<RowSummaryStats>();
  auto blind = std::move(FileDirectory::Build(meta, ctx, {}).value());
  auto blind_placed = *blind->Place(all);
  EXPECT_EQ(blind_placed.placements.size(), everything.placements.size());
  EXPECT_EQ(ctx.stats->footer_probes.load(), static_cast<int64_t>(meta->data_files.size()));
}

TEST(FileDirectoryTest, RefreshSummarizesOnlyNewFiles) {
  auto copy = CopyLake("compacted");
  auto snapshots = *copy->lake->ListSnapshots();
  RowSummaryContext ctx;
  ctx.fs = copy->fs;
  ctx.data_path = copy->data_path;
  ctx.stats = std::make_shared<RowSummaryStats>();
  ctx.use_sidecars = false;
  FileDirectoryOptions options;
  options.changes_by_snapshot = Changes(*copy->lake);
  // The snapshot after the rewrite, then the latest.
  auto s9 = *copy->lake->LoadSnapshot(SnapshotSelector::Id(9));
  auto meta9 = *copy->lake->LoadTable(*s9, s9->tables()[0]->table_id);
  auto directory = std::move(FileDirectory::Build(meta9, ctx, options).value());
  auto truth9 = testing::TruthOf(copy->fs, *meta9);
  std::vector<int64_t> ids9;
  for (const auto& [id, where] : truth9) ids9.push_back(id);
  ASSERT_TRUE(directory->Place(ids9).ok());
  const int64_t derived9 = ctx.stats->derived.load();
  EXPECT_GT(derived9, 0);
  auto latest = *copy->lake->LoadSnapshot();
  auto meta_latest = *copy->lake->LoadTable(*latest, latest->tables()[0]->table_id);
  ASSERT_TRUE(directory->Refresh(meta_latest).ok());
  auto truth = testing::TruthOf(copy->fs, *meta_latest);
  std::vector<int64_t> ids;
  for (const auto& [id, where] : truth) ids.push_back(id);
  auto placed = *directory->Place(ids);
  std::map<int64_t, std::vector<std::pair<int64_t, std::vector<int64_t>>>> got;
  for (const RowPlacement& p : placed.placements) got[p.row_id].emplace_back(p.data_file_id, p.positions);
  EXPECT_EQ(got, truth);
  // Files kept from snapshot 9 were not summarized again.
  int64_t new_embedded = 0;
  for (const DataFileInfo& f : meta_latest->data_files) {
    bool old = false;
    for (const DataFileInfo& g : meta9->data_files) old |= g.data_file_id == f.data_file_id;
    if (!old && !f.row_id_start) ++new_embedded;
  }
  EXPECT_LE(ctx.stats->derived.load() - derived9, new_embedded + 1);
}

}  // namespace
}  // namespace tarn
