// Differential: the same queries by tarn over the `basic` fixture lake (attached through
// Session::Attach) and by DuckDB over the lake's Parquet files with the deletes applied by
// hand (an anti-join of each data file's file_row_number with its delete file's positions;
// rowid = the embedded _ducklake_internal_row_id, else row_id_start + file_row_number). The
// CSV text must be equal byte for byte. Every query orders its output completely or returns
// one row.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/fixture_lake.h"
#include "support/oracle.h"
#include "support/sql_test_util.h"
#include "support/test_util.h"
#include "tarn/catalog.h"
#include "tarn/format.h"
#include "tarn/parquet.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

using testing::CopyFixtureCatalog;
using testing::FixtureLakePath;

std::string Literal(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

// DuckDB SQL defining view t as table main.t of `lake` at its latest snapshot.
Result<std::string> DuckDBView(Lake& lake, const std::string& table_name) {
  TARN_ASSIGN_OR_RETURN(auto snapshot, lake.LoadSnapshot());
  auto info = snapshot->FindTable("main", table_name);
  if (!info) return Status::NotFound("no table main.", table_name);
  TARN_ASSIGN_OR_RETURN(auto table, lake.LoadTable(*snapshot, info->table_id));
  std::string columns;
  for (const ColumnInfo& column : info->columns) {
    columns += (columns.empty() ? "" : ", ") + std::string("\"") + column.name + "\"";
  }
  for (const auto& inlined : info->inlined_tables) {
    TARN_ASSIGN_OR_RETURN(auto rows, lake.ReadInlinedRows(*table, inlined));
    if (rows->num_rows > 0) return Status::NotSupported("the oracle view has no inlined rows");
  }
  std::string parts;
  for (const DataFileInfo& file : table->data_files) {
    if (!file.inlined_deletes.empty()) {
      return Status::NotSupported("the oracle view has no inlined deletes");
    }
    TARN_ASSIGN_OR_RETURN(auto reader, ParquetReader::Open(LocalFileSystem(), file.path));
    bool embeds_row_ids = reader->schema().FindField("_ducklake_internal_row_id") >= 0;
    std::string rowid = embeds_row_ids ? "_ducklake_internal_row_id"
                                       : std::to_string(file.row_id_start.value_or(0)) +
                                             " + file_row_number";
    std::string part = "SELECT " + rowid + " AS rowid, " + columns + " FROM read_parquet(" +
                       Literal(file.path) + ", file_row_number = true)";
    if (file.delete_file) {
      part += " WHERE file_row_number NOT IN (SELECT pos FROM read_parquet(" +
              Literal(file.delete_file->path) + "))";
    }
    parts += (parts.empty() ? "" : " UNION ALL ") + part;
  }
  return "CREATE VIEW " + table_name + " AS SELECT rowid, " + columns + " FROM (" + parts +
         ")";
}

using testing::TarnCsv;

const std::vector<std::string> kQueries = {
    "SELECT count(*) FROM t",
    "SELECT rowid, id, s, f64 FROM t WHERE id % 97 = 5 ORDER BY rowid",
    "SELECT s, count(*) AS n, sum(i32) AS total, min(d) AS lo, max(ts) AS hi FROM t "
    "WHERE id < 3000 GROUP BY s ORDER BY s",
    "SELECT id, dec, dec38, u FROM t WHERE dec BETWEEN 100 AND 120 ORDER BY id",
    "SELECT count(*), count(f64), sum(ubig), sum(ui), max(small) FROM t WHERE b",
    "SELECT rowid, id, tstz, tm, bl FROM t WHERE rowid BETWEEN 11990 AND 12010 ORDER BY rowid",
    "SELECT id, f64, f32 FROM t WHERE f64 > 1000 OR f64 < 0 OR f64 IS NULL ORDER BY id",
    "SELECT DISTINCT tiny FROM t WHERE ub > 190 ORDER BY 1",
    "SELECT id, s FROM t WHERE s LIKE '%\\_u' ESCAPE '\\' ORDER BY id LIMIT 20",
    "SELECT rowid, * EXCLUDE (rowid) FROM t WHERE id IN (1, 2, 3, 100003, 20050) ORDER BY id",
    "SELECT rowid, id FROM t WHERE id >= 20000 ORDER BY rowid DESC LIMIT 5",
    "SELECT count(*) FROM t WHERE rowid % 2 = 0 AND id < 5000",
};

TEST(LakeDifferentialTest, BasicLakeEqualsDuckDBOverItsFiles) {
  testing::TempDir dir;
  const std::string fixture = "basic";
  ASSERT_TRUE(testing::FileExists(FixtureLakePath(fixture) + "/catalog.sqlite"));
  const std::string catalog = CopyFixtureCatalog(fixture, dir);
  LakeOpenOptions options;
  options.data_path = FixtureLakePath(fixture) + "/data";
  auto lake = Lake::Open("ducklake:sqlite:" + catalog, options);
  ASSERT_TRUE(lake.ok()) << lake.status().ToString();
  auto view = DuckDBView(**lake, "t");
  ASSERT_TRUE(view.ok()) << view.status().ToString();

  std::vector<std::string> oracle_queries;
  for (const std::string& query : kQueries) oracle_queries.push_back(*view + "; " + query);
  std::vector<Result<std::string>> expected = testing::DuckDBQueryCsvBatch(oracle_queries);
  ASSERT_EQ(expected.size(), kQueries.size());

  Session session;
  ASSERT_TRUE(session.Attach(std::move(lake).value()).ok());
  for (int threads : {1, 4}) {
    ASSERT_TRUE(session.Execute("SET threads = " + std::to_string(threads)).ok());
    for (size_t i = 0; i < kQueries.size(); ++i) {
      ASSERT_TRUE(expected[i].ok()) << kQueries[i] << "\n" << expected[i].status().ToString();
      Result<std::string> actual = TarnCsv(&session, kQueries[i]);
      ASSERT_TRUE(actual.ok()) << kQueries[i] << "\n" << actual.status().ToString();
      EXPECT_EQ(*actual, *expected[i]) << kQueries[i];
      EXPECT_GT(expected[i]->size(), 0u);
    }
  }
}

}  // namespace
}  // namespace tarn
