// PostgresCatalogStore: a CatalogStore on a PostgreSQL database through libpq (Debian's
// libpq-dev). The catalog tables live in the connection's current schema (search_path).
//
// The catalog code writes its SQL once, with SQLite's ?N placeholders; this store rewrites
// them to $N and prepares each distinct statement once per connection. Parameters travel as
// text of unspecified type, so PostgreSQL types each by its context (an integer 1 becomes
// `true` in a boolean column, a timestamp text a timestamptz); bytes travel as binary bytea.
// Results come back as text and are typed by the result column's type: integers and booleans
// as kInteger, floating point as kReal, bytea as kBlob, anything else as kText.
#include <libpq-fe.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>

#include "catalog/postgres_sql.h"
#include "tarn/catalog_locator.h"

namespace tarn {

namespace {

// Type OIDs of pg_type (fixed since PostgreSQL 7).
constexpr Oid kBoolOid = 16;
constexpr Oid kByteaOid = 17;
constexpr Oid kInt8Oid = 20;
constexpr Oid kInt2Oid = 21;
constexpr Oid kInt4Oid = 23;
constexpr Oid kTextOid = 25;
constexpr Oid kOidOid = 26;
constexpr Oid kFloat4Oid = 700;
constexpr Oid kFloat8Oid = 701;

struct ResultCloser {
  void operator()(PGresult* result) const { PQclear(result); }
};
using ResultPtr = std::unique_ptr<PGresult, ResultCloser>;

// The settings every catalog connection needs: UTC timestamps in ISO form (as the SQLite
// catalog stores them), floats that round-trip, bytea as hex.
constexpr const char* kSessionSetup =
    "SET TimeZone = 'UTC'; SET DateStyle = 'ISO, YMD'; SET IntervalStyle = 'postgres'; "
    "SET extra_float_digits = 3; SET bytea_output = 'hex'; SET client_encoding = 'UTF8'; "
    "SET standard_conforming_strings = on";

Result<std::string> DecodeByteaHex(std::string_view text) {
  if (text.substr(0, 2) != "\\x" || text.size() % 2 != 0) {
    return Status::InvalidArgument("bytea value is not in hex form");
  }
  std::string bytes;
  bytes.reserve(text.size() / 2 - 1);
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  for (size_t pos = 2; pos < text.size(); pos += 2) {
    int high = nibble(text[pos]);
    int low = nibble(text[pos + 1]);
    if (high < 0 || low < 0) return Status::InvalidArgument("bytea value has a bad hex digit");
    bytes.push_back(static_cast<char>(high * 16 + low));
  }
  return bytes;
}

class PostgresCatalogStore final : public CatalogStore {
 public:
  PostgresCatalogStore(PGconn* conn, std::string location, bool read_only)
      : conn_(conn), location_(std::move(location)), read_only_(read_only) {}
  ~PostgresCatalogStore() override { PQfinish(conn_); }  // an open transaction rolls back
  PostgresCatalogStore(const PostgresCatalogStore&) = delete;
  PostgresCatalogStore& operator=(const PostgresCatalogStore&) = delete;

  std::string_view backend() const override { return "postgres"; }
  const std::string& location() const override { return location_; }
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

  // Applies the session settings; called after connecting and after a reconnect.
  Status SetUpSession();

 private:
  // Catalog loads and commits run the same statements over and over.
  static constexpr size_t kMaxPreparedStatements = 512;

  // A Status for a failed result (or a failed connection when `result` is null), naming the
  // catalog and `what`. SQLSTATE decides the code.
  Status Error(const PGresult* result, std::string_view what) const;
  // A connection lost outside a transaction is reopened once before the next statement: a
  // restarted server costs the statement nothing. Inside a transaction the loss is an error.
  Status EnsureConnected();
  // Prepares `sql` (cached by its text and parameter forms) and runs it with `params`.
  Result<ResultPtr> Run(std::string_view sql, std::span<const CatalogDatum> params,
                        std::string_view what, ExecStatusType expected);
  Result<ResultPtr> RunSimple(const char* sql, std::string_view what);

  PGconn* conn_;
  std::string location_;  // the connection string without its password
  bool read_only_;
  bool in_transaction_ = false;
  // Statement name by cache key (the translated SQL, then one letter per parameter form).
  std::unordered_map<std::string, std::string> prepared_;
  int64_t next_statement_ = 0;
};

Status PostgresCatalogStore::Error(const PGresult* result, std::string_view what) const {
  std::string message = result != nullptr ? PQresultErrorMessage(result) : PQerrorMessage(conn_);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  const char* state = result != nullptr ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  std::string sqlstate = state != nullptr ? state : "";
  std::string context = StrCat("PostgreSQL catalog '", location_, "': ", what, ": ", message);
  if (!sqlstate.empty()) context += StrCat(" (SQLSTATE ", sqlstate, ")");
  if (sqlstate.empty() || PQstatus(conn_) != CONNECTION_OK) return Status::IOError(context);
  const std::string klass = sqlstate.substr(0, 2);
  // Integrity violations and serialization failures are the races a commit can lose.
  if (klass == "23" || klass == "40" || sqlstate == "55P03") return Status::Conflict(context);
  if (sqlstate == "XX001" || sqlstate == "XX002") return Status::Corruption(context);
  if (klass == "53") return Status::ResourceExhausted(context);
  if (klass == "42" || klass == "22" || klass == "25" || klass == "0A" || klass == "2B" ||
      klass == "44") {
    return Status::InvalidArgument(context);
  }
  return Status::IOError(context);
}

// Server notices ("relation ... already exists, skipping") are not errors: dropped.
void IgnoreNotice(void*, const char*) {}

Status PostgresCatalogStore::SetUpSession() {
  PQsetNoticeProcessor(conn_, IgnoreNotice, nullptr);
  std::string setup = kSessionSetup;
  if (read_only_) setup += "; SET default_transaction_read_only = on";
  ResultPtr result(PQexec(conn_, setup.c_str()));
  if (PQresultStatus(result.get()) != PGRES_COMMAND_OK) {
    return Error(result.get(), "setting up the session");
  }
  return Status::OK();
}

Status PostgresCatalogStore::EnsureConnected() {
  if (PQstatus(conn_) == CONNECTION_OK) return Status::OK();
  if (in_transaction_) {
    std::string message = PQerrorMessage(conn_);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
      message.pop_back();
    }
    return Status::IOError("PostgreSQL catalog '", location_,
                           "': the connection was lost inside a transaction: ", message);
  }
  PQreset(conn_);
  prepared_.clear();  // prepared statements died with the old session
  if (PQstatus(conn_) != CONNECTION_OK) return Error(nullptr, "reconnecting");
  return SetUpSession();
}

Result<ResultPtr> PostgresCatalogStore::RunSimple(const char* sql, std::string_view what) {
  TARN_RETURN_NOT_OK(EnsureConnected());
  ResultPtr result(PQexec(conn_, sql));
  // A server restarted since the last statement shows only now, as a dead connection: outside
  // a transaction (BEGIN, session setup) nothing ran, so reconnect and send it once more.
  if (PQresultStatus(result.get()) != PGRES_COMMAND_OK && PQstatus(conn_) == CONNECTION_BAD &&
      !in_transaction_) {
    TARN_RETURN_NOT_OK(EnsureConnected());
    result.reset(PQexec(conn_, sql));
  }
  if (PQresultStatus(result.get()) != PGRES_COMMAND_OK) return Error(result.get(), what);
  return result;
}

Result<ResultPtr> PostgresCatalogStore::Run(std::string_view sql,
                                            std::span<const CatalogDatum> params,
                                            std::string_view what, ExecStatusType expected) {
  TARN_ASSIGN_OR_RETURN(catalog_internal::PostgresSql translated,
                        catalog_internal::TranslateToPostgres(sql));
  if (translated.num_params != params.size()) {
    return Status::InvalidArgument("query on ", what, " has ", translated.num_params,
                                   " parameters, ", params.size(), " given");
  }
  // Text and integers go as untyped text: the server types them by context. Bytes go as binary
  // bytea. A statement whose parameters have no context (SELECT ?1) is typed by the values.
  std::string key = translated.sql;
  key.push_back('\0');
  std::vector<std::string> texts(params.size());
  std::vector<const char*> values(params.size(), nullptr);
  std::vector<int> lengths(params.size(), 0);
  std::vector<int> formats(params.size(), 0);
  for (size_t i = 0; i < params.size(); ++i) {
    const CatalogDatum& p = params[i];
    switch (p.kind()) {
      case CatalogDatum::Kind::kNull:
        key.push_back('n');
        break;
      case CatalogDatum::Kind::kInteger:
        texts[i] = std::to_string(p.integer());
        key.push_back('i');
        break;
      case CatalogDatum::Kind::kReal:
        texts[i] = p.ToString();
        key.push_back('r');
        break;
      case CatalogDatum::Kind::kText:
        texts[i] = p.bytes();
        key.push_back('t');
        break;
      case CatalogDatum::Kind::kBlob:
        texts[i] = p.bytes();
        formats[i] = 1;
        key.push_back('b');
        break;
    }
    if (!p.is_null()) {
      values[i] = texts[i].c_str();
      lengths[i] = static_cast<int>(texts[i].size());
    }
  }
  // A connection found dead outside a transaction is reopened and the statement sent again
  // once: when preparing failed (nothing ran) or for a read. A write that may have run is not
  // repeated.
  for (int attempt = 0;; ++attempt) {
    TARN_RETURN_NOT_OK(EnsureConnected());
    const bool may_retry = attempt == 0 && !in_transaction_;
    auto found = prepared_.find(key);
    if (found == prepared_.end()) {
      if (prepared_.size() >= kMaxPreparedStatements) {
        TARN_ASSIGN_OR_RETURN(ResultPtr dropped,
                              RunSimple("DEALLOCATE ALL", "dropping statements"));
        prepared_.clear();
      }
      std::string name = StrCat("tarn_", next_statement_++);
      auto prepare = [&](const std::vector<Oid>& types) {
        return ResultPtr(PQprepare(conn_, name.c_str(), translated.sql.c_str(),
                                   static_cast<int>(types.size()), types.data()));
      };
      std::vector<Oid> types(params.size(), 0);
      for (size_t i = 0; i < params.size(); ++i) {
        if (params[i].kind() == CatalogDatum::Kind::kBlob) types[i] = kByteaOid;
      }
      ResultPtr prepared = prepare(types);
      const char* state = PQresultErrorField(prepared.get(), PG_DIAG_SQLSTATE);
      if (PQresultStatus(prepared.get()) != PGRES_COMMAND_OK && state != nullptr &&
          std::strcmp(state, "42P18") == 0 && !in_transaction_) {
        // Parameters without a context: type them by their values. (Inside a transaction
        // the failed PREPARE has ended it: the error stands.)
        for (size_t i = 0; i < params.size(); ++i) {
          switch (params[i].kind()) {
            case CatalogDatum::Kind::kInteger: types[i] = kInt8Oid; break;
            case CatalogDatum::Kind::kReal: types[i] = kFloat8Oid; break;
            case CatalogDatum::Kind::kBlob: types[i] = kByteaOid; break;
            default: types[i] = kTextOid; break;
          }
        }
        prepared = prepare(types);
      }
      if (PQresultStatus(prepared.get()) != PGRES_COMMAND_OK) {
        if (may_retry && PQstatus(conn_) != CONNECTION_OK) continue;
        return Error(prepared.get(), StrCat("preparing a query on ", what));
      }
      found = prepared_.emplace(key, std::move(name)).first;
    }
    ResultPtr result(PQexecPrepared(conn_, found->second.c_str(),
                                    static_cast<int>(params.size()), values.data(),
                                    lengths.data(), formats.data(), /*resultFormat=*/0));
    if (PQresultStatus(result.get()) != expected &&
        !(expected == PGRES_COMMAND_OK && PQresultStatus(result.get()) == PGRES_TUPLES_OK)) {
      if (may_retry && expected == PGRES_TUPLES_OK && PQstatus(conn_) != CONNECTION_OK) continue;
      return Error(result.get(), what);
    }
    return result;
  }
}

// One cell in its storage form, by the result column's type.
Result<CatalogDatum> ReadCell(const PGresult* result, int row, int column) {
  if (PQgetisnull(result, row, column)) return CatalogDatum::Null();
  const char* text = PQgetvalue(result, row, column);
  const size_t size = static_cast<size_t>(PQgetlength(result, row, column));
  std::string_view value(text, size);
  switch (PQftype(result, column)) {
    case kBoolOid:
      if (value == "t") return CatalogDatum::Integer(1);
      if (value == "f") return CatalogDatum::Integer(0);
      return Status::InvalidArgument("boolean '", value, "' is neither t nor f");
    case kInt2Oid:
    case kInt4Oid:
    case kInt8Oid:
    case kOidOid: {
      char* end = nullptr;
      errno = 0;
      long long v = std::strtoll(text, &end, 10);
      if (errno != 0 || end != text + size || size == 0) {
        return Status::InvalidArgument("integer '", value, "' does not parse");
      }
      return CatalogDatum::Integer(v);
    }
    case kFloat4Oid:
    case kFloat8Oid: {
      char* end = nullptr;
      double v = std::strtod(text, &end);
      if (end != text + size || size == 0) {
        return Status::InvalidArgument("float '", value, "' does not parse");
      }
      return CatalogDatum::Real(v);
    }
    case kByteaOid: {
      TARN_ASSIGN_OR_RETURN(std::string bytes, DecodeByteaHex(value));
      return CatalogDatum::Blob(std::move(bytes));
    }
    default:
      return CatalogDatum::Text(std::string(value));
  }
}

Result<CatalogResult> PostgresCatalogStore::Query(const CatalogQuery& query) {
  const std::string what = query.what.empty() ? std::string("catalog query") : query.what;
  TARN_ASSIGN_OR_RETURN(ResultPtr pg, Run(query.sql, query.params, what, PGRES_TUPLES_OK));
  CatalogResult result;
  const int columns = PQnfields(pg.get());
  const int rows = PQntuples(pg.get());
  for (int c = 0; c < columns; ++c) result.column_names.emplace_back(PQfname(pg.get(), c));
  result.rows.reserve(static_cast<size_t>(rows));
  for (int r = 0; r < rows; ++r) {
    std::vector<CatalogDatum> row;
    row.reserve(static_cast<size_t>(columns));
    for (int c = 0; c < columns; ++c) {
      CatalogType type = static_cast<size_t>(c) < query.result_types.size()
                             ? query.result_types[static_cast<size_t>(c)]
                             : CatalogType::kAny;
      Result<CatalogDatum> converted = ReadCell(pg.get(), r, c);
      if (converted.ok()) converted = ConvertCatalogDatum(*converted, type);
      if (!converted.ok()) {
        std::string key = row.empty() ? std::string()
                                      : StrCat(" (", result.column_names[0], " = ",
                                               row[0].ToString(), ")");
        return Status::Corruption("PostgreSQL catalog '", location_, "': ", what, " row ", r + 1,
                                  key, ", column ", result.column_names[static_cast<size_t>(c)],
                                  ": ", converted.status().message());
      }
      row.push_back(std::move(converted).value());
    }
    result.rows.push_back(std::move(row));
  }
  return result;
}

Result<int64_t> PostgresCatalogStore::Execute(std::string_view sql,
                                              std::span<const CatalogDatum> params) {
  TARN_ASSIGN_OR_RETURN(
      ResultPtr result,
      Run(sql, params, StrCat("executing '", sql.substr(0, 80), "'"), PGRES_COMMAND_OK));
  const char* changed = PQcmdTuples(result.get());
  if (changed == nullptr || changed[0] == '\0') return int64_t{0};
  return static_cast<int64_t>(std::strtoll(changed, nullptr, 10));
}

Result<bool> PostgresCatalogStore::TableExists(std::string_view table_name) {
  CatalogQuery query;
  query.sql =
      "SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = "
      "c.relnamespace WHERE n.nspname = current_schema() AND c.relname = ?1 AND c.relkind IN "
      "('r', 'v', 'p', 'm', 'f')";
  query.params.push_back(CatalogDatum::Text(std::string(table_name)));
  query.what = "pg_class";
  TARN_ASSIGN_OR_RETURN(CatalogResult result, Query(query));
  return !result.rows.empty();
}

Result<std::vector<std::string>> PostgresCatalogStore::TableColumns(std::string_view table_name) {
  TARN_ASSIGN_OR_RETURN(auto columns, TableColumnTypes(table_name));
  std::vector<std::string> names;
  for (auto& [name, type] : columns) names.push_back(std::move(name));
  return names;
}

Result<std::vector<std::pair<std::string, std::string>>> PostgresCatalogStore::TableColumnTypes(
    std::string_view table_name) {
  CatalogQuery query;
  query.sql =
      "SELECT a.attname, pg_catalog.format_type(a.atttypid, NULL) FROM pg_catalog.pg_attribute a "
      "JOIN pg_catalog.pg_class c ON c.oid = a.attrelid JOIN pg_catalog.pg_namespace n ON n.oid "
      "= c.relnamespace WHERE n.nspname = current_schema() AND c.relname = ?1 AND a.attnum > 0 "
      "AND NOT a.attisdropped ORDER BY a.attnum";
  query.params.push_back(CatalogDatum::Text(std::string(table_name)));
  query.result_types = {CatalogType::kVarchar, CatalogType::kVarchar};
  query.what = StrCat("the columns of ", table_name);
  TARN_ASSIGN_OR_RETURN(CatalogResult result, Query(query));
  if (result.rows.empty()) {
    return Status::NotFound("PostgreSQL catalog '", location_, "' has no table ", table_name);
  }
  std::vector<std::pair<std::string, std::string>> columns;
  for (auto& row : result.rows) {
    columns.emplace_back(row[0].bytes(),
                         catalog_internal::PostgresTypeToDuckDb(row[1].bytes()));
  }
  return columns;
}

Result<std::vector<std::string>> PostgresCatalogStore::TableNames() {
  CatalogQuery query;
  query.sql =
      "SELECT c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = "
      "c.relnamespace WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') ORDER BY "
      "c.relname";
  query.result_types = {CatalogType::kVarchar};
  query.what = "pg_class";
  TARN_ASSIGN_OR_RETURN(CatalogResult result, Query(query));
  std::vector<std::string> names;
  for (auto& row : result.rows) names.push_back(row[0].bytes());
  return names;
}

Status PostgresCatalogStore::Begin(CatalogTransactionMode mode) {
  if (in_transaction_) return Status::Internal("catalog transaction already open");
  // REPEATABLE READ: the whole transaction reads one committed state, as SQLite's does. Two
  // writers that both commit snapshot N+1 collide on ducklake_snapshot's primary key (a unique
  // violation) or on a row both update (a serialization failure): the loser retries.
  const char* sql = mode == CatalogTransactionMode::kWrite
                        ? "BEGIN ISOLATION LEVEL REPEATABLE READ"
                        : "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY";
  TARN_ASSIGN_OR_RETURN(ResultPtr result, RunSimple(sql, "starting a transaction"));
  in_transaction_ = true;
  return Status::OK();
}

Status PostgresCatalogStore::Commit() {
  if (!in_transaction_) return Status::Internal("no catalog transaction to commit");
  in_transaction_ = false;
  ResultPtr result(PQexec(conn_, "COMMIT"));
  if (PQresultStatus(result.get()) != PGRES_COMMAND_OK) {
    Status error = Error(result.get(), "committing");
    ResultPtr ignored(PQexec(conn_, "ROLLBACK"));
    return error;
  }
  // COMMIT of a failed transaction answers ROLLBACK without an error.
  if (std::strcmp(PQcmdStatus(result.get()), "ROLLBACK") == 0) {
    return Status::Conflict("PostgreSQL catalog '", location_,
                            "': committing: the transaction had failed and was rolled back");
  }
  return Status::OK();
}

Status PostgresCatalogStore::Rollback() {
  if (!in_transaction_) return Status::Internal("no catalog transaction to roll back");
  in_transaction_ = false;
  if (PQstatus(conn_) != CONNECTION_OK) return Status::OK();  // the server rolled it back
  ResultPtr result(PQexec(conn_, "ROLLBACK"));
  if (PQresultStatus(result.get()) != PGRES_COMMAND_OK) return Error(result.get(), "rolling back");
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<CatalogStore>> OpenPostgresCatalogStore(const std::string& conninfo,
                                                               bool read_only) {
  TARN_ASSIGN_OR_RETURN(std::string location, catalog_internal::RedactConninfo(conninfo));
  PGconn* conn = PQconnectdb(conninfo.c_str());
  if (conn == nullptr) {
    return Status::ResourceExhausted("cannot allocate a PostgreSQL connection for '", location,
                                     "'");
  }
  if (PQstatus(conn) != CONNECTION_OK) {
    std::string message = PQerrorMessage(conn);
    PQfinish(conn);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
      message.pop_back();
    }
    return Status::IOError("cannot connect to PostgreSQL catalog '", location, "': ", message);
  }
  auto store = std::make_unique<PostgresCatalogStore>(conn, std::move(location), read_only);
  TARN_RETURN_NOT_OK(store->SetUpSession());
  return std::unique_ptr<CatalogStore>(std::move(store));
}

}  // namespace tarn
