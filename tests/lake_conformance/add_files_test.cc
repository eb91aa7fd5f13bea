// ducklake_add_data_files through SQL on a new lake, checked against DuckDB: the catalog rows
// are the extension's (one map_by_name mapping per distinct shape, ids from next_file_id,
// mapping-local entry indexes, paths relative to the table only below its folder), DuckDB
// reading each registered file through the catalog's name mapping (the way the DuckLake
// extension resolves a mapped file) gives the rows tarn's scan gives, and the file statistics
// equal what DuckDB's parquet_metadata reports for the same footers.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "lake_test_util.h"
#include "support/oracle.h"
#include "support/sql_test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using lake_testing::QueryRows;
using lake_testing::Rows;
using lake_testing::RowsText;
using lake_testing::RunStatement;
using lake_testing::SqlLake;
using lake_testing::Unquote;

std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// CSV rows without the header, sorted (the order of rows across files is not the point).
std::string SortedBody(const std::string& csv) {
  std::vector<std::string> lines;
  size_t start = csv.find('\n');
  while (start != std::string::npos && start + 1 < csv.size()) {
    size_t end = csv.find('\n', start + 1);
    lines.push_back(csv.substr(start + 1, end - start - 1));
    start = end;
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

class AddFilesTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(lake_.Create(/*inlining_limit=*/0).ok()); }

  void Exec(const std::string& sql) {
    Status status = RunStatement(*lake_.session, sql);
    ASSERT_TRUE(status.ok()) << sql << ": " << status.ToString();
  }
  std::string Csv(const std::string& sql) {
    Result<std::string> csv = testing::TarnCsv(lake_.session.get(), sql);
    EXPECT_TRUE(csv.ok()) << sql << ": " << csv.status().ToString();
    return csv.ok() ? *csv : "";
  }
  std::string Catalog(const std::string& sql) {
    return RowsText(QueryRows(lake_.catalog_path, sql), /*sort=*/false);
  }
  // Writes a Parquet file with DuckDB (the files a user would add).
  void DuckDBCopy(const std::string& query, const std::string& path) {
    Status status = testing::DuckDBExecute("COPY (" + query + ") TO " + Quote(path));
    ASSERT_TRUE(status.ok()) << status.ToString();
  }

  // For every live data file of table `table_id`: DuckDB's read of the file through its name
  // mapping, in `columns` order (each a top-level column name of the table), as CSV rows.
  // Columns the mapping lacks read as NULL; hive-partition entries read the path's value.
  std::string DuckDBReadThroughMappings(int64_t table_id, const std::vector<std::string>& columns) {
    const auto paths = lake_testing::FilePaths(lake_.catalog_path, lake_.data_path,
                                               "ducklake_data_file");
    Rows files = QueryRows(lake_.catalog_path,
                           "SELECT data_file_id, mapping_id FROM ducklake_data_file WHERE "
                           "table_id = " + std::to_string(table_id) +
                           " AND end_snapshot IS NULL ORDER BY data_file_id");
    std::string all;
    for (const auto& file : files) {
      EXPECT_NE(file[1], "NULL") << "data file " << file[0] << " has no name mapping";
      if (file[1] == "NULL") continue;
      // Top-level entries: target column name -> (source name, is_partition).
      Rows entries = QueryRows(
          lake_.catalog_path,
          "SELECT c.column_name, n.source_name, n.is_partition FROM ducklake_name_mapping n "
          "JOIN ducklake_column c ON c.column_id = n.target_field_id AND c.table_id = " +
              std::to_string(table_id) +
              " AND c.end_snapshot IS NULL AND c.parent_column IS NULL WHERE n.mapping_id = " +
              file[1] + " AND n.parent_column IS NULL");
      std::map<std::string, std::pair<std::string, bool>> by_column;
      for (const auto& entry : entries) {
        by_column[Unquote(entry[0])] = {Unquote(entry[1]), entry[2] == "1"};
      }
      std::string select;
      for (const std::string& column : columns) {
        if (!select.empty()) select += ", ";
        auto it = by_column.find(column);
        if (it == by_column.end()) {
          select += "NULL AS \"" + column + "\"";
        } else {
          select += "\"" + it->second.first + "\" AS \"" + column + "\"";
        }
      }
      const std::string path = paths.at(std::stoll(file[0]));
      Result<std::string> csv = testing::DuckDBQueryCsv(
          "SELECT " + select + " FROM read_parquet(" + Quote(path) + ", hive_partitioning = true)");
      EXPECT_TRUE(csv.ok()) << path << ": " << csv.status().ToString();
      if (csv.ok()) all += SortedBody(*csv);
    }
    return SortedBody("header\n" + all);
  }

  SqlLake lake_;
};

TEST_F(AddFilesTest, CatalogRowsAreTheExtensions) {
  Exec("CREATE TABLE t (col1 INTEGER, col2 VARCHAR)");
  const std::string outside = lake_.dir->Join("outside.parquet");
  const std::string reordered = lake_.dir->Join("reordered.parquet");
  DuckDBCopy("SELECT 200 AS col1, 'world' AS col2", outside);
  DuckDBCopy("SELECT 'abcd' AS col2, 300 AS col1", reordered);
  Exec("CALL ducklake_add_data_files('lake', 't', " + Quote(outside) + ")");
  Exec("CALL ducklake_add_data_files('lake', 't', [" + Quote(reordered) + "])");

  // One mapping for both files (the same columns in another order); its id came from
  // next_file_id before the first file's.
  EXPECT_EQ(Catalog("SELECT mapping_id, table_id, type FROM ducklake_column_mapping"),
            "0|1|'map_by_name'\n");
  EXPECT_EQ(Catalog("SELECT mapping_id, column_id, source_name, target_field_id, parent_column, "
                    "is_partition FROM ducklake_name_mapping ORDER BY column_id"),
            "0|0|'col1'|1|NULL|0\n0|1|'col2'|2|NULL|0\n");
  EXPECT_EQ(Catalog("SELECT data_file_id, path, path_is_relative, record_count, row_id_start, "
                    "mapping_id FROM ducklake_data_file ORDER BY data_file_id"),
            "1|'" + outside + "'|0|1|0|0\n2|'" + reordered + "'|0|1|1|0\n");
  EXPECT_EQ(Catalog("SELECT next_file_id FROM ducklake_snapshot ORDER BY snapshot_id DESC "
                    "LIMIT 1"),
            "3\n");
  EXPECT_EQ(Catalog("SELECT changes_made FROM ducklake_snapshot_changes ORDER BY snapshot_id "
                    "DESC LIMIT 1"),
            "'inserted_into_table:1'\n");
  EXPECT_EQ(Catalog("SELECT record_count, next_row_id FROM ducklake_table_stats"), "2|2\n");

  // Nested columns: entries depth-first, a child naming its parent's index.
  Exec("CREATE TABLE n (s STRUCT(i INTEGER, j INTEGER), l INTEGER[])");
  const std::string nested = lake_.dir->Join("nested.parquet");
  DuckDBCopy("SELECT [1, 2] AS l, {'j': 20, 'i': 10} AS s", nested);
  Exec("CALL ducklake_add_data_files('lake', 'n', " + Quote(nested) + ")");
  EXPECT_EQ(Catalog("SELECT column_id, source_name, target_field_id, parent_column FROM "
                    "ducklake_name_mapping WHERE mapping_id = 3 ORDER BY column_id"),
            "0|'s'|1|NULL\n1|'i'|2|0\n2|'j'|3|0\n3|'l'|4|NULL\n4|'list'|5|3\n");
}

TEST_F(AddFilesTest, DuckDBReadsTheFilesAsTarnDoes) {
  Exec("CREATE TABLE t (k INTEGER, a BIGINT, b VARCHAR, c DOUBLE)");
  const std::string hive = lake_.dir->Join("hive");
  Status copied = testing::DuckDBExecute(
      "COPY (SELECT i % 3 AS k, i AS a, 'v' || i AS b FROM range(20) r(i)) TO " + Quote(hive) +
      " (FORMAT parquet, PARTITION_BY (k))");
  ASSERT_TRUE(copied.ok()) << copied.ToString();
  const std::string plain = lake_.dir->Join("plain.parquet");
  DuckDBCopy("SELECT 1.5::DOUBLE AS C, 'x' AS B, 7::INTEGER AS A, 9 AS K", plain);
  Exec("CALL ducklake_add_data_files('lake', 't', " + Quote(hive + "/**/*.parquet") +
       ", allow_missing => true)");
  Exec("CALL ducklake_add_data_files('lake', 't', " + Quote(plain) + ")");

  const std::string tarn = SortedBody(Csv("SELECT k, a, b, c FROM t"));
  EXPECT_EQ(tarn.size() > 0, true);
  EXPECT_EQ(DuckDBReadThroughMappings(1, {"k", "a", "b", "c"}), tarn);
  EXPECT_EQ(Csv("SELECT count(*) AS n, sum(a) AS s FROM t WHERE k = 1"), "n,s\n7,70\n");

  // The statistics are the footers' as DuckDB reports them.
  const auto paths = lake_testing::FilePaths(lake_.catalog_path, lake_.data_path,
                                             "ducklake_data_file");
  for (const auto& [file_id, path] : paths) {
    Result<std::string> expected = testing::DuckDBQueryCsv(
        "SELECT sum(num_values - stats_null_count) AS v, sum(stats_null_count) AS n, "
        "sum(total_compressed_size) AS bytes, min(stats_min_value) AS lo, "
        "max(stats_max_value) AS hi FROM parquet_metadata(" + Quote(path) +
        ") WHERE lower(path_in_schema) = 'a'");
    ASSERT_TRUE(expected.ok()) << expected.status().ToString();
    Rows stats = QueryRows(lake_.catalog_path,
                           "SELECT value_count, null_count, column_size_bytes, min_value, "
                           "max_value FROM ducklake_file_column_stats WHERE data_file_id = " +
                               std::to_string(file_id) + " AND column_id = 2");
    ASSERT_EQ(stats.size(), 1u) << path;
    const std::string got = "v,n,bytes,lo,hi\n" + stats[0][0] + "," + stats[0][1] + "," +
                            stats[0][2] + "," + Unquote(stats[0][3]) + "," +
                            Unquote(stats[0][4]) + "\n";
    EXPECT_EQ(got, *expected) << path;
  }
  // The hive key's statistics are the folder's value.
  EXPECT_EQ(Catalog("SELECT DISTINCT min_value = max_value FROM ducklake_file_column_stats "
                    "WHERE column_id = 1"),
            "1\n");
}

TEST_F(AddFilesTest, RollbackKeepsTheFilesAndCommitsNothing) {
  Exec("CREATE TABLE t (col1 INTEGER)");
  const std::string file = lake_.dir->Join("mine.parquet");
  DuckDBCopy("SELECT 1 AS col1", file);
  Exec("BEGIN");
  Exec("CALL ducklake_add_data_files('lake', 't', " + Quote(file) + ")");
  EXPECT_EQ(Csv("SELECT col1 FROM t"), "col1\n1\n");
  Exec("ROLLBACK");
  EXPECT_TRUE(std::filesystem::exists(file));
  EXPECT_EQ(Catalog("SELECT count(*) FROM ducklake_data_file"), "0\n");
  EXPECT_EQ(Catalog("SELECT count(*) FROM ducklake_column_mapping"), "0\n");
  // A refused file in a list registers none of the list.
  const std::string bad = lake_.dir->Join("bad.parquet");
  DuckDBCopy("SELECT 'x' AS col1", bad);
  Status refused = RunStatement(*lake_.session, "CALL ducklake_add_data_files('lake', 't', [" +
                                                    Quote(file) + ", " + Quote(bad) + "])");
  EXPECT_FALSE(refused.ok());
  EXPECT_EQ(Catalog("SELECT count(*) FROM ducklake_data_file"), "0\n");
}

}  // namespace
}  // namespace tarn
