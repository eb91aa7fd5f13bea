#include "table/write_overlay.h"

#include <numeric>

#include "table/write_rows.h"

namespace tarn::table_internal {

std::shared_ptr<const LakeSnapshot> OverlaySnapshot(const WriteState& state) {
  return LakeSnapshot::Make(state.start->snapshot(), state.start->data_path(), state.schemas,
                            state.tables, state.views, state.macros);
}

int64_t ProvisionalRowIdBase(const TableMetadata& base) {
  return base.stats.has_value() ? base.stats->next_row_id : 0;
}

Result<std::shared_ptr<const TableMetadata>> OverlayTable(WriteState& state,
                                                          std::shared_ptr<const TableInfo> table) {
  TARN_ASSIGN_OR_RETURN(auto base, state.BaseTable(*table));
  auto view = std::make_shared<TableMetadata>(*base);
  view->table = table;
  const TableDml* dml = state.FindDml(table->table_id);
  if (dml == nullptr) return std::shared_ptr<const TableMetadata>(std::move(view));

  std::vector<DataFileInfo> files;
  files.reserve(base->data_files.size() + dml->files.size());
  for (const DataFileInfo& file : base->data_files) {
    auto found = dml->file_deletes.find(file.data_file_id);
    if (found == dml->file_deletes.end()) {
      files.push_back(file);
      continue;
    }
    const FileDeleteState& deletes = found->second;
    if (deletes.ended) continue;
    DataFileInfo changed = file;
    if (deletes.delete_file.has_value()) {
      DeleteFileInfo info;
      info.delete_file_id = -1;
      info.data_file_id = file.data_file_id;
      info.begin_snapshot = state.start_snapshot_id;
      info.path = deletes.delete_file_absolute_path;
      info.format = deletes.delete_file->format;
      info.format_text = DeleteFileFormatName(info.format);
      info.delete_count = deletes.delete_file->delete_count;
      info.file_size_bytes = deletes.delete_file->file_size_bytes;
      info.footer_size = deletes.delete_file->footer_size;
      changed.delete_file = std::move(info);
    } else {
      for (int64_t position : deletes.positions) {
        changed.inlined_deletes.push_back({position, state.start_snapshot_id});
      }
    }
    files.push_back(std::move(changed));
  }
  int64_t next_row_id = ProvisionalRowIdBase(*base);
  for (const PendingDataFile& pending : dml->files) {
    DataFileInfo file;
    file.data_file_id = pending.change.provisional_id;
    file.begin_snapshot = state.start_snapshot_id;
    file.path = pending.absolute_path;
    file.relative_path = pending.change.path;
    file.path_is_relative = pending.change.path_is_relative;
    file.file_format = "parquet";
    if (!pending.change.name_mapping.empty()) {
      // Provisional mapping ids are the file's (negative) id: one mapping per pending file.
      NameMapping& mapping = view->name_mappings[pending.change.provisional_id];
      mapping.mapping_id = pending.change.provisional_id;
      mapping.type = "map_by_name";
      mapping.entries = pending.change.name_mapping;
      file.mapping_id = pending.change.provisional_id;
    }
    file.record_count = pending.change.record_count;
    file.file_size_bytes = pending.change.file_size_bytes;
    file.footer_size = pending.change.footer_size;
    file.row_id_start = next_row_id;
    next_row_id += pending.change.record_count;
    files.push_back(std::move(file));
  }
  view->data_files = std::move(files);

  if (dml->plain_inlined.num_rows() > 0) {
    std::vector<int64_t> ids(static_cast<size_t>(dml->plain_inlined.num_rows()));
    std::iota(ids.begin(), ids.end(), next_row_id);
    view->pending_inlined_rows.push_back(ToInlinedLayout(*table, *dml->plain_inlined.rows, ids,
                                                         state.start_snapshot_id));
  }
  if (dml->rowid_inlined.num_rows() > 0) {
    view->pending_inlined_rows.push_back(ToInlinedLayout(*table, *dml->rowid_inlined.rows,
                                                         dml->rowid_inlined.row_ids,
                                                         state.start_snapshot_id));
  }
  view->pending_inlined_row_deletes.assign(dml->inlined_row_deletes.begin(),
                                           dml->inlined_row_deletes.end());
  return std::shared_ptr<const TableMetadata>(std::move(view));
}

}  // namespace tarn::table_internal
