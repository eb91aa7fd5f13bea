// Deleted positions of a data file: delete files (Parquet, optionally with per-position
// snapshot ids) and inlined file deletions, resolved for a snapshot.
//
// A delete file lists 0-based physical positions of its data file in the column `pos` (the
// second column; the first, file_path, is ignored). A third column named exactly
// `_ducklake_internal_snapshot_id` (BIGINT) gives each deletion's snapshot; without it every
// deletion belongs to the delete file's begin_snapshot. A `puffin` delete file is a deletion
// vector (table/deletion_vector.h).
//
// Thread-safety: pure functions over immutable inputs.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/io.h"
#include "tarn/status.h"

namespace tarn::table_internal {

struct DeletedPosition {
  int64_t position = 0;
  int64_t snapshot = 0;  // the snapshot that deleted it
};

// Every position a delete file lists, with the snapshot that deleted it. Positions must lie
// in [0, num_rows) (Corruption otherwise, naming both files).
Result<std::vector<DeletedPosition>> ReadDeleteFile(const std::shared_ptr<FileSystem>& fs,
                                                    const DeleteFileInfo& file,
                                                    const std::string& data_file_path,
                                                    int64_t num_rows);

// The positions of `file` deleted at `snapshot_id`: its visible delete file (only deletions
// with snapshot <= snapshot_id) and its inlined file deletions (begin_snapshot <= it).
// Sorted, unique.
Result<std::vector<int64_t>> DeletedPositionsAt(const std::shared_ptr<FileSystem>& fs,
                                                const DataFileInfo& file, int64_t num_rows,
                                                int64_t snapshot_id);

}  // namespace tarn::table_internal
