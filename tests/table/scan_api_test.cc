// The TableScan API on the `basic` fixture: projection order, pseudo-columns, predicates that
// read unprojected columns, errors, the Arrow stream export and cancellation.
#include <gtest/gtest.h>

#include "table/table_test_util.h"

namespace tarn {
namespace {

class ScanApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto lake = table_testing::OpenLake(table_testing::CopyCatalog("basic", dir_),
                                        table_testing::FixtureDir("basic") + "/data");
    ASSERT_TRUE(lake.ok()) << lake.status().ToString();
    lake_ = std::move(lake).value();
    auto table = table_testing::LoadTableAt(*lake_, 10, "main", "t");
    ASSERT_TRUE(table.ok()) << table.status().ToString();
    table_ = *table;
  }
  testing::TempDir dir_;
  std::unique_ptr<Lake> lake_;
  std::shared_ptr<const TableMetadata> table_;
};

TEST_F(ScanApiTest, ProjectionPseudoColumnsAndFilterOnUnprojectedColumn) {
  TableScanOptions options;
  options.columns = {"S", "id"};  // case-insensitive, in the caller's order
  options.with_rowid = true;
  options.with_snapshot_id = true;
  options.filter = "i32 = 20035 OR rowid = 12943";
  auto rows = table_testing::Scan(*lake_, table_, options);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  const Schema& schema = *(*rows)->schema;
  ASSERT_EQ(schema.num_fields(), 4);
  EXPECT_EQ(schema.field(0).name, "snapshot_id");
  EXPECT_EQ(schema.field(1).name, "rowid");
  EXPECT_EQ(schema.field(2).name, "s");
  EXPECT_EQ(schema.field(3).name, "id");
  auto sorted = table_testing::SortBy(**rows, 1);
  // Rows 20000 (rowid 12943, first of the last insert) and 20035; both written at 10.
  ASSERT_EQ(sorted->num_rows, 2);
  EXPECT_EQ(sorted->column(0).GetValue(0), Value::Int64(10));
  EXPECT_EQ(sorted->column(1).GetValue(0), Value::Int64(12943));
  EXPECT_EQ(sorted->column(2).GetValue(0), Value::Varchar("late 20000"));
  EXPECT_EQ(sorted->column(3).GetValue(1), Value::Int64(20035));
}

// A filter over columns the files hold as they are is evaluated while decoding (most rows it
// rejects never reach the residual filter); one the data files cannot evaluate (arithmetic may
// fail) is left to the residual filter alone. Both give the same rows.
TEST_F(ScanApiTest, FilterIsEvaluatedWhileDecoding) {
  auto scan = [&](const std::string& filter, TableScanMetrics* metrics) {
    TableScanOptions options;
    options.columns = {"id", "s"};
    options.with_rowid = true;
    options.filter = filter;
    auto reader = OpenTableScan(*lake_, LocalFileSystem(), table_, options);
    EXPECT_TRUE(reader.ok()) << reader.status().ToString();
    auto rows = table_testing::Drain(**reader);
    EXPECT_TRUE(rows.ok()) << rows.status().ToString();
    *metrics = (*reader)->metrics();
    return table_testing::SortBy(**rows, 0);
  };
  TableScanMetrics pushed, residual;
  auto a = scan("i32 = 20035 OR (i32 > 100 AND i32 < 140 AND s IS NOT NULL)", &pushed);
  auto b = scan("i32 + 0 = 20035 OR (i32 + 0 > 100 AND i32 + 0 < 140 AND s IS NOT NULL)",
                &residual);
  ASSERT_GT(a->num_rows, 1);
  ASSERT_EQ(a->num_rows, b->num_rows);
  for (int c = 0; c < a->num_columns(); ++c) {
    for (int64_t row = 0; row < a->num_rows; ++row) {
      ASSERT_EQ(a->column(c).GetValue(row), b->column(c).GetValue(row)) << c << " " << row;
    }
  }
  EXPECT_GT(residual.rows_filtered, 1000) << pushed.rows_filtered;
  EXPECT_LT(pushed.rows_filtered, residual.rows_filtered / 4);
}

TEST_F(ScanApiTest, Errors) {
  TableScanOptions options;
  options.columns = {"nope"};
  auto reader = OpenTableScan(*lake_, LocalFileSystem(), table_, options);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kNotFound);
  EXPECT_NE(reader.status().ToString().find("nope"), std::string::npos);
  options.columns = {};
  options.filter = "id + 1";
  reader = OpenTableScan(*lake_, LocalFileSystem(), table_, options);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kInvalidArgument);
  options.filter = "idd > 3";
  reader = OpenTableScan(*lake_, LocalFileSystem(), table_, options);
  ASSERT_FALSE(reader.ok());
  // A data file that is gone is an error naming it, not an empty answer.
  auto missing = table_testing::OpenLake(table_testing::CopyCatalog("basic", dir_),
                                         dir_.Join("nowhere"));
  ASSERT_TRUE(missing.ok());
  auto table = table_testing::LoadTableAt(**missing, 10, "main", "t");
  ASSERT_TRUE(table.ok());
  auto rows = table_testing::Scan(**missing, *table, {});
  ASSERT_FALSE(rows.ok());
  EXPECT_NE(rows.status().ToString().find("nowhere"), std::string::npos)
      << rows.status().ToString();
}

TEST_F(ScanApiTest, ExportsAsArrowStreamAndCancels) {
  TableScanOptions options;
  options.with_rowid = true;
  options.columns = {"id", "f64"};
  auto expected = table_testing::Scan(*lake_, table_, options);
  ASSERT_TRUE(expected.ok());
  auto reader = OpenTableScan(*lake_, LocalFileSystem(), table_, options);
  ASSERT_TRUE(reader.ok());
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportBatchReader(std::move(reader).value(), &stream).ok());
  ArrowSchema arrow_schema;
  ASSERT_EQ(stream.get_schema(&stream, &arrow_schema), 0);
  auto schema = ImportSchema(&arrow_schema);
  ASSERT_TRUE(schema.ok());
  auto shared_schema = std::make_shared<Schema>(*schema);
  std::vector<std::shared_ptr<Batch>> batches;
  while (true) {
    ArrowArray array;
    ASSERT_EQ(stream.get_next(&stream, &array), 0);
    if (array.release == nullptr) break;
    auto batch = ImportBatch(shared_schema, &array);
    ASSERT_TRUE(batch.ok()) << batch.status().ToString();
    batches.push_back(*batch);
  }
  stream.release(&stream);
  auto imported = ConcatenateBatches(batches);
  EXPECT_TRUE(table_testing::BatchesEqual(**expected, *imported));

  CancellationToken cancel;
  cancel.Cancel();
  options.cancel = &cancel;
  auto cancelled = table_testing::Scan(*lake_, table_, options);
  ASSERT_FALSE(cancelled.ok());
  EXPECT_EQ(cancelled.status().code(), StatusCode::kCancelled);
}

}  // namespace
}  // namespace tarn
