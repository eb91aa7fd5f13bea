#include "sql/exec/copy.h"

#include "parquet/compression.h"
#include "sql/plan/names.h"
#include "tarn/format.h"
#include "tarn/parquet.h"

namespace tarn::sql {
namespace {

struct CopyOptions {
  std::string format;
  bool header = true;
  char delimiter = ',';
  std::string compression = "snappy";
  int64_t row_group_size = 122880;
};

Result<Value> OptionValue(const std::string& name, const ast::Expr* expr) {
  if (expr == nullptr) return Value::Boolean(true);  // HEADER alone means HEADER true
  Schema empty;
  TARN_ASSIGN_OR_RETURN(auto bound, Bind(*expr, empty));
  if (!bound->IsConstant()) {
    return Status::InvalidArgument("Binder Error: COPY option ", name, " must be a constant");
  }
  return bound->EvaluateConstant();
}

Result<CopyOptions> ParseOptions(const Statement& copy) {
  CopyOptions options;
  std::string lower_path = LowerAscii(copy.copy_path);
  if (lower_path.ends_with(".parquet")) options.format = "parquet";
  if (lower_path.ends_with(".csv") || lower_path.ends_with(".tsv")) options.format = "csv";
  if (lower_path.ends_with(".json") || lower_path.ends_with(".ndjson") ||
      lower_path.ends_with(".jsonl")) {
    options.format = "json";
  }
  for (const auto& [name, expr] : copy.copy_options) {
    TARN_ASSIGN_OR_RETURN(Value value, OptionValue(name, expr.get()));
    std::string text = value.is_null() ? "" : FormatValue(value);
    if (name == "FORMAT") {
      options.format = LowerAscii(text);
    } else if (name == "HEADER") {
      std::string lower = LowerAscii(text);
      options.header = lower == "true" || lower == "1" || lower == "t";
    } else if (name == "DELIMITER" || name == "DELIM" || name == "SEP") {
      if (text.size() != 1) {
        return Status::InvalidArgument("Binder Error: COPY ", name, " must be one character");
      }
      options.delimiter = text[0];
    } else if (name == "COMPRESSION" || name == "CODEC") {
      options.compression = LowerAscii(text);
    } else if (name == "ROW_GROUP_SIZE") {
      char* end = nullptr;
      options.row_group_size = std::strtoll(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0' || options.row_group_size <= 0) {
        return Status::InvalidArgument("Binder Error: COPY ROW_GROUP_SIZE must be a positive integer");
      }
    } else {
      return Status::InvalidArgument("Binder Error: unrecognized COPY option \"", name,
                                     "\" (supported: FORMAT, HEADER, DELIMITER, COMPRESSION, "
                                     "ROW_GROUP_SIZE)");
    }
  }
  if (options.format.empty()) {
    return Status::InvalidArgument("Binder Error: COPY TO '", copy.copy_path,
                                   "' needs a FORMAT (parquet, csv or json)");
  }
  if (options.format != "parquet" && options.format != "csv" && options.format != "json") {
    return Status::NotSupported("not yet supported: COPY format \"", options.format,
                                "\" (supported: parquet, csv, json)");
  }
  return options;
}

Result<int64_t> CopyParquet(Operator* input, const std::string& path, const CopyOptions& options,
                            const ExecContext& context) {
  TARN_ASSIGN_OR_RETURN(parquet::CompressionCodec codec, parquet::ParseCodec(options.compression));
  TARN_ASSIGN_OR_RETURN(auto properties, WriterProperties::Builder()
                                             .compression(static_cast<int>(codec))
                                             .max_row_group_rows(options.row_group_size)
                                             .Build());
  TARN_ASSIGN_OR_RETURN(auto writer,
                        ParquetWriter::Open(context.fs, path, *input->schema(), properties));
  int64_t rows = 0;
  while (true) {
    Result<std::shared_ptr<Batch>> batch = input->Next();
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
    rows += (*batch)->num_rows;
  }
  TARN_ASSIGN_OR_RETURN(WrittenFileInfo info, writer->Finish());
  (void)info;
  return rows;
}

Result<int64_t> CopyText(Operator* input, const std::string& path, const CopyOptions& options,
                         const ExecContext& context) {
  TARN_ASSIGN_OR_RETURN(std::unique_ptr<WritableFile> file, context.fs->OpenForWrite(path));
  FileSink sink(file.get());
  CsvWriteOptions csv_options;
  csv_options.header = options.header;
  csv_options.delimiter = options.delimiter;
  CsvWriter csv(&sink, csv_options);
  JsonLinesWriter json(&sink);
  bool is_csv = options.format == "csv";
  if (is_csv) TARN_RETURN_NOT_OK(csv.Begin(*input->schema()));
  int64_t rows = 0;
  while (true) {
    TARN_ASSIGN_OR_RETURN(std::shared_ptr<Batch> batch, input->Next());
    if (!batch) break;
    TARN_RETURN_NOT_OK(is_csv ? csv.Write(*batch) : json.Write(*batch));
    rows += batch->num_rows;
  }
  TARN_RETURN_NOT_OK(file->Close());
  return rows;
}

}  // namespace

Result<int64_t> ExecuteCopy(Operator* input, const Statement& copy, const ExecContext& context) {
  TARN_ASSIGN_OR_RETURN(CopyOptions options, ParseOptions(copy));
  if (options.format == "parquet") return CopyParquet(input, copy.copy_path, options, context);
  return CopyText(input, copy.copy_path, options, context);
}

}  // namespace tarn::sql
