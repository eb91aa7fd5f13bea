// What COPY writes, read back by DuckDB: repeated column names told apart as DuckDB's own COPY
// tells them apart (the Parquet schema carries k, k_1, k_1_1, K_2, k_3), and a sum of two
// 64-bit decimals written as DuckDB types it (DECIMAL(18,0)), its values equal.
#include <gtest/gtest.h>

#include <string>

#include "support/oracle.h"
#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

TEST(CopyNamesTest, RepeatedNamesAndDecimalSumsReadBackByDuckDB) {
  testing::TempDir dir;
  const std::string file = dir.Join("names.parquet");
  Session session;
  auto written = session.Execute(
      "COPY (SELECT 1 AS k, 2 AS k, 3 AS k_1, 4 AS K, 5 AS k, "
      "CAST(range AS DECIMAL(18,0)) + CAST(7 AS DECIMAL(18,0)) AS s FROM range(3)) TO " +
      testing::SqlString(file));
  ASSERT_TRUE(written.ok()) << written.status().ToString();
  auto names = testing::DuckDBQueryCsv("SELECT string_agg(name, ' ') AS names FROM parquet_schema(" +
                                       testing::SqlString(file) + ") WHERE num_children IS NULL");
  ASSERT_TRUE(names.ok()) << names.status().ToString();
  EXPECT_EQ(*names, "names\nk k_1 k_1_1 K_2 k_3 s\n");
  auto rows = testing::DuckDBQueryCsv("SELECT typeof(s), sum(s), count(*) FROM " +
                                      testing::SqlString(file) + " GROUP BY ALL");
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(*rows, "typeof(s),sum(s),count_star()\n\"DECIMAL(18,0)\",24,3\n");
}

}  // namespace
}  // namespace tarn
