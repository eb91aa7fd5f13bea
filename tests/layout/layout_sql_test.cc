// The layout functions in SQL over a lake: tarn_table_stats and tarn_layout_explain, and a
// table's parquet_profile honoured by its inserts.
#include <gtest/gtest.h>

#include <string>

#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/catalog.h"
#include "tarn/parquet.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::TarnCsv;

class LayoutSqlTest : public ::testing::Test {
 protected:
  void SetUp() override {
    AttachOptions options;
    options.create_if_missing = true;
    options.data_path = dir_.Join("data") + "/";
    ASSERT_TRUE(session_.Attach(dir_.Join("lake.sqlite"), options).ok());
    Run("CREATE TABLE t (country VARCHAR, city VARCHAR, n INTEGER)");
  }
  std::string Run(const std::string& sql) {
    Result<std::string> out = TarnCsv(&session_, sql);
    EXPECT_TRUE(out.ok()) << sql << ": " << out.status().ToString();
    return out.ok() ? *out : "";
  }

  testing::TempDir dir_;
  Session session_;
};

TEST_F(LayoutSqlTest, TableStatsAndProfile) {
  Run("INSERT INTO t SELECT 'country-' || (i % 5), 'city-' || (i % 50), i::INTEGER "
      "FROM range(3000) r(i)");
  EXPECT_EQ(Run("SELECT rows, files, delete_files, row_groups, sort_key, parquet_profile "
                "FROM tarn_table_stats('t')"),
            "rows,files,delete_files,row_groups,sort_key,parquet_profile\n3000,1,0,1,,duckdb\n");
  EXPECT_EQ(Run("SELECT compression_ratio > 0 AS ok, bytes_on_disk > compressed_bytes AS ok2 "
                "FROM tarn_table_stats('main.t')"),
            "ok,ok2\ntrue,true\n");
  // The read-optimized profile: its inserts write 1,000,000-row pages and 1M-row groups, so
  // 300,000 rows land in one row group (DuckDB's would be 3).
  Run("CALL ducklake_set_option('parquet_profile', 'read_optimized', table_name => 't')");
  Run("INSERT INTO t SELECT 'c', 'x', i::INTEGER FROM range(300000) r(i)");
  EXPECT_EQ(Run("SELECT rows, files, row_groups, parquet_profile FROM tarn_table_stats('t')"),
            "rows,files,row_groups,parquet_profile\n303000,2,2,read_optimized\n");
  auto bad = session_.Execute("SELECT * FROM tarn_table_stats('nope')");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("nope"), std::string::npos) << bad.status().ToString();
  auto no_arg = session_.Execute("SELECT * FROM tarn_table_stats()");
  ASSERT_FALSE(no_arg.ok());
  EXPECT_NE(no_arg.status().message().find("takes one table name"), std::string::npos);
}

TEST_F(LayoutSqlTest, LayoutExplainShowsProfileCandidatesAndChoice) {
  Run("INSERT INTO t SELECT 'country-' || (i % 7 % 3), 'city-' || (i % 7), ((i * i * 7919 + 13) % 1000)::INTEGER "
      "FROM range(4000) r(i)");
  const std::string kinds =
      Run("SELECT kind, count(*) > 0 AS present FROM tarn_layout_explain('t') GROUP BY kind "
          "ORDER BY kind");
  EXPECT_EQ(kinds, "kind,present\ncandidate,true\nchoice,true\ndependency,true\nprofile,true\n");
  EXPECT_EQ(Run("SELECT key, detail LIKE 'VARCHAR; distinct 7 (exact)%' AS d FROM "
                "tarn_layout_explain('t') WHERE kind = 'profile' AND key = 'city'"),
            "key,d\ncity,true\n");
  // The choice's bytes are the smallest measured, never above the rows as they are.
  const std::string chosen =
      Run("SELECT bytes FROM tarn_layout_explain('t') WHERE kind = 'choice'");
  const std::string smallest =
      Run("SELECT min(bytes) AS bytes FROM tarn_layout_explain('t') WHERE kind = 'candidate'");
  EXPECT_EQ(chosen, smallest);
  EXPECT_EQ(Run("SELECT detail LIKE 'rules:%' AS r FROM tarn_layout_explain('t', mode => 'rules') "
                "WHERE kind = 'choice'"),
            "r\ntrue\n");
  auto bad_mode = session_.Execute("SELECT * FROM tarn_layout_explain('t', mode => 'magic')");
  ASSERT_FALSE(bad_mode.ok());
  EXPECT_NE(bad_mode.status().message().find("layout_picker"), std::string::npos);
}

}  // namespace
}  // namespace tarn
