// The SQL surface of row summaries over a private copy of the `compacted` fixture lake:
// tarn_row_summary_stats() tells "none published yet" (sidecar misses) from "published and
// refused" (identity refusals, decode failures) while point reads keep their answers;
// tarn_publish_row_summaries passes; tarn_sweep_row_summaries removing a stranded sidecar.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "rowid_test_files.h"
#include "support/test_util.h"
#include "table/rowid_lookup.h"
#include "tarn/format.h"
#include "tarn/rowid.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::TempDir;

Result<std::string> Csv(Session* session, const std::string& sql) {
  TARN_ASSIGN_OR_RETURN(QueryResult result, session->Execute(sql));
  std::string out;
  StringSink sink(&out);
  TARN_RETURN_NOT_OK(WriteCsv(result.reader.get(), &sink));
  return out;
}

// tarn_row_summary_stats() as name -> value.
std::map<std::string, int64_t> Stats(Session* session) {
  auto result = session->Execute("SELECT * FROM tarn_row_summary_stats()");
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  std::map<std::string, int64_t> out;
  if (!result.ok()) return out;
  auto batch = (*result).reader->Next();
  EXPECT_TRUE(batch.ok() && *batch && (**batch).num_rows == 1);
  if (!batch.ok() || !*batch) return out;
  for (int c = 0; c < (**batch).num_columns(); ++c) {
    out[(**batch).schema->field(c).name] = (**batch).column(c).values_as<int64_t>()[0];
  }
  return out;
}

class LookupSqlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string fixture = testing::SharedPath("fixtures/ducklake/compacted");
    ASSERT_TRUE(fs_->Exists(fixture + "/catalog.sqlite").ValueOr(false)) << fixture;
    catalog_ = dir_.Join("c.sqlite");
    std::filesystem::copy_file(fixture + "/catalog.sqlite", catalog_);
    std::filesystem::permissions(catalog_, std::filesystem::perms::owner_read |
                                               std::filesystem::perms::owner_write);
    data_ = dir_.Join("data") + "/";
    testing::CopyTree(*fs_, fixture + "/data/", data_);
    AttachOptions options;
    options.data_path = data_;
    options.override_data_path = true;  // the fixture's files, copied here
    ASSERT_TRUE(session_.Attach("ducklake:sqlite:" + catalog_, options).ok());
    // The one data file at the latest snapshot (a merge output: embedded row ids).
    auto files = fs_->List(data_, /*recursive=*/true);
    ASSERT_TRUE(files.ok());
    for (const FileInfo& file : *files) {
      if (file.path.ends_with(".parquet") && !file.path.ends_with("-delete.parquet")) {
        parquet_files_.push_back(file.path);
      }
    }
    ASSERT_FALSE(parquet_files_.empty());
  }

  // A point read; returns its CSV after clearing the process cache (so the sidecar is read).
  std::string PointRead() {
    table_internal::ProcessRowSummaryCache()->Clear();
    auto csv = Csv(&session_, kPointRead);
    EXPECT_TRUE(csv.ok()) << csv.status().ToString();
    return csv.ok() ? *csv : "";
  }

  // The live file's sidecar path (the file the latest snapshot reads).
  std::string LiveSidecar() {
    auto listed = Csv(&session_, "SELECT data_file FROM ducklake_list_files('lake', 'c')");
    EXPECT_TRUE(listed.ok());
    std::string text = listed.ok() ? *listed : "";
    std::string path = text.substr(text.find('\n') + 1);
    while (!path.empty() && path.back() == '\n') path.pop_back();
    return path + std::string(kRowSummarySuffix);
  }

  static constexpr const char* kPointRead =
      "SELECT rowid, * FROM c WHERE rowid IN (9, 18, 500, 1320, 1399, 7) ORDER BY rowid";

  TempDir dir_;
  std::shared_ptr<FileSystem> fs_ = LocalFileSystem();
  std::string catalog_;
  std::string data_;
  Session session_;
  std::vector<std::string> parquet_files_;
};

TEST_F(LookupSqlTest, StatsTellUnpublishedFromRefused) {
  auto before = Stats(&session_);
  const std::string expected = PointRead();
  ASSERT_NE(expected.find("1320,1206,v1206"), std::string::npos) << expected;
  auto none = Stats(&session_);
  // Nothing published yet: a sidecar miss, a derived summary.
  EXPECT_GT(none["sidecar_misses"], before["sidecar_misses"]);
  EXPECT_GT(none["derived"], before["derived"]);
  EXPECT_EQ(none["refused_identity"], before["refused_identity"]);

  auto published = Csv(&session_, "CALL tarn_publish_row_summaries()");
  ASSERT_TRUE(published.ok()) << published.status().ToString();
  EXPECT_EQ(*published,
            "files_considered,published,already_published,dense,failed,first_error\n"
            "1,1,0,0,0,\n");
  const std::string sidecar = LiveSidecar();
  ASSERT_TRUE(fs_->Exists(sidecar).ValueOr(false)) << sidecar;
  auto after_publish = Stats(&session_);
  EXPECT_EQ(after_publish["published"], none["published"] + 1);
  EXPECT_EQ(PointRead(), expected);
  auto hit = Stats(&session_);
  EXPECT_GT(hit["sidecar_hits"], after_publish["sidecar_hits"]);
  EXPECT_EQ(hit["derived"], after_publish["derived"]);

  // Published and refused: a valid sidecar of another data file under this name.
  Lake& lake = *session_.attached_lake();
  auto snapshot = lake.LoadSnapshot();
  ASSERT_TRUE(snapshot.ok());
  auto meta = lake.LoadTable(**snapshot, (*snapshot)->FindTable("main", "c")->table_id);
  ASSERT_TRUE(meta.ok());
  ASSERT_EQ((*meta)->data_files.size(), 1u);
  const DataFileInfo& file = (*meta)->data_files[0];
  auto rows = DeriveRowSummary(fs_, file);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  SummaryIdentity another = IdentityOf((*meta)->table->table_id, file, lake.data_path());
  another.data_file_id += 1000;
  auto other = EncodeRowSummary(another, *rows);
  ASSERT_TRUE(other.ok());
  ASSERT_TRUE(fs_->WriteFile(sidecar, *other).ok());
  EXPECT_EQ(PointRead(), expected);
  auto refused = Stats(&session_);
  EXPECT_GT(refused["refused_identity"], hit["refused_identity"]);
  EXPECT_EQ(refused["decode_failures"], hit["decode_failures"]);
  EXPECT_GT(refused["derived"], hit["derived"]);

  // Garbage: a decode failure, same answer.
  ASSERT_TRUE(fs_->WriteFile(sidecar, "not a row summary at all").ok());
  EXPECT_EQ(PointRead(), expected);
  auto garbage = Stats(&session_);
  EXPECT_GT(garbage["decode_failures"], refused["decode_failures"]);
}

TEST_F(LookupSqlTest, PublishSinceAndSweep) {
  auto since = Csv(&session_, "CALL tarn_publish_row_summaries(since => 11)");
  ASSERT_TRUE(since.ok()) << since.status().ToString();
  EXPECT_EQ(*since, "files_considered,published,already_published,dense,failed,first_error\n"
                    "0,0,0,0,0,\n");
  auto all = Csv(&session_, "CALL tarn_publish_row_summaries(since => 1)");
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(*all, "files_considered,published,already_published,dense,failed,first_error\n"
                  "1,1,0,0,0,\n");
  // A sidecar whose data file is gone is swept; the live one stays.
  const std::string stranded = data_ + "main/c/gone.parquet" + std::string(kRowSummarySuffix);
  ASSERT_TRUE(fs_->WriteFile(stranded, "x").ok());
  auto swept = Csv(&session_, "CALL tarn_sweep_row_summaries()");
  ASSERT_TRUE(swept.ok()) << swept.status().ToString();
  EXPECT_NE(swept->find(",2,1\n"), std::string::npos) << *swept;
  EXPECT_FALSE(fs_->Exists(stranded).ValueOr(true));
  EXPECT_TRUE(fs_->Exists(LiveSidecar()).ValueOr(false));
  auto again = Csv(&session_, "CALL tarn_sweep_row_summaries('lake')");
  ASSERT_TRUE(again.ok());
  EXPECT_NE(again->find(",1,0\n"), std::string::npos) << *again;
}

// Summary-cache traffic: a kept directory serves a repeated point read without asking the cache
// for any file; a rebuilt one asks again.
int64_t CacheTraffic(const std::map<std::string, int64_t>& stats) {
  return stats.at("cache_hits") + stats.at("cache_misses");
}

std::string WarmRead(Session* session, const std::string& sql) {
  auto csv = Csv(session, sql);
  EXPECT_TRUE(csv.ok()) << csv.status().ToString();
  return csv.ok() ? *csv : "";
}

TEST_F(LookupSqlTest, KeptDirectoryServesRepeatsUntilSidecarsChange) {
  table_internal::ForgetKeptDirectories();
  const std::string expected = PointRead();
  ASSERT_NE(expected.find("1320,1206,v1206"), std::string::npos) << expected;
  EXPECT_EQ(table_internal::KeptDirectoryCount(), 1u);
  auto first = Stats(&session_);
  EXPECT_EQ(WarmRead(&session_, kPointRead), expected);
  auto repeat = Stats(&session_);
  EXPECT_EQ(CacheTraffic(repeat), CacheTraffic(first));  // kept: the cache was not asked

  // A publish changes what a summary would be read from: the next read builds anew.
  ASSERT_TRUE(Csv(&session_, "CALL tarn_publish_row_summaries()").ok());
  auto published = Stats(&session_);
  EXPECT_EQ(WarmRead(&session_, kPointRead), expected);
  auto after_publish = Stats(&session_);
  EXPECT_GT(CacheTraffic(after_publish), CacheTraffic(published));
  EXPECT_EQ(WarmRead(&session_, kPointRead), expected);
  auto kept_again = Stats(&session_);
  EXPECT_EQ(CacheTraffic(kept_again), CacheTraffic(after_publish));

  // So does a sweep.
  ASSERT_TRUE(Csv(&session_, "CALL tarn_sweep_row_summaries()").ok());
  auto swept = Stats(&session_);
  EXPECT_EQ(WarmRead(&session_, kPointRead), expected);
  EXPECT_GT(CacheTraffic(Stats(&session_)), CacheTraffic(swept));

  // A sidecar read after the cache is cleared is read by the next statement, not the kept
  // directory's summary.
  table_internal::ProcessRowSummaryCache()->Clear();
  auto cleared = Stats(&session_);
  EXPECT_EQ(WarmRead(&session_, kPointRead), expected);
  auto reread = Stats(&session_);
  EXPECT_GT(reread["sidecar_hits"], cleared["sidecar_hits"]);

  // A corrupt sidecar met by another statement (here: a cleared cache) bumps the generation:
  // the kept directory is not reused past it, and every answer stays the same.
  ASSERT_TRUE(fs_->WriteFile(LiveSidecar(), "garbage").ok());
  EXPECT_EQ(PointRead(), expected);
  auto corrupt = Stats(&session_);
  EXPECT_GT(corrupt["decode_failures"], reread["decode_failures"]);
  EXPECT_EQ(WarmRead(&session_, kPointRead), expected);
}

TEST_F(LookupSqlTest, KeptDirectoryFollowsCommitsAndTimeTravel) {
  table_internal::ForgetKeptDirectories();
  const std::string before = PointRead();
  ASSERT_NE(before.find("1320,1206,v1206"), std::string::npos) << before;
  auto snapshot = Csv(&session_, "SELECT max(snapshot_id) FROM ducklake_snapshots('lake')");
  ASSERT_TRUE(snapshot.ok()) << snapshot.status().ToString();
  const std::string old_version = snapshot->substr(snapshot->find('\n') + 1, snapshot->size() - snapshot->find('\n') - 2);
  // An UPDATE rewrites the row into a new file (a commit, a new snapshot): the kept directory
  // must place its id there, and the old version must not be read.
  ASSERT_TRUE(Csv(&session_, "UPDATE c SET v = 'changed' WHERE rowid = 1320").ok());
  const std::string after = WarmRead(&session_, kPointRead);
  EXPECT_NE(after.find(",1206,changed,"), std::string::npos) << after;
  EXPECT_EQ(after.find("v1206"), std::string::npos) << after;
  // Back to the snapshot before, and forward again.
  const std::string at_old = WarmRead(
      &session_, "SELECT rowid, * FROM c AT (VERSION => " + old_version +
                     ") WHERE rowid IN (9, 18, 500, 1320, 1399, 7) ORDER BY rowid");
  EXPECT_EQ(at_old, before);
  EXPECT_EQ(WarmRead(&session_, kPointRead), after);
  // A located delete through the kept directory.
  ASSERT_TRUE(Csv(&session_, "DELETE FROM c WHERE rowid = 500").ok());
  const std::string deleted = WarmRead(&session_, kPointRead);
  EXPECT_EQ(deleted.find("\n500,"), std::string::npos) << deleted;
  EXPECT_NE(deleted.find(",1206,changed,"), std::string::npos) << deleted;
}

// Two catalogs copied from one, sharing a data path and table uuid: each diverges with its own
// UPDATE (the same snapshot id and new data file id, files of the same size holding other ids),
// and a directory kept for one must not answer for the other.
TEST_F(LookupSqlTest, KeptDirectoryIsNotSharedBetweenDivergedLakes) {
  table_internal::ForgetKeptDirectories();
  const std::string second = dir_.Join("c2.sqlite");
  std::filesystem::copy_file(catalog_, second);
  AttachOptions options;
  options.name = "other";
  options.data_path = data_;
  options.override_data_path = true;
  ASSERT_TRUE(session_.Attach("ducklake:sqlite:" + second, options).ok());
  ASSERT_TRUE(Csv(&session_, "UPDATE lake.c SET v = 'new' WHERE rowid IN (18, 27)").ok());
  ASSERT_TRUE(Csv(&session_, "UPDATE other.c SET v = 'new' WHERE rowid IN (18, 28)").ok());
  // The premise: the same file ids and sizes, so only the paths (or the catalogs) tell the file
  // lists apart.
  const std::string sizes = "SELECT data_file_size_bytes FROM ducklake_list_files('$', 'c') ORDER BY 1";
  auto lake_sizes = Csv(&session_, sizes.substr(0, sizes.find('$')) + "lake" + sizes.substr(sizes.find('$') + 1));
  auto other_sizes = Csv(&session_, sizes.substr(0, sizes.find('$')) + "other" + sizes.substr(sizes.find('$') + 1));
  ASSERT_TRUE(lake_sizes.ok() && other_sizes.ok());
  ASSERT_EQ(*lake_sizes, *other_sizes);
  // Each lake's own new row, asked alone: the other lake's directory would place it only in the
  // merged file, where this lake's delete file hides it.
  for (int round = 0; round < 2; ++round) {
    EXPECT_EQ(WarmRead(&session_, "SELECT rowid, v FROM lake.c WHERE rowid = 27"), "rowid,v\n27,new\n")
        << "round " << round;
    EXPECT_EQ(WarmRead(&session_, "SELECT rowid, v FROM other.c WHERE rowid = 28"), "rowid,v\n28,new\n")
        << "round " << round;
    EXPECT_EQ(WarmRead(&session_, "SELECT rowid, v FROM other.c WHERE rowid IN (18, 27, 28) ORDER BY 1"),
              "rowid,v\n18,new\n27,v27\n28,new\n")
        << "round " << round;
  }
  EXPECT_EQ(table_internal::KeptDirectoryCount(), 2u);  // one per catalog
}

// Statements on many threads share the kept directories: each takes its table's out or builds
// its own, and every answer is the same while generations change and directories are dropped.
TEST_F(LookupSqlTest, KeptDirectoriesServeManyThreads) {
  Lake& lake = *session_.attached_lake();
  auto snapshot = lake.LoadSnapshot();
  ASSERT_TRUE(snapshot.ok());
  auto meta = lake.LoadTable(**snapshot, (*snapshot)->FindTable("main", "c")->table_id);
  ASSERT_TRUE(meta.ok());
  const std::vector<int64_t> ids = {7, 9, 18, 500, 1320, 1399};
  table_internal::ForgetKeptDirectories();
  auto expected = table_internal::PlaceRowIds(lake, fs_, **meta, ids);
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  ASSERT_FALSE(expected->empty());
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 200; ++round) {
        if (t == 0 && round % 10 == 5) table_internal::NoteProcessSidecarsChanged();
        if (t == 1 && round % 25 == 7) table_internal::ForgetKeptDirectories();
        auto placed = table_internal::PlaceRowIds(lake, fs_, **meta, ids);
        if (!placed.ok() || *placed != *expected) wrong++;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_LE(table_internal::KeptDirectoryCount(), 1u);
}

TEST(LookupSqlNoLakeTest, StatsWithoutALakePublishNeedsOne) {
  Session session;
  auto stats = Csv(&session, "SELECT count(*) FROM tarn_row_summary_stats()");
  ASSERT_TRUE(stats.ok()) << stats.status().ToString();
  EXPECT_EQ(*stats, "count_star()\n1\n");
  auto publish = session.Execute("CALL tarn_publish_row_summaries()");
  ASSERT_FALSE(publish.ok());
  EXPECT_NE(publish.status().message().find("needs an attached DuckLake lake"), std::string::npos)
      << publish.status().ToString();
}

}  // namespace
}  // namespace tarn
