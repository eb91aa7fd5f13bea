// A process killed at each step of a maintenance commit (TARN_COMMIT_CRASH_AT) leaves the lake
// at the old or the new snapshot, and every snapshot reads the same rows either way.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <string>

#include "lake_conformance/lake_test_util.h"
#include "tarn/format.h"
#include "tarn/sql.h"
#include "tarn/table_write.h"

namespace tarn {
namespace {

std::string ReadAll(const std::string& catalog, const std::string& data, int64_t snapshots) {
  LakeOpenOptions options;
  options.data_path = data;
  auto lake = Lake::Open("ducklake:sqlite:" + catalog, options);
  EXPECT_TRUE(lake.ok()) << lake.status().ToString();
  if (!lake.ok()) return "";
  Session session;
  EXPECT_TRUE(session.Attach(std::move(lake).value()).ok());
  std::string out;
  for (int64_t s = 1; s <= snapshots; ++s) {
    auto result = session.Execute(StrCat("SELECT rowid, * FROM lake.il AT (VERSION => ", s,
                                         ") ORDER BY rowid, id"));
    EXPECT_TRUE(result.ok()) << result.status().ToString();
    if (!result.ok()) return "";
    out += StrCat("@", s, "\n");
    while (true) {
      auto batch = result->reader->Next();
      EXPECT_TRUE(batch.ok());
      if (!batch.ok() || *batch == nullptr) break;
      for (int64_t r = 0; r < (*batch)->num_rows; ++r) {
        for (int c = 0; c < (*batch)->num_columns(); ++c) {
          out += FormatValue((*batch)->column(c).GetValue(r)) + "|";
        }
        out += "\n";
      }
    }
  }
  return out;
}

// The child of FlushCrashAtEveryCommitStep: flushes the lake named by the environment (does
// nothing when run on its own).
TEST(MaintenanceCrashTest, ChildFlush) {
  const char* catalog = std::getenv("MAINTENANCE_CRASH_CATALOG");
  const char* data = std::getenv("MAINTENANCE_CRASH_DATA");
  if (catalog == nullptr || data == nullptr) return;
  LakeOpenOptions options;
  options.read_only = false;
  options.data_path = data;
  auto opened = Lake::Open(std::string("ducklake:sqlite:") + catalog, options);
  if (!opened.ok()) ::_exit(2);
  auto r = FlushInlinedData(**opened, LocalFileSystem());
  ::_exit(r.ok() ? 0 : 3);
}

TEST(MaintenanceCrashTest, FlushCrashAtEveryCommitStep) {
  const char* const kSteps[] = {"begin", "read",  "catalog_rows",  "data_rows",
                                "stats", "snapshot", "before_commit", "after_commit"};
  const auto statements = lake_testing::SpecStatements(
      lake_testing::FixtureDir("inlined") + "/spec.sql");
  ASSERT_EQ(statements.size(), 10u);
  for (const char* step : kSteps) {
    SCOPED_TRACE(step);
    lake_testing::SqlLake lake;
    ASSERT_TRUE(lake.Create().ok());
    for (size_t i = 0; i < 7; ++i) {
      ASSERT_TRUE(lake_testing::RunStatement(*lake.session, statements[i]).ok()) << statements[i];
    }
    lake.session.reset();
    const std::string before = ReadAll(lake.catalog_path, lake.data_path, 7);
    ASSERT_NE(before.find("@7"), std::string::npos);
    pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      // A fresh process (exec): forking a process with running threads may deadlock.
      ::setenv("TARN_COMMIT_CRASH_AT", step, 1);
      ::setenv("MAINTENANCE_CRASH_CATALOG", lake.catalog_path.c_str(), 1);
      ::setenv("MAINTENANCE_CRASH_DATA", lake.data_path.c_str(), 1);
      ::execl("/proc/self/exe", "maintenance_tests",
              "--gtest_filter=MaintenanceCrashTest.ChildFlush", static_cast<char*>(nullptr));
      ::_exit(4);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 86);
    const bool committed = std::string(step) == "after_commit";
    auto latest = lake_testing::QueryRows(lake.catalog_path,
                                          "SELECT MAX(snapshot_id) FROM ducklake_snapshot");
    ASSERT_EQ(latest.size(), 1u);
    EXPECT_EQ(latest[0][0], committed ? "8" : "7");
    EXPECT_EQ(ReadAll(lake.catalog_path, lake.data_path, 7), before);
    if (committed) {
      const std::string at8 = ReadAll(lake.catalog_path, lake.data_path, 8);
      EXPECT_EQ(at8.substr(at8.find("@8\n") + 3), before.substr(before.find("@7\n") + 3));
    } else {
      // The lake takes the flush now.
      LakeOpenOptions options;
      options.read_only = false;
      options.data_path = lake.data_path;
      auto opened = Lake::Open("ducklake:sqlite:" + lake.catalog_path, options);
      ASSERT_TRUE(opened.ok());
      auto r = FlushInlinedData(**opened, LocalFileSystem());
      ASSERT_TRUE(r.ok()) << r.status().ToString();
      EXPECT_EQ(r->commit.snapshot.snapshot_id, 8);
      opened->reset();
      EXPECT_EQ(ReadAll(lake.catalog_path, lake.data_path, 7), before);
    }
  }
}

}  // namespace
}  // namespace tarn
