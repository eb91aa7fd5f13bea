#include "table/write_dml.h"

#include <algorithm>

#include "expr/cast.h"
#include "table/column_conform.h"
#include "table/external_sort.h"
#include "table/file_reader.h"
#include "table/sort_rows.h"
#include "table/write_delete.h"
#include "table/write_files.h"
#include "table/write_match.h"
#include "table/write_rows.h"
#include "table/write_sink.h"
#include "tarn/expr.h"

namespace tarn::table_internal {

namespace {

bool Inlinable(const WriteSettings& settings, int64_t pending, int64_t more) {
  return settings.inlining_allowed && settings.inlining_row_limit > 0 &&
         pending + more <= settings.inlining_row_limit;
}

std::shared_ptr<Batch> WithRowIds(const TableInfo& table, const Batch& rows,
                                  const std::vector<int64_t>& row_ids) {
  ColumnBuilder ids(DataType(TypeId::kInt64));
  ids.Reserve(static_cast<int64_t>(row_ids.size()));
  for (int64_t id : row_ids) ids.AppendNumber<int64_t>(id);
  std::vector<std::shared_ptr<Column>> columns = rows.columns;
  columns.push_back(ids.Finish());
  auto out = MakeBatch(DataFileSchema(table, true), std::move(columns));
  out->num_rows = rows.num_rows;
  return out;
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

}  // namespace

Result<int64_t> InsertNewRows(WriteState& state, const TableInfo& table,
                              std::vector<std::shared_ptr<Batch>> rows) {
  TARN_RETURN_NOT_OK(NeedPath(table));
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
  TableDml& dml = state.Dml(table.table_id);
  if (Inlinable(settings, dml.plain_inlined.num_rows(), count)) {
    for (const auto& batch : rows) AppendRows(&dml.plain_inlined.rows, batch);
    return 0;
  }
  const bool joined_inlined = dml.plain_inlined.num_rows() > 0;
  if (joined_inlined) rows.insert(rows.begin(), dml.plain_inlined.rows);
  const bool sorted_already = settings.sort_on_insert && !joined_inlined;
  if (!key.empty() && !sorted_already &&
      (settings.sort_on_insert || settings.inlining_row_limit > 0)) {
    TARN_ASSIGN_OR_RETURN(auto sorted, SortRowsByKey(table, key, rows));
    rows = {std::move(sorted)};
  }
  TARN_ASSIGN_OR_RETURN(int64_t files, WriteNewFiles(state, table, settings, false, rows));
  state.Dml(table.table_id).plain_inlined = PendingInlinedRows();
  return files;
}

namespace {

// The settings of a streamed write of unknown size: a read-optimized one gets the row groups
// of its smallest size class (what any write of up to lanes x minimum rows gets), so the open
// row group stays small.
Result<WriteSettings> StreamingSettings(WriteState& state, const TableInfo& table) {
  const ReadOptimizedSettings read_optimized;
  return ResolveWriteSettings(state, table,
                              read_optimized.lanes * read_optimized.min_row_group_rows);
}

// InsertRowStream for a table whose key orders the rows written to files: the rows are held
// and sorted before they reach the sink. Up to state.sort_memory_limit bytes of input they
// are written as InsertNewRows writes (sorted, or inlined when few enough); past it they go
// through an ExternalSort (sorted runs spilled to temporary files, then merged), so the whole
// insert reaches the sink in key order and its files cover consecutive key ranges.
Result<WriteResult> InsertSortedRowStream(WriteState& state, const TableInfo& table,
                                          const WriteSettings& settings, BatchReader& rows) {
  WriteResult result;
  std::vector<std::shared_ptr<Batch>> held;
  int64_t held_bytes = 0;
  std::unique_ptr<ExternalSort> sort;  // once the rows pass the memory limit
  while (true) {
    TARN_ASSIGN_OR_RETURN(auto batch, rows.Next());
    if (!batch) break;
    if (batch->num_rows == 0) continue;
    TARN_ASSIGN_OR_RETURN(auto arranged, ArrangeRows(table, *batch));
    result.rows += arranged->num_rows;
    if (sort) {
      TARN_RETURN_NOT_OK(sort->Add(std::move(arranged)));
      continue;
    }
    held_bytes += BatchBytes(*arranged);
    held.push_back(std::move(arranged));
    if (held_bytes <= state.sort_memory_limit) continue;
    const TableDml* dml = state.FindDml(table.table_id);
    const int64_t pending = dml ? dml->plain_inlined.num_rows() : 0;
    if (Inlinable(settings, pending, result.rows)) continue;
    sort = std::make_unique<ExternalSort>(table, TableSortKey(table), DataFileSchema(table, false),
                                          state.sort_memory_limit);
    // The transaction's earlier inlined rows join the sort (as InsertNewRows joins them).
    if (pending > 0) TARN_RETURN_NOT_OK(sort->Add(dml->plain_inlined.rows));
    for (auto& rows_held : held) TARN_RETURN_NOT_OK(sort->Add(std::move(rows_held)));
    held.clear();
  }
  if (!sort) {
    TARN_ASSIGN_OR_RETURN(result.files_written, InsertNewRows(state, table, std::move(held)));
    if (result.files_written > 0) result.peak_held_bytes = held_bytes;
    return result;
  }
  TARN_ASSIGN_OR_RETURN(WriteSettings streaming, StreamingSettings(state, table));
  std::unique_ptr<RowSink> sink =
      MakeTableSink(state, table, streaming, DataFileSchema(table, false), false);
  Status merged = sort->Finish([&](const Batch& sorted) { return sink->Add(sorted); });
  if (!merged.ok()) {
    sink->Abandon();
    return merged;
  }
  TARN_ASSIGN_OR_RETURN(std::vector<PendingDataFile> files, sink->Finish());
  result.peak_held_bytes = sort->peak_held_bytes() + sink->peak_held_bytes();
  result.files_written = static_cast<int64_t>(files.size());
  TableDml& dml = state.Dml(table.table_id);
  for (PendingDataFile& file : files) dml.files.push_back(std::move(file));
  dml.plain_inlined = PendingInlinedRows();
  return result;
}

}  // namespace

Result<WriteResult> InsertRowStream(WriteState& state, const TableInfo& table,
                                    BatchReader& rows) {
  TARN_RETURN_NOT_OK(NeedPath(table));
  TARN_ASSIGN_OR_RETURN(WriteSettings settings, ResolveWriteSettings(state, table));
  // As InsertNewRows: the key orders the rows that go to files unless sort_on_insert is false
  // and inlining is disabled.
  if (!TableSortKey(table).empty() &&
      (settings.sort_on_insert || settings.inlining_row_limit > 0)) {
    return InsertSortedRowStream(state, table, settings, rows);
  }
  WriteResult result;
  // Rows wait here only while the transaction's new rows could still be inlined.
  std::vector<std::shared_ptr<Batch>> waiting;
  std::unique_ptr<RowSink> sink;
  while (true) {
    TARN_ASSIGN_OR_RETURN(auto batch, rows.Next());
    if (!batch) break;
    if (batch->num_rows == 0) continue;
    TARN_ASSIGN_OR_RETURN(auto arranged, ArrangeRows(table, *batch));
    result.rows += arranged->num_rows;
    if (sink) {
      TARN_RETURN_NOT_OK(sink->Add(*arranged));
      continue;
    }
    waiting.push_back(std::move(arranged));
    const TableDml* dml = state.FindDml(table.table_id);
    const int64_t pending = dml ? dml->plain_inlined.num_rows() : 0;
    if (Inlinable(settings, pending, result.rows)) continue;
    // Too many to inline: stream from here on.
    TARN_ASSIGN_OR_RETURN(WriteSettings streaming, StreamingSettings(state, table));
    sink = MakeTableSink(state, table, streaming, DataFileSchema(table, false), false);
    if (pending > 0) TARN_RETURN_NOT_OK(sink->Add(*dml->plain_inlined.rows));
    for (const auto& held : waiting) TARN_RETURN_NOT_OK(sink->Add(*held));
    waiting.clear();
  }
  if (!sink) {
    TARN_ASSIGN_OR_RETURN(result.files_written, InsertNewRows(state, table, std::move(waiting)));
    return result;
  }
  TARN_ASSIGN_OR_RETURN(auto files, sink->Finish());
  result.peak_held_bytes = sink->peak_held_bytes();
  result.files_written = static_cast<int64_t>(files.size());
  TableDml& dml = state.Dml(table.table_id);
  for (PendingDataFile& file : files) dml.files.push_back(std::move(file));
  dml.plain_inlined = PendingInlinedRows();
  return result;
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

Result<WriteResult> UpdateRows(WriteState& state, const std::string& schema,
                               const std::string& table_name,
                               const std::vector<UpdateAssignment>& assignments,
                               const std::optional<std::string>& predicate) {
  TARN_ASSIGN_OR_RETURN(auto table, state.RequireTable(schema, table_name));
  if (assignments.empty()) return Status::InvalidArgument("UPDATE without SET assignments");
  std::vector<int> targets;
  for (const UpdateAssignment& assignment : assignments) {
    int index = -1;
    for (size_t i = 0; i < table->columns.size(); ++i) {
      if (NameEquals(table->columns[i].name, assignment.column)) index = static_cast<int>(i);
    }
    if (index < 0) {
      return Status::NotFound("column \"", assignment.column, "\" not found in table \"",
                              table->schema_name, ".", table->name, "\"");
    }
    if (std::find(targets.begin(), targets.end(), index) != targets.end()) {
      return Status::InvalidArgument("column \"", assignment.column,
                                     "\" is assigned twice in the UPDATE");
    }
    targets.push_back(index);
  }
  TARN_ASSIGN_OR_RETURN(WriteSettings settings, ResolveWriteSettings(state, *table));
  TARN_ASSIGN_OR_RETURN(MatchedRows matched, FindMatches(state, table, predicate, true));
  WriteResult result;
  result.rows = matched.count;
  if (matched.count == 0) return result;

  // New values first: a failing expression or constraint leaves the transaction unchanged.
  std::vector<std::unique_ptr<BoundExpr>> bound;
  for (const UpdateAssignment& assignment : assignments) {
    TARN_ASSIGN_OR_RETURN(auto expr, ParseAndBind(assignment.expression,
                                                  *matched.internal_schema));
    bound.push_back(std::move(expr));
  }
  const int rowid_index = static_cast<int>(table->columns.size());
  auto rewrite = [&](const std::vector<std::shared_ptr<Batch>>& parts,
                     std::vector<int64_t>* row_ids) -> Result<std::shared_ptr<Batch>> {
    if (parts.empty()) return std::shared_ptr<Batch>();
    auto joined = ConcatenateBatches(parts);
    joined->schema = matched.internal_schema;
    std::vector<std::shared_ptr<Column>> columns(joined->columns.begin(),
                                                 joined->columns.begin() + rowid_index);
    for (size_t i = 0; i < bound.size(); ++i) {
      const ColumnInfo& column = table->columns[static_cast<size_t>(targets[i])];
      TARN_ASSIGN_OR_RETURN(auto value, bound[i]->Evaluate(*joined));
      auto cast = CastColumn(value, column.type);
      if (!cast.ok()) return cast.status().WithContext("UPDATE " + table->name + "." + column.name);
      columns[static_cast<size_t>(targets[i])] = std::move(cast).value();
    }
    auto rows = MakeBatch(DataFileSchema(*table, false), std::move(columns));
    rows->num_rows = joined->num_rows;
    TARN_RETURN_NOT_OK(CheckNotNull(*table, *rows));
    if (row_ids != nullptr) {
      const int64_t* ids = joined->column(rowid_index).values_as<int64_t>();
      row_ids->assign(ids, ids + joined->num_rows);
    }
    return rows;
  };
  std::vector<int64_t> final_ids;
  TARN_ASSIGN_OR_RETURN(auto final_rows, rewrite(matched.final_rows, &final_ids));
  TARN_ASSIGN_OR_RETURN(auto provisional_rows, rewrite(matched.provisional_rows, nullptr));

  TARN_ASSIGN_OR_RETURN(int64_t deleted_files, ApplyDeletes(state, *table, settings, matched));
  result.files_written += deleted_files;
  if (final_rows) {
    TARN_ASSIGN_OR_RETURN(int64_t files,
                          InsertRowsWithIds(state, *table, final_rows, std::move(final_ids)));
    result.files_written += files;
  }
  if (provisional_rows) {
    TARN_ASSIGN_OR_RETURN(int64_t files, InsertNewRows(state, *table, {provisional_rows}));
    result.files_written += files;
  }
  return result;
}

Result<WriteResult> RewriteSortedRows(WriteState& state, const std::string& schema,
                                      const std::string& table_name) {
  TARN_ASSIGN_OR_RETURN(auto table, state.RequireTable(schema, table_name));
  TARN_ASSIGN_OR_RETURN(WriteSettings settings, ResolveWriteSettings(state, *table));
  TARN_ASSIGN_OR_RETURN(MatchedRows matched, FindMatches(state, table, std::nullopt, true));
  WriteResult result;
  result.rows = matched.count;
  if (matched.count == 0) return result;
  const int rowid_index = static_cast<int>(table->columns.size());
  // The table's columns of the matched rows, and their rowids, in key order.
  auto sorted = [&](const std::vector<std::shared_ptr<Batch>>& parts,
                    std::vector<int64_t>* row_ids) -> Result<std::shared_ptr<Batch>> {
    if (parts.empty()) return std::shared_ptr<Batch>();
    auto joined = ConcatenateBatches(parts);
    joined->schema = matched.internal_schema;
    std::vector<std::shared_ptr<Column>> columns(joined->columns.begin(),
                                                 joined->columns.begin() + rowid_index);
    auto rows = MakeBatch(DataFileSchema(*table, false), std::move(columns));
    rows->num_rows = joined->num_rows;
    TARN_ASSIGN_OR_RETURN(std::vector<int64_t> order,
                          SortKeyOrder(*table, TableSortKey(*table), *rows));
    std::vector<std::shared_ptr<Column>> ordered;
    for (const auto& column : rows->columns) ordered.push_back(Take(*column, order));
    auto out = MakeBatch(rows->schema, std::move(ordered));
    out->num_rows = rows->num_rows;
    if (row_ids != nullptr) {
      const int64_t* ids = joined->column(rowid_index).values_as<int64_t>();
      row_ids->clear();
      for (int64_t i : order) row_ids->push_back(ids[i]);
    }
    return out;
  };
  std::vector<int64_t> final_ids;
  TARN_ASSIGN_OR_RETURN(auto final_rows, sorted(matched.final_rows, &final_ids));
  TARN_ASSIGN_OR_RETURN(auto provisional_rows, sorted(matched.provisional_rows, nullptr));
  TARN_ASSIGN_OR_RETURN(int64_t deleted_files, ApplyDeletes(state, *table, settings, matched));
  result.files_written += deleted_files;
  if (final_rows) {
    TARN_ASSIGN_OR_RETURN(int64_t files,
                          InsertRowsWithIds(state, *table, final_rows, std::move(final_ids)));
    result.files_written += files;
  }
  if (provisional_rows) {
    TARN_ASSIGN_OR_RETURN(int64_t files, InsertNewRows(state, *table, {provisional_rows}));
    result.files_written += files;
  }
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
