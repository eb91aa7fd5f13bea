// Runs the same queries in tarn and in DuckDB over TPC-H orders/lineitem (SF 0.1) and the
// 3-million-row flights file, and compares the CSV text byte for byte (tarn's CsvWriter writes
// what DuckDB's COPY ... TO (HEADER) writes). Every query orders its output completely, or
// returns one row, so the comparison does not depend on either engine's row order.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/oracle.h"
#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/format.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::FileExists;
using testing::FlightsPath;
using testing::SharedPath;

using testing::ReplaceAll;
using testing::TarnCsv;

void CompareWithDuckDB(const std::vector<std::string>& templates, int threads) {
  std::string orders = SharedPath("data/tpch-sf0.1/orders.parquet");
  std::string lineitem = SharedPath("data/tpch-sf0.1/lineitem.parquet");
  std::string flights = FlightsPath();
  ASSERT_TRUE(FileExists(orders));
  ASSERT_TRUE(FileExists(lineitem));
  ASSERT_TRUE(FileExists(flights));
  std::vector<std::string> queries;
  for (const std::string& text : templates) {
    std::string query = ReplaceAll(text, "ORDERS", "'" + orders + "'");
    query = ReplaceAll(query, "LINEITEM", "'" + lineitem + "'");
    queries.push_back(ReplaceAll(query, "FLIGHTS", "'" + flights + "'"));
  }
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  Session session;
  ASSERT_TRUE(session.Execute("SET threads = " + std::to_string(threads)).ok());
  for (size_t i = 0; i < queries.size(); ++i) {
    ASSERT_TRUE(expected[i].ok()) << queries[i] << "\n" << expected[i].status().ToString();
    Result<std::string> actual = TarnCsv(&session, queries[i]);
    ASSERT_TRUE(actual.ok()) << queries[i] << "\n" << actual.status().ToString();
    EXPECT_EQ(*actual, *expected[i]) << queries[i];
    EXPECT_GT(expected[i]->size(), 0u);
  }
}

const std::vector<std::string> kFilterQueries = {
    "SELECT o_orderkey, o_totalprice, o_orderdate FROM ORDERS WHERE o_totalprice > 400000 "
    "ORDER BY o_orderkey",
    "SELECT * FROM ORDERS WHERE o_orderkey BETWEEN 1000 AND 1100 ORDER BY o_orderkey",
    "SELECT o_orderkey, o_clerk FROM ORDERS WHERE o_orderstatus = 'P' AND o_orderpriority LIKE "
    "'1%' ORDER BY o_orderkey LIMIT 20",
    "SELECT o_orderkey, o_comment FROM ORDERS WHERE o_comment LIKE '%special%requests%' "
    "ORDER BY o_orderkey DESC LIMIT 15 OFFSET 5",
    "SELECT l_orderkey, l_linenumber, l_extendedprice * (1 - l_discount) AS revenue FROM "
    "LINEITEM WHERE l_shipdate >= DATE '1995-01-01' AND l_shipdate < DATE '1995-01-03' "
    "ORDER BY l_orderkey, l_linenumber",
    "SELECT count(*) FROM LINEITEM WHERE l_discount BETWEEN 0.05 AND 0.07 AND l_quantity < 24",
    "SELECT date, delay, origin FROM FLIGHTS WHERE delay > 1000 ORDER BY date, origin, delay",
    "SELECT count(*), count(delay) FROM FLIGHTS WHERE origin IN ('SFO', 'OAK') AND "
    "distance > 2000",
    "SELECT o_orderkey % 7 AS m, upper(o_orderstatus) AS s FROM ORDERS "
    "WHERE o_orderkey < 40 ORDER BY o_orderkey",
};

const std::vector<std::string> kAggregateQueries = {
    // TPC-H Q1 without the double-valued averages' last-digit risk: decimals stay exact.
    "SELECT l_returnflag, l_linestatus, sum(l_quantity) AS sum_qty, sum(l_extendedprice) AS "
    "sum_base_price, sum(l_extendedprice * (1 - l_discount)) AS sum_disc_price, avg(l_quantity) "
    "AS avg_qty, avg(l_discount) AS avg_disc, count(*) AS count_order FROM LINEITEM WHERE "
    "l_shipdate <= DATE '1998-09-02' GROUP BY l_returnflag, l_linestatus ORDER BY "
    "l_returnflag, l_linestatus",
    "SELECT o_orderpriority, count(*) AS order_count FROM ORDERS WHERE o_orderdate >= DATE "
    "'1993-07-01' AND o_orderdate < DATE '1993-10-01' GROUP BY o_orderpriority ORDER BY "
    "o_orderpriority",
    "SELECT o_custkey, count(*) AS n, sum(o_totalprice) AS total, min(o_orderdate), "
    "max(o_orderdate) FROM ORDERS GROUP BY o_custkey ORDER BY total DESC, o_custkey LIMIT 10",
    "SELECT count(DISTINCT o_custkey), count(DISTINCT o_clerk), min(o_comment), "
    "max(o_comment) FROM ORDERS",
    "SELECT count(DISTINCT l_orderkey), count(DISTINCT l_suppkey), sum(DISTINCT l_linenumber), "
    "avg(DISTINCT l_partkey), min(DISTINCT l_shipdate), max(DISTINCT l_suppkey) FROM LINEITEM "
    "WHERE l_quantity < 40",
    "SELECT l_shipmode, count(DISTINCT l_orderkey) AS orders, max(l_receiptdate) FROM "
    "LINEITEM GROUP BY l_shipmode HAVING count(*) > 1000 ORDER BY l_shipmode",
    "SELECT origin, count(*) AS flights, sum(delay) AS total_delay, avg(distance) AS "
    "avg_distance, min(delay), max(delay) FROM FLIGHTS GROUP BY origin ORDER BY origin",
    "SELECT origin, destination, count(*) AS n FROM FLIGHTS GROUP BY ALL ORDER BY n DESC, "
    "origin, destination LIMIT 25",
    "SELECT DISTINCT destination FROM FLIGHTS WHERE origin = 'SFO' ORDER BY destination",
    "SELECT delay // 60 AS hours, count(*) FROM FLIGHTS WHERE delay IS NOT NULL GROUP BY 1 "
    "ORDER BY 1",
    "SELECT date::DATE AS day, count(*), sum(distance) FROM FLIGHTS WHERE date < TIMESTAMP "
    "'2001-01-08' GROUP BY day ORDER BY day",
    "SELECT sum(delay), avg(delay), count(*) FROM FLIGHTS",
    "SELECT l_orderkey, sum(l_quantity) AS q FROM LINEITEM GROUP BY l_orderkey HAVING "
    "sum(l_quantity) > 300 ORDER BY l_orderkey",
};

// DuckDB's other aggregates (aggregate_library.h): collecting, picking, logical, moments,
// bits, quantiles, mode and arg_min / arg_max, grouped and not, with NULLs in the input.
// DuckDB's other aggregates (aggregate_library.h): collecting, picking, logical, moments,
// bits, quantiles, mode and arg_min / arg_max, grouped and not, with NULLs in the input. The
// order-dependent ones (list, string_agg, first, last, mode's ties) read few enough rows that
// both engines see them in file order.
const std::vector<std::string> kLibraryAggregateQueries = {
    "SELECT o_orderpriority, list(o_orderkey), count(*) FROM ORDERS WHERE o_orderkey < 40 "
    "GROUP BY ALL ORDER BY 1",
    "SELECT l_linenumber, string_agg(l_shipmode, '|'), count_if(l_quantity > 25), "
    "bool_and(l_quantity > 0), bool_or(l_quantity > 49) FROM LINEITEM WHERE l_orderkey < 8 "
    "GROUP BY ALL ORDER BY 1",
    "SELECT l_returnflag, first(l_orderkey), last(l_orderkey), any_value(l_comment), "
    "min_by(l_orderkey, l_extendedprice), max_by(l_orderkey, l_extendedprice), "
    "arg_min(l_partkey, l_shipdate), arg_max(l_partkey, l_shipdate), mode(l_linenumber) FROM "
    "LINEITEM WHERE l_orderkey < 40 GROUP BY ALL ORDER BY 1",
    "SELECT origin, median(delay), quantile_cont(delay, 0.9), quantile_disc(delay, 0.9), "
    "quantile(distance, 0.25), bit_and(distance), bit_or(distance), bit_xor(distance) FROM "
    "FLIGHTS WHERE origin IN ('SFO', 'BOS', 'SEA') GROUP BY ALL ORDER BY 1",
    "SELECT round(stddev_samp(delay), 6), round(stddev_pop(delay), 6), round(var_samp(delay), "
    "3), round(var_pop(delay), 3), round(variance(distance), 3), round(stddev(distance), 6) "
    "FROM FLIGHTS WHERE origin = 'LAX'",
    "SELECT l_shipmode, round(product(l_discount + 1), 6), median(l_linenumber), "
    "quantile_disc(l_tax, 0.5) FROM LINEITEM WHERE l_orderkey < 2000 GROUP BY ALL ORDER BY 1",
    "SELECT list(x), string_agg(x, '-'), string_agg(x), first(x), last(x), any_value(x), "
    "count_if(x > 1), product(x), median(x), mode(x) FROM (SELECT CASE WHEN range % 3 = 0 "
    "THEN NULL ELSE range END AS x FROM range(10)) t",
    "SELECT list(x), string_agg(x, ','), bool_and(x > 0), median(x), var_samp(x), var_pop(x) "
    "FROM (SELECT range AS x FROM range(1)) t WHERE x > 5",
    "SELECT var_samp(x), var_pop(x), stddev_samp(x) FROM (SELECT 7 AS x) t",
};

const std::vector<std::string> kOrderQueries = {
    "SELECT o_orderkey, o_totalprice FROM ORDERS ORDER BY o_totalprice DESC, o_orderkey LIMIT 10",
    "SELECT o_orderkey, o_orderdate FROM ORDERS ORDER BY o_orderdate, o_orderkey DESC LIMIT 7 "
    "OFFSET 100",
    "SELECT date, delay, distance, origin FROM FLIGHTS ORDER BY delay DESC NULLS LAST, date, "
    "origin, distance LIMIT 12",
    "SELECT origin, date FROM FLIGHTS ORDER BY origin DESC, date DESC, distance, delay, "
    "destination LIMIT 5",
    "SELECT l_comment FROM LINEITEM ORDER BY l_comment LIMIT 5",
    "SELECT o_clerk, o_orderkey FROM ORDERS WHERE o_orderkey < 2000 ORDER BY o_clerk, "
    "o_orderkey",
};

TEST(SqlDifferentialTest, FiltersEqualDuckDB) { CompareWithDuckDB(kFilterQueries, 2); }
TEST(SqlDifferentialTest, AggregatesEqualDuckDB) { CompareWithDuckDB(kAggregateQueries, 2); }
TEST(SqlDifferentialTest, OrderByEqualDuckDB) { CompareWithDuckDB(kOrderQueries, 2); }
TEST(SqlDifferentialTest, SingleThreadEqualsDuckDB) { CompareWithDuckDB(kAggregateQueries, 1); }
TEST(SqlDifferentialTest, LibraryAggregatesEqualDuckDB) {
  CompareWithDuckDB(kLibraryAggregateQueries, 2);
}

}  // namespace
}  // namespace tarn
