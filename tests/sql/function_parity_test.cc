// Scalar functions and aggregates against DuckDB: hash (DuckDB's exact values), digests, text
// and numeric functions, map and list functions, the statistical aggregates and ordered
// aggregates (f(x ORDER BY k)), each over a table with NULLs, empty strings and lists, edge
// values and several groups, evaluated in both engines (at 1 and 2 threads in tarn) and
// compared as CSV text; expressions that fail in DuckDB fail in tarn with DuckDB's class of
// error.
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

const char* const kTable =
    "(SELECT i, "
    "CASE WHEN i % 11 = 3 THEN NULL ELSE i * 37 - 30000 END AS n, "
    "CASE WHEN i % 13 = 5 THEN NULL ELSE (i * 1.25 - 1000)::DOUBLE / 3 END AS d, "
    "CASE WHEN i % 9 = 2 THEN NULL ELSE ['kitten', 'sitting', '', 'Ünïcödé', 'a,b,,c', "
    "'héllo wörld', 'abc', 'x', 'café', '👨‍👩‍👧 family', 'YWJj', 'Hello World', "
    "'a::b::c', 'Straße'][i % 14 + 1] END AS s, "
    "CASE WHEN i % 7 = 4 THEN NULL ELSE ['sitting', 'kitten', 'abd', 'b', ''][i % 5 + 1] END AS s2, "
    "CASE WHEN i % 8 = 1 THEN NULL ELSE [i % 5, NULL, i % 3, i % 5 + 1][1:i % 5] END AS l, "
    "CASE WHEN i % 10 = 7 THEN NULL ELSE MAP {'k' || (i % 3): i, 'z': -i} END AS mp, "
    "(i % 7) AS g "
    "FROM range(1500) r(i)) t";

const std::vector<std::string> kExpressions = {
    // hash: DuckDB's values for every type, NULLs and several arguments.
    "hash(i)", "hash(n)", "hash(n::INTEGER)", "hash((i % 100)::TINYINT)", "hash(n::HUGEINT)",
    "hash(d)", "hash(d::FLOAT)", "hash(s)", "hash((n::VARCHAR || s2)::BLOB)", "hash(NULL)", "hash(n, s)",
    "hash(s, n, d)", "hash(l)", "hash({'a': n, 'b': s})", "hash(mp)", "hash(n::DECIMAL(18, 2))",
    "hash((n // 10)::DECIMAL(4, 0))", "hash(n::DECIMAL(30, 3))", "hash(DATE '2000-01-01' + i::INTEGER)",
    "hash(TIMESTAMP '2000-01-01' + to_seconds(n))", "hash(to_days(i::INTEGER))",
    "hash(i::UBIGINT)", "hash(s || n)",
    // Digests.
    "sha256(s)", "sha1(s)", "md5((n::VARCHAR || s2)::BLOB)", "md5_number(s)", "md5_number_upper(s)",
    "md5_number_lower(s)", "sha256((s2 || n)::BLOB)",
    // Text.
    "reverse(s)", "concat_ws(',', s, n, NULL, s2)", "concat_ws(s2, s, n)", "split_part(s, ',', 2)",
    "split_part(s, '::', -1)", "split_part(s, '', (i % 4)::INTEGER)", "translate(s, 'aeö', 'AE')",
    "strip_accents(s)", "unicode(s)", "ord(s)", "bit_length(s)", "strlen(s)", "length_grapheme(s)",
    "octet_length((s2 || i)::BLOB)", "levenshtein(s, s2)", "editdist3(s, s2)", "damerau_levenshtein(s, s2)",
    "jaro_similarity(s, s2)", "jaro_winkler_similarity(s, s2)",
    "CASE WHEN s <> '' AND s2 <> '' THEN jaccard(s, s2) END",
    "CASE WHEN length(s) = 3 THEN hamming(s, 'abd') END", "base64((s2 || n)::BLOB)",
    "from_base64(base64((s2 || n)::BLOB))::VARCHAR", "to_base(abs(n), (i % 35 + 2)::INTEGER)",
    "to_base(i, 2, 12)", "bin(n)", "bin(s)", "format_bytes(n * 12345)",
    "formatReadableDecimalSize(n * 12345)", "url_encode(s)", "url_decode(url_encode(s))",
    "regexp_escape(s)", "position('l' IN s)", "s[2]", "s[-1]",
    // Numbers.
    "gcd(n, i)", "lcm(n % 1000, i % 100)", "factorial((i % 30)::INTEGER)", "even(d)", "even(n)",
    "nextafter(d, 0)", "nextafter(d::FLOAT, 1::FLOAT)", "signbit(d)", "round_even(d, 1)",
    "roundbankers(n / 10, 0)", "fmod(d, 7)", "mod(n, 7)", "divide(n, 7)", "add(n, i)",
    "subtract(n, i)", "multiply(n, 3)", "sinh(d / 1000)", "cosh(d / 1000)", "tanh(d / 100)",
    "asinh(d)", "acosh(abs(d) + 1)", "atanh(d / 1000)", "gamma(i % 20 + 0.5)", "lgamma(i + 1)",
    "trunc(n::DECIMAL(10, 2) / 7)",
    // Maps.
    "map_extract(mp, 'k' || (i % 4))", "element_at(mp, 'z')", "map_keys(mp)", "map_values(mp)",
    "cardinality(mp)", "map_entries(mp)", "map_contains(mp, 'k1')",
    "map_concat(mp, MAP {'z': 0, 'new': i})", "map_from_entries([(coalesce(s, '-'), n), ('zz', i)])",
    // Lists.
    "generate_series(i % 5)", "generate_series(i % 3, i % 7)", "generate_series(i % 7, 0, -2)",
    "list_has_any(l, [1, 2])", "list_has_all(l, [0])", "array_has_any(l, [NULL])",
    "list_extract(l, (i % 7 - 3)::INTEGER)", "list_element(s, (i % 5 - 2)::INTEGER)",
    "array_pop_back(l)", "array_pop_front(l)", "list_resize(l, i % 4)",
    "list_resize(l, i % 4, -1)", "list_select(l, [3, 1, 9])",
    "list_where(l, [true, false, true, true])", "list_grade_up(l)", "list_grade_up(l, 'DESC')",
    "list_any_value(l)", "list_dot_product(list_filter(l, x -> x IS NOT NULL), [1, 2, 3, 4][1:len(list_filter(l, x -> x IS NOT NULL))])",
    "CASE WHEN NOT list_contains(l, NULL) THEN list_distance(l, l) END",
    "list_cosine_similarity([1.0, coalesce(d, 0)], [coalesce(d, 1), 2.0])", "list_cosine_distance([1.0, coalesce(d, 0)], [coalesce(d, 1), 2.0])",
    "list_negative_inner_product([coalesce(d, 3)], [2.0])", "array_value(n, i)",
    "contains(l, 1)", "contains(l, NULL)", "list_first(l)", "list_last(l)", "list_median(l)",
    "list_mode(l)", "list_product(l)", "list_string_agg(l)", "list_stddev_samp(l)",
    "list_var_pop(l)", "list_bool_or(list_transform(l, x -> x > 1))", "list_bit_xor(l)",
    "list_kurtosis(l || [i % 4, 7])", "list_skewness(l || [i % 4])", "list_entropy(l)",
    "list_histogram(l)", "list_approx_count_distinct(l)", "list_mad(l)",
    "list_aggregate(l, 'median')", "list_aggregate(l, 'string_agg')",
    "date_add(DATE '2000-01-01' + i::INTEGER, INTERVAL 5 DAY)",
    "time_bucket(INTERVAL 5 DAY, DATE '1995-03-01' + n::INTEGER)",
    "time_bucket(INTERVAL 7 MONTH, TIMESTAMP '1990-01-01' + to_hours(n))",
    "time_bucket(INTERVAL 90 MINUTE, TIMESTAMP '2000-01-01' - to_minutes(n), INTERVAL 10 MINUTE)",
    "time_bucket(INTERVAL 1 YEAR, DATE '2000-01-01' + n::INTEGER, TIMESTAMP '1999-07-01')",
    "time_bucket(INTERVAL 2 MONTH, DATE '2001-01-01' + n::INTEGER, INTERVAL 3 DAY)",
    "make_time(i % 24, i % 60, d / 1000 + 30)",
    "date_add(TIMESTAMP '2000-01-01' + to_hours(i), to_months((i % 13)::INTEGER))",
};

const std::vector<std::string> kFailing = {
    "hamming(s, s2)", "jaccard(s, '')", "to_base(n, 2)", "to_base(i, 1)",
    "from_base64(s)", "factorial((i % 40)::INTEGER)", "factorial(-1 - i::INTEGER)",
    "gamma(i * 0)", "map_from_entries([(s, n), (s, i)])", "list_dot_product(l, [1])",
    "list_where(l, [NULL::BOOLEAN])", "time_bucket(INTERVAL '1 month 1 day', TIMESTAMP '2020-01-01')",
    "time_bucket(INTERVAL 0 DAY, TIMESTAMP '2020-01-01' + to_days(i::INTEGER))", "make_time(25 + i, 0, 0)",
};

// Aggregates, grouped and over the whole table and over no row.
const std::vector<std::string> kAggregates = {
    "corr(n, d)", "corr(n, 1)", "covar_pop(n, d)", "covar_samp(n, i)", "regr_slope(d, n)",
    "regr_intercept(d, n)", "regr_r2(d, n)", "regr_r2(1, n)", "regr_count(d, n)",
    "regr_avgx(d, n)", "regr_avgy(d, n)", "regr_sxx(d, n)", "regr_syy(d, n)", "regr_sxy(d, n)",
    "kurtosis(n)", "kurtosis_pop(d)", "skewness(n)", "entropy(n % 5)", "entropy(i % 3)",
    "histogram(n % 5)", "histogram(s)", "approx_count_distinct(n)", "approx_count_distinct(s)",
    "approx_count_distinct(i % 50)", "fsum(d)", "favg(d)", "sumkahan(n)", "geomean(i + 1)",
    "mad(n)", "mad(d)", "arg_max(s, n, 3)", "arg_min(i, n, 2)", "max(n, 3)", "min(s, 2)",
    "stddev(n)", "variance(d)", "var_pop(n)", "stddev_pop(d)", "product(d / 100) IS NULL",
    "bit_xor(n)", "bool_or(n > 0)",
    // Ordered aggregates.
    "list(i ORDER BY n DESC, i)", "string_agg(s, '|' ORDER BY s, i)", "array_agg(n ORDER BY d, i)",
    "first(s ORDER BY n NULLS FIRST, i)", "last(s ORDER BY n, i)",
    "first(i ORDER BY i DESC) FILTER (WHERE n > 0)", "list(i ORDER BY i DESC) FILTER (WHERE n IS NULL)",
    "list(DISTINCT i % 10 ORDER BY i % 10 DESC)", "string_agg(DISTINCT s, ',' ORDER BY s DESC)",
    "arg_min(s, n ORDER BY i)", "list(n ORDER BY 1)", "list(n) FILTER (WHERE i % 3 = 0)",
    "first(n) FILTER (WHERE n IS NULL OR i % 5 = 0)", "last(s) FILTER (WHERE s <> '')",
    "count(n ORDER BY n)", "sum(n ORDER BY d DESC)",
};

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

// Each aggregate per group, over the whole table, and over no row.
std::vector<std::string> AggregateQueries(const std::string& aggregate) {
  return {"SELECT g, " + aggregate + " AS a FROM " + kTable + " GROUP BY g ORDER BY g",
          "SELECT " + aggregate + " AS a FROM " + kTable,
          "SELECT " + aggregate + " AS a FROM " + kTable + " WHERE i < 0",
          "SELECT g, " + aggregate + " AS a FROM " + kTable + " WHERE i < 0 GROUP BY g"};
}

void ExpectEqualDuckDB(const std::vector<std::string>& queries) {
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  for (int threads : {1, 2}) {
    Session session;
    ASSERT_TRUE(session.Execute("SET threads = " + std::to_string(threads)).ok());
    for (size_t k = 0; k < queries.size(); ++k) {
      ASSERT_TRUE(expected[k].ok()) << queries[k] << "\n" << expected[k].status().ToString();
      Result<std::string> actual = TarnCsv(&session, queries[k]);
      ASSERT_TRUE(actual.ok()) << queries[k] << "\n" << actual.status().ToString();
      EXPECT_EQ(FirstDifference(*actual, *expected[k]), "") << queries[k];
    }
  }
}

TEST(FunctionParity, ScalarsEqualDuckDB) {
  std::vector<std::string> queries;
  for (const std::string& e : kExpressions) queries.push_back(Query(e));
  ExpectEqualDuckDB(queries);
}

TEST(FunctionParity, AggregatesEqualDuckDB) {
  std::vector<std::string> queries;
  for (const std::string& a : kAggregates) {
    for (std::string& q : AggregateQueries(a)) queries.push_back(std::move(q));
  }
  ExpectEqualDuckDB(queries);
}

TEST(FunctionParity, FailuresEqualDuckDB) {
  std::vector<std::string> queries;
  for (const std::string& e : kFailing) queries.push_back(Query(e));
  queries.push_back("SELECT list(DISTINCT n ORDER BY i) FROM " + std::string(kTable));
  queries.push_back("SELECT arg_max(n, i, 0) FROM " + std::string(kTable));
  queries.push_back("SELECT max(n, -1) FROM " + std::string(kTable));
  queries.push_back("SELECT lower(s ORDER BY i) FROM " + std::string(kTable));
  queries.push_back("SELECT corr(s, n) FROM " + std::string(kTable));
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(queries);
  ASSERT_EQ(expected.size(), queries.size());
  Session session;
  for (size_t k = 0; k < queries.size(); ++k) {
    ASSERT_FALSE(expected[k].ok()) << queries[k];
    Result<std::string> actual = TarnCsv(&session, queries[k]);
    ASSERT_FALSE(actual.ok()) << queries[k];
    const std::string message = actual.status().message();
    std::string duckdb = expected[k].status().message();
    if (duckdb.starts_with("DuckDB error: ")) duckdb = duckdb.substr(14);
    const std::string error_class = duckdb.substr(0, duckdb.find(':'));  // "Out of Range Error"
    EXPECT_NE(message.find(error_class), std::string::npos)
        << queries[k] << ": " << message << "\nDuckDB: " << expected[k].status().message();
  }
}

}  // namespace
}  // namespace tarn
