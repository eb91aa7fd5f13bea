// Publishing sidecars (one file, a pass over a lake) and sweeping stranded ones.
#include <algorithm>
#include <atomic>
#include <set>
#include <thread>

#include "rowid/derive.h"
#include "rowid/sidecar.h"
#include "tarn/rowid.h"

namespace tarn {

Result<PublishOutcome> PublishRowSummary(const RowSummaryContext& ctx, int64_t table_id,
                                         const DataFileInfo& file) {
  const SummaryIdentity identity = IdentityOf(table_id, file, ctx.data_path);
  const std::string path = SidecarPath(file);
  // A valid sidecar is durable progress: one header read, no summary fetched.
  Result<rowid_internal::RowsumHeader> existing = rowid_internal::ReadRowsumHeader(*ctx.fs, path, identity);
  if (existing.ok()) {
    if (ctx.stats) ctx.stats->already_published++;
    return PublishOutcome::kAlreadyPublished;
  }
  if (existing.status().code() == StatusCode::kIOError) return existing.status();
  if (file.row_id_start) {
    TARN_ASSIGN_OR_RETURN(rowid_internal::FooterFacts facts, rowid_internal::ProbeFooter(ctx.fs, file));
    if (!facts.embeds_row_ids) return PublishOutcome::kDense;
  }
  TARN_ASSIGN_OR_RETURN(PositionedRowSet rows, DeriveRowSummary(ctx.fs, file));
  TARN_ASSIGN_OR_RETURN(std::string bytes, EncodeRowSummary(identity, rows));
  // The write is atomic (a temporary renamed on Close), so concurrent publishers of the same
  // file each leave the same complete bytes.
  TARN_RETURN_NOT_OK(ctx.fs->WriteFile(path, bytes));
  if (ctx.stats) ctx.stats->published++;
  if (ctx.cache) ctx.cache->NoteSidecarsChanged();  // no entry read or filled
  return PublishOutcome::kPublished;
}

Result<PublishReport> PublishRowSummaries(Lake& lake, const RowSummaryContext& ctx,
                                          const PublishOptions& options) {
  TARN_ASSIGN_OR_RETURN(std::shared_ptr<const LakeSnapshot> snapshot, lake.LoadSnapshot());
  int64_t min_file_id = 0;
  if (options.since_snapshot) {
    TARN_ASSIGN_OR_RETURN(SnapshotInfo since, lake.FindSnapshot(SnapshotSelector::Id(*options.since_snapshot)));
    min_file_id = since.next_file_id;
  }
  struct Work {
    int64_t table_id;
    DataFileInfo file;
  };
  std::vector<Work> work;
  for (const auto& table : snapshot->tables()) {
    if (!options.table_ids.empty() &&
        std::find(options.table_ids.begin(), options.table_ids.end(), table->table_id) ==
            options.table_ids.end()) {
      continue;
    }
    TARN_ASSIGN_OR_RETURN(auto meta, lake.LoadTable(*snapshot, table->table_id));
    for (const DataFileInfo& file : meta->data_files) {
      if (file.data_file_id < min_file_id) continue;
      work.push_back(Work{table->table_id, file});
    }
  }
  PublishReport report;
  report.files_considered = static_cast<int64_t>(work.size());
  for (const Work& item : work) options.watch.Plan(item.file.record_count);
  // An interrupt through the watch stops the workers as `cancel` does.
  std::atomic<bool> interrupted{false};
  auto stopped = [&] {
    return (options.cancel && options.cancel->IsCancelled()) || interrupted.load();
  };
  std::mutex mu;  // guards report
  std::atomic<size_t> next{0};
  auto worker = [&] {
    while (true) {
      if (stopped()) return;
      const size_t i = next.fetch_add(1);
      if (i >= work.size()) return;
      Result<PublishOutcome> outcome = PublishRowSummary(ctx, work[i].table_id, work[i].file);
      if (!options.watch.Done(work[i].file.record_count).ok()) interrupted.store(true);
      std::lock_guard<std::mutex> lock(mu);
      if (!outcome.ok()) {
        report.failed++;
        if (ctx.stats) ctx.stats->publish_failures++;
        if (report.errors.size() < 8) {
          report.errors.push_back(StrCat("'", work[i].file.path, "': ", outcome.status().ToString()));
        }
        continue;
      }
      switch (*outcome) {
        case PublishOutcome::kPublished: report.published++; break;
        case PublishOutcome::kAlreadyPublished: report.already_published++; break;
        case PublishOutcome::kDense: report.dense++; break;
      }
    }
  };
  const int threads = std::clamp(options.max_concurrency, 1, 64);
  std::vector<std::thread> pool;
  for (int t = 1; t < threads && static_cast<size_t>(t) < work.size(); ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  if (interrupted.load()) return Status::Cancelled("Interrupted");
  if (options.cancel && options.cancel->IsCancelled() && next.load() < work.size()) {
    return Status::Cancelled("publishing row summaries cancelled");
  }
  return report;
}

Result<SweepReport> SweepRowSummaries(FileSystem& fs, const std::string& data_path,
                                      const WorkWatch& watch) {
  watch.CountFiles();
  TARN_ASSIGN_OR_RETURN(std::vector<FileInfo> listing, fs.List(data_path, /*recursive=*/true));
  SweepReport report;
  std::set<std::string> present;
  for (const FileInfo& f : listing) {
    if (!f.is_directory) present.insert(f.path);
  }
  report.listed = static_cast<int64_t>(present.size());
  watch.Plan(report.listed);
  for (const std::string& path : present) {
    TARN_RETURN_NOT_OK(watch.Done(1));
    if (!path.ends_with(kRowSummarySuffix)) continue;
    report.sidecars++;
    const std::string data_file = path.substr(0, path.size() - kRowSummarySuffix.size());
    if (present.count(data_file) > 0) continue;
    // A data file the listing missed (written while it ran) keeps its sidecar; a data file is
    // never re-created under a deleted path, so this re-check cannot resurrect garbage.
    TARN_ASSIGN_OR_RETURN(bool exists, fs.Exists(data_file));
    if (exists) continue;
    Status st = fs.Delete(path);
    if (st.ok()) {
      report.deleted++;
    } else if (!st.IsNotFound()) {
      return st;
    }
  }
  return report;
}

}  // namespace tarn
