// ReadTableChanges: insertions, deletions and changes of a table between two snapshots.
//
// Every data file the table had at some snapshot in [start - 1, end] (the snapshot just before
// `start` included, so files ended at `start` are seen) is read without deletes or snapshot
// filtering. Each row was inserted by its snapshot_id (embedded, else the file's
// begin_snapshot) and deleted by the first of: the snapshot of any delete file listing its
// position (embedded per position, else the delete file's begin_snapshot), an inlined
// deletion of its position, and the file's end_snapshot. Inlined rows are inserted at
// begin_snapshot and deleted at end_snapshot. Events inside [start, end] are reported;
// changes pairs an insertion and a deletion of one rowid in one snapshot as an update.
#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "table/deletes.h"
#include "table/file_reader.h"
#include "table/inlined_rows.h"
#include "table/scan_columns.h"
#include "tarn/table.h"

namespace tarn {

using table_internal::DataFileReader;
using table_internal::DeletedPosition;
using table_internal::FileReadOptions;

namespace {

// What the feed knows about one data file, unioned over the snapshots it was loaded at.
struct FileHistory {
  DataFileInfo file;  // the version loaded last (its end_snapshot as stored)
  std::map<int64_t, DeleteFileInfo> delete_files;    // by delete_file_id
  std::map<int64_t, int64_t> inlined_deletes;        // position -> first snapshot
};

struct Event {
  int64_t snapshot = 0;
  int64_t rowid = 0;
  bool insert = false;
  int64_t row = 0;  // in the concatenated internal batches
  std::string change_type;
};

}  // namespace

Result<std::unique_ptr<BatchReader>> ReadTableChanges(Lake& lake, std::shared_ptr<FileSystem> fs,
                                                      const std::string& schema,
                                                      const std::string& table,
                                                      const ChangeFeedOptions& options) {
  const int64_t start = options.start_snapshot;
  const int64_t end = options.end_snapshot;
  if (start > end) {
    return Status::InvalidArgument("change feed start snapshot ", start, " is after end snapshot ",
                                   end);
  }
  TARN_ASSIGN_OR_RETURN(auto end_snapshot, lake.LoadSnapshot(SnapshotSelector::Id(end)));
  auto table_info = end_snapshot->FindTable(schema, table);
  if (!table_info) {
    return Status::NotFound("table ", schema, ".", table, " does not exist at snapshot ", end);
  }
  const int64_t table_id = table_info->table_id;
  TARN_ASSIGN_OR_RETURN(auto end_table, lake.LoadTable(*end_snapshot, table_id));

  // The snapshots to load: those in range and the one before it.
  TARN_ASSIGN_OR_RETURN(auto snapshots, lake.ListSnapshots());
  std::vector<int64_t> ids;
  std::optional<int64_t> before;
  for (const SnapshotInfo& info : snapshots) {
    if (info.snapshot_id < start) before = info.snapshot_id;
    if (info.snapshot_id >= start && info.snapshot_id <= end) ids.push_back(info.snapshot_id);
  }
  if (before.has_value()) ids.insert(ids.begin(), *before);

  std::map<int64_t, FileHistory> files;
  std::map<int64_t, NameMapping> mappings;
  for (int64_t id : ids) {
    if (options.cancel != nullptr && options.cancel->IsCancelled()) {
      return Status::Cancelled("change feed of ", schema, ".", table, " cancelled");
    }
    std::shared_ptr<const TableMetadata> metadata = end_table;
    if (id != end) {
      TARN_ASSIGN_OR_RETURN(auto loaded, lake.LoadSnapshot(SnapshotSelector::Id(id)));
      if (!loaded->FindTableById(table_id)) continue;
      TARN_ASSIGN_OR_RETURN(metadata, lake.LoadTable(*loaded, table_id));
    }
    for (const auto& [mapping_id, mapping] : metadata->name_mappings) {
      mappings[mapping_id] = mapping;
    }
    for (const DataFileInfo& file : metadata->data_files) {
      FileHistory& history = files[file.data_file_id];
      history.file = file;
      if (file.delete_file.has_value()) {
        history.delete_files[file.delete_file->delete_file_id] = *file.delete_file;
      }
      for (const DeleteFileInfo& other : file.other_delete_files) {
        history.delete_files[other.delete_file_id] = other;
      }
      for (const InlinedFileDelete& entry : file.inlined_deletes) {
        auto [it, inserted] = history.inlined_deletes.emplace(entry.position, entry.begin_snapshot);
        if (!inserted) it->second = std::min(it->second, entry.begin_snapshot);
      }
    }
  }

  TableScanOptions scan_options;
  scan_options.with_rowid = true;
  scan_options.with_snapshot_id = true;
  TARN_ASSIGN_OR_RETURN(auto columns, table_internal::ScanColumns::Make(*end_table->table,
                                                                        scan_options));
  const int rowid_index = static_cast<int>(columns.needed.size());
  const int snapshot_index = rowid_index + 1;
  const int position_index = rowid_index + 2;
  auto in_range = [&](int64_t snapshot) { return snapshot >= start && snapshot <= end; };

  std::vector<std::shared_ptr<Batch>> batches;
  std::vector<Event> events;
  int64_t row_base = 0;
  auto add_batch = [&](std::shared_ptr<Batch> batch, auto deleted_at) {
    const int64_t* rowids = batch->column(rowid_index).values_as<int64_t>();
    const int64_t* inserted = batch->column(snapshot_index).values_as<int64_t>();
    for (int64_t row = 0; row < batch->num_rows; ++row) {
      if (inserted[row] > end) continue;
      if (in_range(inserted[row])) {
        events.push_back({inserted[row], rowids[row], true, row_base + row, ""});
      }
      std::optional<int64_t> deleted = deleted_at(*batch, row);
      if (deleted.has_value() && in_range(*deleted) && *deleted >= inserted[row]) {
        events.push_back({*deleted, rowids[row], false, row_base + row, ""});
      }
    }
    row_base += batch->num_rows;
    batches.push_back(std::move(batch));
  };

  FileReadOptions read_options;
  read_options.snapshot_id = end;
  read_options.apply_deletes = false;
  read_options.apply_snapshot_filter = false;
  read_options.pool = options.pool;
  read_options.cancel = options.cancel;
  for (const auto& [file_id, history] : files) {
    const DataFileInfo& file = history.file;
    // Position -> the first snapshot that deleted it.
    std::unordered_map<int64_t, int64_t> deleted = {history.inlined_deletes.begin(),
                                                    history.inlined_deletes.end()};
    for (const auto& [delete_id, delete_file] : history.delete_files) {
      TARN_ASSIGN_OR_RETURN(auto positions, table_internal::ReadDeleteFile(
                                                fs, delete_file, file.path, file.record_count));
      for (const DeletedPosition& entry : positions) {
        auto [it, inserted] = deleted.emplace(entry.position, entry.snapshot);
        if (!inserted) it->second = std::min(it->second, entry.snapshot);
      }
    }
    bool relevant = file.begin_snapshot <= end &&
                    std::max(file.begin_snapshot, file.partial_max.value_or(0)) >= start;
    relevant |= file.end_snapshot.has_value() && in_range(*file.end_snapshot);
    for (const auto& [position, snapshot] : deleted) relevant |= in_range(snapshot);
    if (!relevant) continue;
    TARN_ASSIGN_OR_RETURN(auto reader, DataFileReader::Open(fs, file, *end_table->table, mappings,
                                                            columns.needed,
                                                            columns.internal_schema,
                                                            read_options));
    while (true) {
      TARN_ASSIGN_OR_RETURN(auto batch, reader->Next());
      if (!batch) break;
      add_batch(std::move(batch), [&](const Batch& b, int64_t row) -> std::optional<int64_t> {
        const int64_t position = b.column(position_index).values_as<int64_t>()[row];
        std::optional<int64_t> first = file.end_snapshot;
        auto it = deleted.find(position);
        if (it != deleted.end() && (!first || it->second < *first)) first = it->second;
        return first;
      });
    }
  }
  for (const InlinedDataTable& inlined : end_table->table->inlined_tables) {
    TARN_ASSIGN_OR_RETURN(auto rows, lake.ReadInlinedRows(*end_table, inlined,
                                                          InlinedRowSelection::kAll));
    if (rows->num_rows == 0) continue;
    TARN_ASSIGN_OR_RETURN(auto internal, table_internal::InlinedToInternal(
                                             *rows, columns.needed, columns.internal_schema));
    const Column& end_column = rows->column(2);
    add_batch(std::move(internal), [&](const Batch&, int64_t row) -> std::optional<int64_t> {
      if (end_column.IsNull(row)) return std::nullopt;
      return end_column.values_as<int64_t>()[row];
    });
  }

  // Pair insertions and deletions of one rowid in one snapshot.
  std::sort(events.begin(), events.end(), [](const Event& a, const Event& b) {
    if (a.snapshot != b.snapshot) return a.snapshot < b.snapshot;
    if (a.rowid != b.rowid) return a.rowid < b.rowid;
    return a.insert > b.insert;
  });
  std::vector<Event> selected;
  for (size_t begin = 0; begin < events.size();) {
    size_t stop = begin;
    bool any_insert = false, any_delete = false;
    while (stop < events.size() && events[stop].snapshot == events[begin].snapshot &&
           events[stop].rowid == events[begin].rowid) {
      (events[stop].insert ? any_insert : any_delete) = true;
      ++stop;
    }
    for (size_t i = begin; i < stop; ++i) {
      Event& event = events[i];
      const bool wanted = options.kind == ChangeFeedKind::kChanges ||
                          (options.kind == ChangeFeedKind::kInsertions) == event.insert;
      if (!wanted) continue;
      if (any_insert && any_delete) {
        event.change_type = event.insert ? "update_postimage" : "update_preimage";
      } else {
        event.change_type = event.insert ? "insert" : "delete";
      }
      selected.push_back(event);
    }
    begin = stop;
  }
  std::stable_sort(selected.begin(), selected.end(), [](const Event& a, const Event& b) {
    if (a.snapshot != b.snapshot) return a.snapshot < b.snapshot;
    if (a.rowid != b.rowid) return a.rowid < b.rowid;
    return a.change_type < b.change_type;
  });

  // The output: snapshot_id, rowid, [change_type], the table's columns.
  auto all = table_internal::ConcatenateOrEmpty(columns.internal_schema, batches);
  std::vector<int64_t> indices;
  ColumnBuilder snapshot_ids(DataType(TypeId::kInt64));
  ColumnBuilder change_types(DataType(TypeId::kVarchar));
  for (const Event& event : selected) {
    indices.push_back(event.row);
    snapshot_ids.AppendNumber<int64_t>(event.snapshot);
    change_types.AppendBytes(event.change_type);
  }
  std::vector<Field> fields;
  std::vector<std::shared_ptr<Column>> out;
  fields.emplace_back(kSnapshotIdColumnName, DataType(TypeId::kInt64));
  out.push_back(snapshot_ids.Finish());
  fields.emplace_back(kRowIdColumnName, DataType(TypeId::kInt64));
  out.push_back(Take(all->column(rowid_index), indices));
  if (options.kind == ChangeFeedKind::kChanges) {
    fields.emplace_back("change_type", DataType(TypeId::kVarchar));
    out.push_back(change_types.Finish());
  }
  for (size_t i = 0; i < columns.needed.size(); ++i) {
    fields.push_back(columns.internal_schema->field(static_cast<int>(i)));
    out.push_back(Take(all->column(static_cast<int>(i)), indices));
  }
  auto output_schema = std::make_shared<Schema>(std::move(fields));
  auto batch = MakeBatch(output_schema, std::move(out));
  batch->num_rows = static_cast<int64_t>(selected.size());
  std::vector<std::shared_ptr<Batch>> result;
  if (batch->num_rows > 0) result.push_back(std::move(batch));
  return MakeVectorReader(output_schema, std::move(result));
}

}  // namespace tarn
