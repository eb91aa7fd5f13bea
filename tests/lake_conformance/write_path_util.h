// Helpers for the full-write-path tests (header-only): a lake with table main.t (k BIGINT,
// s VARCHAR), batches of rows, the rows at a snapshot, the files a catalog references, and
// running this test binary again as a worker process.
//
// Workers are this binary re-executed (fork + exec of /proc/self/exe) with one disabled test
// selected and its arguments in the environment, so that a child never inherits a parent's
// thread pool or SQLite connections.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lake_test_util.h"
#include "tarn/catalog.h"
#include "tarn/lake_write.h"
#include "tarn/table.h"
#include "tarn/table_write.h"

namespace tarn::lake_testing {

inline std::shared_ptr<Batch> KeyRows(int64_t first_k, int64_t count, const std::string& text) {
  ColumnBuilder keys{DataType(TypeId::kInt64)};
  ColumnBuilder texts{DataType(TypeId::kVarchar)};
  for (int64_t i = 0; i < count; ++i) {
    EXPECT_TRUE(keys.Append(Value::Int64(first_k + i)).ok());
    EXPECT_TRUE(texts.Append(Value::Varchar(text + std::to_string(first_k + i))).ok());
  }
  auto schema = std::make_shared<Schema>(std::vector<Field>{
      Field("k", DataType(TypeId::kInt64)), Field("s", DataType(TypeId::kVarchar))});
  auto batch = MakeBatch(schema, {keys.Finish(), texts.Finish()});
  batch->num_rows = count;
  return batch;
}

inline Result<WriteResult> InsertKeys(WriteTransaction& txn, int64_t first_k, int64_t count,
                                      const std::string& text = "v") {
  auto batch = KeyRows(first_k, count, text);
  auto reader = MakeVectorReader(batch->schema, {batch});
  return txn.Insert("main", "t", *reader);
}

inline Result<std::unique_ptr<Lake>> OpenWritable(const std::string& catalog,
                                                  const std::string& data_path) {
  LakeOpenOptions options;
  options.read_only = false;
  options.data_path = data_path;
  return Lake::Open("ducklake:sqlite:" + catalog, options);
}

// rowid -> (k, s) of main.t at `snapshot_id` (latest when negative), read through `fs`.
inline Result<std::map<int64_t, std::pair<int64_t, std::string>>> RowsAt(
    Lake& lake, int64_t snapshot_id, std::shared_ptr<FileSystem> fs = LocalFileSystem()) {
  TARN_ASSIGN_OR_RETURN(auto snapshot,
                        lake.LoadSnapshot(snapshot_id < 0 ? SnapshotSelector::Latest()
                                                          : SnapshotSelector::Id(snapshot_id)));
  auto info = snapshot->FindTable("main", "t");
  if (!info) return Status::NotFound("no table main.t at ", snapshot->snapshot_id());
  TARN_ASSIGN_OR_RETURN(auto metadata, lake.LoadTable(*snapshot, info->table_id));
  TableScanOptions options;
  options.with_rowid = true;
  options.columns = {"k", "s"};
  TARN_ASSIGN_OR_RETURN(auto batch, ScanTableToBatch(lake, fs, metadata, options));
  std::map<int64_t, std::pair<int64_t, std::string>> out;
  for (int64_t row = 0; row < batch->num_rows; ++row) {
    Value s = batch->column(2).GetValue(row);
    out[batch->column(0).GetValue(row).GetInt64()] = {
        batch->column(1).GetValue(row).GetInt64(), s.is_null() ? "NULL" : s.GetBytes()};
  }
  return out;
}

// A lake with main.t (k BIGINT, s VARCHAR); `seed_rows` rows committed in files of 100 and
// a few inlined rows, so that deletes and updates touch files and inlined rows.
struct PreparedLake {
  std::unique_ptr<testing::TempDir> dir = std::make_unique<testing::TempDir>();
  std::string catalog;
  std::string data;

  Status Create(int64_t seed_rows) {
    catalog = dir->Join("lake.sqlite");
    data = dir->Join("data") + "/";
    CreateLakeOptions options;
    options.data_path = data;
    TARN_ASSIGN_OR_RETURN(auto lake, CreateLake("ducklake:sqlite:" + catalog, options));
    TARN_ASSIGN_OR_RETURN(auto txn, WriteTransaction::Begin(*lake, LocalFileSystem()));
    TARN_RETURN_NOT_OK(txn->CreateTable("main", "t",
                                        {{"k", DataType(TypeId::kInt64), false, std::nullopt},
                                         {"s", DataType(TypeId::kVarchar), true, std::nullopt}}));
    TARN_RETURN_NOT_OK(txn->Commit().status());
    for (int64_t first = 0; first < seed_rows; first += 100) {
      TARN_ASSIGN_OR_RETURN(auto insert, WriteTransaction::Begin(*lake, LocalFileSystem()));
      TARN_RETURN_NOT_OK(InsertKeys(*insert, first, std::min<int64_t>(100, seed_rows - first))
                             .status());
      TARN_RETURN_NOT_OK(insert->Commit().status());
    }
    if (seed_rows > 0) {
      TARN_ASSIGN_OR_RETURN(auto small, WriteTransaction::Begin(*lake, LocalFileSystem()));
      TARN_RETURN_NOT_OK(InsertKeys(*small, 100000, 3, "inl").status());
      TARN_RETURN_NOT_OK(small->Commit().status());
    }
    return Status::OK();
  }

  // A copy of this lake in a new directory (the data path moves with it).
  PreparedLake Copy() const {
    PreparedLake out;
    out.catalog = out.dir->Join("lake.sqlite");
    out.data = out.dir->Join("data") + "/";
    std::filesystem::copy_file(catalog, out.catalog);
    std::filesystem::copy(dir->Join("data"), out.dir->Join("data"),
                          std::filesystem::copy_options::recursive);
    return out;
  }
};

// Every data and delete file the catalog references (any snapshot), as full paths.
inline std::set<std::string> ReferencedFiles(const std::string& catalog,
                                             const std::string& data_path) {
  std::set<std::string> out;
  for (const char* table : {"ducklake_data_file", "ducklake_delete_file"}) {
    for (const auto& [id, path] : FilePaths(catalog, data_path, table)) out.insert(path);
  }
  return out;
}

inline std::set<std::string> ParquetFilesUnder(const std::string& dir) {
  std::set<std::string> out;
  std::error_code error;
  if (!std::filesystem::exists(dir, error)) return out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir, error)) {
    if (entry.path().extension() == ".parquet") out.insert(entry.path().string());
  }
  return out;
}

// Runs TEST(LakeWorker, DISABLED_<name>) of this binary in a child process with `env` added;
// returns its exit status (or -signal).
inline int RunWorker(const std::string& name, const std::map<std::string, std::string>& env) {
  const std::string filter = "--gtest_filter=LakeWorker.DISABLED_" + name;
  pid_t pid = ::fork();
  if (pid < 0) return -1000;
  if (pid == 0) {
    for (const auto& [key, value] : env) ::setenv(key.c_str(), value.c_str(), 1);
    const char* argv[] = {"/proc/self/exe", filter.c_str(), "--gtest_also_run_disabled_tests",
                          "--gtest_brief=1", nullptr};
    ::execv("/proc/self/exe", const_cast<char* const*>(argv));
    ::_exit(127);
  }
  int status = 0;
  if (::waitpid(pid, &status, 0) != pid) return -1001;
  if (WIFSIGNALED(status)) return -WTERMSIG(status);
  return WEXITSTATUS(status);
}

// Starts a worker without waiting; pair with WaitWorker.
inline pid_t StartWorker(const std::string& name, const std::map<std::string, std::string>& env) {
  const std::string filter = "--gtest_filter=LakeWorker.DISABLED_" + name;
  pid_t pid = ::fork();
  if (pid == 0) {
    for (const auto& [key, value] : env) ::setenv(key.c_str(), value.c_str(), 1);
    const char* argv[] = {"/proc/self/exe", filter.c_str(), "--gtest_also_run_disabled_tests",
                          "--gtest_brief=1", nullptr};
    ::execv("/proc/self/exe", const_cast<char* const*>(argv));
    ::_exit(127);
  }
  return pid;
}

inline int WaitWorker(pid_t pid) {
  int status = 0;
  if (pid <= 0 || ::waitpid(pid, &status, 0) != pid) return -1001;
  if (WIFSIGNALED(status)) return -WTERMSIG(status);
  return WEXITSTATUS(status);
}

inline std::string Env(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

}  // namespace tarn::lake_testing
