// The write type matrix: one table of types × values drives every path that writes a value,
// so a type added later is covered by adding one row to kTypes (or kPromotions).
//
// Each type T gets a table (id INTEGER, v T, l T[], s STRUCT(a T, b INTEGER),
// m MAP(VARCHAR, T)) holding every value of its row (plus NULLs at every level), and the rows
// go through:
// - `COPY … TO` Parquet;
// - a lake INSERT into files (two inserts, so two files), ducklake_merge_adjacent_files, an
//   UPDATE of every third row, a DELETE then ducklake_rewrite_data_files;
// - an inlined INSERT and its ducklake_flush_inlined_data;
// - ALTER TABLE … SET DATA TYPE promotions (kPromotions), with rows before and after;
// - values DuckDB's Parquet writer refuses (kRefused): refused by tarn in the same words.
// After every step, tarn's answer (SELECT … ORDER BY id) and DuckDB's read of the Parquet
// files tarn wrote (through the catalog's files and delete files) must both equal DuckDB's own
// answer to the same SQL: DuckDB runs the same CREATE TABLE and INSERT, writes the table with
// its own Parquet writer and reads it back, casting to the column types as a lake reads a
// file (for inlined rows, DuckDB's table itself). The file column statistics tarn stores for
// every leaf must equal what DuckDB computes over the same values of each file, in the text
// forms the official extension stores, with no bounds where DuckDB's writer keeps none.
//
// All DuckDB work runs in one node process at the end (DuckDBQueryCsvBatch).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>

#include "lake_test_util.h"
#include "support/oracle.h"
#include "support/sql_test_util.h"
#include "support/type_matrix_values.h"
#include "tarn/catalog.h"
#include "tarn/s3.h"

namespace tarn {
namespace {

using lake_testing::QueryRows;
using lake_testing::Rows;
using lake_testing::RunStatement;
using lake_testing::SqlLake;
using testing::Bounds;
using testing::kTypes;
using testing::MatrixType;

std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

// Values DuckDB's Parquet writer refuses, with its error text: tarn refuses them too (with
// the same text, naming the column and the value) in COPY TO and in every lake write of files,
// rather than write something that reads back as another value. Inlined rows keep them, as
// DuckDB's inlining does, and a flush of them fails, leaving them inlined.
struct RefusedType {
  std::string name;      // the tables' suffix
  std::string sql_type;  // DuckDB's spelling
  std::vector<std::string> values;
  std::string error;  // DuckDB's words
};
const std::vector<RefusedType> kRefused = {
    {"interval_negative", "INTERVAL",
     {"'-1 day'", "'-2 months'", "'1 day -01:00:00'", "'-00:00:00.001'"},
     "Parquet files do not support negative intervals"},
    {"timestamp_s_infinite", "TIMESTAMP_S", {"'infinity'", "'-infinity'"},
     "Could not convert Timestamp(S) to Timestamp(US)"},
};

// ALTER TABLE … SET DATA TYPE: from → to, with values of `from` (extremes included).
struct Promotion {
  std::string from;
  std::string to;
  std::vector<std::string> values;
  std::string later;  // a value of `to` inserted after the change
};
const std::vector<Promotion> kPromotions = {
    {"TINYINT", "SMALLINT", {"-128", "127"}, "-32768"},
    {"TINYINT", "INTEGER", {"-128", "127"}, "2147483647"},
    {"TINYINT", "BIGINT", {"-128", "127"}, "-9223372036854775808"},
    {"SMALLINT", "INTEGER", {"-32768", "32767"}, "-2147483648"},
    {"SMALLINT", "BIGINT", {"-32768", "32767"}, "9223372036854775807"},
    {"INTEGER", "BIGINT", {"-2147483648", "2147483647"}, "9223372036854775807"},
    {"UTINYINT", "USMALLINT", {"0", "255"}, "65535"},
    {"UTINYINT", "UINTEGER", {"0", "255"}, "4294967295"},
    {"UTINYINT", "UBIGINT", {"0", "255"}, "18446744073709551615"},
    {"USMALLINT", "UINTEGER", {"0", "65535"}, "4294967295"},
    {"USMALLINT", "UBIGINT", {"0", "65535"}, "18446744073709551615"},
    {"UINTEGER", "UBIGINT", {"0", "4294967295"}, "18446744073709551615"},
    {"UTINYINT", "SMALLINT", {"0", "255"}, "-32768"},
    {"USMALLINT", "INTEGER", {"0", "65535"}, "-2147483648"},
    {"UINTEGER", "BIGINT", {"0", "4294967295"}, "-9223372036854775808"},
    {"FLOAT", "DOUBLE", {"'NaN'", "'-inf'", "'inf'", "'-0.0'", "'3.4028235e38'", "'1.5'"},
     "'1.7976931348623157e308'"},
    // Wider than integer widening: DuckDB's max logical type of the pair is the target.
    {"TINYINT", "FLOAT", {"-128", "127"}, "'1.5'"},
    {"INTEGER", "DOUBLE", {"-2147483648", "2147483647"}, "'0.25'"},
    {"BIGINT", "DOUBLE", {"-9223372036854775808", "9223372036854775807"}, "'-1e300'"},
    {"UTINYINT", "FLOAT", {"0", "255"}, "'-2.5'"},
    {"SMALLINT", "DECIMAL(18,3)", {"-32768", "32767"}, "'123456789012345.678'"},
    {"DECIMAL(4,1)", "DECIMAL(18,3)", {"'-999.9'", "'999.9'", "'0.1'"}, "'-0.001'"},
    {"DECIMAL(9,2)", "DOUBLE", {"'-9999999.99'", "'0.01'"}, "'1e20'"},
    {"DATE", "TIMESTAMP", {"'1970-01-01'", "'2024-02-29'", "'0001-01-01'"},
     "'2024-02-29 12:34:56.789'"},
    {"TIMESTAMP_S", "TIMESTAMP", {"'2020-01-01 00:00:01'", "'1900-06-30 23:59:59'"},
     "'2020-01-01 00:00:01.5'"},
    {"TIMESTAMP", "TIMESTAMP_NS", {"'2020-01-01 00:00:01.123456'", "'1970-01-01'"},
     "'2020-01-01 00:00:01.123456789'"},
    {"TIMESTAMP", "TIMESTAMPTZ", {"'2020-01-01 00:00:01.123456'", "'1970-01-01'"},
     "'2021-06-01 10:00:00+00'"},
};

// Defects the matrix found that are not fixed yet, each with what goes wrong. A listed type's
// (or promotion's) statements may fail and its checks may differ; the test fails as soon as
// every check of a listed entry passes, so the list only shrinks. Everything else is strict.
struct KnownDefect {
  const char* name;  // MatrixType::name, or "promote FROM->TO"
  const char* what;
};
const KnownDefect kKnownDefects[] = {
    {"timetz", "tarn holds TIMETZ as UTC (as DuckDB's Parquet writer stores it), so inlined "
               "rows and tarn's answers lose the offset DuckDB keeps ('12:00:00+02' reads "
               "'10:00:00+00')"},
};

const KnownDefect* FindKnownDefect(const std::string& name) {
  for (const KnownDefect& defect : kKnownDefects) {
    if (name == defect.name) return &defect;
  }
  return nullptr;
}

std::string TableColumns(const std::string& type) {
  return StrCat("(id INTEGER, v ", type, ", l ", type, "[], s STRUCT(a ", type,
                ", b INTEGER), m MAP(VARCHAR, ", type, "))");
}

// The rows of a type: per value (rows 0..n-1) v = x, l = [x, NULL, next x], s = {a: x, b: id},
// m = {k: x}; then a row of NULLs at the top level and one with NULLs inside.
std::vector<std::string> MatrixRows(const MatrixType& type) {
  std::vector<std::string> rows;
  const size_t n = type.values.size();
  auto cast = [&](const std::string& x) { return StrCat("CAST(", x, " AS ", type.sql_type, ")"); };
  for (size_t i = 0; i < n; ++i) {
    const std::string x = cast(type.values[i]);
    const std::string next = cast(type.values[(i + 1) % n]);
    rows.push_back(StrCat("(", i, ", ", x, ", [", x, ", NULL, ", next, "], {'a': ", x,
                          ", 'b': ", i, "}, MAP {'k", i, "': ", x, "})"));
  }
  rows.push_back(StrCat("(", n, ", NULL, NULL, NULL, NULL)"));
  rows.push_back(StrCat("(", n + 1, ", NULL, CAST([] AS ", type.sql_type, "[]), {'a': NULL, 'b': NULL}, "
                        "MAP {'n': CAST(NULL AS ", type.sql_type, ")})"));
  return rows;
}

std::string Insert(const std::string& table, const std::vector<std::string>& rows, size_t begin,
                   size_t end) {
  std::string sql = "INSERT INTO " + table + " VALUES ";
  for (size_t i = begin; i < end; ++i) sql += (i > begin ? ", " : "") + rows[i];
  return sql;
}

// DuckDB's SELECT of a table read from Parquet `path`, cast to the column types as a lake
// reads its files.
std::string CastSelect(const std::string& type, const std::string& from) {
  return StrCat("SELECT id, CAST(v AS ", type, ") AS v, CAST(l AS ", type, "[]) AS l, CAST(s AS "
                "STRUCT(a ", type, ", b INTEGER)) AS s, CAST(m AS MAP(VARCHAR, ", type,
                ")) AS m FROM ", from);
}

// What one check compares: tarn's rows, DuckDB's read of tarn's files, and DuckDB's own answer.
struct Check {
  std::string what;
  std::string owner;         // MatrixType::name or "promote FROM->TO" (kKnownDefects)
  std::string tarn_sql;      // run by tarn (through the session of the lake)
  std::string tarn_answer;   // filled when run
  std::string duckdb_files;  // DuckDB SQL reading tarn's files ("" when rows are inlined)
  std::string expected;      // DuckDB SQL: its own answer
  // Statistics: DuckDB's answer is one hex-encoded CSV cell, and with `zero_sign_free` a zero
  // bound compares without its sign (of the zeros of a float column, the extension records
  // whichever its writer saw first).
  bool stats = false;
  bool zero_sign_free = false;
  // Non-empty: DuckDB's `expected` must fail with these words, and so must have tarn's
  // statement (its error message is tarn_answer).
  std::string refused;
};

std::string FromHex(const std::string& hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  }
  return out;
}

// "min|max|…" with a bound of -0.0 spelled 0.0.
std::string ZeroSignFree(const std::string& stats) {
  std::string out;
  size_t start = 0;
  while (true) {
    const size_t end = stats.find('|', start);
    std::string field = stats.substr(start, end == std::string::npos ? end : end - start);
    if (field == "-0.0") field = "0.0";
    out += (start ? "|" : "") + field;
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

// DuckDB SQL reading table `table` of `lake` at its latest snapshot from the catalog's data
// files and delete files, columns cast to `type`.
Result<std::string> FilesQuery(Lake& lake, const std::string& table, const std::string& type,
                               const std::string& order) {
  TARN_ASSIGN_OR_RETURN(auto snapshot, lake.LoadSnapshot());
  auto info = snapshot->FindTable("main", table);
  if (!info) return Status::NotFound("no table main.", table);
  TARN_ASSIGN_OR_RETURN(auto metadata, lake.LoadTable(*snapshot, info->table_id));
  for (const auto& inlined : info->inlined_tables) {
    TARN_ASSIGN_OR_RETURN(auto rows, lake.ReadInlinedRows(*metadata, inlined));
    if (rows->num_rows > 0) return Status::NotSupported(table, " has inlined rows");
  }
  std::string parts;
  for (const DataFileInfo& file : metadata->data_files) {
    if (!file.inlined_deletes.empty()) return Status::NotSupported(table, ": inlined deletes");
    std::string part = StrCat("SELECT id, v, l, s, m FROM read_parquet(", Quote(file.path),
                              ", file_row_number = true)");
    std::string deleted;
    if (file.delete_file) deleted = "SELECT pos FROM read_parquet(" + Quote(file.delete_file->path) + ")";
    if (!deleted.empty()) part += " WHERE file_row_number NOT IN (" + deleted + ")";
    parts += (parts.empty() ? "" : " UNION ALL ") + part;
  }
  if (parts.empty()) return Status::NotSupported(table, " has no data files");
  return CastSelect(type, "(" + parts + ")") + " ORDER BY " + order;
}

// Rows of `sql` on the SQLite catalog at `db`: text as stored, numbers in decimal, NULL as
// "NULL".
std::vector<std::vector<std::string>> RawRows(const std::string& db, const std::string& sql) {
  std::vector<std::vector<std::string>> out;
  auto store = lake_testing::OpenTestCatalog(db);
  EXPECT_TRUE(store.ok()) << store.status().ToString();
  if (!store.ok()) return out;
  CatalogQuery query;
  query.sql = sql;
  query.what = "test query";
  auto result = (*store)->Query(query);
  EXPECT_TRUE(result.ok()) << sql << ": " << result.status().ToString();
  if (!result.ok()) return out;
  for (const auto& row : result->rows) {
    std::vector<std::string> cells;
    for (const CatalogDatum& cell : row) {
      const bool bytes = cell.kind() == CatalogDatum::Kind::kText ||
                         cell.kind() == CatalogDatum::Kind::kBlob;
      cells.push_back(bytes ? cell.bytes() : cell.ToString());
    }
    out.push_back(std::move(cells));
  }
  return out;
}

// TARN_TYPE_MATRIX_SHOW_KNOWN=1 prints what the known defects do instead of counting them
// silently.
bool ShowKnown() {
  const char* show = std::getenv("TARN_TYPE_MATRIX_SHOW_KNOWN");
  return show != nullptr && *show != '\0' && *show != '0';
}

class Matrix {
 public:
  // `postgres`: both lakes' catalogs on the PostgreSQL test server (TARN_TEST_PG); `s3`: their
  // data files on the S3 test server (TARN_TEST_S3), copied to local disk for DuckDB to read.
  explicit Matrix(bool postgres = false, bool s3 = false) : postgres_(postgres), s3_(s3) {
    files_.postgres = postgres;
    inlined_.postgres = postgres;
    files_.s3 = s3;
    inlined_.s3 = s3;
  }

  void SetUp() {
    Status files = files_.Create(/*inlining_limit=*/0);
    ASSERT_TRUE(files.ok()) << files.ToString();
    Status inlined = inlined_.Create(/*inlining_limit=*/1000);
    ASSERT_TRUE(inlined.ok()) << inlined.ToString();
  }

  void Exec(SqlLake& lake, const std::string& sql, const std::string& owner = "") {
    Status status = RunStatement(*lake.session, sql);
    if (status.ok()) return;
    if (FindKnownDefect(owner) != nullptr) {
      ++known_failures_[owner];
      if (ShowKnown()) std::cerr << "[known " << owner << "] " << sql.substr(0, 400) << "\n  -> " << status.ToString() << "\n";
      return;
    }
    ADD_FAILURE() << sql.substr(0, 400) << "\n  -> " << status.ToString();
  }

  // DuckDB's own table for `type`: created and filled by the same SQL as tarn's.
  static std::string DuckDBTable(const MatrixType& type) {
    const auto rows = MatrixRows(type);
    return StrCat("SET TimeZone = 'UTC'; CREATE TABLE t ", TableColumns(type.sql_type), "; ",
                  Insert("t", rows, 0, rows.size()), "; ");
  }
  std::string DuckDBFile(const MatrixType& type) {
    return dir_.Join("duckdb-" + type.name + ".parquet");
  }

  // tarn's rows of `table` now, DuckDB's read of its files and the expected rows.
  void AddLakeCheck(SqlLake& lake, const std::string& what, const MatrixType& type,
                    const std::string& table, const std::string& where, bool inlined) {
    Check check;
    check.what = StrCat(what, " of ", type.sql_type, " (main.", table, ")");
    check.owner = type.name;
    check.tarn_sql = StrCat("SELECT id, v, l, s, m FROM ", table, where.empty() ? "" : " WHERE ",
                            where, " ORDER BY id");
    auto answer = testing::TarnCsv(lake.session.get(), check.tarn_sql);
    check.tarn_answer = answer.ok() ? *answer : "error: " + answer.status().ToString();
    const std::string filter = where.empty() ? "" : " WHERE " + where;
    if (inlined) {
      check.expected = "SELECT * FROM t" + filter + " ORDER BY id";
    } else {
      auto open = Lake::Open(lake.locator, LakeOpenOptions{});
      EXPECT_TRUE(open.ok()) << open.status().ToString();
      if (open.ok()) {
        auto files = FilesQuery(**open, table, type.sql_type, "id");
        if (!files.ok()) Mismatch(check, StrCat(": ", files.status().ToString()));
        if (files.ok()) {
          check.duckdb_files = "SET TimeZone = 'UTC'; SELECT * FROM (" + *files + ")" + filter +
                               " ORDER BY id";
        }
      }
      check.expected = StrCat("COPY t TO ", Quote(DuckDBFile(type)), "; ",
                              CastSelect(type.sql_type, "read_parquet(" + Quote(DuckDBFile(type)) +
                                                            ")"),
                              filter, " ORDER BY id");
    }
    // Inlined, a list of JSON is kept as a JSON array, which the extension reads back by
    // parsing JSON: its elements lose the spaces between their tokens (docs/catalog.md).
    const std::string json_lists = &lake == &inlined_ && type.sql_type == "JSON"
                                       ? "UPDATE t SET l = list_transform(l, x -> json(x)); "
                                       : "";
    check.expected = DuckDBTable(type) + json_lists + check.expected;
    checks_.push_back(std::move(check));
  }

  void Run() {
    SetUp();
    // COPY … TO: tarn writes DuckDB's table, read back by both engines.
    for (const MatrixType& type : kTypes) {
      const auto rows = MatrixRows(type);
      const std::string table = "a_" + type.name;
      Exec(files_, StrCat("CREATE TABLE ", table, " ", TableColumns(type.sql_type)), type.name);
      Exec(files_, Insert(table, rows, 0, rows.size() / 2), type.name);
      Exec(files_, Insert(table, rows, rows.size() / 2, rows.size()), type.name);
      const std::string copy = dir_.Join("copy-" + type.name + ".parquet");
      Exec(files_, StrCat("COPY (SELECT * FROM ", table, " ORDER BY id) TO ", Quote(copy)), type.name);
      Check check;
      check.what = "COPY TO of " + type.sql_type;
      check.owner = type.name;
      check.tarn_sql = "SELECT * FROM read_parquet(" + Quote(copy) + ") ORDER BY id";
      auto answer = testing::TarnCsv(files_.session.get(), check.tarn_sql);
      check.tarn_answer = answer.ok() ? *answer : "error: " + answer.status().ToString();
      check.duckdb_files = "SET TimeZone = 'UTC'; " + check.tarn_sql;
      check.expected = StrCat(DuckDBTable(type), "COPY t TO ", Quote(DuckDBFile(type)),
                              "; SELECT * FROM read_parquet(", Quote(DuckDBFile(type)),
                              ") ORDER BY id");
      checks_.push_back(std::move(check));
      AddLakeCheck(files_, "INSERT into files", type, table, "", false);
      AddStatsChecks(type, table);
      // Inlined, then flushed.
      const std::string inlined = "b_" + type.name;
      Exec(inlined_, StrCat("CREATE TABLE ", inlined, " ", TableColumns(type.sql_type)), type.name);
      Exec(inlined_, Insert(inlined, rows, 0, rows.size()), type.name);
      AddLakeCheck(inlined_, "inlined INSERT", type, inlined, "", true);
    }
    Exec(files_, "CALL ducklake_merge_adjacent_files('lake')");
    // One table at a time, so that a type whose flush fails (a known defect) fails alone.
    for (const MatrixType& type : kTypes) {
      Exec(inlined_, StrCat("CALL ducklake_flush_inlined_data('lake', table_name => 'b_", type.name,
                            "')"),
           type.name);
    }
    for (const MatrixType& type : kTypes) {
      AddLakeCheck(files_, "ducklake_merge_adjacent_files", type, "a_" + type.name, "", false);
      AddLakeCheck(inlined_, "ducklake_flush_inlined_data", type, "b_" + type.name, "", false);
      Exec(files_, StrCat("UPDATE a_", type.name, " SET v = v, l = l, s = s, m = m WHERE id % 3 = 0"),
           type.name);
      AddLakeCheck(files_, "UPDATE", type, "a_" + type.name, "", false);
      Exec(files_, StrCat("DELETE FROM a_", type.name, " WHERE id % 4 = 1"), type.name);
    }
    Exec(files_, "CALL ducklake_rewrite_data_files('lake', delete_threshold => 0.0)");
    for (const MatrixType& type : kTypes) {
      AddLakeCheck(files_, "ducklake_rewrite_data_files", type, "a_" + type.name, "id % 4 <> 1",
                   false);
    }
    RunPromotions();
    RunRefused();
    Compare();
  }

  // kRefused: every write of the values to Parquet fails with DuckDB's words and writes
  // nothing; inlined rows keep them, and a flush of them fails and leaves them inlined.
  void RunRefused() {
    for (const RefusedType& refused : kRefused) {
      const MatrixType type{refused.name, refused.sql_type, Bounds::kNone, refused.values};
      const auto rows = MatrixRows(type);
      // (The oracle's last statement gives the answer; the COPY runs before it.)
      const std::string duckdb_copy =
          StrCat("COPY t TO ", Quote(DuckDBFile(type)), "; SELECT 'written' AS answer");
      auto refuse = [&](SqlLake& lake, const std::string& what, const std::string& sql) {
        Check check;
        check.what = StrCat(what, " of ", type.sql_type, " (", refused.name, ")");
        check.owner = refused.name;
        check.tarn_sql = sql;
        Status status = RunStatement(*lake.session, sql);
        check.tarn_answer = status.ok() ? "succeeded" : status.ToString();
        check.refused = refused.error;
        check.expected = DuckDBTable(type) + duckdb_copy;
        checks_.push_back(std::move(check));
      };
      auto count = [&](SqlLake& lake, const std::string& what, const std::string& table,
                       size_t rows_expected) {
        Check check;
        check.what = StrCat(what, " of ", type.sql_type, " (main.", table, ")");
        check.owner = refused.name;
        check.tarn_sql = StrCat("SELECT count(*) AS n FROM ", table);
        auto answer = testing::TarnCsv(lake.session.get(), check.tarn_sql);
        check.tarn_answer = answer.ok() ? *answer : "error: " + answer.status().ToString();
        check.expected = StrCat("SELECT ", rows_expected, " AS n");
        checks_.push_back(std::move(check));
      };
      const std::string table = "a_" + refused.name;
      Exec(files_, StrCat("CREATE TABLE ", table, " ", TableColumns(type.sql_type)));
      refuse(files_, "INSERT into files", Insert(table, rows, 0, rows.size()));
      count(files_, "nothing written by the refused INSERT", table, 0);
      const std::string inlined = "b_" + refused.name;
      Exec(inlined_, StrCat("CREATE TABLE ", inlined, " ", TableColumns(type.sql_type)));
      Exec(inlined_, Insert(inlined, rows, 0, rows.size()));
      AddLakeCheck(inlined_, "inlined INSERT", type, inlined, "", true);
      refuse(inlined_, "COPY TO",
             StrCat("COPY (SELECT * FROM ", inlined, " ORDER BY id) TO ",
                    Quote(dir_.Join("copy-" + refused.name + ".parquet"))));
      refuse(inlined_, "ducklake_flush_inlined_data",
             StrCat("CALL ducklake_flush_inlined_data('lake', table_name => '", inlined, "')"));
      AddLakeCheck(inlined_, "the rows of a refused flush", type, inlined, "", true);
      count(inlined_, "the rows of a refused flush", inlined, rows.size());
    }
  }

  // ALTER TABLE … SET DATA TYPE: rows written before and after, read as the new type.
  void RunPromotions() {
    for (size_t i = 0; i < kPromotions.size(); ++i) {
      const Promotion& p = kPromotions[i];
      const std::string table = StrCat("p_", i);
      std::string values;
      for (size_t j = 0; j < p.values.size(); ++j) {
        values += StrCat(j ? ", " : "", "(", j, ", CAST(", p.values[j], " AS ", p.from, "))");
      }
      values += StrCat(", (", p.values.size(), ", NULL)");
      const std::string later = StrCat("(100, CAST(", p.later, " AS ", p.to, "))");
      const std::string owner = StrCat("promote ", p.from, "->", p.to);
      Exec(files_, StrCat("CREATE TABLE ", table, " (id INTEGER, v ", p.from, ")"), owner);
      Exec(files_, StrCat("INSERT INTO ", table, " VALUES ", values), owner);
      Exec(files_, StrCat("ALTER TABLE ", table, " ALTER COLUMN v SET DATA TYPE ", p.to), owner);
      Exec(files_, StrCat("INSERT INTO ", table, " VALUES ", later), owner);
      Check check;
      check.what = StrCat("SET DATA TYPE ", p.from, " -> ", p.to);
      check.owner = StrCat("promote ", p.from, "->", p.to);
      check.tarn_sql = StrCat("SELECT id, v FROM ", table, " ORDER BY id");
      auto answer = testing::TarnCsv(files_.session.get(), check.tarn_sql);
      check.tarn_answer = answer.ok() ? *answer : "error: " + answer.status().ToString();
      auto open = Lake::Open(files_.locator, LakeOpenOptions{});
      ASSERT_TRUE(open.ok());
      auto snapshot = (*open)->LoadSnapshot();
      ASSERT_TRUE(snapshot.ok());
      auto info = (*snapshot)->FindTable("main", table);
      ASSERT_TRUE(info);
      auto metadata = (*open)->LoadTable(**snapshot, info->table_id);
      ASSERT_TRUE(metadata.ok());
      std::string parts;
      for (const DataFileInfo& file : (*metadata)->data_files) {
        parts += StrCat(parts.empty() ? "" : " UNION ALL ", "SELECT id, CAST(v AS ", p.to,
                        ") AS v FROM read_parquet(", Quote(file.path), ")");
      }
      check.duckdb_files = "SELECT * FROM (" + parts + ") ORDER BY id";
      check.expected = StrCat("CREATE TABLE t (id INTEGER, v ", p.from, "); INSERT INTO t VALUES ",
                              values, "; ALTER TABLE t ALTER COLUMN v SET DATA TYPE ", p.to,
                              "; INSERT INTO t VALUES ", later, "; SELECT * FROM t ORDER BY id");
      checks_.push_back(std::move(check));
    }
  }

  // The statistics of every file of `table` (two files, rows split as the inserts were) for
  // the leaves v, l.element, s.a and m.value, against DuckDB over the same rows.
  void AddStatsChecks(const MatrixType& type, const std::string& table) {
    const auto rows = MatrixRows(type);
    const int64_t half = static_cast<int64_t>(rows.size() / 2);
    Rows files = QueryRows(files_.locator,
                           StrCat("SELECT f.data_file_id FROM ducklake_data_file f JOIN "
                                  "ducklake_table t USING (table_id) WHERE t.table_name = '",
                                  table, "' AND f.end_snapshot IS NULL ORDER BY "
                                  "f.row_id_start"));
    if (files.size() != 2u) {
      if (FindKnownDefect(type.name) != nullptr) {
        ++known_failures_[type.name];
        return;
      }
      FAIL() << table << " has " << files.size() << " data files, not 2";
    }
    struct Leaf {
      const char* column;  // in ducklake_column
      const char* values;  // DuckDB SQL of the leaf's values in t
    };
    const Leaf leaves[] = {
        {"v", "SELECT id, v AS x FROM t"},
        // A NULL or empty list or map counts as one NULL leaf entry, as in Parquet's levels.
        {"element",
         "SELECT id, unnest(CASE WHEN len(l) > 0 THEN l ELSE [NULL] END) AS x FROM t"},
        {"a", "SELECT id, s.a AS x FROM t"},
        {"value",
         "SELECT id, unnest(CASE WHEN cardinality(m) > 0 THEN map_values(m) ELSE [NULL] END) "
         "AS x FROM t"},
    };
    for (size_t f = 0; f < 2; ++f) {
      const std::string range = f == 0 ? StrCat("id < ", half) : StrCat("id >= ", half);
      for (const Leaf& leaf : leaves) {
        // The raw catalog text (QueryRows' cells are for messages: escaped and cut).
        std::vector<std::vector<std::string>> stats = RawRows(
            files_.locator,
            StrCat("SELECT s.min_value, s.max_value, s.value_count, s.null_count, "
                   "s.contains_nan FROM ducklake_file_column_stats s JOIN ducklake_column c "
                   "ON c.table_id = s.table_id AND c.column_id = s.column_id WHERE "
                   "s.data_file_id = ", files[f][0], " AND c.column_name = '", leaf.column,
                   "' AND c.end_snapshot IS NULL"));
        if (stats.size() != 1u) {
          Check missing;
          missing.owner = type.name;
          Mismatch(missing, StrCat(table, ".", leaf.column, " has ", stats.size(),
                                   " statistics rows in a file"));
          continue;
        }
        std::string ours;
        for (size_t cell = 0; cell < stats[0].size(); ++cell) {
          ours += (cell ? "|" : "") + stats[0][cell];
        }
        Check check;
        check.what = StrCat("file column stats of ", type.sql_type, " leaf ", leaf.column,
                            " in file ", f + 1, " (min|max|value_count|null_count|contains_nan)");
        check.tarn_answer = ours;
        check.stats = true;
        check.owner = type.name;
        check.zero_sign_free = type.bounds == Bounds::kFloat;
        check.expected = DuckDBTable(type) + StatsSql(type, leaf.values, range);
        checks_.push_back(std::move(check));
      }
    }
  }

  // DuckDB SQL giving "min|max|value_count|null_count|contains_nan" as the extension stores
  // them, hex-encoded (one CSV cell whatever the values hold).
  std::string StatsSql(const MatrixType& type, const std::string& values,
                       const std::string& range) {
    std::string present = "x IS NOT NULL";
    std::string form = "CAST(x AS VARCHAR)";
    std::string nan = "NULL";
    switch (type.bounds) {
      case Bounds::kBoolean: form = "CAST(CAST(x AS INTEGER) AS VARCHAR)"; break;
      case Bounds::kFloat:
        present = "x IS NOT NULL AND NOT isnan(x)";
        nan = "CASE WHEN bool_or(isnan(x)) THEN '1' ELSE '0' END";
        break;
      case Bounds::kBlob: form = "hex(x)"; break;
      case Bounds::kText: case Bounds::kNone: break;
    }
    const std::string bounded = type.bounds == Bounds::kNone ? "false" : "true";
    std::string min = StrCat("(SELECT ", form, " FROM v WHERE ", present,
                             " ORDER BY x ASC LIMIT 1)");
    std::string max = StrCat("(SELECT ", form, " FROM v WHERE ", present,
                             " ORDER BY x DESC LIMIT 1)");
    if (type.sql_type == "VARCHAR" || type.sql_type == "JSON") {
      // DuckDB's writer cuts string bounds to 256 bytes, a cut max with its last byte
      // incremented (ASCII values here).
      min = StrCat("left(", min, ", 256)");
      max = StrCat("(SELECT CASE WHEN strlen(m) > 256 THEN left(m, 255) || chr(ascii(substr(m, "
                   "256, 1)) + 1) ELSE m END FROM (SELECT ", max, " AS m))");
    }
    return StrCat("CREATE TEMP TABLE v AS SELECT x FROM (", values, ") WHERE ", range,
                  "; SELECT hex(concat_ws('|', COALESCE(CASE WHEN ", bounded, " THEN ", min,
                  " END, 'NULL'), COALESCE(CASE WHEN ", bounded, " THEN ", max,
                  " END, 'NULL'), CAST(count(x) AS VARCHAR), CAST(count(*) - count(x) AS "
                  "VARCHAR), COALESCE(", nan, ", 'NULL'))) AS hex FROM v");
  }

  // A failed check: a test failure unless its owner is a known defect.
  void Mismatch(const Check& check, const std::string& message) {
    if (FindKnownDefect(check.owner) != nullptr) {
      ++known_failures_[check.owner];
      if (ShowKnown()) std::cerr << "[known " << check.owner << "] " << check.what << message << "\n";
      return;
    }
    if (++failures_ <= 80) ADD_FAILURE() << check.what << message;
  }

  // The data files of `lake` on the S3 server copied under a local folder; DuckDB's reads of
  // them are pointed there.
  void MirrorFromS3(const SqlLake& lake, const std::string& name) {
    auto options = testing::TestS3Options();
    ASSERT_TRUE(options.ok()) << options.status().ToString();
    auto s3 = NewS3FileSystem(*options);
    auto listed = s3->List(lake.data_path, /*recursive=*/true);
    ASSERT_TRUE(listed.ok()) << listed.status().ToString();
    const std::string mirror = dir_.Join(name) + "/";
    for (const FileInfo& file : *listed) {
      auto bytes = s3->ReadFile(file.path);
      ASSERT_TRUE(bytes.ok()) << bytes.status().ToString();
      const std::string local = mirror + file.path.substr(lake.data_path.size());
      std::filesystem::create_directories(std::filesystem::path(local).parent_path());
      ASSERT_TRUE(LocalFileSystem()->WriteFile(local, *bytes).ok()) << local;
    }
    for (Check& check : checks_) {
      check.duckdb_files = testing::ReplaceAll(check.duckdb_files, lake.data_path, mirror);
    }
  }

  void Compare() {
    if (s3_) {
      MirrorFromS3(files_, "mirror-files");
      MirrorFromS3(inlined_, "mirror-inlined");
    }
    std::vector<std::string> queries;
    for (const Check& check : checks_) {
      queries.push_back(check.expected);
      if (!check.duckdb_files.empty()) queries.push_back(check.duckdb_files);
    }
    auto answers = testing::DuckDBQueryCsvBatch(queries);
    ASSERT_EQ(answers.size(), queries.size());
    size_t next = 0;
    for (const Check& check : checks_) {
      const auto& expected = answers[next++];
      if (!check.refused.empty()) {
        if (expected.ok()) {
          Mismatch(check, StrCat(": DuckDB's own write succeeded (not refused with \"",
                                 check.refused, "\")"));
        } else if (expected.status().message().find(check.refused) == std::string::npos) {
          Mismatch(check, StrCat(": DuckDB refuses it with other words: ",
                                 expected.status().ToString()));
        }
        if (check.tarn_answer.find(check.refused) == std::string::npos) {
          Mismatch(check, StrCat(": tarn did not refuse it with \"", check.refused, "\": ",
                                 check.tarn_answer, "\n  SQL: ", check.tarn_sql.substr(0, 300)));
        }
        continue;
      }
      if (!expected.ok()) {
        Mismatch(check, ": DuckDB's own answer failed: " + expected.status().ToString());
        if (!check.duckdb_files.empty()) ++next;
        continue;
      }
      std::string want = *expected;
      std::string got = check.tarn_answer;
      if (check.stats) {
        want = FromHex(want.substr(want.find('\n') + 1, want.size() - want.find('\n') - 2));
        if (check.zero_sign_free) {
          want = ZeroSignFree(want);
          got = ZeroSignFree(got);
        }
      }
      if (postgres_) {
        want = TopLevelNanSignFree(want);
        got = TopLevelNanSignFree(got);
      }
      if (got != want) {
        Mismatch(check, StrCat(": tarn's answer differs\n  SQL: ", check.tarn_sql.substr(0, 300),
                               "\n  tarn:\n", Shorten(got), "\n  DuckDB:\n", Shorten(want)));
      }
      if (!check.duckdb_files.empty()) {
        const auto& files = answers[next++];
        if (!files.ok()) {
          Mismatch(check, ": DuckDB cannot read tarn's files: " + files.status().ToString());
        } else if ((postgres_ ? TopLevelNanSignFree(*files) : *files) != want) {
          Mismatch(check, StrCat(": DuckDB reads tarn's files differently\n  tarn's files:\n",
                                 Shorten(*files), "\n  DuckDB's own:\n", Shorten(want)));
        }
      }
    }
    for (const KnownDefect& defect : kKnownDefects) {
      EXPECT_GT(known_failures_[defect.name], 0)
          << defect.name << " now passes every check: remove it from kKnownDefects (" << defect.what
          << ")";
    }
    ::testing::Test::RecordProperty("checks", static_cast<int>(checks_.size()));
    int known = 0;
    for (const auto& [name, count] : known_failures_) known += count;
    ::testing::Test::RecordProperty("known_defect_failures", known);
  }

  // CSV rows whose second field (the column v) is -nan, with nan there instead.
  static std::string TopLevelNanSignFree(const std::string& csv) {
    std::string out;
    size_t start = 0;
    while (start < csv.size()) {
      size_t end = csv.find('\n', start);
      if (end == std::string::npos) end = csv.size();
      std::string line = csv.substr(start, end - start);
      const size_t comma = line.find(',');
      if (comma != std::string::npos && line.compare(comma, 6, ",-nan,") == 0) {
        line.erase(comma + 1, 1);
      } else if (comma != std::string::npos && line.size() == comma + 5 &&
                 line.compare(comma, 5, ",-nan") == 0) {
        line.erase(comma + 1, 1);
      }
      out += line;
      if (end < csv.size()) out += '\n';
      start = end + 1;
    }
    return out;
  }

  static std::string Shorten(const std::string& text) {
    return text.size() > 3000 ? text.substr(0, 3000) + "…" : text;
  }

  testing::TempDir dir_;
  SqlLake files_;
  SqlLake inlined_;
  std::vector<Check> checks_;
  std::map<std::string, int> known_failures_;  // by KnownDefect::name
  int failures_ = 0;
  // PostgreSQL keeps inlined floats in real / double precision columns, as the extension
  // creates them there, and those do not keep the sign of a NaN: a top-level -nan reads nan
  // (with the extension too). Nested values are text and keep it.
  bool postgres_ = false;
  bool s3_ = false;
};

TEST(TypeMatrixTest, EveryTypeThroughEveryWritePath) { Matrix().Run(); }
// The same with both lakes' catalogs on PostgreSQL: inlined values in its storage forms.
TEST(TypeMatrixTest, EveryTypeThroughEveryWritePathOnPostgres) { Matrix(true).Run(); }

TEST(TypeMatrixTest, EveryTypeThroughEveryWritePathOnS3) {
  Matrix(/*postgres=*/false, /*s3=*/true).Run();
}

}  // namespace
}  // namespace tarn
