// A warm row-id lookup (`WHERE rowid = x`) over a table of 1,024 embedded-row-id files, every
// summary in the process's memory cache: the CPU of placing one id (a) with a fresh
// FileDirectory per lookup, as a statement builds one (every file's summary fetched from the
// cache again), and (b) with one directory serving every lookup, without and with its index
// (and what the first lookup, which builds the index, costs). Two layouts of 1,000 rows per
// file:
//   disjoint     — file f holds ids from its own range [10,000·f, 10,000·(f + 1)), as
//                  compaction outputs that preserved ids;
//   interleaved  — every file holds ids spread over the whole [0, 10M) range, as update
//                  rewrites of rows scattered over the table.
// Each is asked for ids that exist and for ids that do not; no file is read.
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
  std::printf("| layout | directory | asked | µs CPU per lookup | placements |\n|---|---|---|---:|---:|\n");
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
    std::vector<int64_t> present_asks(queries), absent_asks(queries);
    for (int64_t& ask : present_asks) {
      const auto& file = ids[rng() % kFiles];
      ask = static_cast<int64_t>(file[rng() % file.size()]);
    }
    for (int64_t& ask : absent_asks) {
      // Inside the ids' range, in no file.
      const uint64_t span = interleaved ? 10000000 : uint64_t{10000} * kFiles;
      do {
        ask = static_cast<int64_t>(rng() % span);
      } while (std::any_of(ids.begin(), ids.end(), [&](const std::vector<uint64_t>& v) {
        return std::binary_search(v.begin(), v.end(), static_cast<uint64_t>(ask));
      }));
    }
    const char* layout = interleaved ? "interleaved" : "disjoint";
    // A fresh directory per lookup, as a statement builds one: every file's summary comes from
    // the cache again.
    for (bool present : {true, false}) {
      const std::vector<int64_t>& asks = present ? present_asks : absent_asks;
      const size_t fresh_queries = std::min<size_t>(queries, 2000);
      size_t placements = 0;
      const double t0 = CpuNs();
      for (size_t q = 0; q < fresh_queries; ++q) {
        auto directory = std::move(FileDirectory::Build(table, ctx).value());
        auto placed = directory->Place(std::span<const int64_t>(&asks[q], 1));
        if (!placed.ok()) return 1;
        placements += placed->placements.size();
      }
      std::printf("| %s | fresh per lookup | %s | %.2f | %zu of %zu |\n", layout,
                  present ? "an id in one file" : "an id in no file",
                  (CpuNs() - t0) / static_cast<double>(fresh_queries) / 1000, placements, fresh_queries);
    }
    // One directory serving every lookup, without and with its index.
    for (bool use_index : {false, true}) {
      FileDirectoryOptions options;
      options.index_min_files = use_index ? 1 : 0;
      options.index_work_per_id = 0;  // built by the first lookup, which is timed apart
      auto directory = std::move(FileDirectory::Build(table, ctx, options).value());
      const double first_start = CpuNs();
      if (!directory->Place(std::vector<int64_t>{present_asks[0]}).ok()) return 1;
      const double first_us = (CpuNs() - first_start) / 1000;
      if (use_index) {
        std::printf("| %s | reused, first lookup (builds the index over %lld files) | an id in one file | %.2f | |\n",
                    layout, static_cast<long long>(directory->counts().indexed), first_us);
      }
      for (bool present : {true, false}) {
        const std::vector<int64_t>& asks = present ? present_asks : absent_asks;
        size_t placements = 0;
        const double t0 = CpuNs();
        for (int64_t ask : asks) {
          auto placed = directory->Place(std::span<const int64_t>(&ask, 1));
          if (!placed.ok()) return 1;
          placements += placed->placements.size();
        }
        std::printf("| %s | reused, %s | %s | %.2f | %zu of %zu |\n", layout, use_index ? "indexed" : "no index",
                    present ? "an id in one file" : "an id in no file",
                    (CpuNs() - t0) / static_cast<double>(queries) / 1000, placements, queries);
      }
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
