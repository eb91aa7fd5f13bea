// A warm row-id lookup (`WHERE rowid = x`) over a table of 1,024 embedded-row-id files: the CPU
// of FileDirectory::Place for one id once every file's summary is resident (the state after a
// first lookup), which is what such a query costs past parsing and planning. Two layouts of
// 1,000 rows per file:
//   disjoint     — file f holds ids from its own range [10,000·f, 10,000·(f + 1)), as
//                  compaction outputs that preserved ids;
//   interleaved  — every file holds ids spread over the whole [0, 10M) range, as update
//                  rewrites of rows scattered over the table.
// Each is asked for ids that exist and for ids that do not. Summaries come from an in-memory
// cache (no file is read).
// Usage: bench_rowid_lookup [queries=20000]
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "tarn/rowid.h"

namespace tarn {
namespace {

double CpuNs() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + static_cast<double>(ts.tv_nsec);
}

constexpr int kFiles = 1024;
constexpr int kRowsPerFile = 1000;

int Run(size_t queries) {
  std::printf("| layout | ask | files | µs CPU per lookup | placements |\n|---|---|---:|---:|---:|\n");
  for (bool interleaved : {false, true}) {
    std::mt19937_64 rng(interleaved ? 2 : 1);
    // Each file's ids, ascending.
    std::vector<std::vector<uint64_t>> ids(kFiles);
    if (interleaved) {
      std::vector<uint64_t> all(10000000);
      std::iota(all.begin(), all.end(), uint64_t{0});
      for (size_t i = 0; i < kFiles * kRowsPerFile; ++i) std::swap(all[i], all[i + rng() % (all.size() - i)]);
      for (int f = 0; f < kFiles; ++f) {
        ids[f].assign(all.begin() + f * kRowsPerFile, all.begin() + (f + 1) * kRowsPerFile);
        std::sort(ids[f].begin(), ids[f].end());
      }
    } else {
      for (int f = 0; f < kFiles; ++f) {
        std::vector<uint64_t> range(10000);
        std::iota(range.begin(), range.end(), uint64_t{10000} * f);
        std::shuffle(range.begin(), range.end(), rng);
        ids[f].assign(range.begin(), range.begin() + kRowsPerFile);
        std::sort(ids[f].begin(), ids[f].end());
      }
    }
    auto info = std::make_shared<TableInfo>();
    info->table_id = 1;
    auto table = std::make_shared<TableMetadata>();
    table->snapshot_id = 1;
    table->table = info;
    const std::string data_path = "/lake/";
    auto cache = *SummaryCache::Open(SummaryCacheOptions{});
    for (int f = 0; f < kFiles; ++f) {
      DataFileInfo file;
      file.data_file_id = f + 1;
      file.begin_snapshot = 1;
      file.relative_path = "main/t/f" + std::to_string(f) + ".parquet";
      file.path = data_path + file.relative_path;
      file.record_count = kRowsPerFile;
      file.file_size_bytes = 100000 + f;
      table->data_files.push_back(file);
      std::vector<int64_t> file_order(ids[f].begin(), ids[f].end());
      PositionedRowSet rows = *PositionedRowSet::FromFileOrder(file_order);
      FileSummary summary;
      summary.identity = IdentityOf(1, file, data_path);
      summary.physical_rows = rows.physical_rows;
      summary.set = rows.set;
      summary.order = rows.order;
      cache->Insert(data_path, summary, /*write_disk=*/false);
    }
    RowSummaryContext ctx;
    ctx.fs = NewMemoryFileSystem();
    ctx.data_path = data_path;
    ctx.cache = cache;
    auto directory = std::move(FileDirectory::Build(table, ctx).value());
    // The first lookup makes every summary resident in the directory.
    if (!directory->Place(std::vector<int64_t>{0}).ok()) return 1;
    for (bool present : {true, false}) {
      std::vector<int64_t> asks(queries);
      for (int64_t& ask : asks) {
        if (present) {
          const auto& file = ids[rng() % kFiles];
          ask = static_cast<int64_t>(file[rng() % file.size()]);
        } else {
          // Inside the ids' range, in no file.
          const uint64_t span = interleaved ? 10000000 : uint64_t{10000} * kFiles;
          do {
            ask = static_cast<int64_t>(rng() % span);
          } while (std::any_of(ids.begin(), ids.end(), [&](const std::vector<uint64_t>& v) {
            return std::binary_search(v.begin(), v.end(), static_cast<uint64_t>(ask));
          }));
        }
      }
      size_t placements = 0;
      const double t0 = CpuNs();
      for (int64_t ask : asks) {
        auto placed = directory->Place(std::span<const int64_t>(&ask, 1));
        if (!placed.ok()) return 1;
        placements += placed->placements.size();
      }
      const double per = (CpuNs() - t0) / static_cast<double>(queries) / 1000;
      std::printf("| %s | %s | %d | %.2f | %zu |\n", interleaved ? "interleaved" : "disjoint",
                  present ? "an id in one file" : "an id in no file",
                  kFiles, per, placements);
    }
  }
  return 0;
}

}  // namespace
}  // namespace tarn

int main(int argc, char** argv) {
  const size_t queries = argc > 1 ? static_cast<size_t>(std::max(100L, std::atol(argv[1]))) : 20000;
  return tarn::Run(queries);
}
