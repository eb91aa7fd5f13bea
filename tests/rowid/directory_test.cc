// FileDirectory over the fixture lakes written by DuckLake (compacted: merged and rewritten
// files; inlined: a flushed file with repeated ids) at every snapshot, through every source,
// against the files read directly and against the scan's rowids; plus a moved lake, dense
// files answered without a read, and Refresh.
#include <gtest/gtest.h>

#include <random>
#include <set>

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

// Places every id of every table at every snapshot and compares with the truth, twice: the
// second lookup goes through the directory's index when `index_min_files` allows one (built
// as soon as the first lookup made the summaries resident).
void CheckLake(LakeCopy& copy, const RowSummaryContext& ctx, const std::string& label,
               bool latest_only = false, int64_t index_min_files = FileDirectoryOptions{}.index_min_files) {
  Lake& lake = *copy.lake;
  FileDirectoryOptions options;
  options.changes_by_snapshot = Changes(lake);
  options.index_min_files = index_min_files;
  options.index_work_per_id = 0;  // indexed as soon as the first lookup made summaries resident
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
      for (int round = 0; round < 2; ++round) {
        auto placed = (*directory)->Place(ask);
        ASSERT_TRUE(placed.ok()) << label << ": " << placed.status().ToString();
        std::map<int64_t, std::vector<std::pair<int64_t, std::vector<int64_t>>>> got;
        for (const RowPlacement& p : placed->placements) got[p.row_id].emplace_back(p.data_file_id, p.positions);
        EXPECT_EQ(got, truth) << label << " snapshot " << info.snapshot_id << " round " << round;
        EXPECT_EQ(placed->not_found, (std::vector<int64_t>{-1, 999999999, INT64_MAX}));
      }
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
  CheckLake(*copy, ctx, "cache (warm, indexed)", /*latest_only=*/false, /*index_min_files=*/1);
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
  CheckLake(*copy, sidecars, "sidecars, indexed", /*latest_only=*/true, /*index_min_files=*/1);
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

TEST(FileDirectoryTest, TheIndexAnswersAsTheFilesDo) {
  // 100 embedded files of 300 ids each from [0, 20000): most ids sit in one file, many in
  // several (an old version and its rewrites), and every file's bounds admit most ids.
  std::mt19937_64 rng(41);
  auto info = std::make_shared<TableInfo>();
  info->table_id = 1;
  auto table = std::make_shared<TableMetadata>();
  table->snapshot_id = 1;
  table->table = info;
  const std::string data_path = "/lake/";
  auto cache = *SummaryCache::Open(SummaryCacheOptions{});
  for (int f = 0; f < 100; ++f) {
    DataFileInfo file;
    file.data_file_id = f + 1;
    file.begin_snapshot = 1;
    file.relative_path = "main/t/f" + std::to_string(f) + ".parquet";
    file.path = data_path + file.relative_path;
    file.record_count = 300;
    file.file_size_bytes = 1000 + f;
    table->data_files.push_back(file);
    std::set<int64_t> ids;
    while (ids.size() < 300) ids.insert(static_cast<int64_t>(rng() % 20000));
    std::vector<int64_t> file_order(ids.begin(), ids.end());
    std::shuffle(file_order.begin(), file_order.end(), rng);
    PositionedRowSet rows = *PositionedRowSet::FromFileOrder(file_order);
    FileSummary summary;
    summary.identity = IdentityOf(1, file, data_path);
    summary.physical_rows = rows.physical_rows;
    summary.set = rows.set;
    summary.order = rows.order;
    cache->Insert(data_path, summary, /*write_disk=*/false);
  }
  RowSummaryContext ctx;
  ctx.fs = NewMemoryFileSystem();
  ctx.data_path = data_path;
  ctx.cache = cache;
  FileDirectoryOptions indexed_options, plain_options;
  indexed_options.index_min_files = 1;
  indexed_options.index_work_per_id = 0;
  plain_options.index_min_files = 0;
  auto indexed = std::move(FileDirectory::Build(table, ctx, indexed_options).value());
  auto plain = std::move(FileDirectory::Build(table, ctx, plain_options).value());
  auto same = [](const PlaceResult& a, const PlaceResult& b) {
    if (a.not_found != b.not_found || a.placements.size() != b.placements.size()) return false;
    for (size_t i = 0; i < a.placements.size(); ++i) {
      const RowPlacement& x = a.placements[i];
      const RowPlacement& y = b.placements[i];
      if (x.row_id != y.row_id || x.data_file_id != y.data_file_id || x.positions != y.positions) return false;
    }
    return true;
  };
  for (int round = 0; round < 600; ++round) {
    if (round == 300) {
      ASSERT_TRUE(indexed->Refresh(table).ok());  // drops the index; the next lookup rebuilds it
      EXPECT_EQ(indexed->counts().indexed, 0);
    }
    std::vector<int64_t> ask;
    for (int k = 0, n = 1 + static_cast<int>(rng() % 5); k < n; ++k) {
      ask.push_back(static_cast<int64_t>(rng() % 21000) - (k == 4 ? 20 : 0));
    }
    auto a = indexed->Place(ask);
    auto b = plain->Place(ask);
    ASSERT_TRUE(a.ok() && b.ok());
    // Built by the first lookup (and the first after a refresh); never without the option.
    EXPECT_EQ(indexed->counts().indexed, 100) << round;
    EXPECT_EQ(plain->counts().indexed, 0);
    ASSERT_TRUE(same(*a, *b)) << "round " << round;
    size_t placements = 0;
    for (const RowPlacement& p : a->placements) placements += p.positions.size();
    if (round == 0) {
      EXPECT_GT(placements, 0u);
    }
  }
  // With the default rule, one lookup builds nothing (a directory per statement never pays
  // for an index); lookups that have cost about as much as building it do.
  FileDirectoryOptions default_options;
  default_options.index_min_files = 1;
  auto amortized = std::move(FileDirectory::Build(table, ctx, default_options).value());
  ASSERT_TRUE(amortized->Place(std::vector<int64_t>{5}).ok());
  EXPECT_EQ(amortized->counts().indexed, 0);
  int lookups = 1;
  while (amortized->counts().indexed == 0 && lookups < 100000) {
    ASSERT_TRUE(amortized->Place(std::vector<int64_t>{static_cast<int64_t>(rng() % 20000)}).ok());
    ++lookups;
  }
  EXPECT_EQ(amortized->counts().indexed, 100);
  EXPECT_GT(lookups, 100);
}

}  // namespace
}  // namespace tarn
