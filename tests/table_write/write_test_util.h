// Helpers for the table write tests (header-only; every tests/table_write/*_test.cc includes
// it): writable lakes (a fresh one from CreateLake, or a private copy of a fixture lake with
// its data files), batches from Values, and scans flattened to rows sorted by rowid.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "support/postgres_test_util.h"
#include "support/s3_test_util.h"
#include "support/test_util.h"
#include "tarn/catalog.h"
#include "tarn/columnar.h"
#include "tarn/lake_write.h"
#include "tarn/s3.h"
#include "tarn/table.h"
#include "tarn/table_write.h"

namespace tarn {
// gtest prints Values readably (found by argument-dependent lookup).
inline void PrintTo(const Value& value, std::ostream* os) { *os << value.ToString(); }
}  // namespace tarn

namespace tarn::write_testing {

// A writable lake in a temporary directory (its data files, and its catalog on SQLite).
struct TestLake {
  std::unique_ptr<testing::TempDir> dir;
  std::string catalog_path;  // the SQLite catalog file; empty on PostgreSQL
  std::string locator;       // "ducklake:sqlite:<catalog_path>" or "ducklake:postgres:..."
  std::string data_path;     // ends in '/'
  std::unique_ptr<Lake> lake;
  // Where the data files are: the local disk, or the S3 test server for an s3:// data path.
  std::shared_ptr<FileSystem> fs = LocalFileSystem();

  Status Reopen() {
    lake.reset();
    LakeOpenOptions options;
    options.read_only = false;
    options.data_path = data_path;
    TARN_ASSIGN_OR_RETURN(lake, Lake::Open(locator.empty() ? "ducklake:sqlite:" + catalog_path
                                                           : locator,
                                           options));
    return Status::OK();
  }
};

enum class CatalogBackend { kSqlite, kPostgres };
enum class DataStorage { kLocal, kS3 };

// A copy of fixtures/ducklake/<name> (catalog and data files) opened for writing, its data
// path overridden to the copy.
inline Result<TestLake> FixtureLake(const std::string& name) {
  TestLake out;
  out.dir = std::make_unique<testing::TempDir>();
  const std::string source = testing::SharedPath("fixtures/ducklake/" + name);
  if (!std::filesystem::exists(source + "/catalog.sqlite")) {
    return Status::NotFound("fixture lake ", source, " is missing");
  }
  out.catalog_path = out.dir->Join("catalog.sqlite");
  out.data_path = out.dir->Join("data") + "/";
  std::filesystem::copy_file(source + "/catalog.sqlite", out.catalog_path);
  std::filesystem::permissions(out.catalog_path, std::filesystem::perms::owner_read |
                                                     std::filesystem::perms::owner_write);
  std::filesystem::copy(source + "/data", out.dir->Join("data"),
                        std::filesystem::copy_options::recursive);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(out.dir->Join("data"))) {
    std::filesystem::permissions(entry.path(), std::filesystem::perms::owner_all,
                                 std::filesystem::perm_options::add);
  }
  TARN_RETURN_NOT_OK(out.Reopen());
  return out;
}

// A new empty lake (CreateLake) with the given inlining limit; on PostgreSQL in a new schema
// of the test server (TARN_TEST_PG: an error when it is unset); its data on local disk or in
// a new folder of the S3 test server (TARN_TEST_S3).
inline Result<TestLake> EmptyLake(std::optional<int64_t> inlining_limit = std::nullopt,
                                  CatalogBackend backend = CatalogBackend::kSqlite,
                                  DataStorage storage = DataStorage::kLocal) {
  TestLake out;
  out.dir = std::make_unique<testing::TempDir>();
  if (backend == CatalogBackend::kPostgres) {
    TARN_ASSIGN_OR_RETURN(std::string conninfo, testing::NewPostgresSchema());
    out.locator = "ducklake:postgres:" + conninfo;
  } else {
    out.catalog_path = out.dir->Join("lake.sqlite");
    out.locator = "ducklake:sqlite:" + out.catalog_path;
  }
  out.data_path = out.dir->Join("data") + "/";
  if (storage == DataStorage::kS3) {
    TARN_ASSIGN_OR_RETURN(S3Options s3, testing::TestS3Options());
    out.fs = NewS3FileSystem(std::move(s3));
    out.data_path = testing::UniqueS3Prefix("lake");
  }
  CreateLakeOptions options;
  options.data_path = out.data_path;
  options.data_inlining_row_limit = inlining_limit;
  TARN_ASSIGN_OR_RETURN(out.lake, CreateLake(out.locator, options));
  return out;
}

inline std::shared_ptr<Batch> BatchOf(const std::vector<Field>& fields,
                                      const std::vector<std::vector<Value>>& rows) {
  std::vector<std::shared_ptr<Column>> columns;
  for (size_t c = 0; c < fields.size(); ++c) {
    ColumnBuilder builder(fields[c].type);
    for (const auto& row : rows) {
      Status status = builder.Append(row[c]);
      EXPECT_TRUE(status.ok()) << status.ToString();
    }
    columns.push_back(builder.Finish());
  }
  auto batch = MakeBatch(std::make_shared<Schema>(fields), std::move(columns));
  batch->num_rows = static_cast<int64_t>(rows.size());
  return batch;
}

inline std::unique_ptr<BatchReader> ReaderOf(std::shared_ptr<Batch> batch) {
  auto schema = batch->schema;
  return MakeVectorReader(schema, {std::move(batch)});
}

// Rows of a batch whose first column is rowid, keyed by rowid.
inline std::map<int64_t, std::vector<Value>> RowsByRowId(const Batch& batch) {
  std::map<int64_t, std::vector<Value>> out;
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    std::vector<Value> values;
    for (int c = 1; c < batch.num_columns(); ++c) values.push_back(batch.column(c).GetValue(row));
    out[batch.column(0).GetValue(row).GetInt64()] = std::move(values);
  }
  return out;
}

inline Result<std::shared_ptr<Batch>> Drain(BatchReader& reader) {
  std::vector<std::shared_ptr<Batch>> batches;
  while (true) {
    TARN_ASSIGN_OR_RETURN(auto batch, reader.Next());
    if (!batch) break;
    batches.push_back(std::move(batch));
  }
  if (!batches.empty()) return ConcatenateBatches(batches);
  std::vector<std::shared_ptr<Column>> columns;
  for (const Field& field : reader.schema()->fields) {
    columns.push_back(ColumnBuilder(field.type).Finish());
  }
  auto out = MakeBatch(reader.schema(), std::move(columns));
  out->num_rows = 0;
  return out;
}

// rowid + every column of the table at the transaction's view.
inline Result<std::map<int64_t, std::vector<Value>>> ScanTxn(
    WriteTransaction& txn, const std::string& schema, const std::string& table,
    std::optional<std::string> filter = std::nullopt) {
  TableScanOptions options;
  options.with_rowid = true;
  options.filter = std::move(filter);
  TARN_ASSIGN_OR_RETURN(auto reader, txn.Scan(schema, table, options));
  TARN_ASSIGN_OR_RETURN(auto batch, Drain(*reader));
  return RowsByRowId(*batch);
}

// rowid + every column of the table at a committed snapshot.
inline Result<std::map<int64_t, std::vector<Value>>> ScanAt(
    Lake& lake, int64_t snapshot_id, const std::string& schema, const std::string& table,
    std::optional<std::string> filter = std::nullopt) {
  TARN_ASSIGN_OR_RETURN(auto snapshot, lake.LoadSnapshot(SnapshotSelector::Id(snapshot_id)));
  auto info = snapshot->FindTable(schema, table);
  if (!info) return Status::NotFound("no table ", schema, ".", table, " at ", snapshot_id);
  TARN_ASSIGN_OR_RETURN(auto metadata, lake.LoadTable(*snapshot, info->table_id));
  TableScanOptions options;
  options.with_rowid = true;
  options.filter = std::move(filter);
  TARN_ASSIGN_OR_RETURN(auto batch, ScanTableToBatch(lake, LocalFileSystem(), metadata, options));
  return RowsByRowId(*batch);
}

// The Parquet files under a directory (recursively), sorted.
inline std::vector<std::string> ParquetFilesUnder(const std::string& dir) {
  std::vector<std::string> out;
  std::error_code error;
  if (!std::filesystem::exists(dir, error)) return out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir, error)) {
    if (entry.path().extension() == ".parquet") out.push_back(entry.path().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

template <typename T>
std::vector<const T*> ChangesOf(const LakeChanges& changes) {
  std::vector<const T*> out;
  for (const LakeChange& change : changes.changes()) {
    if (const T* typed = std::get_if<T>(&change)) out.push_back(typed);
  }
  return out;
}

}  // namespace tarn::write_testing
