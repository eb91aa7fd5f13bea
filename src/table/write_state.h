// The state of a WriteTransaction, shared by the files that implement it: the catalog as the
// transaction sees it (start snapshot + its DDL), the DDL changes in order, and per table the
// DML not yet committed (files written, deletes per data file, inlined rows).
//
// LakeChanges is generated from this state (BuildChanges) rather than appended to, so that
// later operations can revise earlier ones: deleting rows this transaction inserted rewrites
// or shrinks the pending insert, a second delete on a data file replaces the delete file the
// first one wrote, and DDL on objects created by the transaction edits their CreateTable.
//
// Thread-safety: none; a transaction is used by one thread at a time.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "catalog/names.h"
#include "tarn/catalog.h"
#include "tarn/columnar.h"
#include "tarn/io.h"
#include "tarn/lake_write.h"
#include "tarn/layout.h"
#include "tarn/table_write.h"

namespace tarn::table_internal {

// A data file this transaction wrote and still references.
struct PendingDataFile {
  NewDataFile change;  // change.path is relative to the table's path
  std::string absolute_path;
};

// What this transaction deleted from one committed data file.
struct FileDeleteState {
  int64_t data_file_id = 0;
  int64_t record_count = 0;
  std::string data_file_path;                 // absolute; the delete file's file_path value
  std::optional<int64_t> old_delete_file_id;  // visible at the start snapshot
  std::vector<int64_t> earlier;    // positions deleted at the start snapshot, sorted
  std::vector<int64_t> positions;  // deleted by this transaction, sorted, disjoint from earlier
  // The current materialization: ended, inlined (neither of the others), or a delete file.
  bool ended = false;
  std::optional<NewDeleteFile> delete_file;
  std::string delete_file_absolute_path;
};

// Rows inserted into the inlined-data table, in the table's current top-level columns.
struct PendingInlinedRows {
  std::shared_ptr<Batch> rows;  // null = none yet
  std::vector<int64_t> row_ids;  // used by the rowid-preserving set only
  int64_t num_rows() const { return rows ? rows->num_rows : 0; }
};

// The DML of one table (real or provisional table id).
struct TableDml {
  int64_t table_id = 0;
  std::vector<PendingDataFile> files;                 // in write order
  std::map<int64_t, FileDeleteState> file_deletes;    // by committed data_file_id
  std::set<int64_t> inlined_row_deletes;              // committed inlined rows deleted
  PendingInlinedRows plain_inlined;                   // new rows (row ids from the commit)
  PendingInlinedRows rowid_inlined;                   // rewritten rows keeping their row ids
  bool empty() const {
    return files.empty() && file_deletes.empty() && inlined_row_deletes.empty() &&
           plain_inlined.num_rows() == 0 && rowid_inlined.num_rows() == 0;
  }
};

// How files of a table are written, from the options table > schema > global.
struct WriteSettings {
  std::shared_ptr<const WriterProperties> properties;
  int64_t target_file_size = int64_t{1} << 29;
  int64_t inlining_row_limit = 10;
  bool inlining_allowed = true;  // false for tables with columns named like inlined columns
  WriterProfile profile = WriterProfile::kDuckDb;  // the table's parquet_profile
  // sort_on_insert: inserts order their rows by the table's sort key. Default: true.
  bool sort_on_insert = true;
  // hive_file_pattern: a partitioned table's files go into key=value folders. Default: true.
  bool hive_file_pattern = true;
  // write_deletion_vectors: delete files are deletion vectors (puffin), not Parquet. Default:
  // false.
  bool write_deletion_vectors = false;
};

struct WriteState {
  Lake* lake = nullptr;
  std::shared_ptr<FileSystem> fs;
  int64_t start_snapshot_id = 0;
  std::shared_ptr<const LakeSnapshot> start;

  // The catalog at the transaction's view.
  std::vector<SchemaInfo> schemas;
  std::vector<std::shared_ptr<const TableInfo>> tables;
  std::vector<ViewInfo> views;
  std::vector<MacroInfo> macros;
  std::vector<MetadataEntry> pending_options;  // SetOption in this transaction

  // DDL changes in order (schemas, tables, columns, views, options).
  std::vector<LakeChange> ddl;
  // Maintenance run inside the transaction (WriteTransaction::FlushInlinedData, ...): its
  // catalog changes, committed after `ddl` and before the DML; the tables it changed; the
  // committed data files it consumed (compaction sources, files whose inlined deletions a
  // flush merged) and the tables it flushed, which later runs leave alone.
  std::vector<LakeChange> maintenance;
  std::set<int64_t> maintained_tables;
  std::set<int64_t> maintained_files;
  std::set<int64_t> flushed_tables;
  // DML per table, in the order tables were first written.
  std::deque<TableDml> dml;  // a deque: references stay valid as tables are added
  // Table metadata at the start snapshot, loaded on demand, by table id.
  std::map<int64_t, std::shared_ptr<const TableMetadata>> base_tables;
  // Highest column id ever used per existing table (catalog MAX(column_id) + ids added here).
  std::map<int64_t, int64_t> max_column_id;
  // Files written and still referenced by the pending changes (absolute paths).
  std::set<std::string> written_files;
  std::set<std::string> created_directories;

  int64_t last_provisional_id = 0;
  int64_t NewProvisionalId() { return --last_provisional_id; }

  CommitOptions commit_options;
  // The SQL session's ducklake_* settings (WriteTransaction::SetSessionSettings).
  LakeSessionSettings session;
  // The most bytes of rows an insert into a sorted table holds to sort them
  // (WriteTransaction::SetSortMemoryLimit). Default: no limit.
  int64_t sort_memory_limit = INT64_MAX;
  bool finished = false;
  LakeChanges built;  // BuildChanges output, for changes()
  WorkWatch watch;    // WriteTransaction::SetWorkWatch: the rows scans read

  // --- lookups at the view ---
  const SchemaInfo* FindSchema(std::string_view name) const;
  const SchemaInfo* FindSchemaById(int64_t schema_id) const;
  std::shared_ptr<const TableInfo> FindTable(std::string_view schema,
                                             std::string_view name) const;
  std::shared_ptr<const TableInfo> FindTableById(int64_t table_id) const;
  const ViewInfo* FindView(std::string_view schema, std::string_view name) const;
  // A scalar and a table macro may share a name: `is_table` says which is meant.
  const MacroInfo* FindMacro(std::string_view schema, std::string_view name, bool is_table) const;
  // NotFound naming the closest table names of the schema.
  Result<std::shared_ptr<const TableInfo>> RequireTable(const std::string& schema,
                                                        const std::string& table) const;
  void ReplaceTable(std::shared_ptr<const TableInfo> table);

  // An option at the view (pending SetOption first), table > schema > global.
  std::optional<std::string> GetOption(std::string_view key, int64_t schema_id,
                                       int64_t table_id) const;

  // The table's metadata at the start snapshot (empty for tables created here).
  Result<std::shared_ptr<const TableMetadata>> BaseTable(const TableInfo& table);
  TableDml& Dml(int64_t table_id);
  TableDml* FindDml(int64_t table_id);

  // Deletes a file this transaction wrote (best effort) and forgets it.
  void DropWrittenFile(const std::string& absolute_path);
  Status EnsureDirectory(const std::string& dir);
};

// Catalog names match case-insensitively, as the catalog's own lookups match them.
using catalog_internal::NameEquals;

// ducklake_flush_inlined_data, _merge_adjacent_files, _rewrite_data_files inside the open
// transaction `txn` (maintenance.cc; WriteTransaction::FlushInlinedData has the rules).
enum class MaintenanceProcedure : uint8_t { kFlush, kMerge, kRewrite };
Result<MaintenanceResult> RunMaintenanceInTransaction(WriteState& txn,
                                                      MaintenanceProcedure procedure,
                                                      const MaintenanceOptions& options);

}  // namespace tarn::table_internal
