// Names of parquet.thrift enum values, spelled as parquet.thrift spells them. The codec itself
// lives in metadata_decode.cc, metadata_decode_pages.cc and metadata_encode.cc.

#include "parquet/metadata.h"

namespace tarn::parquet {

std::string_view PhysicalTypeName(PhysicalType type) {
  switch (type) {
    case PhysicalType::kBoolean:
      return "BOOLEAN";
    case PhysicalType::kInt32:
      return "INT32";
    case PhysicalType::kInt64:
      return "INT64";
    case PhysicalType::kInt96:
      return "INT96";
    case PhysicalType::kFloat:
      return "FLOAT";
    case PhysicalType::kDouble:
      return "DOUBLE";
    case PhysicalType::kByteArray:
      return "BYTE_ARRAY";
    case PhysicalType::kFixedLenByteArray:
      return "FIXED_LEN_BYTE_ARRAY";
  }
  return "UNKNOWN";
}

std::string_view EncodingName(Encoding encoding) {
  switch (encoding) {
    case Encoding::kPlain:
      return "PLAIN";
    case Encoding::kPlainDictionary:
      return "PLAIN_DICTIONARY";
    case Encoding::kRle:
      return "RLE";
    case Encoding::kBitPacked:
      return "BIT_PACKED";
    case Encoding::kDeltaBinaryPacked:
      return "DELTA_BINARY_PACKED";
    case Encoding::kDeltaLengthByteArray:
      return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::kDeltaByteArray:
      return "DELTA_BYTE_ARRAY";
    case Encoding::kRleDictionary:
      return "RLE_DICTIONARY";
    case Encoding::kByteStreamSplit:
      return "BYTE_STREAM_SPLIT";
  }
  return "UNKNOWN";
}

std::string_view CodecName(CompressionCodec codec) {
  switch (codec) {
    case CompressionCodec::kUncompressed:
      return "UNCOMPRESSED";
    case CompressionCodec::kSnappy:
      return "SNAPPY";
    case CompressionCodec::kGzip:
      return "GZIP";
    case CompressionCodec::kLzo:
      return "LZO";
    case CompressionCodec::kBrotli:
      return "BROTLI";
    case CompressionCodec::kLz4:
      return "LZ4";
    case CompressionCodec::kZstd:
      return "ZSTD";
    case CompressionCodec::kLz4Raw:
      return "LZ4_RAW";
  }
  return "UNKNOWN";
}

std::string_view ConvertedTypeName(ConvertedType type) {
  switch (type) {
    case ConvertedType::kUtf8:
      return "UTF8";
    case ConvertedType::kMap:
      return "MAP";
    case ConvertedType::kMapKeyValue:
      return "MAP_KEY_VALUE";
    case ConvertedType::kList:
      return "LIST";
    case ConvertedType::kEnum:
      return "ENUM";
    case ConvertedType::kDecimal:
      return "DECIMAL";
    case ConvertedType::kDate:
      return "DATE";
    case ConvertedType::kTimeMillis:
      return "TIME_MILLIS";
    case ConvertedType::kTimeMicros:
      return "TIME_MICROS";
    case ConvertedType::kTimestampMillis:
      return "TIMESTAMP_MILLIS";
    case ConvertedType::kTimestampMicros:
      return "TIMESTAMP_MICROS";
    case ConvertedType::kUint8:
      return "UINT_8";
    case ConvertedType::kUint16:
      return "UINT_16";
    case ConvertedType::kUint32:
      return "UINT_32";
    case ConvertedType::kUint64:
      return "UINT_64";
    case ConvertedType::kInt8:
      return "INT_8";
    case ConvertedType::kInt16:
      return "INT_16";
    case ConvertedType::kInt32:
      return "INT_32";
    case ConvertedType::kInt64:
      return "INT_64";
    case ConvertedType::kJson:
      return "JSON";
    case ConvertedType::kBson:
      return "BSON";
    case ConvertedType::kInterval:
      return "INTERVAL";
  }
  return "UNKNOWN";
}

std::string_view PageTypeName(PageType type) {
  switch (type) {
    case PageType::kDataPage:
      return "DATA_PAGE";
    case PageType::kIndexPage:
      return "INDEX_PAGE";
    case PageType::kDictionaryPage:
      return "DICTIONARY_PAGE";
    case PageType::kDataPageV2:
      return "DATA_PAGE_V2";
  }
  return "UNKNOWN";
}

}  // namespace tarn::parquet
