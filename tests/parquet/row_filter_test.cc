// Scans that evaluate a row filter while decoding (parquet/filtered_scan.h). The contract:
// rows the filter keeps are never dropped, rows it rejects may be, so after the caller's own
// filter pass the rows must equal a plain scan's rows filtered the same way. Checked for
// filters keeping nothing, everything, a few rows (the other columns then decoded only for
// them, skipping inside pages) and many, over string, list and struct columns with NULLs,
// several row groups and pages, small batches, row selections, positions and parallel decoding.
#include <gtest/gtest.h>

#include <random>

#include "parquet/filtered_scan.h"
#include "support/random_data.h"
#include "tarn/expr.h"
#include "tarn/io.h"
#include "tarn/parquet.h"

namespace tarn {
namespace {

Schema TestSchema() {
  Schema schema;
  schema.fields.emplace_back("id", DataType(TypeId::kInt64), false);
  schema.fields.emplace_back("k", DataType(TypeId::kInt32));
  schema.fields.emplace_back("s", DataType(TypeId::kVarchar));
  schema.fields.emplace_back("l", *ParseSqlType("INTEGER[]"));
  schema.fields.emplace_back("st", *ParseSqlType("STRUCT(a INTEGER, b VARCHAR)"));
  return schema;
}

class RowFilterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs_ = NewMemoryFileSystem();
    const Schema schema = TestSchema();
    auto properties = WriterProperties::Builder()
                          .max_row_group_rows(7000)
                          .data_page_rows(900)
                          .Build();
    ASSERT_TRUE(properties.ok()) << properties.status().ToString();
    auto writer = ParquetWriter::Open(fs_, "t.parquet", schema, *properties);
    ASSERT_TRUE(writer.ok()) << writer.status().ToString();
    std::mt19937_64 rng(42);
    int64_t next_id = 0;
    for (int chunk = 0; chunk < 5; ++chunk) {
      auto batch = testing::RandomBatch(rng, schema, 5000, 0.2);
      // id: the row number; k: small values so filters on it have known selectivity.
      auto ids = Buffer::Allocate(5000 * 8);
      auto ks = Buffer::Allocate(5000 * 4);
      for (int64_t row = 0; row < 5000; ++row) {
        ids->mutable_data_as<int64_t>()[row] = next_id++;
        ks->mutable_data_as<int32_t>()[row] = static_cast<int32_t>(rng() % 100);
      }
      batch->columns[0]->values = ids;
      batch->columns[1]->values = ks;
      for (int64_t row = 0; row < 5000; ++row) {  // NULL slots hold zero
        if (batch->columns[1]->IsNull(row)) ks->mutable_data_as<int32_t>()[row] = 0;
      }
      Status valid = batch->Validate();
      ASSERT_TRUE(valid.ok()) << valid.ToString();
      ASSERT_TRUE((*writer)->Write(*batch).ok());
    }
    auto info = (*writer)->Finish();
    ASSERT_TRUE(info.ok()) << info.status().ToString();
    ASSERT_GE(info->num_row_groups, 3);
    auto reader = ParquetReader::Open(fs_, "t.parquet");
    ASSERT_TRUE(reader.ok()) << reader.status().ToString();
    reader_ = std::move(reader).value();
  }

  // All batches of a scan, concatenated, then filtered by `filter`.
  std::shared_ptr<Batch> Drain(Result<std::unique_ptr<ScanReader>> scan, const BoundExpr& filter,
                               int64_t* returned_rows) {
    EXPECT_TRUE(scan.ok()) << scan.status().ToString();
    if (!scan.ok()) return nullptr;
    std::vector<std::shared_ptr<Batch>> batches;
    *returned_rows = 0;
    while (true) {
      auto next = (*scan)->Next();
      EXPECT_TRUE(next.ok()) << next.status().ToString();
      if (!next.ok() || !*next) break;
      EXPECT_TRUE((*next)->Validate().ok());
      EXPECT_GT((*next)->num_rows, 0);
      *returned_rows += (*next)->num_rows;
      auto filtered = FilterBatch(**next, filter);
      EXPECT_TRUE(filtered.ok());
      if (filtered.ok() && (*filtered)->num_rows > 0) batches.push_back(*filtered);
    }
    if (batches.empty()) return nullptr;
    return ConcatenateBatches(batches);
  }

  // Compares the filtered scan against the plain one; returns the rows the filtered scan
  // handed back (before the caller's filter pass).
  int64_t Check(const std::string& where, ScanOptions options) {
    auto scan_schema = reader_->Scan(options);
    EXPECT_TRUE(scan_schema.ok());
    if (!scan_schema.ok()) return -1;
    auto filter = ParseAndBind(where, *(*scan_schema)->schema());
    EXPECT_TRUE(filter.ok()) << filter.status().ToString();
    if (!filter.ok()) return -1;
    std::shared_ptr<const BoundExpr> shared = std::move(filter).value();
    int64_t plain_rows = 0;
    int64_t filtered_rows = 0;
    auto expected = Drain(reader_->Scan(options), *shared, &plain_rows);
    auto actual =
        Drain(parquet::ScanWithRowFilter(*reader_, options, shared), *shared, &filtered_rows);
    if (expected == nullptr || actual == nullptr) {
      EXPECT_EQ(expected == nullptr, actual == nullptr) << where;
    } else {
      EXPECT_EQ(testing::DescribeMismatch(*expected, *actual), "") << where;
    }
    return filtered_rows;
  }

  std::shared_ptr<FileSystem> fs_;
  std::unique_ptr<ParquetReader> reader_;
};

TEST_F(RowFilterTest, KeepsExactlyTheFilteredRows) {
  ThreadPool pool(2);
  for (int parallel : {1, 2}) {
    for (int64_t batch_rows : {int64_t{122880}, int64_t{1000}, int64_t{333}}) {
      ScanOptions options;
      options.pool = &pool;
      options.max_parallel_row_groups = parallel;
      options.batch_rows = batch_rows;
      SCOPED_TRACE(::testing::Message() << "parallel " << parallel << " batch " << batch_rows);
      // Nothing kept: no batch comes back at all.
      EXPECT_EQ(Check("k > 1000", options), 0);
      // Everything kept: every row comes back.
      EXPECT_EQ(Check("k >= 0 OR k IS NULL", options), 25000);
      // A few rows: only those come back, the other columns decoded for them alone.
      EXPECT_LT(Check("k = 3", options), 25000 / 8);
      EXPECT_LT(Check("id % 997 = 5 OR id = 24999", options), 100);
      // Many rows: batches come back whole, the caller's pass does the filtering.
      EXPECT_EQ(Check("k < 50", options), 25000);
      // Filters on strings and on NULLs.
      Check("s IS NULL AND k < 20", options);
      Check("length(s) > 5 AND k > 90", options);
    }
  }
}

TEST_F(RowFilterTest, PositionsAndSelections) {
  ScanOptions options;
  options.with_position = true;
  options.batch_rows = 2000;
  EXPECT_LT(Check("k = 7", options), 25000 / 8);
  EXPECT_LT(Check("file_row_number % 1000 = 999", options), 100);
  // A selection that starts and ends inside row groups and pages.
  options.selection = RowSelection::FromRanges({{1234, 9876}, {15000, 15001}, {20100, 24999}});
  EXPECT_LT(Check("k = 11", options), 25000 / 8);
  EXPECT_EQ(Check("k >= 0 OR k IS NULL", options), (9876 - 1234) + 1 + (24999 - 20100));
}

TEST_F(RowFilterTest, ProjectionWithoutTheFilterColumnsOrder) {
  // The filter reads the last output column; nested columns come first.
  ScanOptions options;
  options.columns = {"st", "l", "s", "k"};
  options.batch_rows = 4096;
  EXPECT_LT(Check("k = 42", options), 25000 / 8);
  EXPECT_LT(Check("st.a % 50 = 1 AND k < 10", options), 25000 / 8);
}

}  // namespace
}  // namespace tarn
