// ducklake_delete_orphaned_files and ducklake_cleanup_old_files on a data path with symbolic
// links (to a folder outside it, in a cycle), with the temporaries a killed writer leaves, and
// with older_than over the files' modification times.
#include <gtest/gtest.h>

#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <string>

#include "lake_conformance/lake_test_util.h"
#include "support/test_util.h"
#include "tarn/format.h"
#include "tarn/io.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

namespace fs = std::filesystem;
using lake_testing::QueryRows;
using lake_testing::RowsText;

std::string Rows(Session& session, const std::string& sql) {
  Result<QueryResult> result = session.Execute(sql);
  if (!result.ok()) return "<error: " + result.status().ToString() + ">";
  std::string out;
  while (true) {
    Result<std::shared_ptr<Batch>> batch = result->reader->Next();
    if (!batch.ok()) return "<error: " + batch.status().ToString() + ">";
    if (*batch == nullptr) break;
    for (int64_t r = 0; r < (*batch)->num_rows; ++r) {
      for (int c = 0; c < (*batch)->num_columns(); ++c) {
        out += (c ? "|" : "") + FormatValue((*batch)->column(c).GetValue(r));
      }
      out += "\n";
    }
  }
  return out;
}

void Touch(const std::string& path) { std::ofstream(path) << "x"; }

// The UTC time `age` ago as a TIMESTAMPTZ literal, for older_than.
std::string Ago(std::chrono::hours age) {
  const auto then = std::chrono::system_clock::now() - age;
  const std::time_t t = std::chrono::system_clock::to_time_t(then);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%d %H:%M:%S+00", &tm);
  return StrCat("TIMESTAMPTZ '", text, "'");
}

void SetAge(const std::string& path, std::chrono::hours age) {
  fs::last_write_time(path, fs::file_time_type::clock::now() - age);
}

class LinkedLake : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lake_.Create(0).ok());
    Exec("CREATE TABLE t (i INTEGER)");
    Exec("INSERT INTO t SELECT range FROM range(0, 10)");
    table_dir_ = lake_.data_path + "main/t/";
    ASSERT_TRUE(fs::is_directory(table_dir_));
    outside_ = outside_dir_.Join("elsewhere");
    fs::create_directories(outside_);
    victim_ = outside_ + "/victim.parquet";
    Touch(victim_);
    SetAge(victim_, std::chrono::hours(24 * 30));
    // A link to a folder outside the data path, a link back up (a cycle), a link to a file.
    fs::create_directory_symlink(outside_, table_dir_ + "outside");
    fs::create_directory_symlink(lake_.data_path, lake_.data_path + "main/loop");
    fs::create_symlink(victim_, table_dir_ + "victim-link.parquet");
  }

  void Exec(const std::string& sql) {
    Status status = lake_testing::RunStatement(*lake_.session, sql);
    ASSERT_TRUE(status.ok()) << sql << ": " << status.ToString();
  }
  std::string Call(const std::string& sql) { return Rows(*lake_.session, sql); }

  lake_testing::SqlLake lake_;
  testing::TempDir outside_dir_;
  std::string table_dir_, outside_, victim_;
};

TEST(LocalFileSystemLinksTest, ListingFollowsNoLinkAndCarriesTimes) {
  testing::TempDir dir;
  const std::string root = dir.Join("root");
  fs::create_directories(root + "/a");
  Touch(root + "/a/f.parquet");
  SetAge(root + "/a/f.parquet", std::chrono::hours(5));
  testing::TempDir other;
  Touch(other.Join("g.parquet"));
  fs::create_directory_symlink(other.path(), root + "/a/out");
  fs::create_directory_symlink(root, root + "/a/cycle");
  auto listed = LocalFileSystem()->List(root, /*recursive=*/true);
  ASSERT_TRUE(listed.ok()) << listed.status().ToString();
  ASSERT_EQ(listed->size(), 3u);
  EXPECT_EQ((*listed)[0].path, root + "/a/cycle");
  EXPECT_TRUE((*listed)[0].is_symlink);
  EXPECT_TRUE((*listed)[0].is_directory);
  EXPECT_EQ((*listed)[1].path, root + "/a/f.parquet");
  EXPECT_FALSE((*listed)[1].is_symlink);
  const int64_t now = std::chrono::duration_cast<std::chrono::microseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  const int64_t hour = int64_t{3600} * 1000000;
  EXPECT_LT((*listed)[1].modified_micros, now - 4 * hour);
  EXPECT_GT((*listed)[1].modified_micros, now - 6 * hour);
  EXPECT_EQ((*listed)[2].path, root + "/a/out");
  EXPECT_TRUE((*listed)[2].is_symlink);
  // RealPath resolves the links of the folders on the way.
  auto real = LocalFileSystem()->RealPath(root + "/a/out/g.parquet");
  ASSERT_TRUE(real.ok()) << real.status().ToString();
  EXPECT_EQ(*real, fs::canonical(other.path()).string() + "/g.parquet");
}

TEST(MemoryFileSystemTimesTest, ListingCarriesWriteTimes) {
  auto memory = NewMemoryFileSystem();
  ASSERT_TRUE(memory->WriteFile("/d/x.parquet", "x").ok());
  auto listed = memory->List("/d", true);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_GT((*listed)[0].modified_micros, 0);
  ASSERT_TRUE(memory->Rename("/d/x.parquet", "/d/y.parquet").ok());
  auto stat = memory->Stat("/d/y.parquet");
  ASSERT_TRUE(stat.ok());
  EXPECT_EQ(stat->modified_micros, (*listed)[0].modified_micros);
}

TEST_F(LinkedLake, OrphanCleanupStaysInsideTheDataPath) {
  // A killed writer's temporary is an orphan; so is a stray Parquet file.
  const std::string temporary = table_dir_ + "ducklake-0123.parquet.tarn-tmp-4242-7";
  Touch(temporary);
  const std::string stray = table_dir_ + "stray.parquet";
  Touch(stray);
  Touch(table_dir_ + "notes.parquet.tarn-tmp-x-1");  // not a temporary name
  const std::string expected = StrCat(temporary, "\n", stray, "\n");  // sorted by path
  const std::string listed =
      Call("CALL ducklake_delete_orphaned_files('lake', cleanup_all => true, dry_run => true)");
  EXPECT_EQ(listed, expected);
  EXPECT_EQ(Call("CALL ducklake_delete_orphaned_files('lake', cleanup_all => true)"), expected);
  EXPECT_FALSE(fs::exists(stray));
  EXPECT_FALSE(fs::exists(temporary));
  // Nothing behind a link was touched, and the links stay.
  EXPECT_TRUE(fs::exists(victim_));
  EXPECT_TRUE(fs::is_symlink(table_dir_ + "outside"));
  EXPECT_TRUE(fs::is_symlink(table_dir_ + "victim-link.parquet"));
  EXPECT_EQ(Call("SELECT COUNT(*) FROM lake.t"), "10\n");
  EXPECT_EQ(Call("CALL ducklake_delete_orphaned_files('lake', cleanup_all => true)"), "");
}

// The temporary a writer makes (LocalFileSystem::OpenForWrite) is one orphan cleanup
// recognizes: a writer killed before Close leaves exactly this file. While it is young (a
// writer may still be at work) only cleanup_all or an older_than after it removes it.
TEST_F(LinkedLake, AnUnfinishedWritersTemporaryIsAnOrphan) {
  auto writer = LocalFileSystem()->OpenForWrite(table_dir_ + "ducklake-unfinished.parquet");
  ASSERT_TRUE(writer.ok()) << writer.status().ToString();
  ASSERT_TRUE((*writer)->Append("PAR1").ok());
  std::string temporary;
  for (const auto& entry : fs::directory_iterator(table_dir_)) {
    const std::string path = entry.path().string();
    if (path.find("ducklake-unfinished.parquet.") != std::string::npos) temporary = path;
  }
  ASSERT_FALSE(temporary.empty());
  EXPECT_EQ(Call("CALL ducklake_delete_orphaned_files('lake', dry_run => true)"), "");
  EXPECT_EQ(Call("CALL ducklake_delete_orphaned_files('lake', cleanup_all => true, dry_run => "
                 "true)"),
            temporary + "\n");
  SetAge(temporary, std::chrono::hours(24 * 3));
  EXPECT_EQ(Call("CALL ducklake_delete_orphaned_files('lake')"), temporary + "\n");
  EXPECT_FALSE(fs::exists(temporary));
  EXPECT_EQ(Call("SELECT COUNT(*) FROM lake.t"), "10\n");
}

TEST_F(LinkedLake, OrphanCleanupHonoursOlderThan) {
  const std::string old_file = table_dir_ + "old.parquet";
  const std::string new_file = table_dir_ + "new.parquet";
  Touch(old_file);
  Touch(new_file);
  SetAge(old_file, std::chrono::hours(24 * 3));
  SetAge(new_file, std::chrono::hours(2));
  // The data file the lake wrote is old too, but known.
  for (const auto& entry : fs::directory_iterator(table_dir_)) {
    if (entry.path().string().find("ducklake-") != std::string::npos) {
      SetAge(entry.path().string(), std::chrono::hours(24 * 10));
    }
  }
  EXPECT_EQ(Call(StrCat("CALL ducklake_delete_orphaned_files('lake', dry_run => true, ",
                        "older_than => ", Ago(std::chrono::hours(1)), ")")),
            StrCat(new_file, "\n", old_file, "\n"));
  // Default: older than two days.
  EXPECT_EQ(Call("CALL ducklake_delete_orphaned_files('lake')"), old_file + "\n");
  EXPECT_FALSE(fs::exists(old_file));
  EXPECT_TRUE(fs::exists(new_file));
  EXPECT_EQ(Call(StrCat("CALL ducklake_delete_orphaned_files('lake', older_than => ",
                        Ago(std::chrono::hours(3)), ")")),
            "");
  EXPECT_EQ(Call(StrCat("CALL ducklake_delete_orphaned_files('lake', older_than => ",
                        Ago(std::chrono::hours(1)), ")")),
            new_file + "\n");
  EXPECT_TRUE(fs::exists(victim_));
  EXPECT_EQ(Call("SELECT COUNT(*) FROM lake.t"), "10\n");
}

TEST_F(LinkedLake, CleanupOldFilesFollowsNoLinkOutOfTheDataPath) {
  // A scheduled path that reaches the outside folder through the link is not deleted.
  auto store = OpenSqliteCatalogStore(lake_.catalog_path, /*read_only=*/false);
  ASSERT_TRUE(store.ok()) << store.status().ToString();
  const std::string inside = table_dir_ + "scheduled.parquet";
  Touch(inside);
  for (const std::string& sql :
       {std::string("INSERT INTO ducklake_files_scheduled_for_deletion VALUES (90, "
                    "'main/t/outside/victim.parquet', 1, '2000-01-01 00:00:00+00')"),
        std::string("INSERT INTO ducklake_files_scheduled_for_deletion VALUES (91, "
                    "'main/t/scheduled.parquet', 1, '2000-01-01 00:00:00+00')")}) {
    auto changed = (*store)->Execute(sql, {});
    ASSERT_TRUE(changed.ok()) << sql << ": " << changed.status().ToString();
  }
  store->reset();
  EXPECT_EQ(Call("CALL ducklake_cleanup_old_files('lake', cleanup_all => true)"), inside + "\n");
  EXPECT_TRUE(fs::exists(victim_));
  EXPECT_FALSE(fs::exists(inside));
  EXPECT_EQ(RowsText(QueryRows(lake_.catalog_path, "SELECT data_file_id FROM "
                                                   "ducklake_files_scheduled_for_deletion")),
            "90\n");
}

// A `.rowsum` sidecar goes with its data file: cleanup of a deleted file deletes its sidecar,
// a sidecar whose data file the catalog does not name is an orphan (as is a killed publisher's
// temporary), and the sidecar of a live file stays.
TEST_F(LinkedLake, SidecarsGoWithTheirDataFiles) {
  std::string live;
  for (const auto& entry : fs::directory_iterator(table_dir_)) {
    const std::string path = entry.path().string();
    if (path.find("ducklake-") != std::string::npos && path.ends_with(".parquet")) live = path;
  }
  ASSERT_FALSE(live.empty());
  const std::string live_sidecar = live + ".rowsum";
  const std::string orphan_sidecar = table_dir_ + "ducklake-gone.parquet.rowsum";
  const std::string temporary = live + ".rowsum.tarn-tmp-123-4";
  const std::string young_orphan = table_dir_ + "ducklake-young.parquet.rowsum";
  for (const std::string& path : {live_sidecar, orphan_sidecar, temporary, young_orphan}) {
    Touch(path);
    SetAge(path, std::chrono::hours(24 * 3));
  }
  SetAge(young_orphan, std::chrono::hours(1));
  SetAge(live, std::chrono::hours(24 * 10));
  std::string orphans = Call("CALL ducklake_delete_orphaned_files('lake')");
  EXPECT_NE(orphans.find(orphan_sidecar + "\n"), std::string::npos) << orphans;
  EXPECT_NE(orphans.find(temporary + "\n"), std::string::npos) << orphans;
  EXPECT_EQ(orphans.find(young_orphan), std::string::npos) << orphans;
  EXPECT_EQ(orphans.find(live_sidecar + "\n"), std::string::npos) << orphans;
  EXPECT_FALSE(fs::exists(orphan_sidecar));
  EXPECT_FALSE(fs::exists(temporary));
  EXPECT_TRUE(fs::exists(young_orphan));
  EXPECT_TRUE(fs::exists(live_sidecar));
  EXPECT_TRUE(fs::exists(live));

  // The file of a rewritten table is scheduled, then cleaned up with its sidecar.
  Exec("DELETE FROM lake.t WHERE i < 5");
  Exec("CALL ducklake_rewrite_data_files('lake', 't', delete_threshold => 0)");
  Exec("CALL ducklake_expire_snapshots('lake', older_than => now())");
  const std::string cleaned = Call("CALL ducklake_cleanup_old_files('lake', cleanup_all => true)");
  EXPECT_NE(cleaned.find(live + "\n"), std::string::npos) << cleaned;
  EXPECT_EQ(cleaned.find(".rowsum"), std::string::npos) << cleaned;
  EXPECT_FALSE(fs::exists(live));
  EXPECT_FALSE(fs::exists(live_sidecar));
  EXPECT_EQ(Call("SELECT COUNT(*) FROM lake.t"), "5\n");
}

}  // namespace
}  // namespace tarn
