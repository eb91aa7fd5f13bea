// The fixture lakes queried through the `tarn` program as a user would: for every fixture
// folder and every expected/SCHEMA.TABLE@N.parquet,
//   tarn ducklake:sqlite:<copy> --data-path <fixture>/data
//        -c "COPY (SELECT rowid, * FROM s.t AT (VERSION => N) ORDER BY rowid) TO 'out.parquet'"
// and out.parquet compared value for value with the expected file (both read with tarn's
// Parquet reader); the changes file likewise through ducklake_table_changes('lake', ...).
// Fixture folders are enumerated at run time; a missing fixture fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "support/fixture_lake.h"
#include "support/run_tarn.h"
#include "support/test_util.h"
#include "table/table_test_util.h"

namespace tarn {
namespace {

using table_testing::BatchesEqual;
using table_testing::FixtureDir;
using testing::CorrectKnownFixtureDefects;
using testing::ExpectedFile;
using testing::RunResult;
using testing::RunTarn;
using testing::RunTarnIn;
using testing::TempDir;

std::string Quoted(const std::string& name) { return "\"" + name + "\""; }

class LakeCliTest : public ::testing::TestWithParam<std::string> {};

TEST_P(LakeCliTest, EverySnapshotAndChangeFeedThroughTheProgram) {
  const std::string fixture = GetParam();
  if (const char* gap = table_testing::KnownReadGap(fixture)) GTEST_SKIP() << gap;
  ASSERT_TRUE(testing::FileExists(FixtureDir(fixture) + "/catalog.sqlite"));
  const auto expected_files = testing::ListExpectedFiles(fixture);
  ASSERT_FALSE(expected_files.empty()) << "no expected/*.parquet in fixture " << fixture;
  TempDir dir;
  const std::string catalog = table_testing::CopyCatalog(fixture, dir);
  const std::string data = FixtureDir(fixture) + "/data";
  // The change feeds run to the latest snapshot, as the expected files were made.
  auto lake = table_testing::OpenLake(catalog, data);
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto latest = (*lake)->FindSnapshot(SnapshotSelector::Latest());
  ASSERT_TRUE(latest.ok()) << latest.status().ToString();
  lake->reset();

  int compared = 0;
  for (const ExpectedFile& file : expected_files) {
    SCOPED_TRACE(file.path);
    const std::string out = dir.Join("out" + std::to_string(compared) + ".parquet");
    const std::string table = Quoted(file.schema) + "." + Quoted(file.table);
    std::string query;
    if (file.snapshot) {
      query = "SELECT rowid, * FROM " + table + " AT (VERSION => " +
              std::to_string(*file.snapshot) + ") ORDER BY rowid";
    } else {
      query = "SELECT * FROM ducklake_table_changes('lake', '" + file.schema + "', '" + file.table +
              "', 0, " + std::to_string(latest->snapshot_id) +
              ") ORDER BY snapshot_id, rowid, change_type";
    }
    RunResult run = RunTarn({"ducklake:sqlite:" + catalog, "--data-path", data,
                             "--override-data-path", "-c", "COPY (" + query + ") TO '" + out + "'"},
                            dir);
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, "");
    auto expected = table_testing::ReadParquet(file.path);
    ASSERT_TRUE(expected.ok()) << expected.status().ToString();
    CorrectKnownFixtureDefects(fixture, expected->get());  // see support/fixture_lake.h
    auto actual = table_testing::ReadParquet(out);
    ASSERT_TRUE(actual.ok()) << actual.status().ToString();
    EXPECT_TRUE(BatchesEqual(**expected, **actual));
    ++compared;
  }
  RecordProperty("compared", compared);
}

INSTANTIATE_TEST_SUITE_P(Lakes, LakeCliTest, ::testing::ValuesIn(table_testing::ListFixtures()),
                         [](const auto& param_info) { return param_info.param; });

TEST(LakeCliTest, KnownFixturesArePresent) {
  const auto fixtures = table_testing::ListFixtures();
  for (const char* name : {"basic", "compacted", "evolution", "inlined", "nan", "nested"}) {
    EXPECT_NE(std::find(fixtures.begin(), fixtures.end(), name), fixtures.end())
        << "fixture lake '" << name << "' is missing under " << FixtureDir("");
  }
}

TEST(LakeCliTest, BarePathReadOnlyAndFormats) {
  TempDir dir;
  const std::string catalog = table_testing::CopyCatalog("basic", dir);
  const std::string data = FixtureDir("basic") + "/data";
  RunResult run = RunTarn({catalog, "--data-path", data, "--override-data-path", "--read-only",
                           "--format", "csv", "-c", "SELECT count(*) AS n FROM t; SHOW TABLES"},
                          dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out, "n\n4302\nname\nt\n");
  RunResult write = RunTarn({catalog, "--data-path", data, "--override-data-path", "--read-only",
                             "-c", "DELETE FROM t WHERE id = 1"},
                            dir);
  EXPECT_EQ(write.exit_code, 1);
  EXPECT_EQ(write.err,
            "Error: Invalid Input Error: cannot run DELETE: the lake \"lake\" is attached "
            "read-only\n");
  RunResult json =
      RunTarn({"ducklake:sqlite:" + catalog, "--data-path", data, "--override-data-path",
               "--format", "json", "-c", "CALL ducklake_current_snapshot('lake')"},
              dir);
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out, "{\"id\":10}\n");
}

TEST(LakeCliTest, AttachErrors) {
  TempDir dir;
  RunResult missing = RunTarn({dir.Join("nope.sqlite"), "-c", "SELECT 1"}, dir);
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("Error: cannot attach the lake \"" + dir.Join("nope.sqlite") + "\""),
            std::string::npos)
      << missing.err;
  RunResult flag = RunTarn({"--read-only", "-c", "SELECT 1"}, dir);
  EXPECT_EQ(flag.exit_code, 1);
  EXPECT_EQ(flag.err, "Error: --data-path and --read-only need a LAKE argument\n");
  RunResult two = RunTarn({"a.sqlite", "b.sqlite", "-c", "SELECT 1"}, dir);
  EXPECT_EQ(two.exit_code, 1);
  EXPECT_EQ(two.err, "Error: unexpected argument \"b.sqlite\" (only one LAKE may be given)\n");
}

TEST(LakeCliTest, CreatesALakeWhenTheCatalogIsMissing) {
  TempDir dir;
  const std::string catalog = dir.Join("new.sqlite");
  RunResult create = RunTarn(
      {"ducklake:sqlite:" + catalog, "--data-path", dir.Join("files"), "-c",
       "CREATE TABLE t AS SELECT range AS i FROM range(100)", "-c", "DELETE FROM t WHERE i < 10"},
      dir);
  ASSERT_EQ(create.exit_code, 0) << create.err;
  EXPECT_TRUE(std::filesystem::is_directory(dir.Join("files/main/t")));
  // Opened again, without --data-path: the lake remembers where its files are.
  RunResult read =
      RunTarn({catalog, "--format", "csv", "-c", "SELECT count(*) AS n, sum(i) AS s FROM t", "-c",
               "SELECT value FROM ducklake_options() WHERE option_name = "
               "'data_path'"},
              dir);
  ASSERT_EQ(read.exit_code, 0) << read.err;
  EXPECT_EQ(read.out, "n,s\n90,4905\nvalue\n" + dir.Join("files") + "/\n");
  // Read-only never creates; without --data-path there is nothing to create it with.
  RunResult read_only = RunTarn(
      {dir.Join("other.sqlite"), "--data-path", dir.Join("files"), "--read-only", "-c", "SELECT 1"},
      dir);
  EXPECT_EQ(read_only.exit_code, 1);
  EXPECT_FALSE(std::filesystem::exists(dir.Join("other.sqlite")));
  RunResult no_path = RunTarn({dir.Join("other.sqlite"), "-c", "SELECT 1"}, dir);
  EXPECT_EQ(no_path.exit_code, 1);
  EXPECT_NE(no_path.err.find("does not exist"), std::string::npos) << no_path.err;
  EXPECT_FALSE(std::filesystem::exists(dir.Join("other.sqlite")));
}

// The adversarial case: a relative --data-path run from another folder names a different
// folder than the catalog's; it is refused (no file is written there) unless overridden.
TEST(LakeCliTest, ADifferentDataPathIsRefusedUnlessOverridden) {
  TempDir dir;
  std::filesystem::create_directories(dir.Join("a"));
  std::filesystem::create_directories(dir.Join("b"));
  const std::string catalog = dir.Join("lake.sqlite");
  RunResult create = RunTarnIn(
      dir.Join("a"),
      {catalog, "--data-path", "files", "-c", "CREATE TABLE t AS SELECT range AS i FROM range(100)"},
      dir);
  ASSERT_EQ(create.exit_code, 0) << create.err;
  RunResult refused = RunTarnIn(
      dir.Join("b"), {catalog, "--data-path", "files", "-c", "INSERT INTO t VALUES (10)"}, dir);
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_EQ(refused.err, "Error: cannot attach the lake \"" + catalog +
                             "\": Invalid Input Error: DATA_PATH parameter \"" +
                             dir.Join("b/files") +
                             "\" does not match existing data path in "
                             "the catalog \"" +
                             dir.Join("a/files") + "/\" (SQLite catalog '" + catalog +
                             "'). If the lake was moved there, use OVERRIDE_DATA_PATH "
                             "(tarn --override-data-path)\n");
  EXPECT_FALSE(std::filesystem::exists(dir.Join("b/files")));
  RunResult read = RunTarnIn(
      dir.Join("b"), {catalog, "--format", "csv", "-c", "SELECT count(*) AS n FROM t"}, dir);
  ASSERT_EQ(read.exit_code, 0) << read.err;
  EXPECT_EQ(read.out, "n\n100\n");
  // Moved: the files now live under b/files.
  std::filesystem::rename(dir.Join("a/files"), dir.Join("b/files"));
  RunResult moved = RunTarnIn(dir.Join("b"),
                              {catalog, "--data-path", "files", "--override-data-path", "--format",
                               "csv", "-c", "SELECT count(*) AS n FROM t"},
                              dir);
  ASSERT_EQ(moved.exit_code, 0) << moved.err;
  EXPECT_EQ(moved.out, "n\n100\n");
  RunResult lone = RunTarn({catalog, "--override-data-path", "-c", "SELECT 1"}, dir);
  EXPECT_EQ(lone.exit_code, 1);
  EXPECT_EQ(lone.err, "Error: --override-data-path needs --data-path DIR\n");
}

}  // namespace
}  // namespace tarn
