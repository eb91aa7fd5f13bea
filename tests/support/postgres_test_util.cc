#include "support/postgres_test_util.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>

#include "tarn/catalog.h"
#include "tarn/catalog_locator.h"
#include "tarn/lake_write.h"

namespace tarn::testing {

namespace {

std::string PostgresTypeOfSqlite(const std::string& declared) {
  std::string upper = declared;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  if (upper.find("INT") != std::string::npos) return "bigint";
  if (upper == "BLOB") return "bytea";
  if (upper == "DOUBLE" || upper == "REAL" || upper == "FLOAT") return "double precision";
  if (upper == "BOOLEAN") return "boolean";
  return "character varying";
}

std::string Quote(const std::string& name) {
  std::string quoted = "\"";
  for (char c : name) {
    if (c == '"') quoted.push_back('"');
    quoted.push_back(c);
  }
  return quoted + "\"";
}

}  // namespace

Result<std::string> TestPostgresConninfo() {
  const char* conninfo = std::getenv("TARN_TEST_PG");
  if (conninfo == nullptr || *conninfo == '\0') {
    return Status::InvalidArgument(
        "TARN_TEST_PG is not set: run the tests through scripts/test.sh, or start a server with "
        "scripts/pg-server.sh start DIR and export TARN_TEST_PG=<the string it prints>");
  }
  return std::string(conninfo);
}

Result<std::string> NewPostgresSchema() {
  TARN_ASSIGN_OR_RETURN(std::string conninfo, TestPostgresConninfo());
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<CatalogStore> store,
                        OpenPostgresCatalogStore(conninfo, /*read_only=*/false));
  static std::atomic<int64_t> counter{0};
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  const std::string schema = StrCat("t_", ::getpid(), "_", now % 1000000000, "_", counter++);
  TARN_RETURN_NOT_OK(store->Execute(StrCat("CREATE SCHEMA ", schema), {}).status());
  return StrCat(conninfo, " options='-csearch_path=", schema, "'");
}

Status CopySqliteCatalogToPostgres(const std::string& sqlite_path, const std::string& conninfo) {
  {
    // The 28 catalog tables as tarn creates them on PostgreSQL, emptied of bootstrap rows.
    CreateLakeOptions options;
    options.data_path = "/copied/";
    TARN_ASSIGN_OR_RETURN(std::unique_ptr<Lake> lake,
                          CreateLake("ducklake:postgres:" + conninfo, options));
  }
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<CatalogStore> source,
                        OpenSqliteCatalogStore(sqlite_path, /*read_only=*/true));
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<CatalogStore> target,
                        OpenPostgresCatalogStore(conninfo, /*read_only=*/false));
  TARN_RETURN_NOT_OK(target->Begin(CatalogTransactionMode::kWrite));
  TARN_ASSIGN_OR_RETURN(std::vector<std::string> created, target->TableNames());
  for (const std::string& table : created) {
    TARN_RETURN_NOT_OK(target->Execute("DELETE FROM " + Quote(table), {}).status());
  }
  TARN_ASSIGN_OR_RETURN(std::vector<std::string> tables, source->TableNames());
  for (const std::string& table : tables) {
    TARN_ASSIGN_OR_RETURN(auto source_columns, source->TableColumnTypes(table));
    TARN_ASSIGN_OR_RETURN(bool exists, target->TableExists(table));
    if (!exists) {
      std::string ddl = "CREATE TABLE " + Quote(table) + " (";
      for (size_t i = 0; i < source_columns.size(); ++i) {
        ddl += StrCat(i ? ", " : "", Quote(source_columns[i].first), " ",
                      PostgresTypeOfSqlite(source_columns[i].second));
      }
      TARN_RETURN_NOT_OK(target->Execute(ddl + ")", {}).status());
    }
    TARN_ASSIGN_OR_RETURN(auto target_columns, target->TableColumnTypes(table));
    std::string insert = "INSERT INTO " + Quote(table) + " (";
    std::string values;
    for (size_t i = 0; i < source_columns.size(); ++i) {
      insert += StrCat(i ? ", " : "", Quote(source_columns[i].first));
      values += StrCat(i ? ", " : "", "?", i + 1);
    }
    insert += ") VALUES (" + values + ")";
    CatalogQuery query;
    query.sql = "SELECT * FROM " + Quote(table);
    query.what = table;
    TARN_ASSIGN_OR_RETURN(CatalogResult rows, source->Query(query));
    for (auto& row : rows.rows) {
      for (size_t i = 0; i < row.size(); ++i) {
        std::string type;
        for (const auto& [name, declared] : target_columns) {
          if (name == source_columns[i].first) type = declared;
        }
        // SQLite keeps any value in any column: give each the form its PostgreSQL column takes.
        if (type == "BLOB" && row[i].kind() == CatalogDatum::Kind::kText) {
          row[i] = CatalogDatum::Blob(row[i].bytes());
        } else if (type != "BLOB" && row[i].kind() == CatalogDatum::Kind::kBlob) {
          row[i] = CatalogDatum::Text(row[i].bytes());
        }
      }
      TARN_RETURN_NOT_OK(target->Execute(insert, row).status());
    }
  }
  return target->Commit();
}

}  // namespace tarn::testing
