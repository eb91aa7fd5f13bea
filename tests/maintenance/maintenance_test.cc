// Maintenance procedures (tarn/table_write.h) run through SQL CALLs as the official extension's
// fixtures ran them: the catalog rows they write have the extension's shape (ids, snapshot
// bounds, row_id_start, partial_max, tokens), every snapshot of the table reads the same rows
// and rowids before and after, and DuckDB reads the new files with the fixture's values.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "lake_conformance/lake_test_util.h"
#include "support/oracle.h"
#include "tarn/format.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using lake_testing::FixtureDir;
using lake_testing::QueryRows;
using lake_testing::RowsText;

// The rows of a query through the session, one line per row, sorted.
std::string SessionRows(Session& session, const std::string& sql) {
  Result<QueryResult> result = session.Execute(sql);
  EXPECT_TRUE(result.ok()) << sql << ": " << result.status().ToString();
  if (!result.ok()) return "<error>";
  std::vector<std::string> lines;
  while (true) {
    Result<std::shared_ptr<Batch>> batch = result->reader->Next();
    EXPECT_TRUE(batch.ok()) << batch.status().ToString();
    if (!batch.ok() || *batch == nullptr) break;
    for (int64_t r = 0; r < (*batch)->num_rows; ++r) {
      std::string line;
      for (int c = 0; c < (*batch)->num_columns(); ++c) {
        line += (c ? "|" : "") + FormatValue((*batch)->column(c).GetValue(r));
      }
      lines.push_back(line);
    }
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

int64_t LatestSnapshot(const std::string& catalog) {
  auto rows = QueryRows(catalog, "SELECT MAX(snapshot_id) FROM ducklake_snapshot");
  return rows.empty() ? -1 : std::stoll(rows[0][0]);
}

// Every snapshot's rows of `table` with their rowids.
std::map<int64_t, std::string> AllSnapshots(Session& session, const std::string& catalog,
                                            const std::string& table, int64_t first) {
  std::map<int64_t, std::string> out;
  for (int64_t s = first; s <= LatestSnapshot(catalog); ++s) {
    out[s] = SessionRows(session, StrCat("SELECT rowid, * FROM lake.", table,
                                         " AT (VERSION => ", s, ")"));
  }
  return out;
}

class Replay {
 public:
  explicit Replay(std::string fixture) : fixture_(std::move(fixture)) {
    statements_ = lake_testing::SpecStatements(FixtureDir(fixture_) + "/spec.sql");
  }
  Status Create() { return lake_.Create(); }
  // Runs statements [from, to).
  void Run(size_t from, size_t to) {
    for (size_t i = from; i < to && i < statements_.size(); ++i) {
      Status status = lake_testing::RunStatement(*lake_.session, statements_[i]);
      ASSERT_TRUE(status.ok()) << "statement " << i + 1 << ": " << statements_[i] << "\n"
                               << status.ToString();
    }
  }
  const std::string& statement(size_t i) const { return statements_[i]; }
  size_t size() const { return statements_.size(); }
  Session& session() { return *lake_.session; }
  const std::string& ours() const { return lake_.catalog_path; }
  const std::string& data() const { return lake_.data_path; }
  std::string theirs() const { return FixtureDir(fixture_) + "/catalog.sqlite"; }

  void ExpectSameCatalog(const std::string& sql) {
    EXPECT_EQ(RowsText(QueryRows(ours(), sql)), RowsText(QueryRows(theirs(), sql))) << sql;
  }

 private:
  std::string fixture_;
  std::vector<std::string> statements_;
  lake_testing::SqlLake lake_;
};

const char* kDataFileShape =
    "SELECT data_file_id, table_id, begin_snapshot, end_snapshot, record_count, row_id_start, "
    "partition_id, partial_max FROM ducklake_data_file";

TEST(MaintenanceTest, FlushInlinedDataAsTheExtension) {
  Replay replay("inlined");
  ASSERT_TRUE(replay.Create().ok());
  ASSERT_EQ(replay.size(), 10u);
  ASSERT_NE(replay.statement(7).find("ducklake_flush_inlined_data"), std::string::npos);
  replay.Run(0, 7);
  const auto before = AllSnapshots(replay.session(), replay.ours(), "il", 1);
  replay.Run(7, 8);
  EXPECT_EQ(LatestSnapshot(replay.ours()), 8);
  const auto after = AllSnapshots(replay.session(), replay.ours(), "il", 1);
  for (const auto& [s, rows] : before) EXPECT_EQ(after.at(s), rows) << "snapshot " << s;
  EXPECT_EQ(after.at(8), before.at(7));

  // Inlined rows and deletions are gone; the data file, delete files and tokens are the
  // extension's (its catalog changed no file rows after snapshot 8).
  EXPECT_EQ(RowsText(QueryRows(replay.ours(), "SELECT COUNT(*) FROM ducklake_inlined_data_1_1")),
            "0\n");
  EXPECT_EQ(RowsText(QueryRows(replay.ours(), "SELECT COUNT(*) FROM ducklake_inlined_delete_1")),
            "0\n");
  replay.ExpectSameCatalog(kDataFileShape);
  replay.ExpectSameCatalog(
      "SELECT delete_file_id, table_id, begin_snapshot, end_snapshot, data_file_id, "
      "delete_count, partial_max FROM ducklake_delete_file");
  replay.ExpectSameCatalog(
      "SELECT s.snapshot_id, schema_version, next_catalog_id, next_file_id, changes_made FROM "
      "ducklake_snapshot s JOIN ducklake_snapshot_changes c USING (snapshot_id) WHERE "
      "s.snapshot_id <= 8");
  replay.ExpectSameCatalog("SELECT * FROM ducklake_inlined_data_tables");

  // DuckDB reads the flushed file and its delete file with the extension's values.
  auto path_of = [](const std::string& catalog, const std::string& root, const char* table,
                    int64_t id) {
    const std::string key = std::string(table) == "ducklake_data_file" ? "data_file_id"
                                                                        : "delete_file_id";
    auto rows = QueryRows(catalog, StrCat("SELECT path FROM ", table, " WHERE ", key, " = ", id));
    return rows.empty() ? std::string() : root + "main/il/" + lake_testing::Unquote(rows[0][0]);
  };
  const std::string their_root = FixtureDir("inlined") + "/data/";
  for (int64_t id : {4}) {
    auto ours = testing::DuckDBQueryCsv(StrCat(
        "SELECT * FROM '", path_of(replay.ours(), replay.data(), "ducklake_data_file", id),
        "' ORDER BY ALL"));
    auto theirs = testing::DuckDBQueryCsv(StrCat(
        "SELECT * FROM '", path_of(replay.theirs(), their_root, "ducklake_data_file", id),
        "' ORDER BY ALL"));
    ASSERT_TRUE(ours.ok()) << ours.status().ToString();
    ASSERT_TRUE(theirs.ok()) << theirs.status().ToString();
    EXPECT_EQ(*ours, *theirs) << "data file " << id;
  }
  for (int64_t id : {5, 6}) {
    auto ours = testing::DuckDBQueryCsv(StrCat(
        "SELECT pos, _ducklake_internal_snapshot_id FROM '",
        path_of(replay.ours(), replay.data(), "ducklake_delete_file", id), "' ORDER BY ALL"));
    auto theirs = testing::DuckDBQueryCsv(StrCat(
        "SELECT pos, _ducklake_internal_snapshot_id FROM '",
        path_of(replay.theirs(), their_root, "ducklake_delete_file", id), "' ORDER BY ALL"));
    ASSERT_TRUE(ours.ok()) << ours.status().ToString();
    ASSERT_TRUE(theirs.ok()) << theirs.status().ToString();
    EXPECT_EQ(*ours, *theirs) << "delete file " << id;
  }

  // The rest of the script runs on the flushed lake, and a second flush finds nothing more
  // than the new inlined rows.
  replay.Run(8, 10);
  replay.ExpectSameCatalog(kDataFileShape);
  replay.ExpectSameCatalog(
      "SELECT s.snapshot_id, schema_version, next_catalog_id, next_file_id, changes_made FROM "
      "ducklake_snapshot s JOIN ducklake_snapshot_changes c USING (snapshot_id)");
  replay.ExpectSameCatalog("SELECT table_id, record_count, next_row_id FROM ducklake_table_stats");
  replay.ExpectSameCatalog(
      "SELECT table_id, column_id, contains_null, min_value, max_value FROM "
      "ducklake_table_column_stats");
  const auto final_before = AllSnapshots(replay.session(), replay.ours(), "il", 1);
  EXPECT_EQ(SessionRows(replay.session(), "CALL ducklake_flush_inlined_data('lake')"),
            "main|il|1\n");
  const auto final_after = AllSnapshots(replay.session(), replay.ours(), "il", 1);
  for (const auto& [s, rows] : final_before) EXPECT_EQ(final_after.at(s), rows) << s;
  EXPECT_EQ(SessionRows(replay.session(), "CALL ducklake_flush_inlined_data('lake')"), "");
}

TEST(MaintenanceTest, CompactionAsTheExtension) {
  Replay replay("compacted");
  ASSERT_TRUE(replay.Create().ok());
  ASSERT_EQ(replay.size(), 13u);
  std::map<int64_t, std::string> seen;
  for (size_t i = 0; i < replay.size(); ++i) {
    const bool maintenance = replay.statement(i).find("CALL ducklake_merge") == 0 ||
                             replay.statement(i).find("CALL ducklake_rewrite") == 0;
    std::map<int64_t, std::string> before;
    if (maintenance) before = AllSnapshots(replay.session(), replay.ours(), "c", 1);
    replay.Run(i, i + 1);
    if (!maintenance) continue;
    const auto after = AllSnapshots(replay.session(), replay.ours(), "c", 1);
    for (const auto& [s, rows] : before) {
      EXPECT_EQ(after.at(s), rows) << "snapshot " << s << " after statement " << i + 1;
    }
  }
  EXPECT_EQ(LatestSnapshot(replay.ours()), 11);
  replay.ExpectSameCatalog(kDataFileShape);
  replay.ExpectSameCatalog("SELECT table_id, record_count, next_row_id FROM ducklake_table_stats");
  replay.ExpectSameCatalog(
      "SELECT s.snapshot_id, schema_version, next_file_id, changes_made FROM ducklake_snapshot "
      "s JOIN ducklake_snapshot_changes c USING (snapshot_id)");
  // Files the merge replaced are scheduled (relative to data_path) with the commit's time.
  replay.ExpectSameCatalog(
      "SELECT d.data_file_id, substr(d.path, 1, 7), d.path_is_relative FROM "
      "ducklake_files_scheduled_for_deletion d WHERE d.data_file_id IN (17, 18)");
  // DuckDB reads the merged file with the fixture's values, embedded ids included.
  auto file = QueryRows(replay.ours(), "SELECT path FROM ducklake_data_file WHERE data_file_id = 19");
  auto their = QueryRows(replay.theirs(), "SELECT path FROM ducklake_data_file WHERE data_file_id = 19");
  ASSERT_EQ(file.size(), 1u);
  ASSERT_EQ(their.size(), 1u);
  auto ours = testing::DuckDBQueryCsv(StrCat("SELECT * FROM '", replay.data(), "main/c/",
                                             lake_testing::Unquote(file[0][0]), "' ORDER BY ALL"));
  auto theirs = testing::DuckDBQueryCsv(StrCat("SELECT * FROM '", FixtureDir("compacted"),
                                               "/data/main/c/", lake_testing::Unquote(their[0][0]),
                                               "' ORDER BY ALL"));
  ASSERT_TRUE(ours.ok()) << ours.status().ToString();
  ASSERT_TRUE(theirs.ok()) << theirs.status().ToString();
  EXPECT_EQ(*ours, *theirs);
}

// expire, cleanup and orphan deletion on the compacted lake.
TEST(MaintenanceTest, ExpireCleanupOrphans) {
  Replay replay("compacted");
  ASSERT_TRUE(replay.Create().ok());
  replay.Run(0, replay.size());
  Session& session = replay.session();
  const auto before = AllSnapshots(session, replay.ours(), "c", 9);
  const std::string scheduled_sql =
      "SELECT COUNT(*) FROM ducklake_files_scheduled_for_deletion";
  const int64_t scheduled = std::stoll(QueryRows(replay.ours(), scheduled_sql)[0][0]);
  EXPECT_EQ(scheduled, 2);  // the merge's sources (17, 18)

  // dry run: nothing changes.
  const std::string would = SessionRows(
      session, "CALL ducklake_expire_snapshots('lake', versions => [1, 2, 3, 4, 5, 6, 7, 8], "
               "dry_run => true)");
  EXPECT_EQ(std::count(would.begin(), would.end(), '\n'), 8) << would;
  EXPECT_EQ(LatestSnapshot(replay.ours()), 11);
  EXPECT_EQ(RowsText(QueryRows(replay.ours(), "SELECT COUNT(*) FROM ducklake_snapshot")), "12\n");
  SessionRows(session, "CALL ducklake_expire_snapshots('lake', versions => [1, 2, 3, 4, 5, 6, 7, 8])");
  EXPECT_EQ(RowsText(QueryRows(replay.ours(), "SELECT snapshot_id FROM ducklake_snapshot")),
            "0\n10\n11\n9\n");
  // Files ended at 9 are seen by no remaining snapshot: gone from the catalog, scheduled.
  EXPECT_EQ(RowsText(QueryRows(replay.ours(), "SELECT data_file_id FROM ducklake_data_file")),
            "19\n");
  EXPECT_EQ(RowsText(QueryRows(replay.ours(),
                               "SELECT COUNT(*) FROM ducklake_delete_file")),
            "0\n");
  const int64_t now_scheduled = std::stoll(QueryRows(replay.ours(), scheduled_sql)[0][0]);
  EXPECT_GT(now_scheduled, scheduled + 5);
  EXPECT_EQ(AllSnapshots(session, replay.ours(), "c", 9), before);

  // cleanup: dry run lists, then the files go.
  const std::string listed =
      SessionRows(session, "CALL ducklake_cleanup_old_files('lake', cleanup_all => true, "
                           "dry_run => true)");
  EXPECT_EQ(static_cast<int64_t>(std::count(listed.begin(), listed.end(), '\n')), now_scheduled);
  std::string first = listed.substr(0, listed.find('\n'));
  EXPECT_TRUE(testing::FileExists(first)) << first;
  SessionRows(session, "CALL ducklake_cleanup_old_files('lake', cleanup_all => true)");
  EXPECT_FALSE(testing::FileExists(first)) << first;
  EXPECT_EQ(RowsText(QueryRows(replay.ours(), scheduled_sql)), "0\n");
  EXPECT_EQ(AllSnapshots(session, replay.ours(), "c", 9), before);

  // orphans: only a stray .parquet file under data_path.
  const std::string stray = replay.data() + "main/c/stray.parquet";
  { std::ofstream(stray) << "x"; }
  EXPECT_EQ(SessionRows(session, "CALL ducklake_delete_orphaned_files('lake', cleanup_all => "
                                 "true, dry_run => true)"),
            stray + "\n");
  EXPECT_TRUE(testing::FileExists(stray));
  SessionRows(session, "CALL ducklake_delete_orphaned_files('lake', cleanup_all => true)");
  EXPECT_FALSE(testing::FileExists(stray));
  EXPECT_EQ(AllSnapshots(session, replay.ours(), "c", 9), before);
}

}  // namespace
}  // namespace tarn
