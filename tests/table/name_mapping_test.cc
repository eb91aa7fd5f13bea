// Name-mapped data files (reference §2.4): Parquet files without field ids, registered with a
// `map_by_name` mapping as `ducklake_add_data_files` registers them, one column taken from a
// hive directory (`is_partition`). Built on a copy of the `nan` fixture's catalog (table
// fl: id INTEGER = column 1, x DOUBLE = 2, y FLOAT = 3), edited row by row.
#include <gtest/gtest.h>

#include <filesystem>

#include "table/table_test_util.h"

namespace tarn {
namespace {

using table_testing::ColumnValues;

struct MappedLake {
  testing::TempDir dir;
  std::string catalog = table_testing::CopyCatalog("nan", dir);

  void Exec(const std::string& sql) {
    auto store = OpenSqliteCatalogStore(catalog, /*read_only=*/false);
    ASSERT_TRUE(store.ok()) << store.status().ToString();
    auto changed = (*store)->Execute(sql, {});
    ASSERT_TRUE(changed.ok()) << sql << ": " << changed.status().ToString();
  }

  // Writes a file with columns ident INTEGER, xx DOUBLE, extra VARCHAR and no field ids under
  // `directory` (relative to the temp dir), and registers it as data file `file_id` at snapshot
  // 9 with mapping 50 and row ids from `row_id_start`.
  void AddMappedFile(int64_t file_id, const std::string& directory, int64_t row_id_start) {
    auto schema = std::make_shared<Schema>(
        std::vector<Field>{Field("ident", DataType(TypeId::kInt32)),
                           Field("xx", DataType(TypeId::kFloat64)),
                           Field("extra", DataType(TypeId::kVarchar))});
    ColumnBuilder ids(DataType(TypeId::kInt32)), xs(DataType(TypeId::kFloat64)),
        extras(DataType(TypeId::kVarchar));
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(ids.Append(Value::Int(DataType(TypeId::kInt32), 500 + file_id * 10 + i)).ok());
      ASSERT_TRUE(xs.Append(Value::Float64(0.5 * i)).ok());
      ASSERT_TRUE(extras.Append(Value::Varchar("ignored")).ok());
    }
    auto batch = MakeBatch(schema, {ids.Finish(), xs.Finish(), extras.Finish()});
    std::filesystem::create_directories(dir.Join(directory));
    const std::string path = dir.Join(directory + "/mapped.parquet");
    auto props = WriterProperties::Builder().Build();
    ASSERT_TRUE(props.ok());
    auto writer = ParquetWriter::Open(LocalFileSystem(), path, *schema, *props);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    ASSERT_TRUE((*writer)->Write(*batch).ok());
    auto info = (*writer)->Finish();
    ASSERT_TRUE(info.ok()) << info.status().ToString();
    Exec(StrCat("INSERT INTO ducklake_data_file VALUES (", file_id, ", 1, 9, NULL, NULL, '", path,
                "', 0, 'parquet', 3, ", info->file_size, ", ", info->footer_size, ", ",
                row_id_start, ", NULL, NULL, 50, NULL)"));
  }

  void AddSnapshotAndMapping() {
    Exec("INSERT INTO ducklake_snapshot VALUES (9, '2026-12-01 00:00:09+00', 1, 100, 200)");
    Exec("INSERT INTO ducklake_snapshot_changes VALUES (9, 'inserted_into_table:1', NULL, NULL, "
         "NULL)");
    Exec("INSERT INTO ducklake_column_mapping VALUES (50, 1, 'map_by_name')");
    // Entry ids are mapping-local (0, 1, 2); y comes from the file's `y=` directory.
    Exec("INSERT INTO ducklake_name_mapping VALUES (50, 0, 'ident', 1, NULL, 0), "
         "(50, 1, 'xx', 2, NULL, 0), (50, 2, 'y', 3, NULL, 1)");
  }

  std::unique_ptr<Lake> Open() {
    auto lake = table_testing::OpenLake(catalog, table_testing::FixtureDir("nan") + "/data");
    EXPECT_TRUE(lake.ok()) << lake.status().ToString();
    return lake.ok() ? std::move(lake).value() : nullptr;
  }
};

Result<std::shared_ptr<Batch>> ScanAt(Lake& lake, int64_t snapshot, const std::string& filter) {
  TARN_ASSIGN_OR_RETURN(auto table, table_testing::LoadTableAt(lake, snapshot, "main", "fl"));
  TableScanOptions options;
  options.with_rowid = true;
  if (!filter.empty()) options.filter = filter;
  TARN_ASSIGN_OR_RETURN(auto batch, table_testing::Scan(lake, table, options));
  return table_testing::SortBy(*batch, 0);
}

TEST(NameMappingTest, ColumnsByNameAndPartitionValuesFromThePath) {
  MappedLake made;
  made.AddSnapshotAndMapping();
  made.AddMappedFile(200, "fl/y=2.5", 2000);
  made.AddMappedFile(201, "fl/y=-1", 3000);
  auto lake = made.Open();
  ASSERT_NE(lake, nullptr);
  auto before = ScanAt(*lake, 8, "");
  ASSERT_TRUE(before.ok()) << before.status().ToString();
  auto after = ScanAt(*lake, 9, "");
  ASSERT_TRUE(after.ok()) << after.status().ToString();
  // Snapshot 9 = snapshot 8 plus the six mapped rows; rowid = row_id_start + position.
  ASSERT_EQ((*after)->num_rows, (*before)->num_rows + 6);
  auto mapped = ScanAt(*lake, 9, "rowid >= 2000");
  ASSERT_TRUE(mapped.ok()) << mapped.status().ToString();
  const DataType int32(TypeId::kInt32), float32(TypeId::kFloat32);
  EXPECT_EQ(ColumnValues(**mapped, 0),
            (std::vector<Value>{Value::Int64(2000), Value::Int64(2001), Value::Int64(2002),
                                Value::Int64(3000), Value::Int64(3001), Value::Int64(3002)}));
  EXPECT_EQ(ColumnValues(**mapped, 1),
            (std::vector<Value>{Value::Int(int32, 2500), Value::Int(int32, 2501),
                                Value::Int(int32, 2502), Value::Int(int32, 2510),
                                Value::Int(int32, 2511), Value::Int(int32, 2512)}));
  EXPECT_EQ(ColumnValues(**mapped, 2),
            (std::vector<Value>{Value::Float64(0), Value::Float64(0.5), Value::Float64(1),
                                Value::Float64(0), Value::Float64(0.5), Value::Float64(1)}));
  EXPECT_EQ(ColumnValues(**mapped, 3),
            (std::vector<Value>{Value::Double(float32, 2.5), Value::Double(float32, 2.5),
                                Value::Double(float32, 2.5), Value::Double(float32, -1),
                                Value::Double(float32, -1), Value::Double(float32, -1)}));
  // Predicates on the mapped and the partition column.
  auto filtered = ScanAt(*lake, 9, "rowid >= 2000 AND y < 0 AND x > 0.25");
  ASSERT_TRUE(filtered.ok()) << filtered.status().ToString();
  EXPECT_EQ(ColumnValues(**filtered, 0),
            (std::vector<Value>{Value::Int64(3001), Value::Int64(3002)}));
}

TEST(NameMappingTest, MissingPartitionDirectoryAndMappingAreCorruption) {
  MappedLake made;
  made.AddSnapshotAndMapping();
  made.AddMappedFile(200, "fl/no_partition", 2000);
  auto lake = made.Open();
  ASSERT_NE(lake, nullptr);
  auto scan = ScanAt(*lake, 9, "");
  ASSERT_FALSE(scan.ok());
  EXPECT_EQ(scan.status().code(), StatusCode::kCorruption);
  EXPECT_NE(scan.status().message().find("is name-mapped with partition column 'y' but its path "
                                         "has no 'y=' directory"),
            std::string::npos)
      << scan.status().ToString();

  made.Exec("DELETE FROM ducklake_column_mapping WHERE mapping_id = 50");
  made.Exec("DELETE FROM ducklake_name_mapping WHERE mapping_id = 50");
  auto reopened = made.Open();
  ASSERT_NE(reopened, nullptr);
  auto dangling = ScanAt(*reopened, 9, "");
  ASSERT_FALSE(dangling.ok());
  EXPECT_EQ(dangling.status().code(), StatusCode::kCorruption) << dangling.status().ToString();
  EXPECT_NE(dangling.status().message().find("mapping"), std::string::npos)
      << dangling.status().ToString();
}

}  // namespace
}  // namespace tarn
