// §6 conflict rules of maintenance commits: a compaction conflicts with a concurrent delete
// from the table, a flush with a concurrent flush; a compaction whose source a concurrent
// commit removed fails even without a token rule.
#include <gtest/gtest.h>

#include "lake_conformance/lake_test_util.h"
#include "tarn/lake_write.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using lake_testing::QueryRows;

std::unique_ptr<Lake> OpenWritable(const lake_testing::SqlLake& lake) {
  LakeOpenOptions options;
  options.read_only = false;
  options.data_path = lake.data_path;
  auto opened = Lake::Open("ducklake:sqlite:" + lake.catalog_path, options);
  EXPECT_TRUE(opened.ok()) << opened.status().ToString();
  return opened.ok() ? std::move(opened).value() : nullptr;
}

int64_t Latest(const std::string& catalog) {
  return std::stoll(QueryRows(catalog, "SELECT MAX(snapshot_id) FROM ducklake_snapshot")[0][0]);
}

void Exec(lake_testing::SqlLake& lake, const std::string& sql) {
  Status status = lake_testing::RunStatement(*lake.session, sql);
  ASSERT_TRUE(status.ok()) << sql << ": " << status.ToString();
}

TEST(MaintenanceConflictTest, CompactionAgainstConcurrentDelete) {
  lake_testing::SqlLake lake;
  ASSERT_TRUE(lake.Create(0).ok());
  Exec(lake, "CREATE TABLE t (i INTEGER)");
  Exec(lake, "INSERT INTO t SELECT range FROM range(0, 100)");
  Exec(lake, "INSERT INTO t SELECT range FROM range(100, 200)");
  auto other = OpenWritable(lake);
  ASSERT_NE(other, nullptr);
  const int64_t start = Latest(lake.catalog_path);
  LakeChanges changes;
  CompactFilesChange compact;
  compact.table_id = 1;
  for (const auto& row : QueryRows(lake.catalog_path, "SELECT data_file_id, path FROM "
                                                      "ducklake_data_file")) {
    compact.sources.push_back({std::stoll(row[0]), "main/t/" + lake_testing::Unquote(row[1])});
  }
  ASSERT_EQ(compact.sources.size(), 2u);
  changes.Add(compact);
  Exec(lake, "DELETE FROM t WHERE i = 150");  // theirs
  auto result = CommitLakeChanges(*other, start, changes);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kConflict);
  EXPECT_NE(result.status().message().find("deleted_from_table:1"), std::string::npos)
      << result.status().ToString();
  EXPECT_NE(result.status().message().find("merge_adjacent:1"), std::string::npos)
      << result.status().ToString();
  EXPECT_EQ(Latest(lake.catalog_path), start + 1);

  // Without a conflicting token, a source that is gone still fails the commit.
  const int64_t now = Latest(lake.catalog_path);
  Exec(lake, "CALL ducklake_merge_adjacent_files('lake')");  // nothing: a file has deletes
  EXPECT_EQ(Latest(lake.catalog_path), now);
  LakeChanges stale;
  CompactFilesChange gone;
  gone.kind = CompactFilesChange::Kind::kRewriteDeletes;
  gone.table_id = 1;
  gone.sources.push_back({12345, "main/t/none.parquet"});
  stale.Add(gone);
  auto failed = CommitLakeChanges(*other, now, stale);
  ASSERT_FALSE(failed.ok());
  EXPECT_NE(failed.status().message().find("no longer live"), std::string::npos)
      << failed.status().ToString();
  EXPECT_EQ(Latest(lake.catalog_path), now);
}

TEST(MaintenanceConflictTest, FlushAgainstConcurrentFlush) {
  lake_testing::SqlLake lake;
  ASSERT_TRUE(lake.Create().ok());
  Exec(lake, "CREATE TABLE t (i INTEGER)");
  Exec(lake, "INSERT INTO t VALUES (1), (2)");
  auto other = OpenWritable(lake);
  ASSERT_NE(other, nullptr);
  const int64_t start = Latest(lake.catalog_path);
  LakeChanges changes;
  FlushInlinedChange flush;
  flush.table_id = 1;
  flush.up_to_snapshot = start;
  flush.inlined_tables = {"ducklake_inlined_data_1_1"};
  flush.rows_flushed = 2;
  changes.Add(flush);
  Exec(lake, "CALL ducklake_flush_inlined_data('lake')");  // theirs
  auto result = CommitLakeChanges(*other, start, changes);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.status().message().find("inline_flush:1"), std::string::npos)
      << result.status().ToString();
  EXPECT_EQ(Latest(lake.catalog_path), start + 1);
}

}  // namespace
}  // namespace tarn
