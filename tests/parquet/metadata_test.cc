// The parquet.thrift codec: randomized encode -> decode round trips, tolerance of unknown
// fields, exact errors for malformed structs, and hostile-size handling. The fixture files
// are covered in metadata_fixture_test.cc.

#include "parquet/metadata.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "parquet/thrift_compact.h"

namespace tarn::parquet {
namespace {

using thrift::CompactWriter;
using thrift::WireType;

// Fills metadata structs with random values, each optional field present or absent at random.
class RandomMetadata {
 public:
  explicit RandomMetadata(uint64_t seed) : rng_(seed) {}

  bool Coin() { return Uniform(0, 1) == 1; }
  int64_t Uniform(int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng_);
  }
  // Values of every varint length, biased to small ones.
  int64_t AnyI64() {
    switch (Uniform(0, 3)) {
      case 0:
        return Uniform(-3, 3);
      case 1:
        return Uniform(-100000, 100000);
      case 2:
        return Coin() ? INT64_MIN : INT64_MAX;
      default:
        return static_cast<int64_t>(rng_());
    }
  }
  int64_t NonNegativeI64() { return AnyI64() & INT64_MAX; }
  int32_t AnyI32() { return static_cast<int32_t>(AnyI64()); }
  int32_t NonNegativeI32() { return AnyI32() & INT32_MAX; }
  std::string Bytes() {
    std::string bytes(static_cast<size_t>(Uniform(0, Coin() ? 4 : 40)), '\0');
    for (char& c : bytes) c = static_cast<char>(Uniform(0, 255));
    return bytes;
  }
  template <typename T, typename Make>
  std::optional<T> Maybe(Make&& make) {
    if (Coin()) return make();
    return std::nullopt;
  }
  template <typename T, typename Make>
  std::vector<T> VectorOf(int64_t max_size, Make&& make) {
    std::vector<T> values(static_cast<size_t>(Uniform(0, max_size)));
    for (auto& value : values) value = make();
    return values;
  }

  Statistics MakeStatistics() {
    Statistics stats;
    stats.max = Maybe<std::string>([&] { return Bytes(); });
    stats.min = Maybe<std::string>([&] { return Bytes(); });
    stats.null_count = Maybe<int64_t>([&] { return AnyI64(); });
    stats.distinct_count = Maybe<int64_t>([&] { return AnyI64(); });
    stats.max_value = Maybe<std::string>([&] { return Bytes(); });
    stats.min_value = Maybe<std::string>([&] { return Bytes(); });
    stats.is_max_value_exact = Maybe<bool>([&] { return Coin(); });
    stats.is_min_value_exact = Maybe<bool>([&] { return Coin(); });
    stats.nan_count = Maybe<int64_t>([&] { return AnyI64(); });
    return stats;
  }

  LogicalType MakeLogicalType() {
    using Kind = LogicalType::Kind;
    static constexpr Kind kKinds[] = {
        Kind::kString,   Kind::kMap,      Kind::kList,      Kind::kEnum,    Kind::kDecimal,
        Kind::kDate,     Kind::kTime,     Kind::kTimestamp, Kind::kInteger, Kind::kUnknown,
        Kind::kJson,     Kind::kBson,     Kind::kUuid,      Kind::kFloat16, Kind::kVariant,
        Kind::kGeometry, Kind::kGeography};
    LogicalType type;
    type.kind = kKinds[Uniform(0, std::size(kKinds) - 1)];
    switch (type.kind) {
      case Kind::kDecimal:
        type.decimal_scale = AnyI32();
        type.decimal_precision = AnyI32();
        break;
      case Kind::kTime:
      case Kind::kTimestamp:
        type.is_adjusted_to_utc = Coin();
        type.unit = static_cast<TimeUnit>(Uniform(0, 2));
        break;
      case Kind::kInteger:
        type.bit_width = static_cast<int8_t>(Uniform(-128, 127));
        type.is_signed = Coin();
        break;
      case Kind::kVariant:
        type.variant_specification_version = static_cast<int32_t>(Uniform(0, 127));
        break;
      case Kind::kGeometry:
        type.crs = Maybe<std::string>([&] { return Bytes(); });
        break;
      case Kind::kGeography:
        type.crs = Maybe<std::string>([&] { return Bytes(); });
        type.geography_algorithm =
            Maybe<int32_t>([&] { return static_cast<int32_t>(Uniform(0, 4)); });
        break;
      default:
        break;
    }
    return type;
  }

  SchemaElement MakeSchemaElement() {
    SchemaElement element;
    element.type = Maybe<PhysicalType>([&] { return static_cast<PhysicalType>(Uniform(0, 7)); });
    element.type_length = Maybe<int32_t>([&] { return AnyI32(); });
    element.repetition_type =
        Maybe<Repetition>([&] { return static_cast<Repetition>(Uniform(0, 2)); });
    element.name = Bytes();
    element.num_children = Maybe<int32_t>([&] { return NonNegativeI32(); });
    element.converted_type =
        Maybe<ConvertedType>([&] { return static_cast<ConvertedType>(AnyI32()); });
    element.scale = Maybe<int32_t>([&] { return AnyI32(); });
    element.precision = Maybe<int32_t>([&] { return AnyI32(); });
    element.field_id = Maybe<int32_t>([&] { return AnyI32(); });
    element.logical_type = Maybe<LogicalType>([&] { return MakeLogicalType(); });
    return element;
  }

  std::vector<KeyValue> MakeKeyValues() {
    return VectorOf<KeyValue>(3, [&] {
      return KeyValue{Bytes(), Maybe<std::string>([&] { return Bytes(); })};
    });
  }

  ColumnMetaData MakeColumnMetaData() {
    ColumnMetaData meta;
    meta.type = static_cast<PhysicalType>(Uniform(0, 7));
    // Encodings and codecs keep unknown values, so any i32 must survive.
    meta.encodings = VectorOf<Encoding>(20, [&] { return static_cast<Encoding>(AnyI32()); });
    meta.path_in_schema = VectorOf<std::string>(4, [&] { return Bytes(); });
    meta.codec = static_cast<CompressionCodec>(AnyI32());
    meta.num_values = NonNegativeI64();
    meta.total_uncompressed_size = NonNegativeI64();
    meta.total_compressed_size = NonNegativeI64();
    meta.key_value_metadata = MakeKeyValues();
    meta.data_page_offset = NonNegativeI64();
    meta.index_page_offset = Maybe<int64_t>([&] { return NonNegativeI64(); });
    meta.dictionary_page_offset = Maybe<int64_t>([&] { return NonNegativeI64(); });
    meta.statistics = Maybe<Statistics>([&] { return MakeStatistics(); });
    meta.encoding_stats = VectorOf<PageEncodingStats>(3, [&] {
      return PageEncodingStats{static_cast<PageType>(AnyI32()), static_cast<Encoding>(AnyI32()),
                               NonNegativeI32()};
    });
    meta.bloom_filter_offset = Maybe<int64_t>([&] { return NonNegativeI64(); });
    meta.bloom_filter_length = Maybe<int32_t>([&] { return NonNegativeI32(); });
    meta.size_statistics = Maybe<SizeStatistics>([&] {
      SizeStatistics size;
      size.unencoded_byte_array_data_bytes = Maybe<int64_t>([&] { return AnyI64(); });
      size.repetition_level_histogram = VectorOf<int64_t>(5, [&] { return AnyI64(); });
      size.definition_level_histogram = VectorOf<int64_t>(16, [&] { return AnyI64(); });
      return size;
    });
    return meta;
  }

  ColumnChunk MakeColumnChunk() {
    ColumnChunk chunk;
    chunk.file_path = Maybe<std::string>([&] { return Bytes(); });
    chunk.file_offset = NonNegativeI64();
    chunk.meta_data = Maybe<ColumnMetaData>([&] { return MakeColumnMetaData(); });
    chunk.offset_index_offset = Maybe<int64_t>([&] { return NonNegativeI64(); });
    chunk.offset_index_length = Maybe<int32_t>([&] { return NonNegativeI32(); });
    chunk.column_index_offset = Maybe<int64_t>([&] { return NonNegativeI64(); });
    chunk.column_index_length = Maybe<int32_t>([&] { return NonNegativeI32(); });
    chunk.has_crypto_metadata = Uniform(0, 4) == 0;
    chunk.encrypted_column_metadata = Maybe<std::string>([&] { return Bytes(); });
    return chunk;
  }

  RowGroup MakeRowGroup() {
    RowGroup group;
    group.columns = VectorOf<ColumnChunk>(4, [&] { return MakeColumnChunk(); });
    group.total_byte_size = NonNegativeI64();
    group.num_rows = NonNegativeI64();
    group.sorting_columns = VectorOf<SortingColumn>(3, [&] {
      return SortingColumn{NonNegativeI32(), Coin(), Coin()};
    });
    group.file_offset = Maybe<int64_t>([&] { return NonNegativeI64(); });
    group.total_compressed_size = Maybe<int64_t>([&] { return NonNegativeI64(); });
    group.ordinal = Maybe<int16_t>([&] { return static_cast<int16_t>(AnyI32()); });
    return group;
  }

  FileMetaData MakeFileMetaData() {
    FileMetaData metadata;
    metadata.version = AnyI32();
    metadata.schema = VectorOf<SchemaElement>(6, [&] { return MakeSchemaElement(); });
    metadata.schema.push_back(MakeSchemaElement());  // never empty
    metadata.num_rows = NonNegativeI64();
    metadata.row_groups = VectorOf<RowGroup>(3, [&] { return MakeRowGroup(); });
    metadata.key_value_metadata = MakeKeyValues();
    metadata.created_by = Maybe<std::string>([&] { return Bytes(); });
    metadata.column_orders = VectorOf<ColumnOrder>(3, [&] {
      ColumnOrder order;
      const int64_t member = Uniform(0, 2);  // 0: a member tarn does not know
      order.type_defined_order = member == 1;
      order.ieee754_total_order = member == 2;
      return order;
    });
    metadata.has_encryption_algorithm = Uniform(0, 4) == 0;
    metadata.footer_signing_key_metadata = Maybe<std::string>([&] { return Bytes(); });
    return metadata;
  }

  PageHeader MakePageHeader() {
    PageHeader header;
    header.type = static_cast<PageType>(Uniform(0, 5));
    header.uncompressed_page_size = NonNegativeI32();
    header.compressed_page_size = NonNegativeI32();
    header.crc = Maybe<int32_t>([&] { return AnyI32(); });
    header.data_page_header = Maybe<DataPageHeader>([&] {
      DataPageHeader v1;
      v1.num_values = NonNegativeI32();
      v1.encoding = static_cast<Encoding>(AnyI32());
      v1.definition_level_encoding = static_cast<Encoding>(AnyI32());
      v1.repetition_level_encoding = static_cast<Encoding>(AnyI32());
      v1.statistics = Maybe<Statistics>([&] { return MakeStatistics(); });
      return v1;
    });
    header.dictionary_page_header = Maybe<DictionaryPageHeader>([&] {
      return DictionaryPageHeader{NonNegativeI32(), static_cast<Encoding>(AnyI32()),
                                  Maybe<bool>([&] { return Coin(); })};
    });
    header.data_page_header_v2 = Maybe<DataPageHeaderV2>([&] {
      DataPageHeaderV2 v2;
      v2.num_values = NonNegativeI32();
      v2.num_nulls = NonNegativeI32();
      v2.num_rows = NonNegativeI32();
      v2.encoding = static_cast<Encoding>(AnyI32());
      v2.definition_levels_byte_length = NonNegativeI32();
      v2.repetition_levels_byte_length = NonNegativeI32();
      v2.is_compressed = Coin();
      v2.statistics = Maybe<Statistics>([&] { return MakeStatistics(); });
      return v2;
    });
    return header;
  }

  ColumnIndex MakeColumnIndex() {
    ColumnIndex index;
    const auto pages = static_cast<size_t>(Uniform(0, 40));
    for (size_t page_idx = 0; page_idx < pages; ++page_idx) {
      index.null_pages.push_back(Coin());
      index.min_values.push_back(Bytes());
      index.max_values.push_back(Bytes());
    }
    index.boundary_order = static_cast<BoundaryOrder>(Uniform(0, 2));
    if (Coin()) {
      for (size_t page_idx = 0; page_idx < pages; ++page_idx) index.null_counts.push_back(AnyI64());
    }
    if (Coin()) {
      for (size_t page_idx = 0; page_idx < pages; ++page_idx) index.nan_counts.push_back(AnyI64());
    }
    index.repetition_level_histograms = VectorOf<int64_t>(10, [&] { return AnyI64(); });
    index.definition_level_histograms = VectorOf<int64_t>(10, [&] { return AnyI64(); });
    return index;
  }

  OffsetIndex MakeOffsetIndex() {
    OffsetIndex index;
    index.page_locations = VectorOf<PageLocation>(40, [&] {
      return PageLocation{NonNegativeI64(), NonNegativeI32(), NonNegativeI64()};
    });
    index.unencoded_byte_array_data_bytes = VectorOf<int64_t>(5, [&] { return AnyI64(); });
    return index;
  }

 private:
  std::mt19937_64 rng_;
};

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
