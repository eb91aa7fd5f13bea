// A warm `SELECT a FROM t WHERE rowid = x` through SQL over a table of 1,024 embedded-row-id
// files (an UPDATE of 2,097,152 rows written 2,048 rows a file, beside the fully deleted file it
// replaced), every summary already in the process's memory cache. Reports, in µs of CPU:
//   parse only      — sql::ParseStatements of the statement's text;
//   statement       — Session::Execute and draining its rows, with the process keeping the
//                     table's directory across statements (the default) and with the kept
//                     directories dropped before each statement (a directory per statement,
//                     as before they were kept);
//   placement       — table_internal::PlaceRowIds alone for one id (what a statement spends
//                     placing it), kept and per statement, and after the kept directory's
//                     index is built (the default policy builds it once its lookups have cost
//                     about as much: tens of thousands of lookups here).
// Usage: bench_rowid_sql [statements=2000] [dir=/tmp] [placement]  (placement: skip the statements)
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "sql/parse/statement_parser.h"
#include "table/rowid_lookup.h"
#include "tarn/lake_write.h"
#include "tarn/rowid.h"
#include "tarn/sql.h"

namespace tarn {
namespace {

double CpuNs() {
  timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e9 + static_cast<double>(ts.tv_nsec);
}

constexpr int64_t kRows = 2097152;

Status Run(Session& session, const std::string& sql, int64_t* rows = nullptr) {
  TARN_ASSIGN_OR_RETURN(QueryResult result, session.Execute(sql));
  int64_t n = 0;
  if (result.reader) {
    while (true) {
      TARN_ASSIGN_OR_RETURN(auto batch, result.reader->Next());
      if (!batch) break;
      n += batch->num_rows;
    }
  }
  if (rows) *rows = n;
  return Status::OK();
}

int Main(size_t statements, const std::string& base, bool placement_only) {
  const std::string dir = base + "/tarn-bench-rowid-sql-" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  Session session;
  AttachOptions attach;
  attach.data_path = dir + "/data/";
  attach.create_if_missing = true;
  attach.data_inlining_row_limit = 0;
  Status st = session.Attach("ducklake:sqlite:" + dir + "/lake.sqlite", attach);
  auto check = [](const Status& s, const char* what) {
    if (!s.ok()) {
      std::fprintf(stderr, "%s: %s\n", what, s.ToString().c_str());
      std::exit(1);
    }
  };
  check(st, "attach");
  check(Run(session, "CREATE TABLE t (a BIGINT)"), "create");
  check(Run(session, "INSERT INTO t SELECT i FROM range(" + std::to_string(kRows) + ") r(i)"), "insert");
  // One file per 2,048-row slice: 1,024 embedded-row-id files.
  check(Run(session, "SET ducklake_target_file_size = '1KB'"), "set");
  check(Run(session, "UPDATE t SET a = a + 1"), "update");
  int64_t files = 0;
  check(Run(session, "SELECT * FROM ducklake_list_files('lake', 't')", &files), "files");
  std::printf("lake: %lld rows, %lld data files at the latest snapshot\n", static_cast<long long>(kRows),
              static_cast<long long>(files));

  std::mt19937_64 rng(7);
  std::vector<std::string> texts(statements);
  std::vector<int64_t> ids(statements);
  for (size_t q = 0; q < statements; ++q) {
    ids[q] = static_cast<int64_t>(rng() % kRows);
    texts[q] = "SELECT a FROM t WHERE rowid = " + std::to_string(ids[q]);
  }
  // Warm: every summary in the cache, the kept directory built.
  for (size_t q = 0; q < std::min<size_t>(statements, 50); ++q) check(Run(session, texts[q]), "warm-up");

  std::printf("| what | µs CPU per statement |\n|---|---:|\n");
  {
    const double t0 = CpuNs();
    size_t parsed = 0;
    for (const std::string& text : texts) parsed += sql::ParseStatements(text).ok();
    std::printf("| parse only | %.2f |\n", (CpuNs() - t0) / statements / 1000);
    if (parsed != statements) return 1;
  }
  for (bool kept : {true, false}) {
    if (placement_only) break;
    int64_t total_rows = 0;
    const double t0 = CpuNs();
    for (const std::string& text : texts) {
      if (!kept) table_internal::ForgetKeptDirectories();
      int64_t rows = 0;
      check(Run(session, text, &rows), "statement");
      total_rows += rows;
    }
    std::printf("| statement, %s | %.2f |\n", kept ? "directory kept" : "directory per statement",
                (CpuNs() - t0) / statements / 1000);
    if (total_rows != static_cast<int64_t>(statements)) {
      std::fprintf(stderr, "%lld rows for %zu statements\n", static_cast<long long>(total_rows), statements);
      return 1;
    }
  }
  // The placement alone, on the table as a statement loads it.
  Lake& lake = *session.attached_lake();
  auto snapshot = lake.LoadSnapshot();
  check(snapshot.status(), "snapshot");
  auto table = lake.LoadTable(**snapshot, (*snapshot)->FindTable("main", "t")->table_id);
  check(table.status(), "table");
  std::shared_ptr<FileSystem> fs = LocalFileSystem();
  auto place = [&](bool kept, size_t count) {
    size_t found = 0;
    const double t0 = CpuNs();
    for (size_t q = 0; q < count; ++q) {
      if (!kept) table_internal::ForgetKeptDirectories();
      auto placed = table_internal::PlaceRowIds(lake, fs, **table, std::span<const int64_t>(&ids[q % statements], 1));
      check(placed.status(), "place");
      found += placed->size();
    }
    const double us = (CpuNs() - t0) / count / 1000;
    return found >= count ? us : -1.0;  // each id sits in its new file (and its deleted old row)
  };
  place(true, 10);
  std::printf("| placement, directory kept (no index yet) | %.2f |\n", place(true, statements));
  std::printf("| placement, directory per statement | %.2f |\n", place(false, std::min<size_t>(statements, 500)));
  // Enough lookups for the kept directory to build its index, then timed again.
  place(true, 40000);
  std::printf("| placement, directory kept, indexed | %.2f |\n", place(true, statements));
  std::filesystem::remove_all(dir);
  return 0;
}

}  // namespace
}  // namespace tarn

int main(int argc, char** argv) {
  const size_t statements = argc > 1 ? static_cast<size_t>(std::max(100L, std::atol(argv[1]))) : 2000;
  const std::string dir = argc > 2 ? argv[2] : "/tmp";
  const bool placement_only = argc > 3 && std::string(argv[3]) == "placement";
  return tarn::Main(statements, dir, placement_only);
}
