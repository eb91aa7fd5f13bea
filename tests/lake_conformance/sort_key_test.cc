// Sort keys (SET SORTED BY / RESET SORTED BY): the catalog rows the official extension writes
// for them (ducklake_sort_info, ducklake_sort_expression: the expression in DuckDB's spelling,
// dialect duckdb, 0-based key index; a snapshot with altered_table and a schema_version bump
// but no ducklake_schema_versions row), what RENAME and DROP COLUMN do to a key, and the files
// every write path leaves: read back by DuckDB, their rows are in key order, and the table's
// answers at every snapshot are unchanged by maintenance.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <map>

#include "lake_test_util.h"
#include "support/oracle.h"
#include "support/sql_test_util.h"

namespace tarn {
namespace {

using lake_testing::QueryRows;
using lake_testing::Rows;
using lake_testing::RowsText;
using lake_testing::RunStatement;
using lake_testing::SqlLake;

class SortKeyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Status created = lake_.Create();
    ASSERT_TRUE(created.ok()) << created.ToString();
    Run("USE lake");
  }

  void Run(const std::string& sql) {
    Status status = RunStatement(*lake_.session, sql);
    ASSERT_TRUE(status.ok()) << sql << ": " << status.ToString();
  }

  Status Try(const std::string& sql) { return RunStatement(*lake_.session, sql); }

  std::string Csv(const std::string& sql) {
    Result<std::string> csv = testing::TarnCsv(lake_.session.get(), sql);
    EXPECT_TRUE(csv.ok()) << sql << ": " << csv.status().ToString();
    return csv.ok() ? *csv : std::string();
  }

  std::string Catalog(const std::string& sql) {
    return RowsText(QueryRows(lake_.catalog_path, sql), /*sort=*/false);
  }

  // The live sort key: expression|direction|null order per key index.
  std::string LiveKey(int64_t table_id) {
    return Catalog(StrCat("SELECT e.sort_key_index, e.expression, e.dialect, e.sort_direction, "
                          "e.null_order FROM ducklake_sort_info i JOIN ducklake_sort_expression e "
                          "USING (sort_id) WHERE i.table_id = ",
                          table_id, " AND i.end_snapshot IS NULL ORDER BY e.sort_key_index"));
  }

  // Paths of the table's live data files.
  std::vector<std::string> LiveFiles(int64_t table_id) {
    auto paths = lake_testing::FilePaths(lake_.catalog_path, lake_.data_path,
                                         "ducklake_data_file");
    std::vector<std::string> out;
    for (const auto& row : QueryRows(lake_.catalog_path,
                                     StrCat("SELECT data_file_id FROM ducklake_data_file WHERE "
                                            "end_snapshot IS NULL AND table_id = ",
                                            table_id, " ORDER BY data_file_id"))) {
      out.push_back(paths[std::stoll(row[0])]);
    }
    return out;
  }

  int64_t TableId(const std::string& name) {
    Rows rows = QueryRows(lake_.catalog_path,
                          StrCat("SELECT table_id FROM ducklake_table WHERE table_name = '", name,
                                 "' AND end_snapshot IS NULL"));
    EXPECT_EQ(rows.size(), 1u) << name;
    return rows.empty() ? -1 : std::stoll(rows[0][0]);
  }

  // The live key as an ORDER BY list and the key's columns (keys of plain column names).
  std::pair<std::string, std::string> KeyOrder(int64_t table_id) {
    std::string order, columns;
    for (const auto& row : QueryRows(lake_.catalog_path,
                                     StrCat("SELECT e.expression, e.sort_direction, e.null_order "
                                            "FROM ducklake_sort_info i JOIN "
                                            "ducklake_sort_expression e USING (sort_id) WHERE "
                                            "i.table_id = ", table_id, " AND i.end_snapshot IS "
                                            "NULL ORDER BY e.sort_key_index"))) {
      const std::string expression = lake_testing::Unquote(row[0]);
      order += (order.empty() ? "" : ", ") + expression + " " + lake_testing::Unquote(row[1]) +
               (row[2] == "'NULLS_FIRST'" ? " NULLS FIRST" : " NULLS LAST");
      columns += (columns.empty() ? "" : ", ") + expression;
    }
    return {order, columns};
  }

  SqlLake lake_;
};

TEST_F(SortKeyTest, CatalogRowsAsTheExtensionWritesThem) {
  Run("CREATE TABLE t (id INTEGER, \"My Col\" VARCHAR, ts TIMESTAMP)");  // table 1, snapshot 1
  Run("ALTER TABLE t SET SORTED BY ((id + 0) DESC NULLS FIRST, \"my col\", "
      "lower(\"My Col\") ASC NULLS LAST, ts::DATE)");  // snapshot 2
  EXPECT_EQ(LiveKey(1),
            "0|'(id + 0)'|'duckdb'|'DESC'|'NULLS_FIRST'\n"
            "1|'\"my col\"'|'duckdb'|'ASC'|'NULLS_LAST'\n"
            "2|'lower(\"My Col\")'|'duckdb'|'ASC'|'NULLS_LAST'\n"
            "3|'CAST(ts AS DATE)'|'duckdb'|'ASC'|'NULLS_LAST'\n");
  // sort_id from next_catalog_id; the snapshot bumps schema_version and says altered_table.
  EXPECT_EQ(Catalog("SELECT sort_id, table_id, begin_snapshot, end_snapshot FROM "
                    "ducklake_sort_info"),
            "2|1|2|NULL\n");
  EXPECT_EQ(Catalog("SELECT snapshot_id, schema_version, next_catalog_id FROM ducklake_snapshot "
                    "WHERE snapshot_id >= 1 ORDER BY 1"),
            "1|1|2\n2|2|3\n");
  EXPECT_EQ(Catalog("SELECT changes_made FROM ducklake_snapshot_changes WHERE snapshot_id = 2"),
            "'altered_table:1'\n");
  EXPECT_EQ(Catalog("SELECT begin_snapshot, schema_version FROM ducklake_schema_versions "
                    "WHERE table_id = 1"),
            "1|1\n");

  // The same key again: a snapshot, no rows. RESET ends the row; a second RESET writes none.
  Run("ALTER TABLE t SET SORTED BY ((id + 0) DESC NULLS FIRST, \"my col\", "
      "lower(\"My Col\") ASC NULLS LAST, ts::DATE)");
  EXPECT_EQ(Catalog("SELECT count(*) FROM ducklake_sort_info"), "1\n");
  Run("ALTER TABLE t RESET SORTED BY");
  EXPECT_EQ(LiveKey(1), "");
  EXPECT_EQ(Catalog("SELECT sort_id, end_snapshot FROM ducklake_sort_info"), "2|4\n");
  Run("ALTER TABLE t RESET SORTED BY");
  EXPECT_EQ(Catalog("SELECT count(*) FROM ducklake_sort_info"), "1\n");

  // Rolled back: nothing.
  Run("BEGIN");
  Run("ALTER TABLE t SET SORTED BY (id)");
  Run("ROLLBACK");
  EXPECT_EQ(LiveKey(1), "");

  // Several in one transaction: the last one, once.
  Run("BEGIN");
  Run("ALTER TABLE t SET SORTED BY (id)");
  Run("ALTER TABLE t SET SORTED BY (\"My Col\" DESC, id)");
  Run("COMMIT");
  EXPECT_EQ(LiveKey(1),
            "0|'\"My Col\"'|'duckdb'|'DESC'|'NULLS_LAST'\n1|'id'|'duckdb'|'ASC'|'NULLS_LAST'\n");
  EXPECT_EQ(Catalog("SELECT count(*) FROM ducklake_sort_info"), "2\n");
}

TEST_F(SortKeyTest, RenameRewritesTheKeyAndDropIsRefused) {
  Run("CREATE TABLE t (a INTEGER, \"B b\" VARCHAR, c INTEGER)");
  Run("ALTER TABLE t SET SORTED BY ((a + c) DESC, \"B b\")");
  Run("ALTER TABLE t RENAME COLUMN a TO a2");
  EXPECT_EQ(LiveKey(1),
            "0|'(a2 + c)'|'duckdb'|'DESC'|'NULLS_LAST'\n"
            "1|'\"B b\"'|'duckdb'|'ASC'|'NULLS_LAST'\n");
  // The rename wrote its column version and schema_versions row as any rename does.
  EXPECT_EQ(Catalog("SELECT count(*) FROM ducklake_schema_versions WHERE table_id = 1"), "2\n");
  Status dropped = Try("ALTER TABLE t DROP COLUMN c");
  ASSERT_FALSE(dropped.ok());
  EXPECT_NE(dropped.message().find("Cannot drop column \"c\" - the table is sorted by this "
                                   "column"),
            std::string::npos)
      << dropped.ToString();
  Status unknown = Try("ALTER TABLE t SET SORTED BY (nope, a2, other + 1)");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("Columns in the SET SORTED BY statement were not found in the "
                                   "DuckLake table. Unmatched columns were: nope, other"),
            std::string::npos)
      << unknown.ToString();
  Run("ALTER TABLE t SET SORTED BY (a2)");
  Run("ALTER TABLE t DROP COLUMN c");
  Run("INSERT INTO t VALUES (3, 'x'), (1, 'y'), (2, 'z')");
  EXPECT_EQ(Csv("SELECT a2 FROM t"), "a2\n1\n2\n3\n");
}

// The rows of `file` are in the order of `order_by` (DuckDB reads the file; comparing only the
// key columns makes ties irrelevant).
void ExpectFileInKeyOrder(const std::string& file, const std::string& key_columns,
                          const std::string& order_by) {
  const std::string sql = StrCat(
      "SELECT list((", key_columns, ") ORDER BY file_row_number) IS NOT DISTINCT FROM list((",
      key_columns, ") ORDER BY ", order_by, ", file_row_number) AS sorted, count(*) > 0 AS rows "
      "FROM read_parquet('", file, "', file_row_number = true)");
  Result<std::string> csv = testing::DuckDBQueryCsv(sql);
  ASSERT_TRUE(csv.ok()) << csv.status().ToString();
  EXPECT_EQ(*csv, "sorted,rows\ntrue,true\n") << file;
}

TEST_F(SortKeyTest, EveryWritePathLeavesFilesInKeyOrder) {
  Run("CALL ducklake_set_option('lake', 'data_inlining_row_limit', 50)");
  Run("CREATE TABLE t (id BIGINT, g VARCHAR, v DOUBLE)");
  Run("ALTER TABLE t SET SORTED BY (g ASC, (v * -1) ASC NULLS FIRST)");
  const std::string key = "g, v";
  const std::string order = "g ASC NULLS LAST, (v * -1) ASC NULLS FIRST";
  // Small files: an insert rolls over into several, each a narrow run of the key.
  Run("CALL ducklake_set_option('lake', 'target_file_size', 4000)");
  std::map<int64_t, std::string> answers;  // SELECT * ... ORDER BY id at each snapshot
  auto record = [&] {
    answers[std::stoll(Catalog("SELECT max(snapshot_id) FROM ducklake_snapshot"))] =
        Csv("SELECT * FROM t ORDER BY id");
  };
  auto check_files = [&](const char* step, const std::string& k, const std::string& o) {
    SCOPED_TRACE(step);
    const std::vector<std::string> files = LiveFiles(1);
    ASSERT_FALSE(files.empty());
    for (const std::string& file : files) ExpectFileInKeyOrder(file, k, o);
  };
  Run("INSERT INTO t SELECT i, ['z', 'y', 'x', NULL][1 + (i * 7) % 4], "
      "CASE WHEN i % 17 = 0 THEN NULL ELSE ((i * 7919) % 1000) / 10.0 END FROM range(0, 20000) "
      "r(i)");
  record();
  check_files("insert", key, order);
  EXPECT_GT(LiveFiles(1).size(), 2u);
  // Inlined inserts (sorted as they are inlined), then flushed into one sorted file.
  Run("INSERT INTO t SELECT i, ['b', 'a'][1 + i % 2], i % 7 FROM range(20000, 20030) r(i)");
  record();
  Run("INSERT INTO t SELECT i, 'a', NULL FROM range(20030, 20040) r(i)");
  record();
  Run("CALL ducklake_flush_inlined_data('lake')");
  record();
  check_files("flush", key, order);
  // A key change between writes, then a merge: the merged file follows the new key.
  Run("ALTER TABLE t SET SORTED BY (v DESC NULLS FIRST)");
  record();
  Run("CALL ducklake_set_option('lake', 'target_file_size', 10000000)");
  Run("CALL ducklake_merge_adjacent_files('lake')");
  record();
  EXPECT_EQ(LiveFiles(1).size(), 1u);
  check_files("merge", "v", "v DESC NULLS FIRST");
  // Deletes, then a rewrite of the file that lost almost every row.
  Run("DELETE FROM t WHERE id % 50 <> 0");
  record();
  Run("CALL ducklake_rewrite_data_files('lake', delete_threshold => 0.5)");
  record();
  check_files("rewrite", "v", "v DESC NULLS FIRST");
  // Every snapshot still answers as it did when it was the latest.
  ASSERT_EQ(answers.size(), 8u);
  for (const auto& [snapshot, answer] : answers) {
    SCOPED_TRACE(StrCat("snapshot ", snapshot));
    EXPECT_EQ(Csv(StrCat("SELECT * FROM t AT (VERSION => ", snapshot, ") ORDER BY id")), answer);
  }
}

TEST_F(SortKeyTest, PartitionedInsertSortsEveryPartitionsFiles) {
  Run("CREATE TABLE p (id BIGINT, part VARCHAR, v BIGINT)");
  Run("ALTER TABLE p SET PARTITIONED BY (part)");
  Run("ALTER TABLE p SET SORTED BY (v DESC, id)");
  Run("INSERT INTO p SELECT i, ['x', 'y', 'z'][1 + i % 3], (i * 7919) % 1000 FROM "
      "range(0, 6000) r(i)");
  const std::vector<std::string> files = LiveFiles(TableId("p"));
  ASSERT_EQ(files.size(), 3u);
  for (const std::string& file : files) {
    EXPECT_NE(file.find("part="), std::string::npos) << file;
    ExpectFileInKeyOrder(file, "v, id", "v DESC, id");
  }
  EXPECT_EQ(Csv("SELECT part, count(*) AS n, sum(v) AS s FROM p GROUP BY part ORDER BY part"),
            Csv("SELECT ['x', 'y', 'z'][1 + i % 3] AS part, count(*) AS n, "
                "sum((i * 7919) % 1000) AS s FROM range(0, 6000) r(i) GROUP BY part "
                "ORDER BY part"));
}

// An insert larger than memory_limit is sorted externally (sorted runs spilled to temporary
// files, then merged): every file is in key order, the files cover consecutive key ranges (one
// global order, the files in the order they were written), the spill folder is gone
// afterwards, and the table's answers are those of the input.
TEST_F(SortKeyTest, InsertBeyondMemoryLimitSortsExternally) {
  Run("CREATE TABLE big (id BIGINT, v BIGINT, s VARCHAR)");
  Run("ALTER TABLE big SET SORTED BY (v DESC, id)");
  Run("CALL ducklake_set_option('lake', 'target_file_size', 200000)");
  // This process's spill folders (tarn-sort-<pid>-...): tests running at the same time have
  // their own.
  auto spill_folders = [] {
    const std::string prefix = StrCat("tarn-sort-", getpid(), "-");
    int n = 0;
    for (const auto& entry : std::filesystem::directory_iterator(
             std::filesystem::temp_directory_path())) {
      n += entry.path().filename().string().rfind(prefix, 0) == 0;
    }
    return n;
  };
  const int folders_before = spill_folders();
  Run("SET memory_limit = '1MB'");
  Run("INSERT INTO big SELECT i, (i * 7919) % 100000, 'row ' || i FROM range(0, 300000) r(i)");
  Run("RESET memory_limit");
  EXPECT_EQ(spill_folders(), folders_before);
  const std::vector<std::string> files = LiveFiles(TableId("big"));
  ASSERT_GE(files.size(), 3u);
  // The files' rows, file after file (in data_file_id order), are the rows in key order.
  std::string list, order;
  for (size_t i = 0; i < files.size(); ++i) {
    list += (i ? ", '" : "'") + files[i] + "'";
    order += StrCat(i ? ", ('" : "('", files[i], "', ", i, ")");
  }
  Result<std::string> sorted = testing::DuckDBQueryCsv(StrCat(
      "WITH o(f, i) AS (VALUES ", order, "), r AS (SELECT * FROM read_parquet([", list,
      "], filename = true, file_row_number = true)) SELECT list((v, id) ORDER BY o.i, "
      "file_row_number) = list((v, id) ORDER BY v DESC, id) AS sorted, count(*) AS n FROM r "
      "JOIN o ON r.filename = o.f"));
  ASSERT_TRUE(sorted.ok()) << sorted.status().ToString();
  EXPECT_EQ(*sorted, "sorted,n\ntrue,300000\n");
  EXPECT_EQ(Csv("SELECT count(*) AS n, sum(id) AS ids, sum(v) AS vs, count(DISTINCT s) AS d "
                "FROM big"),
            Csv("SELECT count(*) AS n, sum(i) AS ids, sum((i * 7919) % 100000) AS vs, "
                "count(DISTINCT i) AS d FROM range(0, 300000) r(i)"));
}

TEST_F(SortKeyTest, CreateTableSortedByAndSortedByAuto) {
  Run("CREATE TABLE s SORTED BY (b DESC, a) AS SELECT i AS a, i % 5 AS b FROM range(100) r(i)");
  const int64_t s_id = TableId("s");
  EXPECT_EQ(LiveKey(s_id),
            "0|'b'|'duckdb'|'DESC'|'NULLS_LAST'\n1|'a'|'duckdb'|'ASC'|'NULLS_LAST'\n");
  for (const std::string& file : LiveFiles(s_id)) ExpectFileInKeyOrder(file, "b, a", "b DESC, a");
  // A correlated table: the picker chooses a key, the table stores it, the files follow it.
  Run("CREATE TABLE au SORTED BY AUTO AS SELECT i AS id, (i * 7919) % 13 AS small, "
      "((i * 7919) % 13) * 100 + (i % 7) AS mid, 'name-' || ((i * 7919) % 13) AS label "
      "FROM range(20000) r(i)");
  const int64_t au_id = TableId("au");
  auto [order, columns] = KeyOrder(au_id);
  ASSERT_FALSE(order.empty()) << "SORTED BY AUTO chose no key";
  for (const std::string& file : LiveFiles(au_id)) ExpectFileInKeyOrder(file, columns, order);
  EXPECT_EQ(Csv("SELECT count(*), sum(id) FROM au"), "count_star(),sum(id)\n20000,199990000\n");
}

TEST_F(SortKeyTest, SetSortedByAutoRewritesInOneSnapshotKeepingRowIds) {
  // Shuffled ids and low-cardinality labels: sorting by the labels shrinks the table.
  Run("CREATE TABLE u AS SELECT (i * 7919) % 5000 AS id, 'group-' || ((i * 7919) % 5000 % 11) "
      "AS g, 'sub-' || ((i * 7919) % 5000 % 33) AS h FROM range(5000) r(i)");
  Run("DELETE FROM u WHERE id % 10 = 0");
  const int64_t u_id = TableId("u");
  const std::string before = Csv("SELECT rowid, * FROM u ORDER BY rowid");
  const std::string explained = Csv("EXPLAIN SORTED BY AUTO FROM u");
  const std::vector<std::string> old_files = LiveFiles(u_id);
  const std::string snapshots_before = Catalog("SELECT max(snapshot_id) FROM ducklake_snapshot");
  Run("ALTER TABLE u SET SORTED BY AUTO");
  EXPECT_EQ(std::stoll(Catalog("SELECT max(snapshot_id) FROM ducklake_snapshot")),
            std::stoll(snapshots_before) + 1);
  auto [order, columns] = KeyOrder(u_id);
  ASSERT_FALSE(order.empty()) << explained;
  EXPECT_EQ(Csv("SELECT rowid, * FROM u ORDER BY rowid"), before);
  const std::vector<std::string> new_files = LiveFiles(u_id);
  ASSERT_FALSE(new_files.empty());
  for (const std::string& file : new_files) {
    EXPECT_EQ(std::find(old_files.begin(), old_files.end(), file), old_files.end());
    ExpectFileInKeyOrder(file, columns, order);
  }
  // The snapshot before still reads the old layout.
  EXPECT_EQ(Csv(StrCat("SELECT rowid, * FROM u AT (VERSION => ", snapshots_before,
                       ") ORDER BY rowid")),
            before);
  // EXPLAIN SORTED BY AUTO shows the profile, the candidates and the choice.
  EXPECT_EQ(explained.rfind("kind,key,bytes,detail\n", 0), 0u) << explained;
  EXPECT_NE(explained.find("\nprofile,"), std::string::npos) << explained;
  EXPECT_NE(explained.find("\ncandidate,"), std::string::npos) << explained;
  EXPECT_NE(explained.find("\nchoice,"), std::string::npos) << explained;
}

TEST_F(SortKeyTest, SortOnInsertFalseLeavesInlinedRowsAsInserted) {
  Run("CREATE TABLE t (i INTEGER)");
  Run("ALTER TABLE t SET SORTED BY (i)");
  Run("CALL ducklake_set_option('lake', 'sort_on_insert', 'false', table_name => 't')");
  Run("INSERT INTO t VALUES (3), (1), (2)");
  EXPECT_EQ(Csv("SELECT i FROM t"), "i\n3\n1\n2\n");
  Status bad = Try("CALL ducklake_set_option('lake', 'sort_on_insert', 'not_a_bool')");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("Could not convert string"), std::string::npos) << bad.ToString();
}

// The fixture lake `sorted` (written by the official extension from its spec.sql: a key set,
// changed and reset between inserts, a flush, deletes and a merge) replayed through tarn: the
// sort rows equal the extension's, every snapshot reads as the extension's expected result
// (rows equal on the key may be permuted, and their rowids with them: DuckDB's sort is not
// stable, tarn's is), and every file written under a key is in its order.
TEST_F(SortKeyTest, SortedFixtureReplaysAndReadsEqual) {
  const std::string fixture = lake_testing::FixtureDir("sorted");
  ASSERT_TRUE(testing::FileExists(fixture + "/spec.sql"));
  for (const std::string& statement : lake_testing::SpecStatements(fixture + "/spec.sql")) {
    Run(statement);
  }
  const std::string sort_rows =
      "SELECT i.sort_id, i.table_id, i.begin_snapshot, i.end_snapshot, e.sort_key_index, "
      "e.expression, e.dialect, e.sort_direction, e.null_order FROM ducklake_sort_info i JOIN "
      "ducklake_sort_expression e USING (sort_id) ORDER BY 1, 5";
  EXPECT_EQ(Catalog(sort_rows),
            RowsText(QueryRows(fixture + "/catalog.sqlite", sort_rows), /*sort=*/false));
  int compared = 0;
  for (const testing::ExpectedFile& file : testing::ListExpectedFiles("sorted")) {
    if (!file.snapshot) continue;
    SCOPED_TRACE(file.path);
    const std::string at = StrCat(" AT (VERSION => ", *file.snapshot, ")");
    EXPECT_EQ(Csv(StrCat("SELECT * FROM \"", file.table, "\"", at, " ORDER BY ALL")),
              Csv(StrCat("SELECT * EXCLUDE (rowid) FROM '", file.path, "' ORDER BY ALL")));
    ++compared;
  }
  EXPECT_GE(compared, 10);
  // Files 0 and 2 (inserts) and 3 (the flush) were written under (g ASC, ts DESC).
  auto paths = lake_testing::FilePaths(lake_.catalog_path, lake_.data_path, "ducklake_data_file");
  for (int64_t id : {0, 2, 3}) {
    ASSERT_TRUE(paths.count(id)) << id;
    ExpectFileInKeyOrder(paths[id], "g, ts", "g ASC NULLS LAST, ts DESC NULLS LAST");
  }
}

}  // namespace
}  // namespace tarn
