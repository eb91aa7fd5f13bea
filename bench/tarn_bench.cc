// tarn's side of the benchmarks in bench/run.mjs. Each mode runs one warm-up and then N timed
// repetitions on 2 threads, and prints one JSON object with the best time.
//
//   tarn_bench scan FILE                   full scan decoding every column
//   tarn_bench positions FILE WHERE [noindex]
//                                          selective scan: rows where the SQL predicate WHERE
//                                          holds, projecting only the physical position; row
//                                          groups and pages pruned by statistics (pages only
//                                          without `noindex`), the predicate's columns decoded
//                                          and evaluated
//   tarn_bench filter FILE WHERE [noindex] the same, projecting every column
//   tarn_bench write IN OUT CODEC ROWS     write IN's rows (held in memory) with CODEC and
//                                          ROWS per row group
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <time.h>

#include "parquet/compression.h"
#include "parquet/filtered_scan.h"
#include "tarn/expr.h"
#include "tarn/parquet.h"
#include "tarn/thread_pool.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kRepetitions = 5;

double CpuMs() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// The best CPU time (user + system of every thread) of the last BestOf call: on a shared
// machine it shows the work done, where wall time also shows the waiting for a core.
double g_best_cpu_ms = 0;

double BestOf(int repetitions, const std::function<tarn::Status()>& fn) {
  tarn::Status warmup = fn();
  if (!warmup.ok()) {
    std::fprintf(stderr, "%s\n", warmup.ToString().c_str());
    std::exit(1);
  }
  double best = 1e300;
  double best_cpu = 1e300;
  for (int i = 0; i < repetitions; ++i) {
    auto start = Clock::now();
    const double cpu_start = CpuMs();
    tarn::Status status = fn();
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    best_cpu = std::min(best_cpu, CpuMs() - cpu_start);
    if (!status.ok()) {
      std::fprintf(stderr, "%s\n", status.ToString().c_str());
      std::exit(1);
    }
    best = std::min(best, ms);
  }
  g_best_cpu_ms = best_cpu;
  return best;
}

// Keeps a full scan honest: touches every batch so nothing is optimized away.
tarn::Status ScanAll(const tarn::ParquetReader& reader, const tarn::ScanOptions& options,
                     int64_t* rows) {
  TARN_ASSIGN_OR_RETURN(auto scan, reader.Scan(options));
  *rows = 0;
  while (true) {
    TARN_ASSIGN_OR_RETURN(auto batch, scan->Next());
    if (!batch) break;
    *rows += batch->num_rows;
  }
  return tarn::Status::OK();
}

// Scans with `predicate` pruning and evaluated while decoding, as SQL scans do (its columns
// first, the others only for the rows it keeps), and keeps the rows where it holds; *rows
// counts them.
tarn::Status FilteredScan(const tarn::ParquetReader& reader, const tarn::ScanOptions& options,
                          const std::shared_ptr<const tarn::BoundExpr>& predicate, int64_t* rows) {
  TARN_ASSIGN_OR_RETURN(auto scan, tarn::parquet::ScanWithRowFilter(reader, options, predicate));
  *rows = 0;
  while (true) {
    TARN_ASSIGN_OR_RETURN(auto batch, scan->Next());
    if (!batch) break;
    int64_t selected = 0;
    TARN_ASSIGN_OR_RETURN(auto bits, tarn::SelectRows(*batch, *predicate, &selected));
    *rows += selected;
  }
  return tarn::Status::OK();
}

int Fail(const tarn::Status& status) {
  std::fprintf(stderr, "%s\n", status.ToString().c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: tarn_bench scan|positions|write ...\n");
    return 2;
  }
  std::string mode = argv[1];
  auto fs = tarn::LocalFileSystem();
  tarn::ThreadPool pool(2);

  if (mode == "scan") {
    auto reader = tarn::ParquetReader::Open(fs, argv[2]);
    if (!reader.ok()) return Fail(reader.status());
    tarn::ScanOptions options;
    options.pool = &pool;
    int64_t rows = 0;
    double ms = BestOf(kRepetitions, [&] { return ScanAll(**reader, options, &rows); });
    std::printf("{\"mode\":\"scan\",\"rows\":%lld,\"best_ms\":%.3f,\"best_cpu_ms\":%.3f}\n",
                static_cast<long long>(rows), ms, g_best_cpu_ms);
    return 0;
  }
  if ((mode == "positions" || mode == "filter") && argc >= 4) {
    auto reader = tarn::ParquetReader::Open(fs, argv[2]);
    if (!reader.ok()) return Fail(reader.status());
    const tarn::Schema& schema = (*reader)->schema();
    auto bound = tarn::ParseAndBind(argv[3], schema);
    if (!bound.ok()) return Fail(bound.status());
    tarn::ScanOptions options;
    options.pool = &pool;
    options.predicate = tarn::MakeStatisticsPredicate(**bound, schema);
    options.use_page_index = !(argc >= 5 && std::string(argv[4]) == "noindex");
    // The predicate is evaluated on the scanned batch, so its columns come first and keep
    // their schema positions for the bound expression when every column is projected.
    std::shared_ptr<const tarn::BoundExpr> scan_predicate;
    if (mode == "positions") {
      std::vector<tarn::Field> fields;
      for (int column : (*bound)->ReferencedColumns()) {
        options.columns.push_back(schema.field(column).name);
        fields.push_back(schema.field(column));
      }
      options.with_position = true;
      fields.emplace_back("file_row_number", tarn::DataType(tarn::TypeId::kInt64), false);
      auto rebound = tarn::ParseAndBind(argv[3], tarn::Schema(fields));
      if (!rebound.ok()) return Fail(rebound.status());
      scan_predicate = std::move(rebound).value();
    } else {
      scan_predicate = std::move(bound).value();
    }
    int64_t rows = 0;
    double ms = BestOf(kRepetitions,
                       [&] { return FilteredScan(**reader, options, scan_predicate, &rows); });
    auto scan = tarn::parquet::ScanWithRowFilter(**reader, options, scan_predicate);
    if (!scan.ok()) return Fail(scan.status());
    while (true) {
      auto batch = (*scan)->Next();
      if (!batch.ok()) return Fail(batch.status());
      if (!*batch) break;
    }
    const tarn::ScanMetrics& m = (*scan)->metrics();
    std::printf("{\"mode\":\"%s\",\"rows\":%lld,\"best_ms\":%.3f,\"row_groups_pruned\":%lld,"
                "\"pages_pruned\":%lld,\"rows_decoded\":%lld}\n",
                mode.c_str(), static_cast<long long>(rows), ms,
                static_cast<long long>(m.row_groups_pruned), static_cast<long long>(m.pages_pruned),
                static_cast<long long>(m.rows_decoded));
    return 0;
  }
  if (mode == "write" && argc == 6) {
    auto reader = tarn::ParquetReader::Open(fs, argv[2]);
    if (!reader.ok()) return Fail(reader.status());
    auto all = (*reader)->ReadAll();
    if (!all.ok()) return Fail(all.status());
    auto codec = tarn::parquet::ParseCodec(argv[4]);
    if (!codec.ok()) return Fail(codec.status());
    auto props = tarn::WriterProperties::Builder()
                     .compression(static_cast<int>(*codec))
                     .max_row_group_rows(std::atoll(argv[5]))
                     .Build();
    if (!props.ok()) return Fail(props.status());
    std::string out = argv[3];
    int64_t size = 0;
    const tarn::Batch& batch = **all;
    // Cut the input as a scan would deliver it, outside the timed region.
    std::vector<std::shared_ptr<tarn::Batch>> slices;
    for (int64_t offset = 0; offset < batch.num_rows; offset += 122880) {
      slices.push_back(
          tarn::SliceBatch(batch, offset, std::min<int64_t>(122880, batch.num_rows - offset)));
    }
    double ms = BestOf(kRepetitions, [&]() -> tarn::Status {
      TARN_ASSIGN_OR_RETURN(auto writer,
                            tarn::ParquetWriter::Open(fs, out, *batch.schema, *props));
      for (const auto& slice : slices) TARN_RETURN_NOT_OK(writer->Write(*slice));
      TARN_ASSIGN_OR_RETURN(auto info, writer->Finish());
      size = info.file_size;
      return tarn::Status::OK();
    });
    std::printf("{\"mode\":\"write\",\"rows\":%lld,\"best_ms\":%.3f,\"bytes\":%lld}\n",
                static_cast<long long>(batch.num_rows), ms, static_cast<long long>(size));
    return 0;
  }
  std::fprintf(stderr, "unknown or malformed mode: %s\n", mode.c_str());
  return 2;
}
