// SqliteCatalogStore: a CatalogStore on an SQLite database file (Debian's libsqlite3).
#include <sqlite3.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>

#include "tarn/catalog.h"
#include "tarn/lake_write.h"

namespace tarn {

namespace {

class SqliteCatalogStore final : public CatalogStore {
 public:
  SqliteCatalogStore(sqlite3* db, std::string path, bool read_only)
      : db_(db), path_(std::move(path)), read_only_(read_only) {}
  ~SqliteCatalogStore() override {
    for (auto& [sql, stmt] : statement_cache_) sqlite3_finalize(stmt);
    if (in_transaction_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close_v2(db_);
  }
  SqliteCatalogStore(const SqliteCatalogStore&) = delete;
  SqliteCatalogStore& operator=(const SqliteCatalogStore&) = delete;

  std::string_view backend() const override { return "sqlite"; }
  const std::string& location() const override { return path_; }
  bool read_only() const override { return read_only_; }

  Result<CatalogResult> Query(const CatalogQuery& query) override;
  Result<int64_t> Execute(std::string_view sql, std::span<const CatalogDatum> params) override;
  Result<bool> TableExists(std::string_view table_name) override;
  Result<std::vector<std::string>> TableColumns(std::string_view table_name) override;
  Result<std::vector<std::pair<std::string, std::string>>> TableColumnTypes(
      std::string_view table_name) override;
  Result<std::vector<std::string>> TableNames() override;
  Status Begin(CatalogTransactionMode mode) override;
  Status Commit() override;
  Status Rollback() override;
  bool in_transaction() const override { return in_transaction_; }

  // A Status for the connection's last error, with `what` as context.
  Status Error(int rc, std::string_view what) const;

  // Takes back a statement Prepare handed out: reset, unbound and kept for the next Prepare of
  // the same SQL (finalized when the cache is full).
  void Release(sqlite3_stmt* stmt);

 private:
  // Catalog loads run the same few hundred statements over and over; preparing them is most
  // of a small query's cost.
  static constexpr size_t kMaxCachedStatements = 256;

  // Prepares `sql` (or reuses its cached statement) and binds `params`.
  Result<sqlite3_stmt*> Prepare(std::string_view sql, std::span<const CatalogDatum> params,
                                std::string_view what);

  sqlite3* db_;
  std::string path_;
  bool read_only_;
  bool in_transaction_ = false;
  // Prepared statements not in use, by their SQL text. A statement in use is not here, so a
  // nested query of the same text prepares its own.
  std::unordered_map<std::string, sqlite3_stmt*> statement_cache_;
};

void SqliteCatalogStore::Release(sqlite3_stmt* stmt) {
  sqlite3_reset(stmt);
  sqlite3_clear_bindings(stmt);
  const char* sql = sqlite3_sql(stmt);
  if (sql == nullptr || statement_cache_.size() >= kMaxCachedStatements ||
      !statement_cache_.emplace(sql, stmt).second) {
    sqlite3_finalize(stmt);
  }
}

// Gives a statement back to its store when it goes out of scope.
struct StatementCloser {
  SqliteCatalogStore* store = nullptr;
  void operator()(sqlite3_stmt* stmt) const {
    if (store != nullptr) {
      store->Release(stmt);
    } else {
      sqlite3_finalize(stmt);
    }
  }
};
using StatementPtr = std::unique_ptr<sqlite3_stmt, StatementCloser>;

Status SqliteCatalogStore::Error(int rc, std::string_view what) const {
  const char* message = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
  std::string context = StrCat("SQLite catalog '", path_, "': ", what, ": ", message);
  switch (rc & 0xff) {
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Status::Corruption(context);
    case SQLITE_CONSTRAINT:
    case SQLITE_BUSY:    // another connection holds the lock: a race the commit can retry
    case SQLITE_LOCKED:
      return Status::Conflict(context);
    case SQLITE_ERROR:
    case SQLITE_READONLY:
    case SQLITE_RANGE:
    case SQLITE_MISMATCH:
    case SQLITE_TOOBIG:
      return Status::InvalidArgument(context);
    case SQLITE_NOMEM:
      return Status::ResourceExhausted(context);
    default:
      return Status::IOError(context);
  }
}

Result<sqlite3_stmt*> SqliteCatalogStore::Prepare(std::string_view sql,
                                                  std::span<const CatalogDatum> params,
                                                  std::string_view what) {
  sqlite3_stmt* stmt = nullptr;
  int rc = SQLITE_OK;
  if (auto cached = statement_cache_.find(std::string(sql)); cached != statement_cache_.end()) {
    stmt = cached->second;
    statement_cache_.erase(cached);
  } else {
    rc = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(stmt);
      return Error(rc, StrCat("preparing a query on ", what));
    }
    if (stmt == nullptr) return Status::InvalidArgument("empty SQL statement for ", what);
  }
  StatementPtr guard(stmt, StatementCloser{this});
  if (static_cast<size_t>(sqlite3_bind_parameter_count(stmt)) != params.size()) {
    return Status::InvalidArgument("query on ", what, " has ", sqlite3_bind_parameter_count(stmt),
                                   " parameters, ", params.size(), " given");
  }
  for (size_t i = 0; i < params.size(); ++i) {
    int index = static_cast<int>(i) + 1;
    const CatalogDatum& p = params[i];
    switch (p.kind()) {
      case CatalogDatum::Kind::kNull:
        rc = sqlite3_bind_null(stmt, index);
        break;
      case CatalogDatum::Kind::kInteger:
        rc = sqlite3_bind_int64(stmt, index, p.integer());
        break;
      case CatalogDatum::Kind::kReal:
        rc = sqlite3_bind_double(stmt, index, p.real());
        break;
      case CatalogDatum::Kind::kText:
        rc = sqlite3_bind_text64(stmt, index, p.bytes().data(), p.bytes().size(),
                                 SQLITE_TRANSIENT, SQLITE_UTF8);
        break;
      case CatalogDatum::Kind::kBlob:
        rc = sqlite3_bind_blob64(stmt, index, p.bytes().data(), p.bytes().size(),
                                 SQLITE_TRANSIENT);
        break;
    }
    if (rc != SQLITE_OK) return Error(rc, StrCat("binding parameter ", index, " for ", what));
  }
  return guard.release();
}

CatalogDatum ReadCell(sqlite3_stmt* stmt, int column) {
  switch (sqlite3_column_type(stmt, column)) {
    case SQLITE_INTEGER:
      return CatalogDatum::Integer(sqlite3_column_int64(stmt, column));
    case SQLITE_FLOAT:
      return CatalogDatum::Real(sqlite3_column_double(stmt, column));
    case SQLITE_TEXT: {
      const unsigned char* text = sqlite3_column_text(stmt, column);
      int size = sqlite3_column_bytes(stmt, column);
      return CatalogDatum::Text(std::string(reinterpret_cast<const char*>(text),
                                            static_cast<size_t>(size)));
    }
    case SQLITE_BLOB: {
      const void* blob = sqlite3_column_blob(stmt, column);
      int size = sqlite3_column_bytes(stmt, column);
      if (blob == nullptr || size <= 0) return CatalogDatum::Blob("");
      return CatalogDatum::Blob(
          std::string(static_cast<const char*>(blob), static_cast<size_t>(size)));
    }
    default:
      return CatalogDatum::Null();
  }
}

Result<CatalogResult> SqliteCatalogStore::Query(const CatalogQuery& query) {
  const std::string what = query.what.empty() ? std::string("catalog query") : query.what;
  TARN_ASSIGN_OR_RETURN(sqlite3_stmt * raw, Prepare(query.sql, query.params, what));
  StatementPtr stmt(raw, StatementCloser{this});
  CatalogResult result;
  const int columns = sqlite3_column_count(stmt.get());
  for (int c = 0; c < columns; ++c) {
    const char* name = sqlite3_column_name(stmt.get(), c);
    result.column_names.emplace_back(name != nullptr ? name : "");
  }
  while (true) {
    int rc = sqlite3_step(stmt.get());
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) return Error(rc, StrCat("reading ", what));
    std::vector<CatalogDatum> row;
    row.reserve(static_cast<size_t>(columns));
    for (int c = 0; c < columns; ++c) {
      CatalogDatum cell = ReadCell(stmt.get(), c);
      CatalogType type = static_cast<size_t>(c) < query.result_types.size()
                             ? query.result_types[static_cast<size_t>(c)]
                             : CatalogType::kAny;
      Result<CatalogDatum> converted = ConvertCatalogDatum(cell, type);
      if (!converted.ok()) {
        std::string key = row.empty() ? std::string()
                                      : StrCat(" (", result.column_names[0], " = ",
                                               row[0].ToString(), ")");
        return Status::Corruption("SQLite catalog '", path_, "': ", what, " row ",
                                  result.rows.size() + 1, key, ", column ",
                                  result.column_names[static_cast<size_t>(c)], ": ",
                                  converted.status().message());
      }
      row.push_back(std::move(converted).value());
    }
    result.rows.push_back(std::move(row));
  }
  return result;
}

Result<int64_t> SqliteCatalogStore::Execute(std::string_view sql,
                                            std::span<const CatalogDatum> params) {
  TARN_ASSIGN_OR_RETURN(sqlite3_stmt * raw, Prepare(sql, params, "statement"));
  StatementPtr stmt(raw, StatementCloser{this});
  while (true) {
    int rc = sqlite3_step(stmt.get());
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) return Error(rc, StrCat("executing '", sql.substr(0, 80), "'"));
  }
  return static_cast<int64_t>(sqlite3_changes64(db_));
}

Result<bool> SqliteCatalogStore::TableExists(std::string_view table_name) {
  CatalogQuery query;
  query.sql = "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?1";
  query.params.push_back(CatalogDatum::Text(std::string(table_name)));
  query.what = "sqlite_master";
  TARN_ASSIGN_OR_RETURN(CatalogResult result, Query(query));
  return !result.rows.empty();
}

Result<std::vector<std::string>> SqliteCatalogStore::TableColumns(std::string_view table_name) {
  CatalogQuery query;
  query.sql = "SELECT name FROM pragma_table_info(?1) ORDER BY cid";
  query.params.push_back(CatalogDatum::Text(std::string(table_name)));
  query.result_types = {CatalogType::kVarchar};
  query.what = StrCat("the columns of ", table_name);
  TARN_ASSIGN_OR_RETURN(CatalogResult result, Query(query));
  if (result.rows.empty()) {
    return Status::NotFound("SQLite catalog '", path_, "' has no table ", table_name);
  }
  std::vector<std::string> names;
  for (auto& row : result.rows) names.push_back(row[0].bytes());
  return names;
}

Result<std::vector<std::pair<std::string, std::string>>> SqliteCatalogStore::TableColumnTypes(
    std::string_view table_name) {
  CatalogQuery query;
  query.sql = "SELECT name, type FROM pragma_table_info(?1) ORDER BY cid";
  query.params.push_back(CatalogDatum::Text(std::string(table_name)));
  query.result_types = {CatalogType::kVarchar, CatalogType::kVarchar};
  query.what = StrCat("the columns of ", table_name);
  TARN_ASSIGN_OR_RETURN(CatalogResult result, Query(query));
  if (result.rows.empty()) {
    return Status::NotFound("SQLite catalog '", path_, "' has no table ", table_name);
  }
  std::vector<std::pair<std::string, std::string>> columns;
  for (auto& row : result.rows) {
    columns.emplace_back(row[0].bytes(), row[1].is_null() ? std::string() : row[1].bytes());
  }
  return columns;
}

Result<std::vector<std::string>> SqliteCatalogStore::TableNames() {
  CatalogQuery query;
  query.sql = "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name";
  query.result_types = {CatalogType::kVarchar};
  query.what = "sqlite_master";
  TARN_ASSIGN_OR_RETURN(CatalogResult result, Query(query));
  std::vector<std::string> names;
  for (auto& row : result.rows) names.push_back(row[0].bytes());
  return names;
}

Status SqliteCatalogStore::Begin(CatalogTransactionMode mode) {
  if (in_transaction_) return Status::Internal("catalog transaction already open");
  const char* sql = mode == CatalogTransactionMode::kWrite ? "BEGIN IMMEDIATE" : "BEGIN";
  int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return Error(rc, "starting a transaction");
  in_transaction_ = true;
  return Status::OK();
}

Status SqliteCatalogStore::Commit() {
  if (!in_transaction_) return Status::Internal("no catalog transaction to commit");
  int rc = sqlite3_exec(db_, "COMMIT", nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) {
    // SQLite keeps the transaction open when COMMIT fails with BUSY; end it for a clean state.
    Status error = Error(rc, "committing");
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    in_transaction_ = false;
    return error;
  }
  in_transaction_ = false;
  return Status::OK();
}

Status SqliteCatalogStore::Rollback() {
  if (!in_transaction_) return Status::Internal("no catalog transaction to roll back");
  in_transaction_ = false;
  int rc = sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) return Error(rc, "rolling back");
  return Status::OK();
}

}  // namespace

namespace {

// The connection's settings every catalog needs, then a first read of the schema (SQLite reads
// the header lazily: a file that is no database fails here, not at the first query).
Result<std::unique_ptr<CatalogStore>> Configure(std::unique_ptr<SqliteCatalogStore> store,
                                                sqlite3* db, const std::string& path) {
  sqlite3_busy_timeout(db, 5000);
  // A double-quoted name that matches no column must be an error, never the string literal
  // SQLite's legacy rule makes of it (a missing column of an inlined table would read as its
  // own name).
  for (int option : {SQLITE_DBCONFIG_DQS_DML, SQLITE_DBCONFIG_DQS_DDL}) {
    int enabled = 1;
    int rc = sqlite3_db_config(db, option, 0, &enabled);
    if (rc != SQLITE_OK || enabled != 0) {
      return store->Error(rc == SQLITE_OK ? SQLITE_ERROR : rc,
                          "disabling double-quoted string literals");
    }
  }
  int rc = sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
  if (rc != SQLITE_OK) {
    if ((rc & 0xff) == SQLITE_NOTADB) {
      return Status::Corruption("'", path, "' is not a SQLite database");
    }
    return store->Error(rc, "reading the schema");
  }
  return std::unique_ptr<CatalogStore>(std::move(store));
}

}  // namespace

Result<std::unique_ptr<CatalogStore>> OpenInMemorySqliteCatalogStore() {
  sqlite3* db = nullptr;
  // A private database: ":memory:" without SQLITE_OPEN_URI or a shared cache is one of its own.
  int rc = sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return Status::IOError("cannot open an in-memory SQLite catalog: ", message);
  }
  auto store = std::make_unique<SqliteCatalogStore>(db, ":memory:", /*read_only=*/false);
  return Configure(std::move(store), db, ":memory:");
}

Result<std::unique_ptr<CatalogStore>> OpenSqliteCatalogStore(const std::string& path,
                                                             bool read_only) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) {
      return Status::NotFound("DuckLake catalog database '", path, "' does not exist");
    }
    return Status::IOError("cannot stat catalog database '", path, "': ", std::strerror(errno));
  }
  if (!S_ISREG(st.st_mode)) {
    return Status::InvalidArgument("catalog database '", path, "' is not a regular file");
  }
  sqlite3* db = nullptr;
  int flags = read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE;
  int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return Status::IOError("cannot open SQLite catalog '", path, "': ", message);
  }
  auto store = std::make_unique<SqliteCatalogStore>(db, path, read_only);
  return Configure(std::move(store), db, path);
}

}  // namespace tarn
