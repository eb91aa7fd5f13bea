// Arrow import of hand-built foreign arrays: layouts tarn does not export (32-bit string
// offsets, 64-bit list offsets, non-zero offsets, garbage under NULLs) and malformed input,
// each with the exact error it must produce. Every foreign structure must be released.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>

#include "tarn/columnar.h"

namespace tarn {
namespace {

using ::testing::HasSubstr;

int g_live_arrays = 0;  // foreign arrays and schemas not yet released

struct ArrayHolder {
  std::vector<const void*> buffers;
  std::vector<std::unique_ptr<ArrowArray>> owned_children;
  std::vector<ArrowArray*> children;
};

void ReleaseTestArray(ArrowArray* array) {
  auto* holder = static_cast<ArrayHolder*>(array->private_data);
  for (ArrowArray* child : holder->children) {
    if (child->release != nullptr) child->release(child);
  }
  delete holder;
  array->release = nullptr;
  --g_live_arrays;
}

ArrowArray MakeArray(int64_t length, int64_t null_count, int64_t offset, std::vector<const void*> buffers,
                     std::vector<ArrowArray> children = {}) {
  auto* holder = new ArrayHolder();
  holder->buffers = std::move(buffers);
  for (ArrowArray& child : children) {
    holder->owned_children.push_back(std::make_unique<ArrowArray>(child));
    holder->children.push_back(holder->owned_children.back().get());
  }
  ++g_live_arrays;
  ArrowArray array;
  array.length = length;
  array.null_count = null_count;
  array.offset = offset;
  array.n_buffers = static_cast<int64_t>(holder->buffers.size());
  array.n_children = static_cast<int64_t>(holder->children.size());
  array.buffers = holder->buffers.data();
  array.children = holder->children.data();
  array.dictionary = nullptr;
  array.release = &ReleaseTestArray;
  array.private_data = holder;
  return array;
}

struct SchemaHolder {
  std::string format;
  std::string name;
  std::string metadata;
  std::vector<std::unique_ptr<ArrowSchema>> owned_children;
  std::vector<ArrowSchema*> children;
};

void ReleaseTestSchema(ArrowSchema* schema) {
  auto* holder = static_cast<SchemaHolder*>(schema->private_data);
  for (ArrowSchema* child : holder->children) {
    if (child->release != nullptr) child->release(child);
  }
  delete holder;
  schema->release = nullptr;
  --g_live_arrays;
}

std::string ExtensionMetadata(const std::string& extension) {
  std::string out;
  auto put = [&out](int32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); };
  const std::string key = "ARROW:extension:name";
  put(1);
  put(static_cast<int32_t>(key.size()));
  out += key;
  put(static_cast<int32_t>(extension.size()));
  out += extension;
  return out;
}

ArrowSchema MakeSchema(const std::string& format, const std::string& name, bool nullable = true,
                       std::vector<ArrowSchema> children = {}, const std::string& extension = "") {
  auto* holder = new SchemaHolder();
  holder->format = format;
  holder->name = name;
  if (!extension.empty()) holder->metadata = ExtensionMetadata(extension);
  for (ArrowSchema& child : children) {
    holder->owned_children.push_back(std::make_unique<ArrowSchema>(child));
    holder->children.push_back(holder->owned_children.back().get());
  }
  ++g_live_arrays;
  ArrowSchema schema;
  schema.format = holder->format.c_str();
  schema.name = holder->name.c_str();
  schema.metadata = holder->metadata.empty() ? nullptr : holder->metadata.data();
  schema.flags = nullable ? ARROW_FLAG_NULLABLE : 0;
  schema.n_children = static_cast<int64_t>(holder->children.size());
  schema.children = holder->children.data();
  schema.dictionary = nullptr;
  schema.release = &ReleaseTestSchema;
  schema.private_data = holder;
  return schema;
}

// Imports one column `field` (a single-field batch) and returns the batch or the error.
Result<std::shared_ptr<Batch>> ImportOne(ArrowSchema field, ArrowArray column, int64_t rows) {
  ArrowSchema schema = MakeSchema("+s", "", false, {field});
  ArrowArray array = MakeArray(rows, 0, 0, {nullptr}, {column});
  auto result = ImportBatch(&schema, &array);
  EXPECT_EQ(schema.release, nullptr);
  EXPECT_EQ(array.release, nullptr);
  return result;
}

class ArrowImportTest : public ::testing::Test {
 protected:
  void TearDown() override { EXPECT_EQ(g_live_arrays, 0) << "a foreign structure was not released"; }
};

TEST_F(ArrowImportTest, Utf8With32BitOffsetsOffsetAndGarbageUnderNulls) {
  static const char kData[] = "xxhelloNULLGARBAGEwörld";
  static const int32_t kOffsets[] = {0, 2, 7, 18, 18, 24};
  static const uint8_t kValidity[] = {0b11111011};  // row 2 (NULLGARBAGE) is NULL
  ArrowArray column = MakeArray(4, 1, 1, {kValidity, kOffsets, kData});
  auto batch = ImportOne(MakeSchema("u", "s"), column, 4);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  const Column& imported = (*batch)->column(0);
  EXPECT_EQ(imported.type, DataType(TypeId::kVarchar));
  ASSERT_TRUE(imported.Validate().ok());
  EXPECT_EQ(imported.null_count, 1);
  EXPECT_EQ(imported.GetView(0), "hello");
  EXPECT_TRUE(imported.IsNull(1));
  EXPECT_EQ(imported.GetView(1), "");  // emptied
  EXPECT_EQ(imported.GetView(2), "");
  EXPECT_EQ(imported.GetView(3), "wörld");
}

TEST_F(ArrowImportTest, BinaryWith32BitOffsets) {
  static const char kData[] = {'\0', '\xff', 'a'};
  static const int32_t kOffsets[] = {0, 2, 2, 3};
  auto batch = ImportOne(MakeSchema("z", "b"), MakeArray(3, 0, 0, {nullptr, kOffsets, kData}), 3);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  EXPECT_EQ((*batch)->column(0).type, DataType(TypeId::kBlob));
  EXPECT_EQ((*batch)->column(0).GetValue(0).GetBytes(), std::string("\0\xff", 2));
  EXPECT_EQ((*batch)->column(0).GetValue(2).GetBytes(), "a");
}

TEST_F(ArrowImportTest, LargeListWithElementsUnderANullRow) {
  static const int32_t kElements[] = {1, 2, 3, 4, 5, 6};
  static const int64_t kOffsets[] = {0, 2, 5, 6};
  static const uint8_t kValidity[] = {0b101};
  ArrowArray child = MakeArray(6, 0, 0, {nullptr, kElements});
  ArrowArray column = MakeArray(3, 1, 0, {kValidity, kOffsets}, {child});
  ArrowSchema field = MakeSchema("+L", "l", true, {MakeSchema("i", "item")});
  auto batch = ImportOne(field, column, 3);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  const Column& imported = (*batch)->column(0);
  DataType type = DataType::List(DataType(TypeId::kInt32));
  EXPECT_EQ(imported.type, type);
  ASSERT_TRUE(imported.Validate().ok());
  EXPECT_EQ(imported.children[0]->length, 3);  // the NULL row's elements are dropped
  EXPECT_EQ(imported.GetValue(0).ToString(), "[1, 2]");
  EXPECT_TRUE(imported.GetValue(1).is_null());
  EXPECT_EQ(imported.GetValue(2).ToString(), "[6]");
}

TEST_F(ArrowImportTest, StructOffsetAppliesToChildren) {
  static const int64_t kValues[] = {10, 11, 12, 13, 14};
  static const uint8_t kStructValidity[] = {0b11101};  // bit 1, before the offset, is NULL
  ArrowArray child = MakeArray(5, 0, 0, {nullptr, kValues});
  ArrowArray column = MakeArray(3, -1, 2, {kStructValidity, }, {child});  // rows 2..4
  ArrowSchema field = MakeSchema("+s", "st", true, {MakeSchema("l", "v")});
  auto batch = ImportOne(field, column, 3);
  ASSERT_TRUE(batch.ok()) << batch.status().ToString();
  const Column& imported = (*batch)->column(0);
  EXPECT_EQ(imported.GetValue(0).ToString(), "{'v': 12}");
  EXPECT_EQ(imported.GetValue(2).ToString(), "{'v': 14}");
  EXPECT_EQ(imported.null_count, 0);
}

TEST_F(ArrowImportTest, ExtensionsAndZones) {
  static const uint8_t kBytes[32] = {1};
  struct Case {
    const char* format;
    const char* extension;
    DataType type;
  };
  const Case cases[] = {
      {"w:16", "arrow.uuid", DataType(TypeId::kUuid)},
      {"w:16", "", DataType(TypeId::kInt128)},
      {"w:16", "duckdb.uhugeint", DataType(TypeId::kUInt128)},
      {"ttu", "", DataType(TypeId::kTime)},
      {"tsu:Europe/Paris", "", DataType(TypeId::kTimestampTz)},
      {"d:10,2,128", "", DataType::Decimal(10, 2)},
  };
  for (const Case& c : cases) {
    auto batch = ImportOne(MakeSchema(c.format, "x", true, {}, c.extension),
                           MakeArray(2, 0, 0, {nullptr, kBytes}), 2);
    ASSERT_TRUE(batch.ok()) << c.format << ": " << batch.status().ToString();
    EXPECT_EQ((*batch)->column(0).type, c.type) << c.format;
  }
}

TEST_F(ArrowImportTest, MapNamesAreNormalized) {
  ArrowSchema entries = MakeSchema("+s", "entries", false, {MakeSchema("U", "k", false), MakeSchema("i", "v")});
  ArrowSchema schema = MakeSchema("+s", "", false, {MakeSchema("+m", "m", true, {entries})});
  auto imported = ImportSchema(&schema);
  ASSERT_TRUE(imported.ok()) << imported.status().ToString();
  EXPECT_EQ(imported->field(0).type, DataType::Map(DataType(TypeId::kVarchar), DataType(TypeId::kInt32)));
}

void ExpectImportError(ArrowSchema field, ArrowArray column, int64_t rows, StatusCode code,
                       const std::string& fragment) {
  auto batch = ImportOne(field, column, rows);
  ASSERT_FALSE(batch.ok());
  EXPECT_EQ(batch.status().code(), code) << batch.status().ToString();
  EXPECT_THAT(batch.status().message(), HasSubstr(fragment));
}

TEST_F(ArrowImportTest, DecreasingOffsets) {
  static const char kData[] = "abcdef";
  static const int64_t kOffsets[] = {0, 4, 2};
  ExpectImportError(MakeSchema("U", "s"), MakeArray(2, 0, 0, {nullptr, kOffsets, kData}), 2,
                    StatusCode::kInvalidArgument, "offsets decrease at row 1: 4 > 2");
}

TEST_F(ArrowImportTest, NegativeOffset) {
  static const char kData[] = "abcdef";
  static const int32_t kOffsets[] = {-3, 1};
  ExpectImportError(MakeSchema("u", "s"), MakeArray(1, 0, 0, {nullptr, kOffsets, kData}), 1,
                    StatusCode::kInvalidArgument, "negative offset -3 at row 0");
}

TEST_F(ArrowImportTest, NullCountMismatch) {
  static const int32_t kValues[] = {1, 2, 3};
  static const uint8_t kValidity[] = {0b101};
  ExpectImportError(MakeSchema("i", "x"), MakeArray(3, 2, 0, {kValidity, kValues}), 3,
                    StatusCode::kInvalidArgument, "null_count is 2 but the validity bitmap has 1 NULLs");
}

TEST_F(ArrowImportTest, WrongBufferCount) {
  static const int32_t kValues[] = {1};
  ExpectImportError(MakeSchema("U", "x"), MakeArray(1, 0, 0, {nullptr, kValues}), 1,
                    StatusCode::kInvalidArgument, "has 2 buffers, expected 3");
}

TEST_F(ArrowImportTest, ListOffsetsPastChild) {
  static const int32_t kElements[] = {1, 2};
  static const int32_t kOffsets[] = {0, 5};
  ArrowArray child = MakeArray(2, 0, 0, {nullptr, kElements});
  ExpectImportError(MakeSchema("+l", "l", true, {MakeSchema("i", "item")}),
                    MakeArray(1, 0, 0, {nullptr, kOffsets}, {child}), 1, StatusCode::kInvalidArgument,
                    "needs rows [0, 5) but has 2");
}

TEST_F(ArrowImportTest, ColumnShorterThanBatch) {
  static const int32_t kValues[] = {1};
  ExpectImportError(MakeSchema("i", "x"), MakeArray(1, 0, 0, {nullptr, kValues}), 4,
                    StatusCode::kInvalidArgument, "needs rows [0, 4) but has 1");
}

TEST_F(ArrowImportTest, InvalidUtf8) {
  static const char kData[] = "\xc3(";
  static const int64_t kOffsets[] = {0, 2};
  ExpectImportError(MakeSchema("U", "s"), MakeArray(1, 0, 0, {nullptr, kOffsets, kData}), 1,
                    StatusCode::kInvalidArgument, "row 0 is not valid UTF-8");
}

TEST_F(ArrowImportTest, DecimalBeyondPrecision) {
  __int128 values[1] = {1000};
  ExpectImportError(MakeSchema("d:3,0", "d"), MakeArray(1, 0, 0, {nullptr, values}), 1,
                    StatusCode::kInvalidArgument, "exceeds the decimal precision");
}

TEST_F(ArrowImportTest, UnsupportedFormatsAreNamed) {
  for (const char* format : {"vu", "e", "tdm", "w:8", "d:10,2,256", "d:39,0", "+w:3", "tsm:UTC", "+ud:0,1"}) {
    ArrowSchema schema = MakeSchema("+s", "", false, {MakeSchema(format, "x")});
    auto imported = ImportSchema(&schema);
    EXPECT_EQ(schema.release, nullptr);
    ASSERT_FALSE(imported.ok()) << format;
    EXPECT_EQ(imported.status().code(), StatusCode::kNotSupported) << format;
    EXPECT_THAT(imported.status().message(), HasSubstr(std::string("'") + format + "'"));
  }
}

TEST_F(ArrowImportTest, DictionaryIsNotSupported) {
  ArrowSchema dictionary = MakeSchema("U", "");
  ArrowSchema field = MakeSchema("i", "x");
  field.dictionary = &dictionary;
  ArrowSchema schema = MakeSchema("+s", "", false, {field});
  auto imported = ImportSchema(&schema);
  EXPECT_EQ(imported.status().code(), StatusCode::kNotSupported);
  EXPECT_THAT(imported.status().message(), HasSubstr("dictionary"));
  dictionary.release(&dictionary);  // the test's own release does not follow `dictionary`
}

TEST_F(ArrowImportTest, TopLevelMustBeAStruct) {
  ArrowSchema schema = MakeSchema("i", "x");
  auto imported = ImportSchema(&schema);
  EXPECT_EQ(schema.release, nullptr);
  EXPECT_EQ(imported.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(imported.status().message(), HasSubstr("must be a struct ('+s'), got 'i'"));
}

TEST_F(ArrowImportTest, ArrayWithTheWrongColumnCount) {
  auto schema = std::make_shared<const Schema>(std::vector<Field>{Field("a", DataType(TypeId::kInt32))});
  ArrowArray array = MakeArray(0, 0, 0, {nullptr});
  auto batch = ImportBatch(schema, &array);
  EXPECT_EQ(array.release, nullptr);
  EXPECT_THAT(batch.status().message(), HasSubstr("has 0 columns, the schema has 1"));
}

}  // namespace
}  // namespace tarn
