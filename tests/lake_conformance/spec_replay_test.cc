// The write-side conformance test. For every fixture lake (written by the official DuckLake 1.0
// extension from its spec.sql), tarn builds a new lake by running the same statements through
// a SQL Session, one transaction each, and then:
//
// 1. the catalog equals the fixture's catalog.sqlite: the same tables with the same declared
//    types in the same column order, and the same rows in the same storage forms (integer vs
//    text), with the same snapshot ids, schema versions, catalog/file id counters, column ids,
//    row ids and changes_made tokens. Ignored: timestamps and uuids (their form is checked),
//    file names and sizes (tarn's Parquet writer is not DuckDB's), the delete files the
//    extension replaced (it hard-deletes the old row and schedules the file; tarn ends the
//    row, docs/catalog-write.md), and ducklake_files_scheduled_for_deletion for that reason;
// 2. DuckDB reads every data file tarn wrote and finds the rows of the fixture's data file of
//    the same id (as multisets, internal row-id columns included);
// 3. DuckDB reads every delete file tarn wrote: positions unique and inside the data file, and
//    the rows at them exactly the rows the fixture's expected result at that snapshot lacks;
// 4. tarn's own scan of every snapshot equals the fixture's expected/SCHEMA.TABLE@N.parquet.
//
// A statement tarn cannot run fails the test naming it; what ran before it is still compared
// (rows of later snapshots clipped away). The statements tarn does not support yet are listed in
// kNotYetRunnable: a fixture listed there must stop at exactly that statement, so the list
// shrinks (and the test fails until it does) as soon as tarn runs more.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "lake_test_util.h"
#include "support/sql_test_util.h"
#include "support/fixture_lake.h"
#include "support/oracle.h"
#include "table/table_test_util.h"

namespace tarn {
namespace {

using lake_testing::FilePaths;
using lake_testing::FixtureDir;
using lake_testing::QueryRows;
using lake_testing::Rows;
using lake_testing::RowsText;
using lake_testing::Unquote;

using tarn::testing::SqlString;

// Compares one catalog query between tarn's lake and the fixture, rows sorted.
void ExpectSameRows(const std::string& ours, const std::string& theirs, const std::string& what,
                    const std::string& sql) {
  EXPECT_EQ(RowsText(QueryRows(ours, sql)), RowsText(QueryRows(theirs, sql)))
      << what << "\n  query: " << sql;
}

// ducklake_inlined_data_<T>_<V> and ducklake_inlined_delete_<T>.
const std::string kInlined =
    "(tbl_name GLOB 'ducklake_inlined_data_[0-9]*' OR tbl_name GLOB "
    "'ducklake_inlined_delete_[0-9]*')";

// A statistics string with -0.0 spelled 0.0: of the zeros of a float column, the extension
// records whichever the writer saw first, so the sign of a zero bound is not comparable.
std::string Zero(const std::string& column) {
  return StrCat("CASE WHEN ", column, " = '-0.0' THEN '0.0' ELSE ", column, " END");
}

// Known differences from a fixture, each with its reason; everything else must match.
struct KnownDifference {
  const char* fixture;
  const char* what;  // a SQL condition on ducklake_table_column_stats rows
  const char* why;
};
const KnownDifference kKnownDifferences[] = {
    {"nan", "table_id = 1 AND column_id IN (2, 3)",
     "min/max of x and y: after a file whose values are all NaN the extension records no "
     "table-wide bound and then takes the next file's bounds as the table's (x: 0.0..0.0, "
     "though -inf..inf are live); tarn keeps bounds that hold every value (-inf..inf)"},
};

// Known differences in ducklake_file_column_stats' value_count and null_count.
const KnownDifference kKnownCountDifferences[] = {
    {"nested", "table_id = 1 AND column_id = 20",
     "sl.element.a of STRUCT(a INTEGER, b INTEGER[])[] holding [{'a': i, ...}, NULL]: DuckDB's "
     "Parquet writer puts null_count 4000 of 4000 values in the footer (2000 are NULL) and the "
     "extension copies it as value_count 0, null_count 4000; tarn counts 2000 and 2000"},
    {"types3", "table_id = 1 AND column_id IN (21, 22)",
     "ls.element.a and .b of STRUCT(a TIMESTAMP_S, b DECIMAL(9,2))[] holding [{...}, NULL]: as "
     "for nested, the extension records every value NULL (value_count 0, null_count 3000 of "
     "3000, 1500 NULL); tarn counts 1500 and 1500"},
    {"types3", "table_id = 1 AND column_id IN (8, 9)",
     "ttz TIMETZ and iv INTERVAL: DuckDB's Parquet writer keeps no statistics for them and the "
     "extension records value_count 0, null_count 0 even where values are NULL; tarn counts "
     "the values and the NULLs"},
};

// Known differences in ducklake_table_column_stats' contains_null.
const KnownDifference kKnownNullDifferences[] = {
    {"types3", "table_id = 1 AND column_id IN (8, 9)",
     "ttz and iv: from its null_count 0 the extension records contains_null false though rows "
     "inserted without them are NULL; tarn records true"},
};

// fixture -> the 1-based statement of its spec.sql tarn cannot run yet, and why.
struct NotYetRunnable {
  const char* fixture;
  size_t statement;
  const char* missing;
};
// Every fixture runs completely today; the list stays for the next fixture that does not.
const std::vector<NotYetRunnable> kNotYetRunnable = {};

const NotYetRunnable* FindNotYetRunnable(const std::string& fixture) {
  for (const NotYetRunnable& entry : kNotYetRunnable) {
    if (fixture == entry.fixture) return &entry;
  }
  return nullptr;
}

class SpecReplay {
 public:
  explicit SpecReplay(std::string fixture)
      : fixture_(std::move(fixture)),
        theirs_(FixtureDir(fixture_) + "/catalog.sqlite"),
        their_data_(FixtureDir(fixture_) + "/data/") {}

  void Run() {
    ASSERT_TRUE(testing::FileExists(FixtureDir(fixture_) + "/spec.sql"));
    ASSERT_TRUE(testing::FileExists(theirs_));
    Status created = lake_.Create();
    ASSERT_TRUE(created.ok()) << created.ToString();
    ours_ = lake_.catalog_path;
    const std::vector<std::string> statements =
        lake_testing::SpecStatements(FixtureDir(fixture_) + "/spec.sql");
    ASSERT_FALSE(statements.empty());
    std::string failed;
    size_t failed_at = 0;
    for (size_t i = 0; i < statements.size(); ++i) {
      Status status = lake_testing::RunStatement(*lake_.session, statements[i]);
      if (!status.ok()) {
        failed_at = i + 1;
        failed = StrCat("statement ", i + 1, " of ", fixture_, "/spec.sql: ", statements[i],
                        "\n  -> ", status.ToString());
        for (size_t j = i + 1; j < statements.size(); ++j) {
          failed += StrCat("\n  (not run: statement ", j + 1, ": ", statements[j], ")");
        }
        break;
      }
    }
    complete_ = failed.empty();
    reached_ = std::stoll(QueryRows(ours_, "SELECT max(snapshot_id) FROM ducklake_snapshot")[0][0]);
    next_file_id_ = std::stoll(QueryRows(ours_, StrCat("SELECT next_file_id FROM "
                                                       "ducklake_snapshot WHERE snapshot_id = ",
                                                       reached_))[0][0]);
    // A flush or compaction after reached_ rewrote the inlined rows and deletes of earlier
    // snapshots in the fixture: those are then not comparable.
    history_rewritten_ =
        std::stoll(QueryRows(theirs_, StrCat("SELECT count(*) FROM ducklake_snapshot_changes "
                                             "WHERE snapshot_id > ", reached_,
                                             " AND (changes_made LIKE '%inline_flush%' OR "
                                             "changes_made LIKE '%merge_adjacent%' OR "
                                             "changes_made LIKE '%rewrite_delete%')"))[0][0]) > 0;
    CompareStructure();
    CompareRows();
    CompareInlinedTables();
    CompareFilesWithDuckDB();
    CompareSnapshots();
    const NotYetRunnable* known = FindNotYetRunnable(fixture_);
    if (known == nullptr) {
      if (!complete_) ADD_FAILURE() << "tarn cannot run " << failed;
    } else if (complete_) {
      ADD_FAILURE() << fixture_ << "/spec.sql now runs completely: remove it from "
                    << "kNotYetRunnable";
    } else if (failed_at != known->statement) {
      ADD_FAILURE() << "expected to stop at statement " << known->statement << " ("
                    << known->missing << "), but: tarn cannot run " << failed;
    }
  }

 private:
  // `column` as of snapshot reached_: a later end_snapshot is still open then.
  std::string Clip(const std::string& column) const {
    return StrCat("CASE WHEN ", column, " > ", reached_, " THEN NULL ELSE ", column, " END");
  }
  std::string UpTo(const std::string& column) const { return StrCat(column, " <= ", reached_); }
  // Files the snapshots up to reached_ created: a flush or compaction later gives its files the
  // begin_snapshot of their oldest rows, but their ids come after.
  std::string FileIdUpTo(const std::string& column) const {
    return StrCat(column, " < ", next_file_id_);
  }

  void Same(const std::string& what, const std::string& sql) {
    ExpectSameRows(ours_, theirs_, what, sql);
  }

  // The 28 catalog tables: names, declared types, column order; every inlined table likewise.
  // (The fixture catalogs carry no constraints; tarn declares the extension's primary keys and
  // NOT NULLs, which create_lake_test checks.)
  //
  // tarn declares the types as the extension's catalog on SQLite has them (DuckDB's SQLite
  // scanner: BIGINT for integers and booleans, BLOB, VARCHAR for the rest). The first lakes'
  // catalogs were copied from DuckDB-file catalogs and declare DuckDB's type names instead;
  // their names are mapped to the scanner's before comparing.
  void CompareStructure() {
    const bool duckdb_names =
        QueryRows(theirs_, "SELECT type FROM pragma_table_info('ducklake_column') WHERE name = "
                           "'nulls_allowed'")[0][0] == "'BOOLEAN'";
    const std::string their_type =
        duckdb_names ? "CASE WHEN p.type IN ('BOOLEAN', 'TINYINT', 'SMALLINT', 'INTEGER', "
                       "'BIGINT', 'UTINYINT', 'USMALLINT', 'UINTEGER') THEN 'BIGINT' WHEN "
                       "p.type = 'BLOB' THEN 'BLOB' ELSE 'VARCHAR' END"
                     : "p.type";
    auto same_declared = [&](const std::string& what, const std::string& select,
                             const std::string& from) {
      const std::string ours_sql = select + "p.type" + from;
      const std::string theirs_sql = select + their_type + from;
      EXPECT_EQ(RowsText(QueryRows(ours_, ours_sql)), RowsText(QueryRows(theirs_, theirs_sql)))
          << what << "\n  query: " << theirs_sql;
    };
    same_declared("catalog tables", "SELECT m.name, p.cid, p.name, ",
                  " FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' "
                  "AND NOT " + kInlined);
    const std::string inlined_tables =
        "SELECT name FROM sqlite_master WHERE type = 'table' AND " + kInlined;
    Rows their_inlined = QueryRows(theirs_, inlined_tables);
    Rows our_inlined = QueryRows(ours_, inlined_tables);
    if (complete_) {
      EXPECT_EQ(RowsText(our_inlined), RowsText(their_inlined));
    }
    for (const auto& row : our_inlined) {
      const std::string name = Unquote(row[0]);
      same_declared("inlined table " + name, "SELECT p.cid, p.name, ",
                    " FROM pragma_table_info(" + SqlString(name) + ") p");
    }
    // Value forms: per column the storage classes of its non-NULL values.
    for (const auto& table : QueryRows(ours_, "SELECT name FROM sqlite_master WHERE type = "
                                              "'table' ORDER BY name")) {
      const std::string name = Unquote(table[0]);
      for (const auto& column :
           QueryRows(ours_, "SELECT name FROM pragma_table_info(" + SqlString(name) + ")")) {
        const std::string c = "\"" + Unquote(column[0]) + "\"";
        const std::string sql = StrCat("SELECT DISTINCT typeof(", c, ") FROM \"", name,
                                       "\" WHERE ", c, " IS NOT NULL");
        auto mine = QueryRows(ours_, sql);
        auto theirs = lake_testing::TryQueryRows(theirs_, sql);
        if (!theirs.ok() || mine.empty() || theirs->empty()) continue;
        EXPECT_EQ(RowsText(mine), RowsText(*theirs)) << "storage form of " << name << "." << c;
      }
    }
    // Timestamps and uuids: the forms the extension writes.
    EXPECT_EQ(QueryRows(ours_, "SELECT count(*) FROM ducklake_snapshot WHERE snapshot_time NOT "
                               "GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9] "
                               "[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*+00'")[0][0],
              "0");
    const std::string uuid_glob =
        "'[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f]"
        "[0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-[0-9a-f][0-9a-f][0-9a-f][0-9a-f]-"
        "[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]"
        "[0-9a-f]'";
    EXPECT_EQ(QueryRows(ours_, "SELECT count(*) FROM ducklake_table WHERE table_uuid NOT GLOB " +
                                   uuid_glob)[0][0],
              "0");
    EXPECT_EQ(QueryRows(ours_, "SELECT count(*) FROM ducklake_schema WHERE schema_uuid NOT "
                               "GLOB " + uuid_glob)[0][0],
              "0");
  }

  void CompareRows() {
    Same("ducklake_metadata",
         "SELECT * FROM ducklake_metadata WHERE key NOT IN ('created_by', 'data_path')");
    Same("ducklake_snapshot (ids and counters)",
         "SELECT snapshot_id, schema_version, next_catalog_id, next_file_id FROM "
         "ducklake_snapshot WHERE " + UpTo("snapshot_id"));
    Same("ducklake_snapshot_changes (tokens, author, message)",
         "SELECT * FROM ducklake_snapshot_changes WHERE " + UpTo("snapshot_id"));
    Same("ducklake_schema",
         "SELECT schema_id, begin_snapshot, " + Clip("end_snapshot") +
             ", schema_name, path, path_is_relative FROM ducklake_schema WHERE " +
             UpTo("begin_snapshot"));
    Same("ducklake_table",
         "SELECT table_id, begin_snapshot, " + Clip("end_snapshot") +
             ", schema_id, table_name, path, path_is_relative FROM ducklake_table WHERE " +
             UpTo("begin_snapshot"));
    Same("ducklake_view",
         "SELECT view_id, begin_snapshot, " + Clip("end_snapshot") +
             ", schema_id, view_name, dialect, sql, column_aliases FROM ducklake_view WHERE " +
             UpTo("begin_snapshot"));
    Same("ducklake_column",
         "SELECT column_id, begin_snapshot, " + Clip("end_snapshot") +
             ", table_id, column_order, column_name, column_type, initial_default, "
             "default_value, nulls_allowed, parent_column, default_value_type, "
             "default_value_dialect FROM ducklake_column WHERE " + UpTo("begin_snapshot"));
    Same("ducklake_data_file (ids, snapshots, counts, row ids)",
         "SELECT data_file_id, table_id, begin_snapshot, " + Clip("end_snapshot") +
             ", file_order, path_is_relative, file_format, record_count, row_id_start, "
             "partition_id, encryption_key, mapping_id, partial_max FROM ducklake_data_file "
             "WHERE " + FileIdUpTo("data_file_id"));
    std::string count_known = "0";
    for (const KnownDifference& difference : kKnownCountDifferences) {
      if (fixture_ == difference.fixture) count_known += StrCat(" OR (", difference.what, ")");
    }
    Same("ducklake_file_column_stats",
         "SELECT data_file_id, table_id, column_id, CASE WHEN " + count_known +
             " THEN 'known difference' ELSE value_count END, CASE WHEN " + count_known +
             " THEN 'known difference' ELSE null_count END, " + Zero("min_value") + ", " + Zero("max_value") +
             ", contains_nan, extra_stats FROM ducklake_file_column_stats WHERE "
         "data_file_id IN (SELECT data_file_id FROM ducklake_data_file WHERE " +
             FileIdUpTo("data_file_id") + ")");
    Same("ducklake_schema_versions",
         "SELECT * FROM ducklake_schema_versions WHERE " + UpTo("begin_snapshot"));
    for (const char* table : {"ducklake_partition_info", "ducklake_sort_info", "ducklake_tag",
                              "ducklake_column_tag"}) {
      Same(table, StrCat("SELECT * FROM ", table, " WHERE ", UpTo("begin_snapshot")));
    }
    for (const char* table : {"ducklake_partition_column", "ducklake_file_partition_value",
                              "ducklake_sort_expression", "ducklake_column_mapping",
                              "ducklake_name_mapping", "ducklake_macro",
                              "ducklake_file_variant_stats"}) {
      Same(table, StrCat("SELECT * FROM ", table));
    }
    if (!complete_) return;  // the unversioned rows hold the final state only
    Same("ducklake_inlined_data_tables", "SELECT * FROM ducklake_inlined_data_tables");
    Same("ducklake_table_stats (counts and next_row_id)",
         "SELECT table_id, record_count, next_row_id FROM ducklake_table_stats");
    std::string known = "0";
    for (const KnownDifference& difference : kKnownDifferences) {
      if (fixture_ == difference.fixture) known += StrCat(" OR (", difference.what, ")");
    }
    std::string null_known = "0";
    for (const KnownDifference& difference : kKnownNullDifferences) {
      if (fixture_ == difference.fixture) null_known += StrCat(" OR (", difference.what, ")");
    }
    Same("ducklake_table_column_stats",
         "SELECT table_id, column_id, CASE WHEN " + null_known +
             " THEN 'known difference' ELSE contains_null END, contains_nan, CASE WHEN " + known +
             " THEN 'known difference' ELSE " + Zero("min_value") + " END, CASE WHEN " + known +
             " THEN 'known difference' ELSE " + Zero("max_value") +
             " END, extra_stats FROM ducklake_table_column_stats");
    // Which data file gets which new delete file id follows the extension's hash-map order,
    // so ids are compared as a set (with the replaced files the extension scheduled).
    Same("ducklake_delete_file (the live ones)",
         "SELECT table_id, data_file_id, path_is_relative, format, delete_count, encryption_key "
         "FROM ducklake_delete_file WHERE end_snapshot IS NULL");
    EXPECT_EQ(RowsText(QueryRows(ours_, "SELECT delete_file_id FROM ducklake_delete_file")),
              RowsText(QueryRows(theirs_,
                                 "SELECT delete_file_id FROM ducklake_delete_file UNION ALL "
                                 "SELECT data_file_id FROM ducklake_files_scheduled_for_deletion "
                                 "WHERE path LIKE '%-delete.parquet'")))
        << "the delete file ids handed out";
  }

  void CompareInlinedTables() {
    if (history_rewritten_) return;
    for (const auto& row : QueryRows(ours_, "SELECT name FROM sqlite_master WHERE type = "
                                            "'table' AND " + kInlined)) {
      const std::string name = Unquote(row[0]);
      if (name.rfind("ducklake_inlined_delete_", 0) == 0) {
        Same(name, "SELECT * FROM " + name + " WHERE " + UpTo("begin_snapshot"));
        continue;
      }
      std::string columns;
      for (const auto& column :
           QueryRows(ours_, "SELECT name FROM pragma_table_info(" + SqlString(name) + ")")) {
        const std::string c = Unquote(column[0]);
        columns += columns.empty() ? "" : ", ";
        columns += c == "end_snapshot" ? Clip(c) : "\"" + c + "\"";
      }
      Same(name, "SELECT " + columns + " FROM " + name + " WHERE " + UpTo("begin_snapshot"));
    }
  }

  struct FileRow {
    int64_t id = 0;
    int64_t table_id = 0;
    int64_t begin = 0;
    int64_t data_file_id = 0;  // delete files: the data file
    int64_t row_id_start = 0;
  };

  // The expected rows of table `table_id` at `snapshot`, or "" when the fixture has none.
  std::string ExpectedFile(int64_t table_id, int64_t snapshot) {
    Rows names = QueryRows(theirs_, StrCat("SELECT s.schema_name, t.table_name FROM "
                                           "ducklake_table t JOIN ducklake_schema s USING "
                                           "(schema_id) WHERE t.table_id = ", table_id,
                                           " AND t.begin_snapshot <= ", snapshot,
                                           " AND (t.end_snapshot IS NULL OR t.end_snapshot > ",
                                           snapshot, ")"));
    if (names.size() != 1) return "";
    std::string path = StrCat(FixtureDir(fixture_), "/expected/", Unquote(names[0][0]), ".",
                              Unquote(names[0][1]), "@", snapshot, ".parquet");
    return std::filesystem::exists(path) ? path : "";
  }

  void CompareFilesWithDuckDB() {
    const auto our_data = FilePaths(ours_, lake_.data_path, "ducklake_data_file");
    const auto their_data = FilePaths(theirs_, their_data_, "ducklake_data_file");
    const auto our_deletes = FilePaths(ours_, lake_.data_path, "ducklake_delete_file");
    std::vector<std::string> queries;
    std::vector<std::string> labels;
    for (const auto& [id, path] : our_data) {
      auto theirs = their_data.find(id);
      if (theirs == their_data.end()) {
        ADD_FAILURE() << "data file " << id << " (" << path << ") has no fixture counterpart";
        continue;
      }
      ASSERT_TRUE(std::filesystem::exists(theirs->second)) << theirs->second;
      const std::string a = "read_parquet(" + SqlString(path) + ")";
      const std::string b = "read_parquet(" + SqlString(theirs->second) + ")";
      queries.push_back(StrCat("SELECT (SELECT count(*) FROM ", a, ") AS n, (SELECT count(*) FROM "
                               "(SELECT * FROM ", a, " EXCEPT ALL SELECT * FROM ", b,
                               ")) AS only_tarn, (SELECT count(*) FROM (SELECT * FROM ", b,
                               " EXCEPT ALL SELECT * FROM ", a, ")) AS only_fixture"));
      labels.push_back(StrCat("data file ", id));
    }
    // Which of our data files carry row ids (written by UPDATE).
    std::vector<std::string> schema_queries;
    for (const auto& [id, path] : our_data) {
      schema_queries.push_back("SELECT count(*) AS n FROM parquet_schema(" + SqlString(path) +
                               ") WHERE name = '_ducklake_internal_row_id'");
    }
    auto schema_answers = testing::DuckDBQueryCsvBatch(schema_queries);
    std::set<int64_t> with_row_ids;
    {
      size_t i = 0;
      for (const auto& [id, path] : our_data) {
        ASSERT_TRUE(schema_answers[i].ok()) << schema_answers[i].status().ToString();
        if (*schema_answers[i] == "n\n1\n") with_row_ids.insert(id);
        ++i;
      }
    }
    // Delete files: DuckDB reads the positions; the rows there are exactly those the expected
    // result at the delete file's first snapshot lacks, except rows an UPDATE of that snapshot
    // or an earlier one moved to a new file with their row ids (delete files are cumulative).
    Rows deletes = QueryRows(ours_, "SELECT d.delete_file_id, d.table_id, d.begin_snapshot, "
                                    "d.data_file_id, f.row_id_start, d.delete_count FROM "
                                    "ducklake_delete_file d JOIN ducklake_data_file f USING "
                                    "(data_file_id)");
    for (const auto& row : deletes) {
      const int64_t id = std::stoll(row[0]);
      const int64_t data_file_id = std::stoll(row[3]);
      const std::string expected = ExpectedFile(std::stoll(row[1]), std::stoll(row[2]));
      if (expected.empty()) {
        ADD_FAILURE() << "no expected result for delete file " << id << " at snapshot " << row[2];
        continue;
      }
      const std::string data = our_data.at(data_file_id);
      const std::string rowid = with_row_ids.count(data_file_id)
                                    ? std::string("_ducklake_internal_row_id")
                                    : StrCat(row[4], " + file_row_number");
      std::string moved = "SELECT NULL::BIGINT AS rid";
      for (const auto& file : QueryRows(ours_, StrCat("SELECT data_file_id FROM "
                                                      "ducklake_data_file WHERE table_id = ",
                                                      row[1], " AND begin_snapshot <= ", row[2]))) {
        const int64_t file_id = std::stoll(file[0]);
        if (!with_row_ids.count(file_id)) continue;
        moved += " UNION ALL SELECT _ducklake_internal_row_id FROM read_parquet(" +
                 SqlString(our_data.at(file_id)) + ")";
      }
      queries.push_back(StrCat(
          "WITH f AS (SELECT file_row_number AS pos, ", rowid, " AS rid FROM read_parquet(",
          SqlString(data), ", file_row_number = true)), d AS (SELECT pos, file_path FROM "
          "read_parquet(", SqlString(our_deletes.at(id)), ")), e AS (SELECT rowid FROM "
          "read_parquet(", SqlString(expected), ")), u AS (", moved, ") SELECT (SELECT count(*) "
          "FROM d) AS n, (SELECT count(DISTINCT pos) FROM d) AS distinct_positions, (SELECT "
          "count(*) FROM d WHERE pos NOT IN (SELECT pos FROM f)) AS outside, (SELECT count(*) "
          "FROM f WHERE pos IN (SELECT pos FROM d) AND rid IN (SELECT rowid FROM e) AND rid NOT "
          "IN (SELECT rid FROM u WHERE rid IS NOT NULL)) AS deleted_but_expected, (SELECT "
          "count(*) FROM f WHERE pos NOT IN (SELECT pos FROM d) AND rid NOT IN (SELECT rowid FROM "
          "e)) AS kept_but_not_expected, (SELECT count(*) FROM d WHERE file_path <> ",
          SqlString(data), ") AS wrong_path"));
      labels.push_back(StrCat("delete file ", id, " (", row[5], " rows)"));
    }
    auto answers = testing::DuckDBQueryCsvBatch(queries);
    ASSERT_EQ(answers.size(), queries.size());
    for (size_t i = 0; i < answers.size(); ++i) {
      ASSERT_TRUE(answers[i].ok()) << labels[i] << ": " << answers[i].status().ToString();
      const std::string& csv = *answers[i];
      static const std::regex kData(R"(^n,only_tarn,only_fixture\n([0-9]+),0,0\n$)");
      static const std::regex kDelete(
          R"(^n,distinct_positions,outside,deleted_but_expected,kept_but_not_expected,wrong_path\n([0-9]+),\1,0,0,0,0\n$)");
      const bool data_file = labels[i].rfind("data", 0) == 0;
      EXPECT_TRUE(std::regex_match(csv, data_file ? kData : kDelete)) << labels[i] << ":\n" << csv;
    }
    checked_files_ = static_cast<int>(queries.size());
  }

  // tarn's scan of each snapshot equals the fixture's expected file.
  void CompareSnapshots() {
    int compared = 0;
    for (const testing::ExpectedFile& file : testing::ListExpectedFiles(fixture_)) {
      if (!file.snapshot || *file.snapshot > reached_) continue;
      SCOPED_TRACE(std::filesystem::path(file.path).filename().string());
      const std::string out = lake_.dir->Join(StrCat("snapshot-", compared, ".parquet"));
      Status copied = lake_testing::RunStatement(
          *lake_.session, StrCat("COPY (SELECT rowid, * FROM \"", file.schema, "\".\"",
                                 file.table, "\" AT (VERSION => ", *file.snapshot,
                                 ") ORDER BY rowid) TO ", SqlString(out)));
      ASSERT_TRUE(copied.ok()) << copied.ToString();
      auto expected = table_testing::ReadParquet(file.path);
      auto actual = table_testing::ReadParquet(out);
      ASSERT_TRUE(expected.ok() && actual.ok());
      // See support/fixture_lake.h.
      testing::CorrectKnownFixtureDefects(fixture_, expected->get());
      EXPECT_TRUE(table_testing::BatchesEqual(**expected, **actual));
      ++compared;
    }
    EXPECT_GT(compared, 0) << "no expected snapshot of " << fixture_ << " was compared";
    ::testing::Test::RecordProperty("snapshots_compared", compared);
    ::testing::Test::RecordProperty("files_checked_by_duckdb", checked_files_);
  }

  std::string fixture_;
  std::string theirs_;
  std::string their_data_;
  lake_testing::SqlLake lake_;
  std::string ours_;
  bool complete_ = false;
  int64_t reached_ = 0;
  int64_t next_file_id_ = 0;
  bool history_rewritten_ = false;
  int checked_files_ = 0;
};

class SpecReplayTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SpecReplayTest, CatalogAndFilesMatchTheExtension) { SpecReplay(GetParam()).Run(); }

// Catalogs not compared row by row (spec_answers_test.cc replays them and compares every
// snapshot's answer, the change feed and the snapshot numbering); where their catalogs differ:
// inlinedtypes and schemaflux (the extension drops the inlined tables a
// flush emptied, writes the flushed files newest schema first and gives each a name mapping),
// partitioned2 (the extension writes a partitioned insert's files in an order of its hash
// table, so file ids and row ids differ), sorted (rows whose sort keys tie get their row ids in
// the order of DuckDB's sort, which is not the insertion order).
INSTANTIATE_TEST_SUITE_P(Fixtures, SpecReplayTest,
                         ::testing::Values("basic", "compacted", "evolution", "inlined", "nan",
                                           "nested", "types3"),
                         [](const auto& param_info) { return param_info.param; });

}  // namespace
}  // namespace tarn
