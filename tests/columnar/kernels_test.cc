// The kernels against a naive model that moves Values row by row, on random columns of every
// type (nested included) with NULLs at every level.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "support/random_data.h"
#include "tarn/columnar.h"

namespace tarn {
namespace {

std::vector<Value> Rows(const Column& column) {
  std::vector<Value> rows;
  for (int64_t row = 0; row < column.length; ++row) rows.push_back(column.GetValue(row));
  return rows;
}

void ExpectRows(const Column& actual, const std::vector<Value>& expected, const std::string& what) {
  Status valid = actual.Validate();
  ASSERT_TRUE(valid.ok()) << what << ": " << valid.ToString();
  ASSERT_EQ(actual.length, static_cast<int64_t>(expected.size())) << what;
  int64_t nulls = 0;
  for (size_t row = 0; row < expected.size(); ++row) {
    Value got = actual.GetValue(static_cast<int64_t>(row));
    ASSERT_EQ(got, expected[row]) << what << " row " << row << ": expected " << expected[row].ToString()
                                  << ", got " << got.ToString();
    nulls += expected[row].is_null();
  }
  EXPECT_EQ(actual.null_count, nulls) << what;
}

class KernelsTest : public ::testing::Test {
 protected:
  std::mt19937_64 rng_{20240601};

  std::shared_ptr<Column> RandomColumn(const DataType& type) {
    const int64_t rows = static_cast<int64_t>(rng_() % 300);
    const double null_fraction = (rng_() % 3) * 0.25;
    return testing::RandomColumn(rng_, type, rows, null_fraction);
  }
};

TEST_F(KernelsTest, SliceMatchesModel) {
  for (int iteration = 0; iteration < 300; ++iteration) {
    DataType type = testing::RandomType(rng_, iteration % 3);
    auto column = RandomColumn(type);
    std::vector<Value> rows = Rows(*column);
    const int64_t offset = column->length == 0 ? 0 : static_cast<int64_t>(rng_() % (column->length + 1));
    const int64_t length = static_cast<int64_t>(rng_() % (column->length - offset + 1));
    auto sliced = Slice(*column, offset, length);
    ExpectRows(*sliced, std::vector<Value>(rows.begin() + offset, rows.begin() + offset + length),
               "Slice " + type.ToString());
    // Slicing a slice: offsets into children no longer start at zero in the source.
    if (length > 2) {
      auto inner = Slice(*sliced, 1, length - 2);
      ExpectRows(*inner, std::vector<Value>(rows.begin() + offset + 1, rows.begin() + offset + length - 1),
                 "Slice of slice " + type.ToString());
    }
  }
}

TEST_F(KernelsTest, TakeMatchesModel) {
  for (int iteration = 0; iteration < 300; ++iteration) {
    DataType type = testing::RandomType(rng_, iteration % 3);
    auto column = RandomColumn(type);
    std::vector<Value> rows = Rows(*column);
    std::vector<int64_t> indices;
    std::vector<Value> expected;
    if (column->length > 0) {
      const int count = static_cast<int>(rng_() % 400);
      for (int i = 0; i < count; ++i) {
        indices.push_back(static_cast<int64_t>(rng_() % column->length));  // repeats allowed
        expected.push_back(rows[indices.back()]);
      }
    }
    ExpectRows(*Take(*column, indices), expected, "Take " + type.ToString());
  }
}

TEST_F(KernelsTest, FilterMatchesModel) {
  for (int iteration = 0; iteration < 300; ++iteration) {
    DataType type = testing::RandomType(rng_, iteration % 3);
    auto column = RandomColumn(type);
    std::vector<Value> rows = Rows(*column);
    auto keep = Buffer::Allocate((column->length + 7) / 8);
    // Densities from none to all, so the all/none shortcuts are exercised too.
    const int density = static_cast<int>(rng_() % 5);
    std::vector<Value> expected;
    int64_t kept = 0;
    for (int64_t row = 0; row < column->length; ++row) {
      if (static_cast<int>(rng_() % 4) < density) {
        SetBit(keep->mutable_data(), row);
        expected.push_back(rows[row]);
        ++kept;
      }
    }
    ExpectRows(*Filter(*column, keep->data(), kept), expected, "Filter " + type.ToString());
  }
}

TEST_F(KernelsTest, ConcatenateMatchesModel) {
  for (int iteration = 0; iteration < 200; ++iteration) {
    DataType type = testing::RandomType(rng_, iteration % 3);
    std::vector<std::shared_ptr<Column>> parts;
    std::vector<Value> expected;
    const int count = 1 + static_cast<int>(rng_() % 5);
    for (int part = 0; part < count; ++part) {
      auto column = RandomColumn(type);
      // Some parts are slices, whose list children may start past zero.
      if (column->length > 3 && rng_() % 2 == 0) column = Slice(*column, 1, column->length - 2);
      for (const Value& value : Rows(*column)) expected.push_back(value);
      parts.push_back(column);
    }
    ExpectRows(*Concatenate(parts), expected, "Concatenate " + type.ToString());
  }
}

TEST_F(KernelsTest, ListWhoseOffsetsDoNotStartAtZero) {
  // A list column as a decoder might build it: offsets start at 2 and the child is longer.
  DataType type = DataType::List(DataType(TypeId::kInt64));
  ColumnBuilder child_builder(DataType(TypeId::kInt64));
  for (int64_t v = 0; v < 8; ++v) child_builder.AppendNumber(v);
  auto column = std::make_shared<Column>();
  column->type = type;
  column->length = 2;
  column->values = Buffer::Allocate(12);
  int32_t offsets[3] = {2, 4, 5};
  std::memcpy(column->values->mutable_data(), offsets, 12);
  column->children.push_back(child_builder.Finish());
  ASSERT_TRUE(column->Validate().ok());
  std::vector<Value> rows = Rows(*column);
  ASSERT_EQ(rows[0].children().size(), 2u);
  EXPECT_EQ(rows[0].children()[0], Value::Int64(2));
  std::vector<std::shared_ptr<Column>> parts = {column, column};
  std::vector<Value> twice = rows;
  twice.insert(twice.end(), rows.begin(), rows.end());
  ExpectRows(*Concatenate(parts), twice, "Concatenate");
  ExpectRows(*Slice(*column, 1, 1), {rows[1]}, "Slice");
  std::vector<int64_t> indices = {1, 0, 1};
  ExpectRows(*Take(*column, indices), {rows[1], rows[0], rows[1]}, "Take");
}

TEST_F(KernelsTest, StringsWhoseOffsetsDoNotStartAtZero) {
  // Offsets may start past zero in columns from outside (Validate allows it).
  auto column = std::make_shared<Column>();
  column->type = DataType(TypeId::kVarchar);
  column->length = 3;
  column->values = Buffer::Allocate(32);
  int64_t offsets[4] = {3, 5, 5, 9};
  std::memcpy(column->values->mutable_data(), offsets, 32);
  column->data = Buffer::CopyOf("xxxabcdefg", 10);
  ASSERT_TRUE(column->Validate().ok());
  std::vector<Value> rows = Rows(*column);
  EXPECT_EQ(rows[0], Value::Varchar("ab"));
  std::vector<std::shared_ptr<Column>> parts = {column, testing::RandomColumn(rng_, column->type, 5, 0.2), column};
  std::vector<Value> expected = rows;
  for (const Value& value : Rows(*parts[1])) expected.push_back(value);
  expected.insert(expected.end(), rows.begin(), rows.end());
  ExpectRows(*Concatenate(parts), expected, "Concatenate");
  ExpectRows(*Slice(*column, 1, 2), {rows[1], rows[2]}, "Slice");
  std::vector<int64_t> indices = {2, 0};
  ExpectRows(*Take(*column, indices), {rows[2], rows[0]}, "Take");
}

TEST_F(KernelsTest, BatchSliceAndConcatenate) {
  for (int iteration = 0; iteration < 30; ++iteration) {
    Schema schema = testing::RandomSchema(rng_, 1 + static_cast<int>(rng_() % 6), 2);
    auto whole = testing::RandomBatch(rng_, schema, 200, 0.2);
    ASSERT_TRUE(whole->Validate().ok()) << whole->Validate().ToString();
    std::vector<std::shared_ptr<Batch>> pieces;
    int64_t offset = 0;
    while (offset < whole->num_rows) {
      int64_t length = std::min<int64_t>(whole->num_rows - offset, static_cast<int64_t>(rng_() % 70));
      pieces.push_back(SliceBatch(*whole, offset, length));
      ASSERT_TRUE(pieces.back()->Validate().ok());
      offset += length;
    }
    auto rejoined = ConcatenateBatches(pieces);
    ASSERT_TRUE(rejoined->Validate().ok()) << rejoined->Validate().ToString();
    EXPECT_EQ(testing::DescribeMismatch(*whole, *rejoined), "");
  }
}

TEST_F(KernelsTest, DescribeMismatchFindsTheFirstDifference) {
  Schema schema({Field("a", DataType(TypeId::kFloat64)), Field("b", DataType(TypeId::kVarchar))});
  auto batch = testing::RandomBatch(rng_, schema, 10, 0.0);
  EXPECT_EQ(testing::DescribeMismatch(*batch, *batch), "");
  ColumnBuilder doubles(DataType(TypeId::kFloat64));
  for (int64_t row = 0; row < 10; ++row) {
    Value value = batch->column(0).GetValue(row);
    ASSERT_TRUE(doubles.Append(row == 6 ? Value::Double(DataType(TypeId::kFloat64), 123.5) : value).ok());
  }
  auto changed = MakeBatch(batch->schema, {doubles.Finish(), batch->columns[1]});
  std::string mismatch = testing::DescribeMismatch(*batch, *changed);
  EXPECT_NE(mismatch.find("row 6 column 0 'a'"), std::string::npos) << mismatch;
  EXPECT_NE(mismatch.find("actual 123.5"), std::string::npos) << mismatch;
  EXPECT_NE(testing::DescribeMismatch(*batch, *SliceBatch(*batch, 0, 9)), "");
}

TEST_F(KernelsTest, VectorReader) {
  Schema schema({Field("a", DataType(TypeId::kInt32))});
  auto shared = std::make_shared<const Schema>(schema);
  std::vector<std::shared_ptr<Batch>> batches = {testing::RandomBatch(rng_, schema, 3, 0),
                                                 testing::RandomBatch(rng_, schema, 4, 0)};
  auto reader = MakeVectorReader(shared, batches);
  EXPECT_EQ(reader->schema(), shared);
  for (const auto& batch : batches) {
    auto next = reader->Next();
    ASSERT_TRUE(next.ok());
    EXPECT_EQ(*next, batch);
  }
  auto end = reader->Next();
  ASSERT_TRUE(end.ok());
  EXPECT_EQ(*end, nullptr);
}

}  // namespace
}  // namespace tarn
