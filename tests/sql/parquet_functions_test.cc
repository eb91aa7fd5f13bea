// parquet_metadata, parquet_schema, parquet_file_metadata and parquet_kv_metadata against
// DuckDB's answers over the same files: files DuckDB wrote (TPC-H), files other writers wrote
// (parquet-testing: nested, decimals, dictionaries, key/value metadata), and a file tarn wrote
// with COPY. Compared as CSV text, every column but the geometry ones.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/oracle.h"
#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::FileExists;
using testing::SharedPath;
using testing::TarnCsv;

std::string Quoted(const std::string& path) { return "'" + path + "'"; }

// `file_offset`: DuckDB shows NULL for the chunks of some older writers' files (parquet-mr's)
// where tarn shows the footer's value, so it is compared on files DuckDB and tarn wrote only.
std::vector<std::string> QueriesOver(const std::string& file, bool with_file_offset = true) {
  const std::string f = Quoted(file);
  return {
      "SELECT file_name, row_group_id, row_group_num_rows, row_group_num_columns, "
      "row_group_bytes, column_id, " + std::string(with_file_offset ? "file_offset, " : "") +
      "num_values, path_in_schema, type, stats_min, "
      "stats_max, stats_null_count, stats_distinct_count, stats_min_value, stats_max_value, "
      "compression, encodings, index_page_offset, dictionary_page_offset, data_page_offset, "
      "total_compressed_size, total_uncompressed_size, CAST(key_value_metadata AS VARCHAR) AS kv, "
      "bloom_filter_offset, bloom_filter_length, min_is_exact, max_is_exact, "
      "row_group_compressed_bytes FROM parquet_metadata(" + f + ") ORDER BY row_group_id, "
      "column_id",
      "SELECT * FROM parquet_schema(" + f + ") ORDER BY column_id",
      "SELECT file_name, created_by, num_rows, num_row_groups, format_version, "
      "encryption_algorithm, file_size_bytes, footer_size FROM parquet_file_metadata(" + f + ")",
      "SELECT file_name, CAST(key AS VARCHAR) AS k, length(CAST(value AS VARCHAR)) AS n FROM "
      "parquet_kv_metadata(" + f + ") ORDER BY k",
      "SELECT name, type, field_id FROM parquet_schema(" + f + ") WHERE type IS NOT NULL "
      "ORDER BY name, column_id",
  };
}

void ExpectSameAsDuckDB(Session* session, const std::vector<std::string>& queries) {
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  for (size_t i = 0; i < queries.size(); ++i) {
    ASSERT_TRUE(expected[i].ok()) << queries[i] << "\n" << expected[i].status().ToString();
    Result<std::string> actual = TarnCsv(session, queries[i]);
    ASSERT_TRUE(actual.ok()) << queries[i] << "\n" << actual.status().ToString();
    EXPECT_EQ(*actual, *expected[i]) << queries[i];
  }
}

TEST(ParquetFunctionsTest, FilesOtherWritersWroteReadAsDuckDBReadsThem) {
  const std::vector<std::string> duckdb_files = {
      SharedPath("data/tpch-sf0.1/nation.parquet"),
      SharedPath("data/tpch-sf0.1/lineitem.parquet"),
  };
  const std::vector<std::string> other_files = {
      SharedPath("fixtures/parquet-testing/data/nested_lists.snappy.parquet"),
      SharedPath("fixtures/parquet-testing/data/nested_maps.snappy.parquet"),
      SharedPath("fixtures/parquet-testing/data/alltypes_dictionary.parquet"),
      SharedPath("fixtures/parquet-testing/data/fixed_length_decimal.parquet"),
  };
  Session session;
  for (const std::string& file : duckdb_files) {
    SCOPED_TRACE(file);
    ASSERT_TRUE(FileExists(file));
    ExpectSameAsDuckDB(&session, QueriesOver(file));
  }
  for (const std::string& file : other_files) {
    SCOPED_TRACE(file);
    ASSERT_TRUE(FileExists(file));
    ExpectSameAsDuckDB(&session, QueriesOver(file, /*with_file_offset=*/false));
  }
}

TEST(ParquetFunctionsTest, AFileTarnWroteReadsAsDuckDBReadsIt) {
  testing::TempDir dir;
  const std::string file = dir.Join("written.parquet");
  Session session;
  auto copied = session.Execute(
      "COPY (SELECT i, 'v' || i AS s, i * 1.5 AS d, CAST(i AS DECIMAL(9,2)) AS m, "
      "DATE '2020-01-01' + CAST(i AS INTEGER) AS dt, [i, i + 1] AS l, {'a': i, 'b': 'x'} AS st "
      "FROM range(5000) t(i)) TO " + Quoted(file) + " (FORMAT parquet, ROW_GROUP_SIZE 2048)");
  ASSERT_TRUE(copied.ok()) << copied.status().ToString();
  ExpectSameAsDuckDB(&session, QueriesOver(file));
  // A glob over several files, and a list of them.
  ExpectSameAsDuckDB(&session, {"SELECT file_name, count(*) FROM parquet_metadata([" +
                                    Quoted(file) + ", " + Quoted(file) +
                                    "]) GROUP BY ALL ORDER BY ALL"});
}

TEST(ParquetFunctionsTest, ErrorsNameTheFile) {
  Session session;
  auto missing = TarnCsv(&session, "SELECT * FROM parquet_schema('/nonexistent/x.parquet')");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("/nonexistent/x.parquet"), std::string::npos)
      << missing.status().ToString();
  testing::TempDir dir;
  const std::string text = dir.Join("not.parquet");
  ASSERT_TRUE(session.Execute("COPY (SELECT 1 AS a) TO " + Quoted(text) + " (FORMAT csv)").ok());
  auto not_parquet = TarnCsv(&session, "SELECT * FROM parquet_metadata(" + Quoted(text) + ")");
  ASSERT_FALSE(not_parquet.ok());
  EXPECT_NE(not_parquet.status().message().find(text), std::string::npos)
      << not_parquet.status().ToString();
}

}  // namespace
}  // namespace tarn
