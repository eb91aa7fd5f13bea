// The write side judged by its answers, for every fixture lake (written by the official
// DuckLake 1.0 extension from its spec.sql): tarn runs the same statements through a SQL
// Session, one transaction each, into a new lake, and then
//
// 1. every statement ran, and the snapshots are numbered as the extension numbered them: the
//    same snapshot ids, schema versions and changes_made tokens, snapshot for snapshot;
// 2. tarn's scan of its own lake at every snapshot equals the fixture's expected answer there
//    (`SELECT rowid, * … AT (VERSION => N) ORDER BY rowid`), value for value;
// 3. tarn's change feed over all snapshots equals the fixture's.
//
// (A changes_made that differs on purpose is listed in kKnownTokenDifferences with its reason.)
//
// spec_replay_test.cc compares the catalogs row by row where they are comparable; this test
// covers every lake, including those whose catalogs legitimately differ in file order. Where
// the extension hands out row ids in an order tarn cannot reproduce (rows of one insert spread
// over partitions in the order of its hash table; rows tied on a sort key in the order of
// DuckDB's unstable sort), answers are compared as multisets of rows without the rowid.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "lake_test_util.h"
#include "support/fixture_lake.h"
#include "table/table_test_util.h"

namespace tarn {
namespace {

using lake_testing::QueryRows;
using lake_testing::RowsText;

// Lakes whose row ids follow an order of the extension's own making (see above).
bool RowIdsComparable(const std::string& fixture) {
  return fixture != "partitioned2" && fixture != "sorted";
}

// The rows of `batch` as text without column `skip`, sorted.
std::vector<std::string> RowMultiset(const Batch& batch, int skip) {
  std::vector<std::string> rows;
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    std::string text;
    for (int c = 0; c < batch.num_columns(); ++c) {
      if (c == skip) continue;
      text += batch.column(c).GetValue(row).ToString() + "|";
    }
    rows.push_back(std::move(text));
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

::testing::AssertionResult SameRowsIgnoringRowId(const Batch& expected, const Batch& actual) {
  if (expected.num_columns() != actual.num_columns()) {
    return ::testing::AssertionFailure() << "columns: expected " << expected.schema->ToString()
                                         << ", got " << actual.schema->ToString();
  }
  const int rowid = expected.schema->FindField("rowid");
  const std::vector<std::string> want = RowMultiset(expected, rowid);
  const std::vector<std::string> got = RowMultiset(actual, rowid);
  if (want == got) return ::testing::AssertionSuccess();
  std::vector<std::string> missing, extra;
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(),
                      std::back_inserter(missing));
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(),
                      std::back_inserter(extra));
  auto failure = ::testing::AssertionFailure();
  failure << want.size() << " rows expected, " << got.size() << " read; " << missing.size()
          << " missing, " << extra.size() << " extra";
  for (size_t i = 0; i < std::min<size_t>(missing.size(), 3); ++i) {
    failure << "\n  missing: " << missing[i];
  }
  for (size_t i = 0; i < std::min<size_t>(extra.size(), 3); ++i) {
    failure << "\n  extra:   " << extra[i];
  }
  return failure;
}

// Snapshots whose changes_made differs from the extension's on purpose, with the reason.
struct KnownTokenDifference {
  const char* fixture;
  int64_t snapshot;
  const char* why;
};
const KnownTokenDifference kKnownTokenDifferences[] = {
    {"schemaflux", 18,
     "the extension's flush also empties ducklake_inlined_delete_1 of the deletions of files "
     "that a rewrite ended at 15 and says deleted_from_table:1; tarn keeps them until expire "
     "removes those files, so AT (VERSION => 14) still reads the rows as deleted"},
};

std::string SnapshotsQuery(const std::string& fixture) {
  std::string known = "0";
  for (const KnownTokenDifference& difference : kKnownTokenDifferences) {
    if (fixture == difference.fixture) known += StrCat(" OR s.snapshot_id = ", difference.snapshot);
  }
  return StrCat("SELECT s.snapshot_id, s.schema_version, CASE WHEN ", known,
                " THEN 'known difference' ELSE c.changes_made END FROM ducklake_snapshot s LEFT "
                "JOIN ducklake_snapshot_changes c USING (snapshot_id) ORDER BY 1");
}

class SpecAnswersTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SpecAnswersTest, EverySnapshotOfTheReplayAnswersAsTheExtension) {
  const std::string fixture = GetParam();
  const std::string dir = lake_testing::FixtureDir(fixture);
  ASSERT_TRUE(testing::FileExists(dir + "/spec.sql"));
  ASSERT_TRUE(testing::FileExists(dir + "/catalog.sqlite"));
  const std::string theirs = dir + "/catalog.sqlite";

  lake_testing::SqlLake lake;
  Status created = lake.Create();
  ASSERT_TRUE(created.ok()) << created.ToString();
  const std::vector<std::string> statements = lake_testing::SpecStatements(dir + "/spec.sql");
  ASSERT_FALSE(statements.empty());
  for (size_t i = 0; i < statements.size(); ++i) {
    Status status = lake_testing::RunStatement(*lake.session, statements[i]);
    ASSERT_TRUE(status.ok()) << "statement " << i + 1 << " of " << fixture
                             << "/spec.sql: " << statements[i] << "\n  -> " << status.ToString();
  }
  lake.session.reset();  // release the catalog before reading it back

  // 1. Snapshot numbering.
  const std::string snapshots = SnapshotsQuery(fixture);
  EXPECT_EQ(RowsText(QueryRows(lake.catalog_path, snapshots), /*sort=*/false),
            RowsText(QueryRows(theirs, snapshots), /*sort=*/false))
      << "the snapshots of " << fixture;

  // 2 and 3. Answers.
  auto ours = table_testing::OpenLake(lake.catalog_path, lake.data_path);
  ASSERT_TRUE(ours.ok()) << ours.status().ToString();
  auto latest = (*ours)->FindSnapshot(SnapshotSelector::Latest());
  ASSERT_TRUE(latest.ok()) << latest.status().ToString();
  int scans = 0, feeds = 0;
  for (const testing::ExpectedFile& file : testing::ListExpectedFiles(fixture)) {
    SCOPED_TRACE(file.path);
    auto expected = table_testing::ReadParquet(file.path);
    ASSERT_TRUE(expected.ok()) << expected.status().ToString();
    testing::CorrectKnownFixtureDefects(fixture, expected->get());  // support/fixture_lake.h
    std::shared_ptr<Batch> actual;
    if (file.snapshot.has_value()) {
      auto table = table_testing::LoadTableAt(**ours, *file.snapshot, file.schema, file.table);
      ASSERT_TRUE(table.ok()) << table.status().ToString();
      TableScanOptions options;
      options.with_rowid = true;
      auto scanned = table_testing::Scan(**ours, *table, options);
      ASSERT_TRUE(scanned.ok()) << scanned.status().ToString();
      ASSERT_TRUE((*scanned)->Validate().ok());
      actual = table_testing::AsDuckDBParquetWrites(*table_testing::SortBy(**scanned, 0));
      ++scans;
    } else {
      ChangeFeedOptions options;
      options.kind = ChangeFeedKind::kChanges;
      options.start_snapshot = 0;
      options.end_snapshot = latest->snapshot_id;
      auto reader =
          ReadTableChanges(**ours, LocalFileSystem(), file.schema, file.table, options);
      ASSERT_TRUE(reader.ok()) << reader.status().ToString();
      auto drained = table_testing::Drain(**reader);
      ASSERT_TRUE(drained.ok()) << drained.status().ToString();
      actual = table_testing::AsDuckDBParquetWrites(**drained);
      ++feeds;
    }
    ASSERT_NE(actual, nullptr);
    if (RowIdsComparable(fixture)) {
      EXPECT_TRUE(table_testing::BatchesEqual(**expected, *actual));
    } else {
      EXPECT_TRUE(SameRowsIgnoringRowId(**expected, *actual));
    }
  }
  EXPECT_GT(scans, 0) << "no expected snapshot of " << fixture << " was compared";
  RecordProperty("scans", scans);
  RecordProperty("feeds", feeds);
}

INSTANTIATE_TEST_SUITE_P(Fixtures, SpecAnswersTest,
                         ::testing::ValuesIn(table_testing::ListFixtures()),
                         [](const auto& param_info) { return param_info.param; });

}  // namespace
}  // namespace tarn
