// Corrupt catalog rows under the write path: each corruption, made by hand in a committed lake,
// makes a transaction (insert to a file, delete, update, commit) fail with an error that names
// the catalog table, the row and what is wrong, and nothing is written: the catalog file keeps
// its bytes and no data or delete file is left behind.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "write_path_util.h"

namespace tarn {
namespace {

using lake_testing::InsertKeys;
using lake_testing::OpenWritable;
using lake_testing::ParquetFilesUnder;
using lake_testing::PreparedLake;

std::string FileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

Status Corrupt(const std::string& catalog, const std::string& sql) {
  TARN_ASSIGN_OR_RETURN(auto store, OpenSqliteCatalogStore(catalog, /*read_only=*/false));
  TARN_ASSIGN_OR_RETURN(int64_t changed, store->Execute(sql, {}));
  if (changed < 1) return Status::InvalidArgument("the corruption changed no row: ", sql);
  return Status::OK();
}

// A statistics string of a data file only prunes: one that does not decode counts as unknown
// (the file is read), so the write succeeds and deletes exactly the right rows.
TEST(CorruptCatalogFallbackTest, UndecodableFileStatisticsAreUnknown) {
  PreparedLake lake;
  ASSERT_TRUE(lake.Create(300).ok());
  Status corrupted = Corrupt(lake.catalog,
                             "UPDATE ducklake_file_column_stats SET min_value = '1e999x', "
                             "max_value = 'zz' WHERE column_id = 1");
  ASSERT_TRUE(corrupted.ok()) << corrupted.ToString();
  auto opened = OpenWritable(lake.catalog, lake.data);
  ASSERT_TRUE(opened.ok());
  auto txn = WriteTransaction::Begin(**opened, LocalFileSystem());
  ASSERT_TRUE(txn.ok());
  auto deleted = (*txn)->Delete("main", "t", std::string("k < 150"));
  ASSERT_TRUE(deleted.ok()) << deleted.status().ToString();
  EXPECT_EQ(deleted->rows, 150);
  ASSERT_TRUE((*txn)->Commit().ok());
  auto rows = lake_testing::RowsAt(**opened, -1);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  EXPECT_EQ(rows->size(), 153u);  // 150 file rows and 3 inlined rows left
  for (const auto& [rowid, row] : *rows) EXPECT_GE(row.first, 150) << rowid;
}

// Opens the lake and runs one transaction; the first error.
Status WriteSomething(const PreparedLake& lake) {
  TARN_ASSIGN_OR_RETURN(auto opened, OpenWritable(lake.catalog, lake.data));
  TARN_ASSIGN_OR_RETURN(auto txn, WriteTransaction::Begin(*opened, LocalFileSystem()));
  TARN_RETURN_NOT_OK(InsertKeys(*txn, 7000, 40, "c").status());
  TARN_RETURN_NOT_OK(txn->Delete("main", "t", std::string("k % 9 = 4")).status());
  TARN_RETURN_NOT_OK(txn->Update("main", "t", {{"s", "'x'"}}, std::string("k = 5")).status());
  return txn->Commit().status();
}

struct CorruptionCase {
  const char* name;
  const char* sql;
  StatusCode code;
  std::vector<const char*> message_parts;  // each must appear in the error
};

class CorruptCatalogTest : public ::testing::TestWithParam<CorruptionCase> {};

TEST_P(CorruptCatalogTest, ClearErrorAndNothingWritten) {
  static PreparedLake* base = [] {
    auto* lake = new PreparedLake();
    Status created = lake->Create(300);
    EXPECT_TRUE(created.ok()) << created.ToString();
    return lake;
  }();
  const CorruptionCase& c = GetParam();
  PreparedLake lake = base->Copy();
  Status corrupted = Corrupt(lake.catalog, c.sql);
  ASSERT_TRUE(corrupted.ok()) << corrupted.ToString();
  const std::string catalog_before = FileBytes(lake.catalog);
  const std::set<std::string> files_before = ParquetFilesUnder(lake.data);

  Status status = WriteSomething(lake);
  ASSERT_FALSE(status.ok()) << c.name << ": the write succeeded on a corrupt catalog";
  EXPECT_EQ(status.code(), c.code) << status.ToString();
  for (const char* part : c.message_parts) {
    EXPECT_NE(status.message().find(part), std::string::npos)
        << c.name << ": the error does not say \"" << part << "\": " << status.ToString();
  }
  EXPECT_TRUE(FileBytes(lake.catalog) == catalog_before) << c.name << ": the catalog changed";
  EXPECT_EQ(ParquetFilesUnder(lake.data), files_before) << c.name << ": files were left behind";
}

const CorruptionCase kCases[] = {
    {"BadStatsString",
     "UPDATE ducklake_table_column_stats SET min_value = 'twelve' WHERE column_id = 1",
     StatusCode::kCorruption,
     {"ducklake_table_column_stats row (table_id = 1, column_id = 1)", "min_value",
      "'twelve' is not a statistics value of type int64"}},
    {"DanglingSchemaIdOfTable", "UPDATE ducklake_table SET schema_id = 42",
     StatusCode::kCorruption,
     {"ducklake_table row (table_id = 1)", "schema_id 42 is not a visible schema"}},
    {"DanglingParentColumn", "UPDATE ducklake_column SET parent_column = 99 WHERE column_id = 2",
     StatusCode::kCorruption,
     {"ducklake_column", "99"}},
    {"DanglingInlinedTable",
     "UPDATE ducklake_inlined_data_tables SET table_name = 'ducklake_inlined_data_1_99'",
     StatusCode::kCorruption,
     {"ducklake_inlined_data_1_99"}},
    {"NonNumericNextFileId",
     "UPDATE ducklake_snapshot SET next_file_id = 'many' WHERE snapshot_id = (SELECT "
     "max(snapshot_id) FROM ducklake_snapshot)",
     StatusCode::kCorruption,
     {"ducklake_snapshot", "next_file_id", "'many'"}},
    {"NonNumericNextRowId", "UPDATE ducklake_table_stats SET next_row_id = 'ten'",
     StatusCode::kCorruption,
     {"ducklake_table_stats", "next_row_id", "'ten'"}},
    {"NonNumericRowIdStart", "UPDATE ducklake_data_file SET row_id_start = 'x0' WHERE "
     "data_file_id = 1",
     StatusCode::kCorruption,
     {"ducklake_data_file", "row_id_start", "'x0'"}},
    {"BrokenColumnType", "UPDATE ducklake_column SET column_type = 'int33' WHERE column_id = 1",
     StatusCode::kCorruption,
     {"ducklake_column", "int33"}},
};

INSTANTIATE_TEST_SUITE_P(Cases, CorruptCatalogTest, ::testing::ValuesIn(kCases),
                         [](const auto& param_info) { return std::string(param_info.param.name); });

}  // namespace
}  // namespace tarn
