#include <algorithm>
#include <cctype>
#include <string>

#include "parquet/metadata.h"
#include "tarn/layout.h"

namespace tarn {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

Result<WriterProfile> ParseWriterProfile(std::string_view text) {
  const std::string lower = Lower(text);
  if (lower == "duckdb" || lower == "default") return WriterProfile::kDuckDb;
  if (lower == "read_optimized") return WriterProfile::kReadOptimized;
  return Status::InvalidArgument("unknown parquet_profile '", text,
                                 "': expected 'duckdb' (the default) or 'read_optimized'");
}

std::string_view WriterProfileName(WriterProfile profile) {
  return profile == WriterProfile::kReadOptimized ? "read_optimized" : "duckdb";
}

int64_t ReadOptimizedRowGroupRows(int64_t rows, const ReadOptimizedSettings& settings) {
  const int64_t lanes = std::max<int64_t>(1, settings.lanes);
  const int64_t per_lane = rows <= 0 ? 0 : (rows + lanes - 1) / lanes;
  return std::clamp(per_lane, settings.min_row_group_rows, settings.max_row_group_rows);
}

void ApplyReadOptimized(WriterProperties::Builder& builder, int64_t rows,
                        const ReadOptimizedSettings& settings) {
  builder.compression(static_cast<int>(parquet::CompressionCodec::kSnappy));
  builder.max_row_group_rows(ReadOptimizedRowGroupRows(rows, settings));
  // Row groups are sized by rows; the byte bound only guards memory (one open row group).
  builder.max_row_group_bytes(int64_t{4} << 30);
  builder.dictionary_page_bytes_limit(settings.dictionary_page_bytes_limit);
  builder.data_page_bytes(settings.data_page_bytes);
  builder.data_page_rows(settings.data_page_rows);
  builder.statistics_truncate_length(settings.statistics_truncate_length);
}

Result<std::shared_ptr<const WriterProperties>> WriterPropertiesFor(WriterProfile profile,
                                                                   int64_t rows) {
  WriterProperties::Builder builder;
  if (profile == WriterProfile::kReadOptimized) ApplyReadOptimized(builder, rows);
  return builder.Build();
}

}  // namespace tarn
