// Row summaries: the cost of a summary miss from each source, reproducing the measurement of
// the published-row-summaries design. One million sparse row ids over a ten-million range,
// written in random file order next to six user columns. Measures bytes read and CPU time to
//   - derive the summary from the data file (footer + row-id column, decode, sort, build),
//   - load the sidecar's set only (what a lookup needs),
//   - load the sidecar's set and order (a located delete's ceiling),
//   - resolve ten positions from a membership summary (order entries by arithmetic),
//   - publish the sidecar (derive + encode + write).
// Usage: bench_rowsum [rounds=3] [dir=/tmp]
#include <time.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
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

struct Measure {
  std::vector<double> ms;
  int64_t bytes = 0;
  int64_t reads = 0;
  std::string Range() const {
    auto [lo, hi] = std::minmax_element(ms.begin(), ms.end());
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%.2f–%.2f ms", *lo, *hi);
    return buf;
  }
  double Median() const {
    std::vector<double> s = ms;
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
  }
};

int Run(int rounds, const std::string& base_dir) {
  auto local = LocalFileSystem();
  const std::string data_path = base_dir + "/tarn-bench-rowsum/";
  (void)local->CreateDirectories(data_path);
  const std::string relative = "main/t/ducklake-bench.parquet";
  (void)local->CreateDirectories(data_path + "main/t");

  // One million distinct ids from [0, 10M), in random file order (an update rewrite's shape).
  std::mt19937_64 rng(20260930);
  std::vector<int64_t> all(10000000);
  std::iota(all.begin(), all.end(), int64_t{0});
  for (int64_t i = 0; i < 1000000; ++i) {
    std::swap(all[i], all[i + static_cast<int64_t>(rng() % (all.size() - i))]);
  }
  std::vector<int64_t> ids(all.begin(), all.begin() + 1000000);
  all.clear();
  all.shrink_to_fit();

  std::vector<Field> fields;
  for (int c = 0; c < 6; ++c) {
    fields.emplace_back("c" + std::to_string(c), DataType(c % 2 ? TypeId::kFloat64 : TypeId::kInt64),
                        true, c + 1);
  }
  fields.emplace_back(kEmbeddedRowIdName, DataType(TypeId::kInt64), true, kEmbeddedRowIdFieldId);
  auto schema = std::make_shared<Schema>(fields);
  auto props = *WriterProperties::Builder().Build();
  auto writer = ParquetWriter::Open(local, data_path + relative, *schema, props);
  if (!writer.ok()) {
    std::fprintf(stderr, "%s\n", writer.status().ToString().c_str());
    return 1;
  }
  for (int64_t start = 0; start < 1000000; start += 100000) {
    std::vector<std::shared_ptr<Column>> columns;
    for (int c = 0; c < 6; ++c) {
      ColumnBuilder b{fields[c].type};
      for (int64_t r = start; r < start + 100000; ++r) {
        if (c % 2) {
          b.AppendNumber<double>(static_cast<double>(r) * 0.5 + c);
        } else {
          b.AppendNumber<int64_t>(r * (c + 1));
        }
      }
      columns.push_back(b.Finish());
    }
    ColumnBuilder b{DataType(TypeId::kInt64)};
    for (int64_t r = start; r < start + 100000; ++r) b.AppendNumber<int64_t>(ids[r]);
    columns.push_back(b.Finish());
    if (!(*writer)->Write(*MakeBatch(schema, columns)).ok()) return 1;
  }
  auto written = (*writer)->Finish();
  if (!written.ok()) return 1;
  DataFileInfo file;
  file.data_file_id = 1;
  file.path = data_path + relative;
  file.relative_path = relative;
  file.record_count = 1000000;
  file.file_size_bytes = written->file_size;
  file.footer_size = written->footer_size;

  auto counting = std::make_shared<CountingFileSystem>(local);
  RowSummaryContext ctx;
  ctx.fs = counting;
  ctx.data_path = data_path;
  auto reset = [&] {
    counting->bytes = 0;
    counting->reads = 0;
  };
  auto time = [&](Measure* m, auto&& fn) {
    reset();
    const double t0 = CpuMs();
    if (!fn()) std::exit(1);
    m->ms.push_back(CpuMs() - t0);
    m->bytes = counting->bytes;
    m->reads = counting->reads;
  };

  Measure derive, publish, set_only, whole, ten_positions;
  int64_t sidecar_size = 0, set_len = 0, containers = 0;
  for (int round = 0; round < rounds; ++round) {
    time(&derive, [&] { return DeriveRowSummary(counting, file).ok(); });
    (void)local->Delete(SidecarPath(file));
    time(&publish, [&] {
      auto r = PublishRowSummary(ctx, 1, file);
      return r.ok() && *r == PublishOutcome::kPublished;
    });
    auto sidecar_info = local->Stat(SidecarPath(file));
    sidecar_size = sidecar_info.ok() ? sidecar_info->size : 0;
    FileSummary membership;
    time(&set_only, [&] {
      auto s = LoadFileSummary(ctx, 1, file, SummaryNeed::kMembership);
      if (!s.ok() || s->source != SummarySource::kSidecar) return false;
      membership = *s;
      return true;
    });
    set_len = static_cast<int64_t>(membership.set->EncodedSize());
    containers = membership.set->container_count();
    time(&whole, [&] {
      auto s = LoadFileSummary(ctx, 1, file, SummaryNeed::kPositions);
      return s.ok() && s->has_order();
    });
    std::vector<uint64_t> wanted;
    for (int k = 0; k < 10; ++k) wanted.push_back(static_cast<uint64_t>(ids[rng() % ids.size()]));
    std::sort(wanted.begin(), wanted.end());
    wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
    time(&ten_positions, [&] {
      std::vector<std::vector<int64_t>> positions;
      return ResolvePositions(ctx, 1, file, membership, wanted, &positions).ok();
    });
  }
  auto reader = std::move(ParquetReader::Open(local, file.path).value());
  std::printf("data file: %lld bytes, footer %lld bytes, %d row groups; sidecar %lld bytes "
              "(set %lld bytes, %lld containers)\n\n",
              static_cast<long long>(file.file_size_bytes), static_cast<long long>(reader->footer_size()),
              reader->num_row_groups(), static_cast<long long>(sidecar_size),
              static_cast<long long>(set_len), static_cast<long long>(containers));
  std::printf("| source | bytes read | reads | CPU (%d rounds) |\n|---|---:|---:|---|\n", rounds);
  auto row = [](const char* name, const Measure& m) {
    std::printf("| %s | %lld | %lld | %s |\n", name, static_cast<long long>(m.bytes),
                static_cast<long long>(m.reads), m.Range().c_str());
  };
  row("derive from the data file", derive);
  row("sidecar, set only", set_only);
  row("sidecar, set + order", whole);
  row("sidecar, 10 positions from a membership summary", ten_positions);
  row("publish (derive + encode + write)", publish);
  std::printf("\nderive / set-only: %.1fx bytes, %.1fx CPU; derive / set+order: %.1fx bytes, %.1fx CPU\n",
              static_cast<double>(derive.bytes) / set_only.bytes, derive.Median() / set_only.Median(),
              static_cast<double>(derive.bytes) / whole.bytes, derive.Median() / whole.Median());
  (void)local->Delete(SidecarPath(file));
  (void)local->Delete(file.path);
  return 0;
}

}  // namespace
}  // namespace tarn

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  const std::string dir = argc > 2 ? argv[2] : "/tmp";
  return tarn::Run(rounds, dir);
}
