#include "table/external_sort.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <queue>

#include "table/sort_rows.h"
#include "table/write_sink.h"
#include "tarn/io.h"
#include "tarn/parquet.h"

namespace tarn::table_internal {

namespace {

// Runs merged at once. More runs are merged in passes: each group of kFanIn consecutive runs
// becomes one run, until at most kFanIn are left for the final merge.
constexpr size_t kFanIn = 16;
// Rows per batch handed on by the merge.
constexpr int64_t kOutputRows = 8192;

Result<std::shared_ptr<const WriterProperties>> RunProperties(int64_t row_group_rows) {
  return WriterProperties::Builder()
      .max_row_group_rows(row_group_rows)
      .write_page_crc(false)
      .page_index(PageIndexMode::kOff)
      .Build();
}

}  // namespace

// A spilled run being merged: its scan, the current batch and the key over it.
struct ExternalSort::Run {
  std::unique_ptr<ParquetReader> file;
  std::unique_ptr<ScanReader> scan;
  std::shared_ptr<Batch> batch;
  KeyValues key;
  int64_t row = 0;

  // The next non-empty batch, or batch = nullptr at the end.
  Status Advance(const TableInfo& table, const std::vector<SortField>& sort_key,
                 const std::shared_ptr<const Schema>& schema) {
    while (true) {
      TARN_ASSIGN_OR_RETURN(auto next, scan->Next());
      row = 0;
      if (!next) {
        batch.reset();
        key = KeyValues();
        return Status::OK();
      }
      if (next->num_rows == 0) continue;
      batch = MakeBatch(schema, next->columns);
      batch->num_rows = next->num_rows;
      TARN_ASSIGN_OR_RETURN(key, EvaluateKey(table, sort_key, *batch));
      return Status::OK();
    }
  }
};

ExternalSort::ExternalSort(const TableInfo& table, std::vector<SortField> key,
                           std::shared_ptr<const Schema> schema, int64_t memory_limit)
    : table_(table),
      key_(std::move(key)),
      schema_(std::move(schema)),
      memory_limit_(std::max<int64_t>(memory_limit, 1)) {}

ExternalSort::~ExternalSort() {
  if (folder_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(folder_, ignored);
}

Status ExternalSort::Add(std::shared_ptr<Batch> batch) {
  if (batch->num_rows == 0) return Status::OK();
  held_bytes_ += BatchBytes(*batch);
  held_.push_back(std::move(batch));
  peak_held_bytes_ = std::max(peak_held_bytes_, held_bytes_);
  if (held_bytes_ > memory_limit_) TARN_RETURN_NOT_OK(SpillHeld());
  return Status::OK();
}

Status ExternalSort::SpillHeld() {
  if (held_.empty()) return Status::OK();
  if (folder_.empty()) {
    std::error_code error;
    std::filesystem::path root = std::filesystem::temp_directory_path(error);
    if (error) root = "/tmp";
    // tarn-sort-<pid>-XXXXXX: a process can tell its own spill folders from others'.
    std::string pattern = (root / StrCat("tarn-sort-", getpid(), "-XXXXXX")).string();
    if (mkdtemp(pattern.data()) == nullptr) {
      return Status::IOError("creating a folder for the sorted runs of an insert into \"",
                             table_.schema_name, ".", table_.name, "\" under '", root.string(),
                             "'");
    }
    folder_ = pattern;
  }
  std::shared_ptr<Batch> all = held_.size() == 1 ? held_[0] : ConcatenateBatches(held_);
  all->schema = schema_;
  if (row_group_rows_ == 0) {
    // Row groups small enough that a merge of kFanIn runs holds about the memory limit.
    const double row_bytes =
        static_cast<double>(held_bytes_) / static_cast<double>(std::max<int64_t>(all->num_rows, 1));
    const auto limit_rows = static_cast<int64_t>(static_cast<double>(memory_limit_) / row_bytes);
    row_group_rows_ = std::clamp<int64_t>(limit_rows / static_cast<int64_t>(kFanIn), 64, 122880);
  }
  TARN_ASSIGN_OR_RETURN(std::vector<int64_t> order, SortKeyOrder(table_, key_, *all));
  std::vector<std::shared_ptr<Column>> columns;
  for (const auto& column : all->columns) columns.push_back(Take(*column, order));
  auto sorted = MakeBatch(schema_, std::move(columns));
  sorted->num_rows = all->num_rows;
  peak_held_bytes_ = std::max(peak_held_bytes_, held_bytes_ + BatchBytes(*sorted));
  held_.clear();
  held_bytes_ = 0;
  all.reset();
  TARN_ASSIGN_OR_RETURN(std::string path,
                        WriteRun([&](const Emit& emit) { return emit(*sorted); }));
  run_paths_.push_back(std::move(path));
  ++runs_spilled_;
  return Status::OK();
}

Result<std::string> ExternalSort::WriteRun(const std::function<Status(const Emit&)>& produce) {
  const std::string path = folder_ + "/run-" + std::to_string(next_run_++) + ".parquet";
  TARN_ASSIGN_OR_RETURN(auto properties, RunProperties(row_group_rows_));
  TARN_ASSIGN_OR_RETURN(auto writer,
                        ParquetWriter::Open(LocalFileSystem(), path, *schema_, properties));
  Status written = produce([&](const Batch& batch) { return writer->Write(batch); });
  if (!written.ok()) {
    writer->Abandon();
    return written;
  }
  TARN_RETURN_NOT_OK(writer->Finish().status());
  return path;
}

Status ExternalSort::Finish(const std::function<Status(const Batch&)>& emit) {
  if (run_paths_.empty()) {
    // Everything fit: one in-memory sort.
    if (held_.empty()) return Status::OK();
    std::shared_ptr<Batch> all = held_.size() == 1 ? held_[0] : ConcatenateBatches(held_);
    all->schema = schema_;
    TARN_ASSIGN_OR_RETURN(auto sorted, SortRowsByKey(table_, key_, {&all, 1}));
    peak_held_bytes_ = std::max(peak_held_bytes_, held_bytes_ + BatchBytes(*sorted));
    held_.clear();
    held_bytes_ = 0;
    return emit(*sorted);
  }
  TARN_RETURN_NOT_OK(SpillHeld());
  // Passes over groups of consecutive runs (keeping their order, so ties stay stable) until
  // one merge can take them all.
  while (run_paths_.size() > kFanIn) {
    std::vector<std::string> merged;
    for (size_t first = 0; first < run_paths_.size(); first += kFanIn) {
      const size_t last = std::min(first + kFanIn, run_paths_.size());
      const std::vector<std::string> group(run_paths_.begin() + static_cast<std::ptrdiff_t>(first),
                                           run_paths_.begin() + static_cast<std::ptrdiff_t>(last));
      if (group.size() == 1) {
        merged.push_back(group[0]);
        continue;
      }
      TARN_ASSIGN_OR_RETURN(std::string path,
                            WriteRun([&](const Emit& write) { return Merge(group, write); }));
      for (const std::string& done : group) {
        std::error_code ignored;
        std::filesystem::remove(done, ignored);
      }
      merged.push_back(std::move(path));
      ++merge_passes_;
    }
    run_paths_ = std::move(merged);
  }
  return Merge(run_paths_, emit);
}

Status ExternalSort::Merge(const std::vector<std::string>& paths, const Emit& emit) {
  std::vector<Run> runs(paths.size());
  for (size_t r = 0; r < runs.size(); ++r) {
    TARN_ASSIGN_OR_RETURN(runs[r].file, ParquetReader::Open(LocalFileSystem(), paths[r]));
    ScanOptions options;
    options.batch_rows = row_group_rows_;
    options.max_parallel_row_groups = 1;
    options.verify_page_checksums = false;
    TARN_ASSIGN_OR_RETURN(runs[r].scan, runs[r].file->Scan(options));
    TARN_RETURN_NOT_OK(runs[r].Advance(table_, key_, schema_));
  }
  // Run a's current row sorts before run b's: by the key, then the earlier run (stability).
  auto before = [&](size_t a, size_t b) {
    const int c =
        runs[a].key.comparator->Compare(runs[a].row, *runs[b].key.comparator, runs[b].row);
    return c != 0 ? c < 0 : a < b;
  };
  auto later = [&](size_t a, size_t b) { return before(b, a); };
  std::priority_queue<size_t, std::vector<size_t>, decltype(later)> heap(later);
  for (size_t r = 0; r < runs.size(); ++r) {
    if (runs[r].batch) heap.push(r);
  }
  // Output: slices of the runs' batches, concatenated once kOutputRows are gathered.
  const size_t width = schema_->fields.size();
  std::vector<std::vector<std::shared_ptr<Column>>> pieces(width);
  int64_t gathered = 0;
  auto flush = [&]() -> Status {
    if (gathered == 0) return Status::OK();
    std::vector<std::shared_ptr<Column>> columns;
    for (auto& column_pieces : pieces) {
      columns.push_back(column_pieces.size() == 1 ? column_pieces[0] : Concatenate(column_pieces));
      column_pieces.clear();
    }
    auto batch = MakeBatch(schema_, std::move(columns));
    batch->num_rows = gathered;
    gathered = 0;
    return emit(*batch);
  };
  while (!heap.empty()) {
    const size_t r = heap.top();
    heap.pop();
    Run& run = runs[r];
    // Take rows of this run while they sort before the best row of every other run.
    const int64_t start = run.row;
    const int64_t end = run.batch->num_rows;
    int64_t stop = start + 1;
    if (heap.empty()) {
      stop = end;
    } else {
      const size_t next = heap.top();
      run.row = stop;
      while (stop < end && before(r, next)) run.row = ++stop;
    }
    for (size_t c = 0; c < width; ++c) {
      pieces[c].push_back(Slice(*run.batch->columns[c], start, stop - start));
    }
    gathered += stop - start;
    run.row = stop;
    int64_t held = 0;
    for (const Run& any : runs) {
      if (any.batch) held += BatchBytes(*any.batch);
    }
    peak_held_bytes_ = std::max(peak_held_bytes_, held);
    if (run.row >= end) TARN_RETURN_NOT_OK(run.Advance(table_, key_, schema_));
    if (run.batch) heap.push(r);
    if (gathered >= kOutputRows) TARN_RETURN_NOT_OK(flush());
  }
  return flush();
}

}  // namespace tarn::table_internal
