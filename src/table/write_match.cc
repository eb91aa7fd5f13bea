#include "table/write_match.h"

#include <algorithm>

#include "table/file_pruning.h"
#include "table/file_reader.h"
#include "table/inlined_rows.h"
#include "table/rowid_lookup.h"
#include "table/scan_columns.h"
#include "table/write_overlay.h"
#include "tarn/expr.h"

namespace tarn::table_internal {

namespace {

bool ContainsFloat(const DataType& type) {
  if (type.IsFloating()) return true;
  for (const Field& child : type.children) {
    if (ContainsFloat(child.type)) return true;
  }
  return false;
}

// The rows of `batch` where the filter is TRUE, as indexes.
Result<std::vector<int64_t>> Select(const ScanColumns& plan, const Batch& batch) {
  std::vector<int64_t> rows;
  if (!plan.filter) {
    rows.resize(static_cast<size_t>(batch.num_rows));
    for (int64_t row = 0; row < batch.num_rows; ++row) rows[static_cast<size_t>(row)] = row;
    return rows;
  }
  int64_t count = 0;
  TARN_ASSIGN_OR_RETURN(auto bits, SelectRows(batch, *plan.filter, &count));
  rows.reserve(static_cast<size_t>(count));
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    if (GetBit(bits.data(), row)) rows.push_back(row);
  }
  return rows;
}

std::shared_ptr<Batch> TakeRows(const Batch& batch, const std::vector<int64_t>& rows) {
  std::vector<std::shared_ptr<Column>> columns;
  for (const auto& column : batch.columns) columns.push_back(Take(*column, rows));
  auto out = MakeBatch(batch.schema, std::move(columns));
  out->num_rows = static_cast<int64_t>(rows.size());
  return out;
}

// Whether every column the predicate reads has the table's name in this file.
Result<bool> NamesMatch(const std::shared_ptr<FileSystem>& fs, const DataFileInfo& file,
                        const std::vector<const ColumnInfo*>& columns) {
  if (file.mapping_id.has_value()) return false;
  TARN_ASSIGN_OR_RETURN(auto reader, ParquetReader::Open(fs, file.path));
  const Schema& schema = reader->schema();
  for (const ColumnInfo* column : columns) {
    for (const Field& field : schema.fields) {
      if (field.field_id.has_value() && *field.field_id == column->column_id &&
          field.name != column->name) {
        return false;
      }
    }
  }
  return true;
}

}  // namespace

Result<std::shared_ptr<const Schema>> MatchSchema(const TableInfo& table,
                                                  const std::optional<std::string>& predicate) {
  TableScanOptions options;
  options.filter = predicate;
  TARN_ASSIGN_OR_RETURN(ScanColumns plan, ScanColumns::Make(table, options));
  return plan.internal_schema;
}

Result<MatchedRows> FindMatches(WriteState& state, std::shared_ptr<const TableInfo> table,
                                const std::optional<std::string>& predicate, bool want_rows,
                                const MatchedRowsConsumer& on_rows) {
  TARN_ASSIGN_OR_RETURN(auto view, OverlayTable(state, table));
  TableScanOptions options;
  options.filter = predicate;
  if (!want_rows) options.columns.push_back(table->columns.front().name);
  TARN_ASSIGN_OR_RETURN(ScanColumns plan, ScanColumns::Make(*table, options));
  MatchedRows matched;
  matched.internal_schema = plan.internal_schema;
  const int rowid_index = static_cast<int>(plan.needed.size());
  const int position_index = rowid_index + 2;

  // Pushdown only where it is exact.
  std::shared_ptr<const StatisticsPredicate> pushdown = plan.pruning_predicate;
  std::vector<const ColumnInfo*> predicate_columns;
  if (pushdown) {
    for (const std::string& name : pushdown->referenced_columns()) {
      const int index = plan.full_schema->FindField(name);
      if (index < 0 || index >= static_cast<int>(table->columns.size())) continue;
      const ColumnInfo& column = table->columns[static_cast<size_t>(index)];
      if (ContainsFloat(column.type)) pushdown.reset();
      predicate_columns.push_back(&column);
      if (!pushdown) break;
    }
  }
  std::unique_ptr<FilePruner> pruner;
  if (pushdown) pruner = std::make_unique<FilePruner>(pushdown, plan.full_schema, view);

  auto add_rows = [&](const Batch& batch, const std::vector<int64_t>& rows,
                      bool final_rowid) -> Status {
    if (!want_rows || rows.empty()) return Status::OK();
    std::shared_ptr<Batch> taken = TakeRows(batch, rows);
    if (on_rows) return on_rows(std::move(taken), final_rowid, matched);
    (final_rowid ? matched.final_rows : matched.provisional_rows).push_back(std::move(taken));
    return Status::OK();
  };

  // The transaction's own inlined rows are matched first (so a consumer knows which of them
  // the statement replaces) and handed on last: plain first, then rowid-preserving
  // (OverlayTable's order).
  std::vector<std::pair<std::shared_ptr<Batch>, bool>> pending_matches;
  if (const TableDml* dml = state.FindDml(table->table_id)) {
    size_t next_pending = 0;
    for (int kind = 0; kind < 2; ++kind) {
      const PendingInlinedRows& source = kind == 0 ? dml->plain_inlined : dml->rowid_inlined;
      if (source.num_rows() == 0) continue;
      const auto& rows = view->pending_inlined_rows[next_pending++];
      TARN_ASSIGN_OR_RETURN(auto internal,
                            InlinedToInternal(*rows, plan.needed, plan.internal_schema));
      TARN_ASSIGN_OR_RETURN(auto selected, Select(plan, *internal));
      (kind == 0 ? matched.pending_plain : matched.pending_rowid) = selected;
      matched.count += static_cast<int64_t>(selected.size());
      if (want_rows && !selected.empty()) {
        pending_matches.emplace_back(TakeRows(*internal, selected), kind == 1);
      }
    }
  }

  // A predicate pinning rowid (`WHERE rowid = c`, `rowid IN (...)`): committed files are read
  // at their placed positions only, and files holding none of the ids are skipped.
  std::optional<std::map<int64_t, std::vector<int64_t>>> placed;
  const int pseudo_rowid = static_cast<int>(table->columns.size());
  if (plan.full_filter && plan.full_schema->FindField(kRowIdColumnName) == pseudo_rowid) {
    if (auto ids = PinnedRowIds(*plan.full_filter, pseudo_rowid)) {
      TARN_ASSIGN_OR_RETURN(placed, PlaceRowIds(*state.lake, state.fs, *view, *ids));
    }
  }

  for (const DataFileInfo& file : view->data_files) state.watch.Plan(file.record_count);
  for (const DataFileInfo& file : view->data_files) {
    const bool pending = file.data_file_id < 0;
    FileReadOptions read;
    read.snapshot_id = view->snapshot_id;
    read.predicate_schema = plan.full_schema;
    read.filter = plan.filter;
    if (placed && !pending) {
      auto it = placed->find(file.data_file_id);
      if (it == placed->end()) {
        ++matched.files_pruned;
        continue;
      }
      read.positions = it->second;
    }
    if (pushdown) {
      if (!pending && pruner->Check(file) != FilePruner::Decision::kRead) {
        ++matched.files_pruned;
        continue;
      }
      TARN_ASSIGN_OR_RETURN(bool names_match, NamesMatch(state.fs, file, predicate_columns));
      if (names_match) {
        read.predicate = pushdown;
        ++matched.files_pushed_down;
      }
    }
    ++matched.files_read;
    TARN_ASSIGN_OR_RETURN(auto reader,
                          DataFileReader::Open(state.fs, file, *table, view->name_mappings,
                                               plan.needed, plan.internal_schema, read));
    // Rows of a pending file have final rowids only when the file embeds them.
    bool final_rowid = !pending;
    if (pending) {
      if (const TableDml* dml = state.FindDml(table->table_id)) {
        for (const PendingDataFile& entry : dml->files) {
          if (entry.change.provisional_id == file.data_file_id) {
            final_rowid = entry.change.embeds_row_ids;
          }
        }
      }
    }
    // While the matches are positions 0, 1, 2, ... only their count is kept; the list is
    // built once another position breaks the run.
    std::vector<int64_t> positions;
    int64_t run = 0;
    bool in_run = true;
    while (true) {
      TARN_ASSIGN_OR_RETURN(auto batch, reader->Next());
      if (!batch) break;
      TARN_RETURN_NOT_OK(state.watch.Done(batch->num_rows));
      TARN_ASSIGN_OR_RETURN(auto rows, Select(plan, *batch));
      const int64_t* pos = batch->column(position_index).values_as<int64_t>();
      for (int64_t row : rows) {
        if (in_run && pos[row] == run) {
          ++run;
          continue;
        }
        if (in_run) {
          in_run = false;
          positions.reserve(static_cast<size_t>(run) + rows.size());
          for (int64_t p = 0; p < run; ++p) positions.push_back(p);
        }
        positions.push_back(pos[row]);
      }
      TARN_RETURN_NOT_OK(add_rows(*batch, rows, final_rowid));
    }
    auto& files = pending ? matched.pending_files : matched.committed_files;
    if (in_run) {
      if (run == 0) continue;
      matched.count += run;
      if (run == file.record_count && !file.delete_file.has_value()) {
        files[file.data_file_id];  // every row: no list
        matched.whole_files[file.data_file_id] = run;
        continue;
      }
      positions.reserve(static_cast<size_t>(run));
      for (int64_t p = 0; p < run; ++p) positions.push_back(p);
      files[file.data_file_id] = std::move(positions);
      continue;
    }
    std::sort(positions.begin(), positions.end());
    matched.count += static_cast<int64_t>(positions.size());
    files[file.data_file_id] = std::move(positions);
  }

  // Committed inlined rows (minus those this transaction deleted).
  for (const InlinedDataTable& inlined : table->inlined_tables) {
    TARN_ASSIGN_OR_RETURN(auto rows, state.lake->ReadInlinedRows(*view, inlined,
                                                                 InlinedRowSelection::kVisible));
    if (rows->num_rows == 0) continue;
    TARN_ASSIGN_OR_RETURN(auto internal,
                          InlinedToInternal(*rows, plan.needed, plan.internal_schema));
    TARN_ASSIGN_OR_RETURN(auto selected, Select(plan, *internal));
    std::vector<int64_t> kept;
    const int64_t* ids = internal->column(rowid_index).values_as<int64_t>();
    for (int64_t row : selected) {
      if (std::binary_search(view->pending_inlined_row_deletes.begin(),
                             view->pending_inlined_row_deletes.end(), ids[row])) {
        continue;
      }
      kept.push_back(row);
      matched.committed_inlined.push_back(ids[row]);
    }
    TARN_RETURN_NOT_OK(add_rows(*internal, kept, true));
  }
  std::sort(matched.committed_inlined.begin(), matched.committed_inlined.end());
  matched.count += static_cast<int64_t>(matched.committed_inlined.size());

  for (auto& [rows, final_rowid] : pending_matches) {
    if (on_rows) {
      TARN_RETURN_NOT_OK(on_rows(std::move(rows), final_rowid, matched));
    } else {
      (final_rowid ? matched.final_rows : matched.provisional_rows).push_back(std::move(rows));
    }
  }
  return matched;
}

}  // namespace tarn::table_internal
