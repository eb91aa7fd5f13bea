// Internal pieces of the optimistic commit (CommitLakeChanges, tarn/lake_write.h), split by
// concern:
//   commit.cc            — the attempt (one catalog write transaction) and the retry loop
//   commit_tokens.cc     — changes_made tokens: ours from a change set, theirs parsed, and the
//                          §6 conflict rules between them
//   commit_ddl.cc        — id allocation and the rows of schema objects (schemas, tables,
//                          columns, views, options, inlined-data tables)
//   commit_data.cc       — data files, delete files, inlined inserts and deletes
//   commit_stats.cc      — ducklake_table_stats / ducklake_table_column_stats merging
//   commit_util.cc       — uuids, timestamps, quoting, the crash hook
//
// Every function runs inside the attempt's write transaction on the store; none is
// thread-safe (the store is single-threaded).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/column_tree.h"
#include "tarn/catalog.h"
#include "tarn/lake_write.h"

namespace tarn::catalog_internal {

// ---- utilities (commit_util.cc) -------------------------------------------------------------

// Random (v4) and time-ordered (v7) uuids, canonical lowercase text. Each call draws fresh
// entropy from the OS, so forked processes never repeat each other.
std::string NewUuidV4();
std::string NewUuidV7();
// The current time as the catalog stores it: "2026-11-30 03:07:50.479455+00".
std::string NowTimestampText();
// "name" with embedded quotes doubled (SQL identifier / changes_made quoting).
std::string QuoteName(std::string_view name);
// The extension's path for a schema or table: "<name>/" when the name is only ASCII letters,
// digits, '_' and '-', else "<uuid>/".
std::string ObjectPath(std::string_view name, std::string_view uuid);
// Runs one statement; returns rows changed.
Result<int64_t> Exec(CatalogStore* store, std::string_view sql,
                     std::vector<CatalogDatum> params);
CatalogDatum OptInteger(std::optional<int64_t> v);
CatalogDatum OptText(const std::optional<std::string>& v);

// The commit steps a crash test can stop at (TARN_COMMIT_CRASH_AT=<step> makes the process
// _exit(86) on reaching it): "begin", "read", "catalog_rows", "data_rows", "stats",
// "snapshot", "before_commit", "after_commit".
void CrashPoint(std::string_view step);

// A Conflict the retry loop must not retry: two transactions changed the same thing. Its
// message starts with "Transaction conflict: ".
template <typename... Args>
Status LogicalConflict(const Args&... args) {
  return Status::Conflict("Transaction conflict: ", args...);
}
bool IsLogicalConflict(const Status& status);

// ---- changes_made tokens (commit_tokens.cc) ----------------------------------------------------

// The changes of one snapshot, by kind, as the extension's tokens name them.
struct ChangeTokens {
  std::set<int64_t> dropped_schemas, dropped_tables, dropped_views;
  std::vector<std::string> created_schemas;
  struct Created {
    std::string schema, name;
    bool is_view = false;
    bool is_table_macro = false;  // in created_macros: a table macro (else a scalar one)
  };
  std::vector<Created> created_tables;  // tables and views, in order
  std::set<int64_t> inserted, deleted, altered_tables, altered_views, inlined_inserted,
      inlined_deleted, flushed, compacted, merge_adjacent, rewrite_delete;
  std::set<int64_t> dropped_scalar_macros, dropped_table_macros;
  std::vector<Created> created_macros;  // in order

  bool empty() const;
};

// The changes_made text in the extension's order and quoting.
std::string FormatChangesMade(const ChangeTokens& tokens);
// Parses changes_made; InvalidArgument naming the token it does not know.
Result<ChangeTokens> ParseChangesMade(std::string_view text);

// One snapshot committed after our start: its id and parsed changes.
struct TheirSnapshot {
  int64_t snapshot_id = 0;
  std::string changes_made;
  ChangeTokens tokens;
};

// What our change set deletes from data files, for the same-file check.
struct OurFileDeletes {
  std::map<int64_t, std::set<int64_t>> data_files_by_table;  // real data_file ids
};

// The tokens of a change set for the conflict check, before any id is assigned: objects the
// change set creates are named (schemas, tables, views) but have no ids yet, so only their
// names take part. `start` is the catalog at the transaction's start snapshot (for the names
// of the schemas new entries go into). Also collects the real data files it deletes from.
Result<ChangeTokens> TokensOfChanges(const LakeChanges& changes, const LakeSnapshot& start,
                                     OurFileDeletes* file_deletes);

// Applies the §6 rules. Returns Conflict naming our change and theirs; OK otherwise.
Status CheckConflicts(CatalogStore* store, int64_t start_snapshot_id, const ChangeTokens& ours,
                      const OurFileDeletes& our_files, const std::vector<TheirSnapshot>& theirs);

// ---- the attempt state -----------------------------------------------------------------------

// A table as the commit sees it: at the latest snapshot, plus this change set's DDL so far.
struct TableState {
  int64_t table_id = 0;
  int64_t schema_id = 0;
  std::string schema_name;
  std::string name;
  std::vector<ColumnInfo> columns;  // top-level with children
  bool created_here = false;
  bool dropped_here = false;
  // A new ducklake_schema_versions row and a new inlined-data table are due.
  bool schema_version_row = false;
  // The sort key as of the changes applied so far (empty: unsorted).
  std::vector<SortField> sort_fields;
};

struct SchemaState {
  int64_t schema_id = 0;
  std::string name;
};

// Per-column statistics accumulated over this commit's new rows.
struct ColumnStatsAccum {
  bool contains_null = false;
  std::optional<bool> contains_nan;
  std::optional<Value> min, max;  // typed by the column's current type
  std::optional<std::string> extra_stats;  // geometry: the union of the files' JSON
  bool extra_seen = false;  // some file's extra_stats were folded in (variants: absent = none)
};

// Folds extra_stats `more` into `*into`: geometry JSON as the union of boxes and kinds (text
// that is no geometry statistics leaves `*into` as it was); variant JSON keeping the fields
// both shredded alike. `into_seen`: `*into` already describes some file (else it is taken).
void MergeExtraStats(const DataType& type, bool into_seen, std::optional<std::string>* into,
                     const std::optional<std::string>& more);

struct TableStatsAccum {
  int64_t added_records = 0;
  int64_t added_bytes = 0;
  int64_t next_row_id = 0;
  bool initialized = false;  // a ducklake_table_stats row exists
  int64_t old_record_count = 0;
  int64_t old_file_size_bytes = 0;
  bool has_data_files = false;
  bool has_inlined = false;
  std::map<int64_t, ColumnStatsAccum> columns;
};

struct CommitAttempt {
  Lake* lake = nullptr;
  CatalogStore* store = nullptr;
  const LakeChanges* changes = nullptr;
  const CommitOptions* options = nullptr;
  int64_t start_snapshot_id = 0;

  SnapshotInfo latest;
  std::shared_ptr<const LakeSnapshot> catalog;  // at `latest`

  // The new snapshot and its counters, advanced as ids are taken.
  int64_t snapshot_id = 0;
  int64_t schema_version = 0;
  int64_t next_catalog_id = 0;
  int64_t next_file_id = 0;
  bool schema_changed = false;
  std::string now_text;

  std::map<int64_t, int64_t> id_mapping;  // provisional -> real
  ChangeTokens tokens;
  OurFileDeletes file_deletes;
  std::map<int64_t, SchemaState> schemas;  // real schema ids touched or created
  std::map<int64_t, TableState> tables;    // real table ids touched or created
  std::map<int64_t, TableStatsAccum> stats;
  bool metadata_changed = false;

  // Maps a provisional (negative) id to its real id; real ids pass through.
  Result<int64_t> Resolve(int64_t id, std::string_view what) const;
  Result<TableState*> Table(int64_t real_table_id);
  Result<SchemaState*> Schema(int64_t real_schema_id);
};

// ---- row writers -------------------------------------------------------------------------------

// commit_ddl.cc: every change but the data ones, in order; sets schema_changed and tokens.
Status WriteCatalogChanges(CommitAttempt* attempt);
// The inlined-data tables due for new/renamed/altered tables, and the schema_versions rows.
// REQUIRES: attempt->schema_version final for this commit's DDL.
Status WriteNewInlinedTables(CommitAttempt* attempt);
Status WriteSchemaVersionRows(CommitAttempt* attempt);
// The effective data_inlining_row_limit of a table (table > schema > global > 10).
Result<int64_t> InliningRowLimit(CatalogStore* store, int64_t schema_id, int64_t table_id);
// Creates ducklake_inlined_data_<T>_<V> with `columns` and registers it; returns its name.
Result<std::string> CreateInlinedDataTable(CommitAttempt* attempt, int64_t table_id,
                                           int64_t schema_version,
                                           const std::vector<ColumnInfo>& columns);

// commit_data.cc: data files, delete files, inlined rows; accumulates statistics.
Status WriteDataChanges(CommitAttempt* attempt);
// The declared SQLite type of an inlined column: DuckDB's type name, but VARCHAR (values kept
// as DuckDB's text) for floats — as the extension, since SQLite turns NaN into NULL and
// -0.0 into 0 — and for types whose text SQLite's numeric affinity would round (uint64,
// int128, uint128, decimals over 15 digits) or reinterpret (json). On a PostgreSQL catalog
// (`backend` "postgres"): PostgresInlinedColumnType.
std::string InlinedColumnType(const DataType& type, std::string_view backend);
// A stored cell for an inlined value of a catalog on `backend`; NotSupported for types tarn
// does not inline.
Result<CatalogDatum> InlinedDatum(const Column& column, int64_t row, std::string_view backend);

// commit_maintenance.cc: flushed inlined data and compacted files (before the data changes).
Status WriteMaintenanceChanges(CommitAttempt* attempt);

// commit_stats.cc
Result<TableStatsAccum*> StatsFor(CommitAttempt* attempt, int64_t table_id);
// Folds one value bound or NULL count into the accumulator (values normalized to `type`).
Status AccumulateColumnStats(ColumnStatsAccum* accum, const DataType& type,
                             const std::optional<Value>& min, const std::optional<Value>& max,
                             bool has_null, std::optional<bool> contains_nan);
Status WriteTableStats(CommitAttempt* attempt);
// Inserts one ducklake_file_column_stats row of data file `file_id` with the encoded bounds.
Status InsertFileColumnStats(CommitAttempt* attempt, int64_t file_id, int64_t table_id,
                             const NewFileColumnStats& stats, const CatalogDatum& min,
                             const CatalogDatum& max);

// Rolls back the store's open transaction when it goes out of scope (a commit that completes
// has committed it by then).
class RollbackGuard {
 public:
  explicit RollbackGuard(CatalogStore* store) : store_(store) {}
  ~RollbackGuard() {
    if (store_->in_transaction()) (void)store_->Rollback();
  }
  RollbackGuard(const RollbackGuard&) = delete;
  RollbackGuard& operator=(const RollbackGuard&) = delete;

 private:
  CatalogStore* store_;
};
// Orders two non-NULL values of the same type (storage); -1, 0, 1.
int CompareStatsValues(const Value& a, const Value& b);

}  // namespace tarn::catalog_internal
