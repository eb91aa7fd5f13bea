#include "table/write_dml.h"

#include <algorithm>
#include <functional>
#include <unordered_map>

#include "expr/eval/cast.h"
#include "table/column_conform.h"
#include "table/external_sort.h"
#include "table/file_reader.h"
#include "table/sort_rows.h"
#include "table/write_delete.h"
#include "table/write_files.h"
#include "table/write_match.h"
#include "table/write_rows.h"
#include "table/write_sink.h"
#include "table/write_stream.h"
#include "tarn/expr.h"

namespace tarn::table_internal {

namespace {

bool Inlinable(const WriteSettings& settings, int64_t pending, int64_t more) {
  return settings.inlining_allowed && settings.inlining_row_limit > 0 &&
         pending + more <= settings.inlining_row_limit;
}

Result<int64_t> WriteNewFiles(WriteState& state, const TableInfo& table,
                              const WriteSettings& settings, bool with_row_ids,
                              const std::vector<std::shared_ptr<Batch>>& batches) {
  TARN_ASSIGN_OR_RETURN(auto files,
                        WriteDataFiles(state, table, settings, DataFileSchema(table, with_row_ids),
                                       with_row_ids, batches));
  TableDml& dml = state.Dml(table.table_id);
  const int64_t count = static_cast<int64_t>(files.size());
  for (PendingDataFile& file : files) dml.files.push_back(std::move(file));
  return count;
}

Status NeedPath(const TableInfo& table) {
  if (table.path.empty()) {
    return Status::NotSupported("table \"", table.name, "\" was created in this transaction ",
                                "with a name that needs a uuid directory; commit the table ",
                                "before writing to it");
  }
  return Status::OK();
}

// An insert makes its table's folder even when its rows are inlined, as the extension's does
// (it prepares the file write before it knows where the rows go).
Status PrepareInsert(WriteState& state, const TableInfo& table) {
  TARN_RETURN_NOT_OK(NeedPath(table));
  return state.EnsureDirectory(table.path);
}

}  // namespace

Result<int64_t> InsertNewRows(WriteState& state, const TableInfo& table,
                              std::vector<std::shared_ptr<Batch>> rows) {
  TARN_RETURN_NOT_OK(PrepareInsert(state, table));
  int64_t count = 0;
  for (const auto& batch : rows) count += batch->num_rows;
  TARN_ASSIGN_OR_RETURN(WriteSettings settings, ResolveWriteSettings(state, table, count));
  if (count == 0) return 0;
  // The extension sorts an insert by the table's key unless sort_on_insert is false; then only
  // rows that go to Parquet files are sorted, and only when inlining is enabled (its sort sits
  // after the inlining step).
  const std::vector<SortField> no_key;
  const std::vector<SortField>& key = table.sorting ? table.sorting->fields : no_key;
  if (!key.empty() && settings.sort_on_insert) {
    TARN_ASSIGN_OR_RETURN(auto sorted, SortRowsByKey(table, key, rows));
    rows = {std::move(sorted)};
  }
  // Each statement decides for its own rows, as the extension's does: rows of the
  // transaction's earlier statements stay inlined whatever this one writes.
  TableDml& dml = state.Dml(table.table_id);
  if (Inlinable(settings, 0, count)) {
    for (const auto& batch : rows) AppendRows(&dml.plain_inlined.rows, batch);
    return 0;
  }
  if (!key.empty() && !settings.sort_on_insert && settings.inlining_row_limit > 0) {
    TARN_ASSIGN_OR_RETURN(auto sorted, SortRowsByKey(table, key, rows));
    rows = {std::move(sorted)};
  }
  return WriteNewFiles(state, table, settings, false, rows);
}

Result<WriteResult> InsertRowStream(WriteState& state, const TableInfo& table,
                                    BatchReader& rows) {
  TARN_RETURN_NOT_OK(PrepareInsert(state, table));
  RowStreamWriter writer(state, table, RowStreamWriter::Kind::kNewRows,
                         RowStreamWriter::Order::kAsInserted);
  TARN_RETURN_NOT_OK(writer.Init());
  while (true) {
    TARN_ASSIGN_OR_RETURN(auto batch, rows.Next());
    if (!batch) break;
    if (batch->num_rows == 0) continue;
    TARN_ASSIGN_OR_RETURN(auto arranged, ArrangeRows(table, *batch));
    TARN_RETURN_NOT_OK(writer.Add(std::move(arranged)));
  }
  return writer.Finish();
}

Result<int64_t> InsertRowsWithIds(WriteState& state, const TableInfo& table,
                                  std::shared_ptr<Batch> rows, std::vector<int64_t> row_ids) {
  if (rows->num_rows == 0) return 0;
  TARN_RETURN_NOT_OK(NeedPath(table));
  TARN_ASSIGN_OR_RETURN(WriteSettings settings, ResolveWriteSettings(state, table));
  TableDml& dml = state.Dml(table.table_id);
  PendingInlinedRows& pending = dml.rowid_inlined;
  if (Inlinable(settings, pending.num_rows(), rows->num_rows)) {
    AppendRows(&pending.rows, rows);
    pending.row_ids.insert(pending.row_ids.end(), row_ids.begin(), row_ids.end());
    return 0;
  }
  std::vector<std::shared_ptr<Batch>> batches;
  if (pending.num_rows() > 0) batches.push_back(WithRowIds(table, *pending.rows, pending.row_ids));
  batches.push_back(WithRowIds(table, *rows, row_ids));
  TARN_ASSIGN_OR_RETURN(int64_t files, WriteNewFiles(state, table, settings, true, batches));
  state.Dml(table.table_id).rowid_inlined = PendingInlinedRows();
  return files;
}

Status FlushPendingInlined(WriteState& state, const TableInfo& table) {
  TableDml* dml = state.FindDml(table.table_id);
  if (dml == nullptr) return Status::OK();
  if (dml->plain_inlined.num_rows() == 0 && dml->rowid_inlined.num_rows() == 0) {
    return Status::OK();
  }
  TARN_RETURN_NOT_OK(NeedPath(table));
  TARN_ASSIGN_OR_RETURN(WriteSettings settings, ResolveWriteSettings(state, table));
  if (dml->plain_inlined.num_rows() > 0) {
    std::vector<std::shared_ptr<Batch>> batches{dml->plain_inlined.rows};
    TARN_RETURN_NOT_OK(WriteNewFiles(state, table, settings, false, batches));
    state.Dml(table.table_id).plain_inlined = PendingInlinedRows();
  }
  dml = state.FindDml(table.table_id);
  if (dml->rowid_inlined.num_rows() > 0) {
    std::vector<std::shared_ptr<Batch>> batches{
        WithRowIds(table, *dml->rowid_inlined.rows, dml->rowid_inlined.row_ids)};
    TARN_RETURN_NOT_OK(WriteNewFiles(state, table, settings, true, batches));
    state.Dml(table.table_id).rowid_inlined = PendingInlinedRows();
  }
  return Status::OK();
}

void DiscardDml(WriteState& state, int64_t table_id) {
  for (auto it = state.dml.begin(); it != state.dml.end(); ++it) {
    if (it->table_id != table_id) continue;
    for (const PendingDataFile& file : it->files) state.DropWrittenFile(file.absolute_path);
    for (const auto& [id, deletes] : it->file_deletes) {
      if (deletes.delete_file.has_value()) state.DropWrittenFile(deletes.delete_file_absolute_path);
    }
    state.dml.erase(it);
    return;
  }
}

Result<WriteResult> DeleteRows(WriteState& state, const std::string& schema,
                               const std::string& table_name,
                               const std::optional<std::string>& predicate) {
  TARN_ASSIGN_OR_RETURN(auto table, state.RequireTable(schema, table_name));
  TARN_ASSIGN_OR_RETURN(WriteSettings settings, ResolveWriteSettings(state, *table));
  TARN_ASSIGN_OR_RETURN(MatchedRows matched, FindMatches(state, table, predicate, false));
  WriteResult result;
  result.rows = matched.count;
  TARN_ASSIGN_OR_RETURN(result.files_written, ApplyDeletes(state, *table, settings, matched));
  return result;
}

namespace {

// The new values of the assigned columns (`targets`, in order) for rows in FindMatches'
// internal layout.
using AssignedValues =
    std::function<Result<std::vector<std::shared_ptr<Column>>>(const Batch& matched_rows)>;

// Index of each assigned column in the table; NotFound for an unknown one, InvalidArgument for
// one assigned twice.
Result<std::vector<int>> AssignedColumns(const TableInfo& table,
                                         const std::vector<std::string>& names) {
  std::vector<int> targets;
  for (const std::string& name : names) {
    int index = -1;
    for (size_t i = 0; i < table.columns.size(); ++i) {
      if (NameEquals(table.columns[i].name, name)) index = static_cast<int>(i);
    }
    if (index < 0) {
      return Status::NotFound("column \"", name, "\" not found in table \"",
                              table.schema_name, ".", table.name, "\"");
    }
    if (std::find(targets.begin(), targets.end(), index) != targets.end()) {
      return Status::InvalidArgument("column \"", name, "\" is assigned twice in the UPDATE");
    }
    targets.push_back(index);
  }
  return targets;
}

// Replaces the rows `predicate` matches by their versions with the `targets` columns set to
// what `assigned` computes.
Result<WriteResult> UpdateMatches(WriteState& state, std::shared_ptr<const TableInfo> table,
                                  const std::vector<int>& targets,
                                  const std::optional<std::string>& predicate,
                                  const AssignedValues& assigned) {
  TARN_ASSIGN_OR_RETURN(WriteSettings settings, ResolveWriteSettings(state, *table));
  TARN_RETURN_NOT_OK(NeedPath(*table));
  // The new values are computed batch by batch as the scan finds the rows, and streamed to new
  // files (or held while they could be inlined); the old versions are deleted after the scan.
  // A failing expression or constraint leaves the transaction unchanged: the writers delete
  // what they wrote.
  const int rowid_index = static_cast<int>(table->columns.size());
  // The updated rows in the table's layout, with the rowid column when `with_ids`.
  auto updated = [&](const Batch& matched_rows, bool with_ids) -> Result<std::shared_ptr<Batch>> {
    std::vector<std::shared_ptr<Column>> columns(matched_rows.columns.begin(),
                                                 matched_rows.columns.begin() + rowid_index);
    TARN_ASSIGN_OR_RETURN(std::vector<std::shared_ptr<Column>> values, assigned(matched_rows));
    for (size_t i = 0; i < targets.size(); ++i) {
      const ColumnInfo& column = table->columns[static_cast<size_t>(targets[i])];
      auto cast = CastColumn(values[i], column.type);
      if (!cast.ok()) return cast.status().WithContext("UPDATE " + table->name + "." + column.name);
      columns[static_cast<size_t>(targets[i])] = std::move(cast).value();
    }
    auto rows = MakeBatch(DataFileSchema(*table, false), std::move(columns));
    rows->num_rows = matched_rows.num_rows;
    TARN_RETURN_NOT_OK(CheckNotNull(*table, *rows));
    if (!with_ids) return rows;
    auto with = MakeBatch(DataFileSchema(*table, true), rows->columns);
    with->columns.push_back(matched_rows.columns[static_cast<size_t>(rowid_index)]);
    with->num_rows = rows->num_rows;
    return with;
  };
  std::vector<int64_t> excluded_plain;
  std::vector<int64_t> excluded_rowid;
  // Rows with final rowids keep them; rows this transaction inserted are new rows again.
  RowStreamWriter kept(state, *table, RowStreamWriter::Kind::kKeptRowIds,
                       RowStreamWriter::Order::kUnsorted, &excluded_rowid);
  RowStreamWriter fresh(state, *table, RowStreamWriter::Kind::kNewRows,
                        RowStreamWriter::Order::kAsInserted, &excluded_plain);
  TARN_RETURN_NOT_OK(kept.Init());
  TARN_RETURN_NOT_OK(fresh.Init());
  auto on_rows = [&](std::shared_ptr<Batch> rows, bool final_rowid,
                     const MatchedRows& so_far) -> Status {
    excluded_plain = so_far.pending_plain;
    excluded_rowid = so_far.pending_rowid;
    rows->schema = so_far.internal_schema;
    TARN_ASSIGN_OR_RETURN(auto out, updated(*rows, final_rowid));
    return (final_rowid ? kept : fresh).Add(std::move(out));
  };
  TARN_ASSIGN_OR_RETURN(MatchedRows matched, FindMatches(state, table, predicate, true, on_rows));
  WriteResult result;
  result.rows = matched.count;
  if (matched.count == 0) return result;
  TARN_ASSIGN_OR_RETURN(int64_t deleted_files, ApplyDeletes(state, *table, settings, matched));
  result.files_written += deleted_files;
  // The old versions of the transaction's own inlined rows are gone now.
  excluded_plain.clear();
  excluded_rowid.clear();
  TARN_ASSIGN_OR_RETURN(WriteResult kept_result, kept.Finish());
  TARN_ASSIGN_OR_RETURN(WriteResult fresh_result, fresh.Finish());
  result.files_written += kept_result.files_written + fresh_result.files_written;
  result.peak_held_bytes = kept_result.peak_held_bytes + fresh_result.peak_held_bytes;
  return result;
}

}  // namespace

Result<WriteResult> UpdateRows(WriteState& state, const std::string& schema,
                               const std::string& table_name,
                               const std::vector<UpdateAssignment>& assignments,
                               const std::optional<std::string>& predicate) {
  TARN_ASSIGN_OR_RETURN(auto table, state.RequireTable(schema, table_name));
  if (assignments.empty()) return Status::InvalidArgument("UPDATE without SET assignments");
  std::vector<std::string> names;
  for (const UpdateAssignment& assignment : assignments) names.push_back(assignment.column);
  TARN_ASSIGN_OR_RETURN(std::vector<int> targets, AssignedColumns(*table, names));
  TARN_ASSIGN_OR_RETURN(std::shared_ptr<const Schema> internal_schema,
                        MatchSchema(*table, predicate));
  std::vector<std::unique_ptr<BoundExpr>> bound;
  for (const UpdateAssignment& assignment : assignments) {
    TARN_ASSIGN_OR_RETURN(auto expr, ParseAndBind(assignment.expression, *internal_schema));
    bound.push_back(std::move(expr));
  }
  auto assigned = [&](const Batch& matched_rows) -> Result<std::vector<std::shared_ptr<Column>>> {
    std::vector<std::shared_ptr<Column>> values;
    for (const auto& expr : bound) {
      TARN_ASSIGN_OR_RETURN(auto value, expr->Evaluate(matched_rows));
      values.push_back(std::move(value));
    }
    return values;
  };
  return UpdateMatches(state, table, targets, predicate, assigned);
}

Result<WriteResult> UpdateRowsById(WriteState& state, const std::string& schema,
                                   const std::string& table_name, const Batch& changes) {
  TARN_ASSIGN_OR_RETURN(auto table, state.RequireTable(schema, table_name));
  if (changes.num_columns() < 2 || changes.schema->field(0).name != kRowIdColumnName ||
      changes.column(0).type.id != TypeId::kInt64) {
    return Status::InvalidArgument("UPDATE by rowid needs a BIGINT rowid column first and the "
                                   "assigned columns after it");
  }
  std::vector<std::string> names;
  for (int c = 1; c < changes.num_columns(); ++c) names.push_back(changes.schema->field(c).name);
  TARN_ASSIGN_OR_RETURN(std::vector<int> targets, AssignedColumns(*table, names));
  // Each id's row in `changes`; the ids pin the scan to the rows they place.
  std::unordered_map<int64_t, int64_t> row_of;
  std::string predicate = std::string(kRowIdColumnName) + " IN (";
  for (int64_t row = 0; row < changes.num_rows; ++row) {
    Value id = changes.column(0).GetValue(row);
    if (id.is_null()) return Status::InvalidArgument("UPDATE by rowid: a NULL rowid");
    if (!row_of.emplace(id.GetInt64(), row).second) {
      return Status::InvalidArgument("UPDATE by rowid: rowid ", id.GetInt64(), " given twice");
    }
    predicate += (row ? ", " : "") + std::to_string(id.GetInt64());
  }
  predicate += ")";
  WriteResult none;
  if (changes.num_rows == 0) return none;
  const int rowid_index = static_cast<int>(table->columns.size());
  auto assigned = [&](const Batch& matched_rows) -> Result<std::vector<std::shared_ptr<Column>>> {
    std::vector<int64_t> rows;
    rows.reserve(static_cast<size_t>(matched_rows.num_rows));
    const Column& ids = matched_rows.column(rowid_index);
    for (int64_t row = 0; row < matched_rows.num_rows; ++row) {
      auto found = row_of.find(ids.GetValue(row).GetInt64());
      if (found == row_of.end()) return Status::Internal("UPDATE by rowid matched another row");
      rows.push_back(found->second);
    }
    std::vector<std::shared_ptr<Column>> values;
    for (int c = 1; c < changes.num_columns(); ++c) values.push_back(Take(changes.column(c), rows));
    return values;
  };
  return UpdateMatches(state, table, targets, predicate, assigned);
}

Result<WriteResult> RewriteSortedRows(WriteState& state, const std::string& schema,
                                      const std::string& table_name) {
  TARN_ASSIGN_OR_RETURN(auto table, state.RequireTable(schema, table_name));
  TARN_ASSIGN_OR_RETURN(WriteSettings settings, ResolveWriteSettings(state, *table));
  TARN_RETURN_NOT_OK(NeedPath(*table));
  const int rowid_index = static_cast<int>(table->columns.size());
  std::vector<int64_t> excluded_plain;
  std::vector<int64_t> excluded_rowid;
  // Every row in key order (through an external sort when the rows pass the sort memory
  // limit): rows with final rowids keep them, the transaction's own are new rows again.
  RowStreamWriter kept(state, *table, RowStreamWriter::Kind::kKeptRowIds,
                       RowStreamWriter::Order::kKeyOrder, &excluded_rowid);
  RowStreamWriter fresh(state, *table, RowStreamWriter::Kind::kNewRows,
                        RowStreamWriter::Order::kKeyOrder, &excluded_plain);
  TARN_RETURN_NOT_OK(kept.Init());
  TARN_RETURN_NOT_OK(fresh.Init());
  auto on_rows = [&](std::shared_ptr<Batch> rows, bool final_rowid,
                     const MatchedRows& so_far) -> Status {
    excluded_plain = so_far.pending_plain;
    excluded_rowid = so_far.pending_rowid;
    const int width = final_rowid ? rowid_index + 1 : rowid_index;
    std::vector<std::shared_ptr<Column>> columns(rows->columns.begin(),
                                                 rows->columns.begin() + width);
    auto out = MakeBatch(DataFileSchema(*table, final_rowid), std::move(columns));
    out->num_rows = rows->num_rows;
    return (final_rowid ? kept : fresh).Add(std::move(out));
  };
  TARN_ASSIGN_OR_RETURN(MatchedRows matched,
                        FindMatches(state, table, std::nullopt, true, on_rows));
  WriteResult result;
  result.rows = matched.count;
  if (matched.count == 0) return result;
  TARN_ASSIGN_OR_RETURN(int64_t deleted_files, ApplyDeletes(state, *table, settings, matched));
  result.files_written += deleted_files;
  excluded_plain.clear();
  excluded_rowid.clear();
  TARN_ASSIGN_OR_RETURN(WriteResult kept_result, kept.Finish());
  TARN_ASSIGN_OR_RETURN(WriteResult fresh_result, fresh.Finish());
  result.files_written += kept_result.files_written + fresh_result.files_written;
  result.peak_held_bytes = kept_result.peak_held_bytes + fresh_result.peak_held_bytes;
  return result;
}

LakeChanges BuildChanges(const WriteState& state) {
  LakeChanges out;
  while (state.last_provisional_id < 0 && out.NewProvisionalId() > state.last_provisional_id) {
  }
  for (const LakeChange& change : state.ddl) out.Add(change);
  for (const LakeChange& change : state.maintenance) out.Add(change);
  for (const TableDml& dml : state.dml) {
    if (!dml.inlined_row_deletes.empty()) {
      out.Add(InlinedRowDeletes{dml.table_id, std::vector<int64_t>(dml.inlined_row_deletes.begin(),
                                                                  dml.inlined_row_deletes.end())});
    }
    for (const auto& [file_id, deletes] : dml.file_deletes) {
      if (deletes.ended) {
        out.Add(EndDataFile{dml.table_id, file_id});
      } else if (deletes.delete_file.has_value()) {
        out.Add(*deletes.delete_file);
      } else if (!deletes.positions.empty()) {
        out.Add(InlinedFileDeletes{dml.table_id, file_id, deletes.positions});
      }
    }
    // Statistics of columns dropped later in the transaction describe nothing the table has.
    auto table = state.FindTableById(dml.table_id);
    for (const PendingDataFile& file : dml.files) {
      NewDataFile change = file.change;
      if (table) {
        std::erase_if(change.column_stats, [&](const NewFileColumnStats& stats) {
          return table->FindColumn(stats.column_id) == nullptr;
        });
        // Bounds of a column promoted later in the transaction, in its current type.
        for (NewFileColumnStats& stats : change.column_stats) {
          const DataType& type = table->FindColumn(stats.column_id)->type;
          for (std::optional<Value>* bound : {&stats.min, &stats.max}) {
            if (!bound->has_value() || (*bound)->type() == type) continue;
            auto cast = expr::CastValue(**bound, type, /*try_cast=*/true);
            if (cast.ok() && !cast->is_null()) {
              *bound = *cast;
            } else {
              bound->reset();
            }
          }
        }
      }
      out.Add(std::move(change));
    }
    if (dml.plain_inlined.num_rows() > 0) {
      out.Add(InlinedInsert{dml.table_id, dml.plain_inlined.rows, std::nullopt});
    }
    if (dml.rowid_inlined.num_rows() > 0) {
      out.Add(InlinedInsert{dml.table_id, dml.rowid_inlined.rows, dml.rowid_inlined.row_ids});
    }
  }
  return out;
}

}  // namespace tarn::table_internal
