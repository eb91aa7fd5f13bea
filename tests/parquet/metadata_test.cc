// The parquet.thrift codec: randomized encode -> decode round trips, tolerance of unknown
// fields, exact errors for malformed structs, and hostile-size handling. The fixture files
// are covered in metadata_fixture_test.cc.

#include "parquet/metadata.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "parquet/random_metadata.h"
#include "parquet/thrift_compact.h"

namespace tarn::parquet {
namespace {

using testing_support::RandomMetadata;
using thrift::CompactWriter;
using thrift::WireType;

TEST(MetadataTest, FileMetaDataRoundTripsRandomly) {
  RandomMetadata random(1);
  for (int iteration = 0; iteration < 2000; ++iteration) {
    const FileMetaData original = random.MakeFileMetaData();
    std::string bytes = "prefix";  // encoders append
    EncodeFileMetaData(original, &bytes);
    ASSERT_EQ(bytes.substr(0, 6), "prefix");
    Result<FileMetaData> decoded = DecodeFileMetaData(std::string_view(bytes).substr(6));
    ASSERT_TRUE(decoded.ok()) << "iteration " << iteration << ": " << decoded.status().ToString();
    ASSERT_TRUE(*decoded == original) << "iteration " << iteration;
  }
}

TEST(MetadataTest, PageHeaderRoundTripsRandomlyAndReportsConsumed) {
  RandomMetadata random(2);
  for (int iteration = 0; iteration < 5000; ++iteration) {
    const PageHeader original = random.MakePageHeader();
    std::string bytes;
    EncodePageHeader(original, &bytes);
    const size_t header_size = bytes.size();
    bytes += "page data follows";
    int64_t consumed = -1;
    Result<PageHeader> decoded = DecodePageHeader(bytes, &consumed);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    ASSERT_TRUE(*decoded == original) << "iteration " << iteration;
    ASSERT_EQ(consumed, static_cast<int64_t>(header_size));
  }
}

TEST(MetadataTest, PageIndexRoundTripsRandomly) {
  RandomMetadata random(3);
  for (int iteration = 0; iteration < 2000; ++iteration) {
    const ColumnIndex column_index = random.MakeColumnIndex();
    std::string bytes;
    EncodeColumnIndex(column_index, &bytes);
    Result<ColumnIndex> decoded_column = DecodeColumnIndex(bytes);
    ASSERT_TRUE(decoded_column.ok()) << decoded_column.status().ToString();
    ASSERT_TRUE(*decoded_column == column_index);

    const OffsetIndex offset_index = random.MakeOffsetIndex();
    bytes.clear();
    EncodeOffsetIndex(offset_index, &bytes);
    Result<OffsetIndex> decoded_offset = DecodeOffsetIndex(bytes);
    ASSERT_TRUE(decoded_offset.ok()) << decoded_offset.status().ToString();
    ASSERT_TRUE(*decoded_offset == offset_index);
  }
}

TEST(MetadataTest, FileCryptoMetaDataRoundTrips) {
  for (int32_t algorithm : {1, 2}) {
    FileCryptoMetaData crypto{algorithm, std::string("key\0id", 6)};
    std::string bytes;
    EncodeFileCryptoMetaData(crypto, &bytes);
    const size_t size = bytes.size();
    bytes += "ciphertext";
    int64_t consumed = 0;
    Result<FileCryptoMetaData> decoded = DecodeFileCryptoMetaData(bytes, &consumed);
    ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
    EXPECT_TRUE(*decoded == crypto);
    EXPECT_EQ(consumed, static_cast<int64_t>(size));
  }
}

// A field id tarn does not know, of every wire type, in the middle of a struct, is skipped.
void WriteUnknownFieldsOfEveryType(CompactWriter& w) {
  w.FieldBool(100, true);
  w.FieldBool(101, false);
  w.FieldI8(102, -5);
  w.FieldI16(103, -300);
  w.FieldI32(104, 1 << 30);
  w.FieldI64(105, INT64_MIN);
  w.WriteFieldHeader(WireType::kDouble, 106);
  w.WriteDouble(3.25);
  w.FieldBinary(107, "unknown");
  w.WriteFieldHeader(WireType::kList, 108);  // list<struct{list<bool>}>
  w.WriteListHeader(WireType::kStruct, 20);
  for (int element_idx = 0; element_idx < 20; ++element_idx) {
    w.BeginStruct();
    w.WriteFieldHeader(WireType::kList, 1);
    w.WriteListHeader(WireType::kBoolTrue, 3);
    for (bool value : {true, false, true}) w.WriteBoolElement(value);
    w.EndStruct();
  }
  w.WriteFieldHeader(WireType::kSet, 109);
  w.WriteListHeader(WireType::kI32, 2);
  w.WriteI32(7);
  w.WriteI32(-7);
  w.WriteFieldHeader(WireType::kMap, 110);  // map<binary, list<i64>>
  w.WriteMapHeader(WireType::kBinary, WireType::kList, 2);
  for (int entry_idx = 0; entry_idx < 2; ++entry_idx) {
    w.WriteBinary("k");
    w.WriteListHeader(WireType::kI64, 1);
    w.WriteI64(99);
  }
  w.WriteFieldHeader(WireType::kMap, 111);  // empty map
  w.WriteMapHeader(WireType::kI32, WireType::kI32, 0);
  w.FieldStructBegin(112);  // nested structs with a double inside
  w.FieldStructBegin(1);
  w.WriteFieldHeader(WireType::kDouble, 2);
  w.WriteDouble(-1.0);
  w.EndStruct();
  w.EndStruct();
  w.WriteFieldHeader(WireType::kUuid, 113);
  for (int byte_idx = 0; byte_idx < 16; ++byte_idx) w.WriteI8(static_cast<int8_t>(byte_idx));
  w.FieldI32(-7, 1);  // a negative id takes the long header form
}

TEST(MetadataTest, UnknownFieldsOfEveryTypeAreSkipped) {
  std::string bytes;
  CompactWriter w(&bytes);
  w.BeginStruct();
  w.FieldI32(1, 2);  // version
  WriteUnknownFieldsOfEveryType(w);
  w.WriteFieldHeader(WireType::kList, 2);  // schema: one element with an unknown field
  w.WriteListHeader(WireType::kStruct, 1);
  w.BeginStruct();
  WriteUnknownFieldsOfEveryType(w);
  w.FieldBinary(4, "root");
  w.EndStruct();
  w.FieldI64(3, 42);
  w.WriteFieldHeader(WireType::kList, 4);
  w.WriteListHeader(WireType::kStruct, 0);
  w.EndStruct();

  Result<FileMetaData> decoded = DecodeFileMetaData(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(decoded->version, 2);
  ASSERT_EQ(decoded->schema.size(), 1u);
  EXPECT_EQ(decoded->schema[0].name, "root");
  EXPECT_EQ(decoded->num_rows, 42);
  EXPECT_TRUE(decoded->row_groups.empty());
}

// The encoding of a FileMetaData with one column whose num_values is `num_values`.
std::string OneColumnFooter(int64_t num_values, int64_t num_rows = 10) {
  FileMetaData metadata;
  metadata.schema.resize(2);
  metadata.schema[0].name = "root";
  metadata.schema[0].num_children = 1;
  metadata.schema[1].name = "a";
  metadata.schema[1].type = PhysicalType::kInt64;
  metadata.num_rows = num_rows;
  ColumnChunk chunk;
  chunk.meta_data.emplace();
  chunk.meta_data->type = PhysicalType::kInt64;
  chunk.meta_data->path_in_schema = {"a"};
  chunk.meta_data->num_values = num_values;
  RowGroup group;
  group.columns.push_back(chunk);
  metadata.row_groups.push_back(group);
  std::string bytes;
  EncodeFileMetaData(metadata, &bytes);
  return bytes;
}

TEST(MetadataTest, TruncatedVarintNamesFieldAndOffset) {
  const int64_t num_values = 0x123456789A;
  const std::string bytes = OneColumnFooter(num_values);
  // Find the zigzag varint of num_values.
  std::string varint;
  CompactWriter(&varint).WriteI64(num_values);
  const size_t at = bytes.find(varint);
  ASSERT_NE(at, std::string::npos);
  Result<FileMetaData> decoded = DecodeFileMetaData(std::string_view(bytes).substr(0, at + 2));
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().ToString(),
            "Corruption: parquet footer: ColumnMetaData.num_values: varint runs past end at "
            "offset " +
                std::to_string(at));
}

TEST(MetadataTest, NegativeSizesAreCorruptionNamingTheField) {
  Result<FileMetaData> negative_values = DecodeFileMetaData(OneColumnFooter(-1));
  ASSERT_FALSE(negative_values.ok());
  EXPECT_TRUE(negative_values.status().IsCorruption());
  EXPECT_NE(negative_values.status().message().find(
                "parquet footer: ColumnMetaData.num_values: negative value -1 at offset"),
            std::string::npos)
      << negative_values.status().ToString();

  Result<FileMetaData> negative_rows = DecodeFileMetaData(OneColumnFooter(5, -3));
  ASSERT_FALSE(negative_rows.ok());
  EXPECT_NE(negative_rows.status().message().find("FileMetaData.num_rows: negative value -3"),
            std::string::npos)
      << negative_rows.status().ToString();

  PageHeader header;
  header.type = PageType::kDictionaryPage;
  header.dictionary_page_header.emplace();
  header.dictionary_page_header->num_values = -8;
  std::string bytes;
  EncodePageHeader(header, &bytes);
  Result<PageHeader> decoded = DecodePageHeader(bytes, nullptr);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.status().message().find(
                "page header: DictionaryPageHeader.num_values: negative value -8"),
            std::string::npos)
      << decoded.status().ToString();
}

TEST(MetadataTest, MissingRequiredFieldIsCorruption) {
  std::string bytes;
  CompactWriter w(&bytes);
  w.BeginStruct();
  w.FieldI32(1, 1);
  w.FieldI64(3, 0);  // no schema
  w.EndStruct();
  Result<FileMetaData> decoded = DecodeFileMetaData(bytes);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().ToString(),
            "Corruption: parquet footer: FileMetaData.schema: required field missing at offset " +
                std::to_string(bytes.size()));
}

// As generated Thrift code does, a known field with another wire type is skipped and counts
// as absent; a required one is then missing.
TEST(MetadataTest, WrongWireTypeCountsAsAbsent) {
  std::string bytes;
  CompactWriter w(&bytes);
  w.BeginStruct();
  w.FieldBinary(1, "one");  // version must be i32
  w.EndStruct();
  Result<FileMetaData> decoded = DecodeFileMetaData(bytes);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().ToString(),
            "Corruption: parquet footer: FileMetaData.version: required field missing at "
            "offset " +
                std::to_string(bytes.size()));

  // An optional field of the wrong type is simply absent.
  PageHeader header;
  header.type = PageType::kDataPage;
  std::string page;
  CompactWriter p(&page);
  p.BeginStruct();
  p.FieldI32(1, 0);
  p.FieldI32(2, 10);
  p.FieldI32(3, 5);
  p.FieldI64(4, 77);  // crc must be i32
  p.EndStruct();
  Result<PageHeader> decoded_page = DecodePageHeader(page, nullptr);
  ASSERT_TRUE(decoded_page.ok()) << decoded_page.status().ToString();
  EXPECT_FALSE(decoded_page->crc.has_value());
  EXPECT_EQ(decoded_page->compressed_page_size, 5);
}

TEST(MetadataTest, UnknownPhysicalTypeIsCorruption) {
  FileMetaData metadata;
  metadata.schema.resize(1);
  metadata.schema[0].type = static_cast<PhysicalType>(8);
  std::string bytes;
  EncodeFileMetaData(metadata, &bytes);
  Result<FileMetaData> decoded = DecodeFileMetaData(bytes);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.status().message().find("SchemaElement.type: unknown value 8"),
            std::string::npos)
      << decoded.status().ToString();
}

TEST(MetadataTest, HostileListSizeFailsFastWithoutAllocating) {
  // FileMetaData { 2: list<struct> of 2^31 - 1 elements } in a dozen bytes.
  std::string bytes;
  CompactWriter w(&bytes);
  w.BeginStruct();
  w.FieldI32(1, 1);
  w.WriteFieldHeader(WireType::kList, 2);
  w.WriteListHeader(WireType::kStruct, INT32_MAX);
  bytes += std::string(4, '\0');
  const size_t header_at = 2;
  Result<FileMetaData> decoded = DecodeFileMetaData(bytes);
  ASSERT_FALSE(decoded.ok());
  EXPECT_EQ(decoded.status().ToString(),
            "Corruption: parquet footer: FileMetaData.schema: list of 2147483647 elements "
            "exceeds the limit of 16777216 at offset " +
                std::to_string(header_at + 1));

  DecodeLimits generous;
  generous.max_list_elements = INT32_MAX;
  decoded = DecodeFileMetaData(bytes, generous);
  ASSERT_FALSE(decoded.ok());
  EXPECT_NE(decoded.status().message().find(
                "list of 2147483647 struct elements cannot fit in the 4 bytes left"),
            std::string::npos)
      << decoded.status().ToString();
}

TEST(MetadataTest, ColumnIndexListLengthsMustAgree) {
  ColumnIndex index;
  index.null_pages = {false, true};
  index.min_values = {"a", ""};
  index.max_values = {"b"};
  std::string bytes;
  EncodeColumnIndex(index, &bytes);
  Result<ColumnIndex> decoded = DecodeColumnIndex(bytes);
  ASSERT_FALSE(decoded.ok());
  EXPECT_TRUE(decoded.status().IsCorruption());
  EXPECT_NE(decoded.status().message().find("null_pages 2, min_values 2, max_values 1"),
            std::string::npos);
}

TEST(MetadataTest, UnknownLogicalTypeMemberDecodesAsNone) {
  std::string bytes;
  CompactWriter w(&bytes);
  w.BeginStruct();
  w.FieldI32(1, 1);
  w.WriteFieldHeader(WireType::kList, 2);
  w.WriteListHeader(WireType::kStruct, 1);
  w.BeginStruct();
  w.FieldBinary(4, "v");
  w.FieldStructBegin(10);  // logicalType
  w.FieldStructBegin(19);  // a member from a future parquet.thrift
  w.FieldI32(1, 128);
  w.EndStruct();
  w.EndStruct();
  w.EndStruct();
  w.FieldI64(3, 0);
  w.WriteFieldHeader(WireType::kList, 4);
  w.WriteListHeader(WireType::kStruct, 0);
  w.EndStruct();
  Result<FileMetaData> decoded = DecodeFileMetaData(bytes);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  ASSERT_TRUE(decoded->schema[0].logical_type.has_value());
  EXPECT_EQ(decoded->schema[0].logical_type->kind, LogicalType::Kind::kNone);
}

TEST(MetadataTest, NamesFollowParquetThrift) {
  EXPECT_EQ(PhysicalTypeName(PhysicalType::kFixedLenByteArray), "FIXED_LEN_BYTE_ARRAY");
  EXPECT_EQ(EncodingName(Encoding::kRleDictionary), "RLE_DICTIONARY");
  EXPECT_EQ(EncodingName(static_cast<Encoding>(1)), "UNKNOWN");
  EXPECT_EQ(CodecName(CompressionCodec::kLz4Raw), "LZ4_RAW");
  EXPECT_EQ(ConvertedTypeName(ConvertedType::kTimestampMicros), "TIMESTAMP_MICROS");
  EXPECT_EQ(PageTypeName(PageType::kDataPageV2), "DATA_PAGE_V2");
}

}  // namespace
}  // namespace tarn::parquet
