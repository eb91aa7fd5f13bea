// Writing DuckLake tables: a transaction that inserts, deletes and updates rows and changes
// the schema, then commits all of it as one snapshot (tarn/lake_write.h does the commit).
//
// A WriteTransaction starts at the lake's latest snapshot. Every operation writes its data
// and delete files right away (under the table's path, named as the extension names them:
// `ducklake-<uuidv7>.parquet`, `ducklake-<uuidv7>-delete.parquet`) and records what it did in
// the transaction's LakeChanges; nothing is visible to others until Commit. Reads inside the
// transaction (LoadTable, Scan) see the start snapshot plus the transaction's own changes.
// Rollback (or destroying an uncommitted transaction) deletes the files it wrote.
//
// Insert: rows are streamed into Parquet as they come (memory holds one row group, whatever
// the input's size), with field ids = column ids, split into files of at most
// target_file_size bytes, with the table's parquet_* options (table > schema > global). An
// insert of at most data_inlining_row_limit rows (over the whole transaction) goes to the
// inlined-data table instead.
// Delete: positions come from a scan of the table at the transaction's view with the
// predicate pushed down where that is exact (never a float predicate, never on a physically
// renamed column); per data file, at most data_inlining_row_limit positions go to the
// inlined-delete table, more to a new cumulative delete file, all rows ends the file; inlined
// rows are deleted in place.
// Update: the changed rows are deleted by position and rewritten with their rowids in a file
// carrying _ducklake_internal_row_id (or inlined when small), in the same snapshot.
//
// Rowids: rows inserted by the transaction get provisional rowids in its own reads (counted
// from the table's next_row_id at the start snapshot); the commit assigns the real ones.
// Options: writes use the options the Lake read when it was opened plus the transaction's own
// SetOption calls. docs/table-write.md has the rules.
//
// Thread-safety: one thread at a time per transaction. Several transactions (in one process
// or many) may run against one lake; the commit resolves their races.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/columnar.h"
#include "tarn/io.h"
#include "tarn/lake_write.h"
#include "tarn/status.h"
#include "tarn/work_watch.h"
#include "tarn/table.h"

namespace tarn {

// A column of CREATE TABLE / ADD COLUMN. Nested types carry their children in `type`.
struct ColumnDefinition {
  std::string name;
  DataType type;
  bool nulls_allowed = true;
  // The INSERT default (a literal of the column's type, or NULL Value = no default). For ADD
  // COLUMN it also becomes the initial_default that fills older files.
  std::optional<Value> default_value;
  // A default that is an expression (DuckDB SQL, `now()`, `round(pi())`), evaluated at each
  // insert, stored as the extension stores it (default_value_type 'expression'). Non-empty
  // replaces default_value. ADD COLUMN refuses it, as the extension does.
  std::string default_expression = "";
};

// One key of ALTER TABLE … SET PARTITIONED BY: a top-level column, as it is (identity) or
// through year/month/day/hour (DATE and TIMESTAMP columns; hour needs a timestamp) or
// bucket(bucket_count).
struct PartitionKeyDefinition {
  std::string column;
  PartitionTransform transform = PartitionTransform::kIdentity;
  int64_t bucket_count = 0;  // kBucket only: 1 .. 2^31-1
};

// One SET clause of an UPDATE: column = SQL expression over the table's columns.
struct UpdateAssignment {
  std::string column;
  std::string expression;
};

// ducklake_add_data_files: how files whose columns differ from the table's are taken.
struct AddDataFilesOptions {
  // Table columns (and struct fields) the file lacks read as NULL instead of refusing it.
  bool allow_missing = false;
  // File columns (and struct fields) the table lacks are skipped instead of refusing it.
  bool ignore_extra_columns = false;
  // `key=value` folders of the path supply columns the file lacks (and partition values).
  // nullopt: used when present, as the extension's default; false: never.
  std::optional<bool> hive_partitioning;
};

struct WriteResult {
  int64_t rows = 0;           // rows inserted, deleted or updated
  int64_t files_written = 0;  // data and delete files
  // The most bytes of rows the write held in memory at once (rows streamed to data files:
  // the open row group; an insert into a sorted table: the rows it sorted at once, about
  // twice that with their sorted copy, or the runs' batches while merging them); 0 when the
  // rows stayed in memory as inlined rows.
  int64_t peak_held_bytes = 0;
};

// DuckDB's ducklake_* session settings as a SQL session hands them to its writes and
// maintenance calls (SET ducklake_target_file_size = '10KB', ...).
struct LakeSessionSettings {
  // ducklake_target_file_size: when set, the target file size of inserts and compactions,
  // over every target_file_size option. Default: unset (the options decide).
  std::optional<int64_t> target_file_size;
  // ducklake_default_data_inlining_row_limit: the inlining limit of tables no
  // data_inlining_row_limit option reaches. Default: 10.
  int64_t default_inlining_row_limit = 10;
  // ducklake_max_retry_count, ducklake_retry_wait_ms, ducklake_retry_backoff: the commit's
  // retries (CommitOptions). Defaults: 10, 100, 1.5.
  int max_retries = 10;
  int64_t retry_wait_ms = 100;
  double retry_backoff = 1.5;
};

struct MaintenanceOptions {
  std::optional<std::string> schema;  // only this schema ("main" when only table is given)
  std::optional<std::string> table;   // only this table
  // ducklake_merge_adjacent_files: files with min_file_size <= size < max_file_size qualify
  // (defaults 0 and the table's target_file_size).
  std::optional<int64_t> min_file_size;
  std::optional<int64_t> max_file_size;
  // ducklake_merge_adjacent_files: at most this many runs of files per table (a run of one
  // file, merged with nothing, counts too, as the extension counts). REQUIRES: > 0. Default: no
  // bound. The extension's rewrite accepts it and does not bound (nor does tarn's).
  std::optional<uint64_t> max_compacted_files;
  // ducklake_rewrite_data_files: files whose deleted fraction >= this are rewritten.
  // Default: the rewrite_delete_threshold option (table > schema > global), else 0.95.
  std::optional<double> delete_threshold;
  // The session's target_file_size and inlining default (its retry settings go in `commit`).
  LakeSessionSettings session;
  CommitOptions commit;
  // Where compactions and rewrites report the rows they read and look for an interrupt (inside
  // a transaction, its WorkWatch is used instead). Default: nowhere.
  WorkWatch watch;
};

struct MaintenanceTableResult {
  std::string schema_name;
  std::string table_name;
  int64_t rows_flushed = 0;     // flush
  int64_t files_processed = 0;  // compaction: source files
  int64_t files_created = 0;
};

struct MaintenanceResult {
  // Flush: one entry per table flushed. Merge and rewrite: one per compaction (a group of
  // source files becoming one output file), as the extension returns one row for each; tables
  // by table id.
  std::vector<MaintenanceTableResult> tables;
  CommitResult commit;                         // snapshot_id -1 when nothing was done
};

class WriteTransaction {
 public:
  // Starts at the latest snapshot. REQUIRES: the lake was opened writable.
  static Result<std::unique_ptr<WriteTransaction>> Begin(Lake& lake,
                                                         std::shared_ptr<FileSystem> fs);
  ~WriteTransaction();  // rolls back when neither committed nor rolled back

  int64_t start_snapshot_id() const;
  // The most bytes of rows an insert into a sorted table holds to sort them (the SQL
  // session's memory_limit). An insert larger than this is sorted externally: runs of at most
  // this many bytes are sorted and spilled to temporary files, then merged, so its files are
  // in one key order. Default: no limit.
  void SetSortMemoryLimit(int64_t bytes);
  // The session settings later writes and the commit use. Default: LakeSessionSettings{}.
  void SetSessionSettings(const LakeSessionSettings& settings);
  // Where the scans of later DELETE, UPDATE, compaction and rewrites report the rows they read
  // and look for an interrupt (they stop between batches with Cancelled("Interrupted"); the
  // transaction then rolls back as after any failed statement). Default: nowhere.
  void SetWorkWatch(const WorkWatch& watch);

  // --- reads at the transaction's view (start snapshot + own changes) ---
  Result<std::shared_ptr<const LakeSnapshot>> Snapshot();
  // NotFound for an unknown table (naming the closest names).
  Result<std::shared_ptr<const TableMetadata>> LoadTable(const std::string& schema,
                                                         const std::string& table);
  Result<std::unique_ptr<TableScanReader>> Scan(const std::string& schema,
                                                const std::string& table,
                                                const TableScanOptions& options = {});

  // --- DDL ---
  Status CreateSchema(const std::string& name, bool if_not_exists = false);
  // Without `cascade` the schema must be empty; with it, its tables, views and macros go too.
  Status DropSchema(const std::string& name, bool if_exists = false, bool cascade = false);
  Status CreateTable(const std::string& schema, const std::string& table,
                     const std::vector<ColumnDefinition>& columns, bool if_not_exists = false);
  Status DropTable(const std::string& schema, const std::string& table, bool if_exists = false);
  Status RenameTable(const std::string& schema, const std::string& table,
                     const std::string& new_name);
  Status AddColumn(const std::string& schema, const std::string& table,
                   const ColumnDefinition& column);
  Status DropColumn(const std::string& schema, const std::string& table,
                    const std::string& column);
  Status RenameColumn(const std::string& schema, const std::string& table,
                      const std::string& column, const std::string& new_name);
  // Nested fields (DuckDB's `ALTER TABLE t ADD COLUMN s.f`, `DROP COLUMN s.f`, `RENAME s.f TO
  // g`). A path names a top-level column, then struct fields, `element` of a list and `key` or
  // `value` of a map, matched case-insensitively. AddField adds `field` to the struct at
  // `parent_path` with a new column id (its default also fills the rows of older files);
  // DropField ends the field and its children; RenameField renames a struct field. Files keep
  // field ids, so data written before reads through the new names. `if_not_exists` /
  // `if_exists` make a field that is (not) there a no-op; otherwise NotFound or AlreadyExists
  // in the extension's words.
  Status AddField(const std::string& schema, const std::string& table,
                  const std::vector<std::string>& parent_path, const ColumnDefinition& field,
                  bool if_not_exists = false);
  Status DropField(const std::string& schema, const std::string& table,
                   const std::vector<std::string>& path, bool if_exists = false);
  Status RenameField(const std::string& schema, const std::string& table,
                     const std::vector<std::string>& path, const std::string& new_name);
  // SET SORTED BY (fields: expression text in DuckDB's spelling, direction, NULL order;
  // indices and dialect are filled in) or, with no fields, RESET SORTED BY. The key orders the
  // rows of later inserts, flushes and compactions; RENAME COLUMN rewrites its references and
  // DROP COLUMN of a column it uses is refused. InvalidArgument naming columns it does not
  // know.
  Status SetSortKey(const std::string& schema, const std::string& table,
                    std::vector<SortField> fields);
  // Rewrites every row of the table in the order of its sort key, each keeping its rowid (the
  // rewrite of SET SORTED BY AUTO); the old files end in the same snapshot.
  Result<WriteResult> RewriteInSortOrder(const std::string& schema, const std::string& table);
  // Type promotion only (int8→…→int64, uint widening, float32→float64, any → wider per
  // DuckLake); InvalidArgument otherwise, naming both types. A STRUCT, LIST or MAP column
  // evolves field by field, matched by name: fields only in `new_type` are added (new column
  // ids), fields only in the old type are dropped, the others promoted the same way.
  Status AlterColumnType(const std::string& schema, const std::string& table,
                         const std::string& column, const DataType& new_type);
  // nullopt drops the default.
  Status SetColumnDefault(const std::string& schema, const std::string& table,
                          const std::string& column, std::optional<Value> default_value);
  // An expression default (DuckDB SQL), evaluated at each insert; see ColumnDefinition.
  Status SetColumnDefaultExpression(const std::string& schema, const std::string& table,
                                    const std::string& column, const std::string& expression);
  Status SetColumnNotNull(const std::string& schema, const std::string& table,
                          const std::string& column, bool not_null);
  // ALTER TABLE … SET PARTITIONED BY (keys); empty `keys` is RESET PARTITIONED BY. Files
  // written afterwards (inserts, update rewrites) are split by partition into hive folders
  // (`key=value/`) with their partition values; earlier files keep theirs. Setting the keys
  // the table already has, or resetting an unpartitioned table, changes nothing.
  Status SetPartitioning(const std::string& schema, const std::string& table,
                         const std::vector<PartitionKeyDefinition>& keys);
  Status CreateView(const std::string& schema, const std::string& view, const std::string& sql,
                    const std::vector<std::string>& column_aliases, bool or_replace = false);
  Status DropView(const std::string& schema, const std::string& view, bool if_exists = false);
  // ALTER VIEW … RENAME TO, with the extension's messages (a table named: "Cannot use ALTER
  // VIEW on entry t - it is not a view"; the new name taken: "Could not rename view …").
  Status RenameView(const std::string& schema, const std::string& view,
                    const std::string& new_name, bool if_exists = false);
  // COMMENT ON TABLE | VIEW | COLUMN (`column`, a top-level column, for kColumn); nullopt is
  // IS NULL. Reads in the transaction see it (TableInfo::comment, column_comments,
  // ViewInfo::comment); only the last comment of an object is committed.
  Status SetComment(SetCommentChange::Target target, const std::string& schema,
                    const std::string& name, const std::string& column,
                    std::optional<std::string> comment);
  // CREATE [OR REPLACE] MACRO schema.name with its implementations (all scalar or all table;
  // their SQL in DuckDB's dialect). AlreadyExists as DuckDB words it unless `or_replace` or
  // `if_not_exists` (which then changes nothing).
  Status CreateMacro(const std::string& schema, const std::string& name,
                     std::vector<MacroImpl> impls, bool or_replace = false,
                     bool if_not_exists = false);
  // DROP MACRO [TABLE] schema.name: `is_table` says which kind is named.
  Status DropMacro(const std::string& schema, const std::string& name, bool is_table,
                   bool if_exists = false);
  // ducklake_set_option. scope_schema/scope_table narrow it.
  Status SetOption(const std::string& key, const std::string& value,
                   const std::optional<std::string>& scope_schema = std::nullopt,
                   const std::optional<std::string>& scope_table = std::nullopt);

  // --- DML ---
  // `rows` has the table's columns by name (any subset; the rest take their INSERT default,
  // NULL otherwise); types are cast to the column types. NOT NULL columns are enforced
  // (InvalidArgument naming the column). Reads the reader to the end.
  Result<WriteResult> Insert(const std::string& schema, const std::string& table,
                             BatchReader& rows);
  // Deletes the rows where `predicate` (SQL over the table's columns and rowid) is TRUE;
  // nullopt deletes every row.
  Result<WriteResult> Delete(const std::string& schema, const std::string& table,
                             const std::optional<std::string>& predicate);
  Result<WriteResult> Update(const std::string& schema, const std::string& table,
                             const std::vector<UpdateAssignment>& assignments,
                             const std::optional<std::string>& predicate);
  // UPDATE … FROM, whose new values come from a join: `changes` holds a BIGINT column "rowid"
  // (each id once) and then one column per assigned column, named as the table's; each row
  // whose rowid it lists gets those values (cast to the column types). Rows it does not list
  // stay, and so does an id no row has. InvalidArgument for a NULL or repeated id, NotFound
  // for an unknown column.
  Result<WriteResult> UpdateByRowId(const std::string& schema, const std::string& table,
                                    const Batch& changes);

  // ducklake_add_data_files: registers existing Parquet files (paths, globs already expanded)
  // as data files of the table, as the extension does: columns matched by name (struct fields
  // too, case-insensitively) through a name mapping, types checked against the table's
  // (InvalidArgument with the extension's "Failed to map column ..." message), statistics
  // from the footers, partition values from `key=value` folders (a partitioned table needs
  // every key). The files are not the transaction's: a rollback leaves them in place. A path
  // under the table's folder is stored relative to it, any other path as it is. Files
  // without rows are skipped; a path given twice is added once.
  Result<WriteResult> AddDataFiles(const std::string& schema, const std::string& table,
                                   const std::vector<std::string>& paths,
                                   const AddDataFilesOptions& options = {});

  // --- maintenance inside the transaction ---
  // ducklake_flush_inlined_data, _merge_adjacent_files, _rewrite_data_files as the extension
  // runs them in an open transaction: over the tables and files committed at the start
  // snapshot (not the transaction's own rows), ordered by the transaction's sort keys. Their
  // files are written now and their catalog changes become part of Commit (after the DDL,
  // before the transaction's inserts and deletes); Rollback deletes the files. Files a run
  // already compacted and tables it already flushed are left alone by later runs. Commit
  // fails (Conflict) when the transaction also deleted or updated committed rows of a table
  // one of these changed, as the extension's commit does.
  Result<MaintenanceResult> FlushInlinedData(const MaintenanceOptions& options);
  Result<MaintenanceResult> MergeAdjacentFiles(const MaintenanceOptions& options);
  Result<MaintenanceResult> RewriteDataFiles(const MaintenanceOptions& options);

  // --- end ---
  void SetCommitInfo(std::optional<std::string> author, std::optional<std::string> message,
                     std::optional<std::string> extra_info = std::nullopt);
  // One snapshot for everything (none when nothing changed). After it, the transaction is
  // finished whatever the outcome; a failed commit deletes the files it wrote.
  Result<CommitResult> Commit();
  Status Rollback();

  const LakeChanges& changes() const;

 private:
  WriteTransaction() = default;
  struct State;
  std::unique_ptr<State> state_;
};

// =============================================================================================
// Maintenance procedures (reference §3.9 flush, §3.10 compaction). Each works at the lake's
// latest snapshot, writes its files, and commits one snapshot (none when nothing qualifies);
// a failed commit deletes the files it wrote. docs/maintenance.md has the rules.
// =============================================================================================

// ducklake_flush_inlined_data: every inlined row (deleted ones included) into one Parquet file
// per inlined table and partition of the table's current spec (written with that table's
// schema version's columns, under the partition's hive folder) carrying
// _ducklake_internal_row_id (and _ducklake_internal_snapshot_id when the rows span snapshots);
// deleted rows into its partial delete file; inlined file deletions into delete files; the
// inlined tables emptied of the flushed rows.
Result<MaintenanceResult> FlushInlinedData(Lake& lake, std::shared_ptr<FileSystem> fs,
                                           const MaintenanceOptions& options = {});
// ducklake_merge_adjacent_files: live files without deletes below target_file_size, grouped
// by schema version and partition, packed in (begin_snapshot, row_id_start, data_file_id)
// order while below target_file_size, >= 2 per output (at most max_compacted_files runs per
// table), each written with its schema version's columns.
Result<MaintenanceResult> MergeAdjacentFiles(Lake& lake, std::shared_ptr<FileSystem> fs,
                                             const MaintenanceOptions& options = {});
// ducklake_rewrite_data_files: files whose deleted fraction >= delete_threshold rewritten
// without their deleted rows (per schema version and partition, into one file with row ids).
Result<MaintenanceResult> RewriteDataFiles(Lake& lake, std::shared_ptr<FileSystem> fs,
                                           const MaintenanceOptions& options = {});

// The value an INSERT gives `column` where it names none, or names DEFAULT: the column's
// default (a literal, or a constant expression evaluated now), NULL when it has none.
Result<Value> ColumnInsertDefault(const ColumnInfo& column);

}  // namespace tarn
