#include "table/deletes.h"

#include <algorithm>

#include "table/deletion_vector.h"
#include "tarn/parquet.h"

namespace tarn::table_internal {

namespace {

constexpr const char* kSnapshotColumn = "_ducklake_internal_snapshot_id";

bool IsInt64(const Field& field) { return field.type.id == TypeId::kInt64; }

}  // namespace

Result<std::vector<DeletedPosition>> ReadDeleteFile(const std::shared_ptr<FileSystem>& fs,
                                                    const DeleteFileInfo& file,
                                                    const std::string& data_file_path,
                                                    int64_t num_rows) {
  if (file.format == DeleteFileFormat::kPuffin) {
    TARN_ASSIGN_OR_RETURN(auto input, fs->OpenForRead(file.path));
    std::string bytes(static_cast<size_t>(input->size()), '\0');
    TARN_RETURN_NOT_OK(input->ReadAt(0, input->size(), reinterpret_cast<uint8_t*>(bytes.data())));
    TARN_ASSIGN_OR_RETURN(std::vector<DeletedPosition> deleted,
                          DecodeDeletionVectorFile(bytes, file.path, file.begin_snapshot));
    for (const DeletedPosition& entry : deleted) {
      if (entry.position >= num_rows) {
        return Status::Corruption("deletion vector '", file.path, "': position ", entry.position,
                                  " is outside data file '", data_file_path, "' of ", num_rows,
                                  " rows");
      }
    }
    return deleted;
  }
  TARN_ASSIGN_OR_RETURN(auto reader, ParquetReader::Open(fs, file.path));
  const Schema& schema = reader->schema();
  // Two columns (file_path, pos) or three; columns are matched by position and type.
  if (schema.num_fields() < 2 || schema.num_fields() > 3 || !IsInt64(schema.field(1))) {
    return Status::Corruption("delete file '", file.path, "' has schema ", schema.ToString(),
                              "; expected (file_path VARCHAR, pos BIGINT",
                              "[, _ducklake_internal_snapshot_id BIGINT])");
  }
  ScanOptions options;
  options.columns.push_back(schema.field(1).name);
  const bool has_snapshots = schema.num_fields() == 3 &&
                             schema.field(2).name == kSnapshotColumn && IsInt64(schema.field(2));
  if (has_snapshots) options.columns.push_back(schema.field(2).name);
  options.max_parallel_row_groups = 1;
  TARN_ASSIGN_OR_RETURN(auto batch, reader->ReadAll(options));
  std::vector<DeletedPosition> deleted;
  deleted.reserve(static_cast<size_t>(batch->num_rows));
  const Column& pos = batch->column(0);
  for (int64_t row = 0; row < batch->num_rows; ++row) {
    if (pos.IsNull(row)) {
      return Status::Corruption("delete file '", file.path, "' row ", row, ": pos is NULL");
    }
    DeletedPosition entry;
    entry.position = pos.values_as<int64_t>()[row];
    entry.snapshot = file.begin_snapshot;
    if (entry.position < 0 || entry.position >= num_rows) {
      return Status::Corruption("delete file '", file.path, "' row ", row, ": position ",
                                entry.position, " is outside data file '", data_file_path,
                                "' of ", num_rows, " rows");
    }
    if (has_snapshots) {
      const Column& snapshots = batch->column(1);
      if (snapshots.IsNull(row)) {
        return Status::Corruption("delete file '", file.path, "' row ", row,
                                  ": _ducklake_internal_snapshot_id is NULL");
      }
      entry.snapshot = snapshots.values_as<int64_t>()[row];
    }
    deleted.push_back(entry);
  }
  return deleted;
}

Result<std::vector<int64_t>> DeletedPositionsAt(const std::shared_ptr<FileSystem>& fs,
                                                const DataFileInfo& file, int64_t num_rows,
                                                int64_t snapshot_id) {
  std::vector<int64_t> positions;
  auto add = [&](const DeleteFileInfo& delete_file) -> Status {
    TARN_ASSIGN_OR_RETURN(auto deleted, ReadDeleteFile(fs, delete_file, file.path, num_rows));
    for (const DeletedPosition& entry : deleted) {
      if (entry.snapshot <= snapshot_id) positions.push_back(entry.position);
    }
    return Status::OK();
  };
  if (file.delete_file.has_value()) TARN_RETURN_NOT_OK(add(*file.delete_file));
  for (const DeleteFileInfo& other : file.other_delete_files) TARN_RETURN_NOT_OK(add(other));
  for (const InlinedFileDelete& entry : file.inlined_deletes) {
    if (entry.begin_snapshot > snapshot_id) continue;
    if (entry.position < 0 || entry.position >= num_rows) {
      return Status::Corruption("inlined deletion of position ", entry.position,
                                " is outside data file '", file.path, "' of ", num_rows, " rows");
    }
    positions.push_back(entry.position);
  }
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  return positions;
}

}  // namespace tarn::table_internal
