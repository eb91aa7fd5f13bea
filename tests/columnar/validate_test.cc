// Column::Validate and Batch::Validate against hand-broken columns: each corruption must be
// caught with a message naming what is wrong.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

#include "tarn/columnar.h"

namespace tarn {
namespace {

using ::testing::HasSubstr;

DataType Int() { return DataType(TypeId::kInt32); }
DataType Varchar() { return DataType(TypeId::kVarchar); }

std::shared_ptr<Column> Strings(std::initializer_list<const char*> values, bool null_second = false) {
  ColumnBuilder builder(Varchar());
  int row = 0;
  for (const char* value : values) {
    if (null_second && row == 1) {
      builder.AppendNull();
    } else {
      builder.AppendBytes(value);
    }
    ++row;
  }
  return builder.Finish();
}

std::shared_ptr<Column> IntList() {
  DataType type = DataType::List(Int());
  ColumnBuilder builder(type);
  EXPECT_TRUE(builder.Append(Value::Nested(type, {Value::Int(Int(), 1), Value::Int(Int(), 2)})).ok());
  builder.AppendNull();
  EXPECT_TRUE(builder.Append(Value::Nested(type, {Value::Int(Int(), 3)})).ok());
  return builder.Finish();
}

void ExpectCorrupt(const Column& column, const std::string& fragment) {
  Status status = column.Validate();
  EXPECT_EQ(status.code(), StatusCode::kCorruption) << status.ToString();
  EXPECT_THAT(status.message(), HasSubstr(fragment));
}

TEST(ValidateTest, GoodColumnsPass) {
  EXPECT_TRUE(Strings({"a", "", "c"}, true)->Validate().ok());
  EXPECT_TRUE(IntList()->Validate().ok());
  EXPECT_TRUE(ColumnBuilder(Int()).Finish()->Validate().ok());
}

TEST(ValidateTest, DecreasingOffsets) {
  auto column = Strings({"ab", "cd", "ef"});
  column->values->mutable_data_as<int64_t>()[2] = 1;
  ExpectCorrupt(*column, "offsets decrease at row 1: 2 > 1");
}

TEST(ValidateTest, OffsetPastData) {
  auto column = Strings({"ab", "cd"});
  column->values->mutable_data_as<int64_t>()[2] = 1000;
  ExpectCorrupt(*column, "last offset 1000 exceeds the data size 4");
}

TEST(ValidateTest, NegativeFirstOffset) {
  auto column = Strings({"ab"});
  column->values->mutable_data_as<int64_t>()[0] = -1;
  ExpectCorrupt(*column, "first offset is negative");
}

TEST(ValidateTest, ShortOffsetsBuffer) {
  auto column = Strings({"ab", "cd"});
  column->values->Resize(16);
  ExpectCorrupt(*column, "values buffer has 16 bytes, expected at least 24");
}

TEST(ValidateTest, NullCountDisagreesWithBitmap) {
  auto column = Strings({"a", "b", "c"}, true);
  column->null_count = 2;
  ExpectCorrupt(*column, "null_count is 2 but the bitmap has 1 NULLs");
}

TEST(ValidateTest, BitmapWithoutNulls) {
  auto column = Strings({"a", "b"});
  column->validity = Buffer::Allocate(1);
  ExpectCorrupt(*column, "validity bitmap is present but null_count is 0");
}

TEST(ValidateTest, NullsWithoutBitmap) {
  auto column = Strings({"a", "b", "c"}, true);
  column->validity.reset();
  ExpectCorrupt(*column, "no validity bitmap");
}

TEST(ValidateTest, NullCountOutOfRange) {
  auto column = Strings({"a"});
  column->null_count = 5;
  ExpectCorrupt(*column, "null_count 5 outside [0, 1]");
}

TEST(ValidateTest, NonEmptyNullString) {
  auto column = Strings({"a", "b", "c"}, true);
  // Make NULL row 1 cover "c"'s byte.
  column->values->mutable_data_as<int64_t>()[2] = 2;
  ExpectCorrupt(*column, "NULL row 1 is not empty");
}

TEST(ValidateTest, NonZeroNullValue) {
  ColumnBuilder builder(DataType(TypeId::kInt64));
  builder.AppendNumber<int64_t>(1);
  builder.AppendNull();
  auto column = builder.Finish();
  column->values->mutable_data_as<int64_t>()[1] = 7;
  ExpectCorrupt(*column, "NULL row 1 is not zeroed");
}

TEST(ValidateTest, InvalidUtf8) {
  for (const char* bad : {"\xff", "\xc3", "\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "ab\xe2\x82"}) {
    auto column = Strings({"ok", bad});
    ExpectCorrupt(*column, "row 1 is not valid UTF-8");
  }
  EXPECT_TRUE(Strings({"ü日😀", "plain ascii text longer than eight bytes"})->Validate().ok());
  // Blobs may hold anything.
  ColumnBuilder blobs(DataType(TypeId::kBlob));
  blobs.AppendBytes(std::string("\xff\0", 2));
  EXPECT_TRUE(blobs.Finish()->Validate().ok());
}

TEST(ValidateTest, DecimalBeyondPrecision) {
  ColumnBuilder builder(DataType::Decimal(2, 0));
  ASSERT_TRUE(builder.Append(Value::Int128(DataType::Decimal(2, 0), 99)).ok());
  auto column = builder.Finish();
  __int128 too_big = 100;
  std::memcpy(column->values->mutable_data(), &too_big, 16);
  ExpectCorrupt(*column, "row 0 exceeds the decimal precision");
}

TEST(ValidateTest, ListOffsetsPastChild) {
  auto column = IntList();
  column->values->mutable_data_as<int32_t>()[3] = 9;
  ExpectCorrupt(*column, "last offset 9 exceeds the child size 3");
}

TEST(ValidateTest, ListNullRowWithElements) {
  auto column = IntList();
  column->values->mutable_data_as<int32_t>()[2] = 3;  // NULL row 1 now spans element 2
  ExpectCorrupt(*column, "NULL row 1 is not empty");
}

TEST(ValidateTest, StructChildLength) {
  DataType type = DataType::Struct({Field("a", Int()), Field("b", Varchar())});
  ColumnBuilder builder(type);
  ASSERT_TRUE(builder.Append(Value::Nested(type, {Value::Int(Int(), 1), Value::Varchar("x")})).ok());
  auto column = builder.Finish();
  column->children[1] = Strings({"x", "y"});
  ExpectCorrupt(*column, "child 'b' has 2 rows, expected 1");
  column->children.pop_back();
  ExpectCorrupt(*column, "has 1 children, the type has 2");
}

TEST(ValidateTest, NestedErrorsNameThePath) {
  DataType type = DataType::Struct({Field("s", Varchar())});
  ColumnBuilder builder(type);
  ASSERT_TRUE(builder.Append(Value::Nested(type, {Value::Varchar("ab")})).ok());
  auto column = builder.Finish();
  column->children[0]->values->mutable_data_as<int64_t>()[1] = 50;
  ExpectCorrupt(*column, "column $.s (VARCHAR)");
}

TEST(ValidateTest, NotNullChildWithNulls) {
  DataType type = DataType::Struct({Field("a", Int(), false)});
  auto column = std::make_shared<Column>();
  column->type = type;
  column->length = 1;
  ColumnBuilder child(Int());
  child.AppendNull();
  column->children.push_back(child.Finish());
  ExpectCorrupt(*column, "non-nullable child 'a' has 1 NULLs");
}

TEST(ValidateTest, ChildTypeMismatch) {
  auto column = IntList();
  column->children[0] = Strings({"a", "b", "c"});
  ExpectCorrupt(*column, "child 'element' has type VARCHAR, expected INTEGER");
}

TEST(ValidateTest, BooleanNullRowMustBeFalse) {
  ColumnBuilder builder(DataType(TypeId::kBoolean));
  builder.AppendBool(true);
  builder.AppendNull();
  auto column = builder.Finish();
  SetBit(column->values->mutable_data(), 1);
  ExpectCorrupt(*column, "NULL row 1 has a set value bit");
}

TEST(ValidateTest, BatchChecks) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{Field("a", Varchar(), false)});
  EXPECT_TRUE(MakeBatch(schema, {Strings({"x", "y"})})->Validate().ok());
  Status not_null = MakeBatch(schema, {Strings({"x", "y"}, true)})->Validate();
  EXPECT_THAT(not_null.message(), HasSubstr("is NOT NULL but has 1 NULLs"));
  auto wrong_type = MakeBatch(schema, {IntList()});
  EXPECT_THAT(wrong_type->Validate().message(), HasSubstr("has type INTEGER[], the schema says VARCHAR"));
  auto short_batch = MakeBatch(schema, {Strings({"x", "y"})});
  short_batch->num_rows = 3;
  EXPECT_THAT(short_batch->Validate().message(), HasSubstr("has 2 rows, the batch has 3"));
  auto missing = MakeBatch(schema, {});
  EXPECT_THAT(missing->Validate().message(), HasSubstr("batch has 0 columns but its schema has 1"));
}

}  // namespace
}  // namespace tarn
