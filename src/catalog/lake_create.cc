// CreateLake: a new catalog with the 28 DuckLake 1.0 tables and the bootstrap rows, as the
// extension creates them (reference §1, §2; column order as its DDL; declared types as DuckDB's
// SQLite scanner gives them on SQLite, and the native types of the extension's PostgreSQL DDL
// on PostgreSQL).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "catalog/commit_internal.h"
#include "tarn/catalog_locator.h"
#include "tarn/lake_write.h"

namespace tarn {

namespace {

// The DuckDB type of a catalog column; each backend declares it in its own way.
enum class ColumnKind : uint8_t { kBigint, kVarchar, kBoolean, kUuid, kTimestampTz };

struct CatalogColumn {
  const char* name;
  ColumnKind type;
  const char* constraint;   // "PRIMARY KEY", "NOT NULL" or ""
};

struct CatalogTable {
  const char* name;
  std::vector<CatalogColumn> columns;
};

constexpr ColumnKind kB = ColumnKind::kBigint;
constexpr ColumnKind kV = ColumnKind::kVarchar;
constexpr ColumnKind kBool = ColumnKind::kBoolean;
constexpr ColumnKind kUuid = ColumnKind::kUuid;
constexpr ColumnKind kTz = ColumnKind::kTimestampTz;

// The declared type of a catalog column. On SQLite, those DuckDB's SQLite scanner gives the
// extension's DDL: BIGINT and VARCHAR only, booleans stored as integers, uuids and timestamps
// as text. On PostgreSQL, the native types of ducklake-1.0-postgres-ddl.sql.
const char* DeclaredType(ColumnKind kind, CatalogLocator::Backend backend) {
  const bool postgres = backend == CatalogLocator::Backend::kPostgres;
  switch (kind) {
    case ColumnKind::kBigint: return postgres ? "bigint" : "BIGINT";
    case ColumnKind::kVarchar: return postgres ? "character varying" : "VARCHAR";
    case ColumnKind::kBoolean: return postgres ? "boolean" : "BIGINT";
    case ColumnKind::kUuid: return postgres ? "uuid" : "VARCHAR";
    case ColumnKind::kTimestampTz: return postgres ? "timestamp with time zone" : "VARCHAR";
  }
  return "VARCHAR";
}

// In the extension's creation order.
const std::vector<CatalogTable>& CatalogTables() {
  static const std::vector<CatalogTable> tables = {
      {"ducklake_metadata",
       {{"key", kV, "NOT NULL"}, {"value", kV, "NOT NULL"}, {"scope", kV, ""},
        {"scope_id", kB, ""}}},
      {"ducklake_snapshot",
       {{"snapshot_id", kB, "PRIMARY KEY"}, {"snapshot_time", kTz, ""},
        {"schema_version", kB, ""}, {"next_catalog_id", kB, ""}, {"next_file_id", kB, ""}}},
      {"ducklake_snapshot_changes",
       {{"snapshot_id", kB, "PRIMARY KEY"}, {"changes_made", kV, ""}, {"author", kV, ""},
        {"commit_message", kV, ""}, {"commit_extra_info", kV, ""}}},
      {"ducklake_schema",
       {{"schema_id", kB, "PRIMARY KEY"}, {"schema_uuid", kUuid, ""}, {"begin_snapshot", kB, ""},
        {"end_snapshot", kB, ""}, {"schema_name", kV, ""}, {"path", kV, ""},
        {"path_is_relative", kBool, ""}}},
      {"ducklake_table",
       {{"table_id", kB, ""}, {"table_uuid", kUuid, ""}, {"begin_snapshot", kB, ""},
        {"end_snapshot", kB, ""}, {"schema_id", kB, ""}, {"table_name", kV, ""}, {"path", kV, ""},
        {"path_is_relative", kBool, ""}}},
      {"ducklake_view",
       {{"view_id", kB, ""}, {"view_uuid", kUuid, ""}, {"begin_snapshot", kB, ""},
        {"end_snapshot", kB, ""}, {"schema_id", kB, ""}, {"view_name", kV, ""},
        {"dialect", kV, ""}, {"sql", kV, ""}, {"column_aliases", kV, ""}}},
      {"ducklake_tag",
       {{"object_id", kB, ""}, {"begin_snapshot", kB, ""}, {"end_snapshot", kB, ""},
        {"key", kV, ""}, {"value", kV, ""}}},
      {"ducklake_column_tag",
       {{"table_id", kB, ""}, {"column_id", kB, ""}, {"begin_snapshot", kB, ""},
        {"end_snapshot", kB, ""}, {"key", kV, ""}, {"value", kV, ""}}},
      {"ducklake_data_file",
       {{"data_file_id", kB, "PRIMARY KEY"}, {"table_id", kB, ""}, {"begin_snapshot", kB, ""},
        {"end_snapshot", kB, ""}, {"file_order", kB, ""}, {"path", kV, ""},
        {"path_is_relative", kBool, ""}, {"file_format", kV, ""}, {"record_count", kB, ""},
        {"file_size_bytes", kB, ""}, {"footer_size", kB, ""}, {"row_id_start", kB, ""},
        {"partition_id", kB, ""}, {"encryption_key", kV, ""}, {"mapping_id", kB, ""},
        {"partial_max", kB, ""}}},
      {"ducklake_file_column_stats",
       {{"data_file_id", kB, ""}, {"table_id", kB, ""}, {"column_id", kB, ""},
        {"column_size_bytes", kB, ""}, {"value_count", kB, ""}, {"null_count", kB, ""},
        {"min_value", kV, ""}, {"max_value", kV, ""}, {"contains_nan", kBool, ""},
        {"extra_stats", kV, ""}}},
      {"ducklake_file_variant_stats",
       {{"data_file_id", kB, ""}, {"table_id", kB, ""}, {"column_id", kB, ""},
        {"variant_path", kV, ""}, {"shredded_type", kV, ""}, {"column_size_bytes", kB, ""},
        {"value_count", kB, ""}, {"null_count", kB, ""}, {"min_value", kV, ""},
        {"max_value", kV, ""}, {"contains_nan", kBool, ""}, {"extra_stats", kV, ""}}},
      {"ducklake_delete_file",
       {{"delete_file_id", kB, "PRIMARY KEY"}, {"table_id", kB, ""}, {"begin_snapshot", kB, ""},
        {"end_snapshot", kB, ""}, {"data_file_id", kB, ""}, {"path", kV, ""},
        {"path_is_relative", kBool, ""}, {"format", kV, ""}, {"delete_count", kB, ""},
        {"file_size_bytes", kB, ""}, {"footer_size", kB, ""}, {"encryption_key", kV, ""},
        {"partial_max", kB, ""}}},
      {"ducklake_column",
       {{"column_id", kB, ""}, {"begin_snapshot", kB, ""}, {"end_snapshot", kB, ""},
        {"table_id", kB, ""}, {"column_order", kB, ""}, {"column_name", kV, ""},
        {"column_type", kV, ""}, {"initial_default", kV, ""}, {"default_value", kV, ""},
        {"nulls_allowed", kBool, ""}, {"parent_column", kB, ""}, {"default_value_type", kV, ""},
        {"default_value_dialect", kV, ""}}},
      {"ducklake_table_stats",
       {{"table_id", kB, ""}, {"record_count", kB, ""}, {"next_row_id", kB, ""},
        {"file_size_bytes", kB, ""}}},
      {"ducklake_table_column_stats",
       {{"table_id", kB, ""}, {"column_id", kB, ""}, {"contains_null", kBool, ""},
        {"contains_nan", kBool, ""}, {"min_value", kV, ""}, {"max_value", kV, ""},
        {"extra_stats", kV, ""}}},
      {"ducklake_partition_info",
       {{"partition_id", kB, ""}, {"table_id", kB, ""}, {"begin_snapshot", kB, ""},
        {"end_snapshot", kB, ""}}},
      {"ducklake_partition_column",
       {{"partition_id", kB, ""}, {"table_id", kB, ""}, {"partition_key_index", kB, ""},
        {"column_id", kB, ""}, {"transform", kV, ""}}},
      {"ducklake_file_partition_value",
       {{"data_file_id", kB, ""}, {"table_id", kB, ""}, {"partition_key_index", kB, ""},
        {"partition_value", kV, ""}}},
      {"ducklake_files_scheduled_for_deletion",
       {{"data_file_id", kB, ""}, {"path", kV, ""}, {"path_is_relative", kBool, ""},
        {"schedule_start", kTz, ""}}},
      {"ducklake_inlined_data_tables",
       {{"table_id", kB, ""}, {"table_name", kV, ""}, {"schema_version", kB, ""}}},
      {"ducklake_column_mapping",
       {{"mapping_id", kB, ""}, {"table_id", kB, ""}, {"type", kV, ""}}},
      {"ducklake_name_mapping",
       {{"mapping_id", kB, ""}, {"column_id", kB, ""}, {"source_name", kV, ""},
        {"target_field_id", kB, ""}, {"parent_column", kB, ""}, {"is_partition", kBool, ""}}},
      {"ducklake_schema_versions",
       {{"begin_snapshot", kB, ""}, {"schema_version", kB, ""}, {"table_id", kB, ""}}},
      {"ducklake_macro",
       {{"schema_id", kB, ""}, {"macro_id", kB, ""}, {"macro_name", kV, ""},
        {"begin_snapshot", kB, ""}, {"end_snapshot", kB, ""}}},
      {"ducklake_macro_impl",
       {{"macro_id", kB, ""}, {"impl_id", kB, ""}, {"dialect", kV, ""}, {"sql", kV, ""},
        {"type", kV, ""}}},
      {"ducklake_macro_parameters",
       {{"macro_id", kB, ""}, {"impl_id", kB, ""}, {"column_id", kB, ""},
        {"parameter_name", kV, ""}, {"parameter_type", kV, ""}, {"default_value", kV, ""},
        {"default_value_type", kV, ""}}},
      {"ducklake_sort_info",
       {{"sort_id", kB, ""}, {"table_id", kB, ""}, {"begin_snapshot", kB, ""},
        {"end_snapshot", kB, ""}}},
      {"ducklake_sort_expression",
       {{"sort_id", kB, ""}, {"table_id", kB, ""}, {"sort_key_index", kB, ""},
        {"expression", kV, ""}, {"dialect", kV, ""}, {"sort_direction", kV, ""},
        {"null_order", kV, ""}}},
  };
  return tables;
}

std::string CreateTableSql(const CatalogTable& table, CatalogLocator::Backend backend) {
  std::string sql = StrCat("CREATE TABLE ", catalog_internal::QuoteName(table.name), " (");
  for (size_t i = 0; i < table.columns.size(); ++i) {
    const CatalogColumn& c = table.columns[i];
    if (i > 0) sql += ", ";
    sql += StrCat(catalog_internal::QuoteName(c.name), " ", DeclaredType(c.type, backend));
    if (c.constraint[0] != '\0') sql += StrCat(" ", c.constraint);
  }
  return sql + ")";
}

Status Bootstrap(CatalogStore* store, const std::string& data_path,
                 const CreateLakeOptions& options) {
  using catalog_internal::Exec;
  const CatalogLocator::Backend backend = store->backend() == "postgres"
                                              ? CatalogLocator::Backend::kPostgres
                                              : CatalogLocator::Backend::kSqlite;
  for (const CatalogTable& table : CatalogTables()) {
    TARN_RETURN_NOT_OK(Exec(store, CreateTableSql(table, backend), {}));
  }
  TARN_RETURN_NOT_OK(Exec(store, "INSERT INTO ducklake_snapshot VALUES (0, ?1, 0, 1, 0)",
                          {CatalogDatum::Text(catalog_internal::NowTimestampText())}));
  TARN_RETURN_NOT_OK(Exec(store,
                          "INSERT INTO ducklake_snapshot_changes VALUES "
                          "(0, 'created_schema:\"main\"', NULL, NULL, NULL)",
                          {}));
  std::vector<std::pair<std::string, std::string>> metadata = {
      {"version", "1.0"},
      {"created_by", options.created_by.value_or(std::string(TarnVersionString()))},
      {"data_path", data_path},
      {"encrypted", "false"}};
  if (options.data_inlining_row_limit.has_value()) {
    metadata.emplace_back("data_inlining_row_limit",
                          std::to_string(*options.data_inlining_row_limit));
  }
  for (const auto& option : options.options) metadata.push_back(option);
  for (const auto& [key, value] : metadata) {
    TARN_RETURN_NOT_OK(Exec(store, "INSERT INTO ducklake_metadata (key, value) VALUES (?1, ?2)",
                            {CatalogDatum::Text(key), CatalogDatum::Text(value)}));
  }
  return Exec(store,
              "INSERT INTO ducklake_schema VALUES (0, ?1, 0, NULL, 'main', 'main/', TRUE)",
              {CatalogDatum::Text(catalog_internal::NewUuidV4())})
      .status();
}

// options.data_path checked and ending in '/'.
Result<std::string> CheckedDataPath(const CreateLakeOptions& options) {
  std::string data_path = options.data_path;
  if (data_path.empty()) return Status::InvalidArgument("CreateLake: data_path is required");
  if (data_path[0] != '/' && data_path.find("://") == std::string::npos) {
    return Status::InvalidArgument("CreateLake: data_path '", data_path,
                                   "' is not absolute (or a URL)");
  }
  if (data_path.back() != '/') data_path += '/';
  if (options.data_inlining_row_limit.has_value() && *options.data_inlining_row_limit < 0) {
    return Status::InvalidArgument("CreateLake: data_inlining_row_limit must not be negative");
  }
  return data_path;
}

// Writes the catalog tables and bootstrap rows into `store` in one transaction.
Status BootstrapInTransaction(CatalogStore* store, const std::string& data_path,
                              const CreateLakeOptions& options) {
  TARN_RETURN_NOT_OK(store->Begin(CatalogTransactionMode::kWrite));
  Status written = Bootstrap(store, data_path, options);
  if (!written.ok()) {
    (void)store->Rollback();
    return written;
  }
  return store->Commit();
}

}  // namespace

std::string_view TarnVersionString() { return "tarn " TARN_VERSION; }

Result<std::unique_ptr<Lake>> CreateInMemoryLake(const CreateLakeOptions& options) {
  TARN_ASSIGN_OR_RETURN(std::string data_path, CheckedDataPath(options));
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<CatalogStore> store, OpenInMemorySqliteCatalogStore());
  TARN_RETURN_NOT_OK(BootstrapInTransaction(store.get(), data_path, options));
  LakeOpenOptions open_options;
  open_options.read_only = false;
  return Lake::Open(std::move(store), open_options);
}

namespace {

// A new lake in the current schema of a PostgreSQL database. The check for an existing lake
// and the bootstrap are one transaction: of two processes creating the same lake, one commits
// and the other fails on the tables the first created (AlreadyExists after a second look).
Result<std::unique_ptr<Lake>> CreatePostgresLake(const std::string& conninfo,
                                                 const std::string& data_path,
                                                 const CreateLakeOptions& options) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<CatalogStore> store,
                        OpenPostgresCatalogStore(conninfo, /*read_only=*/false));
  auto already_exists = [&]() {
    return Status::AlreadyExists("PostgreSQL catalog '", store->location(),
                                 "' already holds a DuckLake (ducklake_metadata exists)");
  };
  TARN_RETURN_NOT_OK(store->Begin(CatalogTransactionMode::kWrite));
  Result<bool> exists = store->TableExists("ducklake_metadata");
  Status written = !exists.ok() ? exists.status()
                   : *exists    ? already_exists()
                                : Bootstrap(store.get(), data_path, options);
  if (written.ok()) {
    written = store->Commit();
  } else {
    (void)store->Rollback();
  }
  if (!written.ok()) {
    if (written.code() == StatusCode::kConflict) {
      Result<bool> now = store->TableExists("ducklake_metadata");
      if (now.ok() && *now) return already_exists();
    }
    return written;
  }
  LakeOpenOptions open_options;
  open_options.read_only = false;
  return Lake::Open(std::move(store), open_options);
}

}  // namespace

Result<std::unique_ptr<Lake>> CreateLake(std::string_view locator,
                                         const CreateLakeOptions& options) {
  TARN_ASSIGN_OR_RETURN(CatalogLocator parsed, ParseCatalogLocator(locator));
  TARN_ASSIGN_OR_RETURN(std::string data_path, CheckedDataPath(options));
  if (parsed.backend == CatalogLocator::Backend::kPostgres) {
    return CreatePostgresLake(parsed.target, data_path, options);
  }
  const std::string& path = parsed.target;
  // O_EXCL: of two processes creating the same lake, exactly one wins.
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == EEXIST) {
      return Status::AlreadyExists("DuckLake catalog '", path, "' already exists");
    }
    return Status::IOError("cannot create DuckLake catalog '", path, "': ", std::strerror(errno));
  }
  ::close(fd);
  auto fail = [&](const Status& status) -> Status {
    ::unlink(path.c_str());
    return status;
  };
  Result<std::unique_ptr<CatalogStore>> store = OpenSqliteCatalogStore(path, false);
  if (!store.ok()) return fail(store.status());
  Status bootstrapped = BootstrapInTransaction(store->get(), data_path, options);
  if (!bootstrapped.ok()) return fail(bootstrapped);
  LakeOpenOptions open_options;
  open_options.read_only = false;
  Result<std::unique_ptr<Lake>> lake = Lake::Open(std::move(store).value(), open_options);
  if (!lake.ok()) return fail(lake.status());
  return lake;
}

}  // namespace tarn
