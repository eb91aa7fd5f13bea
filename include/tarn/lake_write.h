// Writing DuckLake 1.0 lakes, catalog side: creating a lake, the change set of a transaction,
// and the optimistic commit that turns a change set into one new snapshot.
//
// The table layer (tarn/table_write.h) writes data and delete files and describes them here;
// this layer owns every catalog row. A commit is one catalog transaction (reference §3.4):
//   1. read the latest snapshot; when it is newer than the transaction's start snapshot, read
//      the changes_made of every snapshot since and check them against ours (§6 conflict
//      rules) — a conflict fails the commit with Conflict naming both changes;
//   2. assign the snapshot id (max + 1), catalog ids (schemas, tables, views, partitions,
//      sorts) from next_catalog_id, file ids (data, delete, mapping) from next_file_id, and
//      row ids (row_id_start, inlined row_id) from ducklake_table_stats.next_row_id;
//   3. write the DDL and DML rows, the merged table statistics, and the snapshot_changes row
//      with only the tokens the extension writes (§2.1);
//   4. COMMIT. A lost race (primary-key violation on snapshot_id, SQLite busy) rolls back,
//      sleeps, and goes back to 1 (10 tries, 100 ms × 1.5^i × jitter in [0.5, 1]).
// A crash at any point leaves the catalog at the old or the new snapshot: files are written
// before the commit and referenced only by it.
//
// Provisional ids: objects created by the same change set (schemas, tables, data files) get
// negative ids from LakeChanges::NewProvisionalId() and later changes refer to them by those;
// the commit maps them to real ids and reports the mapping. Column ids are final when the
// change is made (they are per table: 1.. depth-first at CREATE, MAX+1 for ADD COLUMN).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/columnar.h"
#include "tarn/status.h"
#include "tarn/type.h"

namespace tarn {

// =============================================================================================
// Creating a lake
// =============================================================================================

struct CreateLakeOptions {
  // Where data files go: absolute, '/'-separated ('/' appended when missing). Required.
  std::string data_path;
  // ducklake_metadata.created_by. Default: "tarn <version>".
  std::optional<std::string> created_by;
  // Stored as the global option data_inlining_row_limit when set (the default is 10).
  std::optional<int64_t> data_inlining_row_limit;
  // More global options stored with the new lake (key, value), e.g. write_deletion_vectors.
  std::vector<std::pair<std::string, std::string>> options;
};

// Creates a new SQLite catalog at `locator` ("ducklake:sqlite:PATH", "sqlite:PATH" or a bare
// PATH.sqlite) with the 28 DuckLake 1.0 tables in the extension's column order and declared
// types, the bootstrap rows (snapshot 0, schema "main", version '1.0', created_by, data_path,
// encrypted 'false'), and returns it opened for writing. AlreadyExists when the file exists.
Result<std::unique_ptr<Lake>> CreateLake(std::string_view locator,
                                         const CreateLakeOptions& options);

// Opens a new, empty SQLite database held in memory, private to the store (location()
// ":memory:"), writable; it disappears with the store.
Result<std::unique_ptr<CatalogStore>> OpenInMemorySqliteCatalogStore();

// Creates a new lake whose catalog is a SQLite database in memory (OpenInMemorySqliteCatalogStore),
// bootstrapped as CreateLake does, and returns it opened for writing. The catalog lives as
// long as the Lake; its data files go to options.data_path on whatever FileSystem the caller
// writes them through (an in-memory one keeps the whole lake in memory).
Result<std::unique_ptr<Lake>> CreateInMemoryLake(const CreateLakeOptions& options);

// The tarn version written into created_by: "tarn 0.1.0".
std::string_view TarnVersionString();

// Encodes a statistics value (ducklake_*_column_stats.min_value/max_value) as the extension
// does (reference §4 "Stats string encoding"); the inverse of DecodeStatsValue. InvalidArgument
// for types without statistics and for NaN (callers flag NaN through contains_nan instead).
Result<std::string> EncodeStatsValue(const Value& value, const DataType& type);

// Encodes a value as the text the extension stores in a catalog default column
// (initial_default, default_value): the literal's SQL text without quotes ("42", "abc",
// "2020-01-01"). NULL encodes as nullopt.
Result<std::optional<std::string>> EncodeDefaultLiteral(const Value& value);

// Whether rows of a table with these top-level columns can go to an inlined-data table: no
// column named row_id, begin_snapshot, end_snapshot or _ducklake_internal_*, no variant or
// geometry column (as the extension decides for SQLite catalogs). Nested, interval and timetz
// values are stored as DuckDB's text spelling.
bool CanInlineColumns(const std::vector<ColumnInfo>& columns);

// =============================================================================================
// The change set
// =============================================================================================

// Per-leaf statistics of a new data file, typed. The commit encodes min/max with
// EncodeStatsValue, writes ducklake_file_column_stats, and merges them into
// ducklake_table_column_stats with typed comparisons.
// One fully shredded field of a VARIANT column in a new data file: a row of
// ducklake_file_variant_stats.
struct NewVariantFieldStats {
  std::string path;           // root, element, "a", "a".element
  std::string shredded_type;  // DuckLake type name
  int64_t column_size_bytes = 0;
  int64_t value_count = 0;    // non-NULL values
  int64_t null_count = 0;
  std::optional<std::string> min, max;  // statistics text
  std::optional<bool> contains_nan;     // floating types only
};

struct NewFileColumnStats {
  int64_t column_id = 0;
  int64_t column_size_bytes = 0;
  int64_t value_count = 0;  // non-NULL values
  int64_t null_count = 0;
  std::optional<Value> min;  // absent: unknown (nested parents, types without stats)
  std::optional<Value> max;
  std::optional<bool> contains_nan;  // set for float columns only, as the extension does
  // GEOMETRY columns: {"bbox": {...}, "types": [...]} as the extension writes it; merged
  // (box union, kinds union) into the table-wide row.
  std::optional<std::string> extra_stats;
  // VARIANT columns: the fully shredded fields (their JSON is `extra_stats`).
  std::vector<NewVariantFieldStats> variant_fields;
};

struct NewDataFile {
  int64_t provisional_id = 0;  // negative; deletes in the same change set may name it
  int64_t table_id = 0;        // real or provisional
  std::string path;            // relative to the table's path, or absolute (below)
  bool path_is_relative = true;
  int64_t record_count = 0;
  int64_t file_size_bytes = 0;
  int64_t footer_size = 0;
  // Files written by UPDATE carry _ducklake_internal_row_id; row_id_start is still assigned
  // from next_row_id (as the extension does) and next_row_id advances by record_count.
  bool embeds_row_ids = false;
  std::vector<NewFileColumnStats> column_stats;  // one per leaf column of the file
  // Partitioned files: the partition_id (real, or provisional from a SetPartitioningChange of
  // the same change set) and one text value (or NULL) per key index.
  std::optional<int64_t> partition_id;
  std::vector<std::optional<std::string>> partition_values;
  // Counted into ducklake_table_stats.record_count (false for UPDATE rewrites, whose rows
  // replace deleted ones — the extension counts them anyway; keep its behavior: true).
  bool counts_toward_record_count = true;
  // Files added by ducklake_add_data_files: their columns mapped by name (entries indexed
  // 0, 1, ... depth-first, parents before children). The commit reuses the table's equal
  // ducklake_column_mapping or writes a new 'map_by_name' one (its id from next_file_id,
  // before the file's) with its ducklake_name_mapping rows. Empty: columns by field id.
  std::vector<NameMappingEntry> name_mapping;
};

// A delete file for one data file, cumulative (every deleted position of that file, not only
// the new ones), without embedded snapshot ids. The data file's previously visible delete
// file, if any, gets end_snapshot = the new snapshot; both stay for time travel.
struct NewDeleteFile {
  int64_t table_id = 0;
  int64_t data_file_id = 0;  // real or provisional
  std::string path;          // relative to the table's path
  int64_t delete_count = 0;  // rows in the file
  int64_t file_size_bytes = 0;
  int64_t footer_size = 0;
  // The delete file this one replaces (the one visible at the start snapshot), if any.
  std::optional<int64_t> replaces_delete_file_id;
  // kPuffin: a deletion vector (one bare blob), footer_size 0.
  DeleteFileFormat format = DeleteFileFormat::kParquet;
};

// Positions of one data file deleted through ducklake_inlined_delete_<table_id>
// (created IF NOT EXISTS), each row (data_file_id, position, new snapshot).
struct InlinedFileDeletes {
  int64_t table_id = 0;
  int64_t data_file_id = 0;  // real
  std::vector<int64_t> positions;  // sorted, unique
};

// Every row of a data file deleted: the file gets end_snapshot = the new snapshot.
struct EndDataFile {
  int64_t table_id = 0;
  int64_t data_file_id = 0;  // real
};

// Rows inserted into the inlined-data table of `table_id` (the one with the highest schema
// version, created with the table's current columns when none matches its schema). row_ids
// come from next_row_id unless `row_ids` is set (UPDATE of inlined or small updates keep
// their ids).
struct InlinedInsert {
  int64_t table_id = 0;
  std::shared_ptr<Batch> rows;  // the table's top-level columns, in column order
  std::optional<std::vector<int64_t>> row_ids;
};

// Inlined rows deleted in place: end_snapshot = the new snapshot where it is NULL.
struct InlinedRowDeletes {
  int64_t table_id = 0;
  std::vector<int64_t> row_ids;  // sorted, unique
};

struct CreateSchemaChange {
  int64_t provisional_id = 0;
  std::string name;
};
struct DropSchemaChange {
  int64_t schema_id = 0;
};

struct CreateTableChange {
  int64_t provisional_id = 0;
  int64_t schema_id = 0;  // real or provisional
  std::string name;
  // Top-level columns with children, column ids assigned (1.. depth-first), column_order =
  // column_id, begin_snapshot ignored (the commit sets it).
  std::vector<ColumnInfo> columns;
  // The name its folder is named after, when a rename in the same transaction came after data
  // files were written into the folder of its first name; empty: `name`.
  std::string path_name = "";
};
struct DropTableChange {
  int64_t table_id = 0;
};
struct RenameTableChange {
  int64_t table_id = 0;
  std::string new_name;
};

// ADD COLUMN: `column` with its new id(s); initial_default/default_value as given.
struct AddColumnChange {
  int64_t table_id = 0;
  ColumnInfo column;
};
struct DropColumnChange {
  int64_t table_id = 0;
  int64_t column_id = 0;  // top-level or nested
};
// A new version of an existing column (rename, type promotion, SET/DROP DEFAULT,
// SET/DROP NOT NULL): the current row gets end_snapshot and this one is inserted.
struct AlterColumnChange {
  int64_t table_id = 0;
  ColumnInfo column;  // same column_id; children carried over as they should be
};

// ALTER TABLE … SET PARTITIONED BY (fields) or RESET PARTITIONED BY (no fields): the table's
// current ducklake_partition_info row ends; a new one (its id from next_catalog_id, mapped from
// provisional_id so new files of the same change set can name it) begins with one
// ducklake_partition_column row per field (column_id, transform_text, key index = position);
// a schema_versions row is due. Token altered_table:T.
struct SetPartitioningChange {
  int64_t provisional_id = 0;
  int64_t table_id = 0;  // real or provisional
  std::vector<PartitionField> fields;
};

struct CreateViewChange {
  int64_t provisional_id = 0;
  int64_t schema_id = 0;
  std::string name;
  std::string sql;
  std::vector<std::string> column_aliases;
};
struct DropViewChange {
  int64_t view_id = 0;
};
// ALTER VIEW … RENAME TO: the view's current ducklake_view row ends and a row with the same
// view_id, uuid, dialect, SQL and aliases under the new name begins (its comment stays: tags
// name the id). Token created_view:"s"."new", as the extension writes it.
struct RenameViewChange {
  int64_t view_id = 0;  // real or provisional
  std::string new_name;
};
// COMMENT ON TABLE | VIEW | COLUMN … IS …: the object's current 'comment' row of ducklake_tag
// (object_id = the table or view id) or ducklake_column_tag (table_id, column_id) gets
// end_snapshot and a new one begins, value NULL for IS NULL. Token altered_table:T or
// altered_view:V (none for objects created in the same change set); the snapshot's
// schema_version is bumped but no ducklake_schema_versions row is written, as the extension
// does.
struct SetCommentChange {
  enum class Target : uint8_t { kTable, kView, kColumn };
  Target target = Target::kTable;
  int64_t object_id = 0;  // the table or view: real or provisional
  int64_t column_id = 0;  // kColumn
  std::optional<std::string> comment;
};

// CREATE MACRO: a ducklake_macro row (its id from next_catalog_id, mapped from provisional_id)
// with one ducklake_macro_impl row per implementation (impl_id = position) and one
// ducklake_macro_parameters row per parameter (column_id = position). Token
// created_scalar_macro or created_table_macro:"s"."m".
struct CreateMacroChange {
  int64_t provisional_id = 0;
  int64_t schema_id = 0;
  std::string name;
  std::vector<MacroImpl> impls;
};
// DROP MACRO [TABLE]: the macro's row ends. Token dropped_scalar_macro or
// dropped_table_macro:<id>.
struct DropMacroChange {
  int64_t macro_id = 0;
  bool is_table = false;
};

// SET SORTED BY / RESET SORTED BY (reference §2.7, §3.5 "Sort keys"): the table's current
// ducklake_sort_info row gets end_snapshot and, unless `fields` is empty (RESET), a new one
// (sort_id from next_catalog_id) with one ducklake_sort_expression row per field (0-based
// sort_key_index, dialect as given). A spec equal to the current one (or a RESET of none)
// writes no rows. Token altered_table:T; the snapshot's schema_version is bumped, but no
// ducklake_schema_versions row is written (sort keys do not split compaction groups).
struct SetSortKeyChange {
  int64_t table_id = 0;  // real or provisional
  std::vector<SortField> fields;  // sort_key_index 0..n-1
};

// ducklake_set_option: replaces the value of (key, scope) in ducklake_metadata. Not a snapshot
// of its own when it is the only change (the extension writes options outside snapshots).
struct SetOptionChange {
  MetadataEntry entry;
};

// ---- maintenance (ducklake_flush_inlined_data, _merge_adjacent_files, _rewrite_data_files) ----

// A data file written by a maintenance procedure. Unlike NewDataFile it takes no row ids
// from next_row_id and does not count toward record_count: its rows already exist.
struct MaintenanceDataFile {
  NewDataFile file;  // provisional_id, path, counts, statistics; table_id as the change's
  std::optional<int64_t> row_id_start;   // NULL when every row embeds its row id
  std::optional<int64_t> begin_snapshot;  // nullopt: the new snapshot
  std::optional<int64_t> partial_max;
};

// A delete file written by a maintenance procedure, with explicit snapshot bounds (the file
// may embed _ducklake_internal_snapshot_id). The delete file it replaces, if any, is removed
// from the catalog and scheduled for deletion (as the extension does for partial deletes).
struct MaintenanceDeleteFile {
  int64_t data_file_id = 0;  // real or provisional
  std::string path;          // relative to the table's path
  int64_t delete_count = 0;
  int64_t file_size_bytes = 0;
  int64_t footer_size = 0;
  int64_t begin_snapshot = 0;
  std::optional<int64_t> partial_max;
  std::optional<int64_t> replaces_delete_file_id;
  std::string replaced_path_from_data_path;  // the replaced file, relative to data_path
  DeleteFileFormat format = DeleteFileFormat::kParquet;  // kPuffin: a deletion vector
};

// A file leaving the catalog: its id and path relative to the lake's data_path.
struct ScheduledFile {
  int64_t file_id = 0;
  std::string path_from_data_path;
};

// ducklake_flush_inlined_data for one table: the inlined rows with begin_snapshot <=
// up_to_snapshot become `data_files` (one per inlined table, written with that table's
// columns, each with a delete file for rows that were deleted), the inlined file deletions
// become delete files, and both inlined tables lose those rows.
// Token inline_flush:T (and deleted_from_table:T when inlined file deletions were merged).
struct FlushInlinedChange {
  int64_t table_id = 0;
  int64_t up_to_snapshot = 0;
  std::vector<MaintenanceDataFile> data_files;      // in the order ids are assigned
  std::vector<MaintenanceDeleteFile> delete_files;  // likewise, after the data files
  bool merged_file_deletes = false;
  std::vector<std::string> inlined_tables;  // the ducklake_inlined_data_* tables flushed
  int64_t rows_flushed = 0;                 // inlined rows read (for the conflict check)
};

// Compaction of one table: `sources` replaced by `output`.
//   kMergeAdjacent: the sources are removed from the catalog (data file rows, statistics,
//     partition values) and scheduled for deletion; token merge_adjacent:T.
//   kRewriteDeletes: the sources and their delete files get end_snapshot = the new snapshot
//     (they stay for time travel); the output begins at the new snapshot; token
//     rewrite_delete:T.
// Each source must still be live (and, for a merge, without deletes): a Conflict otherwise.
struct CompactFilesChange {
  enum class Kind : uint8_t { kMergeAdjacent, kRewriteDeletes };
  Kind kind = Kind::kMergeAdjacent;
  int64_t table_id = 0;
  std::vector<ScheduledFile> sources;  // data files
  std::optional<MaintenanceDataFile> output;  // none when every source row was deleted
};

using LakeChange =
    std::variant<CreateSchemaChange, DropSchemaChange, CreateTableChange, DropTableChange,
                 RenameTableChange, AddColumnChange, DropColumnChange, AlterColumnChange,
                 SetPartitioningChange, SetSortKeyChange, CreateViewChange, DropViewChange,
                 RenameViewChange, SetCommentChange,
                 CreateMacroChange, DropMacroChange, SetOptionChange, NewDataFile, NewDeleteFile,
                 InlinedFileDeletes, EndDataFile, InlinedInsert, InlinedRowDeletes,
                 FlushInlinedChange, CompactFilesChange>;

// What one transaction changes, in order. Applied in this order at commit.
class LakeChanges {
 public:
  // Returns -1, -2, ... (unique within this change set).
  int64_t NewProvisionalId() { return --last_provisional_id_; }
  void Add(LakeChange change) { changes_.push_back(std::move(change)); }
  const std::vector<LakeChange>& changes() const { return changes_; }
  bool empty() const { return changes_.empty(); }
  void Clear() {
    changes_.clear();
    last_provisional_id_ = 0;
  }

 private:
  std::vector<LakeChange> changes_;
  int64_t last_provisional_id_ = 0;
};

// =============================================================================================
// Commit
// =============================================================================================

struct CommitOptions {
  std::optional<std::string> author;
  std::optional<std::string> commit_message;
  std::optional<std::string> commit_extra_info;
  int max_retries = 10;
  int64_t retry_wait_ms = 100;
  double retry_backoff = 1.5;
};

struct CommitResult {
  SnapshotInfo snapshot;  // the new snapshot (snapshot_id -1 when nothing needed one)
  std::map<int64_t, int64_t> id_mapping;  // provisional id -> real id
  int attempts = 1;
};

// Commits `changes` made by a transaction that started at `start_snapshot_id`. Errors:
// Conflict naming our change and theirs (e.g. "delete from table main.t conflicts with
// snapshot 7: deleted_from_table:1 on the same data file 3"); Conflict also when every retry
// lost the race (naming the attempts); the
// store's errors. On any error nothing is written.
Result<CommitResult> CommitLakeChanges(Lake& lake, int64_t start_snapshot_id,
                                       const LakeChanges& changes,
                                       const CommitOptions& options = {});

}  // namespace tarn
