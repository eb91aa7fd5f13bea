// `tarn parquet write IN OUT [options]`: transcodes a Parquet or CSV file into Parquet.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "commands.h"
#include "output.h"
#include "parquet/compression.h"
#include "tarn/format.h"
#include "tarn/parquet.h"

namespace tarn::cli {
namespace {

bool EndsWithCaseInsensitive(const std::string& text, std::string_view suffix) {
  if (text.size() < suffix.size()) return false;
  for (size_t i = 0; i < suffix.size(); ++i) {
    char a = text[text.size() - suffix.size() + i];
    if (std::tolower(static_cast<unsigned char>(a)) != suffix[i]) return false;
  }
  return true;
}

Result<std::shared_ptr<const WriterProperties>> PropertiesFrom(const ParquetWriteArgs& args) {
  std::string codec_name = args.compression;
  int level = 0;
  if (size_t colon = codec_name.find(':'); colon != std::string::npos) {
    std::string level_text = codec_name.substr(colon + 1);
    codec_name = codec_name.substr(0, colon);
    char* end = nullptr;
    long parsed = std::strtol(level_text.c_str(), &end, 10);
    if (level_text.empty() || *end != '\0') {
      return Status::InvalidArgument("--compression: level \"", level_text,
                                     "\" is not an integer");
    }
    level = static_cast<int>(parsed);
  }
  TARN_ASSIGN_OR_RETURN(parquet::CompressionCodec codec, parquet::ParseCodec(codec_name));
  return WriterProperties::Builder()
      .compression(static_cast<int>(codec), level)
      .max_row_group_rows(args.row_group_rows)
      .max_row_group_bytes(args.row_group_bytes)
      .data_page_bytes(args.page_bytes)
      .data_page_rows(args.page_rows)
      .dictionary_page_bytes_limit(args.dictionary_limit)
      .data_page_version(args.page_version)
      .statistics_truncate_length(args.stats_truncate)
      .created_by(std::string("tarn ") + TARN_VERSION)
      .Build();
}

Status Write(const ParquetWriteArgs& args) {
  TARN_ASSIGN_OR_RETURN(auto properties, PropertiesFrom(args));
  auto fs = LocalFileSystem();
  std::unique_ptr<ParquetReader> parquet_input;  // outlives `input`, its scan
  std::unique_ptr<BatchReader> input;
  if (EndsWithCaseInsensitive(args.input, ".csv")) {
    TARN_ASSIGN_OR_RETURN(input, CsvReader::Open(fs, args.input));
  } else {
    TARN_ASSIGN_OR_RETURN(parquet_input, ParquetReader::Open(fs, args.input));
    TARN_ASSIGN_OR_RETURN(input, parquet_input->Scan(ScanOptions{}));
  }
  TARN_ASSIGN_OR_RETURN(auto writer,
                        ParquetWriter::Open(fs, args.output, *input->schema(), properties));
  while (true) {
    auto batch = input->Next();
    if (!batch.ok()) {
      writer->Abandon();
      return batch.status();
    }
    if (!*batch) break;
    Status status = writer->Write(**batch);
    if (!status.ok()) {
      writer->Abandon();
      return status;
    }
  }
  TARN_ASSIGN_OR_RETURN(WrittenFileInfo info, writer->Finish());
  std::fprintf(stderr, "wrote %s: %lld rows, %d row groups, %lld bytes\n", args.output.c_str(),
               static_cast<long long>(info.num_rows), info.num_row_groups,
               static_cast<long long>(info.file_size));
  return Status::OK();
}

}  // namespace

int RunParquetWrite(const ParquetWriteArgs& args) {
  Status status = Write(args);
  if (status.ok()) return 0;
  return ReportError(status.message());
}

}  // namespace tarn::cli
