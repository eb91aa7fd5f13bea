// WriteTransaction: the public face of the write side; the work is in write_*.cc.
#include "tarn/table_write.h"

#include "table/add_files.h"
#include "table/write_ddl.h"
#include "table/write_dml.h"
#include "table/write_overlay.h"
#include "table/write_rows.h"
#include "table/write_state.h"

namespace tarn {

using table_internal::WriteState;

struct WriteTransaction::State : WriteState {};

namespace {

Status CheckOpen(const WriteState& state) {
  if (state.finished) {
    return Status::InvalidArgument("the write transaction has already committed or rolled back");
  }
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<WriteTransaction>> WriteTransaction::Begin(Lake& lake,
                                                                  std::shared_ptr<FileSystem> fs) {
  if (lake.store() == nullptr || lake.store()->read_only()) {
    return Status::InvalidArgument("lake catalog '",
                                   lake.store() ? lake.store()->location() : std::string(),
                                   "' is opened read-only; open it with read_only = false to "
                                   "write");
  }
  if (!fs) return Status::InvalidArgument("WriteTransaction::Begin: no file system");
  TARN_ASSIGN_OR_RETURN(auto snapshot, lake.LoadSnapshot(SnapshotSelector::Latest()));
  std::unique_ptr<WriteTransaction> txn(new WriteTransaction());
  txn->state_ = std::make_unique<State>();
  State& state = *txn->state_;
  state.lake = &lake;
  state.fs = std::move(fs);
  state.start_snapshot_id = snapshot->snapshot_id();
  state.start = snapshot;
  state.schemas = snapshot->schemas();
  state.tables = snapshot->tables();
  state.views = snapshot->views();
  state.macros = snapshot->macros();
  return txn;
}

WriteTransaction::~WriteTransaction() {
  if (state_ && !state_->finished) (void)Rollback();
}

int64_t WriteTransaction::start_snapshot_id() const { return state_->start_snapshot_id; }

void WriteTransaction::SetSortMemoryLimit(int64_t bytes) { state_->sort_memory_limit = bytes; }

void WriteTransaction::SetWorkWatch(const WorkWatch& watch) { state_->watch = watch; }

void WriteTransaction::SetSessionSettings(const LakeSessionSettings& settings) {
  state_->session = settings;
  state_->commit_options.max_retries = settings.max_retries;
  state_->commit_options.retry_wait_ms = settings.retry_wait_ms;
  state_->commit_options.retry_backoff = settings.retry_backoff;
}

Result<std::shared_ptr<const LakeSnapshot>> WriteTransaction::Snapshot() {
  return table_internal::OverlaySnapshot(*state_);
}

Result<std::shared_ptr<const TableMetadata>> WriteTransaction::LoadTable(const std::string& schema,
                                                                         const std::string& table) {
  TARN_ASSIGN_OR_RETURN(auto info, state_->RequireTable(schema, table));
  return table_internal::OverlayTable(*state_, std::move(info));
}

Result<std::unique_ptr<TableScanReader>> WriteTransaction::Scan(const std::string& schema,
                                                                const std::string& table,
                                                                const TableScanOptions& options) {
  TARN_ASSIGN_OR_RETURN(auto metadata, LoadTable(schema, table));
  return OpenTableScan(*state_->lake, state_->fs, std::move(metadata), options);
}

Status WriteTransaction::CreateSchema(const std::string& name, bool if_not_exists) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlCreateSchema(*state_, name, if_not_exists);
}

Status WriteTransaction::DropSchema(const std::string& name, bool if_exists, bool cascade) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlDropSchema(*state_, name, if_exists, cascade);
}

Status WriteTransaction::CreateTable(const std::string& schema, const std::string& table,
                                     const std::vector<ColumnDefinition>& columns,
                                     bool if_not_exists) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlCreateTable(*state_, schema, table, columns, if_not_exists);
}

Status WriteTransaction::DropTable(const std::string& schema, const std::string& table,
                                   bool if_exists) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlDropTable(*state_, schema, table, if_exists);
}

Status WriteTransaction::RenameTable(const std::string& schema, const std::string& table,
                                     const std::string& new_name) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlRenameTable(*state_, schema, table, new_name);
}

Status WriteTransaction::AddColumn(const std::string& schema, const std::string& table,
                                   const ColumnDefinition& column) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlAddColumn(*state_, schema, table, column);
}

Status WriteTransaction::DropColumn(const std::string& schema, const std::string& table,
                                    const std::string& column) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlDropColumn(*state_, schema, table, column);
}

Status WriteTransaction::RenameColumn(const std::string& schema, const std::string& table,
                                      const std::string& column, const std::string& new_name) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlRenameColumn(*state_, schema, table, column, new_name);
}

Status WriteTransaction::AddField(const std::string& schema, const std::string& table,
                                  const std::vector<std::string>& parent_path,
                                  const ColumnDefinition& field, bool if_not_exists) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlAddField(*state_, schema, table, parent_path, field, if_not_exists);
}

Status WriteTransaction::DropField(const std::string& schema, const std::string& table,
                                   const std::vector<std::string>& path, bool if_exists) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlDropField(*state_, schema, table, path, if_exists);
}

Status WriteTransaction::RenameField(const std::string& schema, const std::string& table,
                                     const std::vector<std::string>& path,
                                     const std::string& new_name) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlRenameField(*state_, schema, table, path, new_name);
}

Status WriteTransaction::SetSortKey(const std::string& schema, const std::string& table,
                                    std::vector<SortField> fields) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlSetSortKey(*state_, schema, table, std::move(fields));
}

Result<WriteResult> WriteTransaction::RewriteInSortOrder(const std::string& schema,
                                                        const std::string& table) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::RewriteSortedRows(*state_, schema, table);
}

Status WriteTransaction::AlterColumnType(const std::string& schema, const std::string& table,
                                         const std::string& column, const DataType& new_type) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlAlterColumnType(*state_, schema, table, column, new_type);
}

Status WriteTransaction::SetColumnDefault(const std::string& schema, const std::string& table,
                                          const std::string& column,
                                          std::optional<Value> default_value) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlSetColumnDefault(*state_, schema, table, column,
                                             std::move(default_value));
}

Status WriteTransaction::SetColumnDefaultExpression(const std::string& schema,
                                                    const std::string& table,
                                                    const std::string& column,
                                                    const std::string& expression) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlSetColumnDefaultExpression(*state_, schema, table, column, expression);
}

Status WriteTransaction::SetColumnNotNull(const std::string& schema, const std::string& table,
                                          const std::string& column, bool not_null) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlSetColumnNotNull(*state_, schema, table, column, not_null);
}

Status WriteTransaction::SetPartitioning(const std::string& schema, const std::string& table,
                                         const std::vector<PartitionKeyDefinition>& keys) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlSetPartitioning(*state_, schema, table, keys);
}

Status WriteTransaction::CreateView(const std::string& schema, const std::string& view,
                                    const std::string& sql,
                                    const std::vector<std::string>& column_aliases,
                                    bool or_replace) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlCreateView(*state_, schema, view, sql, column_aliases, or_replace);
}

Status WriteTransaction::DropView(const std::string& schema, const std::string& view,
                                  bool if_exists) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlDropView(*state_, schema, view, if_exists);
}

Status WriteTransaction::RenameView(const std::string& schema, const std::string& view,
                                    const std::string& new_name, bool if_exists) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlRenameView(*state_, schema, view, new_name, if_exists);
}

Status WriteTransaction::SetComment(SetCommentChange::Target target, const std::string& schema,
                                    const std::string& name, const std::string& column,
                                    std::optional<std::string> comment) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlSetComment(*state_, target, schema, name, column,
                                       std::move(comment));
}

Status WriteTransaction::CreateMacro(const std::string& schema, const std::string& name,
                                     std::vector<MacroImpl> impls, bool or_replace,
                                     bool if_not_exists) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlCreateMacro(*state_, schema, name, std::move(impls), or_replace,
                                        if_not_exists);
}

Status WriteTransaction::DropMacro(const std::string& schema, const std::string& name,
                                   bool is_table, bool if_exists) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlDropMacro(*state_, schema, name, is_table, if_exists);
}

Status WriteTransaction::SetOption(const std::string& key, const std::string& value,
                                   const std::optional<std::string>& scope_schema,
                                   const std::optional<std::string>& scope_table) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DdlSetOption(*state_, key, value, scope_schema, scope_table);
}

Result<WriteResult> WriteTransaction::Insert(const std::string& schema, const std::string& table,
                                             BatchReader& rows) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  TARN_ASSIGN_OR_RETURN(auto info, state_->RequireTable(schema, table));
  return table_internal::InsertRowStream(*state_, *info, rows);
}

Result<WriteResult> WriteTransaction::Delete(const std::string& schema, const std::string& table,
                                             const std::optional<std::string>& predicate) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::DeleteRows(*state_, schema, table, predicate);
}

Result<WriteResult> WriteTransaction::Update(const std::string& schema, const std::string& table,
                                             const std::vector<UpdateAssignment>& assignments,
                                             const std::optional<std::string>& predicate) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::UpdateRows(*state_, schema, table, assignments, predicate);
}

Result<WriteResult> WriteTransaction::UpdateByRowId(const std::string& schema,
                                                    const std::string& table,
                                                    const Batch& changes) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::UpdateRowsById(*state_, schema, table, changes);
}

Result<WriteResult> WriteTransaction::AddDataFiles(const std::string& schema,
                                                   const std::string& table,
                                                   const std::vector<std::string>& paths,
                                                   const AddDataFilesOptions& options) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  TARN_ASSIGN_OR_RETURN(auto info, state_->RequireTable(schema, table));
  return table_internal::AddDataFiles(*state_, *info, paths, options);
}

void WriteTransaction::SetCommitInfo(std::optional<std::string> author,
                                     std::optional<std::string> message,
                                     std::optional<std::string> extra_info) {
  state_->commit_options.author = std::move(author);
  state_->commit_options.commit_message = std::move(message);
  state_->commit_options.commit_extra_info = std::move(extra_info);
}

Result<MaintenanceResult> WriteTransaction::FlushInlinedData(const MaintenanceOptions& options) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::RunMaintenanceInTransaction(
      *state_, table_internal::MaintenanceProcedure::kFlush, options);
}

Result<MaintenanceResult> WriteTransaction::MergeAdjacentFiles(
    const MaintenanceOptions& options) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::RunMaintenanceInTransaction(
      *state_, table_internal::MaintenanceProcedure::kMerge, options);
}

Result<MaintenanceResult> WriteTransaction::RewriteDataFiles(const MaintenanceOptions& options) {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  return table_internal::RunMaintenanceInTransaction(
      *state_, table_internal::MaintenanceProcedure::kRewrite, options);
}

namespace {

// Maintenance inside the transaction rewrote committed rows of a table as they were at the
// start snapshot; deletions of those rows by the same transaction would be lost.
Status CheckMaintenanceAgainstDeletes(const WriteState& state) {
  for (int64_t table_id : state.maintained_tables) {
    const table_internal::TableDml* dml = nullptr;
    for (const auto& entry : state.dml) {
      if (entry.table_id == table_id) dml = &entry;
    }
    if (dml == nullptr || (dml->file_deletes.empty() && dml->inlined_row_deletes.empty())) {
      continue;
    }
    auto table = state.FindTableById(table_id);
    return Status::Conflict("TransactionContext Error: Failed to commit: the transaction deleted "
                            "or updated rows of table ",
                            table ? table->schema_name + "." + table->name
                                  : std::to_string(table_id),
                            " that a flush or compaction in the same transaction rewrote");
  }
  return Status::OK();
}

}  // namespace

Result<CommitResult> WriteTransaction::Commit() {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  if (Status check = CheckMaintenanceAgainstDeletes(*state_); !check.ok()) {
    (void)Rollback();
    return check;
  }
  state_->built = table_internal::BuildChanges(*state_);
  state_->finished = true;
  if (state_->built.empty()) {
    CommitResult result;
    result.snapshot.snapshot_id = -1;
    return result;
  }
  auto committed = CommitLakeChanges(*state_->lake, state_->start_snapshot_id, state_->built,
                                     state_->commit_options);
  if (!committed.ok()) {
    for (const std::string& path : std::set<std::string>(state_->written_files)) {
      state_->DropWrittenFile(path);
    }
    return committed.status();
  }
  state_->written_files.clear();
  return committed;
}

Status WriteTransaction::Rollback() {
  TARN_RETURN_NOT_OK(CheckOpen(*state_));
  state_->finished = true;
  for (const std::string& path : std::set<std::string>(state_->written_files)) {
    state_->DropWrittenFile(path);
  }
  state_->dml.clear();
  state_->ddl.clear();
  state_->maintenance.clear();
  return Status::OK();
}

const LakeChanges& WriteTransaction::changes() const {
  if (!state_->finished) state_->built = table_internal::BuildChanges(*state_);
  return state_->built;
}

}  // namespace tarn
