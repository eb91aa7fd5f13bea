// tarn's side of the SQL benchmarks in bench/sql.mjs: runs one query through tarn::Session in
// this process, draining every result batch, one warm-up and then N timed repetitions, and
// prints one JSON object with the best wall time, the best process CPU time (both threads
// added up; on a busy machine it shows the work done where wall time shows the waiting too)
// and the result's row count.
//
//   bench_sql [--threads N] [--reps N] [--setup SCRIPT] [--each SCRIPT] SQL
//
// Defaults: 2 threads, 5 repetitions. --setup runs once first (e.g. ATTACH a lake); --each
// runs untimed before every run, the warm-up included (e.g. recreate the table an INSERT fills).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <time.h>

#include "tarn/sql.h"

namespace {

using Clock = std::chrono::steady_clock;

double CpuMs() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// Runs `sql` and drains its rows; the row count keeps the work from being skipped.
tarn::Status RunOnce(tarn::Session* session, const std::string& sql, int64_t* rows) {
  TARN_ASSIGN_OR_RETURN(tarn::QueryResult result, session->Execute(sql));
  *rows = 0;
  while (true) {
    TARN_ASSIGN_OR_RETURN(auto batch, result.reader->Next());
    if (!batch) break;
    *rows += batch->num_rows;
  }
  return tarn::Status::OK();
}

int Usage() {
  std::fprintf(stderr,
               "usage: bench_sql [--threads N] [--reps N] [--setup SCRIPT] [--each SCRIPT] SQL\n");
  return 2;
}

// Runs every statement of `script`, draining their results.
tarn::Status RunScript(tarn::Session* session, const std::string& script) {
  if (script.empty()) return tarn::Status::OK();
  return session->ExecuteScript(script, [](tarn::QueryResult& result) -> tarn::Status {
    while (true) {
      TARN_ASSIGN_OR_RETURN(auto batch, result.reader->Next());
      if (!batch) return tarn::Status::OK();
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 2;
  int repetitions = 5;
  std::string sql;
  std::string setup;
  std::string each;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if ((arg == "--setup" || arg == "--each") && i + 1 < argc) {
      (arg == "--setup" ? setup : each) = argv[++i];
    } else if ((arg == "--threads" || arg == "--reps") && i + 1 < argc) {
      int value = std::atoi(argv[++i]);
      if (value < 1) return Usage();
      (arg == "--threads" ? threads : repetitions) = value;
    } else if (sql.empty()) {
      sql = arg;
    } else {
      return Usage();
    }
  }
  if (sql.empty()) return Usage();

  tarn::Session session;
  tarn::Result<tarn::QueryResult> set = session.Execute("SET threads = " + std::to_string(threads));
  if (!set.ok()) {
    std::fprintf(stderr, "%s\n", set.status().ToString().c_str());
    return 1;
  }
  tarn::Status prepared = RunScript(&session, setup);
  if (prepared.ok()) prepared = RunScript(&session, each);
  if (!prepared.ok()) {
    std::fprintf(stderr, "%s\n", prepared.ToString().c_str());
    return 1;
  }
  int64_t rows = 0;
  tarn::Status warmup = RunOnce(&session, sql, &rows);
  if (!warmup.ok()) {
    std::fprintf(stderr, "%s\n", warmup.ToString().c_str());
    return 1;
  }
  double best = 1e300;
  double best_cpu = 1e300;
  for (int i = 0; i < repetitions; ++i) {
    tarn::Status again = RunScript(&session, each);
    if (!again.ok()) {
      std::fprintf(stderr, "%s\n", again.ToString().c_str());
      return 1;
    }
    auto start = Clock::now();
    double cpu_start = CpuMs();
    tarn::Status status = RunOnce(&session, sql, &rows);
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    best_cpu = std::min(best_cpu, CpuMs() - cpu_start);
    if (!status.ok()) {
      std::fprintf(stderr, "%s\n", status.ToString().c_str());
      return 1;
    }
    best = std::min(best, ms);
  }
  std::printf("{\"best_ms\": %.3f, \"best_cpu_ms\": %.3f, \"rows\": %lld, \"threads\": %d}\n",
              best, best_cpu, static_cast<long long>(rows), threads);
  return 0;
}
