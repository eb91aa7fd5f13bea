// Writing a DuckLake lake: delete 1% of the rows by predicate, update 1% of the rows, insert
// 10M rows, each one WriteTransaction committed as one snapshot.
//
//   bench_write gen DIR ROWS
//       Creates DIR/lake.sqlite (CreateLake, data under DIR/data/) with table main.t(id BIGINT,
//       k INTEGER, v DOUBLE, s VARCHAR) and inserts ROWS rows in 10 transactions (10 files,
//       snappy, 122,880-row groups; the lake's defaults). Row i: id = i,
//       k = (i * 7919) % 1000, v = (i % 100000) / 100.0, s = 'name-' || (i % 5000).
//       Prints a JSON line with each data file's path, row_id_start and record_count.
//   bench_write run DIR delete|update|insert [REPS] [INSERT_ROWS]
//       Times the operation on a fresh copy of the lake each repetition (the catalog copied,
//       the immutable data files hard-linked; the copy is not timed), one warm-up and REPS
//       (default 3) timed runs:
//         delete  DELETE FROM t WHERE k < 10             (1% of the rows)
//         update  UPDATE t SET v = v + 1 WHERE k >= 990   (1% of the rows)
//         insert  INSERT INTO t of INSERT_ROWS (default 10M) rows made by the formula above
//                 (the rows are generated before the clock starts)
//       The time covers opening the lake, the transaction and its commit. Prints
//       {"best_ms", "best_cpu_ms" (user+sys of the process), "rows" (rows the operation
//       touched), "files_written"}.
#include <sys/resource.h>

#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "tarn/catalog.h"
#include "tarn/columnar.h"
#include "tarn/io.h"
#include "tarn/lake_write.h"
#include "tarn/table_write.h"

namespace {

using namespace tarn;
namespace fs = std::filesystem;

constexpr int64_t kGenFiles = 10;
constexpr int64_t kBatchRows = 122880;

int Fail(const Status& status) {
  std::fprintf(stderr, "bench_write: %s\n", status.ToString().c_str());
  return 1;
}

double CpuMs() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

std::shared_ptr<Schema> RowSchema() {
  return std::make_shared<Schema>(std::vector<Field>{
      Field("id", DataType(TypeId::kInt64)), Field("k", DataType(TypeId::kInt32)),
      Field("v", DataType(TypeId::kFloat64)), Field("s", DataType(TypeId::kVarchar))});
}

// Rows [first, first + count) by the formula of the header.
std::vector<std::shared_ptr<Batch>> MakeRows(int64_t first, int64_t count) {
  auto schema = RowSchema();
  std::vector<std::shared_ptr<Batch>> batches;
  for (int64_t start = first; start < first + count; start += kBatchRows) {
    const int64_t n = std::min(kBatchRows, first + count - start);
    ColumnBuilder id(DataType(TypeId::kInt64)), k(DataType(TypeId::kInt32)),
        v(DataType(TypeId::kFloat64)), s(DataType(TypeId::kVarchar));
    for (int64_t i = start; i < start + n; ++i) {
      id.AppendNumber<int64_t>(i);
      k.AppendNumber<int32_t>(static_cast<int32_t>((i * 7919) % 1000));
      v.AppendNumber<double>(static_cast<double>(i % 100000) / 100.0);
      s.AppendBytes("name-" + std::to_string(i % 5000));
    }
    auto batch = MakeBatch(schema, {id.Finish(), k.Finish(), v.Finish(), s.Finish()});
    batch->num_rows = n;
    batches.push_back(std::move(batch));
  }
  return batches;
}

Result<std::unique_ptr<Lake>> OpenLake(const std::string& dir) {
  LakeOpenOptions options;
  options.read_only = false;
  options.data_path = dir + "/data/";
  return Lake::Open("ducklake:sqlite:" + dir + "/lake.sqlite", options);
}

int Generate(const std::string& dir, int64_t rows) {
  fs::create_directories(dir);
  CreateLakeOptions options;
  options.data_path = dir + "/data/";
  auto lake = CreateLake("ducklake:sqlite:" + dir + "/lake.sqlite", options);
  if (!lake.ok()) return Fail(lake.status());
  {
    auto txn = WriteTransaction::Begin(**lake, LocalFileSystem());
    if (!txn.ok()) return Fail(txn.status());
    Status status = (*txn)->CreateTable("main", "t",
                                        {{"id", DataType(TypeId::kInt64), true, std::nullopt},
                                         {"k", DataType(TypeId::kInt32), true, std::nullopt},
                                         {"v", DataType(TypeId::kFloat64), true, std::nullopt},
                                         {"s", DataType(TypeId::kVarchar), true, std::nullopt}});
    if (!status.ok()) return Fail(status);
    if (auto committed = (*txn)->Commit(); !committed.ok()) return Fail(committed.status());
  }
  const int64_t per_file = rows / kGenFiles;
  for (int64_t file = 0; file < kGenFiles; ++file) {
    const int64_t first = file * per_file;
    const int64_t count = file == kGenFiles - 1 ? rows - first : per_file;
    auto txn = WriteTransaction::Begin(**lake, LocalFileSystem());
    if (!txn.ok()) return Fail(txn.status());
    auto reader = MakeVectorReader(RowSchema(), MakeRows(first, count));
    auto inserted = (*txn)->Insert("main", "t", *reader);
    if (!inserted.ok()) return Fail(inserted.status());
    if (auto committed = (*txn)->Commit(); !committed.ok()) return Fail(committed.status());
  }
  auto snapshot = (*lake)->LoadSnapshot();
  if (!snapshot.ok()) return Fail(snapshot.status());
  auto table = (*lake)->LoadTable(**snapshot, (*snapshot)->FindTable("main", "t")->table_id);
  if (!table.ok()) return Fail(table.status());
  std::string files;
  for (const DataFileInfo& file : (*table)->data_files) {
    files += StrCat(files.empty() ? "" : ", ", "{\"path\": \"", file.path,
                    "\", \"row_id_start\": ", file.row_id_start.value_or(-1),
                    ", \"record_count\": ", file.record_count, "}");
  }
  std::printf("{\"rows\": %" PRId64 ", \"files\": [%s]}\n", rows, files.c_str());
  return 0;
}

// A copy of the lake at `to`: the catalog copied, data files hard-linked.
Status CopyLake(const std::string& from, const std::string& to) {
  std::error_code error;
  fs::remove_all(to, error);
  fs::create_directories(to + "/data", error);
  fs::copy_file(from + "/lake.sqlite", to + "/lake.sqlite", error);
  if (error) return Status::IOError("copying the catalog: ", error.message());
  fs::copy(from + "/data", to + "/data",
           fs::copy_options::recursive | fs::copy_options::create_hard_links, error);
  if (error) return Status::IOError("linking the data files: ", error.message());
  return Status::OK();
}

Result<WriteResult> RunOnce(const std::string& dir, const std::string& op,
                            const std::vector<std::shared_ptr<Batch>>& rows) {
  TARN_ASSIGN_OR_RETURN(auto lake, OpenLake(dir));
  TARN_ASSIGN_OR_RETURN(auto txn, WriteTransaction::Begin(*lake, LocalFileSystem()));
  WriteResult result;
  if (op == "delete") {
    TARN_ASSIGN_OR_RETURN(result, txn->Delete("main", "t", std::string("k < 10")));
  } else if (op == "update") {
    TARN_ASSIGN_OR_RETURN(result, txn->Update("main", "t", {{"v", "v + 1"}},
                                              std::string("k >= 990")));
  } else if (op == "insert") {
    auto reader = MakeVectorReader(RowSchema(), rows);
    TARN_ASSIGN_OR_RETURN(result, txn->Insert("main", "t", *reader));
  } else {
    return Status::InvalidArgument("unknown operation ", op, " (delete, update, insert)");
  }
  TARN_RETURN_NOT_OK(txn->Commit().status());
  return result;
}

int Run(const std::string& dir, const std::string& op, int reps, int64_t insert_rows) {
  std::vector<std::shared_ptr<Batch>> rows;
  if (op == "insert") rows = MakeRows(1000000000, insert_rows);
  const std::string scratch = dir + "-scratch";
  double best = 1e300, best_cpu = 1e300;
  WriteResult result;
  for (int rep = 0; rep <= reps; ++rep) {
    Status copied = CopyLake(dir, scratch);
    if (!copied.ok()) return Fail(copied);
    const double cpu_start = CpuMs();
    const auto start = std::chrono::steady_clock::now();
    auto done = RunOnce(scratch, op, rows);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const double cpu = CpuMs() - cpu_start;
    if (!done.ok()) return Fail(done.status());
    result = *done;
    if (rep > 0) {  // rep 0 is the warm-up
      best = std::min(best, ms);
      best_cpu = std::min(best_cpu, cpu);
    }
  }
  std::error_code error;
  fs::remove_all(scratch, error);
  std::printf("{\"best_ms\": %.3f, \"best_cpu_ms\": %.3f, \"rows\": %" PRId64
              ", \"files_written\": %" PRId64 "}\n",
              best, best_cpu, result.rows, result.files_written);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 3 && args[0] == "gen") return Generate(args[1], std::stoll(args[2]));
  if (args.size() >= 3 && args[0] == "run") {
    return Run(args[1], args[2], args.size() >= 4 ? std::stoi(args[3]) : 3,
               args.size() >= 5 ? std::stoll(args[4]) : 10000000);
  }
  std::fprintf(stderr,
               "usage: bench_write gen DIR ROWS\n"
               "       bench_write run DIR delete|update|insert [REPS] [INSERT_ROWS]\n");
  return 2;
}
