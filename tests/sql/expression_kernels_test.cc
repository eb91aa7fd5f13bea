// The vectorized expression kernels (casts to and from text and between numbers and dates,
// string functions, greatest / least / nullif, CASE and COALESCE, calendar arithmetic,
// struct_pack / list_value and list elements) against DuckDB: each expression over 5,000 rows
// with NULLs, edge values and text that does and does not convert, evaluated in both engines
// and compared as CSV text; expressions that must fail fail in both.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "support/oracle.h"
#include "support/sql_test_util.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::TarnCsv;

// Every shape of operand the kernels meet: NULLs at different rates per column, negative and
// large values, text of every kind a cast reads.
const char* const kTable =
    "(SELECT i, "
    "CASE WHEN i % 11 = 3 THEN NULL ELSE i * 37 - 90000 END AS n, "
    "CASE WHEN i % 13 = 5 THEN NULL ELSE (i * 1.25 - 3000)::DOUBLE / 3 END AS d, "
    "CASE WHEN i % 9 = 2 THEN NULL ELSE ['12', ' 7', '-0', 'x', '3.5', '1e3', '', 'Ünï', "
    "'abc', '2020-02-29', '2021-13-01', '99999999999999999999', '-42', '+8', '0042', "
    "'1999-1-5', 'ABC def', '1.5e-3', 'inf', '2020-02-29 10:11:12.5'][i % 20 + 1] END AS s, "
    "CASE WHEN i % 17 = 1 THEN NULL ELSE DATE '1999-12-25' + (i * 7 - 10000)::INTEGER END AS dt, "
    "CASE WHEN i % 19 = 4 THEN NULL ELSE TIMESTAMP '1990-03-04 05:06:07.123456' + "
    "to_seconds(i * 86413 - 200000000) END AS ts, "
    "CASE WHEN i % 7 = 6 THEN NULL ELSE ((i * 7919) % 20000 - 10000)::DECIMAL(9, 2) / 8 END AS m "
    "FROM range(5000) r(i)) t";

const std::vector<std::string> kExpressions = {
    // To text.
    "n::VARCHAR", "d::VARCHAR", "m::VARCHAR", "dt::VARCHAR", "ts::VARCHAR", "(n % 3 = 0)::VARCHAR",
    "(d * 1e20)::VARCHAR", "(d / 1e9)::VARCHAR", "d::FLOAT::VARCHAR", "n::HUGEINT::VARCHAR",
    "(i % 200)::UTINYINT::VARCHAR", "ts::TIMESTAMP_S::VARCHAR", "ts::TIMESTAMP_MS::VARCHAR",
    // From text.
    "TRY_CAST(s AS BIGINT)", "TRY_CAST(s AS INTEGER)", "TRY_CAST(s AS TINYINT)",
    "TRY_CAST(s AS UBIGINT)", "TRY_CAST(s AS DOUBLE)", "TRY_CAST(s AS DECIMAL(10, 2))",
    "TRY_CAST(s AS DATE)", "TRY_CAST(s AS TIMESTAMP)", "TRY_CAST(s AS FLOAT)",
    "n::VARCHAR::BIGINT", "d::VARCHAR::DOUBLE", "dt::VARCHAR::DATE", "ts::VARCHAR::TIMESTAMP",
    "m::VARCHAR::DECIMAL(9, 2)",
    // Between numbers, and dates and timestamps.
    "TRY_CAST(n AS TINYINT)", "TRY_CAST(n AS USMALLINT)", "n::DECIMAL(18, 3)",
    "TRY_CAST(n AS DECIMAL(4, 1))", "m::DECIMAL(12, 4)", "m::DECIMAL(5, 0)", "TRY_CAST(m AS DECIMAL(3, 1))",
    "m::INTEGER", "TRY_CAST(round(m) AS TINYINT)", "m::DOUBLE", "TRY_CAST(d AS INTEGER)", "d::BIGINT",
    "TRY_CAST(d * 1e9 AS INTEGER)", "(d * 0.5)::SMALLINT", "dt::TIMESTAMP", "ts::DATE",
    // Strings.
    "'x' || s || n", "s || NULL", "concat(s, n, NULL, dt)", "lower(s)", "upper(s)", "length(s)",
    "replace(s, '1', 'one')", "replace(s, '', 'z')", "replace(n::VARCHAR, '0', s)", "trim(s)",
    "ltrim(s, ' 1-')", "rtrim(s, 'c3')", "starts_with(s, '1')", "contains(s, 'b')",
    "ends_with(s, '9')", "upper(s || 'ß')",
    // greatest, least, nullif.
    "greatest(n, i, -5)", "least(n, i * 3)", "greatest(d, 0.5, NULL)", "least(d, n)",
    "nullif(n % 3, 0)", "nullif(d, 2.5)", "greatest(dt, DATE '2000-01-01')", "least(m, 1.5)",
    "greatest(NULL::BIGINT, n)",
    // CASE and COALESCE.
    "CASE WHEN n % 3 = 0 THEN n WHEN n % 3 = 1 THEN -n END",
    "CASE WHEN s IS NULL THEN 'none' WHEN length(s) > 3 THEN upper(s) ELSE s END",
    "coalesce(n, i, 0)", "coalesce(s, n::VARCHAR)", "coalesce(NULL, d, m)",
    "CASE i % 4 WHEN 0 THEN d WHEN 1 THEN NULL ELSE 1.5 END",
    "CASE WHEN i % 2 = 0 THEN [n, i] ELSE [i] END",
    "CASE WHEN n > 0 THEN 100 // (i % 5) ELSE 0 END",
    // Branches that cannot fail: every branch over the whole batch, then chosen per row.
    "CASE WHEN n % 3 = 0 THEN n WHEN d > 0 THEN i END", "coalesce(n % 7, i % 3, 9)",
    "CASE WHEN n IS NULL THEN d WHEN n % 2 = 0 THEN NULL ELSE d * 2 END",
    "CASE WHEN i % 3 = 0 THEN m WHEN NULL THEN 1 END", "coalesce(NULL, dt, DATE '2000-01-01')",
    "CASE i % 5 WHEN 1 THEN ts WHEN 2 THEN NULL ELSE ts - INTERVAL 1 DAY END",
    // Calendar arithmetic.
    "dt + (i % 100)::INTEGER", "dt - (n % 1000)::INTEGER", "dt - DATE '2000-01-01'",
    "ts + INTERVAL 1 MONTH", "ts - INTERVAL '3 days 2 hours'", "(dt + 1)::VARCHAR",
    // Nested.
    "{'a': n, 'b': s}.b", "[n, i, n + 1][2]", "[n, i][-1]", "[s, 'x'][3]", "list_value(n, i)",
    "struct_pack(x := d, y := dt)", "[s, NULL, upper(s)][n % 4]",
    // Dates and timestamps: every part, truncation, difference and format.
    "year(dt)", "month(ts)", "date_part('hour', ts)", "date_trunc('month', ts)",
    "quarter(dt)", "dayofweek(ts)", "isodow(dt)", "dayofyear(ts)", "week(dt)", "isoyear(dt)",
    "yearweek(ts)", "decade(dt)", "century(ts)", "millennium(dt)", "era(ts)", "millisecond(ts)",
    "microsecond(ts)", "second(ts)", "minute(ts)", "dayofmonth(dt)", "weekday(dt)",
    "extract(doy FROM ts)", "extract('yrs' FROM dt)", "date_part('dow', dt)",
    "date_part('epoch', ts)", "epoch(dt)", "epoch_ms(ts)", "epoch_us(ts)", "epoch_ms(n)",
    "date_part(['year', 'week'][i % 2 + 1], ts)",
    "date_trunc('year', dt)", "date_trunc('quarter', ts)", "date_trunc('week', dt)",
    "date_trunc('day', ts)", "date_trunc('hour', ts)", "date_trunc('minute', ts)",
    "date_trunc('second', ts)", "date_trunc('millisecond', ts)", "date_trunc('decade', dt)",
    "date_trunc('century', ts)", "date_trunc('millennium', dt)",
    "date_diff('year', dt, ts)", "date_diff('quarter', ts, dt)", "date_diff('month', dt, ts)",
    "date_diff('week', dt, DATE '2000-01-01')", "date_diff('day', ts, dt)",
    "datediff('hour', dt, ts)", "date_diff('minute', ts, TIMESTAMP '2001-01-01 00:00:00')",
    "date_diff('second', dt, ts)", "date_diff('millisecond', ts, ts + to_seconds(i))",
    "date_diff('decade', dt, DATE '2000-01-01')", "date_diff('century', dt, DATE '2000-01-01')",
    "strftime(ts, '%Y-%m-%d %H:%M:%S.%f')", "strftime(dt, '%a %A %w %-d %b %B %-m %y %-y')",
    "strftime(ts, '%I %-I %p %-H %-M %-S %g %j %-j %U %W %%')", "strftime(dt, '%c|%x|%X')",
    "strftime('%d/%m/%Y', dt)", "strftime(ts, '%G-W%V-%u %h %z')",
    "strptime(strftime(ts, '%Y-%m-%d %H:%M:%S.%f'), '%Y-%m-%d %H:%M:%S.%f')",
    "strptime(strftime(dt, '%d/%m/%y'), '%d/%m/%y')",
    "strptime(strftime(ts, '%A %-d %B %Y %-I:%M %p'), '%A %-d %B %Y %-I:%M %p')",
    "try_strptime(s, '%Y-%m-%d')", "strptime(strftime(dt, '%Y %j'), '%Y %j')",
    "dayname(dt)", "monthname(ts)", "last_day(dt)", "last_day(ts)",
    "make_date(year(dt), month(dt), 1)", "make_timestamp(2000, i % 12 + 1, i % 28 + 1, i % 24, i % 60, (i % 600) / 10)",
    // Intervals from numbers, and timestamps moved by a different interval on each row.
    "to_seconds(d)", "to_milliseconds(d * 1000)", "to_microseconds(n)", "to_minutes(n)",
    "to_hours(n // 7)", "to_days((n // 30)::INTEGER)", "to_weeks((n // 300)::INTEGER)",
    "to_months((n // 1000)::INTEGER)", "to_years((n // 20000)::INTEGER)",
    "ts + to_seconds(d)", "ts - to_hours(n // 7)", "ts + to_months((n // 1000)::INTEGER)",
    "ts - to_days((n // 30)::INTEGER) + to_minutes(i)",
    "date_trunc('month', TIMESTAMP '2020-01-01 00:00:00' + to_seconds(i * 7919))",
    // CASE whose branches may overflow: over the whole batch, or row subsets on an error.
    "CASE WHEN n > 0 THEN -n WHEN n < -50000 THEN n * 3 ELSE n // 2 END",
    "CASE WHEN i < 1000 THEN i * 9223372036854775 WHEN i % 3 = 1 THEN -i END",
    "CASE WHEN i < 1000 THEN 9223372036854775807 - i * 9223372036854775 ELSE m * 2 END",
    // One branch and no ELSE (FILTER (WHERE ...)): masked over the whole batch.
    "CASE WHEN n > 0 THEN d END", "CASE WHEN s IS NULL THEN m END", "CASE WHEN d < 0 THEN 1 END",
    "CASE WHEN dt < DATE '2000-01-01' THEN ts END", "CASE WHEN n % 3 = 0 THEN NULL::INTEGER END",
    "CASE WHEN i % 2 = 0 THEN 9223372036854775807 * (i % 2 + 1) END",
    "CASE WHEN i % 2 = 0 THEN n END", "CASE WHEN NULL THEN n END",
    // No NULL among the arguments; COALESCE whose later arguments may overflow.
    "greatest(i % 7, i % 11, i // 450)", "least(i, 2500 - i, 17)", "least(i::INTEGER, 40)",
    "coalesce(nullif(i % 13, 0), 5)", "coalesce(NULL::BIGINT, NULL::BIGINT)",
    "coalesce(n, 9223372036854775807 * CASE WHEN n IS NULL THEN 1 ELSE 2 END)", "coalesce(n, ts::DATE - dt, -1)",
    // Integer // and % by a constant (a multiplication by its reciprocal), of every width.
    "n % 7", "n // 7", "n % -7", "n // -7", "n % 1", "n // 1", "n % -1", "n // -1", "n % 0",
    "n // 0", "i % 1000", "i // 3", "n % 9223372036854775807", "(n * 1000003) % 1000000007",
    "(i % 100)::TINYINT % 3", "(i % 100 - 50)::TINYINT // -6", "(n // 10)::SMALLINT % 99",
    "n::INTEGER // 13", "n::INTEGER % -1000", "(i % 200)::UTINYINT // 7",
    "(i % 60000)::USMALLINT % 1000", "(i * 1000)::UINTEGER // 13", "(i * 1000)::UBIGINT % 17",
    "n::HUGEINT % 7", "-9223372036854775807 - 1 + i % 2 - i % 2 + 0 * n",
    // Integers to DECIMAL in 64 bits; DECIMAL products that cannot leave their precision.
    "(i * 1000)::UINTEGER::DECIMAL(12, 2)", "(i * 1000)::UBIGINT::DECIMAL(18, 2)",
    "(i % 100)::TINYINT::DECIMAL(4, 1)", "TRY_CAST(n AS DECIMAL(6, 2))", "m * m", "m * 1.5",
    "1.5 * m", "n::DECIMAL(18, 0) * n::DECIMAL(18, 0)", "m * n::DECIMAL(18, 3)", "m * NULL",
    "(i * 1000)::UBIGINT::DECIMAL(18, 2) * m",
    // DECIMAL +, - and * of 18 digits or fewer in 64-bit registers (TPC-H Q1's shape), NULLs.
    "n::DECIMAL(15, 2) * (1 - (n % 100)::DECIMAL(15, 2)) * (1 + (n % 7)::DECIMAL(15, 2))",
    "n::DECIMAL(18, 4) * (1 - (n % 100)::DECIMAL(16, 2))", "(n % 100)::DECIMAL(15, 2) + n::DECIMAL(15, 2)",
    "n::DECIMAL(15, 2) - 99999.5", "(n * 1000)::DECIMAL(18, 0) * n::DECIMAL(18, 0)",
    // +, - and * over whole batches, an overflow found after the loop.
    "i * 3 + 7 - i", "i * 1844674407370955 - i", "(i % 60)::TINYINT * 2",
    // IN lists: a bitmap over a narrow span, a few values far apart, many far apart; NULL in
    // the operand and in the list; unsigned and narrow types; text and doubles.
    "n % 1000 IN (1, 7, 42, 99, 999)", "n IN (-89963, 1, 3000000000)", "i IN (0, 5, 17, NULL)",
    "n NOT IN (1, 2, NULL)", "n NOT IN (-89963, 0)", "i % 1000 NOT IN (3, 4)",
    "n IN (-90000, -89963, -89926, -80000, -70000, -60000, -50000, 0, 10000, 20000, 30000, "
    "40000, 50000, 60000, 70000, 80000, 90000, 94963, 100000, 110000)",
    "(i % 200)::UTINYINT IN (3, 4, 199)", "(i % 60000)::USMALLINT NOT IN (5, 4999)",
    "(i * 1000)::UINTEGER IN (1000, 4999000)", "(n // 10)::SMALLINT IN (-9000, 5, 9499)",
    "(i % 100)::TINYINT IN (1, 2, -3)", "d IN (0.5, -999.5833333333334)", "s IN ('12', 'x', NULL)",
    "s NOT IN ('abc', '')", "dt IN (DATE '1972-08-10', DATE '1999-12-25')",
};

// Expressions that fail in DuckDB must fail in tarn with a conversion error or DuckDB's class
// of error.
const std::vector<std::string> kFailing = {
    "CAST(s AS BIGINT)", "CAST(s AS DATE)", "CAST(n AS TINYINT)", "CAST(m AS DECIMAL(3, 1))",
    "CAST(d * 1e12 AS INTEGER)", "strptime(s, '%Y-%m-%d')", "make_date(2021, 2, 29 + i % 2)",
    "to_minutes(n * 1000000000000)", "to_seconds(d * 1e300)",
    "CASE WHEN i % 2 = 0 THEN i * 9223372036854775807 ELSE 0 END",
    "(i % 100)::TINYINT * 2", "i * 1844674407370955 * 2", "(i - 2) * -4611686018427387904",
    "(n * 100000)::DECIMAL(18, 0) * (n * 100000)::DECIMAL(18, 0)",
    "(n * 10000000000000)::DECIMAL(18, 0) + 999999999999999999::DECIMAL(18, 0)",
};

// The first line where `actual` and `expected` differ, both shown; empty when they are equal.
std::string FirstDifference(const std::string& actual, const std::string& expected) {
  size_t a = 0, e = 0;
  while (a < actual.size() || e < expected.size()) {
    const size_t a_end = std::min(actual.find('\n', a), actual.size());
    const size_t e_end = std::min(expected.find('\n', e), expected.size());
    const std::string_view a_line(actual.data() + a, a_end - a);
    const std::string_view e_line(expected.data() + e, e_end - e);
    if (a_line != e_line || (a >= actual.size()) != (e >= expected.size())) {
      return "tarn: " + std::string(a_line) + "\nDuckDB: " + std::string(e_line);
    }
    a = a_end + 1;
    e = e_end + 1;
  }
  return "";
}

std::string Query(const std::string& expression) {
  return "SELECT i, " + expression + " AS e FROM " + kTable + " ORDER BY i";
}

TEST(ExpressionKernels, EqualDuckDB) {
  std::vector<std::string> queries;
  for (const std::string& e : kExpressions) queries.push_back(Query(e));
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  for (int threads : {1, 2}) {
    Session session;
    ASSERT_TRUE(session.Execute("SET threads = " + std::to_string(threads)).ok());
    for (size_t k = 0; k < queries.size(); ++k) {
      ASSERT_TRUE(expected[k].ok()) << kExpressions[k] << "\n" << expected[k].status().ToString();
      Result<std::string> actual = TarnCsv(&session, queries[k]);
      ASSERT_TRUE(actual.ok()) << kExpressions[k] << "\n" << actual.status().ToString();
      EXPECT_EQ(FirstDifference(*actual, *expected[k]), "") << kExpressions[k];
    }
  }
}

TEST(ExpressionKernels, FailuresEqualDuckDB) {
  std::vector<std::string> queries;
  for (const std::string& e : kFailing) queries.push_back(Query(e));
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  Session session;
  for (size_t k = 0; k < queries.size(); ++k) {
    ASSERT_FALSE(expected[k].ok()) << kFailing[k];
    Result<std::string> actual = TarnCsv(&session, queries[k]);
    ASSERT_FALSE(actual.ok()) << kFailing[k];
    const std::string message = actual.status().message();
    std::string duckdb = expected[k].status().message();
    if (duckdb.starts_with("DuckDB error: ")) duckdb = duckdb.substr(14);
    const std::string error_class = duckdb.substr(0, duckdb.find(':'));  // "Out of Range Error"
    EXPECT_TRUE(message.find("Conversion Error") != std::string::npos ||
                message.find("Could not parse string") != std::string::npos ||
                message.find(error_class) != std::string::npos)
        << kFailing[k] << ": " << actual.status().message() << "\nDuckDB: "
        << expected[k].status().message();
  }
}

}  // namespace
}  // namespace tarn
