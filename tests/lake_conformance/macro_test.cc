// Macros in a lake: CREATE/DROP MACRO stored as the DuckLake extension stores them
// (ducklake_macro, ducklake_macro_impl, ducklake_macro_parameters and the snapshot's
// changes), calls answered as DuckDB answers them, and macros through transactions, time
// travel and a reopened lake. Also the catalog tables read as `__ducklake_metadata_<lake>`.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "lake_test_util.h"
#include "support/oracle.h"
#include "support/sql_test_util.h"
#include "tarn/catalog.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using lake_testing::QueryRows;
using lake_testing::RowsText;
using lake_testing::RunStatement;
using lake_testing::SqlLake;

class MacroTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(lake_.Create().ok()); }

  void Exec(const std::string& sql) {
    Status status = RunStatement(*lake_.session, sql);
    ASSERT_TRUE(status.ok()) << sql << ": " << status.ToString();
  }
  std::string Error(const std::string& sql) {
    Status status = RunStatement(*lake_.session, sql);
    EXPECT_FALSE(status.ok()) << sql;
    return status.message();
  }
  std::string Csv(const std::string& sql) {
    Result<std::string> csv = testing::TarnCsv(lake_.session.get(), sql);
    EXPECT_TRUE(csv.ok()) << sql << ": " << csv.status().ToString();
    return csv.ok() ? *csv : "";
  }
  std::string Catalog(const std::string& sql) {
    return RowsText(QueryRows(lake_.catalog_path, sql));
  }

  SqlLake lake_;
};

// The rows the extension writes for the suite's macros (macros/test_simple_macro.test,
// test_multiple_implementations.test, test_defined_types.test, test_macro_tables.test).
TEST_F(MacroTest, CatalogRowsAsTheExtensionWritesThem) {
  Exec("CREATE MACRO simple(a) AS a");
  EXPECT_EQ(Catalog("SELECT * FROM ducklake_macro"), "0|1|'simple'|1|NULL\n");
  EXPECT_EQ(Catalog("SELECT * FROM ducklake_macro_impl"), "1|0|'duckdb'|'a'|'scalar'\n");
  EXPECT_EQ(Catalog("SELECT * FROM ducklake_macro_parameters"),
            "1|0|0|'a'|'unknown'|NULL|'unknown'\n");
  EXPECT_EQ(Catalog("SELECT changes_made FROM ducklake_snapshot_changes WHERE snapshot_id = 1"),
            "'created_scalar_macro:\"main\".\"simple\"'\n");
  Exec("DROP MACRO simple");
  EXPECT_EQ(Catalog("SELECT begin_snapshot, end_snapshot FROM ducklake_macro"), "1|2\n");
  EXPECT_EQ(Catalog("SELECT changes_made FROM ducklake_snapshot_changes WHERE snapshot_id = 2"),
            "'dropped_scalar_macro:1'\n");
  Exec("CREATE MACRO simple(a) AS a");  // a new id
  EXPECT_EQ(Catalog("SELECT macro_id, begin_snapshot, end_snapshot FROM ducklake_macro"),
            "1|1|2\n2|3|NULL\n");

  Exec("CREATE MACRO multi_add () AS 0, (a) AS a, (a, b) AS a + b, (a, b, c) AS a + b + c");
  EXPECT_EQ(Catalog("SELECT impl_id, sql FROM ducklake_macro_impl WHERE macro_id = 3"),
            "0|'0'\n1|'a'\n2|'(a + b)'\n3|'((a + b) + c)'\n");
  EXPECT_EQ(Catalog("SELECT COUNT(*) FROM ducklake_macro_parameters WHERE macro_id = 3"), "6\n");

  Exec("CREATE MACRO add_two_def(x INTEGER, y := 5) AS (x + y)");
  Exec("CREATE MACRO add_one_same(x BIGINT := 1) AS (x + 1)");
  EXPECT_EQ(Catalog("SELECT column_id, parameter_name, parameter_type, default_value, "
                    "default_value_type FROM ducklake_macro_parameters WHERE macro_id >= 4"),
            "0|'x'|'int32'|NULL|'unknown'\n0|'x'|'int64'|'1'|'int32'\n"
            "1|'y'|'unknown'|'5'|'int32'\n");

  Exec("CREATE TABLE test_tbl (id INTEGER, name VARCHAR)");
  Exec("CREATE MACRO xt(a, _name) AS TABLE SELECT * FROM test_tbl WHERE (id >= a OR name = _name)");
  EXPECT_EQ(Catalog("SELECT type FROM ducklake_macro_impl WHERE macro_id = 7"), "'table'\n");
  // The query stored as DuckDB prints it.
  EXPECT_EQ(Catalog("SELECT sql FROM ducklake_macro_impl WHERE macro_id = 7"),
            "'SELECT * FROM test_tbl WHERE ((id >= a) OR (\"name\" = _name))'\n");
  EXPECT_EQ(Catalog("SELECT changes_made FROM ducklake_snapshot_changes ORDER BY snapshot_id "
                    "DESC LIMIT 1"),
            "'created_table_macro:\"main\".\"xt\"'\n");
  Exec("CREATE MACRO xt2(a) AS TABLE SELECT id, count(*) c FROM test_tbl t WHERE id > a "
       "GROUP BY id ORDER BY 1 LIMIT 3");
  EXPECT_EQ(Catalog("SELECT sql = 'SELECT id, count_star() AS c FROM test_tbl AS t WHERE "
                    "(id > a) GROUP BY id ORDER BY 1 LIMIT 3' FROM ducklake_macro_impl WHERE "
                    "macro_id = 8"),
            "1\n");
  Exec("DROP MACRO TABLE xt2");
  Exec("DROP MACRO TABLE xt");
  EXPECT_EQ(Catalog("SELECT changes_made FROM ducklake_snapshot_changes ORDER BY snapshot_id "
                    "DESC LIMIT 1"),
            "'dropped_table_macro:7'\n");
  // snapshots() shows them as the extension's change map does.
  EXPECT_EQ(Csv("SELECT snapshot_id, changes FROM ducklake_snapshots('lake') WHERE "
                "snapshot_id IN (1, 2)"),
            "snapshot_id,changes\n1,\"{scalar_macros_created=['main.\"\"simple\"\"']}\"\n"
            "2,{scalar_macros_dropped=[1]}\n");
}

// Each call's answer equals DuckDB's for the same macros over the same table.
TEST_F(MacroTest, CallsAnswerAsDuckDB) {
  const std::vector<std::string> setup = {
      "CREATE TABLE t AS SELECT range AS i, 'n' || range AS s FROM range(20)",
      "CREATE MACRO simple(a) AS a",
      "CREATE MACRO multi_add () AS 0, (a) AS a, (a, b) AS a + b, (a, b, c) AS a + b + c",
      "CREATE MACRO add_two_def(x INTEGER, y := 5) AS (x + y)",
      "CREATE MACRO greet(name) AS 'hello ' || name || '''s world'",
      "CREATE MACRO greeting(who := 'it''s me') AS 'hi ' || who",
      "CREATE MACRO \"it's_a_macro\"() AS 42",
      "CREATE MACRO twice(x) AS multi_add(x, x)",
      "CREATE MACRO avg_twice(x) AS avg(x) * 2",
      "CREATE MACRO in_range(v, lo, hi) AS v BETWEEN lo AND hi",
      "CREATE MACRO big(n) AS TABLE SELECT i, s FROM t WHERE i >= n",
      "CREATE MACRO pairs(a, b := 2) AS TABLE SELECT a AS x, b AS y",
  };
  for (const std::string& sql : setup) Exec(sql);
  const std::vector<std::string> queries = {
      "SELECT simple(1) AS v",
      "SELECT simple(1), add_two_def(2), greeting()",
      "SELECT multi_add() AS a, multi_add(1) AS b, multi_add(1, 2) AS c, multi_add(1, 2, 3) AS d",
      "SELECT add_two_def(1) AS a, add_two_def(1, 3) AS b, add_two_def(1, y := 7) AS c",
      "SELECT greet('bob') AS g, greeting() AS a, greeting('y''all') AS b",
      "SELECT \"it's_a_macro\"() AS v",
      "SELECT twice(i) AS v FROM t WHERE in_range(i, 3, 6) ORDER BY v",
      "SELECT avg_twice(i) AS v FROM t",
      "SELECT s, simple(i) + 1 AS v FROM t WHERE simple(i) % 7 = 0 ORDER BY ALL",
      "SELECT i % 3 AS k, multi_add(sum(i), count(*)) AS v FROM t GROUP BY k ORDER BY k",
      "SELECT * FROM big(17) ORDER BY i",
      "SELECT count(*) AS n FROM big(multi_add(5, 5))",
      "SELECT * FROM pairs(1)",
      "SELECT * FROM pairs(1, b := 'x')",
  };
  std::string duckdb_setup;
  for (const std::string& sql : setup) duckdb_setup += sql + ";\n";
  std::vector<std::string> oracle_queries;
  for (const std::string& query : queries) oracle_queries.push_back(duckdb_setup + query);
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(oracle_queries);
  ASSERT_EQ(expected.size(), queries.size());
  for (size_t i = 0; i < queries.size(); ++i) {
    ASSERT_TRUE(expected[i].ok()) << queries[i] << ": " << expected[i].status().ToString();
    EXPECT_EQ(Csv(queries[i]), *expected[i]) << queries[i];
  }
}

TEST_F(MacroTest, ErrorsAsDuckDBWordsThem) {
  Exec("CREATE MACRO simple(a) AS a");
  EXPECT_EQ(Error("CREATE MACRO simple(a) AS a"),
            "Catalog Error: Macro Function with name \"simple\" already exists!");
  Exec("CREATE MACRO IF NOT EXISTS simple(b) AS b + 1");
  EXPECT_EQ(Csv("SELECT simple(1) AS v"), "v\n1\n");
  Exec("CREATE OR REPLACE MACRO simple(b) AS b + 1");
  EXPECT_EQ(Csv("SELECT simple(1) AS v"), "v\n2\n");
  EXPECT_NE(Error("SELECT simple(1, 2)").find("Macro function simple has no signature that takes "
                                              "2 positional arguments; it takes simple(b)"),
            std::string::npos);
  EXPECT_NE(Error("SELECT simple(c := 1)").find("has no signature"), std::string::npos);
  Exec("DROP MACRO simple");
  EXPECT_EQ(Error("SELECT simple(1)").substr(0, 56),
            "Catalog Error: Scalar Function with name simple does not");
  EXPECT_EQ(Error("DROP MACRO simple"),
            "Catalog Error: Macro Function with name simple does not exist!");
  Exec("DROP MACRO IF EXISTS simple");
  EXPECT_EQ(Error("CREATE MACRO m(a, b := 1, c) AS a"),
            "Parser Error: Positional parameters cannot come after parameters with a default "
            "value!");
  EXPECT_EQ(Error("CREATE MACRO m(a, A) AS a"),
            "Binder Error: Duplicate parameter \"A\" in macro definition");
  // A scalar macro is no table function, a table macro no scalar function.
  Exec("CREATE MACRO tm() AS TABLE SELECT 1 AS one");
  EXPECT_NE(Error("SELECT tm()").find("is a table macro"), std::string::npos);
  Exec("CREATE MACRO sm() AS 1");
  EXPECT_NE(Error("SELECT * FROM sm()").find("is a scalar macro"), std::string::npos);
  EXPECT_EQ(Error("DROP MACRO TABLE sm"),
            "Catalog Error: Table Macro Function with name sm does not exist!");
  // A macro that calls itself stops at the nesting bound.
  Exec("CREATE MACRO loop_forever(x) AS loop_forever(x) + 1");
  EXPECT_NE(Error("SELECT loop_forever(1)").find("nest more than 32 deep"), std::string::npos);
  // A schema holding a macro drops only with CASCADE (catalog/drop_schema_with_table_macro).
  Exec("CREATE SCHEMA s");
  Exec("CREATE MACRO lake.s.m(x) AS TABLE SELECT x AS col");
  EXPECT_NE(Error("DROP SCHEMA s").find("there are entries that depend on it"),
            std::string::npos);
  Exec("DROP SCHEMA s CASCADE");
  EXPECT_EQ(Catalog("SELECT end_snapshot IS NOT NULL FROM ducklake_macro WHERE macro_name = 'm'"),
            "1\n");
}

// Macros inside a transaction, after a rollback, at an older snapshot and in a reopened lake.
TEST_F(MacroTest, TransactionsTimeTravelAndReopen) {
  Exec("CREATE MACRO simple(a) AS a");
  Exec("BEGIN");
  Exec("DROP MACRO simple");
  EXPECT_NE(Error("SELECT simple(1)").find("does not exist"), std::string::npos);
  Exec("CREATE MACRO simple(a) AS a * 10");
  EXPECT_EQ(Csv("SELECT simple(2) AS v"), "v\n20\n");
  Exec("COMMIT");
  EXPECT_EQ(Csv("SELECT simple(2) AS v"), "v\n20\n");
  // The drop and the create are one snapshot.
  EXPECT_EQ(Catalog("SELECT changes_made FROM ducklake_snapshot_changes WHERE snapshot_id = 2"),
            "'dropped_scalar_macro:1,created_scalar_macro:\"main\".\"simple\"'\n");
  Exec("BEGIN");
  Exec("CREATE MACRO gone(a) AS a");
  Exec("ROLLBACK");
  EXPECT_NE(Error("SELECT gone(1)").find("does not exist"), std::string::npos);

  // A session pinned at snapshot 1 calls the first definition.
  Session old;
  AttachOptions pinned;
  pinned.name = "lake";
  pinned.snapshot_version = 1;
  ASSERT_TRUE(old.Attach("ducklake:sqlite:" + lake_.catalog_path, pinned).ok());
  Result<std::string> at_one = testing::TarnCsv(&old, "SELECT simple(2) AS v");
  ASSERT_TRUE(at_one.ok()) << at_one.status().ToString();
  EXPECT_EQ(*at_one, "v\n2\n");
  Session fresh;
  ASSERT_TRUE(fresh.Attach("ducklake:sqlite:" + lake_.catalog_path).ok());
  Result<std::string> latest = testing::TarnCsv(&fresh, "SELECT simple(2) AS v");
  ASSERT_TRUE(latest.ok()) << latest.status().ToString();
  EXPECT_EQ(*latest, "v\n20\n");
}

// A scalar and a table macro may share a name (macros/test_multi_macro_transaction.test), and
// expiring the snapshots that saw dropped macros removes their rows
// (compaction/expire_snapshots_drop_macro.test).
TEST_F(MacroTest, ScalarAndTableMacroShareANameAndExpire) {
  Exec("BEGIN");
  Exec("CREATE MACRO bar(x) AS x + 1");
  Exec("CREATE MACRO bar(x, y) AS TABLE SELECT x AS a, y AS b");
  EXPECT_EQ(Csv("SELECT bar(41) AS v"), "v\n42\n");
  EXPECT_EQ(Csv("FROM bar(10, 20)"), "a,b\n10,20\n");
  Exec("COMMIT");
  EXPECT_EQ(Csv("SELECT bar(99) AS v"), "v\n100\n");
  EXPECT_EQ(Csv("FROM bar(1, 2)"), "a,b\n1,2\n");
  Exec("DROP MACRO bar");
  EXPECT_EQ(Csv("FROM bar(1, 2)"), "a,b\n1,2\n");
  Exec("DROP MACRO TABLE bar");
  EXPECT_EQ(Catalog("SELECT COUNT(*) FROM ducklake_macro"), "2\n");
  Exec("CALL ducklake_expire_snapshots('lake', older_than => now())");
  EXPECT_EQ(Catalog("SELECT COUNT(*) FROM ducklake_macro"), "0\n");
  EXPECT_EQ(Catalog("SELECT COUNT(*) FROM ducklake_macro_impl"), "0\n");
  EXPECT_EQ(Catalog("SELECT COUNT(*) FROM ducklake_macro_parameters"), "0\n");
}

// Two sessions creating a macro of one name: the second commit is a conflict.
TEST_F(MacroTest, ConcurrentCreatesConflict) {
  Session other;
  ASSERT_TRUE(other.Attach("ducklake:sqlite:" + lake_.catalog_path).ok());
  Exec("BEGIN");
  Exec("CREATE MACRO m(a) AS a");
  ASSERT_TRUE(RunStatement(other, "CREATE MACRO m(a) AS a + 1").ok());
  Status commit = RunStatement(*lake_.session, "COMMIT");
  EXPECT_EQ(commit.code(), StatusCode::kConflict) << commit.ToString();
  EXPECT_NE(commit.message().find("created_scalar_macro"), std::string::npos) << commit.message();
}

TEST_F(MacroTest, MetadataTablesReadTheCatalog) {
  Exec("CREATE MACRO simple(a) AS a");
  EXPECT_EQ(Csv("FROM __ducklake_metadata_lake.ducklake_macro"),
            "schema_id,macro_id,macro_name,begin_snapshot,end_snapshot\n0,1,simple,1,\n");
  EXPECT_EQ(Csv("SELECT count(*) AS n FROM __ducklake_metadata_lake.main.ducklake_snapshot"),
            "n\n2\n");
  EXPECT_EQ(Csv("SELECT s.schema_name, m.macro_name FROM __ducklake_metadata_lake.ducklake_macro m "
                "JOIN __ducklake_metadata_lake.ducklake_schema s ON s.schema_id = m.schema_id"),
            "schema_name,macro_name\nmain,simple\n");
  EXPECT_EQ(Csv("SELECT path_is_relative FROM __ducklake_metadata_lake.ducklake_schema"),
            "path_is_relative\n1\n");
  std::string error = Error("FROM __ducklake_metadata_lake.ducklake_macros");
  EXPECT_NE(error.find("Table with name ducklake_macros does not exist"), std::string::npos);
  EXPECT_NE(error.find("Did you mean \"ducklake_macro\"?"), std::string::npos) << error;
}

}  // namespace
}  // namespace tarn
