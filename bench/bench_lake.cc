// Reading a DuckLake lake: generates a 10M-row lake and times tarn's table scans on it.
//
//   bench_lake gen DIR ROWS FIXTURE_CATALOG
//       Writes DIR/catalog.sqlite (a copy of a fixture lake's catalog, emptied of its tables'
//       files and rows, whose table main.il becomes t(id BIGINT, k INTEGER, v DOUBLE,
//       s VARCHAR)) and DIR/main/il/ducklake-N.parquet (10 files, snappy, 122,880-row groups,
//       field ids = column ids, id = rowid). About 1% of each file's rows are deleted through
//       a delete file DIR/main/il/ducklake-N-delete.parquet (file_path, pos) at the next
//       snapshot. Prints a JSON line with the file list and the deleted count.
//   bench_lake update DIR
//       After `gen`: writes DIR/catalog-updated.sqlite, the lake after a 1% UPDATE at snapshot
//       4 (k = k + 1 where id % 100 = 91, on rows not yet deleted): the new versions in
//       DIR/main/il/ducklake-update.parquet (embedded _ducklake_internal_row_id, row_id_start
//       set, as DuckLake writes UPDATE outputs) and each file's delete file replaced by
//       DIR/main/il/ducklake-N-delete-4.parquet (old deletions plus the updated positions).
//   bench_lake publish DIR [CATALOG]
//       Publishes the row summaries of the lake (CATALOG: default catalog.sqlite); prints
//       the report and the time.
//   bench_lake scan DIR QUERY [REPS] [CATALOG]
//       Opens the lake (CATALOG under DIR: default catalog.sqlite) at its latest snapshot and
//       runs QUERY with OpenTableScan, one first (cold) run and REPS (default 5) timed runs;
//       prints {"best_ms": ..., "first_ms": ..., "cpu_ms": ..., ...} with the query's answer
//       (to check against DuckDB). cpu_ms is the process's user+sys time per timed run.
//       QUERY is one of
//         agg    count(*), sum(k), sum(v) over every row;
//         filter the rowids of rows with k = 7 (count and sum);
//         point  every column of the rows with rowid 123, 4567891 and 9876543 (count, sum of
//                id in int_sum, sum of k in double_sum).
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <filesystem>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include <sys/resource.h>

#include "tarn/catalog.h"
#include "tarn/rowid.h"
#include "tarn/io.h"
#include "tarn/parquet.h"
#include "tarn/table.h"

namespace {

using namespace tarn;

constexpr int64_t kFiles = 10;

int Fail(const Status& status) {
  std::fprintf(stderr, "bench_lake: %s\n", status.ToString().c_str());
  return 1;
}

Status Exec(CatalogStore& store, const std::string& sql) {
  return store.Execute(sql, {}).status();
}

Result<WrittenFileInfo> WriteBatch(const std::string& path, const Batch& batch) {
  TARN_ASSIGN_OR_RETURN(auto props, WriterProperties::Builder().max_row_group_rows(122880).Build());
  TARN_ASSIGN_OR_RETURN(auto writer, ParquetWriter::Open(LocalFileSystem(), path, *batch.schema, props));
  TARN_RETURN_NOT_OK(writer->Write(batch));
  return writer->Finish();
}

int Generate(const std::string& dir, int64_t rows, const std::string& fixture) {
  namespace fs = std::filesystem;
  fs::create_directories(dir + "/main/il");
  const std::string catalog = dir + "/catalog.sqlite";
  fs::copy_file(fixture, catalog, fs::copy_options::overwrite_existing);
  fs::permissions(catalog, fs::perms::owner_read | fs::perms::owner_write);
  auto store = OpenSqliteCatalogStore(catalog, /*read_only=*/false);
  if (!store.ok()) return Fail(store.status());
  for (const char* sql : {
           "DELETE FROM ducklake_data_file", "DELETE FROM ducklake_delete_file",
           "DELETE FROM ducklake_file_column_stats", "DELETE FROM ducklake_table_column_stats",
           "DELETE FROM ducklake_file_partition_value", "DELETE FROM ducklake_table_stats",
           "DELETE FROM ducklake_inlined_data_tables", "DROP TABLE IF EXISTS ducklake_inlined_data_1_1",
           "DROP TABLE IF EXISTS ducklake_inlined_delete_1", "DELETE FROM ducklake_column",
           "INSERT INTO ducklake_column VALUES "
           "(1, 1, NULL, 1, 1, 'id', 'int64', NULL, 'NULL', 1, NULL, 'literal', 'duckdb'), "
           "(2, 1, NULL, 1, 2, 'k', 'int32', NULL, 'NULL', 1, NULL, 'literal', 'duckdb'), "
           "(3, 1, NULL, 1, 3, 'v', 'float64', NULL, 'NULL', 1, NULL, 'literal', 'duckdb'), "
           "(4, 1, NULL, 1, 4, 's', 'varchar', NULL, 'NULL', 1, NULL, 'literal', 'duckdb')",
           "DELETE FROM ducklake_snapshot WHERE snapshot_id > 1",
           "DELETE FROM ducklake_snapshot_changes WHERE snapshot_id > 1",
           "INSERT INTO ducklake_snapshot VALUES (2, '2026-12-01 00:00:02+00', 1, 2, 100), "
           "(3, '2026-12-01 00:00:03+00', 1, 2, 200)",
           "INSERT INTO ducklake_snapshot_changes VALUES (2, 'inserted_into_table:1', NULL, NULL, "
           "NULL), (3, 'deleted_from_table:1', NULL, NULL, NULL)"}) {
    Status status = Exec(**store, sql);
    if (!status.ok()) return Fail(status);
  }
  auto schema = std::make_shared<Schema>(std::vector<Field>{
      Field("id", DataType(TypeId::kInt64), true, 1), Field("k", DataType(TypeId::kInt32), true, 2),
      Field("v", DataType(TypeId::kFloat64), true, 3), Field("s", DataType(TypeId::kVarchar), true, 4)});
  auto delete_schema = std::make_shared<Schema>(std::vector<Field>{
      Field("file_path", DataType(TypeId::kVarchar), true, 2147483646),
      Field("pos", DataType(TypeId::kInt64), true, 2147483645)});
  std::mt19937_64 rng(2026);
  int64_t deleted_total = 0;
  int64_t total_bytes = 0;
  const int64_t per_file = rows / kFiles;
  for (int64_t file = 0; file < kFiles; ++file) {
    const int64_t first = file * per_file;
    const int64_t count = file == kFiles - 1 ? rows - first : per_file;
    ColumnBuilder id(DataType(TypeId::kInt64)), k(DataType(TypeId::kInt32)),
        v(DataType(TypeId::kFloat64)), s(DataType(TypeId::kVarchar));
    for (int64_t row = 0; row < count; ++row) {
      const int64_t rowid = first + row;
      id.AppendNumber<int64_t>(rowid);
      k.AppendNumber<int32_t>(static_cast<int32_t>(rng() % 1000));
      v.AppendNumber<double>(static_cast<double>(rng() % 1000000) / 100.0);
      s.AppendBytes("name-" + std::to_string(rng() % 5000));
    }
    auto batch = MakeBatch(schema, {id.Finish(), k.Finish(), v.Finish(), s.Finish()});
    const std::string name = "ducklake-" + std::to_string(file) + ".parquet";
    const std::string path = dir + "/main/il/" + name;
    auto info = WriteBatch(path, *batch);
    if (!info.ok()) return Fail(info.status());
    total_bytes += info->file_size;
    // ~1% of the positions, sorted and distinct.
    ColumnBuilder paths(DataType(TypeId::kVarchar)), positions(DataType(TypeId::kInt64));
    int64_t deleted = 0;
    for (int64_t pos = 0; pos < count; ++pos) {
      if (rng() % 100 != 0) continue;
      paths.AppendBytes(path);
      positions.AppendNumber<int64_t>(pos);
      ++deleted;
    }
    auto deletes = MakeBatch(delete_schema, {paths.Finish(), positions.Finish()});
    const std::string delete_name = "ducklake-" + std::to_string(file) + "-delete.parquet";
    auto delete_info = WriteBatch(dir + "/main/il/" + delete_name, *deletes);
    if (!delete_info.ok()) return Fail(delete_info.status());
    deleted_total += deleted;
    const std::string file_id = std::to_string(file + 1);
    Status status = Exec(
        **store, "INSERT INTO ducklake_data_file VALUES (" + file_id + ", 1, 2, NULL, NULL, '" +
                     name + "', 1, 'parquet', " + std::to_string(count) + ", " +
                     std::to_string(info->file_size) + ", " + std::to_string(info->footer_size) +
                     ", " + std::to_string(first) + ", NULL, NULL, NULL, NULL)");
    if (status.ok()) {
      status = Exec(**store, "INSERT INTO ducklake_delete_file VALUES (" + std::to_string(file + 101) +
                                 ", 1, 3, NULL, " + file_id + ", '" + delete_name +
                                 "', 1, 'parquet', " + std::to_string(deleted) + ", " +
                                 std::to_string(delete_info->file_size) + ", " +
                                 std::to_string(delete_info->footer_size) + ", NULL, NULL)");
    }
    if (status.ok()) {
      status = Exec(**store, "INSERT INTO ducklake_file_column_stats VALUES (" + file_id +
                                 ", 1, 1, NULL, " + std::to_string(count) + ", 0, '" +
                                 std::to_string(first) + "', '" +
                                 std::to_string(first + count - 1) + "', NULL, NULL)");
    }
    if (!status.ok()) return Fail(status);
  }
  Status status = Exec(**store, "INSERT INTO ducklake_table_stats VALUES (1, " +
                                    std::to_string(rows - deleted_total) + ", " +
                                    std::to_string(rows) + ", " + std::to_string(total_bytes) + ")");
  if (!status.ok()) return Fail(status);
  std::printf("{\"rows\": %" PRId64 ", \"deleted\": %" PRId64 ", \"bytes\": %" PRId64 "}\n", rows,
              deleted_total, total_bytes);
  return 0;
}

// The 1% UPDATE at snapshot 4 (see the file comment).
int Update(const std::string& dir) {
  namespace fs = std::filesystem;
  const std::string catalog = dir + "/catalog-updated.sqlite";
  fs::copy_file(dir + "/catalog.sqlite", catalog, fs::copy_options::overwrite_existing);
  LakeOpenOptions open;
  open.data_path = dir;
  auto lake = Lake::Open("ducklake:sqlite:" + dir + "/catalog.sqlite", open);
  if (!lake.ok()) return Fail(lake.status());
  auto snapshot = (*lake)->LoadSnapshot();
  if (!snapshot.ok()) return Fail(snapshot.status());
  auto table = (*lake)->LoadTable(**snapshot, (*snapshot)->FindTable("main", "il")->table_id);
  if (!table.ok()) return Fail(table.status());
  auto store = OpenSqliteCatalogStore(catalog, /*read_only=*/false);
  if (!store.ok()) return Fail(store.status());
  TableScanOptions scan;
  scan.with_rowid = true;
  scan.filter = "rowid % 100 = 91";
  auto live = ScanTableToBatch(**lake, LocalFileSystem(), *table, scan);
  if (!live.ok()) return Fail(live.status());
  // The new versions: k + 1, the old rowids embedded.
  const Batch& rows = **live;  // rowid, id, k, v, s
  auto schema = std::make_shared<Schema>(std::vector<Field>{
      Field("id", DataType(TypeId::kInt64), true, 1), Field("k", DataType(TypeId::kInt32), true, 2),
      Field("v", DataType(TypeId::kFloat64), true, 3), Field("s", DataType(TypeId::kVarchar), true, 4),
      Field(kEmbeddedRowIdName, DataType(TypeId::kInt64), true, kEmbeddedRowIdFieldId)});
  ColumnBuilder k(DataType(TypeId::kInt32));
  for (int64_t row = 0; row < rows.num_rows; ++row) {
    k.AppendNumber<int32_t>(rows.column(2).values_as<int32_t>()[row] + 1);
  }
  auto batch = MakeBatch(schema, {rows.columns[1], k.Finish(), rows.columns[3], rows.columns[4],
                                  rows.columns[0]});
  batch->num_rows = rows.num_rows;
  auto info = WriteBatch(dir + "/main/il/ducklake-update.parquet", *batch);
  if (!info.ok()) return Fail(info.status());
  const int64_t total_rows = (*table)->stats ? (*table)->stats->next_row_id : 0;
  std::vector<std::string> sql = {
      "INSERT INTO ducklake_snapshot VALUES (4, '2026-12-01 00:00:04+00', 1, 2, 300)",
      "INSERT INTO ducklake_snapshot_changes VALUES (4, "
      "'inserted_into_table:1,deleted_from_table:1', NULL, NULL, NULL)",
      StrCat("INSERT INTO ducklake_data_file VALUES (11, 1, 4, NULL, NULL, "
             "'ducklake-update.parquet', 1, 'parquet', ", rows.num_rows, ", ", info->file_size,
             ", ", info->footer_size, ", ", total_rows, ", NULL, NULL, NULL, NULL)"),
      StrCat("UPDATE ducklake_table_stats SET next_row_id = ", total_rows + rows.num_rows),
      "UPDATE ducklake_delete_file SET end_snapshot = 4 WHERE end_snapshot IS NULL"};
  // Each file's deletions so far plus its updated positions, in a new delete file.
  auto delete_schema = std::make_shared<Schema>(std::vector<Field>{
      Field("file_path", DataType(TypeId::kVarchar), true, 2147483646),
      Field("pos", DataType(TypeId::kInt64), true, 2147483645)});
  for (const DataFileInfo& file : (*table)->data_files) {
    std::vector<int64_t> positions;
    if (file.delete_file) {
      auto reader = ParquetReader::Open(LocalFileSystem(), file.delete_file->path);
      if (!reader.ok()) return Fail(reader.status());
      auto old = (*reader)->ReadAll();
      if (!old.ok()) return Fail(old.status());
      for (int64_t row = 0; row < (*old)->num_rows; ++row) {
        positions.push_back((*old)->column(1).values_as<int64_t>()[row]);
      }
    }
    for (int64_t row = 0; row < rows.num_rows; ++row) {
      const int64_t rowid = rows.column(0).values_as<int64_t>()[row];
      if (rowid >= *file.row_id_start && rowid < *file.row_id_start + file.record_count) {
        positions.push_back(rowid - *file.row_id_start);
      }
    }
    std::sort(positions.begin(), positions.end());
    ColumnBuilder paths(DataType(TypeId::kVarchar)), pos(DataType(TypeId::kInt64));
    for (int64_t p : positions) {
      paths.AppendBytes(file.path);
      pos.AppendNumber<int64_t>(p);
    }
    const std::string name = StrCat("ducklake-", file.data_file_id - 1, "-delete-4.parquet");
    auto written = WriteBatch(dir + "/main/il/" + name,
                              *MakeBatch(delete_schema, {paths.Finish(), pos.Finish()}));
    if (!written.ok()) return Fail(written.status());
    sql.push_back(StrCat("INSERT INTO ducklake_delete_file VALUES (", file.data_file_id + 200,
                         ", 1, 4, NULL, ", file.data_file_id, ", '", name, "', 1, 'parquet', ",
                         positions.size(), ", ", written->file_size, ", ", written->footer_size,
                         ", NULL, NULL)"));
  }
  for (const std::string& statement : sql) {
    Status status = Exec(**store, statement);
    if (!status.ok()) return Fail(status);
  }
  std::printf("{\"updated\": %" PRId64 "}\n", rows.num_rows);
  return 0;
}

int Publish(const std::string& dir, const std::string& catalog) {
  LakeOpenOptions open;
  open.data_path = dir;
  auto lake = Lake::Open("ducklake:sqlite:" + dir + "/" + catalog, open);
  if (!lake.ok()) return Fail(lake.status());
  RowSummaryContext ctx;
  ctx.fs = LocalFileSystem();
  ctx.data_path = (*lake)->data_path();
  const auto start = std::chrono::steady_clock::now();
  auto report = PublishRowSummaries(**lake, ctx);
  if (!report.ok()) return Fail(report.status());
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("{\"published\": %" PRId64 ", \"already\": %" PRId64 ", \"dense\": %" PRId64
              ", \"failed\": %" PRId64 ", \"ms\": %.1f}\n",
              report->published, report->already_published, report->dense, report->failed, ms);
  return report->failed == 0 ? 0 : 1;
}

struct QueryResult {
  int64_t count = 0;
  int64_t int_sum = 0;
  double double_sum = 0;
};

Result<QueryResult> RunQuery(Lake& lake, std::shared_ptr<const TableMetadata> table,
                             const std::string& query) {
  TableScanOptions options;
  if (query == "agg") {
    options.columns = {"k", "v"};
  } else if (query == "filter") {
    options.with_rowid = true;
    options.columns = {"k"};
    options.filter = "k = 7";
  } else if (query == "point") {
    options.filter = "rowid IN (123, 4567891, 9876543)";
  } else {
    return Status::InvalidArgument("unknown query ", query, " (agg, filter, point)");
  }
  TARN_ASSIGN_OR_RETURN(auto reader, OpenTableScan(lake, LocalFileSystem(), table, options));
  QueryResult result;
  while (true) {
    TARN_ASSIGN_OR_RETURN(auto batch, reader->Next());
    if (!batch) break;
    result.count += batch->num_rows;
    if (query == "agg") {
      const Column& k = batch->column(0);
      const Column& v = batch->column(1);
      const int32_t* ks = k.values_as<int32_t>();
      const double* vs = v.values_as<double>();
      for (int64_t row = 0; row < batch->num_rows; ++row) {
        if (k.IsValid(row)) result.int_sum += ks[row];
        if (v.IsValid(row)) result.double_sum += vs[row];
      }
    } else {
      const int64_t* values = batch->column(0).values_as<int64_t>();
      for (int64_t row = 0; row < batch->num_rows; ++row) result.int_sum += values[row];
      if (query == "point") {
        const Column& k = batch->column(1);
        for (int64_t row = 0; row < batch->num_rows; ++row) {
          if (k.IsValid(row)) result.double_sum += k.values_as<int32_t>()[row];
        }
      }
    }
  }
  return result;
}

double CpuMs() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
         (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3;
}

int Scan(const std::string& dir, const std::string& query, int reps, const std::string& catalog) {
  LakeOpenOptions options;
  options.data_path = dir;
  auto lake = Lake::Open("ducklake:sqlite:" + dir + "/" + catalog, options);
  if (!lake.ok()) return Fail(lake.status());
  double best = 1e300;
  double first = 0;
  double cpu_start = 0;
  QueryResult result;
  for (int rep = 0; rep <= reps; ++rep) {
    if (rep == 1) cpu_start = CpuMs();
    const auto start = std::chrono::steady_clock::now();
    // Loading the catalog is part of every query, as for a fresh reader.
    auto snapshot = (*lake)->LoadSnapshot();
    if (!snapshot.ok()) return Fail(snapshot.status());
    auto info = (*snapshot)->FindTable("main", "il");
    if (!info) return Fail(Status::NotFound("table main.il"));
    auto table = (*lake)->LoadTable(**snapshot, info->table_id);
    if (!table.ok()) return Fail(table.status());
    auto answer = RunQuery(**lake, *table, query);
    if (!answer.ok()) return Fail(answer.status());
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (rep == 0) first = ms;
    if (rep > 0 && ms < best) best = ms;  // rep 0 is the warm-up
    result = *answer;
  }
  const double cpu = reps > 0 ? (CpuMs() - cpu_start) / reps : 0;
  std::printf("{\"best_ms\": %.3f, \"first_ms\": %.3f, \"cpu_ms\": %.3f, \"count\": %" PRId64
              ", \"int_sum\": %" PRId64 ", \"double_sum\": %.2f}\n",
              best, first, cpu, result.count, result.int_sum, result.double_sum);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 4 && args[0] == "gen") {
    // FIXTURE_CATALOG: a DuckLake catalog whose table 1 is main.il (the `inlined` fixture).
    return Generate(args[1], std::stoll(args[2]), args[3]);
  }
  if (args.size() >= 3 && args[0] == "scan") {
    return Scan(args[1], args[2], args.size() >= 4 ? std::stoi(args[3]) : 5,
                args.size() >= 5 ? args[4] : "catalog.sqlite");
  }
  if (args.size() == 2 && args[0] == "update") return Update(args[1]);
  if (args.size() >= 2 && args[0] == "publish") {
    return Publish(args[1], args.size() >= 3 ? args[2] : "catalog.sqlite");
  }
  std::fprintf(stderr,
               "usage: bench_lake gen DIR ROWS FIXTURE_CATALOG\n"
               "       bench_lake update DIR\n"
               "       bench_lake publish DIR [CATALOG]\n"
               "       bench_lake scan DIR agg|filter|point [REPS] [CATALOG]\n");
  return 2;
}
