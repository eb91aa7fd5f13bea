// Inlined rows of nested, interval and TIMETZ columns, stored as a SQLite catalog stores them:
// text in DuckDB's VARCHAR spelling (and the SQL-literal spelling of top-level structs).
//
// The `nested` fixture lake gets a registered ducklake_inlined_data_1_1 whose cells are the
// text DuckDB prints for random values of the table's own column types; a scan must return
// exactly the values DuckDB wrote to Parquet for them, next to the rows of the data files.
// A second table holds INTERVAL and TIMETZ columns the same way.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <random>

#include "support/oracle.h"
#include "table/table_test_util.h"

namespace tarn {
namespace {

using table_testing::BatchesEqual;

std::string Quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') out += '\'';
    out += c;
  }
  return out + "'";
}

std::string RandomString(std::mt19937_64& rng) {
  static const char* kSpecial[] = {"NULL", "", " x ", "it's", "a, b", "[1]", "{k=v}", "\\"};
  if (rng() % 4 == 0) return kSpecial[rng() % 8];
  static const std::string kAlphabet = "ab ,'\"\\[]{}:=N";
  std::string s;
  for (int i = static_cast<int>(rng() % 6); i > 0; --i) s += kAlphabet[rng() % kAlphabet.size()];
  return s;
}

// A random SQL literal for a column of the `nested` fixture's table n, or NULL.
std::string Literal(std::mt19937_64& rng, const std::string& column) {
  auto maybe_null = [&](const std::string& v) { return rng() % 6 == 0 ? std::string("NULL") : v; };
  auto integer = [&]() { return maybe_null(std::to_string(static_cast<int32_t>(rng() % 2001) - 1000)); };
  auto list = [&](auto element) {
    std::string out = "[";
    for (int i = static_cast<int>(rng() % 4); i > 0; --i) {
      out += element();
      if (i > 1) out += ", ";
    }
    return out + "]";
  };
  if (column == "st") {
    static const char* kDoubles[] = {"nan", "-0.0", "inf", "1.25", "-1e300"};
    return maybe_null("{'x': " + integer() + ", 'y': " + maybe_null(Quote(RandomString(rng))) +
                      ", 'z': " +
                      maybe_null(std::string("{'p': CAST('") + kDoubles[rng() % 5] +
                                 "' AS DOUBLE), 'q': " + (rng() % 2 ? "true" : "false") + "}") +
                      "}");
  }
  if (column == "l") return maybe_null(list(integer));
  if (column == "ls") return maybe_null(list([&] { return maybe_null(Quote(RandomString(rng))); }));
  if (column == "m") {
    std::string out = "MAP {";
    const int n = static_cast<int>(rng() % 3);
    for (int i = 0; i < n; ++i) {
      if (i > 0) out += ", ";
      out += Quote("k" + std::to_string(i) + RandomString(rng)) + ": " + integer();
    }
    return maybe_null(out + "}");
  }
  if (column == "ll") return maybe_null(list([&] { return maybe_null(list(integer)); }));
  if (column == "sl") {
    return maybe_null(list([&] {
      return maybe_null("{'a': " + integer() + ", 'b': " + maybe_null(list(integer)) + "}");
    }));
  }
  return integer();
}

TEST(InlinedNestedTest, ScanDecodesTextCellsAsDuckDBWroteThem) {
  testing::TempDir dir;
  const std::string catalog = table_testing::CopyCatalog("nested", dir);
  const std::vector<std::string> columns = {"id", "st", "l", "ls", "m", "ll", "sl"};
  const std::string table_type =
      "id INTEGER, st STRUCT(x INTEGER, y VARCHAR, z STRUCT(p DOUBLE, q BOOLEAN)), "
      "l INTEGER[], ls VARCHAR[], m MAP(VARCHAR, INTEGER), ll INTEGER[][], "
      "sl STRUCT(a INTEGER, b INTEGER[])[]";
  std::mt19937_64 rng(7);
  constexpr int kRows = 150;
  std::string script = "CREATE TABLE n(" + table_type + ");\nINSERT INTO n VALUES ";
  for (int row = 0; row < kRows; ++row) {
    if (row > 0) script += ", ";
    script += "(" + std::to_string(row);
    for (size_t c = 1; c < columns.size(); ++c) script += ", " + Literal(rng, columns[c]);
    script += ")";
  }
  script += ";\nCOPY (SELECT *";
  for (size_t c = 1; c < columns.size(); ++c) script += ", " + columns[c] + "::VARCHAR";
  script += " FROM n ORDER BY id) TO '" + dir.Join("n.parquet") + "' (FORMAT PARQUET);";
  ASSERT_TRUE(testing::DuckDBExecute(script).ok()) << testing::DuckDBExecute(script).ToString();
  auto expected_all = table_testing::ReadParquet(dir.Join("n.parquet"));
  ASSERT_TRUE(expected_all.ok()) << expected_all.status().ToString();
  const Batch& duck = **expected_all;

  // The inlined table as the extension creates it on SQLite: nested columns as VARCHAR.
  auto store = OpenSqliteCatalogStore(catalog, /*read_only=*/false);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE((*store)->Execute("CREATE TABLE ducklake_inlined_data_1_1(row_id BIGINT, "
                                "begin_snapshot BIGINT, end_snapshot BIGINT, id INTEGER, "
                                "st VARCHAR, l VARCHAR, ls VARCHAR, m VARCHAR, ll VARCHAR, "
                                "sl VARCHAR)",
                                {})
                  .ok());
  ASSERT_TRUE((*store)->Execute("INSERT INTO ducklake_inlined_data_tables VALUES "
                                "(1, 'ducklake_inlined_data_1_1', 1)", {}).ok());
  constexpr int64_t kFirstRowId = 100000;
  for (int64_t row = 0; row < kRows; ++row) {
    std::vector<CatalogDatum> params = {CatalogDatum::Integer(kFirstRowId + row),
                                        CatalogDatum::Integer(4), CatalogDatum::Null(),
                                        CatalogDatum::Integer(row)};
    for (size_t c = 1; c < columns.size(); ++c) {
      const Column& text = duck.column(static_cast<int>(columns.size() + c - 1));
      params.push_back(text.IsNull(row) ? CatalogDatum::Null()
                                        : CatalogDatum::Text(std::string(text.GetView(row))));
    }
    auto inserted = (*store)->Execute(
        "INSERT INTO ducklake_inlined_data_1_1 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
        params);
    ASSERT_TRUE(inserted.ok()) << inserted.status().ToString();
  }
  // One top-level struct in the SQL literal spelling a SQLite catalog gets.
  ASSERT_TRUE((*store)->Execute(
      "INSERT INTO ducklake_inlined_data_1_1 VALUES (200000, 4, NULL, -1, "
      "'{''x'': 5, ''y'': ''it''''s'', ''z'': {''p'': CAST(''nan'' AS VARCHAR), ''q'': true}}', "
      "'[1, 2]', NULL, '{a=1}', '[[], NULL]', '[{''a'': 1, ''b'': [NULL]}]')",
      {}).ok());
  store->reset();

  auto lake = table_testing::OpenLake(catalog, table_testing::FixtureDir("nested") + "/data");
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto table = table_testing::LoadTableAt(**lake, 4, "main", "n");
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  TableScanOptions options;
  options.with_rowid = true;
  options.filter = "rowid >= 100000";
  auto scanned = table_testing::Scan(**lake, *table, options);
  ASSERT_TRUE(scanned.ok()) << scanned.status().ToString();
  auto sorted = table_testing::SortBy(**scanned, 0);
  ASSERT_EQ(sorted->num_rows, kRows + 1);

  // Expected: rowid, then DuckDB's values.
  std::vector<Field> fields = {Field("rowid", DataType(TypeId::kInt64))};
  std::vector<std::shared_ptr<Column>> expected_columns;
  ColumnBuilder rowids{DataType(TypeId::kInt64)};
  for (int64_t row = 0; row < kRows; ++row) rowids.AppendNumber<int64_t>(kFirstRowId + row);
  expected_columns.push_back(rowids.Finish());
  for (size_t c = 0; c < columns.size(); ++c) {
    fields.push_back(duck.schema->field(static_cast<int>(c)));
    expected_columns.push_back(duck.columns[c]);
  }
  auto expected = MakeBatch(std::make_shared<Schema>(fields), std::move(expected_columns));
  std::vector<int64_t> first_rows(kRows);
  for (int64_t row = 0; row < kRows; ++row) first_rows[row] = row;
  std::vector<std::shared_ptr<Column>> actual_columns;
  for (const auto& column : sorted->columns) actual_columns.push_back(Take(*column, first_rows));
  auto actual = MakeBatch(sorted->schema, std::move(actual_columns));
  EXPECT_TRUE(BatchesEqual(*expected, *actual));

  // The SQL-literal row: 'it''s' reads as "its" (as DuckDB reads it); CAST('nan' ...) is NaN.
  const Value st = sorted->column(2).GetValue(kRows);
  ASSERT_FALSE(st.is_null());
  EXPECT_EQ(st.children()[0].GetInt64(), 5);
  EXPECT_EQ(st.children()[1].GetBytes(), "its");
  EXPECT_TRUE(std::isnan(st.children()[2].children()[0].GetDouble()));
  EXPECT_EQ(sorted->column(5).GetValue(kRows).ToString(), "{'a'=1}");
}

TEST(InlinedNestedTest, IntervalAndTimeTzColumns) {
  testing::TempDir dir;
  const std::string catalog = table_testing::CopyCatalog("nested", dir);
  std::mt19937_64 rng(11);
  std::string script = "CREATE TABLE t(iv INTERVAL, tt TIMETZ);\nINSERT INTO t VALUES ";
  constexpr int kRows = 200;
  for (int row = 0; row < kRows; ++row) {
    char buf[256];
    std::snprintf(buf, sizeof(buf),
                  "%s(to_months(%d) + to_days(%d) + to_microseconds(%" PRId64 "::BIGINT), "
                  "TIMETZ '%02d:%02d:%02d.%03d%c%02d:%02d')",
                  row > 0 ? ", " : "", static_cast<int>(rng() % 31),
                  static_cast<int>(rng() % 401), static_cast<int64_t>(rng() % 100000001) * 1000,
                  static_cast<int>(rng() % 24), static_cast<int>(rng() % 60),
                  static_cast<int>(rng() % 60), static_cast<int>(rng() % 1000),
                  rng() % 2 ? '+' : '-', static_cast<int>(rng() % 16), static_cast<int>(rng() % 60));
    script += buf;
  }
  script += ";\nCOPY (SELECT iv, tt, iv::VARCHAR, tt::VARCHAR FROM t) TO '" +
            dir.Join("t.parquet") + "' (FORMAT PARQUET);";
  Status executed = testing::DuckDBExecute(script);
  ASSERT_TRUE(executed.ok()) << executed.ToString();
  auto duck = table_testing::ReadParquet(dir.Join("t.parquet"));
  ASSERT_TRUE(duck.ok()) << duck.status().ToString();

  auto store = OpenSqliteCatalogStore(catalog, /*read_only=*/false);
  ASSERT_TRUE(store.ok());
  for (const char* sql : {
           "INSERT INTO ducklake_table VALUES (2, '01a22a6c-0000-0000-0000-000000000002', 4, "
           "NULL, 0, 'it', 'it/', 1)",
           "INSERT INTO ducklake_column VALUES (100, 4, NULL, 2, 1, 'iv', 'interval', NULL, "
           "'NULL', 1, NULL, 'literal', 'duckdb'), (101, 4, NULL, 2, 2, 'tt', 'timetz', NULL, "
           "'NULL', 1, NULL, 'literal', 'duckdb')",
           "CREATE TABLE ducklake_inlined_data_2_1(row_id BIGINT, begin_snapshot BIGINT, "
           "end_snapshot BIGINT, iv INTERVAL, tt \"TIME WITH TIME ZONE\")",
           "INSERT INTO ducklake_inlined_data_tables VALUES (2, 'ducklake_inlined_data_2_1', 1)"}) {
    auto done = (*store)->Execute(sql, {});
    ASSERT_TRUE(done.ok()) << sql << ": " << done.status().ToString();
  }
  for (int64_t row = 0; row < kRows; ++row) {
    auto done = (*store)->Execute(
        "INSERT INTO ducklake_inlined_data_2_1 VALUES (?1, 4, NULL, ?2, ?3)",
        std::vector<CatalogDatum>{CatalogDatum::Integer(row),
                                  CatalogDatum::Text(std::string((*duck)->column(2).GetView(row))),
                                  CatalogDatum::Text(std::string((*duck)->column(3).GetView(row)))});
    ASSERT_TRUE(done.ok()) << done.status().ToString();
  }
  store->reset();
  auto lake = table_testing::OpenLake(catalog, table_testing::FixtureDir("nested") + "/data");
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto table = table_testing::LoadTableAt(**lake, 4, "main", "it");
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  auto scanned = table_testing::Scan(**lake, *table, {});
  ASSERT_TRUE(scanned.ok()) << scanned.status().ToString();
  ASSERT_EQ((*scanned)->num_rows, kRows);
  for (int64_t row = 0; row < kRows; ++row) {
    SCOPED_TRACE((*duck)->column(2).GetValue(row).ToString() + " / " +
                 std::string((*duck)->column(3).GetView(row)));
    EXPECT_EQ((*scanned)->column(0).GetValue(row), (*duck)->column(0).GetValue(row));
    EXPECT_EQ((*scanned)->column(1).GetValue(row).GetInt64(),
              (*duck)->column(1).GetValue(row).GetInt64());
  }

  // A cell that is not an interval: Corruption naming the inlined table and the column.
  lake->reset();
  store = OpenSqliteCatalogStore(catalog, /*read_only=*/false);
  ASSERT_TRUE(store.ok());
  ASSERT_TRUE((*store)->Execute("INSERT INTO ducklake_inlined_data_2_1 VALUES (999, 4, NULL, "
                                "'3 fortnights', '12:00:00+00')", {}).ok());
  store->reset();
  lake = table_testing::OpenLake(catalog, table_testing::FixtureDir("nested") + "/data");
  ASSERT_TRUE(lake.ok());
  table = table_testing::LoadTableAt(**lake, 4, "main", "it");
  ASSERT_TRUE(table.ok());
  auto corrupt = table_testing::Scan(**lake, *table, {});
  ASSERT_FALSE(corrupt.ok());
  EXPECT_TRUE(corrupt.status().IsCorruption()) << corrupt.status().ToString();
  EXPECT_NE(corrupt.status().message().find("ducklake_inlined_data_2_1"), std::string::npos)
      << corrupt.status().ToString();
  EXPECT_NE(corrupt.status().message().find("column iv: '3 fortnights' is not a value of type "
                                            "INTERVAL"),
            std::string::npos)
      << corrupt.status().ToString();
}

}  // namespace
}  // namespace tarn
