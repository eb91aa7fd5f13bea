// Partitioned tables through SQL: ALTER TABLE … SET / RESET PARTITIONED BY stored as the
// extension stores them (ducklake_partition_info, ducklake_partition_column), inserts split
// into the extension's hive folders and file names with ducklake_file_partition_value rows and
// target_file_size rollover within partitions, reads pruned on partition values (EXPLAIN's
// file counts), UPDATE moving rows across partitions, DELETE within one, and
// COPY … (PARTITION_BY …) writing the folders DuckDB writes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "support/oracle.h"
#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/catalog.h"
#include "tarn/parquet.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

Status RunSql(Session* session, const std::string& sql) {
  return session->ExecuteScript(sql, [](QueryResult& result) {
    while (true) {
      TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, result.reader->Next());
      if (!batch) return Status::OK();
    }
  });
}

// Rows of a catalog query as "a|b|c" lines (NULL as NULL).
std::vector<std::string> CatalogRows(const std::string& catalog, const std::string& sql) {
  std::vector<std::string> out;
  auto store = OpenSqliteCatalogStore(catalog, true);
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  if (!store.ok()) return out;
  CatalogQuery query;
  query.sql = sql;
  query.what = "test";
  auto result = (*store)->Query(query);
  EXPECT_TRUE(result.ok()) << sql << ": " << result.status().ToString();
  if (!result.ok()) return out;
  for (const auto& row : result->rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      if (c > 0) line.push_back('|');
      if (row[c].is_null()) {
        line += "NULL";
      } else if (row[c].kind() == CatalogDatum::Kind::kText) {
        line += row[c].bytes();
      } else {
        line += row[c].ToString();
      }
    }
    out.push_back(std::move(line));
  }
  return out;
}

class PartitionedWriteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    catalog_ = dir_.Join("lake.db");
    data_ = dir_.Join("files");
    ASSERT_TRUE(Run("ATTACH 'ducklake:sqlite:" + catalog_ + "' AS lake (DATA_PATH '" + data_ +
                    "', DATA_INLINING_ROW_LIMIT 0)")
                    .ok());
    ASSERT_TRUE(Run("USE lake").ok());
  }
  Status Run(const std::string& sql) { return RunSql(&session_, sql); }
  std::string Query(const std::string& sql) {
    auto csv = testing::TarnCsv(&session_, sql);
    EXPECT_TRUE(csv.ok()) << sql << ": " << csv.status().ToString();
    return csv.ok() ? *csv : "";
  }
  std::vector<std::string> Catalog(const std::string& sql) { return CatalogRows(catalog_, sql); }

  testing::TempDir dir_;
  Session session_;
  std::string catalog_;
  std::string data_;
};

TEST_F(PartitionedWriteTest, SetAndResetAreStoredAsTheExtensionStoresThem) {
  ASSERT_TRUE(Run("CREATE TABLE pt (id BIGINT, cat VARCHAR, ts TIMESTAMP, d DATE, n INTEGER)").ok());
  ASSERT_TRUE(Run("ALTER TABLE pt SET PARTITIONED BY (cat, month(ts))").ok());
  ASSERT_TRUE(Run("ALTER TABLE pt SET PARTITIONED BY (year(d), bucket(4, n))").ok());
  // The same keys again and a second reset write nothing.
  ASSERT_TRUE(Run("ALTER TABLE pt SET PARTITIONED BY (year(d), bucket(4, n))").ok());
  ASSERT_TRUE(Run("ALTER TABLE pt SET PARTITIONED BY (day(ts), hour(ts), n)").ok());
  ASSERT_TRUE(Run("ALTER TABLE pt RESET PARTITIONED BY").ok());
  ASSERT_TRUE(Run("ALTER TABLE pt RESET PARTITIONED BY").ok());
  EXPECT_EQ(Catalog("SELECT * FROM ducklake_partition_info ORDER BY partition_id"),
            (std::vector<std::string>{"2|1|2|3", "3|1|3|4", "4|1|4|5", "5|1|5|NULL"}));
  EXPECT_EQ(Catalog("SELECT * FROM ducklake_partition_column ORDER BY partition_id, "
                    "partition_key_index"),
            (std::vector<std::string>{"2|1|0|2|identity", "2|1|1|3|month", "3|1|0|4|year",
                                      "3|1|1|5|bucket(4)", "4|1|0|3|day", "4|1|1|3|hour",
                                      "4|1|2|5|identity"}));
  EXPECT_EQ(Catalog("SELECT snapshot_id, schema_version, next_catalog_id FROM ducklake_snapshot "
                    "ORDER BY snapshot_id"),
            (std::vector<std::string>{"0|0|1", "1|1|2", "2|2|3", "3|3|4", "4|4|5", "5|5|6"}));
  EXPECT_EQ(Catalog("SELECT changes_made FROM ducklake_snapshot_changes WHERE snapshot_id = 2"),
            (std::vector<std::string>{"altered_table:1"}));
  EXPECT_EQ(Catalog("SELECT begin_snapshot FROM ducklake_schema_versions ORDER BY 1"),
            (std::vector<std::string>{"1", "2", "3", "4", "5"}));
  // Errors name the key.
  Status missing = Run("ALTER TABLE pt SET PARTITIONED BY (nope)");
  EXPECT_FALSE(missing.ok());
  EXPECT_NE(missing.ToString().find("nope"), std::string::npos) << missing.ToString();
  Status hour_of_date = Run("ALTER TABLE pt SET PARTITIONED BY (hour(d))");
  EXPECT_FALSE(hour_of_date.ok());
  EXPECT_NE(hour_of_date.ToString().find("TIMESTAMP"), std::string::npos)
      << hour_of_date.ToString();
}

// Dropping a partition key column is refused with the extension's message (it once committed
// and left a partition spec naming a dropped column, so no later snapshot could be loaded);
// after RESET PARTITIONED BY (or a spec without it) the column can go.
TEST_F(PartitionedWriteTest, DroppingAPartitionColumnIsRefused) {
  ASSERT_TRUE(Run("CREATE TABLE pt (a INTEGER, b INTEGER, c VARCHAR)").ok());
  ASSERT_TRUE(Run("ALTER TABLE pt SET PARTITIONED BY (b, c)").ok());
  ASSERT_TRUE(Run("INSERT INTO pt VALUES (1, 2, 'x')").ok());
  Status dropped = Run("ALTER TABLE pt DROP COLUMN b");
  ASSERT_FALSE(dropped.ok());
  EXPECT_NE(dropped.message().find("Catalog Error: Cannot drop column \"b\" - the table is "
                                   "partitioned by this column. Reset or change the "
                                   "partitioning on this table in order to drop this column"),
            std::string::npos)
      << dropped.ToString();
  // Within a transaction that set the keys too.
  ASSERT_TRUE(Run("BEGIN").ok());
  ASSERT_TRUE(Run("ALTER TABLE pt SET PARTITIONED BY (bucket(3, a))").ok());
  EXPECT_FALSE(Run("ALTER TABLE pt DROP COLUMN a").ok());
  ASSERT_TRUE(Run("ROLLBACK").ok());
  EXPECT_EQ(Query("SELECT * FROM pt"), "a,b,c\n1,2,x\n");
  ASSERT_TRUE(Run("ALTER TABLE pt SET PARTITIONED BY (c)").ok());
  ASSERT_TRUE(Run("ALTER TABLE pt DROP COLUMN b").ok());
  ASSERT_TRUE(Run("ALTER TABLE pt RENAME COLUMN c TO c2").ok());
  ASSERT_TRUE(Run("INSERT INTO pt VALUES (3, 'y')").ok());
  EXPECT_EQ(Query("SELECT * FROM pt ORDER BY a"), "a,c2\n1,x\n3,y\n");
  ASSERT_TRUE(Run("ALTER TABLE pt RESET PARTITIONED BY").ok());
  ASSERT_TRUE(Run("ALTER TABLE pt DROP COLUMN c2").ok());
  EXPECT_EQ(Query("SELECT * FROM pt ORDER BY a"), "a\n1\n3\n");
}

TEST_F(PartitionedWriteTest, InsertsSplitIntoHiveFoldersWithPartitionValues) {
  ASSERT_TRUE(Run("CREATE TABLE pt (id BIGINT, cat VARCHAR, ts TIMESTAMP, v DOUBLE)").ok());
  ASSERT_TRUE(Run("ALTER TABLE pt SET PARTITIONED BY (cat, month(ts))").ok());
  ASSERT_TRUE(Run("INSERT INTO pt SELECT i, ['a', 'b', NULL, 'c d/e'][1 + i % 4], "
                  "TIMESTAMP '2023-11-15 00:00:00' + INTERVAL (i * 5) MINUTE, i * 0.5 "
                  "FROM range(0, 8000) r(i)")
                  .ok());
  // 4 categories x 2 months (Nov and Dec 2023).
  const std::vector<std::string> paths =
      Catalog("SELECT path FROM ducklake_data_file ORDER BY path");
  ASSERT_EQ(paths.size(), 8u);
  std::set<std::string> folders;
  for (const std::string& path : paths) {
    const size_t slash = path.rfind('/');
    ASSERT_NE(slash, std::string::npos) << path;
    folders.insert(path.substr(0, slash));
    EXPECT_EQ(path.compare(slash + 1, 9, "ducklake-"), 0) << path;
    EXPECT_TRUE(std::filesystem::exists(data_ + "/main/pt/" + path)) << path;
  }
  EXPECT_EQ(folders, (std::set<std::string>{
                         "cat=__HIVE_DEFAULT_PARTITION__/month=11",
                         "cat=__HIVE_DEFAULT_PARTITION__/month=12", "cat=a/month=11",
                         "cat=a/month=12", "cat=b/month=11", "cat=b/month=12",
                         "cat=c%20d%2Fe/month=11", "cat=c%20d%2Fe/month=12"}));
  // Every file has partition_id 2 and its values; the NULL category is a NULL value.
  EXPECT_EQ(Catalog("SELECT count(*) FROM ducklake_data_file WHERE partition_id = 2"),
            (std::vector<std::string>{"8"}));
  EXPECT_EQ(Catalog("SELECT v.partition_key_index, ifnull(v.partition_value, 'NULL') FROM "
                    "ducklake_data_file f JOIN ducklake_file_partition_value v USING "
                    "(data_file_id) WHERE f.path LIKE 'cat=c%20d%2Fe/month=12/%' ORDER BY 1"),
            (std::vector<std::string>{"0|c d/e", "1|12"}));
  EXPECT_EQ(Catalog("SELECT v.partition_key_index, ifnull(v.partition_value, 'NULL') FROM "
                    "ducklake_data_file f JOIN ducklake_file_partition_value v USING "
                    "(data_file_id) WHERE f.path LIKE 'cat=__HIVE%/month=11/%' ORDER BY 1"),
            (std::vector<std::string>{"0|NULL", "1|11"}));
  // The identity key stays in the file; the month is only in the folder.
  auto file = ParquetReader::Open(LocalFileSystem(), data_ + "/main/pt/" + paths[0]);
  ASSERT_TRUE(file.ok()) << file.status().ToString();
  std::vector<std::string> names;
  for (const Field& field : (*file)->schema().fields) names.push_back(field.name);
  EXPECT_EQ(names, (std::vector<std::string>{"id", "cat", "ts", "v"}));

  EXPECT_EQ(Query("SELECT count(*) AS n, sum(id) AS ids, count(cat) AS cats, sum(v) AS vs "
                  "FROM pt"),
            Query("SELECT count(*) AS n, sum(i) AS ids, sum(CASE WHEN i % 4 <> 2 THEN 1 END) "
                  "AS cats, sum(i * 0.5) AS vs FROM range(0, 8000) r(i)"));
  EXPECT_EQ(Query("SELECT cat, count(*) FROM pt GROUP BY cat ORDER BY cat NULLS LAST"),
            "cat,count_star()\na,2000\nb,2000\nc d/e,2000\n,2000\n");
}

TEST_F(PartitionedWriteTest, ReadsPruneFilesOnPartitionValues) {
  ASSERT_TRUE(Run("CREATE TABLE pt (id BIGINT, cat VARCHAR, d DATE, n INTEGER)").ok());
  ASSERT_TRUE(Run("ALTER TABLE pt SET PARTITIONED BY (cat, year(d), bucket(3, n))").ok());
  ASSERT_TRUE(Run("INSERT INTO pt SELECT i, CASE WHEN i % 5 = 0 THEN NULL ELSE "
                  "['x', 'y'][1 + i % 2] END, DATE '2022-12-30' + (i % 3)::INTEGER, "
                  "(i % 6)::INTEGER FROM range(0, 600) r(i)")
                  .ok());
  const std::string files = Catalog("SELECT count(*) FROM ducklake_data_file")[0];
  // EXPLAIN's "files: N considered, S pruned by statistics, P pruned by partition, R to read".
  auto pruned = [&](const std::string& where, int64_t* by_stats, int64_t* by_partition) {
    const std::string plan = Query("EXPLAIN SELECT count(*) FROM pt WHERE " + where);
    const size_t at = plan.find("files: " + files + " considered, ");
    ASSERT_NE(at, std::string::npos) << plan;
    const char* text = plan.c_str() + at + 7 + files.size() + 13;
    *by_stats = std::strtoll(text, nullptr, 10);
    const size_t partition = plan.find(" pruned by statistics, ", at);
    ASSERT_NE(partition, std::string::npos) << plan;
    *by_partition = std::strtoll(plan.c_str() + partition + 23, nullptr, 10);
  };
  const std::string source =
      "SELECT i, CASE WHEN i % 5 = 0 THEN NULL ELSE ['x', 'y'][1 + i % 2] END AS cat, "
      "DATE '2022-12-30' + (i % 3)::INTEGER AS d, (i % 6)::INTEGER AS n FROM range(0, 600) r(i)";
  // Each predicate leaves some files out (on the files' statistics or, where those do not
  // decide, their partition values) and the answer is the source's.
  for (const char* where : {"cat = 'x'", "cat IS NULL", "d >= DATE '2023-01-01'", "n = 4",
                            "n IN (1, 2)"}) {
    SCOPED_TRACE(where);
    int64_t by_stats = 0, by_partition = 0;
    pruned(where, &by_stats, &by_partition);
    EXPECT_GT(by_stats + by_partition, 0);
    EXPECT_EQ(Query(std::string("SELECT count(*) FROM pt WHERE ") + where),
              Query("SELECT count(*) FROM (" + source + ") WHERE " + where));
  }
}

TEST_F(PartitionedWriteTest, UpdateMovesRowsAcrossPartitionsAndDeleteStaysInOne) {
  ASSERT_TRUE(Run("CREATE TABLE pt (id BIGINT, cat VARCHAR)").ok());
  ASSERT_TRUE(Run("ALTER TABLE pt SET PARTITIONED BY (cat)").ok());
  ASSERT_TRUE(Run("INSERT INTO pt SELECT i, ['a', 'b'][1 + i % 2] FROM range(0, 1000) r(i)").ok());
  ASSERT_TRUE(Run("UPDATE pt SET cat = 'c' WHERE id % 10 = 1").ok());
  ASSERT_TRUE(Run("DELETE FROM pt WHERE cat = 'a' AND id < 100").ok());
  EXPECT_EQ(Query("SELECT cat, count(*), sum(id) FROM pt GROUP BY cat ORDER BY cat"),
            Query("SELECT cat, count(*), sum(id) FROM (SELECT i AS id, CASE WHEN i % 10 = 1 "
                  "THEN 'c' ELSE ['a', 'b'][1 + i % 2] END AS cat FROM range(0, 1000) r(i)) "
                  "WHERE NOT (cat = 'a' AND id < 100) GROUP BY cat ORDER BY cat"));
  // The moved rows live in the new partition's folder; the delete touched only cat=a.
  EXPECT_EQ(Catalog("SELECT count(*) FROM ducklake_data_file WHERE path LIKE 'cat=c/%' AND "
                    "end_snapshot IS NULL"),
            (std::vector<std::string>{"1"}));
  EXPECT_EQ(Catalog("SELECT DISTINCT f.path LIKE 'cat=a/%' FROM ducklake_delete_file d JOIN "
                    "ducklake_data_file f USING (data_file_id) WHERE d.begin_snapshot = 5"),
            (std::vector<std::string>{"1"}));
  // Row ids survive the move: every row keeps the rowid it had after the insert.
  EXPECT_EQ(Query("SELECT count(*) AS n, sum(CASE WHEN a.id = b.id THEN 1 END) AS same FROM pt a "
                  "JOIN pt AT (VERSION => 3) b ON a.rowid = b.rowid"),
            "n,same\n950,950\n");
}

TEST_F(PartitionedWriteTest, TargetFileSizeRollsFilesWithinAPartition) {
  ASSERT_TRUE(Run("CREATE TABLE pt (id BIGINT, k INTEGER, s VARCHAR)").ok());
  ASSERT_TRUE(Run("ALTER TABLE pt SET PARTITIONED BY (k)").ok());
  ASSERT_TRUE(Run("CALL ducklake_set_option('lake', 'target_file_size', '204800')").ok());
  ASSERT_TRUE(Run("INSERT INTO pt SELECT i, (i % 2)::INTEGER, 'value ' || (i * 7919)::VARCHAR "
                  "FROM range(0, 400000) r(i)")
                  .ok());
  const std::vector<std::string> per_folder = Catalog(
      "SELECT substr(path, 1, instr(path, '/')), count(*) FROM ducklake_data_file GROUP BY 1 "
      "ORDER BY 1");
  ASSERT_EQ(per_folder.size(), 2u);
  for (const std::string& row : per_folder) {
    EXPECT_GT(std::stoi(row.substr(row.find('|') + 1)), 2) << row;
  }
  EXPECT_EQ(Query("SELECT count(*) AS n, sum(id) AS ids, sum(k) AS ks FROM pt"),
            Query("SELECT count(*) AS n, sum(i) AS ids, sum(i % 2) AS ks FROM range(0, 400000) r(i)"));
}

// The folders and files below `dir`, relative to it, sorted.
std::vector<std::string> Tree(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    out.push_back(std::filesystem::relative(entry.path(), dir).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(PartitionedCopyTest, WritesTheFoldersDuckDbWrites) {
  testing::TempDir dir;
  const std::string query =
      "SELECT i AS id, ['a', 'b b', NULL, 'c/d', '?:&'][1 + i % 5] AS key, "
      "DATE '2024-02-27' + (i % 3)::INTEGER AS d, i * 1.5 AS v FROM range(0, 50) r(i)";
  const std::string options = " (FORMAT parquet, PARTITION_BY (key, d))";
  Session session;
  ASSERT_TRUE(RunSql(&session, "COPY (" + query + ") TO '" + dir.Join("tarn") + "'" + options)
                  .ok());
  Status duckdb =
      testing::DuckDBExecute("COPY (" + query + ") TO '" + dir.Join("duckdb") + "'" + options);
  ASSERT_TRUE(duckdb.ok()) << duckdb.ToString();
  EXPECT_EQ(Tree(dir.Join("tarn")), Tree(dir.Join("duckdb")));
  // Both read back equal in DuckDB with hive partitioning (the partition columns come from the
  // folders, the rest from the files).
  const std::string read =
      "SELECT id, key, d, v FROM read_parquet('{}/**/*.parquet', hive_partitioning = true) "
      "ORDER BY id";
  auto ours = testing::DuckDBQueryCsv(testing::ReplaceAll(read, "{}", dir.Join("tarn")));
  auto theirs = testing::DuckDBQueryCsv(testing::ReplaceAll(read, "{}", dir.Join("duckdb")));
  ASSERT_TRUE(ours.ok()) << ours.status().ToString();
  ASSERT_TRUE(theirs.ok()) << theirs.status().ToString();
  EXPECT_EQ(*ours, *theirs);
  // DuckDB's errors: a non-empty folder, a missing parent, an unknown column.
  Status again = RunSql(&session, "COPY (" + query + ") TO '" + dir.Join("tarn") + "'" + options);
  EXPECT_NE(again.ToString().find("is not empty"), std::string::npos) << again.ToString();
  Status parent = RunSql(&session, "COPY (" + query + ") TO '" + dir.Join("no/such") + "'" +
                                       options);
  EXPECT_NE(parent.ToString().find("Failed to create directory"), std::string::npos)
      << parent.ToString();
  Status unknown = RunSql(&session, "COPY (" + query + ") TO '" + dir.Join("x") +
                                        "' (FORMAT parquet, PARTITION_BY (zz))");
  EXPECT_NE(unknown.ToString().find("expected to find zz"), std::string::npos)
      << unknown.ToString();
}

}  // namespace
}  // namespace tarn
