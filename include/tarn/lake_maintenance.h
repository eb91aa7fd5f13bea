// Catalog-only DuckLake maintenance (reference §3.11-§3.13): expiring snapshots, deleting
// the files scheduled for deletion, and finding files no catalog row references. None of them
// makes a snapshot. The procedures that rewrite data are in tarn/table_write.h.
//
// Thread-safety: as Lake (one writer at a time per Lake object).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/io.h"
#include "tarn/status.h"

namespace tarn {

struct ExpireSnapshotsOptions {
  // Snapshots with snapshot_time < older_than (microseconds since the epoch, UTC).
  std::optional<int64_t> older_than_micros;
  // Snapshots with these ids.
  std::vector<int64_t> versions;
  bool dry_run = false;
};

// ducklake_expire_snapshots: removes the selected snapshots (never the latest) and their
// changes, then the data and delete files no remaining snapshot sees (their rows, statistics
// and partition values), scheduling the files for deletion. Returns the expired snapshots
// (with dry_run: the ones that would be). Tables that died with the expired snapshots keep
// their schema rows.
Result<std::vector<SnapshotInfo>> ExpireSnapshots(Lake& lake, const ExpireSnapshotsOptions& options);

struct CleanupOptions {
  std::optional<int64_t> older_than_micros;  // default: now - 2 days
  bool cleanup_all = false;                  // every file, whatever its age
  bool dry_run = false;
};

// ducklake_cleanup_old_files: deletes the files of ducklake_files_scheduled_for_deletion
// scheduled before the cutoff and their rows. A relative path that a symbolic link leads out
// of data_path is neither deleted nor unscheduled. Returns the absolute paths (deleted, or
// that would be with dry_run).
Result<std::vector<std::string>> CleanupOldFiles(Lake& lake, std::shared_ptr<FileSystem> fs,
                                                 const CleanupOptions& options);

// ducklake_delete_orphaned_files: files under data_path that no data file, delete file (any
// version) or scheduled file names, modified before the cutoff (every one with cleanup_all):
// `*.parquet`, and the `*.parquet.tarn-tmp-<pid>-<n>` temporaries a killed tarn writer left.
// The listing follows no symbolic link (links are never deleted, nor anything behind them).
// A file system without modification times has no file old enough but with cleanup_all.
Result<std::vector<std::string>> DeleteOrphanedFiles(Lake& lake, std::shared_ptr<FileSystem> fs,
                                                     const CleanupOptions& options);

}  // namespace tarn
