#include "table/write_delete.h"

#include <algorithm>
#include <iterator>

#include "table/deletes.h"
#include "table/deletion_vector.h"
#include "table/write_files.h"
#include "table/write_rows.h"

namespace tarn::table_internal {

namespace {

std::vector<int64_t> Union(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> out;
  out.reserve(a.size() + b.size());
  std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
  return out;
}

// Re-decides how a data file's deletions are stored, writing a new delete file when needed.
Result<int64_t> Materialize(WriteState& state, const TableInfo& table,
                            const WriteSettings& settings, FileDeleteState* deletes) {
  std::vector<int64_t> merged;
  if (!deletes->earlier.empty()) merged = Union(deletes->earlier, deletes->positions);
  const std::vector<int64_t>& total = deletes->earlier.empty() ? deletes->positions : merged;
  auto drop_delete_file = [&]() {
    if (deletes->delete_file.has_value()) {
      state.DropWrittenFile(deletes->delete_file_absolute_path);
      deletes->delete_file.reset();
      deletes->delete_file_absolute_path.clear();
    }
  };
  if (static_cast<int64_t>(total.size()) >= deletes->record_count) {
    drop_delete_file();
    deletes->ended = true;
    return 0;
  }
  if (static_cast<int64_t>(deletes->positions.size()) <= settings.inlining_row_limit) {
    drop_delete_file();
    return 0;
  }
  TARN_RETURN_NOT_OK(state.EnsureDirectory(table.path));
  const bool vector = settings.write_deletion_vectors;
  const std::string name = NewDeleteFileName(vector);
  const std::string path = table.path + name;
  NewDeleteFile change;
  if (vector) {
    // Every deleted position of the file in one deletion vector (a bare blob).
    const std::string bytes = EncodeDeletionVector(total);
    Status written = WriteFileBytes(state.fs, path, bytes);
    if (!written.ok()) {
      (void)state.fs->Delete(path);
      return written;
    }
    change.format = DeleteFileFormat::kPuffin;
    change.file_size_bytes = static_cast<int64_t>(bytes.size());
  } else {
    auto info = WriteDeleteFile(state.fs, path, deletes->data_file_path, total,
                                settings.properties);
    if (!info.ok()) {
      (void)state.fs->Delete(path);
      return info.status();
    }
    change.file_size_bytes = info->file_size;
    change.footer_size = info->footer_size;
  }
  state.written_files.insert(path);
  drop_delete_file();
  change.table_id = table.table_id;
  change.data_file_id = deletes->data_file_id;
  change.path = name;
  change.delete_count = static_cast<int64_t>(total.size());
  change.replaces_delete_file_id = deletes->old_delete_file_id;
  deletes->delete_file = std::move(change);
  deletes->delete_file_absolute_path = path;
  return 1;
}

// Rewrites a data file this transaction wrote without the rows at `positions` (`whole`: all of
// them, so the file just goes).
Result<int64_t> RewritePendingFile(WriteState& state, const TableInfo& table,
                                   const WriteSettings& settings, TableDml& dml,
                                   int64_t provisional_id, const std::vector<int64_t>& positions,
                                   bool whole) {
  auto entry = std::find_if(dml.files.begin(), dml.files.end(), [&](const PendingDataFile& f) {
    return f.change.provisional_id == provisional_id;
  });
  if (entry == dml.files.end()) {
    return Status::Internal("pending data file ", provisional_id, " not found");
  }
  const PendingDataFile old = *entry;
  std::vector<PendingDataFile> replacement;
  if (!whole && static_cast<int64_t>(positions.size()) < old.change.record_count) {
    TARN_ASSIGN_OR_RETURN(auto reader, ParquetReader::Open(state.fs, old.absolute_path));
    ScanOptions scan;
    scan.max_parallel_row_groups = 1;
    TARN_ASSIGN_OR_RETURN(auto rows, reader->ReadAll(scan));
    auto kept = DropRows(*rows, positions);
    auto schema = std::make_shared<Schema>(reader->schema());
    kept->schema = schema;
    std::vector<std::shared_ptr<Batch>> batches{kept};
    TARN_ASSIGN_OR_RETURN(replacement, WriteDataFiles(state, table, settings, schema,
                                                      old.change.embeds_row_ids, batches));
  }
  // Re-find: WriteDataFiles does not touch dml.files, but keep the iterator logic simple.
  entry = std::find_if(dml.files.begin(), dml.files.end(), [&](const PendingDataFile& f) {
    return f.change.provisional_id == provisional_id;
  });
  const int64_t written = static_cast<int64_t>(replacement.size());
  entry = dml.files.erase(entry);
  dml.files.insert(entry, replacement.begin(), replacement.end());
  state.DropWrittenFile(old.absolute_path);
  return written;
}

}  // namespace

Result<int64_t> ApplyDeletes(WriteState& state, const TableInfo& table,
                             const WriteSettings& settings, MatchedRows& matched) {
  if (matched.count == 0) return 0;
  TableDml& dml = state.Dml(table.table_id);
  int64_t files_written = 0;

  if (!matched.committed_files.empty()) {
    TARN_ASSIGN_OR_RETURN(auto base, state.BaseTable(table));
    for (auto& [file_id, positions] : matched.committed_files) {
      auto found = dml.file_deletes.find(file_id);
      if (found == dml.file_deletes.end()) {
        const DataFileInfo* file = nullptr;
        for (const DataFileInfo& candidate : base->data_files) {
          if (candidate.data_file_id == file_id) file = &candidate;
        }
        if (file == nullptr) {
          return Status::Internal("data file ", file_id, " is not visible at snapshot ",
                                  state.start_snapshot_id);
        }
        FileDeleteState entry;
        entry.data_file_id = file_id;
        entry.record_count = file->record_count;
        entry.data_file_path = file->path;
        if (file->delete_file.has_value()) {
          entry.old_delete_file_id = file->delete_file->delete_file_id;
        }
        TARN_ASSIGN_OR_RETURN(entry.earlier, DeletedPositionsAt(state.fs, *file,
                                                                file->record_count,
                                                                state.start_snapshot_id));
        found = dml.file_deletes.emplace(file_id, std::move(entry)).first;
      }
      FileDeleteState& deletes = found->second;
      if (matched.whole_files.count(file_id) > 0) {
        // Every row: the file ends (no position list, no delete file).
        if (deletes.delete_file.has_value()) {
          state.DropWrittenFile(deletes.delete_file_absolute_path);
          deletes.delete_file.reset();
          deletes.delete_file_absolute_path.clear();
        }
        deletes.positions.clear();
        deletes.ended = true;
        continue;
      }
      // The first deletion of the file takes the positions as they are (no copy).
      deletes.positions = deletes.positions.empty() ? std::move(positions)
                                                    : Union(deletes.positions, positions);
      TARN_ASSIGN_OR_RETURN(int64_t written, Materialize(state, table, settings, &deletes));
      files_written += written;
    }
  }
  for (const auto& [provisional_id, positions] : matched.pending_files) {
    const bool whole = matched.whole_files.count(provisional_id) > 0;
    TARN_ASSIGN_OR_RETURN(int64_t written, RewritePendingFile(state, table, settings, dml,
                                                              provisional_id, positions, whole));
    files_written += written;
  }
  dml.inlined_row_deletes.insert(matched.committed_inlined.begin(),
                                 matched.committed_inlined.end());
  if (!matched.pending_plain.empty()) {
    dml.plain_inlined.rows = DropRows(*dml.plain_inlined.rows, matched.pending_plain);
  }
  if (!matched.pending_rowid.empty()) {
    PendingInlinedRows& rows = dml.rowid_inlined;
    rows.rows = DropRows(*rows.rows, matched.pending_rowid);
    std::vector<int64_t> ids;
    size_t next = 0;
    for (size_t i = 0; i < rows.row_ids.size(); ++i) {
      while (next < matched.pending_rowid.size() &&
             matched.pending_rowid[next] < static_cast<int64_t>(i)) {
        ++next;
      }
      if (next < matched.pending_rowid.size() &&
          matched.pending_rowid[next] == static_cast<int64_t>(i)) {
        continue;
      }
      ids.push_back(rows.row_ids[i]);
    }
    rows.row_ids = std::move(ids);
  }
  return files_written;
}

}  // namespace tarn::table_internal
