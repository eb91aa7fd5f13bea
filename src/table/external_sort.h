// The sort of an insert into a sorted table whose rows do not fit in its memory limit (the SQL
// session's memory_limit): one ORDER BY over all of them, as an external merge sort. Rows are
// held until they pass the limit; the held rows are then sorted by the table's key and spilled
// as one run to a temporary Parquet file (tarn's writer, small row groups) in a private folder
// under the system's temporary directory. Finish merges the runs (at most 16 at once; more in
// passes that merge 16 consecutive runs into one), reading each a row group at a time, and
// hands the rows on in key order, so the files written from them cover narrow, non-overlapping
// key ranges. The sort is stable: rows equal on the key keep their input order
// (within a run by a stable sort, across runs by taking the earlier run first).
//
// Memory: the held rows and their sorted copy while a run is spilled (about twice the limit),
// then one row group per run while merging (run files have row groups of about a sixteenth of
// the limit's rows, so a merge holds about the limit).
//
// Thread-safety: one thread at a time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/columnar.h"
#include "tarn/status.h"

namespace tarn::table_internal {

class ExternalSort {
 public:
  // `schema`: the rows' (the table's columns, as ArrangeRows gives them); `key`: the table's
  // sort key; `memory_limit`: the bytes of rows held before a run is spilled.
  ExternalSort(const TableInfo& table, std::vector<SortField> key,
               std::shared_ptr<const Schema> schema, int64_t memory_limit);
  ~ExternalSort();  // removes the spill folder
  ExternalSort(const ExternalSort&) = delete;
  ExternalSort& operator=(const ExternalSort&) = delete;

  // REQUIRES: batch of `schema`; Finish not called yet.
  Status Add(std::shared_ptr<Batch> batch);
  // Every row added, in key order, in batches (of `schema`) passed to `emit` one by one.
  Status Finish(const std::function<Status(const Batch&)>& emit);

  int64_t runs_spilled() const { return runs_spilled_; }
  // Merges of kFanIn runs into one before the final merge (many runs).
  int64_t merge_passes() const { return merge_passes_; }
  // The most bytes of rows held at once (rows and their sorted copy, or the merge's batches).
  int64_t peak_held_bytes() const { return peak_held_bytes_; }
  // The spill folder (empty until the first run is spilled); the destructor removes it.
  const std::string& spill_folder() const { return folder_; }

 private:
  struct Run;
  using Emit = std::function<Status(const Batch&)>;
  Status SpillHeld();
  // A new run file in the spill folder, its rows (in order) given by `produce` to its emit.
  Result<std::string> WriteRun(const std::function<Status(const Emit&)>& produce);
  // The rows of the runs at `paths` in key order (earlier runs first on ties) to `emit`.
  Status Merge(const std::vector<std::string>& paths, const Emit& emit);

  const TableInfo& table_;
  std::vector<SortField> key_;
  std::shared_ptr<const Schema> schema_;
  int64_t memory_limit_;
  std::string folder_;  // the spill folder, created with the first run
  std::vector<std::string> run_paths_;
  int64_t next_run_ = 0;
  int64_t row_group_rows_ = 0;  // of every run file, chosen at the first spill
  std::vector<std::shared_ptr<Batch>> held_;
  int64_t held_bytes_ = 0;
  int64_t runs_spilled_ = 0;
  int64_t merge_passes_ = 0;
  int64_t peak_held_bytes_ = 0;
};

}  // namespace tarn::table_internal
