#include <algorithm>

#include "parquet/metadata.h"
#include "tarn/parquet.h"

namespace tarn {

using Builder = WriterProperties::Builder;

Builder& Builder::compression(int codec, int level) {
  props_.compression_ = codec;
  props_.compression_level_ = level;
  return *this;
}
Builder& Builder::max_row_group_rows(int64_t rows) {
  props_.max_row_group_rows_ = rows;
  return *this;
}
Builder& Builder::max_row_group_bytes(int64_t bytes) {
  props_.max_row_group_bytes_ = bytes;
  return *this;
}
Builder& Builder::data_page_bytes(int64_t bytes) {
  props_.data_page_bytes_ = bytes;
  return *this;
}
Builder& Builder::data_page_rows(int64_t rows) {
  props_.data_page_rows_ = rows;
  return *this;
}
Builder& Builder::dictionary_page_bytes_limit(int64_t bytes) {
  props_.dictionary_page_bytes_limit_ = bytes;
  return *this;
}
Builder& Builder::dictionary_enabled(bool enabled) {
  props_.dictionary_enabled_ = enabled;
  return *this;
}
Builder& Builder::data_page_version(int version) {
  props_.data_page_version_ = version;
  return *this;
}
Builder& Builder::statistics_enabled(bool enabled) {
  props_.statistics_enabled_ = enabled;
  return *this;
}
Builder& Builder::statistics_truncate_length(int64_t bytes) {
  props_.statistics_truncate_length_ = bytes;
  return *this;
}
Builder& Builder::write_page_crc(bool enabled) {
  props_.write_page_crc_ = enabled;
  return *this;
}
Builder& Builder::created_by(std::string value) {
  props_.created_by_ = std::move(value);
  return *this;
}
Builder& Builder::column_encoding(std::string column, int encoding) {
  auto& list = props_.column_encodings_;
  list.erase(std::remove_if(list.begin(), list.end(),
                            [&](const auto& entry) { return entry.first == column; }),
             list.end());
  list.emplace_back(std::move(column), encoding);
  return *this;
}
Builder& Builder::delta_fallback(bool enabled) {
  props_.delta_fallback_ = enabled;
  return *this;
}

std::optional<int> WriterProperties::column_encoding(
    const std::vector<std::string>& leaf_path) const {
  if (column_encodings_.empty() || leaf_path.empty()) return std::nullopt;
  std::string dotted;
  for (const std::string& part : leaf_path) {
    if (!dotted.empty()) dotted += '.';
    dotted += part;
  }
  for (const auto& [column, encoding] : column_encodings_) {
    if (column == dotted) return encoding;
  }
  for (const auto& [column, encoding] : column_encodings_) {
    if (column == leaf_path[0]) return encoding;
  }
  return std::nullopt;
}

Result<std::shared_ptr<const WriterProperties>> Builder::Build() const {
  using parquet::CompressionCodec;
  const WriterProperties& p = props_;
  switch (static_cast<CompressionCodec>(p.compression_)) {
    case CompressionCodec::kUncompressed:
    case CompressionCodec::kSnappy:
    case CompressionCodec::kGzip:
    case CompressionCodec::kBrotli:
    case CompressionCodec::kZstd:
    case CompressionCodec::kLz4Raw:
      break;
    default:
      return Status::InvalidArgument("writer property compression: codec ", p.compression_,
                                     " cannot be written (expected UNCOMPRESSED, SNAPPY, GZIP, "
                                     "BROTLI, ZSTD or LZ4_RAW)");
  }
  if (p.compression_level_ < -131072 || p.compression_level_ > 22) {
    return Status::InvalidArgument("writer property compression_level: ", p.compression_level_,
                                   " is out of range");
  }
  if (p.max_row_group_rows_ < 1) {
    return Status::InvalidArgument("writer property max_row_group_rows: must be >= 1, got ",
                                   p.max_row_group_rows_);
  }
  if (p.max_row_group_bytes_ < 1) {
    return Status::InvalidArgument("writer property max_row_group_bytes: must be >= 1, got ",
                                   p.max_row_group_bytes_);
  }
  if (p.data_page_bytes_ < 1 || p.data_page_bytes_ > (1LL << 30)) {
    return Status::InvalidArgument("writer property data_page_bytes: must be in [1, 2^30], got ",
                                   p.data_page_bytes_);
  }
  if (p.data_page_rows_ < 1 || p.data_page_rows_ > (1LL << 30)) {
    return Status::InvalidArgument("writer property data_page_rows: must be in [1, 2^30], got ",
                                   p.data_page_rows_);
  }
  if (p.dictionary_page_bytes_limit_ < 0 || p.dictionary_page_bytes_limit_ > (1LL << 30)) {
    return Status::InvalidArgument(
        "writer property dictionary_page_bytes_limit: must be in [0, 2^30], got ",
        p.dictionary_page_bytes_limit_);
  }
  if (p.data_page_version_ != 1 && p.data_page_version_ != 2) {
    return Status::InvalidArgument("writer property data_page_version: must be 1 or 2, got ",
                                   p.data_page_version_);
  }
  if (p.statistics_truncate_length_ < 1) {
    return Status::InvalidArgument(
        "writer property statistics_truncate_length: must be >= 1, got ",
        p.statistics_truncate_length_);
  }
  for (const auto& [column, encoding] : p.column_encodings_) {
    if (column.empty()) {
      return Status::InvalidArgument("writer property column_encoding: empty column name");
    }
    switch (static_cast<parquet::Encoding>(encoding)) {
      case parquet::Encoding::kPlain:
      case parquet::Encoding::kPlainDictionary:
      case parquet::Encoding::kRleDictionary:
      case parquet::Encoding::kDeltaBinaryPacked:
      case parquet::Encoding::kDeltaLengthByteArray:
      case parquet::Encoding::kDeltaByteArray:
      case parquet::Encoding::kByteStreamSplit:
        break;
      default:
        return Status::InvalidArgument("writer property column_encoding: encoding ", encoding,
                                       " for column '", column,
                                       "' cannot encode data pages (expected PLAIN, "
                                       "RLE_DICTIONARY, DELTA_BINARY_PACKED, "
                                       "DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY or "
                                       "BYTE_STREAM_SPLIT)");
    }
  }
  return std::shared_ptr<const WriterProperties>(std::make_shared<WriterProperties>(p));
}

}  // namespace tarn
