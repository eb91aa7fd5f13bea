// A generator of randomly populated parquet.thrift structs for round-trip tests: every
// optional field present or absent at random, integers of every varint length, enums of raw
// values where the decoder keeps them.
#pragma once

#include <cstdint>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "parquet/metadata.h"

namespace tarn::parquet::testing_support {

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

}  // namespace tarn::parquet::testing_support
