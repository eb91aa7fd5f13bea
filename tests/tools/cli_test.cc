// Drives the `tarn` program as a user would and compares what it prints with DuckDB.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "support/oracle.h"
#include "support/run_tarn.h"
#include "support/test_util.h"

namespace tarn {
namespace {

using testing::DuckDBQueryCsv;
using testing::FileExists;
using testing::SharedPath;
using testing::TempDir;

using testing::RunTarn;
using testing::RunResult;

std::string Alltypes() { return SharedPath("fixtures/parquet-testing/data/alltypes_plain.parquet"); }

TEST(CliTest, CatCsvEqualsDuckDB) {
  TempDir dir;
  std::string file = Alltypes();
  ASSERT_TRUE(FileExists(file));
  RunResult run = RunTarn({"parquet", "cat", file, "--format", "csv"}, dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto expected = DuckDBQueryCsv("SELECT * FROM read_parquet('" + file + "')");
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  EXPECT_EQ(run.out, *expected);
}

TEST(CliTest, CatWhereWithPositionEqualsDuckDB) {
  TempDir dir;
  std::string file = SharedPath("data/tpch-sf0.1/orders.parquet");
  ASSERT_TRUE(FileExists(file));
  RunResult run = RunTarn({"parquet", "cat", file, "--columns", "o_orderkey,o_totalprice",
                           "--where", "o_totalprice > 400000 AND o_orderstatus = 'F'",
                           "--with-position"},
                          dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  auto expected = DuckDBQueryCsv(
      "SELECT o_orderkey, o_totalprice, file_row_number FROM read_parquet('" + file +
      "', file_row_number=true) WHERE o_totalprice > 400000 AND o_orderstatus = 'F' "
      "ORDER BY file_row_number");
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  EXPECT_EQ(run.out, *expected);
  EXPECT_GT(std::count(run.out.begin(), run.out.end(), '\n'), 2);
}

TEST(CliTest, CatLimitAndJson) {
  TempDir dir;
  std::string file = Alltypes();
  RunResult run = RunTarn({"parquet", "cat", file, "--columns", "id,bool_col", "--format", "json",
                           "--limit", "3"},
                          dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 3);
  EXPECT_EQ(run.out.substr(0, 6), "{\"id\":");
}

TEST(CliTest, MetaJsonMatchesDuckDBParquetMetadata) {
  TempDir dir;
  std::string file = SharedPath("data/tpch-sf0.1/orders.parquet");
  RunResult run = RunTarn({"parquet", "meta", file, "--format", "json"}, dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  // Compare the structural fields DuckDB reports for every column chunk.
  auto expected = DuckDBQueryCsv(
      "SELECT row_group_id, row_group_num_rows, column_id, num_values, path_in_schema, type, "
      "stats_null_count, stats_min_value, stats_max_value, compression, data_page_offset, "
      "total_compressed_size, total_uncompressed_size FROM parquet_metadata('" + file +
      "') ORDER BY row_group_id, column_id");
  ASSERT_TRUE(expected.ok()) << expected.status().ToString();
  std::string json_path = dir.Join("meta.json");
  {
    std::ofstream json(json_path);
    json << run.out;
  }
  auto actual = DuckDBQueryCsv(
      "SELECT row_group_id, row_group_num_rows, column_id, num_values, path_in_schema, type, "
      "stats_null_count, stats_min_value, stats_max_value, compression, data_page_offset, "
      "total_compressed_size, total_uncompressed_size FROM read_json('" + json_path +
      "', columns={row_group_id: 'BIGINT', row_group_num_rows: 'BIGINT', column_id: 'BIGINT', "
      "num_values: 'BIGINT', path_in_schema: 'VARCHAR', type: 'VARCHAR', stats_null_count: "
      "'BIGINT', stats_min_value: 'VARCHAR', stats_max_value: 'VARCHAR', compression: 'VARCHAR', "
      "data_page_offset: 'BIGINT', total_compressed_size: 'BIGINT', total_uncompressed_size: "
      "'BIGINT'}) ORDER BY row_group_id, column_id");
  ASSERT_TRUE(actual.ok()) << actual.status().ToString();
  EXPECT_EQ(*actual, *expected);
}

TEST(CliTest, MetaTableShowsSchemaAndRowGroups) {
  TempDir dir;
  RunResult run = RunTarn({"parquet", "meta", Alltypes()}, dir);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("rows: 8"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("row group 0"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("bool_col"), std::string::npos) << run.out;
}

TEST(CliTest, WriteRoundTripWithOptions) {
  TempDir dir;
  std::string file = SharedPath("data/tpch-sf0.1/orders.parquet");
  for (std::string codec : {"zstd:5", "gzip", "snappy", "lz4", "brotli", "uncompressed"}) {
    std::string out = dir.Join("orders.parquet");
    RunResult write = RunTarn({"parquet", "write", file, out, "--compression", codec,
                               "--row-group-rows", "40000", "--page-version", "2",
                               "--page-rows", "5000"},
                              dir);
    ASSERT_EQ(write.exit_code, 0) << codec << ": " << write.err;
    auto check = DuckDBQueryCsv(
        "SELECT (SELECT count(*) FROM (SELECT * FROM read_parquet('" + file +
        "') EXCEPT ALL SELECT * FROM read_parquet('" + out +
        "'))) AS missing, (SELECT count(*) FROM read_parquet('" + out +
        "')) AS total, (SELECT count(DISTINCT row_group_id) FROM parquet_metadata('" + out +
        "')) AS groups");
    ASSERT_TRUE(check.ok()) << check.status().ToString();
    EXPECT_EQ(*check, "missing,total,groups\n0,150000,4\n") << codec;
  }
}

TEST(CliTest, WriteFromCsv) {
  TempDir dir;
  std::string csv = dir.Join("in.csv");
  {
    std::ofstream out(csv);
    out << "a,b,c\n1,x,2020-01-02\n2,,2021-03-04\n,\"q,uote\",\n";
  }
  std::string parquet = dir.Join("out.parquet");
  RunResult write = RunTarn({"parquet", "write", csv, parquet}, dir);
  ASSERT_EQ(write.exit_code, 0) << write.err;
  RunResult cat = RunTarn({"parquet", "cat", parquet}, dir);
  ASSERT_EQ(cat.exit_code, 0) << cat.err;
  EXPECT_EQ(cat.out, "a,b,c\n1,x,2020-01-02\n2,,2021-03-04\n,\"q,uote\",\n");
}

TEST(CliTest, ErrorsAreClearAndFail) {
  TempDir dir;
  RunResult missing = RunTarn({"parquet", "cat", dir.Join("nope.parquet")}, dir);
  EXPECT_NE(missing.exit_code, 0);
  EXPECT_NE(missing.err.find("nope.parquet"), std::string::npos) << missing.err;

  RunResult not_parquet = RunTarn({"parquet", "meta", tarn::testing::SourceDir() + "/README.md"}, dir);
  EXPECT_NE(not_parquet.exit_code, 0);
  EXPECT_NE(not_parquet.err.find("README.md"), std::string::npos) << not_parquet.err;

  RunResult bad_where = RunTarn({"parquet", "cat", Alltypes(), "--where", "id >"}, dir);
  EXPECT_NE(bad_where.exit_code, 0);
  EXPECT_NE(bad_where.err.find("syntax error"), std::string::npos) << bad_where.err;

  RunResult unknown = RunTarn({"parquet", "cat", Alltypes(), "--where", "idd = 1"}, dir);
  EXPECT_NE(unknown.exit_code, 0);
  EXPECT_NE(unknown.err.find("\"id\""), std::string::npos) << unknown.err;

  RunResult not_bool = RunTarn({"parquet", "cat", Alltypes(), "--where", "id + 1"}, dir);
  EXPECT_NE(not_bool.exit_code, 0);
  EXPECT_NE(not_bool.err.find("boolean"), std::string::npos) << not_bool.err;

  RunResult bad_codec = RunTarn({"parquet", "write", Alltypes(), dir.Join("x.parquet"),
                                 "--compression", "lzo9"}, dir);
  EXPECT_NE(bad_codec.exit_code, 0);
  EXPECT_NE(bad_codec.err.find("lzo9"), std::string::npos) << bad_codec.err;

  RunResult encrypted = RunTarn(
      {"parquet", "cat",
       SharedPath("fixtures/parquet-testing/data/uniform_encryption.parquet.encrypted")},
      dir);
  EXPECT_NE(encrypted.exit_code, 0);
  EXPECT_NE(encrypted.err.find("encrypted"), std::string::npos) << encrypted.err;
}

}  // namespace
}  // namespace tarn
