// The DuckLake 1.0 catalog: the metadata model of a lake and the store it lives in.
//
// A DuckLake lake is a SQL catalog (the `ducklake_*` tables) plus immutable Parquet data and
// delete files. This header has three layers:
//
//   CatalogStore  — a SQL database holding the catalog tables: parameterized queries that
//                   return rows typed by what the caller declares, and transactions. SQLite
//                   is the embedded backend (OpenSqliteCatalogStore); PostgreSQL can be added
//                   behind the same interface.
//   Lake          — an opened catalog: checks that it is a DuckLake 1.0 catalog, resolves the
//                   data path (optionally overridden, for a moved lake), looks up snapshots,
//                   and loads snapshot-scoped metadata.
//   LakeSnapshot / TableMetadata
//                 — immutable views of the catalog as of one snapshot: schemas, tables, views,
//                   column trees, partitioning; and per table the visible data files with
//                   their delete files, statistics, partition values, name mappings and
//                   inlined data. This is what the scan layer consumes.
//
// Visibility: a versioned row is visible at snapshot S iff
//   begin_snapshot <= S AND (end_snapshot IS NULL OR S < end_snapshot).
//
// Thread-safety: a CatalogStore is used by one thread at a time. A Lake serializes its own
// use of its store with a mutex, so its methods may be called from many threads. LakeSnapshot,
// TableMetadata and everything reachable from them are immutable once returned; share them
// (through the shared_ptr) between any number of threads. They hold no reference to the Lake.
//
// docs/catalog.md describes the model, the value encodings and the error behavior.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "tarn/columnar.h"
#include "tarn/status.h"
#include "tarn/type.h"

namespace tarn {

// =============================================================================================
// CatalogStore: the SQL backend
// =============================================================================================

// One cell of a catalog row, in its storage form: NULL, a 64-bit integer, a double, text, or
// bytes. Booleans travel as the integers 0 and 1.
class CatalogDatum {
 public:
  enum class Kind : uint8_t { kNull, kInteger, kReal, kText, kBlob };

  CatalogDatum() = default;  // NULL
  static CatalogDatum Null() { return CatalogDatum(); }
  static CatalogDatum Integer(int64_t v);
  static CatalogDatum Boolean(bool v) { return Integer(v ? 1 : 0); }
  static CatalogDatum Real(double v);
  static CatalogDatum Text(std::string v);
  static CatalogDatum Blob(std::string v);

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  // REQUIRES: the matching kind.
  int64_t integer() const { return integer_; }
  double real() const { return real_; }
  const std::string& bytes() const { return bytes_; }  // kText or kBlob

  // For messages: 42, 1.5, 'text', x'00FF', NULL.
  std::string ToString() const;

 private:
  Kind kind_ = Kind::kNull;
  int64_t integer_ = 0;
  double real_ = 0;
  std::string bytes_;
};

// The type a caller declares for a result column. The store converts whatever storage form
// the catalog holds into it (a BIGINT stored as text, a BOOLEAN as 0/1 or 'true', ...); a value
// that does not convert is Corruption naming the query's table, the row and the column.
enum class CatalogType : uint8_t {
  kAny,      // the storage form as is
  kBigint,   // -> kInteger
  kDouble,   // -> kReal
  kBoolean,  // -> kInteger 0/1 (from 0/1, 'true'/'false', 't'/'f', '1'/'0')
  kVarchar,  // -> kText
  kBlob,     // -> kBlob
};

std::string_view CatalogTypeName(CatalogType type);

// Converts one datum to `type`. NULL stays NULL. On failure returns InvalidArgument saying what
// the value was and what was expected (callers add the table/row/column context).
Result<CatalogDatum> ConvertCatalogDatum(const CatalogDatum& datum, CatalogType type);

struct CatalogQuery {
  std::string sql;                     // positional parameters: ?1, ?2, ... (or ?)
  std::vector<CatalogDatum> params;
  // One per result column; fewer than the result has = the rest are kAny.
  std::vector<CatalogType> result_types;
  // What the rows are, for error messages: usually the catalog table, "ducklake_data_file".
  std::string what;
};

struct CatalogResult {
  std::vector<std::string> column_names;
  std::vector<std::vector<CatalogDatum>> rows;
};

enum class CatalogTransactionMode : uint8_t {
  kRead,   // a consistent read of one committed state
  kWrite,  // takes the write lock up front (SQLite: BEGIN IMMEDIATE)
};

class CatalogStore {
 public:
  virtual ~CatalogStore() = default;

  // "sqlite", "postgres".
  virtual std::string_view backend() const = 0;
  // Where the catalog lives, for messages: the file path or the connection string.
  virtual const std::string& location() const = 0;
  virtual bool read_only() const = 0;

  // Runs a statement that returns rows. Errors: Corruption for values that do not convert to
  // the declared types (naming query.what, the 1-based row, its first column and the column),
  // IOError for a failing database, InvalidArgument for SQL the database rejects.
  virtual Result<CatalogResult> Query(const CatalogQuery& query) = 0;
  // Runs a statement for its effect; returns the number of rows changed. A constraint
  // violation (the race a commit can lose) is Conflict.
  virtual Result<int64_t> Execute(std::string_view sql, std::span<const CatalogDatum> params) = 0;

  // Whether a table of that name exists in the catalog database.
  virtual Result<bool> TableExists(std::string_view table_name) = 0;
  // The column names of a table, in order; NotFound when it does not exist.
  virtual Result<std::vector<std::string>> TableColumns(std::string_view table_name) = 0;
  // Each column's name and declared type ("BIGINT", "VARCHAR", "TIMESTAMP WITH TIME ZONE"), in
  // order; NotFound when the table does not exist.
  virtual Result<std::vector<std::pair<std::string, std::string>>> TableColumnTypes(
      std::string_view table_name) = 0;
  // The tables of the catalog database, by name.
  virtual Result<std::vector<std::string>> TableNames() = 0;

  // Transactions do not nest. REQUIRES for Commit/Rollback: an open transaction.
  virtual Status Begin(CatalogTransactionMode mode) = 0;
  virtual Status Commit() = 0;
  virtual Status Rollback() = 0;
  virtual bool in_transaction() const = 0;
};

// Opens a SQLite catalog database file. It must exist (NotFound otherwise, naming the path);
// read_only opens it with SQLITE_OPEN_READONLY. A file that is not a SQLite database is
// Corruption on open.
Result<std::unique_ptr<CatalogStore>> OpenSqliteCatalogStore(const std::string& path,
                                                             bool read_only);

// =============================================================================================
// The metadata model
// =============================================================================================

// A row of ducklake_snapshot joined with its ducklake_snapshot_changes row.
struct SnapshotInfo {
  int64_t snapshot_id = 0;
  std::string snapshot_time_text;  // as stored: "2026-11-30 03:07:50.479455+00"
  int64_t snapshot_time_micros = 0;  // the same instant, microseconds since the epoch, UTC
  int64_t schema_version = 0;
  int64_t next_catalog_id = 0;
  int64_t next_file_id = 0;
  std::optional<std::string> changes_made;  // "inserted_into_table:1,deleted_from_table:1"
  std::optional<std::string> author;
  std::optional<std::string> commit_message;
  std::optional<std::string> commit_extra_info;
};

// Which snapshot to read.
struct SnapshotSelector {
  enum class Kind : uint8_t { kLatest, kId, kTimestamp };
  Kind kind = Kind::kLatest;
  int64_t snapshot_id = 0;       // kId
  int64_t timestamp_micros = 0;  // kTimestamp: UTC micros; the latest snapshot at or before it

  static SnapshotSelector Latest() { return {}; }
  static SnapshotSelector Id(int64_t id) { return {Kind::kId, id, 0}; }
  static SnapshotSelector AtTime(int64_t micros) { return {Kind::kTimestamp, 0, micros}; }
};

// ducklake_metadata: a key/value with a scope (global, a schema, or a table).
struct MetadataEntry {
  std::string key;
  std::string value;
  enum class Scope : uint8_t { kGlobal, kSchema, kTable };
  Scope scope = Scope::kGlobal;
  int64_t scope_id = 0;  // schema_id or table_id; 0 for kGlobal
};

// A column default as stored in ducklake_column. The extension writes the string 'NULL' (with
// type 'literal') for "no default"; tarn reads that, and a SQL NULL, as kNone.
struct ColumnDefault {
  enum class Kind : uint8_t { kNone, kLiteral, kExpression };
  Kind kind = Kind::kNone;
  std::string text;     // the literal's text or the expression's SQL; empty for kNone
  std::string dialect;  // "duckdb"; empty when not stored
};

// One version of a column (a ducklake_column row) with its nested children.
struct ColumnInfo {
  int64_t column_id = 0;       // unique per table; equals the Parquet field_id
  int64_t column_order = 0;
  std::string name;
  std::string type_name;       // column_type as stored: "int32", "struct", "decimal(12,3)"
  DataType type;               // full type; nested types built from the children
  bool nulls_allowed = true;
  std::optional<int64_t> parent_column;
  int64_t begin_snapshot = 0;
  std::optional<int64_t> end_snapshot;
  // Fills files written before the column existed. kNone = NULL.
  ColumnDefault initial_default;
  // initial_default decoded by the column's type: a NULL Value of `type` for kNone. nullopt
  // when the text could not be decoded (nested types, expressions); the raw text stays above.
  std::optional<Value> initial_value;
  ColumnDefault default_value;  // the INSERT default
  std::vector<ColumnInfo> children;  // struct fields; list: element; map: key, value

  // tarn::Field with field_id = column_id for this column and its children.
  Field ToField() const;
};

struct SchemaInfo {
  int64_t schema_id = 0;
  std::string schema_uuid;
  std::string name;
  std::string path;  // resolved: absolute, '/'-separated, ending in '/'
  int64_t begin_snapshot = 0;
};

enum class PartitionTransform : uint8_t { kIdentity, kYear, kMonth, kDay, kHour, kBucket };

struct PartitionField {
  int64_t partition_key_index = 0;
  int64_t column_id = 0;
  PartitionTransform transform = PartitionTransform::kIdentity;
  int64_t bucket_count = 0;    // kBucket only
  std::string transform_text;  // as stored: "identity", "bucket(16)"
  DataType result_type;        // the source type (identity), int64 (year..hour), int32 (bucket)
};

struct PartitionSpec {
  int64_t partition_id = 0;
  std::vector<PartitionField> fields;  // by partition_key_index
};

struct SortField {
  int64_t sort_key_index = 0;
  std::string expression;
  std::string dialect;
  bool descending = false;
  bool nulls_first = false;
};

struct SortSpec {
  int64_t sort_id = 0;
  std::vector<SortField> fields;
};

// A registered inlined-data table (ducklake_inlined_data_tables) and its column set: the
// table's columns at that schema version. The SQL table has the columns row_id,
// begin_snapshot, end_snapshot and then these columns, by name.
struct InlinedDataTable {
  std::string table_name;  // "ducklake_inlined_data_1_1"
  int64_t schema_version = 0;
  int64_t schema_snapshot = 0;       // the snapshot whose columns `columns` are
  std::vector<ColumnInfo> columns;   // top-level, with children
};

// One schema version of a table (a ducklake_schema_versions row): the snapshot it began at and
// the table's top-level columns from then until the next version.
struct TableSchemaVersion {
  int64_t schema_version = -1;  // -1: before the table's first row (the table's begin_snapshot)
  int64_t begin_snapshot = 0;
  std::vector<ColumnInfo> columns;
};

struct TableInfo {
  int64_t table_id = 0;
  std::string table_uuid;
  int64_t schema_id = 0;
  std::string schema_name;
  std::string name;
  std::string path;  // resolved: absolute, '/'-separated, ending in '/'
  int64_t begin_snapshot = 0;
  std::vector<ColumnInfo> columns;  // top-level columns in column_order, with children
  Schema schema;                    // the same as tarn fields (field_id = column_id)
  std::optional<PartitionSpec> partitioning;
  std::optional<SortSpec> sorting;
  std::vector<InlinedDataTable> inlined_tables;  // by schema_version ascending
  // COMMENT ON TABLE / COLUMN: the 'comment' rows of ducklake_tag (object_id = table_id) and
  // ducklake_column_tag visible at the snapshot; a NULL comment is no entry.
  std::optional<std::string> comment;
  std::map<int64_t, std::string> column_comments;  // by column_id

  // Finds a column, top-level or nested, by id; nullptr if absent at this snapshot.
  const ColumnInfo* FindColumn(int64_t column_id) const;
};

struct ViewInfo {
  int64_t view_id = 0;
  std::string view_uuid;
  int64_t schema_id = 0;
  std::string schema_name;
  std::string name;
  std::string dialect;
  std::string sql;
  std::vector<std::string> column_aliases;  // parsed from "\"a\",\"b\""
  int64_t begin_snapshot = 0;
  // COMMENT ON VIEW: the 'comment' row of ducklake_tag (object_id = view_id), if not NULL.
  std::optional<std::string> comment;
};

// One parameter of a macro implementation (ducklake_macro_parameters).
struct MacroParameter {
  std::string name;
  std::string type = "unknown";              // a DuckLake type name, or "unknown"
  std::optional<std::string> default_value;  // the default's value as text; nullopt: none
  std::string default_value_type = "unknown";
};

// One implementation of a macro (ducklake_macro_impl): scalar macros store an expression, table
// macros a query, both in DuckDB's SQL.
struct MacroImpl {
  std::string dialect = "duckdb";
  std::string sql;
  bool is_table = false;  // type 'table' (else 'scalar')
  std::vector<MacroParameter> parameters;
};

struct MacroInfo {
  int64_t macro_id = 0;
  int64_t schema_id = 0;
  std::string schema_name;
  std::string name;
  int64_t begin_snapshot = 0;
  std::vector<MacroImpl> impls;  // by impl_id

  // Every implementation of a macro is of one kind: a table macro or a scalar one.
  bool is_table() const { return !impls.empty() && impls[0].is_table; }
};

// The catalog as of one snapshot: schemas, tables (with columns and partitioning), views and
// macros. Immutable.
class LakeSnapshot {
 public:
  const SnapshotInfo& snapshot() const { return snapshot_; }
  int64_t snapshot_id() const { return snapshot_.snapshot_id; }
  const std::string& data_path() const { return data_path_; }  // resolved, ends in '/'
  const std::vector<SchemaInfo>& schemas() const { return schemas_; }
  const std::vector<std::shared_ptr<const TableInfo>>& tables() const { return tables_; }
  const std::vector<ViewInfo>& views() const { return views_; }
  const std::vector<MacroInfo>& macros() const { return macros_; }

  // Name lookups are case-insensitive, as SQL; nullptr when absent at this snapshot.
  const SchemaInfo* FindSchema(std::string_view name) const;
  std::shared_ptr<const TableInfo> FindTable(std::string_view schema, std::string_view name) const;
  std::shared_ptr<const TableInfo> FindTableById(int64_t table_id) const;
  const ViewInfo* FindView(std::string_view schema, std::string_view name) const;
  const MacroInfo* FindMacro(std::string_view schema, std::string_view name) const;

  // Assembles a snapshot view from parts: a write transaction's view of the catalog (its
  // start snapshot plus its own DDL, provisional ids negative).
  static std::shared_ptr<const LakeSnapshot> Make(
      SnapshotInfo snapshot, std::string data_path, std::vector<SchemaInfo> schemas,
      std::vector<std::shared_ptr<const TableInfo>> tables, std::vector<ViewInfo> views,
      std::vector<MacroInfo> macros = {}) {
    auto out = std::make_shared<LakeSnapshot>();
    out->snapshot_ = std::move(snapshot);
    out->data_path_ = std::move(data_path);
    out->schemas_ = std::move(schemas);
    out->tables_ = std::move(tables);
    out->views_ = std::move(views);
    out->macros_ = std::move(macros);
    return out;
  }

 private:
  friend class Lake;
  SnapshotInfo snapshot_;
  std::string data_path_;
  std::vector<SchemaInfo> schemas_;
  std::vector<std::shared_ptr<const TableInfo>> tables_;
  std::vector<ViewInfo> views_;
  std::vector<MacroInfo> macros_;
};

enum class DeleteFileFormat : uint8_t { kParquet, kPuffin };
// ducklake_delete_file.format: "parquet" or "puffin".
inline const char* DeleteFileFormatName(DeleteFileFormat format) {
  return format == DeleteFileFormat::kPuffin ? "puffin" : "parquet";
}

struct DeleteFileInfo {
  int64_t delete_file_id = 0;
  int64_t data_file_id = 0;
  int64_t begin_snapshot = 0;
  std::optional<int64_t> end_snapshot;
  std::string path;  // resolved
  DeleteFileFormat format = DeleteFileFormat::kParquet;
  std::string format_text;  // as stored
  int64_t delete_count = 0;
  int64_t file_size_bytes = 0;
  int64_t footer_size = 0;
  std::optional<std::string> encryption_key;  // base64, as stored
  // Set when the file embeds _ducklake_internal_snapshot_id per position: a position counts
  // as deleted at S only if its snapshot <= S.
  std::optional<int64_t> partial_max;

  bool is_partial() const { return partial_max.has_value(); }
};

// A row of ducklake_file_column_stats with min/max decoded by the column's type.
struct FileColumnStats {
  int64_t column_id = 0;
  std::optional<int64_t> column_size_bytes;
  std::optional<int64_t> value_count;  // non-NULL values
  std::optional<int64_t> null_count;
  // Decoded min/max: a NULL Value when unknown (absent, a type without stats, or text that
  // does not decode — pruning then treats the bound as unknown).
  Value min;
  Value max;
  std::optional<std::string> min_text;  // as stored
  std::optional<std::string> max_text;
  std::optional<bool> contains_nan;
  std::optional<std::string> extra_stats;
};

// ducklake_table_column_stats (not versioned: table-wide bounds, maybe approximate).
struct TableColumnStats {
  int64_t column_id = 0;
  std::optional<bool> contains_null;
  std::optional<bool> contains_nan;
  Value min;
  Value max;
  std::optional<std::string> min_text;
  std::optional<std::string> max_text;
  std::optional<std::string> extra_stats;
};

struct TableStats {
  int64_t record_count = 0;
  int64_t next_row_id = 0;
  int64_t file_size_bytes = 0;
};

struct FilePartitionValue {
  int64_t partition_key_index = 0;
  std::optional<std::string> text;  // as stored; nullopt = NULL
  // Decoded by the partition field's result type; NULL for a NULL value or when the text does
  // not decode (value_known = false).
  Value value;
  bool value_known = false;
};

// A position in a data file deleted through ducklake_inlined_delete_<table_id>.
struct InlinedFileDelete {
  int64_t position = 0;  // the row's 0-based position in the data file (column row_id)
  int64_t begin_snapshot = 0;
};

struct DataFileInfo {
  int64_t data_file_id = 0;
  int64_t begin_snapshot = 0;
  std::optional<int64_t> end_snapshot;
  std::string path;           // resolved against the table path when relative
  std::string relative_path;  // as stored
  bool path_is_relative = true;
  std::string file_format;    // "parquet"
  int64_t record_count = 0;
  int64_t file_size_bytes = 0;
  int64_t footer_size = 0;
  // NULL for files that embed _ducklake_internal_row_id for every row (e.g. merged files).
  std::optional<int64_t> row_id_start;
  std::optional<int64_t> partition_id;
  std::optional<std::string> encryption_key;  // base64, as stored
  std::optional<int64_t> mapping_id;          // set: columns are mapped by name (NameMapping)
  // Set when the file mixes rows of several snapshots: reading at S < partial_max keeps only
  // rows whose _ducklake_internal_snapshot_id <= S.
  std::optional<int64_t> partial_max;

  // The visible delete file at the snapshot: the latest when several are (the official
  // extension writes the positions deleted later into a new delete file beside the old one);
  // the others, whose positions count as deleted too, in `other_delete_files`.
  std::optional<DeleteFileInfo> delete_file;
  std::vector<DeleteFileInfo> other_delete_files;
  std::vector<InlinedFileDelete> inlined_deletes;       // begin_snapshot <= S, by position
  std::vector<FileColumnStats> column_stats;            // by column_id
  std::vector<FilePartitionValue> partition_values;     // by partition_key_index

  const FileColumnStats* FindStats(int64_t column_id) const;
};

struct NameMappingEntry {
  int64_t column_id = 0;  // mapping-local entry index (0, 1, ... depth-first)
  std::string source_name;
  int64_t target_field_id = 0;  // the table's column_id
  std::optional<int64_t> parent_column;  // a mapping-local index
  bool is_partition = false;
};

struct NameMapping {
  int64_t mapping_id = 0;
  std::string type;  // "map_by_name"
  std::vector<NameMappingEntry> entries;
};

// One table as of one snapshot: everything a scan needs. Immutable.
struct TableMetadata {
  int64_t snapshot_id = 0;
  std::shared_ptr<const TableInfo> table;
  std::optional<TableStats> stats;
  std::vector<TableColumnStats> column_stats;
  std::vector<DataFileInfo> data_files;  // visible at the snapshot, by data_file_id
  std::map<int64_t, NameMapping> name_mappings;  // those the visible files reference
  // Partition specs the visible files reference (a file may predate the current spec).
  std::map<int64_t, PartitionSpec> partition_specs;
  // Whether ducklake_inlined_delete_<table_id> exists.
  bool has_inlined_delete_table = false;
  // Set only in a write transaction's own view (tarn/table_write.h), empty otherwise: the
  // rows it inlined and has not committed, each batch in the layout of Lake::ReadInlinedRows
  // over the table's current columns; and the row_ids (sorted) of committed inlined rows it
  // deleted. Scans add the former and drop the latter.
  std::vector<std::shared_ptr<const Batch>> pending_inlined_rows;
  std::vector<int64_t> pending_inlined_row_deletes;

  // SUM(record_count) - deletes (delete files, inlined file deletes) as the catalog states
  // them; the inlined rows are not included (read them with Lake::ReadInlinedRows).
  int64_t FileRowCount() const;
};

// =============================================================================================
// Lake
// =============================================================================================

struct LakeOpenOptions {
  // The lake's data path. Default: the catalog's data_path. A '/' is appended when missing.
  std::optional<std::string> data_path;
  // What a data_path that differs from the catalog's means. true (the default for this API):
  // it replaces the catalog's (a moved lake). false: the open is refused with both paths
  // named, as the official extension refuses an ATTACH whose DATA_PATH differs from the
  // catalog's without OVERRIDE_DATA_PATH: files written under the other path would be recorded
  // relative to the catalog's and the new snapshots could not be read.
  bool override_data_path = true;
  // Default: true. Opens the catalog database read-only.
  bool read_only = true;
};

// Which rows of an inlined-data table to read.
enum class InlinedRowSelection : uint8_t {
  kVisible,  // begin_snapshot <= S AND (end_snapshot IS NULL OR S < end_snapshot)
  kAll,      // every row with begin_snapshot <= S, deleted ones included (change feeds)
};

class Lake {
 public:
  // Opens a lake from a locator: "ducklake:sqlite:PATH", "sqlite:PATH", or a bare PATH ending
  // in ".sqlite", ".sqlite3" or ".db". Errors: NotFound (no such file), InvalidArgument (not a
  // DuckLake catalog: no ducklake_metadata table; an unknown locator), NotSupported (a version
  // other than 1.0, an encrypted catalog, another backend), Corruption (bad metadata rows).
  static Result<std::unique_ptr<Lake>> Open(std::string_view locator,
                                            LakeOpenOptions options = {});
  // Opens a lake on a store the caller built. data_path and the checks are as above.
  static Result<std::unique_ptr<Lake>> Open(std::unique_ptr<CatalogStore> store,
                                            LakeOpenOptions options = {});
  ~Lake();
  Lake(const Lake&) = delete;
  Lake& operator=(const Lake&) = delete;

  const std::string& data_path() const { return data_path_; }  // effective; ends in '/'
  const std::string& catalog_data_path() const { return catalog_data_path_; }  // as stored
  const std::string& version() const { return version_; }  // "1.0"
  const std::vector<MetadataEntry>& metadata() const { return metadata_; }
  // An option resolved table > schema > global; nullopt when unset.
  std::optional<std::string> GetOption(std::string_view key, std::optional<int64_t> schema_id,
                                       std::optional<int64_t> table_id) const;

  // Every snapshot, ascending by id.
  Result<std::vector<SnapshotInfo>> ListSnapshots();
  // NotFound when no snapshot matches (an unknown id, a time before the first snapshot).
  Result<SnapshotInfo> FindSnapshot(const SnapshotSelector& selector);

  // Loads the catalog at a snapshot. One consistent read of the store.
  Result<std::shared_ptr<const LakeSnapshot>> LoadSnapshot(const SnapshotSelector& selector = {});
  // Loads one table of `snapshot` (files, deletes, statistics, ...). NotFound when the table
  // is not in it.
  Result<std::shared_ptr<const TableMetadata>> LoadTable(const LakeSnapshot& snapshot,
                                                         int64_t table_id);

  // The schema versions of `table` that began at or before `snapshot_id`, ascending by
  // begin_snapshot, each with its columns (read from the versioned ducklake_column rows, so
  // they are there when the snapshot itself was expired). A version that begins after the
  // table's begin_snapshot is preceded by one (schema_version -1) beginning there.
  Result<std::vector<TableSchemaVersion>> LoadSchemaVersions(const TableInfo& table,
                                                             int64_t snapshot_id);

  // Reads the rows of one of `table.table->inlined_tables` as of table.snapshot_id, ordered by
  // row_id. The batch has the columns row_id, begin_snapshot, end_snapshot (BIGINT) and then
  // the inlined table's columns typed by their DuckLake types (field_id = column_id).
  // end_snapshot is the stored value, so it may name a deletion after the snapshot. Values
  // are decoded from whatever form the catalog stores them in; one that does not decode is
  // Corruption naming the table, row_id and column. Nested, interval and timetz values stored
  // as text are read in DuckDB's VARCHAR spelling; variant and geometry columns are
  // NotSupported.
  Result<std::shared_ptr<Batch>> ReadInlinedRows(const TableMetadata& table,
                                                 const InlinedDataTable& inlined,
                                                 InlinedRowSelection selection =
                                                     InlinedRowSelection::kVisible);

  // The store, for the write side. REQUIRES: callers hold no other use of the Lake meanwhile.
  CatalogStore* store() { return store_.get(); }

  // Re-reads ducklake_metadata (after the write side changed options), so that metadata()
  // and GetOption see the stored values. REQUIRES: no concurrent use of metadata() or
  // GetOption() (references returned by metadata() before the call are invalidated).
  Status ReloadMetadata();

 private:
  Lake() = default;
  Status Initialize(const LakeOpenOptions& options);

  std::mutex mu_;  // guards store_ use (the store is single-threaded)
  std::unique_ptr<CatalogStore> store_;
  // Set once by Initialize, read-only afterwards.
  std::string data_path_;
  std::string catalog_data_path_;
  std::string version_;
  std::vector<MetadataEntry> metadata_;
};

// Decodes a statistics string (ducklake_*_column_stats min_value/max_value) into a Value of
// `type`: integers and floats as decimal text (also inf, -inf, nan), decimals as plain text,
// dates/times/timestamps as DuckDB prints them (timestamptz with an offset such as +00,
// ±infinity), blobs as uppercase hex, uuids canonical, varchar/json as is. Types without
// statistics (int128, uint128, interval, timetz, nested, variant, geometry) and text that does
// not decode are InvalidArgument.
Result<Value> DecodeStatsValue(std::string_view text, const DataType& type);

// Parses a timestamp with an optional UTC offset ("2026-11-30 03:07:50.479455+00") into UTC
// microseconds since the epoch.
Result<int64_t> ParseCatalogTimestamp(std::string_view text);

}  // namespace tarn
