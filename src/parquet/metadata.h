// The Parquet file metadata (parquet.thrift) as plain C++ structs, and their Thrift compact
// protocol codec.
//
// Field names follow parquet.thrift in snake_case; optional Thrift fields are std::optional.
// Decoding is bounds-checked everywhere and refuses hostile sizes (see DecodeLimits): a
// malformed footer or page header is a Corruption status naming what was being decoded, never
// a crash or an unbounded allocation. Unknown fields are skipped, as Thrift requires; a known
// field with the wrong wire type, or a missing required field, is Corruption.
//
// Enum values: PhysicalType, Repetition and BoundaryOrder are checked on decode (a value
// outside the named enumerators is Corruption). Encoding, CompressionCodec, ConvertedType and
// PageType keep whatever value the file holds, so consumers must treat a value outside the
// named enumerators as unsupported (e.g. skip an unknown page type). A LogicalType union
// member tarn does not know (or one with an unknown TimeUnit) decodes as Kind::kNone, and the
// encoder writes no logicalType for Kind::kNone. Optional lists are empty when absent.
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tarn/status.h"

namespace tarn::parquet {

enum class PhysicalType : int32_t {
  kBoolean = 0, kInt32 = 1, kInt64 = 2, kInt96 = 3, kFloat = 4, kDouble = 5,
  kByteArray = 6, kFixedLenByteArray = 7,
};

enum class ConvertedType : int32_t {
  kUtf8 = 0, kMap = 1, kMapKeyValue = 2, kList = 3, kEnum = 4, kDecimal = 5, kDate = 6,
  kTimeMillis = 7, kTimeMicros = 8, kTimestampMillis = 9, kTimestampMicros = 10,
  kUint8 = 11, kUint16 = 12, kUint32 = 13, kUint64 = 14, kInt8 = 15, kInt16 = 16,
  kInt32 = 17, kInt64 = 18, kJson = 19, kBson = 20, kInterval = 21,
};

enum class Repetition : int32_t { kRequired = 0, kOptional = 1, kRepeated = 2 };

enum class Encoding : int32_t {
  kPlain = 0, kPlainDictionary = 2, kRle = 3, kBitPacked = 4, kDeltaBinaryPacked = 5,
  kDeltaLengthByteArray = 6, kDeltaByteArray = 7, kRleDictionary = 8, kByteStreamSplit = 9,
};

enum class CompressionCodec : int32_t {
  kUncompressed = 0, kSnappy = 1, kGzip = 2, kLzo = 3, kBrotli = 4, kLz4 = 5, kZstd = 6,
  kLz4Raw = 7,
};

enum class PageType : int32_t {
  kDataPage = 0, kIndexPage = 1, kDictionaryPage = 2, kDataPageV2 = 3,
};

enum class TimeUnit : int32_t { kMillis = 0, kMicros = 1, kNanos = 2 };

// The LogicalType union. `kind` says which member is set.
struct LogicalType {
  enum class Kind : int32_t {
    kNone = 0, kString = 1, kMap = 2, kList = 3, kEnum = 4, kDecimal = 5, kDate = 6,
    kTime = 7, kTimestamp = 8, kInteger = 10, kUnknown = 11, kJson = 12, kBson = 13,
    kUuid = 14, kFloat16 = 15, kVariant = 16, kGeometry = 17, kGeography = 18,
  };
  Kind kind = Kind::kNone;
  int32_t decimal_scale = 0;      // kDecimal
  int32_t decimal_precision = 0;  // kDecimal
  bool is_adjusted_to_utc = false;  // kTime, kTimestamp
  TimeUnit unit = TimeUnit::kMicros;  // kTime, kTimestamp
  int8_t bit_width = 0;           // kInteger: 8, 16, 32, 64
  bool is_signed = true;          // kInteger
  std::optional<std::string> crs;  // kGeometry, kGeography
  int32_t variant_specification_version = 0;  // kVariant (i8 on the wire; 0 = absent)
  std::optional<int32_t> geography_algorithm;  // kGeography: EdgeInterpolationAlgorithm

  friend bool operator==(const LogicalType&, const LogicalType&) = default;
};

struct SchemaElement {
  std::optional<PhysicalType> type;
  std::optional<int32_t> type_length;
  std::optional<Repetition> repetition_type;
  std::string name;
  std::optional<int32_t> num_children;
  std::optional<ConvertedType> converted_type;
  std::optional<int32_t> scale;
  std::optional<int32_t> precision;
  std::optional<int32_t> field_id;
  std::optional<LogicalType> logical_type;

  friend bool operator==(const SchemaElement&, const SchemaElement&) = default;
};

struct Statistics {
  std::optional<std::string> max;  // deprecated, signed-order only
  std::optional<std::string> min;
  std::optional<int64_t> null_count;
  std::optional<int64_t> distinct_count;
  std::optional<std::string> max_value;
  std::optional<std::string> min_value;
  std::optional<bool> is_max_value_exact;
  std::optional<bool> is_min_value_exact;
  std::optional<int64_t> nan_count;  // field 9

  friend bool operator==(const Statistics&, const Statistics&) = default;
};

struct KeyValue {
  std::string key;
  std::optional<std::string> value;

  friend bool operator==(const KeyValue&, const KeyValue&) = default;
};

struct PageEncodingStats {
  PageType page_type = PageType::kDataPage;
  Encoding encoding = Encoding::kPlain;
  int32_t count = 0;

  friend bool operator==(const PageEncodingStats&, const PageEncodingStats&) = default;
};

struct SizeStatistics {
  std::optional<int64_t> unencoded_byte_array_data_bytes;
  std::vector<int64_t> repetition_level_histogram;
  std::vector<int64_t> definition_level_histogram;

  friend bool operator==(const SizeStatistics&, const SizeStatistics&) = default;
};

// Parquet's BoundingBox and GeospatialStatistics (GEOMETRY columns): the box over every
// coordinate, Z and M only when some value has them, and the ISO WKB type codes present
// (1 point, 1002 linestring Z, ...).
struct BoundingBox {
  double xmin = 0;
  double xmax = 0;
  double ymin = 0;
  double ymax = 0;
  std::optional<double> zmin;
  std::optional<double> zmax;
  std::optional<double> mmin;
  std::optional<double> mmax;

  friend bool operator==(const BoundingBox&, const BoundingBox&) = default;
};

struct GeospatialStatistics {
  std::optional<BoundingBox> bbox;
  std::vector<int32_t> geospatial_types;

  friend bool operator==(const GeospatialStatistics&, const GeospatialStatistics&) = default;
};

struct ColumnMetaData {
  PhysicalType type = PhysicalType::kInt32;
  std::vector<Encoding> encodings;
  std::vector<std::string> path_in_schema;
  CompressionCodec codec = CompressionCodec::kUncompressed;
  int64_t num_values = 0;
  int64_t total_uncompressed_size = 0;
  int64_t total_compressed_size = 0;
  std::vector<KeyValue> key_value_metadata;
  int64_t data_page_offset = 0;
  std::optional<int64_t> index_page_offset;
  std::optional<int64_t> dictionary_page_offset;
  std::optional<Statistics> statistics;
  std::vector<PageEncodingStats> encoding_stats;
  std::optional<int64_t> bloom_filter_offset;
  std::optional<int32_t> bloom_filter_length;
  std::optional<SizeStatistics> size_statistics;
  std::optional<GeospatialStatistics> geospatial_statistics;

  friend bool operator==(const ColumnMetaData&, const ColumnMetaData&) = default;
};

struct ColumnChunk {
  std::optional<std::string> file_path;
  int64_t file_offset = 0;
  std::optional<ColumnMetaData> meta_data;
  std::optional<int64_t> offset_index_offset;
  std::optional<int32_t> offset_index_length;
  std::optional<int64_t> column_index_offset;
  std::optional<int32_t> column_index_length;
  bool has_crypto_metadata = false;              // set when the chunk is encrypted
  std::optional<std::string> encrypted_column_metadata;

  friend bool operator==(const ColumnChunk&, const ColumnChunk&) = default;
};

struct SortingColumn {
  int32_t column_idx = 0;
  bool descending = false;
  bool nulls_first = false;

  friend bool operator==(const SortingColumn&, const SortingColumn&) = default;
};

struct RowGroup {
  std::vector<ColumnChunk> columns;
  int64_t total_byte_size = 0;
  int64_t num_rows = 0;
  std::vector<SortingColumn> sorting_columns;
  std::optional<int64_t> file_offset;
  std::optional<int64_t> total_compressed_size;
  std::optional<int16_t> ordinal;

  friend bool operator==(const RowGroup&, const RowGroup&) = default;
};

struct ColumnOrder {
  bool type_defined_order = true;    // TYPE_ORDER (union member 1)
  bool ieee754_total_order = false;  // IEEE_754_TOTAL_ORDER (union member 2)
  // Both false: a member tarn does not know; min/max statistics must then be ignored.

  friend bool operator==(const ColumnOrder&, const ColumnOrder&) = default;
};

struct FileMetaData {
  int32_t version = 1;
  std::vector<SchemaElement> schema;
  int64_t num_rows = 0;
  std::vector<RowGroup> row_groups;
  std::vector<KeyValue> key_value_metadata;
  std::optional<std::string> created_by;
  std::vector<ColumnOrder> column_orders;
  bool has_encryption_algorithm = false;  // plaintext footer of an encrypted file
  std::optional<std::string> footer_signing_key_metadata;

  friend bool operator==(const FileMetaData&, const FileMetaData&) = default;
};

struct DataPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  Encoding definition_level_encoding = Encoding::kRle;
  Encoding repetition_level_encoding = Encoding::kRle;
  std::optional<Statistics> statistics;

  friend bool operator==(const DataPageHeader&, const DataPageHeader&) = default;
};

struct DictionaryPageHeader {
  int32_t num_values = 0;
  Encoding encoding = Encoding::kPlain;
  std::optional<bool> is_sorted;

  friend bool operator==(const DictionaryPageHeader&, const DictionaryPageHeader&) = default;
};

struct DataPageHeaderV2 {
  int32_t num_values = 0;
  int32_t num_nulls = 0;
  int32_t num_rows = 0;
  Encoding encoding = Encoding::kPlain;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;  // Thrift default
  std::optional<Statistics> statistics;

  friend bool operator==(const DataPageHeaderV2&, const DataPageHeaderV2&) = default;
};

struct PageHeader {
  PageType type = PageType::kDataPage;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  std::optional<int32_t> crc;
  std::optional<DataPageHeader> data_page_header;
  std::optional<DictionaryPageHeader> dictionary_page_header;
  std::optional<DataPageHeaderV2> data_page_header_v2;

  friend bool operator==(const PageHeader&, const PageHeader&) = default;
};

// Page index structures (read and written by the page-index work; decoded here already).
enum class BoundaryOrder : int32_t { kUnordered = 0, kAscending = 1, kDescending = 2 };

struct ColumnIndex {
  std::vector<bool> null_pages;
  std::vector<std::string> min_values;
  std::vector<std::string> max_values;
  BoundaryOrder boundary_order = BoundaryOrder::kUnordered;
  std::vector<int64_t> null_counts;                  // empty = absent
  std::vector<int64_t> repetition_level_histograms;  // empty = absent
  std::vector<int64_t> definition_level_histograms;  // empty = absent
  std::vector<int64_t> nan_counts;                   // empty = absent

  friend bool operator==(const ColumnIndex&, const ColumnIndex&) = default;
};

struct PageLocation {
  int64_t offset = 0;
  int32_t compressed_page_size = 0;
  int64_t first_row_index = 0;

  friend bool operator==(const PageLocation&, const PageLocation&) = default;
};

struct OffsetIndex {
  std::vector<PageLocation> page_locations;
  std::vector<int64_t> unencoded_byte_array_data_bytes;  // empty = absent

  friend bool operator==(const OffsetIndex&, const OffsetIndex&) = default;
};

// FileCryptoMetaData: the plaintext prefix of an encrypted footer (a file ending in "PARE").
// The encrypted FileMetaData follows it; tarn does not decrypt.
struct FileCryptoMetaData {
  int32_t encryption_algorithm = 0;  // union member: 1 = AES_GCM_V1, 2 = AES_GCM_CTR_V1
  std::optional<std::string> key_metadata;

  friend bool operator==(const FileCryptoMetaData&, const FileCryptoMetaData&) = default;
};

// Bounds applied while decoding untrusted metadata.
struct DecodeLimits {
  int64_t max_string_bytes = 256 << 20;   // any single binary/string field
  int64_t max_list_elements = 16 << 20;   // any single list
  int32_t max_struct_depth = 64;          // nesting of Thrift structs

  friend bool operator==(const DecodeLimits&, const DecodeLimits&) = default;
};

// Decoders. `bytes` is exactly the serialized struct; `consumed` (when not null) receives the
// number of bytes the struct used (page headers are followed by page data).
Result<FileMetaData> DecodeFileMetaData(std::string_view bytes, const DecodeLimits& limits = {});
Result<PageHeader> DecodePageHeader(std::string_view bytes, int64_t* consumed,
                                    const DecodeLimits& limits = {});
Result<ColumnIndex> DecodeColumnIndex(std::string_view bytes, const DecodeLimits& limits = {});
Result<OffsetIndex> DecodeOffsetIndex(std::string_view bytes, const DecodeLimits& limits = {});
Result<FileCryptoMetaData> DecodeFileCryptoMetaData(std::string_view bytes, int64_t* consumed,
                                                    const DecodeLimits& limits = {});

// Encoders: append the compact-protocol serialization to `out`.
void EncodeFileMetaData(const FileMetaData& metadata, std::string* out);
void EncodePageHeader(const PageHeader& header, std::string* out);
void EncodeColumnIndex(const ColumnIndex& index, std::string* out);
void EncodeOffsetIndex(const OffsetIndex& index, std::string* out);
void EncodeFileCryptoMetaData(const FileCryptoMetaData& crypto, std::string* out);

// Names as parquet.thrift spells them ("PLAIN", "RLE_DICTIONARY", "SNAPPY", "INT64", ...).
// A value outside the named enumerators (possible for values decoded from a file) is "UNKNOWN".
std::string_view PhysicalTypeName(PhysicalType type);
std::string_view EncodingName(Encoding encoding);
std::string_view CodecName(CompressionCodec codec);
std::string_view ConvertedTypeName(ConvertedType type);
std::string_view PageTypeName(PageType type);

}  // namespace tarn::parquet
