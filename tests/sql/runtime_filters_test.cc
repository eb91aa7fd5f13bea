// Runtime filters from a hash join's build side into the probe side's scan: the join's key
// range prunes a lake table's files (by the catalog's statistics) and row groups, and a
// Parquet file's row groups, while the answers stay those of the join without them.
#include <gtest/gtest.h>

#include <string>

#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

Result<std::string> Csv(Session* session, const std::string& sql) {
  return testing::TarnCsv(session, sql);
}

void RunScript(Session* session, const std::string& script) {
  Status status = session->ExecuteScript(script, [](QueryResult& r) -> Status {
    while (true) {
      TARN_ASSIGN_OR_RETURN(auto batch, r.reader->Next());
      if (!batch) return Status::OK();
    }
  });
  ASSERT_TRUE(status.ok()) << script << ": " << status.ToString();
}

std::string Plan(Session* session, const std::string& sql) {
  auto plan = Csv(session, "EXPLAIN ANALYZE " + sql);
  EXPECT_TRUE(plan.ok()) << sql << ": " << plan.status().ToString();
  return plan.ok() ? *plan : "";
}

class RuntimeFiltersTest : public ::testing::TestWithParam<int> {};

// facts: three files of 100,000 ids each (0.., 100,000.., 200,000..), the last one of three
// row groups; dims: a few keys. A join on the id reads only what can hold a key.
TEST_P(RuntimeFiltersTest, JoinKeyRangesPruneLakeFilesAndRowGroups) {
  testing::TempDir dir;
  Session session;
  RunScript(&session, "ATTACH 'ducklake:" + dir.Join("catalog.sqlite") + "' AS l (DATA_PATH '" +
                    dir.Join("data") + "/'); USE l; SET threads = " + std::to_string(GetParam()));
  RunScript(&session,
      "CREATE TABLE facts AS SELECT i AS id, i % 10 AS v FROM range(100000) r(i);"
      "INSERT INTO facts SELECT i, i % 10 FROM range(100000, 200000) r(i);"
      "INSERT INTO facts SELECT i, i % 10 FROM range(200000, 500000) r(i);"
      "CREATE TABLE dims AS SELECT * FROM (VALUES (150001), (150007), (150003)) v(k);"
      "CREATE TABLE far AS SELECT * FROM (VALUES (480000), (480001)) v(k);"
      "CREATE TABLE none AS SELECT * FROM (VALUES (1)) v(k) WHERE false");
  const std::string in_one_file = "SELECT count(*), sum(v) FROM facts JOIN dims ON facts.id = dims.k";
  EXPECT_EQ(*Csv(&session, in_one_file), "count_star(),sum(v)\n3,11\n");
  std::string plan = Plan(&session, in_one_file);
  EXPECT_NE(plan.find("while decoding: join keys on id"), std::string::npos) << plan;
  EXPECT_NE(plan.find("files: 3 considered, 2 pruned by statistics, 0 pruned by partition, 1 read"),
            std::string::npos) << plan;

  // In the file of three row groups, only the last holds 480,000.
  const std::string in_one_row_group =
      "SELECT count(*), sum(id) FROM facts WHERE id IN (SELECT k FROM far)";
  EXPECT_EQ(*Csv(&session, in_one_row_group), "count_star(),sum(id)\n2,960001\n");
  plan = Plan(&session, in_one_row_group);
  EXPECT_NE(plan.find("files: 3 considered, 2 pruned by statistics, 0 pruned by partition, 1 read"),
            std::string::npos) << plan;
  EXPECT_NE(plan.find("row groups: 3 considered, 2 pruned by statistics"), std::string::npos)
      << plan;

  // No key at all: no file is read.
  const std::string no_keys = "SELECT count(*) FROM facts JOIN none ON facts.id = none.k";
  EXPECT_EQ(*Csv(&session, no_keys), "count_star()\n0\n");

  // Deleted and updated rows stay as they are: the filter only skips what cannot match.
  RunScript(&session, "DELETE FROM facts WHERE id = 150003; UPDATE facts SET v = 100 WHERE id = 150007");
  EXPECT_EQ(*Csv(&session, in_one_file), "count_star(),sum(v)\n2,101\n");
  EXPECT_EQ(*Csv(&session, "SELECT count(*), sum(v) FROM facts LEFT JOIN dims ON facts.id = dims.k "
                           "WHERE dims.k IS NOT NULL"),
            "count_star(),sum(v)\n2,101\n");
}

// A Parquet file of 1,000-row groups: a join whose keys lie in one of them reads that one.
TEST_P(RuntimeFiltersTest, JoinKeyRangesPruneParquetRowGroups) {
  testing::TempDir dir;
  Session session;
  RunScript(&session, "SET threads = " + std::to_string(GetParam()));
  const std::string file = dir.Join("facts.parquet");
  RunScript(&session, "COPY (SELECT i AS id, i % 10 AS v FROM range(20000) r(i)) TO '" + file +
                    "' (FORMAT parquet, ROW_GROUP_SIZE 1000)");
  const std::string keys = dir.Join("keys.parquet");
  RunScript(&session, "COPY (SELECT * FROM (VALUES (5001), (5002), (5999)) v(k)) TO '" + keys +
                          "' (FORMAT parquet)");
  const std::string sql = "SELECT count(*), sum(v) FROM '" + file + "' f JOIN '" + keys +
                          "' d ON f.id = d.k";
  EXPECT_EQ(*Csv(&session, sql), "count_star(),sum(v)\n3,12\n");
  const std::string plan = Plan(&session, sql);
  EXPECT_NE(plan.find("row groups: 20 considered, 19 pruned by statistics"), std::string::npos)
      << plan;
}

INSTANTIATE_TEST_SUITE_P(Threads, RuntimeFiltersTest, ::testing::Values(1, 2));

}  // namespace
}  // namespace tarn
