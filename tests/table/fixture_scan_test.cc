// Every DuckLake fixture lake, every expected snapshot: tarn's scan (SELECT rowid, * ... AT
// (VERSION => N) ORDER BY rowid) and change feed against what official DuckLake returned,
// value for value. Fixture folders are enumerated at run time, so a new lake is covered with
// no code change.
#include <gtest/gtest.h>

#include <algorithm>

#include "support/fixture_lake.h"
#include "table/table_test_util.h"

namespace tarn {
namespace {

using table_testing::BatchesEqual;
using table_testing::FixtureDir;
using testing::CorrectKnownFixtureDefects;
using testing::ExpectedFile;

TEST(FixtureScanTest, KnownFixturesArePresent) {
  const auto fixtures = table_testing::ListFixtures();
  for (const char* name : {"basic", "compacted", "evolution", "inlined", "nan", "nested"}) {
    EXPECT_NE(std::find(fixtures.begin(), fixtures.end(), name), fixtures.end())
        << "fixture lake '" << name << "' is missing under " << FixtureDir("");
  }
}

class FixtureLakeTest : public ::testing::TestWithParam<std::string> {};

TEST_P(FixtureLakeTest, EverySnapshotAndChangeFeedMatchesDuckLake) {
  const std::string fixture = GetParam();
  if (const char* gap = table_testing::KnownReadGap(fixture)) GTEST_SKIP() << gap;
  ASSERT_TRUE(testing::FileExists(FixtureDir(fixture) + "/catalog.sqlite"));
  const auto expected_files = testing::ListExpectedFiles(fixture);
  ASSERT_FALSE(expected_files.empty()) << "no expected/*.parquet in fixture " << fixture;
  testing::TempDir dir;
  auto lake = table_testing::OpenLake(table_testing::CopyCatalog(fixture, dir),
                                      FixtureDir(fixture) + "/data");
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto latest = (*lake)->FindSnapshot(SnapshotSelector::Latest());
  ASSERT_TRUE(latest.ok()) << latest.status().ToString();

  int scans = 0, feeds = 0;
  for (const ExpectedFile& file : expected_files) {
    SCOPED_TRACE(file.path);
    auto expected = table_testing::ReadParquet(file.path);
    ASSERT_TRUE(expected.ok()) << expected.status().ToString();
    CorrectKnownFixtureDefects(fixture, expected->get());  // see support/fixture_lake.h
    if (file.snapshot.has_value()) {
      auto table = table_testing::LoadTableAt(**lake, *file.snapshot, file.schema, file.table);
      ASSERT_TRUE(table.ok()) << table.status().ToString();
      TableScanOptions options;
      options.with_rowid = true;
      auto actual = table_testing::Scan(**lake, *table, options);
      ASSERT_TRUE(actual.ok()) << actual.status().ToString();
      ASSERT_TRUE((*actual)->Validate().ok());
      auto written = table_testing::AsDuckDBParquetWrites(*table_testing::SortBy(**actual, 0));
      ASSERT_NE(written, nullptr);
      EXPECT_TRUE(BatchesEqual(**expected, *written));
      ++scans;
    } else {
      ChangeFeedOptions options;
      options.kind = ChangeFeedKind::kChanges;
      options.start_snapshot = 0;
      options.end_snapshot = latest->snapshot_id;
      auto reader = ReadTableChanges(**lake, LocalFileSystem(), file.schema, file.table, options);
      ASSERT_TRUE(reader.ok()) << reader.status().ToString();
      std::vector<std::shared_ptr<Batch>> batches;
      while (true) {
        auto batch = (*reader)->Next();
        ASSERT_TRUE(batch.ok()) << batch.status().ToString();
        if (!*batch) break;
        batches.push_back(*batch);
      }
      ASSERT_EQ(batches.size(), 1u);
      auto written = table_testing::AsDuckDBParquetWrites(*batches[0]);
      ASSERT_NE(written, nullptr);
      EXPECT_TRUE(BatchesEqual(**expected, *written));
      ++feeds;
    }
  }
  RecordProperty("scans", scans);
  RecordProperty("feeds", feeds);
}

INSTANTIATE_TEST_SUITE_P(Lakes, FixtureLakeTest,
                         ::testing::ValuesIn(table_testing::ListFixtures()),
                         [](const auto& param_info) { return param_info.param; });

}  // namespace
}  // namespace tarn
