// Statistics after maintenance: every snapshot reads the same rows (and rowids) before and
// after a rewrite, also from a fresh session, and ducklake_table_stats stays what the loader
// accepts and the extension writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "lake_conformance/lake_test_util.h"
#include "support/oracle.h"
#include "tarn/format.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using lake_testing::QueryRows;
using lake_testing::RowsText;

// The rows of a query, one line per row, sorted; "<error: ...>" when it fails.
std::string Rows(Session& session, const std::string& sql) {
  Result<QueryResult> result = session.Execute(sql);
  if (!result.ok()) return "<error: " + result.status().ToString() + ">";
  std::vector<std::string> lines;
  while (true) {
    Result<std::shared_ptr<Batch>> batch = result->reader->Next();
    if (!batch.ok()) return "<error: " + batch.status().ToString() + ">";
    if (*batch == nullptr) break;
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

int64_t Latest(const std::string& catalog) {
  return std::stoll(QueryRows(catalog, "SELECT MAX(snapshot_id) FROM ducklake_snapshot")[0][0]);
}

class SchemaLake {
 public:
  explicit SchemaLake(std::optional<int64_t> inlining_limit = std::nullopt) {
    Status created = lake_.Create(inlining_limit);
    EXPECT_TRUE(created.ok()) << created.ToString();
  }

  void Exec(const std::string& sql) {
    Status status = lake_testing::RunStatement(*lake_.session, sql);
    ASSERT_TRUE(status.ok()) << sql << ": " << status.ToString();
  }
  std::string Call(const std::string& sql) { return Rows(*lake_.session, sql); }

  // rowid and every column of t at each snapshot the table exists in.
  std::map<int64_t, std::string> Snapshots(Session& session) {
    std::map<int64_t, std::string> out;
    for (int64_t s = first_; s <= Latest(catalog()); ++s) {
      out[s] = Rows(session, StrCat("SELECT rowid, * FROM lake.t AT (VERSION => ", s, ")"));
    }
    return out;
  }
  std::map<int64_t, std::string> Snapshots() { return Snapshots(*lake_.session); }

  // Runs a maintenance CALL: every snapshot before it reads the same afterwards, in this
  // session and in a fresh one over the same catalog; the new snapshot reads as the last one.
  std::string Maintain(const std::string& call) {
    const auto before = Snapshots();
    const int64_t last = Latest(catalog());
    const std::string result = Call(call);
    const auto after = Snapshots();
    for (const auto& [s, rows] : before) EXPECT_EQ(after.at(s), rows) << "snapshot " << s;
    if (Latest(catalog()) > last) {
      EXPECT_EQ(after.at(Latest(catalog())), before.at(last));
    }
    Session fresh;
    LakeOpenOptions options;
    options.data_path = lake_.data_path;
    auto lake = Lake::Open("ducklake:sqlite:" + catalog(), options);
    EXPECT_TRUE(lake.ok()) << lake.status().ToString();
    if (!lake.ok()) return result;
    EXPECT_TRUE(fresh.Attach(std::move(lake).value()).ok());
    const auto reopened = Snapshots(fresh);
    for (const auto& [s, rows] : after) EXPECT_EQ(reopened.at(s), rows) << "fresh, snapshot " << s;
    return result;
  }

  void set_first(int64_t s) { first_ = s; }
  const std::string& catalog() const { return lake_.catalog_path; }
  const std::string& data() const { return lake_.data_path; }

 private:
  lake_testing::SqlLake lake_;
  int64_t first_ = 1;
};

// Flushing inlined rows written under older schema versions (columns added, dropped, renamed,
// promoted since) writes one file per inlined table with that version's columns, so every
// past snapshot still reads its columns' values.
TEST(MaintenanceStatsTest, FlushAcrossSchemaVersionsKeepsEverySnapshot) {
  SchemaLake lake;
  lake.Exec("CREATE TABLE t (k INTEGER, a VARCHAR, b DOUBLE)");
  lake.Exec("INSERT INTO t VALUES (1, 'one', 1.5), (2, 'two', 2.5)");
  lake.Exec("ALTER TABLE t ADD COLUMN c INTEGER DEFAULT 5");
  lake.Exec("INSERT INTO t VALUES (3, 'three', 3.5, 33)");
  lake.Exec("DELETE FROM t WHERE k = 1");
  lake.Exec("ALTER TABLE t DROP COLUMN a");
  lake.Exec("INSERT INTO t VALUES (4, 4.5, 44)");
  lake.Exec("ALTER TABLE t RENAME COLUMN b TO b2");
  lake.Exec("ALTER TABLE t ALTER COLUMN k SET DATA TYPE BIGINT");
  lake.Exec("INSERT INTO t VALUES (5, 5.5, 55)");
  lake.Exec("UPDATE t SET c = -1 WHERE k = 2");
  ASSERT_EQ(RowsText(QueryRows(lake.catalog(), "SELECT COUNT(*) FROM ducklake_data_file")), "0\n");
  EXPECT_EQ(lake.Maintain("CALL ducklake_flush_inlined_data('lake')"), "main|t|6\n");
  EXPECT_EQ(lake.Snapshots().at(2), "0|1|one|1.5\n1|2|two|2.5\n");
  EXPECT_EQ(lake.Snapshots().at(4), "0|1|one|1.5|5\n1|2|two|2.5|5\n2|3|three|3.5|33\n");
  // One file per inlined table that held rows (each schema version inserted into); none left
  // inlined.
  for (const auto& row : QueryRows(lake.catalog(), "SELECT table_name FROM "
                                                   "ducklake_inlined_data_tables")) {
    const std::string name = lake_testing::Unquote(row[0]);
    EXPECT_EQ(RowsText(QueryRows(lake.catalog(), "SELECT COUNT(*) FROM " + name)), "0\n") << name;
  }
  EXPECT_GE(std::stoll(QueryRows(lake.catalog(), "SELECT COUNT(*) FROM ducklake_data_file")[0][0]),
            4);
  // The first version's file holds column a, as DuckDB reads it.
  auto first = QueryRows(lake.catalog(), "SELECT path FROM ducklake_data_file ORDER BY "
                                         "begin_snapshot, data_file_id LIMIT 1");
  ASSERT_EQ(first.size(), 1u);
  auto csv = testing::DuckDBQueryCsv(StrCat("SELECT k, a, b FROM '", lake.data(), "main/t/",
                                            lake_testing::Unquote(first[0][0]),
                                            "' ORDER BY k"));
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  EXPECT_EQ(*csv, "k,a,b\n1,one,1.5\n2,two,2.5\n");
  // And the lake goes on: more writes, a second flush with nothing left but the new rows.
  lake.Exec("INSERT INTO t VALUES (6, 6.5, 66)");
  EXPECT_EQ(lake.Maintain("CALL ducklake_flush_inlined_data('lake')"), "main|t|1\n");
}

// Merging adjacent files groups them by schema version and writes each output with that
// version's columns: values of columns dropped or renamed since, and the narrower type of a
// promoted column, stay readable at the snapshots that have them.
TEST(MaintenanceStatsTest, MergeGroupsFilesBySchemaVersion) {
  SchemaLake lake(0);
  lake.Exec("CREATE TABLE t (k INTEGER, a VARCHAR)");
  lake.Exec("INSERT INTO t SELECT i, 'a' || i FROM range(0, 5) r(i)");
  lake.Exec("INSERT INTO t SELECT i, 'a' || i FROM range(5, 10) r(i)");
  lake.Exec("ALTER TABLE t ADD COLUMN c INTEGER DEFAULT 7");
  lake.Exec("INSERT INTO t SELECT i, 'b' || i, i FROM range(10, 15) r(i)");
  lake.Exec("INSERT INTO t SELECT i, 'b' || i, i FROM range(15, 20) r(i)");
  lake.Exec("ALTER TABLE t DROP COLUMN a");
  lake.Exec("INSERT INTO t SELECT i, i FROM range(20, 25) r(i)");
  lake.Exec("INSERT INTO t SELECT i, i FROM range(25, 30) r(i)");
  lake.Exec("ALTER TABLE t RENAME COLUMN c TO c2");
  lake.Exec("ALTER TABLE t ALTER COLUMN k SET DATA TYPE BIGINT");
  lake.Exec("INSERT INTO t SELECT i, i FROM range(30, 35) r(i)");
  lake.Exec("INSERT INTO t SELECT i, i FROM range(35, 40) r(i)");
  // One row per compaction (the extension's result), one compaction per schema version.
  EXPECT_EQ(lake.Maintain("CALL ducklake_merge_adjacent_files('lake')"),
            "main|t|2|1\nmain|t|2|1\nmain|t|2|1\nmain|t|2|1\n");
  EXPECT_EQ(RowsText(QueryRows(lake.catalog(), "SELECT COUNT(*) FROM ducklake_data_file")), "4\n");
  std::vector<std::string> lines;
  for (int i = 0; i < 10; ++i) lines.push_back(StrCat(i, "|", i, "|a", i, "\n"));
  std::sort(lines.begin(), lines.end());
  std::string first_version;
  for (const auto& line : lines) first_version += line;
  EXPECT_EQ(lake.Snapshots().at(3), first_version);
  // Nothing more to merge: each version has one file now.
  EXPECT_EQ(lake.Call("CALL ducklake_merge_adjacent_files('lake')"), "");
}

// A rewrite leaves statistics the loader accepts: record_count counts the rows of the live
// files (and live inlined rows) when no deletion is left, and is kept while deletions remain,
// never the live files' rows minus the deletions of files deleted whole.
TEST(MaintenanceStatsTest, RewriteKeepsRecordCountValid) {
  SchemaLake lake;
  lake.Exec("CREATE TABLE t (k INTEGER)");
  lake.Exec("INSERT INTO t SELECT range FROM range(0, 100)");    // file 1
  lake.Exec("INSERT INTO t SELECT range FROM range(100, 130)");  // file 2
  lake.Exec("DELETE FROM t WHERE k < 50");                        // a delete file of file 1
  lake.Exec("DELETE FROM t WHERE k < 100");                       // file 1 deleted whole
  lake.Exec("DELETE FROM t WHERE k >= 100 AND k < 125");          // a delete file of file 2
  lake.Exec("INSERT INTO t VALUES (1000), (1001)");               // inlined
  const std::string stats = "SELECT record_count, next_row_id FROM ducklake_table_stats";
  EXPECT_EQ(RowsText(QueryRows(lake.catalog(), stats)), "132|132\n");
  EXPECT_EQ(lake.Maintain("CALL ducklake_rewrite_data_files('lake', delete_threshold => 0.5)"),
            "main|t|1|1\n");
  // No deletion is left: the 5 rows of the new file and the 2 inlined rows.
  EXPECT_EQ(RowsText(QueryRows(lake.catalog(), stats)), "7|132\n");
  lake.Exec("INSERT INTO t VALUES (2000)");
  lake.Exec("DELETE FROM t WHERE k = 126");
  EXPECT_EQ(lake.Maintain("CALL ducklake_rewrite_data_files('lake', delete_threshold => 0.9)"), "");
  EXPECT_EQ(RowsText(QueryRows(lake.catalog(), stats)), "8|133\n");
  EXPECT_EQ(lake.Call("SELECT COUNT(*), SUM(k) FROM lake.t"),
            StrCat(7, "|", 125 + 127 + 128 + 129 + 1000 + 1001 + 2000, "\n"));
}

// A data file's inlined deletions stay readable after a flush when the file is no longer live
// (deleted whole, or rewritten): a flush merges only the live files' inlined deletions into
// delete files, so it must leave the others where they are (it removed them, and time travel
// to a snapshot that still had the file read the deleted rows again).
TEST(MaintenanceStatsTest, FlushKeepsInlinedDeletionsOfFilesNoLongerLive) {
  SchemaLake lake;
  lake.Exec("CREATE TABLE t (k INTEGER)");
  lake.Exec("INSERT INTO t SELECT range FROM range(0, 20)");    // file 1
  lake.Exec("INSERT INTO t SELECT range FROM range(20, 40)");   // file 2
  lake.Exec("DELETE FROM t WHERE k < 4");                        // inlined deletions of file 1
  const int64_t file1_deleted_from = Latest(lake.catalog());
  lake.Exec("DELETE FROM t WHERE k < 20");                       // file 1 deleted whole
  lake.Exec("DELETE FROM t WHERE k >= 20 AND k < 23");           // inlined deletions of file 2
  const int64_t file2_deleted_from = Latest(lake.catalog());
  EXPECT_EQ(lake.Maintain("CALL ducklake_rewrite_data_files('lake', delete_threshold => 0.1)"),
            "main|t|1|1\n");                                    // file 2 ends
  lake.Exec("INSERT INTO t SELECT range FROM range(40, 60)");   // file 3
  lake.Exec("DELETE FROM t WHERE k = 50");                       // inlined deletion of file 3
  lake.Exec("INSERT INTO t VALUES (100)");                       // an inlined row
  // The flush merges file 3's deletion; those of files 1 and 2 must stay.
  EXPECT_EQ(lake.Maintain("CALL ducklake_flush_inlined_data('lake')"), "main|t|1\n");
  const std::string count = "SELECT COUNT(*) FROM lake.t AT (VERSION => ";
  EXPECT_EQ(lake.Call(StrCat(count, file1_deleted_from, ")")), "36\n");
  EXPECT_EQ(lake.Call(StrCat(count, file2_deleted_from, ")")), "17\n");
  EXPECT_EQ(lake.Call("SELECT COUNT(*) FROM lake.t"), "37\n");
}

}  // namespace
}  // namespace tarn
