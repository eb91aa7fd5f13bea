// A cold process over the seed's fan-out: 353 embedded-row-id files, each the seed's shape (one
// million ids drawn from [0, 10M) in random file order, beside one user column), every file's
// bounds admitting every id. Each measurement starts cold — a new FileDirectory, no summary
// cache (the operating system's page cache stays warm) — and reports the bytes read through the
// FileSystem, the reads, and the process CPU:
//   one id         — FileDirectory::Place of one id (held by about a tenth of the files) with
//                    published sidecars asked through their set index (the default), with every
//                    set loaded whole (probe_lookups = 0), and deriving from the data files (no
//                    sidecars);
//   a located delete — Place of one id from each file (353 ids: every file is touched), with
//                    the positions of every id found, from sidecars and by deriving.
// Usage: bench_rowsum_cold [files=353] [dir=/tmp] [rounds=3]
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "counting_file_system.h"
#include "tarn/columnar.h"
#include "tarn/parquet.h"
#include "tarn/rowid.h"

namespace tarn {
namespace {

using bench::CountingFileSystem;
using bench::CpuMs;

void Check(const Status& st, const char* what) {
  if (!st.ok()) {
    std::fprintf(stderr, "%s: %s\n", what, st.ToString().c_str());
    std::exit(1);
  }
}

// One million distinct ids of [0, 10M), in random file order.
std::vector<int64_t> SeedShapedIds(uint64_t seed, std::vector<int64_t>* scratch) {
  std::mt19937_64 rng(seed);
  scratch->resize(10000000);
  std::iota(scratch->begin(), scratch->end(), int64_t{0});
  for (int64_t i = 0; i < 1000000; ++i) {
    std::swap((*scratch)[i], (*scratch)[i + static_cast<int64_t>(rng() % (scratch->size() - i))]);
  }
  return std::vector<int64_t>(scratch->begin(), scratch->begin() + 1000000);
}

DataFileInfo WriteFile(const std::shared_ptr<FileSystem>& fs, const std::string& data_path,
                       const std::string& relative, int64_t id, const std::vector<int64_t>& ids) {
  std::vector<Field> fields = {Field("c0", DataType(TypeId::kInt64), true, 1),
                               Field(kEmbeddedRowIdName, DataType(TypeId::kInt64), true, kEmbeddedRowIdFieldId)};
  auto schema = std::make_shared<Schema>(fields);
  auto props = *WriterProperties::Builder().Build();
  auto writer = ParquetWriter::Open(fs, data_path + relative, *schema, props);
  Check(writer.status(), "open writer");
  for (int64_t start = 0; start < static_cast<int64_t>(ids.size()); start += 100000) {
    ColumnBuilder user{DataType(TypeId::kInt64)}, row_ids{DataType(TypeId::kInt64)};
    for (int64_t r = start; r < start + 100000; ++r) {
      user.AppendNumber<int64_t>(r % 7);
      row_ids.AppendNumber<int64_t>(ids[r]);
    }
    Check((*writer)->Write(*MakeBatch(schema, {user.Finish(), row_ids.Finish()})), "write");
  }
  auto written = (*writer)->Finish();
  Check(written.status(), "finish");
  DataFileInfo file;
  file.data_file_id = id;
  file.begin_snapshot = 1;
  file.path = data_path + relative;
  file.relative_path = relative;
  file.record_count = static_cast<int64_t>(ids.size());
  file.file_size_bytes = written->file_size;
  file.footer_size = written->footer_size;
  return file;
}

struct Measure {
  std::vector<double> ms;
  int64_t bytes = 0, reads = 0, placements = 0, probes = 0, derived = 0;
};

int Main(int file_count, const std::string& base, int rounds) {
  auto local = LocalFileSystem();
  const std::string data_path = base + "/tarn-bench-rowsum-cold-" + std::to_string(getpid()) + "/";
  Check(local->CreateDirectories(data_path + "main/t"), "mkdir");
  auto info = std::make_shared<TableInfo>();
  info->table_id = 1;
  auto table = std::make_shared<TableMetadata>();
  table->snapshot_id = 1;
  table->table = info;
  std::vector<int64_t> scratch;
  std::vector<int64_t> one_per_file;  // an id of each file
  std::mt19937_64 rng(353);
  int64_t data_bytes = 0, sidecar_bytes = 0, set_bytes = 0;
  const double setup_start = CpuMs();
  for (int f = 0; f < file_count; ++f) {
    const std::vector<int64_t> ids = SeedShapedIds(20260930 + f, &scratch);
    one_per_file.push_back(ids[rng() % ids.size()]);
    DataFileInfo file = WriteFile(local, data_path, "main/t/f" + std::to_string(f) + ".parquet", f + 1, ids);
    RowSummaryContext publish;
    publish.fs = local;
    publish.data_path = data_path;
    auto published = PublishRowSummary(publish, 1, file);
    Check(published.status(), "publish");
    data_bytes += file.file_size_bytes;
    auto sidecar = local->Stat(SidecarPath(file));
    Check(sidecar.status(), "stat");
    sidecar_bytes += sidecar->size;
    table->data_files.push_back(std::move(file));
  }
  scratch.clear();
  scratch.shrink_to_fit();
  std::sort(one_per_file.begin(), one_per_file.end());
  one_per_file.erase(std::unique(one_per_file.begin(), one_per_file.end()), one_per_file.end());
  {
    auto counting = std::make_shared<CountingFileSystem>(local);
    RowSummaryContext ctx;
    ctx.fs = counting;
    ctx.data_path = data_path;
    auto s = LoadFileSummary(ctx, 1, table->data_files[0], SummaryNeed::kMembership);
    Check(s.status(), "load");
    set_bytes = s->set->EncodedSize();
  }
  std::printf("%d files: %lld data bytes, %lld sidecar bytes (a set: %lld bytes); setup %.1f s CPU\n",
              file_count, static_cast<long long>(data_bytes), static_cast<long long>(sidecar_bytes),
              static_cast<long long>(set_bytes), (CpuMs() - setup_start) / 1000);

  auto counting = std::make_shared<CountingFileSystem>(local);
  enum class Source { kProbe, kWholeSet, kDerive };
  auto measure = [&](Source source, const std::vector<int64_t>& asks, Measure* m) {
    RowSummaryContext ctx;
    ctx.fs = counting;
    ctx.data_path = data_path;
    ctx.stats = std::make_shared<RowSummaryStats>();
    ctx.use_sidecars = source != Source::kDerive;
    FileDirectoryOptions options;
    if (source == Source::kWholeSet) options.probe_lookups = 0;
    counting->bytes = 0;
    counting->reads = 0;
    const double t0 = CpuMs();
    auto directory = FileDirectory::Build(table, ctx, options);
    Check(directory.status(), "build");
    auto placed = (*directory)->Place(asks);
    Check(placed.status(), "place");
    m->ms.push_back(CpuMs() - t0);
    m->bytes = counting->bytes;
    m->reads = counting->reads;
    m->placements = static_cast<int64_t>(placed->placements.size());
    m->probes = ctx.stats->sidecar_probes;
    m->derived = ctx.stats->derived;
  };
  auto print = [&](const char* what, const char* source, const Measure& m) {
    auto [lo, hi] = std::minmax_element(m.ms.begin(), m.ms.end());
    std::printf("| %s | %s | %lld | %lld | %.1f–%.1f | %lld | %lld | %lld |\n", what, source,
                static_cast<long long>(m.bytes), static_cast<long long>(m.reads), *lo, *hi,
                static_cast<long long>(m.placements), static_cast<long long>(m.probes),
                static_cast<long long>(m.derived));
  };
  std::printf("\n| statement | source | bytes read | reads | CPU ms (%d rounds) | placements | probes | derived |\n"
              "|---|---|---:|---:|---|---:|---:|---:|\n", rounds);
  Measure probe, whole, derive_one, delete_sidecar, delete_derive;
  for (int round = 0; round < rounds; ++round) {
    const std::vector<int64_t> one = {one_per_file[rng() % one_per_file.size()]};
    measure(Source::kProbe, one, &probe);
    measure(Source::kWholeSet, one, &whole);
    measure(Source::kDerive, one, &derive_one);
    measure(Source::kProbe, one_per_file, &delete_sidecar);
    measure(Source::kDerive, one_per_file, &delete_derive);
  }
  print("one id", "sidecars, set index (probe)", probe);
  print("one id", "sidecars, whole sets", whole);
  print("one id", "derive from the data files", derive_one);
  char label[64];
  std::snprintf(label, sizeof(label), "located delete, %zu ids", one_per_file.size());
  print(label, "sidecars", delete_sidecar);
  print(label, "derive from the data files", delete_derive);
  std::filesystem::remove_all(data_path);
  return 0;
}

}  // namespace
}  // namespace tarn

int main(int argc, char** argv) {
  const int files = argc > 1 ? std::max(1, std::atoi(argv[1])) : 353;
  const std::string dir = argc > 2 ? argv[2] : "/tmp";
  const int rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 3;
  return tarn::Main(files, dir, rounds);
}
