// The SQL surface of row summaries over a private copy of the `compacted` fixture lake:
// tarn_row_summary_stats() tells "none published yet" (sidecar misses) from "published and
// refused" (identity refusals, decode failures) while point reads keep their answers;
// tarn_publish_row_summaries passes; tarn_sweep_row_summaries removing a stranded sidecar.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
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
