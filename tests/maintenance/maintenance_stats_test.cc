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
TEST(MaintenanceSchemaTest, FlushKeepsInlinedDeletionsOfFilesNoLongerLive) {
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
