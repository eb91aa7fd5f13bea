// Arrow C Data / Stream export: round trips of every type through import, zero-copy export,
// release semantics and streams. Foreign layouts and malformed input: arrow_import_test.cc.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "support/random_data.h"
#include "tarn/columnar.h"

namespace tarn {
namespace {

using ::testing::HasSubstr;

std::shared_ptr<Batch> RoundTrip(const std::shared_ptr<Batch>& batch) {
  ArrowSchema c_schema;
  EXPECT_TRUE(ExportSchema(*batch->schema, &c_schema).ok());
  Result<Schema> schema = ImportSchema(&c_schema);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  EXPECT_EQ(c_schema.release, nullptr);
  if (!schema.ok()) return nullptr;
  EXPECT_EQ(*schema, *batch->schema) << schema->ToString() << " vs " << batch->schema->ToString();
  ArrowArray c_array;
  EXPECT_TRUE(ExportBatch(batch, &c_array).ok());
  Result<std::shared_ptr<Batch>> imported =
      ImportBatch(std::make_shared<const Schema>(std::move(*schema)), &c_array);
  EXPECT_EQ(c_array.release, nullptr);
  EXPECT_TRUE(imported.ok()) << imported.status().ToString();
  return imported.ok() ? *imported : nullptr;
}

TEST(ArrowTest, RoundTripEveryType) {
  std::mt19937_64 rng(99);
  for (int iteration = 0; iteration < 150; ++iteration) {
    Schema schema = testing::RandomSchema(rng, 1 + static_cast<int>(rng() % 8), iteration % 4);
    auto batch = testing::RandomBatch(rng, schema, static_cast<int64_t>(rng() % 200), 0.25);
    auto imported = RoundTrip(batch);
    ASSERT_NE(imported, nullptr);
    ASSERT_TRUE(imported->Validate().ok()) << imported->Validate().ToString();
    ASSERT_EQ(testing::DescribeMismatch(*batch, *imported), "") << schema.ToString();
  }
}

TEST(ArrowTest, RoundTripWithArrowSchemaOverload) {
  std::mt19937_64 rng(5);
  Schema schema = testing::RandomSchema(rng, 12, 3);
  auto batch = testing::RandomBatch(rng, schema, 64, 0.3);
  ArrowSchema c_schema;
  ArrowArray c_array;
  ASSERT_TRUE(ExportSchema(schema, &c_schema).ok());
  ASSERT_TRUE(ExportBatch(batch, &c_array).ok());
  auto imported = ImportBatch(&c_schema, &c_array);
  ASSERT_TRUE(imported.ok()) << imported.status().ToString();
  EXPECT_EQ(*(*imported)->schema, schema);
  EXPECT_EQ(testing::DescribeMismatch(*batch, **imported), "");
}

// Walks an exported array beside the column it came from: every buffer pointer must be the
// column's own buffer (no copy).
void ExpectSameBuffers(const Column& column, const ArrowArray& array) {
  ASSERT_EQ(array.length, column.length);
  ASSERT_EQ(array.null_count, column.null_count);
  ASSERT_EQ(array.offset, 0);
  EXPECT_EQ(array.buffers[0], column.validity ? column.validity->data() : nullptr);
  if (column.type.IsVarLength()) {
    ASSERT_EQ(array.n_buffers, 3);
    EXPECT_EQ(array.buffers[1], column.values->data());
    EXPECT_EQ(array.buffers[2], column.data->data());
  } else if (column.type.id == TypeId::kStruct) {
    ASSERT_EQ(array.n_buffers, 1);
  } else {
    ASSERT_EQ(array.n_buffers, 2);
    EXPECT_EQ(array.buffers[1], column.values->data());
  }
  ASSERT_EQ(array.n_children, static_cast<int64_t>(column.children.size()));
  for (size_t child_idx = 0; child_idx < column.children.size(); ++child_idx) {
    ExpectSameBuffers(*column.children[child_idx], *array.children[child_idx]);
  }
}

TEST(ArrowTest, ExportDoesNotCopy) {
  std::mt19937_64 rng(3);
  Schema schema = testing::RandomSchema(rng, 20, 3);
  auto batch = testing::RandomBatch(rng, schema, 100, 0.3);
  ArrowArray c_array;
  ASSERT_TRUE(ExportBatch(batch, &c_array).ok());
  ASSERT_EQ(c_array.n_children, schema.num_fields());
  ASSERT_EQ(c_array.n_buffers, 1);
  EXPECT_EQ(c_array.buffers[0], nullptr);
  for (int column_idx = 0; column_idx < batch->num_columns(); ++column_idx) {
    ExpectSameBuffers(batch->column(column_idx), *c_array.children[column_idx]);
  }
  // Releasing twice through a saved callback is harmless: the second call sees release == null.
  auto release = c_array.release;
  release(&c_array);
  EXPECT_EQ(c_array.release, nullptr);
  EXPECT_EQ(c_array.private_data, nullptr);
  release(&c_array);
}

TEST(ArrowTest, ExportedDataOutlivesTarnReferences) {
  std::mt19937_64 rng(4);
  Schema schema({Field("s", DataType(TypeId::kVarchar)), Field("l", DataType::List(DataType(TypeId::kInt64)))});
  auto batch = testing::RandomBatch(rng, schema, 50, 0.2);
  std::string expected = batch->column(0).GetValue(7).ToString();
  auto copy = RoundTrip(batch);  // the reference result, computed while tarn still holds it
  ArrowArray c_array;
  ASSERT_TRUE(ExportBatch(batch, &c_array).ok());
  batch.reset();  // tarn drops its references; the export keeps the buffers alive
  ArrowSchema c_schema;
  ASSERT_TRUE(ExportSchema(schema, &c_schema).ok());
  auto imported = ImportBatch(&c_schema, &c_array);
  ASSERT_TRUE(imported.ok());
  EXPECT_EQ((*imported)->column(0).GetValue(7).ToString(), expected);
  EXPECT_EQ(testing::DescribeMismatch(*copy, **imported), "");
}

TEST(ArrowTest, MovedChildOutlivesParent) {
  std::mt19937_64 rng(6);
  Schema schema({Field("a", DataType(TypeId::kVarchar)), Field("b", DataType(TypeId::kInt32))});
  auto batch = testing::RandomBatch(rng, schema, 20, 0.0);
  std::string first = std::string(batch->column(0).GetView(0));
  ArrowArray c_array;
  ASSERT_TRUE(ExportBatch(batch, &c_array).ok());
  batch.reset();
  // Move child 0 out, as the C Data Interface allows, then release the parent.
  ArrowArray child = *c_array.children[0];
  c_array.children[0]->release = nullptr;
  c_array.release(&c_array);
  EXPECT_EQ(c_array.release, nullptr);
  ASSERT_NE(child.release, nullptr);
  const int64_t* offsets = static_cast<const int64_t*>(child.buffers[1]);
  const char* data = static_cast<const char*>(child.buffers[2]);
  EXPECT_EQ(std::string(data + offsets[0], static_cast<size_t>(offsets[1] - offsets[0])), first);
  child.release(&child);
  EXPECT_EQ(child.release, nullptr);

  // The same for a schema.
  ArrowSchema c_schema;
  ASSERT_TRUE(ExportSchema(schema, &c_schema).ok());
  ArrowSchema child_schema = *c_schema.children[1];
  c_schema.children[1]->release = nullptr;
  c_schema.release(&c_schema);
  EXPECT_STREQ(child_schema.format, "i");
  EXPECT_STREQ(child_schema.name, "b");
  child_schema.release(&child_schema);
  EXPECT_EQ(child_schema.release, nullptr);
}

TEST(ArrowTest, ExportRefusesMismatchedBatches) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{Field("a", DataType(TypeId::kInt32))});
  ColumnBuilder strings(DataType(TypeId::kVarchar));
  strings.AppendBytes("x");
  ArrowArray c_array;
  Status status = ExportBatch(MakeBatch(schema, {strings.Finish()}), &c_array);
  EXPECT_EQ(status.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("the schema does not match"));
  auto short_batch = MakeBatch(schema, {ColumnBuilder(DataType(TypeId::kInt32)).Finish()});
  short_batch->num_rows = 2;
  EXPECT_FALSE(ExportBatch(short_batch, &c_array).ok());
}

TEST(ArrowTest, FormatsAndNames) {
  DataType map = DataType::Map(DataType(TypeId::kVarchar), DataType(TypeId::kInt64));
  Schema schema({Field("tz", DataType(TypeId::kTimestampTz), false, 7), Field("m", map),
                 Field("d", DataType::Decimal(38, 10)), Field("u", DataType(TypeId::kUuid)),
                 Field("l", DataType::List(DataType(TypeId::kDate)))});
  ArrowSchema c_schema;
  ASSERT_TRUE(ExportSchema(schema, &c_schema).ok());
  EXPECT_STREQ(c_schema.format, "+s");
  ASSERT_EQ(c_schema.n_children, 5);
  ArrowSchema* tz = c_schema.children[0];
  EXPECT_STREQ(tz->format, "tsu:UTC");
  EXPECT_EQ(tz->flags & ARROW_FLAG_NULLABLE, 0);
  ASSERT_NE(tz->metadata, nullptr);  // the field id
  ArrowSchema* m = c_schema.children[1];
  EXPECT_STREQ(m->format, "+m");
  EXPECT_EQ(m->flags & ARROW_FLAG_NULLABLE, ARROW_FLAG_NULLABLE);
  ASSERT_EQ(m->n_children, 1);
  EXPECT_STREQ(m->children[0]->name, "entries");
  EXPECT_EQ(m->children[0]->flags & ARROW_FLAG_NULLABLE, 0);
  EXPECT_STREQ(m->children[0]->format, "+s");
  EXPECT_STREQ(m->children[0]->children[0]->name, "key");
  EXPECT_EQ(m->children[0]->children[0]->flags & ARROW_FLAG_NULLABLE, 0);
  EXPECT_STREQ(m->children[0]->children[0]->format, "U");
  EXPECT_STREQ(m->children[0]->children[1]->name, "value");
  EXPECT_STREQ(m->children[0]->children[1]->format, "l");
  EXPECT_STREQ(c_schema.children[2]->format, "d:38,10");
  EXPECT_STREQ(c_schema.children[3]->format, "w:16");
  EXPECT_STREQ(c_schema.children[4]->format, "+l");
  EXPECT_STREQ(c_schema.children[4]->children[0]->format, "tdD");
  c_schema.release(&c_schema);

  ArrowSchema single;
  ASSERT_TRUE(ExportType(Field("x", DataType(TypeId::kTimestampS)), &single).ok());
  EXPECT_STREQ(single.format, "tss:");
  EXPECT_STREQ(single.name, "x");
  single.release(&single);
}

class CountingReader final : public BatchReader {
 public:
  CountingReader(std::shared_ptr<const Schema> schema, std::vector<std::shared_ptr<Batch>> batches, bool fail_at_end)
      : schema_(std::move(schema)), batches_(std::move(batches)), fail_at_end_(fail_at_end) {}
  std::shared_ptr<const Schema> schema() const override { return schema_; }
  Result<std::shared_ptr<Batch>> Next() override {
    if (next_ < batches_.size()) return batches_[next_++];
    if (fail_at_end_) return Status::IOError("disk on fire at file x.parquet offset 42");
    return std::shared_ptr<Batch>();
  }

 private:
  std::shared_ptr<const Schema> schema_;
  std::vector<std::shared_ptr<Batch>> batches_;
  bool fail_at_end_;
  size_t next_ = 0;
};

TEST(ArrowTest, StreamOfSeveralBatches) {
  std::mt19937_64 rng(8);
  auto schema = std::make_shared<const Schema>(testing::RandomSchema(rng, 6, 2));
  std::vector<std::shared_ptr<Batch>> batches;
  for (int64_t rows : {10, 0, 33, 1}) batches.push_back(testing::RandomBatch(rng, *schema, rows, 0.3));
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportBatchReader(MakeVectorReader(schema, batches), &stream).ok());
  ArrowSchema c_schema;
  ASSERT_EQ(stream.get_schema(&stream, &c_schema), 0);
  auto imported_schema = ImportSchema(&c_schema);
  ASSERT_TRUE(imported_schema.ok());
  EXPECT_EQ(*imported_schema, *schema);
  for (const auto& batch : batches) {
    ArrowArray c_array;
    ASSERT_EQ(stream.get_next(&stream, &c_array), 0);
    ASSERT_NE(c_array.release, nullptr);
    auto imported = ImportBatch(schema, &c_array);
    ASSERT_TRUE(imported.ok()) << imported.status().ToString();
    EXPECT_EQ(testing::DescribeMismatch(*batch, **imported), "");
  }
  ArrowArray end;
  ASSERT_EQ(stream.get_next(&stream, &end), 0);
  EXPECT_EQ(end.release, nullptr);
  EXPECT_EQ(stream.get_last_error(&stream), nullptr);
  stream.release(&stream);
  EXPECT_EQ(stream.release, nullptr);
}

TEST(ArrowTest, StreamReportsErrors) {
  std::mt19937_64 rng(9);
  auto schema = std::make_shared<const Schema>(std::vector<Field>{Field("a", DataType(TypeId::kInt64))});
  auto reader = std::make_unique<CountingReader>(
      schema, std::vector<std::shared_ptr<Batch>>{testing::RandomBatch(rng, *schema, 5, 0)}, true);
  ArrowArrayStream stream;
  ASSERT_TRUE(ExportBatchReader(std::move(reader), &stream).ok());
  ArrowArray c_array;
  ASSERT_EQ(stream.get_next(&stream, &c_array), 0);
  c_array.release(&c_array);
  EXPECT_NE(stream.get_next(&stream, &c_array), 0);
  ASSERT_NE(stream.get_last_error(&stream), nullptr);
  EXPECT_THAT(stream.get_last_error(&stream), HasSubstr("disk on fire at file x.parquet offset 42"));
  stream.release(&stream);
}

}  // namespace
}  // namespace tarn
