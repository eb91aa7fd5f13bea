// Helpers for the table tests (header-only; the tests/table binary is built from *_test.cc):
// fixture lakes opened from a private catalog copy with the data path overridden, whole-batch
// scans and Parquet reads, sorting by rowid, and a cell-by-cell comparison (Value==, so NaN
// equals NaN) that names the first difference.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "support/fixture_lake.h"
#include "support/test_util.h"
#include "tarn/catalog.h"
#include "tarn/columnar.h"
#include "tarn/parquet.h"
#include "tarn/table.h"
#include "table/column_conform.h"

namespace tarn::table_testing {

inline std::string FixtureDir(const std::string& name) { return testing::FixtureLakePath(name); }

inline std::vector<std::string> ListFixtures() {
  std::vector<std::string> names;
  std::error_code error;
  for (const auto& entry :
       std::filesystem::directory_iterator(testing::SharedPath("fixtures/ducklake"), error)) {
    if (entry.is_directory()) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// Fixture lakes whose every snapshot does not yet read equal to official DuckLake's answers
// (corrected where the answers are wrong: support/fixture_lake.h), with the first difference.
// A lake leaves this list when it reads equal; until then its comparison is reported skipped.
inline const char* KnownReadGap(const std::string& fixture) {
  static const std::pair<const char*, const char*> kGaps[] = {{"", ""}};
  for (const auto& [name, why] : kGaps) {
    if (fixture == name) return why;
  }
  return nullptr;
}

// The path of a private copy of the fixture's catalog in `dir`.
inline std::string CopyCatalog(const std::string& fixture, const testing::TempDir& dir) {
  return testing::CopyFixtureCatalog(fixture, dir);
}

inline Result<std::unique_ptr<Lake>> OpenLake(const std::string& catalog_path,
                                       const std::string& data_dir) {
  LakeOpenOptions options;
  options.data_path = data_dir;
  return Lake::Open("ducklake:sqlite:" + catalog_path, options);
}

inline Result<std::shared_ptr<const TableMetadata>> LoadTableAt(Lake& lake, int64_t snapshot_id,
                                                         const std::string& schema,
                                                         const std::string& table) {
  TARN_ASSIGN_OR_RETURN(auto snapshot, lake.LoadSnapshot(SnapshotSelector::Id(snapshot_id)));
  auto info = snapshot->FindTable(schema, table);
  if (!info) return Status::NotFound("no table ", schema, ".", table, " at ", snapshot_id);
  return lake.LoadTable(*snapshot, info->table_id);
}

inline Result<std::shared_ptr<Batch>> Scan(Lake& lake, std::shared_ptr<const TableMetadata> table,
                                    const TableScanOptions& options) {
  return ScanTableToBatch(lake, LocalFileSystem(), std::move(table), options);
}

// Every batch of `reader` end to end (an empty batch of its schema when there are none).
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
  return MakeBatch(reader.schema(), std::move(columns));
}

inline Result<std::shared_ptr<Batch>> ReadParquet(const std::string& path) {
  TARN_ASSIGN_OR_RETURN(auto reader, ParquetReader::Open(LocalFileSystem(), path));
  return reader->ReadAll();
}

inline std::shared_ptr<Batch> SortBy(const Batch& batch, int column) {
  std::vector<int64_t> order(static_cast<size_t>(batch.num_rows));
  std::iota(order.begin(), order.end(), 0);
  const int64_t* keys = batch.column(column).values_as<int64_t>();
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return keys[a] < keys[b]; });
  std::vector<std::shared_ptr<Column>> columns;
  for (const auto& c : batch.columns) columns.push_back(Take(*c, order));
  auto out = MakeBatch(batch.schema, std::move(columns));
  out->num_rows = batch.num_rows;
  return out;
}

inline std::vector<Value> ColumnValues(const Batch& batch, int column) {
  std::vector<Value> values;
  for (int64_t row = 0; row < batch.num_rows; ++row) {
    values.push_back(batch.column(column).GetValue(row));
  }
  return values;
}

// The type without field ids and with every field nullable: how the scan and DuckDB's
// Parquet output may legitimately differ in type metadata.
inline DataType PlainType(const DataType& type) {
  DataType out = type;
  for (Field& child : out.children) {
    child.field_id.reset();
    child.nullable = true;
    child.type = PlainType(child.type);
  }
  return out;
}

// The type DuckDB's Parquet writer gives a value of `type`: TIMESTAMP_S and TIMESTAMP_MS are
// written as TIMESTAMP (microseconds), 128-bit integers as DOUBLE; nested types map their
// children. The fixtures' answers are Parquet files DuckDB wrote, so a scan's batch is compared
// with them in these types.
inline DataType DuckDBParquetType(const DataType& type) {
  DataType out = type;
  switch (type.id) {
    case TypeId::kTimestampS: case TypeId::kTimestampMs: out = DataType(TypeId::kTimestamp); break;
    case TypeId::kInt128: case TypeId::kUInt128: out = DataType(TypeId::kFloat64); break;
    default: break;
  }
  for (Field& child : out.children) child.type = DuckDBParquetType(child.type);
  return out;
}

// `batch` with each column cast to the type DuckDB's Parquet writer would give it.
inline std::shared_ptr<Batch> AsDuckDBParquetWrites(const Batch& batch) {
  std::vector<Field> fields;
  std::vector<std::shared_ptr<Column>> columns;
  for (int c = 0; c < batch.num_columns(); ++c) {
    Field field = batch.schema->field(c);
    field.type = DuckDBParquetType(field.type);
    auto cast = table_internal::CastColumn(batch.columns[c], field.type);
    EXPECT_TRUE(cast.ok()) << field.name << ": " << cast.status().ToString();
    if (!cast.ok()) return nullptr;
    columns.push_back(*cast);
    fields.push_back(std::move(field));
  }
  return MakeBatch(std::make_shared<const Schema>(std::move(fields)), std::move(columns));
}

inline std::shared_ptr<Column> PlainColumn(const std::shared_ptr<Column>& column) {
  auto out = std::make_shared<Column>(*column);
  out->type = PlainType(column->type);
  for (auto& child : out->children) child = PlainColumn(child);
  return out;
}

inline ::testing::AssertionResult BatchesEqual(const Batch& expected_batch,
                                               const Batch& actual_batch) {
  Batch expected = expected_batch;
  Batch actual = actual_batch;
  for (auto& column : expected.columns) column = PlainColumn(column);
  for (auto& column : actual.columns) column = PlainColumn(column);
  if (expected.num_columns() != actual.num_columns()) {
    return ::testing::AssertionFailure()
           << "columns: expected " << expected.schema->ToString() << ", got "
           << actual.schema->ToString();
  }
  for (int c = 0; c < expected.num_columns(); ++c) {
    if (expected.schema->field(c).name != actual.schema->field(c).name) {
      return ::testing::AssertionFailure()
             << "column " << c << ": expected name " << expected.schema->field(c).name
             << ", got " << actual.schema->field(c).name;
    }
  }
  if (expected.num_rows != actual.num_rows) {
    return ::testing::AssertionFailure() << "rows: expected " << expected.num_rows << ", got "
                                         << actual.num_rows;
  }
  int64_t differences = 0;
  std::string first;
  for (int64_t row = 0; row < expected.num_rows; ++row) {
    for (int c = 0; c < expected.num_columns(); ++c) {
      Value want = expected.column(c).GetValue(row);
      Value got = actual.column(c).GetValue(row);
      if (want == got) continue;
      if (++differences <= 5) {
        first += "\n  row " + std::to_string(row) + " (first column " +
                 expected.column(0).GetValue(row).ToString() + "), column " +
                 expected.schema->field(c).name + ": expected " + want.ToString() + " [" +
                 want.type().ToString() + "], got " + got.ToString() + " [" +
                 got.type().ToString() + "]";
      }
    }
  }
  if (differences > 0) {
    return ::testing::AssertionFailure() << differences << " cells differ; first:" << first;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace tarn::table_testing
