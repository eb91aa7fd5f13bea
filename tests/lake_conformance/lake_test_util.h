// Helpers for the lake conformance tests (header-only): catalog rows as text, the files a
// catalog references resolved to paths, fixture spec.sql split into statements, and lakes
// built through a SQL Session.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "support/fixture_lake.h"
#include "support/postgres_test_util.h"
#include "support/s3_test_util.h"
#include "support/test_util.h"
#include "tarn/catalog.h"
#include "tarn/catalog_locator.h"
#include "tarn/lake_write.h"
#include "tarn/sql.h"

namespace tarn::lake_testing {

using Rows = std::vector<std::vector<std::string>>;

// A separate read-only connection to the catalog `db`: a SQLite file path, or a lake locator
// ("ducklake:sqlite:PATH", "ducklake:postgres:CONNINFO").
inline Result<std::unique_ptr<CatalogStore>> OpenTestCatalog(const std::string& db) {
  constexpr std::string_view kPostgres = "ducklake:postgres:";
  constexpr std::string_view kSqlite = "ducklake:sqlite:";
  if (db.rfind(kPostgres, 0) == 0) {
    return OpenPostgresCatalogStore(db.substr(kPostgres.size()), /*read_only=*/true);
  }
  return OpenSqliteCatalogStore(db.rfind(kSqlite, 0) == 0 ? db.substr(kSqlite.size()) : db,
                                /*read_only=*/true);
}

// Runs `sql` on the catalog `db` (OpenTestCatalog). Cells are CatalogDatum::ToString, so the
// storage form shows: 42, 'text', 1.5, x'00', NULL.
inline Result<Rows> TryQueryRows(const std::string& db, const std::string& sql) {
  TARN_ASSIGN_OR_RETURN(auto store, OpenTestCatalog(db));
  CatalogQuery query;
  query.sql = sql;
  query.what = "test query";
  TARN_ASSIGN_OR_RETURN(auto result, store->Query(query));
  Rows rows;
  for (const auto& row : result.rows) {
    std::vector<std::string> cells;
    for (const CatalogDatum& cell : row) cells.push_back(cell.ToString());
    rows.push_back(std::move(cells));
  }
  return rows;
}

inline Rows QueryRows(const std::string& db, const std::string& sql) {
  Result<Rows> rows = TryQueryRows(db, sql);
  EXPECT_TRUE(rows.ok()) << sql << ": " << rows.status().ToString();
  return rows.ok() ? std::move(rows).value() : Rows{};
}

inline std::string RowsText(Rows rows, bool sort = true) {
  if (sort) std::sort(rows.begin(), rows.end());
  std::string out;
  for (const auto& row : rows) {
    for (size_t i = 0; i < row.size(); ++i) out += (i ? "|" : "") + row[i];
    out += "\n";
  }
  return out;
}

inline std::string Unquote(const std::string& cell) {
  if (cell.size() >= 2 && cell.front() == '\'') return cell.substr(1, cell.size() - 2);
  return cell;
}

inline std::string FixtureDir(const std::string& name) { return testing::FixtureLakePath(name); }

// The statements of a spec.sql, one per ';'-terminated line group, without the ';'.
inline std::vector<std::string> SpecStatements(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::vector<std::string> out;
  std::string current;
  std::string line;
  while (std::getline(text, line)) {
    if (line.empty() || line.rfind("--", 0) == 0) continue;
    current += (current.empty() ? "" : "\n") + line;
    if (!current.empty() && current.back() == ';') {
      current.pop_back();
      out.push_back(current);
      current.clear();
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

// Full paths of every file row of `file_table` (ducklake_data_file or ducklake_delete_file),
// keyed by its id, resolved against `data_root` (ends in '/') through the schema and table
// paths (all versions: paths do not change over renames).
inline std::map<int64_t, std::string> FilePaths(const std::string& db, const std::string& data_root,
                                                const std::string& file_table) {
  const std::string id = file_table == "ducklake_data_file" ? "data_file_id" : "delete_file_id";
  Rows rows = QueryRows(
      db, "SELECT f." + id +
              ", f.path, f.path_is_relative, t.path, t.path_is_relative, s.path, "
              "s.path_is_relative FROM " + file_table +
              " f JOIN (SELECT DISTINCT table_id, schema_id, path, path_is_relative FROM "
              "ducklake_table) t ON t.table_id = f.table_id JOIN (SELECT DISTINCT schema_id, "
              "path, path_is_relative FROM ducklake_schema) s ON s.schema_id = t.schema_id");
  std::map<int64_t, std::string> out;
  for (const auto& r : rows) {
    std::string schema = r[6] == "1" ? data_root + Unquote(r[5]) : Unquote(r[5]);
    std::string table = r[4] == "1" ? schema + Unquote(r[3]) : Unquote(r[3]);
    std::string file = r[2] == "1" ? table + Unquote(r[1]) : Unquote(r[1]);
    out[std::stoll(r[0])] = file;
  }
  return out;
}

// Drains a statement's result (errors while reading included).
inline Status RunStatement(Session& session, const std::string& sql) {
  TARN_ASSIGN_OR_RETURN(QueryResult result, session.Execute(sql));
  if (result.reader) {
    while (true) {
      TARN_ASSIGN_OR_RETURN(auto batch, result.reader->Next());
      if (!batch) break;
    }
  }
  return Status::OK();
}

// A new lake at dir/lake.sqlite, or with `postgres` in a new schema of the test server
// (TARN_TEST_PG), data under dir/data/, attached to a fresh Session as "lake".
struct SqlLake {
  std::unique_ptr<testing::TempDir> dir = std::make_unique<testing::TempDir>();
  bool postgres = false;
  bool s3 = false;  // the data files on the S3 test server (TARN_TEST_S3)
  std::string catalog_path;  // the SQLite file; empty on PostgreSQL
  std::string locator;       // "ducklake:sqlite:<catalog_path>" or "ducklake:postgres:..."
  std::string data_path;     // ends in '/'
  std::unique_ptr<Session> session;

  Status Create(std::optional<int64_t> inlining_limit = std::nullopt) {
    if (postgres) {
      TARN_ASSIGN_OR_RETURN(std::string conninfo, testing::NewPostgresSchema());
      locator = "ducklake:postgres:" + conninfo;
    } else {
      catalog_path = dir->Join("lake.sqlite");
      locator = "ducklake:sqlite:" + catalog_path;
    }
    data_path = s3 ? testing::UniqueS3Prefix("matrix") : dir->Join("data") + "/";
    CreateLakeOptions options;
    options.data_path = data_path;
    options.data_inlining_row_limit = inlining_limit;
    TARN_ASSIGN_OR_RETURN(auto lake, CreateLake(locator, options));
    session = std::make_unique<Session>();
    if (s3) {
      TARN_ASSIGN_OR_RETURN(std::string secret, testing::TestS3SecretSql());
      TARN_RETURN_NOT_OK(session->Execute(secret).status());
    }
    return session->Attach(std::move(lake));
  }
};

}  // namespace tarn::lake_testing
